"""Elo ratings: the documented formula to the last digit, who is rated, and the leaderboard."""

from __future__ import annotations

import random

import pytest

from noddy.server.model.ratings import INITIAL_RATING, K_FACTOR, Rated, RatingBook, expected_score, family_of
from noddy.server.storage import Storage

from .helpers import Driver

ADA, BOB, CAT, DAN = (Rated("human", n) for n in ("ada", "bob", "cat", "dan"))
GREEDY = Rated("computer", "greedy")


def test_the_formula() -> None:
    assert (INITIAL_RATING, K_FACTOR) == (1500.0, 32.0)
    assert expected_score(1500, 1500) == 0.5
    assert expected_score(1900, 1500) == pytest.approx(10 / 11)  # 400 points: ten to one
    book = RatingBook()
    changes = book.rate_game("noddy", [[ADA], [BOB]], winner=0)
    assert [(c.identity, c.before, c.after, c.games, c.wins) for c in changes] == [
        (ADA, 1500.0, 1516.0, 1, 1), (BOB, 1500.0, 1484.0, 1, 0)]
    # the second game: ada (1516) loses to bob (1484)
    e_ada = 1 / (1 + 10 ** ((1484 - 1516) / 400))
    book.rate_game("noddy", [[ADA], [BOB]], winner=1)
    assert book.rating("noddy", ADA) == 1516 + 32 * (0 - e_ada)
    assert book.rating("noddy", BOB) == 1484 + 32 * (1 - (1 - e_ada))
    assert round(book.rating("noddy", ADA), 6) == 1498.530498
    assert book.rating("noddy", ADA) + book.rating("noddy", BOB) == pytest.approx(3000)


def test_families_are_separate() -> None:
    assert [family_of(p) for p in ("noddy", "noddy-ducoeur", "noddy-holme", "noddy-modern",
                                   "cribbage", "five-card-cribbage")] == ["noddy"] * 4 + ["cribbage"] * 2
    book = RatingBook()
    book.rate_game("cribbage", [[ADA], [GREEDY]], winner=1)
    assert book.rating("noddy", GREEDY) == 1500 and book.rating("cribbage", GREEDY) == 1516


def test_partnerships_rate_each_member_by_the_team_means() -> None:
    book = RatingBook()
    book.rate_game("cribbage", [[ADA], [BOB]], winner=0)           # ada 1516, bob 1484
    changes = book.rate_game("cribbage", [[ADA, CAT], [BOB, DAN]], winner=1)
    mean_a, mean_b = (1516 + 1500) / 2, (1484 + 1500) / 2
    delta = 32 * (0 - 1 / (1 + 10 ** ((mean_b - mean_a) / 400)))
    assert {c.identity: c.after - c.before for c in changes} == pytest.approx(
        {ADA: delta, CAT: delta, BOB: -delta, DAN: -delta})


def test_games_that_say_nothing_are_not_rated() -> None:
    book = RatingBook()
    assert book.rate_game("noddy", [[GREEDY], [GREEDY]], winner=0) == []
    assert book.rate_game("noddy", [[GREEDY, ADA], [BOB, GREEDY]], winner=0) == []
    assert book.rate_game("noddy", [[ADA], [BOB], [CAT]], winner=0) == []
    assert book.standings == {}
    changes = book.rate_game("noddy", [[GREEDY, GREEDY], [ADA, BOB]], winner=0)
    assert [c.identity for c in changes] == [GREEDY, ADA, BOB]  # greedy moves once


def test_ratings_after_games_in_the_lobby_and_the_leaderboard() -> None:
    storage = Storage(":memory:")
    d = Driver(storage)
    ann = d.connect("ann")
    d.register(ann)  # only registered people are rated
    d.versus_computer(ann, "noddy", "greedy")
    d.play(ann, random.Random(1))
    game = d.core.tables[1].game
    ann_won = game.winner == 0
    ann_rating, greedy_rating = (1516, 1484) if ann_won else (1484, 1516)
    table = d.send(ann, {"type": "snapshot"})["table"]
    assert [s["rating"] for s in table["seats"]] == [ann_rating, greedy_rating]
    board = d.send(ann, {"type": "leaderboard", "family": "noddy"})
    entries = [{"kind": "human", "name": "ann", "rating": ann_rating, "games": 1, "wins": int(ann_won),
                "guest": False},
               {"kind": "computer", "name": "greedy", "rating": greedy_rating, "games": 1,
                "wins": int(not ann_won), "guest": False}]
    entries.sort(key=lambda p: -p["rating"])
    assert board["players"] == [{"rank": rank, **p} for rank, p in enumerate(entries, start=1)]
    assert d.send(ann, {"type": "leaderboard", "family": "cribbage"})["players"] == []
    # ratings are stored: they survive a restart and are shown at hello
    token = d.token(ann)
    d.restart()
    welcome = d.send(d.connect(), {"type": "hello", "name": "ann", "version": 1, "resume": token})
    assert welcome["ratings"] == {"noddy": ann_rating, "cribbage": 1500}
    assert d.core.ratings.rating("noddy", GREEDY) == greedy_rating


def test_only_accounts_are_rated_and_a_given_up_account_takes_its_ratings_with_it() -> None:
    storage = Storage(":memory:")
    # A standing an older server kept under a name nobody has registered: marked a guest's.
    storage.db.execute("INSERT INTO ratings VALUES ('noddy', 'human', 'cy', 1530.0, 2, 2)")
    d = Driver(storage)
    ann = d.connect("ann")
    d.versus_computer(ann, "noddy", "greedy")  # a guest: unrated
    d.play(ann, random.Random(1))
    board = d.send(ann, {"type": "leaderboard", "family": "noddy"})
    assert [(p["name"], p["guest"]) for p in board["players"]] == [("cy", True)]
    assert board["unrated"] == {"games": 1, "reasons": {"guest": 1}}
    d.register(ann)
    d.send(ann, {"type": "ready"})
    d.play(ann, random.Random(2))
    rows = storage.db.execute("SELECT name FROM ratings WHERE kind = 'human' ORDER BY name").fetchall()
    assert [row[0] for row in rows] == ["ann", "cy"]
    names = {p["name"]: p["guest"] for p in d.send(ann, {"type": "leaderboard"})["players"]}
    assert names == {"ann": False, "cy": True, "greedy": False}
    assert d.send(ann, {"type": "unregister", "password": "a secret"})["type"] == "unregistered"
    rows = storage.db.execute("SELECT name FROM ratings WHERE kind = 'human' ORDER BY name").fetchall()
    assert [row[0] for row in rows] == ["cy"]
    assert "ann" not in {p["name"] for p in d.send(ann, {"type": "leaderboard"})["players"]}
    assert d.core.ratings.rating("noddy", ADA._replace(name="ann")) == INITIAL_RATING
