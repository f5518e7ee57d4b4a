"""How long a game took (issue 32): ``game_over``'s ``duration_s``, the record's result (in
``list_games``, ``get_game`` and ``--export-game``) and ``stats``' time played, all from the
server's injected wall clock, from the first deal to the end."""

from __future__ import annotations

import random
from typing import Any

from noddy.server.storage import Storage

from ..server.results import fields
from .helpers import Driver


def test_a_games_duration_is_in_its_game_over_its_record_and_the_stats() -> None:
    d = Driver(Storage(":memory:"), seed=3)
    ann = d.connect("ann")
    d.versus_computer(ann, "noddy", "random")  # dealt at wall clock 1.7e9 + 1000
    assert d.play(ann, random.Random(4), actions=2) == 2
    d.now += 125.34  # two minutes and a bit at the table
    d.play(ann, random.Random(5))
    over = [m["event"] for m in d.inbox[ann] if m["type"] == "event" and m["event"]["kind"] == "game_over"]
    assert [fields(o, "duration_s") for o in over] == [{"duration_s": 125.3}]
    told = d.send(ann, {"type": "snapshot"})["events"]  # the table's log, for a late comer
    assert [fields(m["event"], "duration_s") for m in told if m["event"]["kind"] == "game_over"] == [
        {"duration_s": 125.3}]

    (listed,) = d.send(ann, {"type": "list_games"})["games"]
    assert fields(listed["result"], "duration_s") == {"duration_s": 125.3}
    record = d.send(ann, {"type": "get_game", "game": listed["id"]})["record"]
    assert fields(record["result"], "duration_s") == {"duration_s": 125.3}
    assert fields(record["steps"][-1]["events"][-1], "kind", "duration_s") == {"kind": "game_over", "duration_s": 125.3}
    exported = d.storage.finished_game(listed["id"])
    assert exported is not None and fields(exported["result"], "duration_s") == {"duration_s": 125.3}

    # A second game, dealt at once and played for ten seconds: the stats sum both.
    d.send(ann, {"type": "ready"})
    d.now += 10.0
    d.play(ann, random.Random(6))
    (noddy,) = d.send(ann, {"type": "stats"})["presets"]
    assert fields(noddy, "games", "duration_s") == {"games": 2, "duration_s": {"total": 135.3, "per_game": 67.7}}


def test_a_game_stored_before_durations_counts_from_its_record_in_the_stats() -> None:
    d = Driver(Storage(":memory:"), seed=3)
    ann = d.connect("ann")
    d.versus_computer(ann, "noddy", "random")
    d.now += 40.0
    d.play(ann, random.Random(4))
    with d.storage.db as db:  # as an older server stored it: no duration_s
        db.execute("UPDATE games SET result = json_remove(result, '$.duration_s')")
    (listed,) = d.send(ann, {"type": "list_games"})["games"]
    assert fields(listed["result"], "duration_s") == {"duration_s": None}
    (noddy,) = d.send(ann, {"type": "stats"})["presets"]
    assert fields(noddy, "games", "duration_s") == {"games": 1, "duration_s": {"total": 40.0, "per_game": 40.0}}


def test_a_game_restored_after_a_restart_keeps_counting_from_its_first_deal(tmp_path: Any) -> None:
    d = Driver(Storage(tmp_path / "noddy.sqlite3"), seed=3)
    ann = d.connect("ann")
    d.versus_computer(ann, "noddy", "random")
    token = d.token(ann)
    assert d.play(ann, random.Random(4), actions=2) == 2
    d.now += 60.0
    d.restart()
    ann = d.connect("ann", resume=token)
    d.now += 30.0
    d.play(ann, random.Random(5))
    over = [m["event"] for m in d.inbox[ann] if m["type"] == "event" and m["event"]["kind"] == "game_over"]
    assert [fields(o, "duration_s") for o in over] == [{"duration_s": 90.0}]
