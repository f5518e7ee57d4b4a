"""The client's statistics screen (issue 26): the figures per preset, the best hands and the
rating history as a bar chart, drawn at 80x24; opened by keys from the lobby (``i``) and from
a name in the leaderboard (``Enter``), with ``Esc`` back where it came from."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from prompt_toolkit.input import create_pipe_input

from noddy.client.app import ClientApp
from noddy.client.model import LOBBY
from noddy.client.screens.records import LEADERBOARD
from noddy.client.screens.stats import STATS
from noddy.protocol.stats_view import chart_rows, stats_lines
from noddy.server import NoddyServer
from tests.server.harness import Client

from .test_app import ENTER, play_until, running_client, server, wait_for  # noqa: F401
from .test_idle import SizedOutput, screen_text

DOWN, ESCAPE = "\x1b[B", "\x1b"

RATINGS = [1500 + 16 * i if i < 12 else 1692 - 9 * (i - 12) for i in range(30)]


def _entry(preset: str, family: str, games: int, wins: int, best: dict[str, Any] | None) -> dict[str, Any]:
    return {"preset": preset, "family": family, "games": games, "wins": wins,
            "win_rate": round(wins / games, 3), "deals": games * 6, "cribs": games * 3,
            "points": {"pegging": 40, "hand": 80, "crib": 30},
            "per_deal": {"pegging": 1.11, "hand": 2.22, "crib": 3.33 if family == "cribbage" else None},
            "best_hand": best, "skunks_given": 2, "double_skunks_given": 1, "skunks_taken": 1,
            "double_skunks_taken": 0}


STATS_MESSAGE = {
    "type": "stats", "name": "Me", "preset": None,
    "presets": [_entry("cribbage", "cribbage", 30, 17, {"cards": ["5H", "5C", "5S", "JD", "5D"],
                                                         "points": 29, "game": 17}),
                _entry("noddy", "noddy", 4, 1, None)],
    "ratings": [{"family": "cribbage", "history": [
        {"game": i + 1, "at": 1.7e9 + i, "rating": float(r)} for i, r in enumerate(RATINGS)]}],
}


@pytest.fixture
def client() -> Iterator[ClientApp]:
    with create_pipe_input() as keys:
        yield ClientApp("127.0.0.1", 1, "Me", input=keys, output=SizedOutput())


def test_the_statistics_screen_draws_the_figures_and_the_rating_chart(client: ClientApp) -> None:
    model = client.model
    model.connection_up()
    model.handle({"type": "welcome", "name": "Me", "token": "t", "resumed": False, "presets": []})
    client.records.open_stats()
    asked = model.session.take_outbox()[-1]
    assert asked == {"type": "stats", "id": asked["id"]} and model.session.screen == STATS
    client.records.handle({**STATS_MESSAGE, "id": asked["id"]})
    rows = screen_text(client)
    assert len(rows) == 24 and max(len(row) for row in rows) <= 80
    assert "Statistics" in rows[0]
    assert rows[1:9] == [
        " Statistics of Me   points per deal · crib per crib held · skunks given/taken",
        " preset              games  wins   win%    peg   hand   crib    given  taken",
        " cribbage               30    17   56.7   1.11   2.22   3.33     2(1)      1",
        " noddy                   4     1   25.0   1.11   2.22      -     2(1)      1",
        " Best hands",
        "   cribbage           29  5♥ 5♣ 5♠ J♦ + 5♦  (game 17)",
        " cribbage rating 1539 (1500-1692 over the last 30 rated games)",
        "  1692 " + chart_rows(RATINGS, 72, 5)[0].rstrip()]
    chart = chart_rows(RATINGS, 72, 5)
    assert [row[7:] for row in rows[9:13]] == [line.rstrip() for line in chart[1:]]
    assert rows[12].startswith("  1500 ")
    assert chart[-1].startswith("▁") and "█" in chart[0]  # the lowest is one eighth, the highest full
    assert rows[-1].startswith(" Esc lobby")


async def test_statistics_by_keys_from_the_lobby_and_the_leaderboard(server: NoddyServer) -> None:  # noqa: F811
    me = await Client.connect(server.port)  # only registered people are rated: Me registers first
    await me.hello("Me")
    assert (await me.request({"type": "register", "password": "a secret"}))["type"] == "registered"
    await me.request({"type": "bye"})
    async with running_client(server.port, quick_start={
            "preset": "noddy", "players": 2, "computers": 1, "options": {"target": 15}}) as (app, keys):
        model, records = app.model, app.records
        await wait_for(lambda: model.lobby.password_prompt is not None, "the password asked for")
        keys.send_text("a secret" + ENTER)
        await wait_for(lambda: model.game.in_game, "the game to start")
        await play_until(model, keys, lambda: model.game.view.winner is not None)
        keys.send_text("l")
        await wait_for(lambda: model.session.screen == LOBBY, "the lobby")
        keys.send_text("i")
        await wait_for(lambda: model.session.screen == STATS and records.stats.stats is not None, "my statistics")
        mine = records.stats.stats
        assert mine is not None and mine["name"] == "Me"
        assert [(p["preset"], p["games"]) for p in mine["presets"]] == [("noddy", 1)]
        assert [r["family"] for r in mine["ratings"]] == ["noddy"]
        assert any(row.startswith(" noddy                   1     ") for row in screen_text(app))
        keys.send_text(ESCAPE)
        await wait_for(lambda: model.session.screen == LOBBY, "the lobby again")
        keys.send_text("b")
        await wait_for(lambda: model.session.screen == LEADERBOARD and records.board, "the leaderboard")
        board = records.board or []
        me = next(i for i, row in enumerate(board) if row["name"] == "Me")
        assert records.board_cursor == me  # the cursor starts on my own row
        computer = next(i for i, row in enumerate(board) if row["kind"] == "computer")
        for _ in range((computer - me) % len(board)):
            keys.send_text(DOWN)
        await wait_for(lambda: records.board_cursor == computer, "the computer chosen")
        keys.send_text(ENTER)
        await wait_for(lambda: model.session.status == "Computer players have no statistics: choose a person.",
                       "the computer refused")
        keys.send_text(DOWN)
        await wait_for(lambda: records.board_cursor != computer, "a person chosen")
        keys.send_text(ENTER)
        await wait_for(lambda: model.session.screen == STATS and records.stats.stats is not None, "their statistics")
        assert records.stats.stats is not None and records.stats.stats["name"] == "Me"
        keys.send_text(ESCAPE)
        await wait_for(lambda: model.session.screen == LEADERBOARD, "back to the leaderboard")


def test_without_a_rated_game_the_screen_says_why_there_is_no_chart(client: ClientApp) -> None:
    """Seen in tmux (issue 26's acceptance): a guest's screen (and text mode's ``stats``)
    ended after the best hands, the rating chart missing without a word."""
    model = client.model
    model.connection_up()
    model.handle({"type": "welcome", "name": "Me", "token": "t", "resumed": False, "presets": []})
    client.records.open_stats()
    asked = model.session.take_outbox()[-1]
    client.records.handle({**STATS_MESSAGE, "ratings": [], "id": asked["id"]})
    rows = screen_text(client)
    assert rows[7] == " No rating history: none of these games was rated."
    assert stats_lines({**STATS_MESSAGE, "ratings": []})[-1] == "No rating history: none of these games was rated."
