"""Meeting in the lobby (issue 25) over real sockets: ``who``, a challenge accepted or
declined, seeks that pair (with the people-only and bots-only filters), and bots marked as
bots wherever names are shown (issue 24).  How long a challenge lasts is driven on the
core's injected clock (``test_core.Harness``), never on the wall clock."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from .harness import Client, play_out, running_server, text_connection, text_until
from .test_core import Harness


async def _online(port: int, name: str, bot: bool = False) -> Client:
    client = await Client.connect(port)
    await client.hello(name, bot=bot)
    return client


async def test_who_lists_a_person_and_a_bot_and_where_they_are() -> None:
    async with running_server() as server:
        ann = await _online(server.port, "ann")
        pybot = await _online(server.port, "pybot", bot=True)
        await pybot.request({"type": "create_table", "preset": "noddy"})
        wes = await _online(server.port, "wes")
        await wes.request({"type": "spectate", "table": 1})
        who = await ann.request({"type": "who"})
        assert who["type"] == "who"
        assert [{k: e[k] for k in ("name", "bot", "where", "table", "seat", "away", "seeking")}
                for e in who["people"]] == [
            {"name": "ann", "bot": False, "where": "lobby", "table": None, "seat": None, "away": False,
             "seeking": None},
            {"name": "pybot", "bot": True, "where": "seated", "table": 1, "seat": 0, "away": False,
             "seeking": None},
            {"name": "wes", "bot": False, "where": "watching", "table": 1, "seat": None, "away": False,
             "seeking": None}]
        assert all(isinstance(e["idle"], int) and e["idle"] >= 0 for e in who["people"])
        people = await ann.request({"type": "who", "people_only": True})
        assert [e["name"] for e in people["people"]] == ["ann", "wes"]
        # A dropped player whose seat is held is listed as away.
        await pybot.close()
        await wes.recv_until(lambda m: m["type"] == "player_away")
        who = await ann.request({"type": "who"})
        assert [(e["name"], e["away"], e["idle"]) for e in who["people"] if e["bot"]] == [("pybot", True, None)]
        for client in (ann, wes):
            await client.close()


async def test_a_challenge_accepted_opens_a_table_and_the_game_starts_when_both_are_ready() -> None:
    async with running_server() as server:
        ann = await _online(server.port, "ann")
        bot = await _online(server.port, "pybot", bot=True)
        for player in (ann, bot):  # only registered names are rated, a bot's too (issue 24)
            assert (await player.request({"type": "register", "password": "a secret"}))["type"] == "registered"
        sent = await ann.request({"type": "challenge", "name": "PYBOT", "preset": "cribbage",
                                  "options": {"target": 61}, "text": "a game?\x1b[2J"})
        challenge = sent["challenge"]
        assert sent["type"] == "challenge"
        assert {k: challenge[k] for k in ("id", "from", "from_bot", "to", "to_bot", "preset", "options", "text")} == {
            "id": 1, "from": "ann", "from_bot": False, "to": "pybot", "to_bot": True,
            "preset": "cribbage", "options": {"target": 61}, "text": "a game?\ufffd[2J"}
        assert 0 < challenge["expires_in"] <= 120
        pushed = await bot.recv_until(lambda m: m["type"] == "challenged")
        assert pushed == {"type": "challenged", "challenge": challenge}
        # The bot needs only accept and ready.
        accepted = await bot.request({"type": "accept", "challenge": 1})
        assert (accepted["type"], accepted["seat"], accepted["table"]["status"]) == ("table", 1, "waiting")
        seats = accepted["table"]["seats"]
        assert [(s["name"], s["bot"], s["ready"]) for s in seats] == [("ann", False, False), ("pybot", True, False)]
        assert (accepted["table"]["preset"], accepted["table"]["options"], accepted["table"]["rated"]) == (
            "cribbage", {"target": 61}, True)
        over = await ann.recv_until(lambda m: m["type"] == "challenge_over")
        assert over == {"type": "challenge_over", "challenge": 1, "reason": "accepted",
                        "message": "pybot accepted challenge 1"}
        placed = await ann.recv_until(lambda m: m["type"] == "table")
        assert (placed["seat"], placed["table"]["id"]) == (0, accepted["table"]["id"])
        assert (await bot.request({"type": "ready"}))["table"]["status"] == "waiting"
        started = await ann.request({"type": "ready"})
        assert started["table"]["status"] == "playing"
        await bot.recv_until(lambda m: m["type"] == "event" and m["event"]["kind"] == "game_started")
        # Both play it out.
        results = await asyncio.gather(play_out(ann, random.Random(1), timeout=60),
                                       play_out(bot, random.Random(2), timeout=60))
        assert results[0] == results[1]
        for client in (ann, bot):
            await client.close()


async def test_both_ready_at_once_start_the_game_on_accept() -> None:
    async with running_server() as server:
        one = await _online(server.port, "one", bot=True)
        two = await _online(server.port, "two", bot=True)
        await one.request({"type": "challenge", "name": "two", "ready": True})
        await two.recv_until(lambda m: m["type"] == "challenged")
        reply = await two.request({"type": "accept", "challenge": 1, "ready": True})
        assert reply["table"]["status"] == "playing"
        await one.recv_until(lambda m: m["type"] == "event" and m["event"]["kind"] == "game_started")
        for client in (one, two):
            await client.close()


async def test_a_declined_or_withdrawn_challenge_tells_the_other_and_refusals_are_clear() -> None:
    # The challenges last the default 120 s: with 0.3 s, one declined a moment late on a busy
    # machine had run out first (no_such_challenge).  Running out is the next test's.
    async with running_server() as server:
        ann = await _online(server.port, "ann")
        ben = await _online(server.port, "ben")
        refusals = [
            ({"type": "challenge", "name": "nobody"}, "no_such_player", "name"),
            ({"type": "challenge", "name": "Ann"}, "bad_field", "name"),
            ({"type": "challenge", "name": "ben", "preset": "whist"}, "unknown_preset", None),
            ({"type": "challenge", "name": "ben", "options": {"target": 9}}, "invalid_option", None),
            ({"type": "accept", "challenge": 7}, "no_such_challenge", "challenge"),
            ({"type": "decline", "challenge": 7}, "no_such_challenge", "challenge"),
        ]
        for request, code, field in refusals:
            error = await ann.request(request)
            assert (error["type"], error["code"], error.get("field")) == ("error", code, field), error
        await ann.request({"type": "challenge", "name": "ben"})
        await ben.recv_until(lambda m: m["type"] == "challenged")
        assert (await ben.request({"type": "decline", "challenge": 1}))["type"] == "ok"
        assert await ann.recv_until(lambda m: m["type"] == "challenge_over") == {
            "type": "challenge_over", "challenge": 1, "reason": "declined", "message": "ben declined challenge 1"}
        # Withdrawn by the challenger, with the same request.
        await ann.request({"type": "challenge", "name": "ben"})
        assert (await ann.request({"type": "decline", "challenge": 2}))["type"] == "ok"
        over = await ben.recv_until(lambda m: m["type"] == "challenge_over")
        assert (over["challenge"], over["reason"]) == (2, "withdrawn")
        # Withdrawn when the challenger sits down elsewhere; a player at a table is busy.
        await ann.request({"type": "challenge", "name": "ben"})
        await ann.request({"type": "create_table"})
        over = await ben.recv_until(lambda m: m["type"] == "challenge_over")
        assert (over["challenge"], over["reason"], over["message"]) == (
            3, "withdrawn", "ann sat down at table 1; challenge 3 is withdrawn")
        busy = await ben.request({"type": "challenge", "name": "ann"})
        assert (busy["code"], busy["message"]) == ("player_busy", "ann is at table 1, not in the lobby")
        assert (await ann.request({"type": "challenge", "name": "ben"}))["code"] == "already_at_table"
        for client in (ann, ben):
            await client.close()


async def test_an_unanswered_challenge_runs_out_and_both_are_told() -> None:
    """The server's ticks end it (when to the second is pinned on the core's clock above)."""
    async with running_server(challenge_timeout=0.3) as server:
        ann = await _online(server.port, "ann")
        ben = await _online(server.port, "ben")
        await ann.request({"type": "challenge", "name": "ben"})
        expired = {"type": "challenge_over", "challenge": 1, "reason": "expired",
                   "message": "challenge 1 to ben ran out unanswered"}
        assert await ben.recv_until(lambda m: m["type"] == "challenge_over") == expired
        assert await ann.recv_until(lambda m: m["type"] == "challenge_over") == expired
        for client in (ann, ben):
            await client.close()


#: Clock readings at which ``(now + 120.0) - now`` is not 120.0 in floating point: above it
#: (120.00000000000001) and below it (119.99999999999989).  A challenge's time left, worked
#: out as "expiry minus now", was announced as 121 s at the first.
CLOCK_READINGS = [0.0, 100.3, 1000.1]


@pytest.mark.parametrize("opened_at", CLOCK_READINGS)
def test_a_challenge_announces_the_time_it_has_and_runs_out_after_it(opened_at: float) -> None:
    """A 120 s challenge says ``expires_in`` 120 (never "within 121 s": more time than one
    has), whatever the clock reads, and runs out when its 120 s are over, not before."""
    h = Harness()
    h.now = opened_at
    ann, ben = h.connect("ann"), h.connect("ben")
    sent = h.send(ann, {"type": "challenge", "name": "ben", "preset": "noddy", "id": 1})
    assert (sent["type"], sent["challenge"]["expires_in"]) == ("challenge", 120)
    assert h.inbox[ben][-1] == {"type": "challenged", "challenge": sent["challenge"]}

    def over(conn: int) -> list[dict[str, Any]]:
        return [m for m in h.inbox[conn] if m["type"] == "challenge_over"]
    h.tick(119.9)
    assert over(ann) == over(ben) == []
    h.tick(0.2)  # (ticks of exactly 120 s in all would be a float's hair short at some readings)
    assert over(ann) == over(ben) == [{"type": "challenge_over", "challenge": 1, "reason": "expired",
                                       "message": "challenge 1 to ben ran out unanswered"}]


async def test_seeks_pair_two_seekers_of_the_same_game_and_respect_who_they_take() -> None:
    async with running_server() as server:
        ann = await _online(server.port, "ann")
        bot = await _online(server.port, "pybot", bot=True)
        cy = await _online(server.port, "cy")
        seeking = await ann.request({"type": "seek", "preset": "noddy", "opponents": "people"})
        assert seeking == {"type": "seeking", "seek": {"preset": "noddy", "options": {}, "opponents": "people"},
                           "id": seeking["id"]}
        # A bot seeking the same game is not taken by a seek for people, nor a seek of another game.
        await bot.request({"type": "seek", "preset": "noddy"})
        await cy.request({"type": "seek", "preset": "cribbage"})
        who = await cy.request({"type": "who"})
        assert {e["name"]: e["seeking"] for e in who["people"]} == {
            "ann": {"preset": "noddy", "options": {}, "opponents": "people"},
            "cy": {"preset": "cribbage", "options": {}, "opponents": "any"},
            "pybot": {"preset": "noddy", "options": {}, "opponents": "any"}}
        assert server.core.tables.get(1) is None
        # cy seeks noddy against people: paired with ann, the older seek, in seat 0.
        reply = await cy.request({"type": "seek", "preset": "noddy", "opponents": "people", "ready": True})
        assert reply["type"] == "seeking"
        mine = await cy.recv_until(lambda m: m["type"] == "table")
        assert (mine["seat"], [s["name"] for s in mine["table"]["seats"]]) == (1, ["ann", "cy"])
        theirs = await ann.recv_until(lambda m: m["type"] == "table")
        assert (theirs["seat"], theirs["table"]["id"]) == (0, mine["table"]["id"])
        assert [s["ready"] for s in mine["table"]["seats"]] == [False, True]
        # Only bots: a second bot's seek takes the waiting bot.
        other = await _online(server.port, "jsbot", bot=True)
        await other.request({"type": "seek", "opponents": "bots", "ready": True})
        placed = await other.recv_until(lambda m: m["type"] == "table")
        assert [(s["name"], s["bot"]) for s in placed["table"]["seats"]] == [("pybot", True), ("jsbot", True)]
        # unseek: a seek withdrawn pairs with nobody.
        dan = await _online(server.port, "dan")
        eve = await _online(server.port, "eve")
        await dan.request({"type": "seek", "preset": "noddy-holme"})
        assert (await dan.request({"type": "unseek"}))["type"] == "ok"
        await eve.request({"type": "seek", "preset": "noddy-holme"})
        # (the lobby's news of the other tables is pushed as "table" too, without a seat)
        assert not any(m["type"] == "table" and "seat" in m for m in dan.received + eve.received)
        for client in (ann, bot, cy, other, dan, eve):
            await client.close()


async def test_a_bot_is_marked_in_the_lobby_and_on_the_leaderboard() -> None:
    async with running_server() as server:
        bot = await _online(server.port, "pybot", bot=True)
        ann = await _online(server.port, "ann")
        await bot.request({"type": "create_table", "preset": "noddy", "options": {"target": 15}})
        await bot.request({"type": "add_computer", "seat": 1, "level": "random"})
        tables = await ann.request({"type": "list_tables"})
        assert [(s["name"], s["kind"], s["bot"]) for s in tables["tables"][0]["seats"]] == [
            ("pybot", "human", True), ("random computer 2", "computer", False)]
        assert (await ann.request({"type": "list_tables", "people_only": True}))["tables"] == []
        # A bot is rated (as a bot) only under a name it has registered, as a person is.
        assert (await ann.request({"type": "list_tables"}))["tables"][0]["unrated_reasons"] == ["guest"]
        assert (await bot.request({"type": "register", "password": "a secret"}))["type"] == "registered"
        assert (await ann.request({"type": "list_tables"}))["tables"][0]["rated"] is True
        await bot.request({"type": "ready"})
        await play_out(bot, random.Random(3))
        board = await ann.request({"type": "leaderboard"})
        assert sorted((row["kind"], row["name"]) for row in board["players"]) == [
            ("bot", "pybot"), ("computer", "random")]
        people = await ann.request({"type": "leaderboard", "people_only": True})
        assert people["players"] == []
        for client in (bot, ann):
            await client.close()


async def test_who_challenge_and_accept_by_text() -> None:
    async with running_server() as server:
        reader, writer = await text_connection(server.port)  # (width: one line a message)
        writer.write(b"width 1000\nname Ada\n")
        await text_until(reader, "Type tables")
        bot = await _online(server.port, "pybot", bot=True)
        writer.write(b"who\n")
        assert await text_until(reader, "Online") == "Online (2):\n"
        assert await text_until(reader, "  ") == "  Ada in the lobby\n"
        assert await text_until(reader, "  ") == "  pybot (bot) in the lobby\n"
        await bot.request({"type": "challenge", "name": "ada", "preset": "noddy",
                           "options": {"target": 61}, "ready": True})
        assert await text_until(reader, "pybot") == (
            "pybot (bot) challenges you to noddy target=61. Type accept 1 or decline 1 (within 120 s).\n")
        writer.write(b"accept 1\n")
        assert await text_until(reader, "Table") == ("Table 1 noddy 2p (target=61, unrated: pybot and Ada are guests) "
                                                 "[waiting] 1: pybot (bot, ready, guest) | 2: Ada (guest)\n")
        assert await text_until(reader, "Type ready") == (
            "Type ready to begin; the game begins when everyone is ready.\n")
        writer.write(b"ready\n")
        assert await text_until(reader, "A game of noddy") == "A game of noddy, 2 players, first to 61.\n"
        writer.write(b"leave\n")
        writer.close()
        await bot.close()


async def test_seek_and_a_refused_challenge_by_text() -> None:
    async with running_server() as server:
        reader, writer = await text_connection(server.port)  # (width: one line a message)
        writer.write(b"width 1000\nname Ada\nchallenge Bob\n")
        assert await text_until(reader, "Error") == (
            "Error (no_such_player): nobody called 'Bob' is online (who lists who is)\n")
        writer.write(b"seek cribbage people\n")
        assert await text_until(reader, "Seeking") == (
            "Seeking a game of cribbage against people only; a table opens when someone seeks "
            "the same (unseek to stop).\n")
        ben = await _online(server.port, "ben")
        await ben.request({"type": "seek", "preset": "cribbage"})
        assert (await text_until(reader, "Table")).startswith(
            "Table 1 cribbage 2p (unrated: Ada and ben are guests) [waiting] 1: Ada (guest) | 2: ben (guest)")
        writer.close()
        await ben.close()
