"""Hidden information and private tables over real sockets: what the turn timer's move shows,
the turn timer's bounds, and who may read the records of a private table's games."""

from __future__ import annotations

import asyncio
import json
import random
import re
from typing import Any

import pytest

from noddy.protocol import ProtocolError, validate_request
from noddy.protocol.requests import TURN_TIMER_MAX, TURN_TIMER_MIN
from noddy.server.text import render

from .audit import Entitlement, audit
from .harness import Client, play_out, running_server


#: A lobby push in text mode, as render() words it: a table's line (``Table 2 noddy 2p
#: (target=15) [playing] 1: bob (ready) | 2: random computer (computer)``) or its closing.
_LOBBY_NEWS = re.compile(r"Table \d+ (is closed: .*\.|\S+ \d+p( \(.*\))? \[\w+\] .*)\n")


async def _hello(port: int, name: str) -> Client:
    client = await Client.connect(port)
    await client.hello(name)
    return client


async def test_a_timed_out_discard_is_shown_only_to_its_own_seat() -> None:
    async with running_server() as server:
        ann, ben, cat = [await _hello(server.port, name) for name in ("ann", "ben", "cat")]
        created = await ann.request({"type": "create_table", "preset": "cribbage", "turn_timer": 1})
        table_id = created["table"]["id"]
        await ben.request({"type": "sit", "table": table_id})
        await cat.request({"type": "spectate", "table": table_id})
        await ann.request({"type": "ready"})
        await ben.request({"type": "ready"})
        table = server.core.tables[table_id]
        # Nobody lays away: after a second the server discards for both seats, and the
        # starter is turned up once both have.
        for client in (ann, ben, cat):
            await client.recv_until(lambda m: m["type"] == "event" and m["event"]["kind"] == "turned_up",
                                    timeout=5)
        discards = {seat: [str(card) for card in event.cards]
                    for _, event in table.log if event.kind == "discarded" and event.cards is not None
                    for seat in [event.seat]}
        assert sorted(discards) == [0, 1] and all(len(cards) == 2 for cards in discards.values())
        for client, own in ((ann, 0), (ben, 1), (cat, None)):
            timed_out = {m["seat"]: m for m in client.received if m["type"] == "timed_out"}
            assert sorted(timed_out) == [0, 1]
            for seat in (0, 1):
                message = timed_out[seat]
                cards = message["action"]["cards"]
                assert message == {"type": "timed_out", "table": table_id, "seat": seat,
                                   "action": {"action": "discard", "cards": cards}}
                assert (None if cards is None else sorted(cards)) == \
                    (sorted(discards[seat]) if seat == own else None)
        entitlement = Entitlement(table.log, 2)
        checked = sum(audit(client.received, [seat] * len(client.received), entitlement, table_id)
                      for client, seat in ((ann, 0), (ben, 1), (cat, None)))
        assert checked > 0
        for client in (ann, ben, cat):
            await client.close()


def test_the_audit_catches_a_discard_shown_to_another_seat() -> None:
    """The audit itself: a timed-out discard with its cards fails it for anyone but the seat."""
    from noddy.engine import Game
    from noddy.engine.actions import Discard

    game = Game("cribbage", 2, seed=5)
    log = list(enumerate(game.log, start=1))
    hand = [str(card) for card in game.observation(0).hand[:2]]
    events = game.apply(Discard(0, hand))
    log += [(len(log) + i, event) for i, event in enumerate(events, start=1)]
    ent = Entitlement(log, 2)
    messages = [{"type": "timed_out", "table": 1, "seat": 0, "action": {"action": "discard", "cards": hand}},
                {"type": "event", "table": 1, "seq": log[-1][0], "event": events[-1].for_seat(1).to_dict()}]
    assert audit(messages, [0, 0], ent, 1) == 2
    with pytest.raises(AssertionError, match="seat 1 saw"):
        audit(messages, [1, 1], ent, 1)


def test_text_mode_reads_another_seats_timed_out_discard() -> None:
    message = {"type": "timed_out", "table": 1, "seat": 1, "action": {"action": "discard", "cards": None}}
    assert render(message, ("ann", "ben")) == "ben ran out of time; the server plays a discard to the crib.\n"
    message["action"] = {"action": "discard", "cards": ["5C", "5D"]}
    assert render(message, ("ann", "ben")) == "ben ran out of time; the server plays discard 5C 5D.\n"


@pytest.mark.parametrize("value", [0.01, 0.99, TURN_TIMER_MAX + 1, -1])
def test_create_and_configure_share_the_turn_timer_bounds(value: float) -> None:
    for kind in ("create_table", "configure_table"):
        with pytest.raises(ProtocolError) as caught:
            validate_request({"type": kind, "turn_timer": value})
        assert (caught.value.code, caught.value.field) == ("bad_field", "turn_timer")
    for kind in ("create_table", "configure_table"):
        for good in (TURN_TIMER_MIN, TURN_TIMER_MAX):
            assert validate_request({"type": kind, "turn_timer": good})[1]["turn_timer"] == good


async def test_configure_table_refuses_a_turn_timer_create_table_would_refuse() -> None:
    async with running_server() as server:
        ann = await _hello(server.port, "ann")
        await ann.request({"type": "create_table"})
        for value in (0.01, TURN_TIMER_MAX + 1):
            reply = await ann.request({"type": "configure_table", "turn_timer": value})
            assert (reply["type"], reply["code"], reply["field"]) == ("error", "bad_field", "turn_timer")
        assert (await ann.request({"type": "snapshot"}))["table"]["turn_timer"] is None
        reply = await ann.request({"type": "configure_table", "turn_timer": TURN_TIMER_MIN})
        assert reply["table"]["turn_timer"] == TURN_TIMER_MIN
        reply = await ann.request({"type": "configure_table", "turn_timer": 0})  # 0: off
        assert reply["table"]["turn_timer"] is None
        await ann.close()


async def _finished_game(port: int, name: str, **table: Any) -> tuple[Client, int]:
    """``name`` (registered: a private game's record is its accounts') plays a short game
    against a computer at a new table; returns the client (back in the lobby) and the game's id."""
    client = await _hello(port, name)
    assert (await client.request({"type": "register", "password": f"{name}'s secret"}))["type"] == "registered"
    created = await client.request({"type": "create_table", "preset": "noddy",
                                    "options": {"target": 15}, **table})
    await client.request({"type": "add_computer", "level": "random"})
    await client.request({"type": "ready"})
    await play_out(client, random.Random(name))
    game_id = (await client.request({"type": "snapshot"}))["table"]["game_id"]
    assert created["table"]["private"] == ("password" in table)
    await client.request({"type": "leave"})
    return client, game_id


async def test_a_private_tables_records_go_to_its_players_or_to_its_password() -> None:
    async with running_server() as server:
        ann, secret = await _finished_game(server.port, "ann", private=True, password="sesame")
        bob, public = await _finished_game(server.port, "bob")
        eve = await _hello(server.port, "eve")

        # Who sat at the private table sees its game like any other, marked private.
        mine = await ann.request({"type": "list_games"})
        assert [(g["id"], g["private"]) for g in mine["games"]] == [(secret, True)]
        record = (await ann.request({"type": "get_game", "game": secret}))["record"]
        assert (record["id"], record["private"], record["status"]) == (secret, True, "finished")

        # Anyone else: not listed, and no record without the password (the same answer as
        # for a game that does not exist, so its existence is not confirmed either).
        assert (await eve.request({"type": "list_games", "name": "ann"}))["games"] == []
        for password in (None, "wrong", "SESAME"):
            request = {"type": "get_game", "game": secret}
            if password is not None:
                request["password"] = password
            refused = await eve.request(request)
            missing = await eve.request({"type": "get_game", "game": 999})
            assert (refused["type"], refused["code"], refused["field"]) == ("error", "no_such_game", "game")
            assert refused["message"] == missing["message"].replace("999", str(secret))
        unlocked = await eve.request({"type": "get_game", "game": secret, "password": "sesame"})
        assert unlocked["record"] == record

        # A public table's games stay open to everyone; the private one is not listed there.
        theirs = await eve.request({"type": "list_games", "name": "bob"})
        assert [(g["id"], g["private"]) for g in theirs["games"]] == [(public, False)]
        assert (await eve.request({"type": "get_game", "game": public}))["record"]["id"] == public
        assert (await bob.request({"type": "list_games", "name": "ann"}))["games"] == []

        # Text mode goes through the same checks.  Text has no ids: once named, mallory is in
        # the lobby, and its table news (ann's and bob's tables closing) may come before any
        # reply, so each reply is the next line that is not such news -- any other line is
        # still taken as the reply and must be exactly the one expected.
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        # The first line of any connection, before it is in the lobby: nothing comes first.
        assert json.loads(await asyncio.wait_for(reader.readline(), 10))["type"] == "greeting"

        async def reply() -> str:
            while True:
                line = (await asyncio.wait_for(reader.readline(), 10)).decode()
                if not _LOBBY_NEWS.fullmatch(line):
                    return line

        async def say(line: str) -> str:
            writer.write(line.encode() + b"\n")
            await writer.drain()
            return await reply()

        assert await say("width 1000") == "Lines are wrapped at 1000 columns now.\n"  # one line a message
        assert (await say("name mallory")).startswith("Welcome, mallory!")
        assert await reply() == "Type tables to see the tables, new noddy to start one, help for all commands.\n"
        assert await reply() == "You are a guest (unrated): register PASSWORD keeps your name.\n"
        assert await say("games ann") == "No finished games for ann yet.\n"
        assert await say(f"game {secret}") == \
            f"Error (no_such_game): there is no finished game {secret}\n"
        assert await say(f"game {secret} wrong") == \
            f"Error (no_such_game): there is no finished game {secret}\n"
        assert (await say(f"game {secret} sesame")).startswith(f"Game {secret} (table 1): noddy")
        writer.close()
        for client in (ann, bob, eve):
            await client.close()


async def test_get_game_passwords_count_towards_the_address_lock_out() -> None:
    """Guessing a private game's password with get_game is slowed like guessing at a table:
    wrong ones (for any game id, existing or not) lock the address out, even of the right one."""
    async with running_server(password_attempts=2, password_window=60.0, password_lockout=60.0) as server:
        ann, secret = await _finished_game(server.port, "ann", private=True, password="sesame")
        eve = await _hello(server.port, "eve")
        assert (await eve.request({"type": "get_game", "game": secret, "password": "one"}))["code"] == "no_such_game"
        assert (await eve.request({"type": "get_game", "game": 999, "password": "two"}))["code"] == "no_such_game"
        locked = await eve.request({"type": "get_game", "game": secret, "password": "sesame"})
        assert (locked["code"], locked["field"]) == ("too_many_attempts", "password")
        assert 59 < locked["retry_after"] <= 60
        # Without a password nothing is guessed: the answer is as before, and the games of
        # public tables and one's own stay readable.
        assert (await eve.request({"type": "get_game", "game": secret}))["code"] == "no_such_game"
        assert (await ann.request({"type": "get_game", "game": secret}))["record"]["id"] == secret
        for client in (ann, eve):
            await client.close()
