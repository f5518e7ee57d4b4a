"""The quit question says how long the seat is held only where the client knows it (issue
33's third evening): between two games of a match the server holds the seat for its grace
period *and* ``keep_away`` more, which the welcome does not tell, so "Your seat is held for
20 s" was wrong there.  Through pipe input at 80x24 and 60x20, no word cut at a border.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from prompt_toolkit.input import create_pipe_input

from noddy.client.app import ClientApp
from noddy.client.render import plain
from noddy.client.state import ResumeTokens

from .test_idle import SizedOutput
from .test_model import deal_004, ev, summary
from .test_no_cut_words import SIZES, assert_whole, seat


@pytest.fixture(params=SIZES, ids=lambda size: f"{size[1]}x{size[0]}")
def ann(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ClientApp]:
    """ann's client (its resume token kept on disk), welcomed by a server whose grace is 20 s,
    seated at table 1 in a match to 2 against cy."""
    rows, columns = request.param
    with create_pipe_input() as keys:
        app = ClientApp("192.168.100.200", 3131, "ann", input=keys, output=SizedOutput(rows, columns),
                        tokens=ResumeTokens(tmp_path))
        app.model.connection_up()
        app.model.handle({"type": "welcome", "name": "ann", "token": "t", "resumed": False,
                          "registered": True, "presets": [], "levels": ["greedy"],
                          "limits": {"grace_period": 20.0}})
        app.model.game.enter_table(1, match_table([0, 0]))
        app.model.game.seat = 0
        app.sent = []  # type: ignore[attr-defined]
        app.connection.send = app.sent.append  # type: ignore[attr-defined,method-assign]
        yield app


def match_table(points: list[int]) -> dict[str, Any]:
    return {**summary("playing"), "rated": True, "options": {"match": 2},
            "seats": [seat(0, "ann"), seat(1, "cy")],
            "match": {"to": 2, "points": points, "game": sum(points) + 1, "id": 3, "winner": None,
                      "names": ["ann", "cy"]}}


def asked_to_quit(app: ClientApp) -> tuple[str, list[str]]:
    """The quit question, its lines joined, and the screen drawn with it up (read whole)."""
    app.confirm_quit = True
    rows = assert_whole(app, "the quit question")
    return " ".join(plain(app.confirm_text()).split()), rows


async def test_in_a_game_the_seat_is_said_held_for_the_grace(ann: ClientApp) -> None:
    deal_004(ann.model)
    said, _ = asked_to_quit(ann)
    assert said == "Quit? Your seat is held for 20 s: start noddy-client again to take it back. y / n"


async def test_between_games_of_a_match_the_question_gives_no_wrong_number(ann: ClientApp) -> None:
    """Seen in tmux: "Your seat is held for 20 s" (the grace) although the server holds the
    seat and the match for the grace plus ``keep_away``."""
    deal_004(ann.model)
    ann.model.handle(ev(9, "game_over", winner=0, winning_seats=[0], scores=[31, 4], ending="target",
                        skunk="none", names=["ann", "cy"]))
    ann.model.handle({"type": "table", "table": {**match_table([1, 0]), "status": "finished"}})
    said, _ = asked_to_quit(ann)
    assert said == ("Quit? Your seat and the match are held: start noddy-client again to play on. y / n")


async def test_between_games_of_a_match_the_question_says_the_grace_and_keep_away(ann: ClientApp) -> None:
    """The welcome says how long the seat is held between games past the grace (keep_away):
    the question says the whole, in minutes from two on."""
    ann.model.session.keep_away = 3600.0  # as the welcome's limits say it (grace 20 s)
    deal_004(ann.model)
    ann.model.handle(ev(9, "game_over", winner=0, winning_seats=[0], scores=[31, 4], ending="target",
                        skunk="none", names=["ann", "cy"]))
    ann.model.handle({"type": "table", "table": {**match_table([1, 0]), "status": "finished"}})
    said, _ = asked_to_quit(ann)
    assert said == ("Quit? Your seat and the match are held for 61 min: start noddy-client again to "
                    "play on. y / n")
    ann.model.session.keep_away = 40.0
    said, _ = asked_to_quit(ann)
    assert said == ("Quit? Your seat and the match are held for 60 s: start noddy-client again to "
                    "play on. y / n")
