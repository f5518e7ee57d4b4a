"""Finished games are kept whole: a stored record plus the engine reproduces every event."""

from __future__ import annotations

import copy
import io
import json
import random
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from noddy.server.cli import main as server_main
from noddy.server.storage.records import from_jsonl, record_events, replay, to_jsonl
from noddy.server.storage import Storage

from ..server.results import outcome, outcome_events
from .helpers import Driver

TABLES = [("noddy", 2, False), ("noddy-holme", 2, False), ("noddy-modern", 2, False),
          ("cribbage", 2, False), ("cribbage", 3, False), ("five-card-cribbage", 2, False),
          ("cribbage", 4, True), ("noddy", 4, True)]


def _computer_games(storage: Storage) -> Driver:
    """One game of each table above between computer players, watched by ann."""
    d = Driver(storage)
    ann = d.connect("ann")
    for preset, players, partnerships in TABLES:
        d.send(ann, {"type": "create_table", "preset": preset, "players": players,
                     "partnerships": partnerships, "seat": None})
        for seat in range(players):
            d.send(ann, {"type": "add_computer", "seat": seat, "level": "random"})
        assert d.send(ann, {"type": "snapshot"})["table"]["status"] == "finished"
        d.send(ann, {"type": "leave"})
    return d


def test_every_stored_game_replays_to_the_same_events(tmp_path: Path) -> None:
    storage = Storage(tmp_path / "db.sqlite3")
    d = _computer_games(storage)
    ids = [row[0] for row in storage.db.execute("SELECT id FROM games ORDER BY id")]
    assert len(ids) == len(TABLES)
    for game_id, (preset, players, partnerships) in zip(ids, TABLES):
        record = storage.finished_game(game_id)
        assert record is not None
        assert (record["preset"], record["players"], record["partnerships"]) == (preset, players, partnerships)
        assert record["status"] == "finished" and record["finished_at"] >= record["started_at"]
        assert [s["kind"] for s in record["seats"]] == ["computer"] * players
        game = replay(record)
        assert outcome_events([e.to_dict() for e in game.log]) == outcome_events(record_events(record))
        assert outcome(record["result"]) == {"winner": game.winner, "winning_seats": list(game.winning_seats),
                                    "scores": list(game.scores), "ending": "target",
                                    "skunk": game.outcome.skunk}
    # the events in the records are the very events the watcher was sent (all public to a
    # spectator except what the record keeps of hidden cards)
    assert d.records  # and the core really wrote through storage


def test_a_record_that_does_not_replay_is_refused() -> None:
    storage = Storage(":memory:")
    _computer_games(storage)
    record = storage.finished_game(1)
    assert record is not None
    tampered = copy.deepcopy(record)
    tampered["steps"][3]["events"][0]["seat"] = 99
    with pytest.raises(ValueError, match="action 4 does not replay"):
        replay(tampered)
    reseeded = {**copy.deepcopy(record), "seed": record["seed"] + 1}
    with pytest.raises(ValueError):
        replay(reseeded)


def test_json_lines_export_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    storage = Storage(path)
    _computer_games(storage)
    record = storage.finished_game(2)
    storage.close()
    lines = list(to_jsonl(record))
    assert json.loads(lines[0])["type"] == "game"
    assert all(json.loads(line)["type"] in ("event", "action") for line in lines[1:])
    assert from_jsonl(lines) == record
    out = io.StringIO()
    with redirect_stdout(out):
        assert server_main(["--db", str(path), "--export-game", "2"]) == 0
    assert out.getvalue().splitlines() == lines
    replay(from_jsonl(out.getvalue().splitlines()))
    assert server_main(["--db", str(path), "--export-game", "999"]) == 2


def test_list_games_and_get_game_over_the_protocol() -> None:
    d = Driver(Storage(":memory:"))
    ann = d.connect("ann")
    for number in range(3):
        d.versus_computer(ann, "noddy", "greedy")
        d.play(ann, random.Random(number))
        d.send(ann, {"type": "leave"})
    # an unfinished game is neither listed nor shown: its cards are still hidden
    d.versus_computer(ann, "noddy", "greedy")
    listed = d.send(ann, {"type": "list_games", "limit": 2})
    assert listed["type"] == "games" and listed["name"] == "ann"
    assert [g["id"] for g in listed["games"]] == [3, 2]
    assert all("steps" not in g and g["seats"][0]["name"] == "ann" for g in listed["games"])
    assert d.send(ann, {"type": "list_games", "name": "nobody"})["games"] == []
    record = d.send(ann, {"type": "get_game", "game": 1})
    assert record["type"] == "game_record" and record["record"]["id"] == 1
    replay(record["record"])
    assert d.send(ann, {"type": "get_game", "game": 4})["code"] == "no_such_game"
    assert d.send(ann, {"type": "get_game", "game": 99})["code"] == "no_such_game"


def test_a_table_closed_mid_game_leaves_an_abandoned_game() -> None:
    """ann's connection goes and she does not come back: alone against a computer, the game
    waits for her the keep-away time after the grace period (still playing, the table open),
    then a computer stands in, and with no person left the table closes mid-game.  (Leaving
    mid-game is a resignation: below.)"""
    storage = Storage(":memory:")
    d = Driver(storage, grace_period=5.0, keep_away=60.0)
    ann = d.connect("ann")
    d.versus_computer(ann, "cribbage", "random")
    d.take(d.core.disconnect(ann))
    d.now += 6.0
    d.take(d.core.tick())
    assert [tuple(r) for r in storage.db.execute("SELECT status FROM games")] == [("playing",)]
    assert [tuple(r) for r in storage.db.execute("SELECT open FROM tables")] == [(1,)]
    d.now += 61.0
    d.take(d.core.tick())
    assert [tuple(r) for r in storage.db.execute("SELECT status FROM games")] == [("abandoned",)]
    assert [tuple(r) for r in storage.db.execute("SELECT open FROM tables")] == [(0,)]


def test_leaving_mid_game_is_a_resignation_and_the_game_is_finished() -> None:
    storage = Storage(":memory:")
    d = Driver(storage)
    ann = d.connect("ann")
    d.versus_computer(ann, "cribbage", "random")
    d.send(ann, {"type": "leave"})
    (status, result), = storage.db.execute("SELECT status, result FROM games")
    assert status == "finished" and json.loads(result)["ending"] == "resignation"
    assert json.loads(result)["resigned"] == [0] and json.loads(result)["winner"] == 1
    assert [tuple(r) for r in storage.db.execute("SELECT open FROM tables")] == [(0,)]
