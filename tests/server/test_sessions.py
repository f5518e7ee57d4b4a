"""Reconnecting with the resume token, grace periods, the turn timer, keepalive, chat and
lobby pushes, over real sockets."""

from __future__ import annotations

import asyncio
import logging
import random

import pytest

from .harness import Client, play_out, running_server, two_player_table
from .test_stand_ins import scores_now


async def test_reconnect_mid_deal_with_the_token() -> None:
    async with running_server(grace_period=30.0) as server:
        ann, ben, table_id = await two_player_table(server.port)
        game = server.core.tables[table_id].game
        assert game is not None
        # Play one card so that the deal is under way, then ann's connection drops.
        mover = {0: ann, 1: ben}[game.to_move]
        snap = await mover.request({"type": "snapshot"})
        assert (await mover.request({"type": "action", **snap["game"]["legal_actions"][0]}))["type"] == "ok"
        assert len(game.played) == 1
        await ann.close()
        away = await ben.recv_until(lambda m: m["type"] == "player_away")
        assert away == {"type": "player_away", "table": table_id, "seat": 0, "name": "ann", "grace": 30.0}

        # A stranger can neither sit down nor claim the seat with a wrong token.
        intruder = await Client.connect(server.port)
        await intruder.hello("mallory")
        refused = await intruder.request({"type": "sit", "table": table_id, "seat": 0})
        assert refused["code"] == "table_full"
        again = await Client.connect(server.port)
        bad = await again.request({"type": "hello", "name": "x", "version": 1, "resume": "0" * 32})
        assert bad["code"] == "bad_token"

        # The token brings back the seat, with a snapshot of everything seat 0 may see.
        back = await Client.connect(server.port)
        welcome = await back.hello("ann again", resume=ann.token)
        assert (welcome["resumed"], welcome["table"], welcome["seat"], welcome["name"]) == (True, table_id, 0, "ann")
        snapshot = await back.recv()
        assert snapshot["type"] == "snapshot"
        assert snapshot["seat"] == 0
        assert snapshot["game"] == {**game.observation(0).to_dict(),
                                    "legal_actions": snapshot["game"]["legal_actions"]}
        assert snapshot["game"]["hand"] == [str(c) for c in game.hands[0]]
        assert snapshot["seq"] == server.core.tables[table_id].seq
        assert [e["seq"] for e in snapshot["events"]] == list(range(1, snapshot["seq"] + 1))
        assert snapshot["table"]["seats"][0]["connected"] is True
        assert (await ben.recv_until(lambda m: m["type"] == "player_back")) == {
            "type": "player_back", "table": table_id, "seat": 0, "name": "ann"}
        # ... and carries on to the end of the game (a snapshot says whose turn it is now).
        await back.send({"type": "snapshot"})
        await ben.send({"type": "snapshot"})
        results = await asyncio.gather(play_out(back, random.Random(1)), play_out(ben, random.Random(2)))
        assert results[0] == results[1] and results[0]["winner"] == game.winner
        # The token of a finished session is no longer any use to anyone else.
        for client in (back, ben, intruder, again):
            await client.close()


async def test_a_computer_stands_in_when_the_grace_period_ends() -> None:
    """Until the game ends (issue 24: see test_stand_ins.py for the person coming back)."""
    async with running_server(grace_period=0.2) as server:
        ann, ben, table_id = await two_player_table(server.port)
        await ann.close()
        await ben.recv_until(lambda m: m["type"] == "player_away")
        stand_in = await ben.recv_until(lambda m: m["type"] == "stand_in")
        then = scores_now(ben)
        assert stand_in == {"type": "stand_in", "table": table_id, "seat": 0, "name": "ann",
                            "level": server.config.computer_level,
                            "counts": "If ann does not take the seat back before the game ends, it counts as ann's "
                                      f"resignation now, at ann {then[0]}, ben {then[1]}: the deals played from here "
                                      "count only if ann comes back."}
        await ben.send({"type": "snapshot"})
        result = await play_out(ben, random.Random(3))
        assert result["winner"] == server.core.tables[table_id].game.winner == 1
        assert result["ending"] == "abandoned"
        late = await Client.connect(server.port)
        reply = await late.request({"type": "hello", "name": "ann", "version": 1, "resume": ann.token})
        assert reply["code"] == "bad_token"
        await ben.close()
        await late.close()


async def test_turn_timer_plays_for_an_absent_seat() -> None:
    async with running_server() as server:
        ann, ben, table_id = await two_player_table(server.port, turn_timer=1)
        turn = await ann.recv_until(lambda m: m["type"] == "turn")
        assert turn["time_left"] is not None and 0 < turn["time_left"] <= 1
        game = server.core.tables[table_id].game
        mover = game.to_move
        timed_out = await ann.recv_until(lambda m: m["type"] == "timed_out", timeout=5)
        assert timed_out["seat"] == mover and timed_out["table"] == table_id
        played = await ann.recv_until(lambda m: m["type"] == "event")
        assert played["event"]["kind"] == "played"
        assert {"action": "play", "card": played["event"]["card"]} == timed_out["action"]
        assert played["event"]["seat"] == mover
        await ann.close()
        await ben.close()


async def test_keepalive_ping_but_no_drop_for_silence() -> None:
    """A silent JSON client is pinged; one that does not answer keeps its connection and
    seat all the same (silence is not death: TCP keepalive finds a dead peer)."""
    async with running_server(ping_interval=0.2, idle_timeout=0.6, grace_period=10) as server:
        ann, ben, table_id = await two_player_table(server.port)
        ping = await ann.recv_until(lambda m: m["type"] == "ping", timeout=5)
        assert ping == {"type": "ping"}
        await ann.send({"type": "pong"})
        await ann.recv_until(lambda m: m["type"] == "ping", timeout=5)  # pinged again, not answered
        await asyncio.sleep(1.0)
        assert (await ann.request({"type": "snapshot"}))["seat"] == 0
        assert all(m["type"] != "player_away" for m in ben.received)
        assert server.core.tables[table_id].seats[0].session.held_until is None
        await ann.close()
        await ben.close()


async def test_chat_and_lobby_pushes() -> None:
    async with running_server() as server:
        ann, ben, cat = [await Client.connect(server.port) for _ in range(3)]
        for client, name in ((ann, "ann"), (ben, "ben"), (cat, "cat")):
            await client.hello(name)
        created = await ann.request({"type": "create_table", "preset": "cribbage", "players": 3})
        table_id = created["table"]["id"]
        pushed = await cat.recv_until(lambda m: m["type"] == "table")
        assert pushed == {"type": "table", "table": created["table"]}
        await ben.request({"type": "sit", "table": table_id, "seat": 2})
        seen = await ann.recv_until(lambda m: m["type"] == "table")
        assert [s and s["name"] for s in seen["table"]["seats"]] == ["ann", None, "ben"]
        assert (await ann.request({"type": "chat", "text": "hello table"}))["type"] == "ok"
        chat = {"type": "chat", "to": "table", "table": table_id, "from": "ann", "seat": 0, "text": "hello table"}
        assert await ben.recv_until(lambda m: m["type"] == "chat") == chat
        assert await ann.recv_until(lambda m: m["type"] == "chat") == chat
        assert (await cat.request({"type": "chat", "text": "hello lobby"}))["type"] == "ok"
        assert await cat.recv_until(lambda m: m["type"] == "chat") == {
            "type": "chat", "to": "lobby", "table": None, "from": "cat", "seat": None, "text": "hello lobby"}
        assert (await ann.request({"type": "add_computer", "level": "random"}))["table"]["seats"][1]["kind"] == "computer"
        listed = await cat.request({"type": "list_tables"})
        assert [t["id"] for t in listed["tables"]] == [table_id]
        assert listed["tables"][0]["seats"][1] == {"seat": 1, "name": "random computer 2", "kind": "computer",
                                                   "bot": False, "level": "random", "ready": True, "connected": True,
                                                   "guest": False, "rating": 1500}
        # everyone leaves: the table closes and the lobby hears so
        await ann.request({"type": "leave"})
        await ben.request({"type": "leave"})
        closed = await cat.recv_until(lambda m: m["type"] == "table_closed")
        assert closed == {"type": "table_closed", "table": table_id, "reason": "empty",
                          "message": "everyone has left"}
        assert (await cat.request({"type": "list_tables"}))["tables"] == []
        for client in (ann, ben, cat):
            await client.close()


async def test_shutdown_tells_clients_and_closes_tables(caplog: pytest.LogCaptureFixture) -> None:
    """A shutdown's table_closed says ``shutdown`` and that the table will be back, in JSON,
    in text mode and in the host's log, which never calls it closed (issue 24)."""
    caplog.set_level(logging.INFO, logger="noddy.server")
    async with running_server() as server:
        ann, ben, table_id = await two_player_table(server.port)
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        await reader.readline()
        writer.write(f"name cy\nwatch {table_id}\n".encode())
        while b"[playing]" not in await asyncio.wait_for(reader.readline(), 5):
            pass
        await server.shutdown()
        assert await ann.closed() and await ben.closed()
        tail = [m["type"] for m in ann.received[-2:]]
        assert tail == ["table_closed", "shutdown"]
        assert ann.received[-2] == {"type": "table_closed", "table": table_id, "reason": "shutdown",
                                    "message": "the server is shutting down; the table is kept and "
                                               "will be back when it starts again"}
        said = (await asyncio.wait_for(reader.read(), 5)).decode().replace("\n  ", " ")  # (lines unwrapped)
        assert (f"Table {table_id} is put away: the server is shutting down; the table is kept and "
                "will be back when it starts again.\n") in said
        writer.close()
        assert server.core.tables == {}
        logged = [r.getMessage() for r in caplog.records if f"table {table_id}" in r.getMessage()]
        assert f"table {table_id} kept for the next start (the server is shutting down)" in logged
        assert not any("closed" in line for line in logged), logged
