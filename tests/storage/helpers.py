"""A sans-IO driver for storage tests: the core, a fake clock, and a real :class:`Storage`.

Like ``tests/server/test_core.py``'s harness, but every call's storage records are written
(on this thread) before its messages are delivered, as the network layer does, and queries
are answered from the database.  ``restart()`` throws the core away and builds a new one from
what the database holds: the in-memory equivalent of killing the server.
"""

from __future__ import annotations

import json
import random
from typing import Any

from noddy.server import ServerConfig, ServerCore
from noddy.server.core import Close, Query, Send
from noddy.server.core.instructions import Effects, Lines
from noddy.server.storage import Storage


class Driver:
    def __init__(self, storage: Storage, **config: Any) -> None:
        self.now = 1000.0
        self.storage = storage
        config = {"seed": 11, "rate": 1e6, "burst": 10**6, "flood_strikes": 10**6, **config}
        self.config = ServerConfig(**config)
        self.inbox: dict[int, list[dict[str, Any]]] = {}
        self.records: list[Any] = []
        #: Computer players' jobs not run yet (a query's answer runs none).
        self._jobs: list[Any] = []
        self.core = self._new_core()

    def _new_core(self) -> ServerCore:
        core = ServerCore(self.config, clock=lambda: self.now, wall_clock=lambda: 1.7e9 + self.now)
        self.core = core
        self.take(core.restore(self.storage.load()))
        return core

    def restart(self) -> None:
        """A new core on the same database; every connection is gone."""
        self.inbox.clear()
        self._new_core()

    def take(self, effects: Effects, run_bots: bool = True) -> None:
        outs, records = effects.out, effects.records
        self._jobs.extend(effects.jobs)
        if records:
            self.storage.write(records)
            self.records.extend(records)
        timers = []
        for out in outs:
            if isinstance(out, Send):
                # A game's batch (Lines) is its messages one by one, as the wire has them.
                self.inbox.setdefault(out.conn, []).extend(
                    out.message.messages if isinstance(out.message, Lines) else [out.message])
                if out.timer is not None:
                    timers.append(out.timer)
            elif isinstance(out, Query):
                self.take(self.core.answer(out, self.storage.read(out.kind, out.args)), run_bots=False)
            elif isinstance(out, Close):
                pass
        if timers:  # written now: the turns' timers run from now (as the network layer reports)
            self.core.turns_sent(timers)
        for work in effects.passwords:  # the hashing worker, here at once
            self.take(self.core.password_done(work, work.run()), run_bots=False)
        if run_bots:
            jobs, self._jobs = self._jobs, []
            for job in jobs:
                self.take(self.core.bot_moved(job, job.run()))

    def connect(self, name: str | None = None, **hello: Any) -> int:
        conn, outs = self.core.connect()
        self.take(outs)
        if name is not None:
            reply = self.send(conn, {"type": "hello", "name": name, "version": 1, **hello})
            assert reply["type"] == "welcome", reply
        return conn

    def register(self, conn: int, password: str = "a secret") -> None:
        """``conn``'s person registers their name (only registered people are rated, and a
        private game's record is its accounts')."""
        assert self.send(conn, {"type": "register", "password": password})["type"] == "registered"

    def send(self, conn: int, message: dict[str, Any]) -> dict[str, Any]:
        """Send ``message`` with an id; return the direct reply."""
        before = len(self.inbox.get(conn, []))
        self.take(self.core.receive(conn, json.dumps({**message, "id": "r"}).encode() + b"\n"))
        return next(m for m in self.inbox[conn][before:] if m.get("id") == "r")

    def versus_computer(self, conn: int, preset: str, level: str, **table: Any) -> None:
        """``conn`` creates a table of ``preset`` (with ``table``'s settings), a computer of
        ``level`` joins it, and ``conn`` says ready: the game is dealt."""
        self.send(conn, {"type": "create_table", "preset": preset, **table})
        self.send(conn, {"type": "add_computer", "level": level})
        self.send(conn, {"type": "ready"})

    def token(self, conn: int) -> str:
        return next(m["token"] for m in self.inbox[conn] if m["type"] == "welcome")

    def play(self, conn: int, rng: random.Random, actions: int | None = None) -> int:
        """Make random legal moves for ``conn``'s seat until the game is over (or ``actions``);
        counting by hand, its claims are at random (some refused, some mugged)."""
        done = 0
        while actions is None or done < actions:
            snap = self.send(conn, {"type": "snapshot"})
            if snap["game"] is None or snap["table"]["status"] != "playing":
                break
            legal = snap["game"]["legal_actions"]
            seat = snap["seat"]
            if not legal or seat not in snap["turn"]["awaiting"]:
                raise AssertionError(f"seat {seat} cannot act: {snap['turn']}")
            action = dict(rng.choice(legal))
            action.pop("seat", None)
            if "min" in action:  # counting by hand: a claim or muggins call names any of a range
                low, high = action.pop("min"), action.pop("max")
                action["points"] = rng.randint(low, high)
            reply = self.send(conn, {"type": "action", **action})
            assert reply["type"] == "ok", reply
            done += 1
        return done


def comparable(snapshot: dict[str, Any]) -> dict[str, Any]:
    """A snapshot without what may differ across a reconnect: the request id and timers."""
    out = {k: v for k, v in snapshot.items() if k != "id"}
    if "turn" in out:
        out["turn"] = {k: v for k, v in out["turn"].items() if k != "time_left"}
    return out
