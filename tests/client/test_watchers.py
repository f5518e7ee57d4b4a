"""What a watcher reads at the end of a game and after a reconnection (issue 33's third
evening): watchers are told the match result as the players are, and "Connection restored"
does not stay on a watcher's status line for the rest of the game.  Through pipe input at
80x24 and 60x20, the server's messages fed to the model, no word cut at a border.
"""

from __future__ import annotations

from typing import Any

from prompt_toolkit.input import create_pipe_input

from noddy.client.app import ClientApp

from .test_idle import SizedOutput
from .test_model import deal_004, ev, summary
from .test_no_cut_words import assert_whole, client, seat  # noqa: F401 (the fixture)


def match_table(points: list[int], winner: int | None) -> dict[str, Any]:
    """Table 1, ann against cy in a match to 2, after game ``sum(points)`` (dee watching)."""
    return {**summary("finished"), "rated": True, "spectators": ["dee"],
            "options": {"match": 2}, "seats": [seat(0, "ann"), seat(1, "cy")],
            "match": {"to": 2, "points": points, "game": sum(points), "id": 3, "winner": winner,
                      "names": ["ann", "cy"]}}


def watch_the_last_game(client: ClientApp, points: list[int], winner: int | None) -> None:  # noqa: F811
    """The client watches table 1 (no seat) as ann wins a game of the match."""
    model = client.model
    model.game.enter_table(1, {**match_table([points[0] - 1, points[1]], None), "status": "playing"})
    deal_004(model)
    model.handle(ev(9, "game_over", winner=0, winning_seats=[0], scores=[31, 4], ending="target",
                    skunk="none", names=["ann", "cy"]))
    model.handle({"type": "table", "table": match_table(points, winner)})


def prompt_row(rows: list[str]) -> str:
    """The table screen's prompt: the row that says the game is over (and what follows)."""
    at = next(i for i, row in enumerate(rows) if "l goes back to the lobby" in row
              or "game is over" in row.lower())
    text = rows[at].strip()
    while at + 1 < len(rows) and rows[at + 1].startswith("   ") and rows[at + 1].strip():
        at += 1
        text += " " + rows[at].strip()
    return text


async def test_a_watcher_is_told_who_won_the_match(client: ClientApp) -> None:  # noqa: F811
    """Seen in tmux: at a won match dee read only ``The game is over: l goes back to the
    lobby. That game was rated.``; the players read ``ann won the match (ann 2, cy 0)``."""
    watch_the_last_game(client, [2, 0], 0)
    rows = assert_whole(client, "a watcher's table at a won match")
    assert "ann won the match (ann 2, cy 0)" in " ".join(rows)


async def test_a_watcher_is_told_the_match_score_between_games(client: ClientApp) -> None:  # noqa: F811
    watch_the_last_game(client, [1, 0], None)
    rows = assert_whole(client, "a watcher's table between games of a match")
    assert "Match to 2: ann 1, cy 0" in " ".join(rows)


async def test_connection_restored_goes_from_a_watchers_status_at_the_next_move(client: ClientApp) -> None:  # noqa: F811
    """Seen in tmux: "Connection restored; back at the table." stayed on dee's status line for
    the rest of the game (it went at her own next move or the next game, neither of which a
    watcher has)."""
    model = client.model
    model.game.enter_table(1, {**match_table([0, 0], None), "status": "playing"})
    deal_004(model)
    model.connection_lost("the server closed the connection")
    model.connection_up()
    model.handle({"type": "welcome", "name": model.session.name, "token": "t", "resumed": True,
                  "table": 1, "seat": None, "presets": []})
    assert model.session.status == "Connection restored; back at the table."
    model.handle(ev(9, "played", seat=0, card="4H", count=4))   # ann plays: the board changes
    assert model.session.status == ""
    assert not any("Connection restored" in row for row in assert_whole(client, "a watcher's table"))


def started_and_resumed(seat: int | None) -> ClientApp:
    """A client just started (its saved token sent), whose first welcome puts it back at
    table 2: the seat held for it, or the table it watched."""
    with create_pipe_input() as keys:
        app = ClientApp("192.168.100.200", 3131, "ben", input=keys, output=SizedOutput(24, 80))
        app.model.connection_up()
        app.model.handle({"type": "welcome", "name": "ben", "token": "t", "resumed": True, "table": 2,
                          "seat": seat, "registered": False, "presets": [], "levels": ["greedy"]})
        return app


async def test_a_client_started_again_says_its_seat_was_held_not_connection_restored() -> None:
    """A freshly started client resuming by its saved token had no connection to restore."""
    assert started_and_resumed(1).model.session.status == "Back at table 2 (your seat was held)."
    assert started_and_resumed(None).model.session.status == "Back watching table 2."
