"""The server core without sockets: a fake clock, computer players run in line, and a
rematch at the same table.  This is how the sans-IO core is meant to be driven."""

from __future__ import annotations

import json
from typing import Any

from noddy.server import Close, Send, ServerConfig, ServerCore
from noddy.server.core.instructions import Effects, Lines

from .results import outcome


class Harness:
    def __init__(self, **config: Any) -> None:
        self.now = 0.0
        self.core = ServerCore(ServerConfig(seed=7, **config), clock=lambda: self.now)
        self.inbox: dict[int, list[dict[str, Any]]] = {}
        self.closed: set[int] = set()

    def take(self, effects: Effects) -> None:
        timers = []
        for out in effects.out:
            if isinstance(out, Send):
                # A game's batch (Lines) is its messages one by one, as the wire has them.
                self.inbox.setdefault(out.conn, []).extend(
                    out.message.messages if isinstance(out.message, Lines) else [out.message])
                if out.timer is not None:
                    timers.append(out.timer)
            else:
                self.closed.add(out.conn)
        if timers:  # written now: the turns' timers run from now (as the network layer reports)
            self.core.turns_sent(timers)
        for job in effects.jobs:  # computer players decide at once
            self.take(self.core.bot_moved(job, job.run()))

    def connect(self, name: str) -> int:
        conn, outs = self.core.connect()
        self.take(outs)
        self.send(conn, {"type": "hello", "name": name, "version": 1})
        return conn

    def send(self, conn: int, message: dict[str, Any]) -> dict[str, Any]:
        before = len(self.inbox.get(conn, []))
        self.take(self.core.receive(conn, json.dumps(message).encode() + b"\n"))
        return self.inbox[conn][before]

    def tick(self, seconds: float) -> None:
        self.now += seconds
        self.take(self.core.tick())


def test_computer_players_finish_a_game_and_a_rematch_follows() -> None:
    h = Harness()
    ann = h.connect("ann")
    assert h.send(ann, {"type": "create_table", "preset": "cribbage", "players": 3})["type"] == "table"
    h.send(ann, {"type": "add_computer", "seat": 1, "level": "random"})
    h.send(ann, {"type": "add_computer", "seat": 2, "level": "random"})
    h.send(ann, {"type": "stand"})
    reply = h.send(ann, {"type": "add_computer", "seat": 0, "level": "random"})
    # three computers and a spectator: the game plays itself to the end at once
    table = h.core.tables[1]
    assert reply["table"]["status"] == "playing"
    assert table.status == "finished"
    assert h.inbox[ann][-1] == {"type": "table", "table": table.summary()}
    assert table.game is not None and table.game.is_over
    events = [m for m in h.inbox[ann] if m["type"] == "event"]
    assert outcome(events[-1]["event"]) == {"kind": "game_over", "winner": table.game.winner,
                                   "winning_seats": [table.game.winner], "scores": list(table.game.scores),
                                   "ending": "target", "skunk": table.game.outcome.skunk}
    assert all(e["event"].get("cards") is None for e in events if e["event"]["kind"] == "cards_dealt")
    last_seq = table.log[-1][0]
    # a rematch: seats may change again, and ready (here: a full table of computers) deals anew
    h.send(ann, {"type": "remove_computer", "seat": 0})
    h.send(ann, {"type": "sit", "seat": 0})
    reply = h.send(ann, {"type": "ready"})
    assert reply["table"]["games_played"] == 2
    # the table's log now holds the new game only, numbered on from the last one
    assert table.log[0][0] == last_seq + 1 and table.log[0][1].kind == "game_started"
    assert all(event.kind != "game_over" for _seq, event in table.log)


def test_a_held_seat_expires_by_the_clock() -> None:
    h = Harness(grace_period=10.0)
    ann, ben = h.connect("ann"), h.connect("ben")
    h.send(ann, {"type": "create_table"})
    h.send(ben, {"type": "sit", "table": 1})
    h.take(h.core.disconnect(ben))
    assert h.inbox[ann][-2] == {"type": "player_away", "table": 1, "seat": 1, "name": "ben", "grace": 10.0}
    h.tick(9.9)
    assert h.core.tables[1].seats[1] is not None
    h.tick(0.2)
    assert h.core.tables[1].seats[1] is None  # no game yet: the seat is simply freed
    assert h.inbox[ann][-1]["table"]["seats"] == [
        {"seat": 0, "name": "ann", "kind": "human", "bot": False, "level": None, "ready": False,
         "connected": True, "guest": True, "rating": 1500}, None]


def test_stale_computer_decisions_are_dropped() -> None:
    h = Harness()
    ann = h.connect("ann")
    h.send(ann, {"type": "create_table", "preset": "noddy"})
    h.send(ann, {"type": "add_computer", "seat": 1, "level": "random"})
    effects = h.core.receive(ann, b'{"type":"ready"}\n')
    jobs = effects.jobs
    game = h.core.tables[1].game
    if not jobs:  # ann moves first: play, and the computer's job appears
        action = game.legal_actions(0)[0]
        jobs = h.core.receive(ann, json.dumps({"type": "action", **action.to_dict()}).encode()).jobs
    assert [job.seat for job in jobs] == [1]
    assert h.core.tick().jobs == []  # handed out once
    h.core.receive(ann, b'{"type":"leave"}\n')  # the table closes while the computer thinks
    assert h.core.tables == {}
    stale = h.core.bot_moved(jobs[0], jobs[0].run())
    assert (stale.out, stale.records, stale.jobs) == ([], [], [])
    assert effects.out
