"""A seat is not held hostage (issue 31): a person who sits, is dealt in, stays connected and
says nothing on their turn.  Once they have been silent for the table's ``seat_silence``
(the server's default 300 s, or the table's option), the others at the table are told
(``seat_silent``) and may call in a stand-in; the silent person takes the seat back with
their next request.  Nothing happens unless another person asks, and a person alone
against computers is never disturbed.  Time is the core's injected clock."""

from __future__ import annotations

from typing import Any

import pytest

from noddy.server import NoddyServer, ServerCore
from noddy.server.cli import build_parser, config_from_args
from noddy.server.model.table import Session

from .harness import Client, text_connection, text_line, text_until
from .harness import test_config as config_for_tests
from .test_core import Harness

#: What ann is told once ben has said nothing for the server's default 300 s.
BEN_SILENT = {"type": "seat_silent", "table": 1, "seat": 1, "name": "ben", "silent": 300.0,
              "request": {"type": "stand_in", "seat": 1, "on": True}}


def _dealt(options: dict[str, Any] | None = None, **config: Any) -> tuple[Harness, int, int]:
    """ann (seat 0) and ben (seat 1) at a Noddy table of two, dealt: ben is to move (to play)."""
    h = Harness(**config)
    ann, ben = h.connect("ann"), h.connect("ben")
    h.send(ann, {"type": "create_table", "preset": "noddy", "options": options or {}})
    h.send(ben, {"type": "sit", "table": 1})
    h.send(ann, {"type": "ready"})
    h.send(ben, {"type": "ready"})
    assert h.core.tables[1].game.awaiting == (1,)
    return h, ann, ben


def _told(h: Harness, conn: int) -> list[dict[str, Any]]:
    return [m for m in h.inbox.get(conn, []) if m["type"] == "seat_silent"]


def _ben(h: Harness) -> Session:
    return next(s for s in h.core.sessions.all() if s.name == "ben")


def test_a_silent_person_past_the_default_the_others_are_told_and_a_stand_in_plays_until_they_speak() -> None:
    h, ann, ben = _dealt()
    table = h.core.tables[1]
    h.tick(299.5)
    assert _told(h, ann) == []
    h.tick(1.0)
    assert _told(h, ann) == [BEN_SILENT]
    assert _told(h, ben) == []  # the others are told, not the silent person
    h.tick(600.0)
    assert _told(h, ann) == [BEN_SILENT]  # once a silence; and nothing happened by itself
    assert table.seats[1].session is _ben(h) and not table.game.gone
    assert h.send(ann, {"type": "stand_in", "id": 5, "seat": 1, "on": True}) == {"type": "ok", "id": 5}
    stood_in = {"type": "stand_in", "table": 1, "seat": 1, "name": "ben", "level": "greedy", "silent": 300.0,
                    "counts": "If ben does not take the seat back before the game ends, it counts as ben's "
                              "resignation now, at ann 2, ben 7: the deals played from here count only if ben "
                              "comes back."}
    assert [m for m in h.inbox[ann] if m["type"] == "stand_in"] == [stood_in]
    seat = table.seats[1]
    assert (seat.is_computer, seat.stand_in_for) == (True, _ben(h))
    assert [m for m in h.inbox[ben] if m["type"] == "stand_in"] == [  # ben hears it too
        stood_in]
    # the seat is abandoned (the rules for leaving), and the computer played ben's discard
    assert table.game.gone[1][0] == "abandoned"
    moves = [m["event"] for m in h.inbox[ann] if m["type"] == "event" and m["event"].get("seat") == 1
             and m["event"]["kind"] in ("played", "go")]
    assert len(moves) == 1 and table.game.awaiting == (0,)
    # ben says anything at all: the seat is his again, the game counts him back
    before = len(h.inbox[ben])
    h.send(ben, {"type": "chat", "text": "sorry, the kettle"})
    assert table.seats[1].session is _ben(h) and not table.seats[1].is_computer
    assert 1 not in table.game.gone
    assert {"type": "player_back", "table": 1, "seat": 1, "name": "ben"} in h.inbox[ann]
    snapshots = [m for m in h.inbox[ben][before:] if m["type"] == "snapshot"]
    assert len(snapshots) == 1 and snapshots[0]["seat"] == 1 and snapshots[0]["seq"] == table.seq
    assert [c["why"] for c in table.live.changes] == ["abandoned", "back"]


def test_before_the_time_a_stand_in_for_a_connected_seat_is_refused() -> None:
    h, ann, ben = _dealt()
    h.tick(120.0)
    refused = h.send(ann, {"type": "stand_in", "id": 1, "seat": 1, "on": True})
    assert refused == {"type": "error", "id": 1, "code": "not_away", "field": "seat",
                       "message": "ben has said nothing for 120 s on their turn: a computer may stand in "
                                  "after 300 s (180 s more)"}
    refused = h.send(ben, {"type": "stand_in", "id": 2, "seat": 0, "on": True})
    assert refused == {"type": "error", "id": 2, "code": "not_away", "field": "seat",
                       "message": "ann is here, and it is not ann's turn: a computer may stand in once "
                                  "ann has said nothing for 300 s on their turn"}
    # ben's request (here: a refused one) starts his silence again
    h.tick(200.0)
    assert _told(h, ann) == []
    refused = h.send(ann, {"type": "stand_in", "id": 3, "seat": 1, "on": True})
    assert refused["message"].startswith("ben has said nothing for 200 s on their turn")
    # waiting for a person who is here means nothing
    refused = h.send(ann, {"type": "stand_in", "id": 4, "seat": 1, "on": False})
    assert (refused["code"], refused["message"]) == ("not_away", "seat 1 at table 1 is not waiting for anyone in a game")
    assert h.core.tables[1].seats[1].session is _ben(h)


def test_pings_and_pongs_are_not_a_person_speaking() -> None:
    h, ann, ben = _dealt()
    h.tick(200.0)
    h.send(ben, {"type": "ping"})
    h.tick(101.0)
    assert _told(h, ann) == [BEN_SILENT]


def test_a_server_with_seat_silence_0_never_lets_a_stand_in_take_a_connected_seat() -> None:
    h, ann, ben = _dealt(seat_silence=0)
    h.tick(100000.0)
    assert _told(h, ann) == []
    refused = h.send(ann, {"type": "stand_in", "id": 1, "seat": 1, "on": True})
    assert (refused["code"], refused["message"]) == (
        "not_away", "ben is here (connected): a computer may stand in only for a person who is away")


def test_a_table_of_one_person_against_computers_is_never_touched() -> None:
    h = Harness()
    ann = h.connect("ann")
    h.send(ann, {"type": "create_table", "preset": "cribbage", "players": 3})
    h.send(ann, {"type": "add_computer", "seat": 1})
    h.send(ann, {"type": "add_computer", "seat": 2})
    h.send(ann, {"type": "ready"})
    table = h.core.tables[1]
    assert 0 in table.game.awaiting and table.status == "playing"
    seq, count = table.seq, len(h.inbox[ann])
    h.tick(3600.0)
    h.tick(3600.0)
    assert (table.seq, table.status, table.seats[0].session.name, table.game.gone) == (seq, "playing", "ann", {})
    assert [m for m in h.inbox[ann][count:] if m["type"] != "ping"] == []  # (the keepalive's pings)


def test_the_table_option_changes_the_time() -> None:
    h, ann, ben = _dealt({"seat_silence": 60})
    h.tick(59.5)
    assert _told(h, ann) == []
    refused = h.send(ann, {"type": "stand_in", "id": 1, "seat": 1, "on": True})
    assert refused["message"] == ("ben has said nothing for 60 s on their turn: a computer may stand in "
                                  "after 60 s (0 s more)")
    h.tick(1.0)
    assert _told(h, ann) == [{**BEN_SILENT, "silent": 60}]
    assert h.send(ann, {"type": "stand_in", "seat": 1, "on": True}) == {"type": "ok"}
    # a longer time than the server's also counts (and the option is kept with the table)
    h2, ann2, _ben2 = _dealt({"seat_silence": 900})
    h2.tick(850.0)
    assert _told(h2, ann2) == []
    h2.tick(51.0)
    assert _told(h2, ann2) == [{**BEN_SILENT, "silent": 900}]
    assert h2.core.tables[1].summary()["options"] == {"seat_silence": 900}


@pytest.mark.parametrize("value", [29, 86401, "5 minutes", True, None])
def test_the_table_option_is_checked(value: Any) -> None:
    h = Harness()
    ann = h.connect("ann")
    reply = h.send(ann, {"type": "create_table", "id": 1, "preset": "noddy", "options": {"seat_silence": value}})
    if value is None:  # null: the server's default
        assert reply["type"] == "table"
        return
    assert (reply["code"], reply["message"]) == (
        "invalid_option", f"option 'seat_silence' must be a number from 30 to 86400, not {value!r}")


def test_the_option_is_advertised_in_welcome() -> None:
    h = Harness()
    ann = h.connect("ann")
    welcome = next(m for m in h.inbox[ann] if m["type"] == "welcome")
    advertised = dict(welcome["table_options"]["seat_silence"])
    assert advertised.pop("description").startswith("seconds the person to move may say nothing")
    assert advertised == {"type": "number", "min": 30, "max": 86400, "default": None, "in": "options"}


def test_a_silent_person_whose_stand_in_finished_the_game_is_seated_again_and_shown_the_end() -> None:
    h, ann, ben = _dealt()
    h.tick(300.0)
    h.send(ann, {"type": "stand_in", "seat": 1, "on": True})
    before = len(h.inbox[ben])
    h.send(ann, {"type": "leave"})  # ann resigns: a game of two sides ends at once
    table = h.core.tables[1]
    assert table.status == "finished"
    assert table.seats[1] is not None and table.seats[1].session is _ben(h) and not table.seats[1].ready
    snapshots = [m for m in h.inbox[ben][before:] if m["type"] == "snapshot"]
    assert len(snapshots) == 1 and snapshots[0]["table"]["status"] == "finished"
    assert snapshots[0]["events"][-1]["event"]["kind"] == "game_over"
    assert _ben(h).token in h.core.sessions  # still ben's, at the table


def test_the_flag_sets_the_default() -> None:
    assert config_from_args(build_parser().parse_args(["--seat-silence", "90"])).seat_silence == 90.0
    assert config_from_args(build_parser().parse_args([])).seat_silence == 300.0


async def test_over_sockets_a_person_on_nc_is_told_and_types_standin() -> None:
    """ann types at a terminal; ben's JSON client goes silent on his turn.  The server runs on
    a fake clock: its ticker looks at the time, which only the test moves."""
    now = [0.0]
    config = config_for_tests()
    server = NoddyServer(config, core=ServerCore(config, clock=lambda: now[0]))
    await server.start()
    try:
        reader, writer = await text_connection(server.port)
        writer.write(b"name ann\nnew noddy\n")
        await text_until(reader, "Table 1")
        ben = await Client.connect(server.port)
        await ben.hello("ben")
        await ben.request({"type": "sit", "table": 1})
        writer.write(b"ready\n")
        await ben.request({"type": "ready"})
        await ben.recv_until(lambda m: m["type"] == "turn" and m["awaiting"] == [1])
        now[0] = 301.0
        line = await text_until(reader, "ben (seat 2) has said nothing")
        assert line + await text_line(reader) == (
            "ben (seat 2) has said nothing for 300 s on their turn; type standin 2 to let a\n"
            "  computer play for them until they say something.\n")
        writer.write(b"standin 2\n")
        line = await text_until(reader, "ben (seat 2) has said nothing:")
        assert line.startswith("ben (seat 2) has said nothing: greedy computer 2 stands in until ben does")
        told = await ben.recv_until(lambda m: m["type"] == "stand_in")  # ben is told, though no longer a member
        assert told == {"type": "stand_in", "table": 1, "seat": 1, "name": "ben", "level": "greedy", "silent": 300.0,
                        "counts": "If ben does not take the seat back before the game ends, it counts as ben's "
                                  "resignation now, at ann 0, ben 10: the deals played from here count only if "
                                  "ben comes back."}
        snapshot = await ben.request({"type": "snapshot"})  # any request: the seat is his again
        assert snapshot["type"] == "snapshot" and snapshot["table"]["seats"][1]["kind"] == "human"
        assert (await text_until(reader, "ben (seat 2) is back")) == "ben (seat 2) is back.\n"
        writer.close()
        await ben.close()
    finally:
        await server.shutdown()



def test_a_silent_person_stood_in_for_who_then_loses_the_connection_is_not_abandoned_twice() -> None:
    h, ann, ben = _dealt(grace_period=10.0)
    h.tick(300.0)
    h.send(ann, {"type": "stand_in", "seat": 1, "on": True})
    token = _ben(h).token
    h.take(h.core.disconnect(ben))
    h.tick(11.0)  # the grace period runs out: the seat is abandoned already, a computer plays it
    table = h.core.tables[1]
    assert table.seats[1].stand_in_for is _ben(h) and list(table.game.gone) == [1]
    back, outs = h.core.connect()
    h.take(outs)
    assert h.send(back, {"type": "hello", "name": "ben", "version": 1, "resume": token})["resumed"] is True
    assert table.seats[1].session is _ben(h) and table.game.gone == {}


class SlowComputers(Harness):
    """A harness whose computer players think until the test lets them (``thinking``)."""

    def __init__(self, **config: Any) -> None:
        super().__init__(**config)
        self.thinking = False

    def take(self, effects: Any) -> None:
        if self.thinking:
            effects.jobs = []
        super().take(effects)


def test_waiting_instead_gives_the_silent_person_their_seat_and_their_silence_counts_again() -> None:
    h = SlowComputers()
    ann, ben = h.connect("ann"), h.connect("ben")
    h.send(ann, {"type": "create_table", "preset": "noddy"})
    h.send(ben, {"type": "sit", "table": 1})
    h.send(ann, {"type": "ready"})
    h.send(ben, {"type": "ready"})
    table = h.core.tables[1]
    assert table.game.awaiting == (1,)
    h.tick(300.0)
    h.thinking = True  # the computer called in for ben has not moved yet
    h.send(ann, {"type": "stand_in", "seat": 1, "on": True})
    assert table.game.awaiting == (1,) and table.seats[1].is_computer
    before = len(h.inbox[ben])
    assert h.send(ann, {"type": "stand_in", "seat": 1, "on": False}) == {"type": "ok"}
    assert table.seats[1].session is _ben(h) and list(table.game.gone) == [1]  # abandoned until he speaks
    assert [m["type"] for m in h.inbox[ben][before:]] == ["stand_in", "snapshot", "table"]
    h.tick(299.0)
    assert len(_told(h, ann)) == 1
    h.tick(2.0)  # ben stays silent on his turn: the table is told again
    assert len(_told(h, ann)) == 2
    h.send(ben, {"type": "chat", "text": "back"})
    assert table.game.gone == {} and [c["why"] for c in table.live.changes] == ["abandoned", "waiting", "back"]
