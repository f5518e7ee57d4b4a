"""Storage behind the real network layer: written before sent, a SIGKILL survived by a real
``noddy-server`` process, and the name and access rules over sockets."""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import random
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from noddy.server.storage.records import ActionApplied, GameBegun, replay
from tests.server.harness import Client, play_out, running_server

from .helpers import comparable


async def test_events_are_sent_only_after_their_action_is_written(tmp_path: Path) -> None:
    # A database file: its writes go to the storage thread (an in-memory one writes at once).
    async with running_server(db=str(tmp_path / "noddy.sqlite3")) as server:
        journal: list[tuple[str, Any]] = []
        real_write = server._store.write

        def slow_write(records: list[Any]) -> concurrent.futures.Future[None]:
            done: concurrent.futures.Future[None] = concurrent.futures.Future()

            def commit() -> None:
                threading.Event().wait(0.002)  # a slow disk: the sends must wait for it
                real_write(records).result()
                journal.append(("written", records))
                done.set_result(None)
            threading.Thread(target=commit).start()
            return done

        real_carry_out = server._carry_out

        def carry_out(outs: list[Any]) -> None:
            for out in outs:
                if hasattr(out, "message"):  # a game's batch (Lines): its messages one by one
                    journal.extend(("sent", message) for message in getattr(out.message, "messages", [out.message]))
            real_carry_out(outs)

        server._store.write = slow_write  # type: ignore[method-assign]
        server._carry_out = carry_out  # type: ignore[method-assign]
        ann = await Client.connect(server.port)
        await ann.hello("ann")
        await ann.request({"type": "create_table", "preset": "cribbage"})
        await ann.request({"type": "add_computer", "level": "greedy"})
        await ann.request({"type": "ready"})
        await play_out(ann, random.Random(3))
        written = 0
        sent_events = 0
        for kind, item in journal:
            if kind == "written":
                written += sum(len(r.opening) if isinstance(r, GameBegun) else len(r.events)
                               for r in item if isinstance(r, (GameBegun, ActionApplied)))
            elif item["type"] == "event":
                sent_events += 1
                assert item["seq"] <= written, f"event {item['seq']} sent before it was written"
        assert sent_events > 50
        # and the messages kept their order: each client saw seq 1, 2, 3 ... without a gap
        seqs = [m["seq"] for m in ann.received if m["type"] == "event"]
        assert seqs == list(range(1, len(seqs) + 1))


async def test_names_in_use_cannot_be_taken() -> None:
    async with running_server(grace_period=30.0) as server:
        ann = await Client.connect(server.port)
        await ann.hello("Ann")
        other = await Client.connect(server.port)
        reply = await other.request({"type": "hello", "name": "ann", "version": 1})
        assert (reply["code"], reply["field"]) == ("name_taken", "name")
        await other.hello("bob")  # the connection can still say hello with another name
        # a seated player whose connection dropped keeps the name while the seat is held
        await ann.request({"type": "create_table"})
        await ann.close()
        await other.recv_until(lambda m: m["type"] == "table" and not m["table"]["seats"][0]["connected"])
        third = await Client.connect(server.port)
        assert (await third.request({"type": "hello", "name": "ANN", "version": 1}))["code"] == "name_taken"
        back = await Client.connect(server.port)
        assert (await back.hello("ann", resume=ann.token))["resumed"] is True
        # a name is free again once its owner says bye
        await back.request({"type": "bye"})
        await third.hello("ann")
        for client in (other, third, back):
            await client.close()


async def test_private_tables_and_the_creators_rights() -> None:
    async with running_server() as server:
        ann, bob, cat = [await Client.connect(server.port) for _ in range(3)]
        for client, name in ((ann, "ann"), (bob, "bob"), (cat, "cat")):
            await client.hello(name)
        table = (await ann.request({"type": "create_table", "players": 2, "private": True,
                                    "password": "owl"}))["table"]
        assert table["private"] and table["creator"] == "ann"
        for request in ({"type": "sit", "table": 1}, {"type": "spectate", "table": 1},
                        {"type": "sit", "table": 1, "password": "emu"},
                        {"type": "spectate", "table": 1, "password": "emu"}):
            assert (await bob.request(request))["code"] == "wrong_password"
        assert (await bob.request({"type": "spectate", "table": 1, "password": "owl"}))["type"] == "table"
        await ann.request({"type": "add_computer", "seat": 1, "level": "random"})
        refused = await bob.request({"type": "remove_computer", "seat": 1})
        assert refused["code"] == "not_creator" and "ann" in refused["message"]
        refused = await bob.request({"type": "configure_table", "options": {"target": 61}})
        assert refused["code"] == "not_creator"
        assert (await ann.request({"type": "remove_computer", "seat": 1}))["table"]["seats"][1] is None
        changed = await ann.request({"type": "configure_table", "options": {"target": 61}, "private": False,
                                     "turn_timer": 30})
        assert changed["table"]["options"] == {"target": 61} and not changed["table"]["private"]
        assert changed["table"]["turn_timer"] == 30
        assert server.core.tables[1].rules.target == 61
        bad = await ann.request({"type": "configure_table", "options": {"target": 5}})
        assert bad["code"] == "invalid_option"
        assert (await cat.request({"type": "sit", "table": 1}))["type"] == "table"  # no password now
        # the creator leaves: the person in the lowest seat takes the role over
        await ann.request({"type": "leave"})
        table = (await bob.request({"type": "list_tables"}))["tables"][0]
        assert table["creator"] == "cat"
        assert (await cat.request({"type": "configure_table", "turn_timer": 0}))["table"]["turn_timer"] is None
        for client in (ann, bob, cat):
            await client.close()


# -- a real server process, killed with SIGKILL ---------------------------------------------
def _start(db: Path) -> tuple[subprocess.Popen[str], int]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "noddy.server.cli", "--host", "127.0.0.1", "--port", "0", "--db", str(db),
         "--log-level", "WARNING", "--grace", "120", "--rate", "1000", "--burst", "1000"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.startswith("noddy-server listening on 127.0.0.1:"), (line, proc.stderr.read() if proc.stderr else "")
    return proc, int(line.rsplit(":", 1)[1])


def _stop(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        proc.kill()
    proc.wait(timeout=10)
    for stream in (proc.stdout, proc.stderr):
        if stream is not None:
            stream.close()


async def test_sigkill_then_restart_on_the_same_database(tmp_path: Path) -> None:
    db = tmp_path / "noddy.sqlite3"
    proc, port = _start(db)
    try:
        ann = await Client.connect(port)
        await ann.hello("ann")
        await ann.request({"type": "create_table", "preset": "cribbage"})
        await ann.request({"type": "add_computer", "level": "greedy"})
        await ann.request({"type": "ready"})
        moves = 0

        def after_some_moves(message: dict[str, Any]) -> bool:
            nonlocal moves
            if message.get("type") == "ok":
                moves += 1
            # stop where only ann may act: the computer is not thinking, nothing is in flight
            return (moves >= 6 and message["type"] == "turn" and message["awaiting"] == [0]
                    and bool(message["legal_actions"]))
        await play_out(ann, random.Random(8), stop_after=after_some_moves)
        # That turn may have been stale (sent before ann's last action was handled): wait for
        # a snapshot in which only ann may act, which nothing can change until she does.
        while True:
            before = await ann.request({"type": "snapshot"})
            if before.get("turn") and before["turn"]["awaiting"] == [0]:
                break
            await ann.recv_until(lambda m: m["type"] == "turn" and m["awaiting"] == [0])
        events_seen = [m for m in ann.received if m["type"] == "event"]
        os.kill(proc.pid, signal.SIGKILL)
        assert proc.wait(timeout=10) == -signal.SIGKILL
        await ann.closed()
    finally:
        _stop(proc)

    proc, port = _start(db)
    try:
        back = await Client.connect(port)
        welcome = await back.hello("ann", resume=ann.token)
        assert (welcome["resumed"], welcome["table"], welcome["seat"]) == (True, 1, 0)
        after = await back.recv_until(lambda m: m["type"] == "snapshot")
        assert comparable(after) == comparable(before)
        # every event ann had been sent is in the restored game, unchanged
        restored = {e["seq"]: e["event"] for e in after["events"]}
        assert all(restored[m["seq"]] == m["event"] for m in events_seen)
        await back.send({"type": "snapshot"})  # play_out answers the turn in it
        over = await play_out(back, random.Random(9), timeout=60)
        assert over["kind"] == "game_over"
        games = (await back.request({"type": "list_games"}))["games"]
        assert len(games) == 1 and games[0]["result"]["scores"] == over["scores"]
        record = (await back.request({"type": "get_game", "game": games[0]["id"]}))["record"]
        assert replay(record).scores == over["scores"]
        await back.request({"type": "bye"})
        await back.close()
        proc.send_signal(signal.SIGTERM)
        assert await asyncio.to_thread(proc.wait, 10) == 0
    finally:
        _stop(proc)
