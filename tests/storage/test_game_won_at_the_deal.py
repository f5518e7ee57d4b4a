"""A game can be over before anyone acts: under the Noddy presets the show comes before the
play, so with a low target the first show may win outright.  It must be recorded, listed
and rated like any other finished game (on a real database file, and after a restart)."""

from __future__ import annotations

from pathlib import Path

from noddy.engine import Game
from noddy.server import ServerConfig
from noddy.server.storage import Storage

from ..server.results import outcome, outcome_events
from .helpers import Driver

TARGET = 15


def _seed_won_at_the_deal() -> int:
    """A server seed whose first game at table 1 is over as soon as it is dealt."""
    for seed in range(2000):
        game_seed = ServerConfig(seed=seed).game_seed(1, 1)
        if Game("noddy", 2, options={"target": TARGET}, seed=game_seed).is_over:
            return seed
    raise AssertionError("no seed in range deals a game won at once")


def test_a_game_won_at_the_deal_is_recorded_listed_and_rated(tmp_path: Path) -> None:
    path = tmp_path / "noddy.sqlite3"
    d = Driver(Storage(path), seed=_seed_won_at_the_deal())
    ann = d.connect("ann")
    d.register(ann)  # only registered people are rated
    d.versus_computer(ann, "noddy", "greedy", options={"target": TARGET})
    game = d.core.tables[1].game
    assert game is not None and game.is_over and d.core.tables[1].live.actions == 0
    over = [m["event"] for m in d.inbox[ann] if m["type"] == "event" and m["event"]["kind"] == "game_over"]
    result = {"winner": game.winner, "winning_seats": list(game.winning_seats), "scores": list(game.scores),
              "ending": "target", "skunk": "none"}
    assert outcome_events(over) == [{"kind": "game_over", **result}]
    assert d.send(ann, {"type": "snapshot"})["table"]["status"] == "finished"

    def check() -> None:
        listed = d.send(ann, {"type": "list_games"})["games"]
        assert [(g["id"], g["status"], outcome(g["result"])) for g in listed] == [(1, "finished", result)]
        record = d.send(ann, {"type": "get_game", "game": 1})["record"]
        assert (record["status"], outcome(record["result"]), record["steps"]) == ("finished", result, [])
        won = game.winner == 0
        board = d.send(ann, {"type": "leaderboard", "family": "noddy"})["players"]
        assert {(p["kind"], p["name"]): (p["rating"], p["games"], p["wins"]) for p in board} == {
            ("human", "ann"): (1516 if won else 1484, 1, int(won)),
            ("computer", "greedy"): (1484 if won else 1516, 1, int(not won))}

    check()
    d.send(ann, {"type": "leave"})  # the table closes: the game stays finished, not abandoned
    check()
    d.storage.close()
    d.storage = Storage(path)
    d.restart()
    ann = d.connect("ann", password="a secret")
    check()


def test_such_a_game_left_playing_by_an_older_server_is_finished_at_restart(tmp_path: Path) -> None:
    path = tmp_path / "noddy.sqlite3"
    d = Driver(Storage(path), seed=_seed_won_at_the_deal())
    ann = d.connect("ann")
    d.register(ann)
    d.versus_computer(ann, "noddy", "greedy", options={"target": TARGET})
    token = d.token(ann)
    game = d.core.tables[1].game
    # What an older server left: the game still playing, unrated (ann's seat is held).
    with d.storage.db as db:
        db.execute("UPDATE games SET status = 'playing', finished_at = NULL, result = NULL")
        db.execute("DELETE FROM ratings")
    d.storage.close()
    d.storage = Storage(path)
    d.restart()
    ann = d.connect()
    assert d.send(ann, {"type": "hello", "name": "ann", "version": 1, "resume": token})["table"] == 1
    result = {"winner": game.winner, "winning_seats": list(game.winning_seats), "scores": list(game.scores),
              "ending": "target", "skunk": "none"}
    listed = d.send(ann, {"type": "list_games"})["games"]
    assert [(g["id"], g["status"], outcome(g["result"])) for g in listed] == [(1, "finished", result)]
    board = d.send(ann, {"type": "leaderboard", "family": "noddy"})["players"]
    assert sorted(p["games"] for p in board) == [1, 1]
    d.storage.close()
