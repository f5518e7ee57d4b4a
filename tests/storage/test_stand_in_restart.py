"""A seat a computer stands in for survives a restart (issue 24): the stored table keeps whom
the stand-in plays for and the seats' changes of hands, so the person's resume token takes
the seat back after the server comes back, and the finished game's record tells it all."""

from __future__ import annotations

import random

from noddy.server.storage import Storage

from .helpers import Driver


def test_a_stand_in_survives_a_restart_and_its_person_takes_the_seat_back() -> None:
    d = Driver(Storage(":memory:"), grace_period=5.0)
    ann, ben = d.connect("ann"), d.connect("ben")
    d.send(ann, {"type": "create_table", "preset": "noddy"})
    d.send(ben, {"type": "sit", "table": 1})
    d.send(ann, {"type": "ready"})
    d.send(ben, {"type": "ready"})
    tokens = {"ann": d.token(ann), "ben": d.token(ben)}
    d.take(d.core.disconnect(ben))
    d.now += 6.0
    d.take(d.core.tick())
    assert [m for m in d.inbox[ann] if m["type"] == "stand_in"] == [
        {"type": "stand_in", "table": 1, "seat": 1, "name": "ben", "level": "greedy",
         "counts": "If ben does not take the seat back before the game ends, it counts as ben's resignation "
                   "now, at ann 2, ben 2: the deals played from here count only if ben comes back."}]
    d.restart()
    table = d.core.tables[1]
    assert table.seats[1].stand_in and table.seats[1].stand_in_for.name == "ben"
    ann = d.connect()
    assert d.send(ann, {"type": "hello", "name": "ann", "version": 1, "resume": tokens["ann"]})["seat"] == 0
    ben = d.connect()
    welcome = d.send(ben, {"type": "hello", "name": "ben", "version": 1, "resume": tokens["ben"]})
    assert (welcome["resumed"], welcome["table"], welcome["seat"]) == (True, 1, 1)
    assert table.seats[1].session is not None and table.seats[1].name == "ben"
    rng = random.Random(2)
    players = {0: ann, 1: ben}
    while d.core.tables[1].status == "playing":
        for seat in d.send(ann, {"type": "snapshot"})["turn"]["awaiting"]:
            d.play(players[seat], rng, actions=1)
    record = d.send(ann, {"type": "get_game", "game": 1})["record"]
    assert record["result"]["ending"] == "target" and "abandoned" not in record["result"]
    assert [(c["why"], c["name"]) for c in record["seats"][1]["changes"]] == [
        ("abandoned", "greedy computer 2"), ("back", "ben")]
