"""Seats that wait for their person and results that count what happened (issue 24), over
real sockets: ben's resignation in deal 1 is ann's win (the record says resigned, ann's rating
rises, ben's falls); a seat abandoned and never taken back counts as a resignation; a
computer stands in after the grace period and the person takes the seat back and finishes
the game (with the resume token, or by logging in to the account); the table may choose to
wait instead; a three-handed resignation goes on."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from noddy.server.text import render

from .harness import Client, play_out, running_server, two_player_table
from .results import outcome

SECRET = "correct horse"
#: A move of a seat's own (what a computer standing in makes for it).
MOVES = ("discarded", "played", "go", "claimed", "passed")


async def registered_table(port: int) -> tuple[Client, Client, int]:
    """ann and ben, both registered (only registered people are rated), at a fresh table of
    two, both ready: ann in seat 0, ben in seat 1."""
    ann, ben = await Client.connect(port), await Client.connect(port)
    for client, name in ((ann, "ann"), (ben, "ben")):
        await client.hello(name)
        assert (await client.request({"type": "register", "password": SECRET}))["type"] == "registered"
    table_id = (await ann.request({"type": "create_table", "preset": "noddy"}))["table"]["id"]
    await ben.request({"type": "sit", "table": table_id})
    await ann.request({"type": "ready"})
    await ben.request({"type": "ready"})
    return ann, ben, table_id


async def board(client: Client) -> dict[str, int]:
    reply = await client.request({"type": "leaderboard", "family": "noddy"})
    return {p["name"]: p["rating"] for p in reply["players"] if p["kind"] == "human"}


async def record_of(client: Client, game_id: int) -> dict[str, Any]:
    reply = await client.request({"type": "get_game", "game": game_id})
    assert reply["type"] == "game_record", reply
    return reply["record"]


def scores_now(client: Client) -> list[int]:
    """The scores of the last ``scored`` or ``deal_ended`` event the client saw ([0, 0]: none)."""
    for message in reversed(client.received):
        event = message.get("event") if message["type"] == "event" else None
        if event is not None and event["kind"] in ("scored", "deal_ended"):
            return event["scores"]
    return [0, 0]


async def test_bens_resignation_in_deal_1_is_anns_win_by_resignation() -> None:
    async with running_server() as server:
        ann, ben, table_id = await registered_table(server.port)
        await ben.recv_until(lambda m: m["type"] == "turn")
        game_id = (await ann.request({"type": "snapshot"}))["table"]["game_id"]
        assert (await ben.request({"type": "leave"}))["type"] == "ok"  # l, y in the client
        over = await ann.recv_until(lambda m: m["type"] == "event" and m["event"]["kind"] == "game_over")
        scores = scores_now(ann)
        assert outcome(over["event"]) == {"kind": "game_over", "winner": 0, "winning_seats": [0], "scores": scores,
                                 "ending": "resignation", "skunk": "none", "resigned": [1]}
        table = await ann.recv_until(lambda m: m["type"] == "table")
        assert table["table"]["status"] == "finished" and table["table"]["seats"][1] is None
        record = await record_of(ann, game_id)
        assert {k: record["result"][k] for k in ("winner", "ending", "skunk", "resigned")} == {
            "winner": 0, "ending": "resignation", "skunk": "none", "resigned": [1]}
        assert record["steps"][-1]["action"] == {"action": "resign", "seat": 1}
        assert record["seats"][1]["changes"][0]["why"] == "resigned"
        ratings = await board(ann)
        assert ratings["ann"] > 1500 > ratings["ben"], ratings
        games = await ben.request({"type": "list_games"})
        assert [g["result"]["ending"] for g in games["games"]] == ["resignation"]
        unwrapped = render(games).replace("\n  ", " ")  # (a continuation line joined to its line)
        assert unwrapped.splitlines()[1].endswith("ann wins by resignation (ben resigned)."), render(games)
        said = render(over, ("ann", "ben"))
        assert said.startswith(f"ann wins the game by resignation (ben resigned), {scores[0]} to {scores[1]}"), said
        await ann.close()
        await ben.close()


async def test_a_seat_abandoned_and_never_taken_back_counts_as_a_resignation() -> None:
    async with running_server(grace_period=0.3) as server:
        ann, ben, table_id = await registered_table(server.port)
        await ann.recv_until(lambda m: m["type"] == "turn")
        await ben.close()
        await ann.recv_until(lambda m: m["type"] == "player_away")
        stand_in = await ann.recv_until(lambda m: m["type"] == "stand_in")
        scores_then = scores_now(ann)
        assert stand_in == {"type": "stand_in", "table": table_id, "seat": 1, "name": "ben", "level": "greedy",
                            "counts": f"If ben does not take the seat back before the game ends, it counts as "
                                      f"ben's resignation now, at ann {scores_then[0]}, ben {scores_then[1]}: the "
                                      "deals played from here count only if ben comes back."}
        over = await play_out(ann, random.Random(4))
        assert (over["winner"], over["scores"], over["ending"], over["abandoned"]) == (0, scores_then, "abandoned", [1])
        game_id = (await ann.request({"type": "snapshot"}))["table"]["game_id"]
        record = await record_of(ann, game_id)
        assert record["result"]["ending"] == "abandoned"
        assert [(c["why"], c["kind"], c["name"]) for c in record["seats"][1]["changes"]] == [
            ("abandoned", "computer", "greedy computer 2")]
        assert record["seats"][1]["name"] == "ben"  # who was dealt in, and lost
        ratings = await board(ann)
        assert ratings["ann"] > 1500 > ratings["ben"], ratings
        # the game is over: the stand-in has left, the seat is free, ben's token holds nothing
        assert server.core is not None and server.core.tables[table_id].seats[1] is None
        back = await Client.connect(server.port)
        refused = await back.request({"type": "hello", "name": "ben", "version": 1, "resume": ben.token})
        assert refused["code"] == "bad_token"
        # ben logging in now is welcomed to the lobby: no seat is his any more
        welcome = await back.hello("ben", password=SECRET)
        assert (welcome["resumed"], welcome["table"], welcome["seat"]) == (False, None, None)
        await ann.close()
        await back.close()


async def test_a_stand_in_then_the_person_back_after_the_grace_period_finishes_the_game() -> None:
    async with running_server(grace_period=0.3) as server:
        ann, ben, table_id = await two_player_table(server.port)
        await ann.recv_until(lambda m: m["type"] == "turn")
        await ben.close()
        await ann.recv_until(lambda m: m["type"] == "stand_in")
        summary = await ann.recv_until(lambda m: m["type"] == "table")
        assert summary["table"]["seats"][1]["stand_in_for"] == "ben"
        assert render(summary).replace("\n  ", " ").startswith(
            f"Table {table_id} noddy 2p (unrated: ann and ben are guests) [playing] 1: ann (guest) | "
            "2: greedy computer 2 (computer, for ben until back)")
        # the name is still ben's: nobody else may take it meanwhile
        other = await Client.connect(server.port)
        assert (await other.request({"type": "hello", "name": "Ben", "version": 1}))["code"] == "name_taken"
        back = await Client.connect(server.port)
        welcome = await back.hello("ben", resume=ben.token)
        assert (welcome["resumed"], welcome["table"], welcome["seat"]) == (True, table_id, 1)
        assert (await ann.recv_until(lambda m: m["type"] == "player_back"))["name"] == "ben"
        seats = (await ann.recv_until(lambda m: m["type"] == "table"))["table"]["seats"]
        assert (seats[1]["name"], seats[1]["kind"], seats[1]["connected"]) == ("ben", "human", True)
        for client in (ann, back):  # where the game stands (a turn may have passed meanwhile)
            await client.send({"type": "snapshot"})
        over_ann, over_ben = await asyncio.gather(play_out(ann, random.Random(1)), play_out(back, random.Random(2)))
        assert over_ann == over_ben and over_ann["ending"] == "target" and "abandoned" not in over_ann
        game_id = (await ann.request({"type": "snapshot"}))["table"]["game_id"]
        record = await record_of(ann, game_id)
        assert [c["why"] for c in record["seats"][1]["changes"]] == ["abandoned", "back"]
        assert [s["action"]["action"] for s in record["steps"]].count("take_back") == 1
        for client in (ann, other, back):
            await client.close()


async def test_logging_in_takes_back_a_seat_a_computer_stands_in_for_and_the_game_finishes() -> None:
    async with running_server(grace_period=0.3) as server:
        ann, ben, table_id = await registered_table(server.port)
        await ann.recv_until(lambda m: m["type"] == "turn")
        await ben.close()
        await ann.recv_until(lambda m: m["type"] == "stand_in")
        # ann plays on until the computer standing in for ben has made a move for him
        moved = await play_out(ann, random.Random(3), stop_after=lambda m: m["type"] == "event"
                               and m["event"]["kind"] in MOVES and m["event"].get("seat") == 1)
        assert moved["event"]["seat"] == 1
        back = await Client.connect(server.port)
        refused = await back.request({"type": "hello", "name": "ben", "version": 1})
        assert refused["code"] == "password_required"  # the name is ben's account's, not a guest's
        welcome = await back.hello("ben", password=SECRET)  # no resume token: the account's login
        assert (welcome["resumed"], welcome["table"], welcome["seat"], welcome["registered"]) == (
            True, table_id, 1, True)
        assert (await ann.recv_until(lambda m: m["type"] == "player_back"))["name"] == "ben"
        seats = (await ann.recv_until(lambda m: m["type"] == "table"))["table"]["seats"]
        assert (seats[1]["name"], seats[1]["kind"], seats[1]["connected"], seats[1]["guest"]) == (
            "ben", "human", True, False)
        assert "stand_in_for" not in seats[1]
        for client in (ann, back):  # where the game stands (a turn may have passed meanwhile)
            await client.send({"type": "snapshot"})
        over_ann, over_ben = await asyncio.gather(play_out(ann, random.Random(1)), play_out(back, random.Random(2)))
        assert over_ann == over_ben and over_ann["ending"] == "target" and "abandoned" not in over_ann
        game_id = (await ann.request({"type": "snapshot"}))["table"]["game_id"]
        record = await record_of(ann, game_id)
        assert [c["why"] for c in record["seats"][1]["changes"]] == ["abandoned", "back"]
        accounts = [seat.get("account") for seat in record["seats"]]  # both dealt in as their accounts
        assert all(isinstance(a, int) for a in accounts) and accounts[0] != accounts[1], record["seats"]
        assert [s["action"]["action"] for s in record["steps"]].count("take_back") == 1
        ratings = await board(ann)  # a game of two registered people: rated, won by whoever won
        winner, loser = ("ann", "ben") if over_ann["winner"] == 0 else ("ben", "ann")
        assert ratings[winner] > 1500 > ratings[loser], ratings
        for client in (ann, back):
            await client.close()


async def test_the_table_may_wait_for_its_person_instead_and_let_a_computer_in_again() -> None:
    async with running_server(grace_period=0.3) as server:
        ann, ben, table_id = await two_player_table(server.port)
        await ann.recv_until(lambda m: m["type"] == "turn")
        early = await ann.request({"type": "stand_in", "seat": 0, "on": False})
        assert early["code"] == "not_away"
        await ben.close()
        await ann.recv_until(lambda m: m["type"] == "stand_in")
        assert (await ann.request({"type": "stand_in", "seat": 1, "on": False}))["type"] == "ok"
        waiting = await ann.recv_until(lambda m: m["type"] == "stand_in")
        assert waiting == {"type": "stand_in", "table": table_id, "seat": 1, "name": "ben", "level": None}
        assert render(waiting, ("ann", "ben")) == (
            "The table waits for ben (seat 2); type standin 2 to let a computer play\n"
            "  meanwhile.\n")
        seat = server.core.tables[table_id].seats[1]
        assert (seat.name, seat.is_computer, seat.session.held_until) == ("ben", False, None)
        assert (await ann.request({"type": "stand_in", "seat": 1, "on": True}))["type"] == "ok"
        assert server.core.tables[table_id].seats[1].stand_in_for.name == "ben"
        await ann.close()


async def test_a_three_handed_resignation_loses_and_the_game_goes_on_without_crediting_the_person() -> None:
    async with running_server() as server:
        ann, ben, cy = [await Client.connect(server.port) for _ in range(3)]
        for client, name in ((ann, "ann"), (ben, "ben"), (cy, "cy")):
            await client.hello(name)
        table_id = (await ann.request({"type": "create_table", "preset": "noddy-modern", "players": 3,
                                       "options": {"target": 15}}))["table"]["id"]
        for client in (ben, cy):
            await client.request({"type": "sit", "table": table_id})
        for client in (ann, ben, cy):
            await client.request({"type": "ready"})
        await cy.recv_until(lambda m: m["type"] == "turn")
        await cy.request({"type": "leave"})
        replaced = await ann.recv_until(lambda m: m["type"] == "player_replaced")
        assert replaced == {"type": "player_replaced", "table": table_id, "seat": 2, "name": "cy",
                            "level": "greedy", "resigned": True}
        assert render(replaced, ("ann", "ben", "greedy computer 3")) == \
            "cy (seat 3) resigned: a loss for cy; greedy computer 3 plays the seat on.\n"
        for client in (ann, ben):
            await client.send({"type": "snapshot"})
        over, over_ben = await asyncio.gather(play_out(ann, random.Random(1)), play_out(ben, random.Random(2)))
        assert over == over_ben and over["resigned"] == [2] and over["ending"] == "target"
        game_id = (await ann.request({"type": "snapshot"}))["table"]["game_id"]
        record = await record_of(ann, game_id)
        changes = record["seats"][2]["changes"]
        assert [(c["why"], c["name"]) for c in changes] == [("resigned", "greedy computer 3")]
        line = render({"type": "games", "name": "cy", "games": [record]})
        if over["winner"] == 2:  # the computer's win is the computer's
            assert "greedy computer 3 wins (cy resigned)" in line, line
        else:
            assert "(cy resigned)" in line and "cy wins" not in line, line
        for client in (ann, ben, cy):
            await client.close()


async def test_a_netcat_player_back_from_a_stand_in_reads_the_table_before_any_turn() -> None:
    # Seen in tmux: gus (nc) dropped, a computer stood in, and `resume TOKEN` printed
    # "Waiting for seat 1." (names not known yet) before the table, then "Waiting for dee.".
    async with running_server(grace_period=0.3) as server:
        ann = await Client.connect(server.port)
        await ann.hello("ann")
        table_id = (await ann.request({"type": "create_table", "preset": "noddy"}))["table"]["id"]
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        await asyncio.wait_for(reader.readline(), 5)  # the greeting
        writer.write(f"name ben\njoin {table_id}\nready\n".encode())
        welcome = (await asyncio.wait_for(reader.readline(), 5)).decode()
        token = welcome.split("token is ")[1].split(".")[0]
        await ann.recv_until(lambda m: m["type"] == "table" and m["table"]["seats"][1] is not None
                             and m["table"]["seats"][1]["ready"])
        await ann.request({"type": "ready"})
        await ann.recv_until(lambda m: m["type"] == "turn")
        writer.close()
        await ann.recv_until(lambda m: m["type"] == "stand_in")
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        await asyncio.wait_for(reader.readline(), 5)  # the greeting
        writer.write(f"resume {token}\n".encode())
        lines = [(await asyncio.wait_for(reader.readline(), 5)).decode() for _ in range(6)]
        assert lines[0].startswith(f"Welcome, ben! You are back at table {table_id}. ")
        assert lines[1] == f"  {token}.\n"
        assert lines[2].startswith("Type tables to see the tables")
        assert lines[3] == "You are a guest (unrated): register PASSWORD keeps your name.\n"
        assert (lines[4] + lines[5]).startswith(f"Table {table_id} noddy 2p (unrated: ann and ben are guests) "
                                                "[playing] 1: ann (guest) |\n  2: ben (guest)"), lines
        writer.close()
        await ann.close()
