"""No word is cut at a border, on any screen, at 80x24 and 60x20 (issue 33, item 8).

Seen in tmux: titles cut mid-word (``Table 1 · noddy to 31 · rate``), lobby rows
(``cy (1500) (aw…``), My games (``lost  ann 9, ben 8 (by``), the leaderboard's key hints
(``m my games  E``), and the help's text touching its box (``/invite NAME│``).

What "a word cut at a border" means here, exactly (:func:`cuts`), for the screen as drawn:

* **the screen's edge**: a row's last column holds text (anything but a space or a line of a
  box or a rule): the text reached the edge, where the terminal cuts it;
* **a box's side**: text right against the inside of a box's side (no column of padding);
  the ``│`` of a row pair up, left side then right (what a box covers as it floats over the
  screen is not a cut: Esc uncovers it);
* **a cut mark**: a row (or the part of it inside a box) that ends in ``…`` right after a
  letter or digit, the mark :func:`noddy.client.render.fit` leaves on a cut word, unless
  the word is one of :data:`WHOLE_WORDS` (ends in ``…`` as written: "Asking the server…").

Every screen is walked in each language the client speaks (English, German, Spanish: issue
36, "screens fit in every language: German runs longer"), the language set for the walk as
the client sets it, process-wide (:func:`noddy.protocol.i18n.set_language`), and put back
to English after it.

Most screens are drawn from the messages a server sends, fed to the client (long names, a
match, a rated game, a 4-player table with players away, so that every part of every row is
there to be cut); a whole three-handed game and a replay are played on a server started in
the test, every move looked at.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from typing import Any

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.keys import Keys

from noddy.client.app import ClientApp
from noddy.client.model import LOBBY
from noddy.client.screens.people import PEOPLE
from noddy.client.screens.records import GAMES, LEADERBOARD, REPLAY
from noddy.protocol import i18n

from ..server.harness import running_server
from .test_app import play_one_move, running_client, wait_for
from .test_counting_and_coach import ANN_HAND, at_table, to_the_show
from .test_counting_and_coach import summary as counting_summary
from .test_counting_and_coach import turn as counting_turn
from .test_idle import SizedOutput, screen_text
from .test_model import PRESETS, deal_004, ev, summary
from .test_replay import _record
from .test_scrolling import press
from .test_stats_screen import STATS_MESSAGE

#: The two sizes issue 33 was played at.
SIZES = [(24, 80), (20, 60)]
#: The languages the client speaks (English, the source, first).
LANGUAGES = ["en", "de", "es"]
#: The characters of boxes and rules (and the peg board's track): never text.
LINES = set("─│┌┐└┘├┤┬┴┼━┊▏")
#: Words that end in an ellipsis as written, not because they were cut.
WHOLE_WORDS = ("server…", "connecting…", "reconnecting…", "follows…")


def cuts(rows: list[str], width: int) -> list[str]:
    """Each place on the screen where a word is cut at a border (module docstring), as
    ``"row N: why: the row"``; none on a screen that reads whole."""
    found: list[str] = []
    for y, row in enumerate(rows):
        padded = row.ljust(width)

        def say(why: str) -> None:
            found.append(f"row {y}: {why}: {row!r}")
        if padded[width - 1] not in " " and padded[width - 1] not in LINES:
            say("text reaches the screen's edge")
        sides = [x for x, char in enumerate(padded) if char == "│"]
        for left, right in zip(sides[::2], sides[1::2]):
            for x, inside in ((left, left + 1), (right, right - 1)):
                if padded[inside] != " " and padded[inside] not in LINES:
                    say(f"text against a box's side at column {x}")
        for part in padded.split("│"):
            part = part.rstrip()
            if part.endswith("…") and re.search(r"\w…$", part) and not part.endswith(WHOLE_WORDS):
                say("a word cut (…)")
    return found


def test_the_checker_sees_each_kind_of_cut() -> None:
    assert cuts([" Table 1 · noddy to 31 · rate", " fits"], 29) == [
        "row 0: text reaches the screen's edge: ' Table 1 · noddy to 31 · rate'"]
    assert cuts([" │ /invite NAME│ ", " │ /invite    │ "], 17) == [
        "row 0: text against a box's side at column 15: ' │ /invite NAME│ '"]
    assert cuts(["   cy (1500) (aw…   ", " Asking the server…", " cy (away), …"], 20) == [
        "row 0: a word cut (…): '   cy (1500) (aw…   '"]
    assert cuts(["──────────", " x │ box │"], 10) == []     # rules and a box at the edge


# == the client, fed what a server would send =============================================

@pytest.fixture(params=LANGUAGES, autouse=True)
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    """Every walk in each language: set for the walk as the client sets it, English after."""
    i18n.set_language(request.param)
    try:
        yield request.param
    finally:
        i18n.set_language(i18n.DEFAULT_LANGUAGE)


LONG = "christabel-longname"
#: The presets as a server describes them, with their long titles.
TITLED = [{**preset, "title": f"{preset['title']} (Parlett's reconstruction)"} for preset in PRESETS]
ME = "guinevere"


@pytest.fixture(params=SIZES, ids=lambda size: f"{size[1]}x{size[0]}")
def client(request: pytest.FixtureRequest) -> Iterator[ClientApp]:
    rows, columns = request.param
    with create_pipe_input() as keys:
        app = ClientApp("192.168.100.200", 3131, ME, input=keys, output=SizedOutput(rows, columns))
        app.model.connection_up()
        app.model.handle({"type": "welcome", "name": ME, "token": "t", "resumed": False,
                          "registered": False, "presets": TITLED, "levels": ["random", "greedy"]})
        app.model.session.take_outbox()
        app.sent = []  # type: ignore[attr-defined]
        app.connection.send = app.sent.append  # type: ignore[attr-defined,method-assign]
        yield app


def drawn(app: ClientApp) -> list[str]:
    screen_text(app)
    app.application.after_render.fire()
    return screen_text(app)


def assert_whole(app: ClientApp, what: str) -> list[str]:
    rows = drawn(app)
    width = app.application.output.get_size().columns
    found = cuts(rows, width)
    assert not found, f"{what} at {width} columns:\n" + "\n".join(found) + "\n\n" + "\n".join(rows)
    return rows


def seat(i: int, name: str, **more: Any) -> dict[str, Any]:
    return {"seat": i, "name": name, "kind": "human", "bot": False, "level": None, "ready": False,
            "connected": True, "guest": False, "rating": 1500 + 17 * i, **more}


TABLES = [
    {**summary("playing"), "id": 1, "players": 4, "partnerships": True, "rated": True,
     "options": {"target": 61, "match": 3}, "match": {"points": [1, 0], "to": 3, "game": 1},
     "turn_timer": 60, "spectators": ["dee", "eve"],
     "seats": [seat(0, LONG), seat(1, "cy", connected=False), seat(2, "greedy computer 3", kind="computer"),
               seat(3, "pybot", bot=True, guest=True)]},
    {**summary("waiting"), "id": 12, "preset": "cribbage", "private": True, "rated": False,
     "options": {"target": 121, "counting": "manual", "hints": True},
     "seats": [seat(0, "cy", connected=False), None]},
]


async def test_the_lobby_with_tables_an_invitation_and_people_only(client: ClientApp) -> None:
    client.model.handle({"type": "tables", "tables": TABLES})
    assert_whole(client, "the lobby")
    client.people.handle({"type": "challenged", "challenge": {
        "id": 4, "from": LONG, "from_bot": False, "to": ME, "preset": "cribbage", "table": 12,
        "options": {"target": 121}, "private": True, "expires_in": 120}})
    client.model.handle({"type": "tell", "from": LONG, "to": ME,
                         "text": "see you at table twelve in a minute or so"})
    rows = assert_whole(client, "the lobby with an invitation")
    invitation = client.people.waiting_words()
    assert invitation is not None and " ".join(invitation.split()[:4]) in " ".join(" ".join(rows).split())
    press(client, "p")
    assert_whole(client, "the lobby, people only")


async def test_the_help_on_every_page(client: ClientApp) -> None:
    for screen in ("lobby", "table"):
        if screen == "table":
            table_in_a_match(client)
        press(client, "?")
        for page in range(8):
            assert_whole(client, f"the help at the {screen}, page {page + 1}")
            press(client, Keys.PageDown)
        press(client, "x")


async def test_the_new_table_form(client: ClientApp) -> None:
    press(client, "n")
    assert client.model.new_table.form is not None
    assert_whole(client, "the new-table form")


def table_in_a_match(client: ClientApp) -> None:
    model = client.model
    model.session.send("create_table", preset="noddy", players=2, seat=0)
    created = model.session.outbox[-1]["id"]
    table = {**summary("playing"), "rated": True, "options": {"target": 31, "match": 3},
             "match": {"points": [1, 1], "to": 3, "game": 2},
             "seats": [seat(0, ME), seat(1, LONG)]}
    model.handle({"type": "table", "table": table, "id": created})
    deal_004(model)
    model.handle(ev(9, "deal_ended", deal=14, scores=[11, 4]))
    model.game.view.deal = 14


async def test_a_table_in_a_rated_match(client: ClientApp) -> None:
    table_in_a_match(client)
    rows = assert_whole(client, "a table in a match")
    assert rows[0].startswith(" ")
    client.model.session.set_status(i18n._("{name} accepted your invitation to table {table}.").format(
        name=LONG, table=1))
    assert_whole(client, "a table with news")
    press(client, "q")
    assert_whole(client, "the quit question")


async def test_a_show_counted_by_hand(client: ClientApp, language: str) -> None:
    """Seen in tmux at 60x20 (issue 33's last evening): the show being counted by hand, four
    cards and the turn-up, read ``cy's crib with the tur`` at the screen's edge.  Here Ann's
    hand, then the crib of a long-named dealer, as Ann may call muggins on it."""
    model = at_table(model=client.model)
    to_the_show(model)
    rows = assert_whole(client, "Ann's hand counted by hand")
    assert language != "en" or any("Your hand" in row for row in rows)  # (the counting's words)
    # (seat 2's name made long; the dealer line keeps the name that dealt: Ben)
    long_name = {"seat": 1, "name": LONG, "kind": "human", "level": None, "ready": True, "connected": True}
    model.handle({"type": "table", "table": {**counting_summary(), "seats": [
        counting_summary()["seats"][0], long_name]}})
    model.handle(ev(10, "claimed", seat=0, reason="show", cards=ANN_HAND, points=16))
    model.handle(ev(11, "counting", seat=1, reason="crib", cards=["KH", "QH", "2C", "3C"]))
    model.handle(ev(12, "claimed", seat=1, reason="crib", cards=["KH", "QH", "2C", "3C"], points=0))
    model.handle(counting_turn(12, 0, [{"action": "muggins", "min": 1, "max": 29}, {"action": "pass"}]))
    rows = assert_whole(client, "a long-named dealer's crib, muggins open")
    assert language != "en" or any("crib" in row for row in rows)


GAME = {"id": 118, "preset": "cribbage", "players": 2, "partnerships": False, "finished_at": 1.7e9,
        "seats": [{"seat": 0, "name": ME}, {"seat": 1, "name": "greedy computer 2"}],
        "result": {"winner": 1, "scores": [97, 121], "ending": "resignation", "skunk": "skunk"},
        "match": {"points": [1, 2], "winner": 1}}


async def test_my_games(client: ClientApp) -> None:
    press(client, "m")
    asked = client.sent[-1]  # type: ignore[attr-defined]
    assert client.model.session.screen == GAMES
    client.records.handle({"type": "games", "id": asked["id"], "games": [
        GAME, {**GAME, "id": 7, "seats": [{"seat": 0, "name": ME}, {"seat": 1, "name": LONG}],
               "result": {"winner": 0, "scores": [9, 8], "ending": "abandoned", "skunk": "double"}}]})
    assert_whole(client, "My games")


async def test_the_leaderboard_and_the_statistics(client: ClientApp) -> None:
    press(client, "b")
    asked = client.sent[-1]  # type: ignore[attr-defined]
    assert client.model.session.screen == LEADERBOARD
    client.records.handle({"type": "leaderboard", "id": asked["id"], "family": "noddy", "players": [],
                           "unrated": {"games": 3, "reasons": {"guest": 2, "coach": 1}}})
    assert_whole(client, "an empty leaderboard")
    press(client, Keys.Tab)
    asked = client.sent[-1]  # type: ignore[attr-defined]
    client.records.handle({"type": "leaderboard", "id": asked["id"], "family": "cribbage", "players": [
        {"rank": 1, "kind": "computer", "name": "greedy", "rating": 1531, "games": 3, "wins": 2, "guest": False},
        {"rank": 2, "kind": "human", "name": LONG + "-and-more", "rating": 1516, "games": 1, "wins": 1,
         "guest": False}]})
    assert_whole(client, "the leaderboard")
    press(client, Keys.Escape)
    press(client, "i")
    asked = client.sent[-1]  # type: ignore[attr-defined]
    client.records.handle({**STATS_MESSAGE, "name": ME, "id": asked["id"]})
    assert_whole(client, "the statistics")


async def test_who_is_on(client: ClientApp) -> None:
    press(client, "o")
    asked = client.sent[-1]  # type: ignore[attr-defined]
    assert client.model.session.screen == PEOPLE
    client.people.handle({"type": "who", "id": asked["id"], "people": [
        {"name": LONG, "bot": False, "where": "watching", "table": 12, "seat": None, "away": False,
         "idle": 3600, "seeking": {"preset": "five-card-cribbage"}},
        {"name": "pybot", "bot": True, "where": "seated", "table": 3, "seat": 1, "away": True,
         "idle": 0, "seeking": None}]})
    client.people.handle({"type": "challenged", "challenge": {
        "id": 5, "from": "pybot", "from_bot": True, "to": ME, "preset": "five-card-cribbage",
        "table": None, "options": {"target": 61, "counting": "manual"}, "expires_in": 120}})
    assert_whole(client, "who is on, with a challenge")
    press(client, Keys.Escape)
    assert client.model.session.screen == LOBBY
    assert_whole(client, "the lobby with a challenge")


async def test_the_club_nights(client: ClientApp) -> None:
    """The list of club nights, one opened (its director's keys, standings and boards), and
    the form that announces one (issue 35's screens: long titles, German's longer words)."""
    from .test_events import EVENT_VIEW, SUMMARIES  # (that module takes SIZES from this one)
    from .test_events import reply as reply_to_last
    press(client, "e")
    reply_to_last(client, {"type": "club_events", "events": SUMMARIES})
    assert_whole(client, "the club nights")
    press(client, Keys.ControlM)
    reply_to_last(client, {"type": "club_event", "event": {**EVENT_VIEW, "director": ME}})
    assert_whole(client, "a club night, directed")
    press(client, Keys.Escape)
    reply_to_last(client, {"type": "club_events", "events": SUMMARIES})
    press(client, "n")
    assert client.events.announce.form is not None
    assert_whole(client, "the announce form")
    for _ in range(4):
        press(client, Keys.Down)
    assert_whole(client, "the announce form, on its fifth line")


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    """A whole game of Cribbage with three players, as the server stores it."""
    return asyncio.run(_record("cribbage", 3))


async def test_the_replay_of_a_game(client: ClientApp, record: dict[str, Any]) -> None:
    press(client, "m")
    asked = client.sent[-1]  # type: ignore[attr-defined]
    client.records.handle({"type": "games", "id": asked["id"], "games": [{**GAME, "id": record["id"]}]})
    press(client, Keys.ControlM)
    asked = client.sent[-1]  # type: ignore[attr-defined]
    assert asked["type"] == "get_game"
    client.records.handle({"type": "game_record", "id": asked["id"], "record": record})
    assert client.model.session.screen == REPLAY
    for step in range(12):
        assert_whole(client, f"the replay, step {step}")
        press(client, Keys.Right if step < 6 else Keys.Down)
    press(client, Keys.End)
    assert_whole(client, "the replay's end")


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[1]}x{size[0]}")
async def test_a_whole_game_against_a_computer_every_move(size: tuple[int, int]) -> None:
    """Every screen of a real game (each turn, the count of each deal, the end), three
    handed so that the count has the most rows, on a server started here."""
    async with running_server(default_level="greedy") as server:
        async with running_client(server.port, name=LONG, output=SizedOutput(*size), quick_start={
                "preset": "cribbage", "players": 3, "computers": 2, "options": {"target": 61}}) as (app, keys):
            model = app.model
            await wait_for(lambda: model.game.in_game, "the game to start")
            moves = 0
            while model.game.view.winner is None:
                await wait_for(lambda: model.game.view.winner is not None or model.game.deal_count is not None
                               or (model.game.can_act and not model.game.sending_action), "my turn")
                assert_whole(app, f"move {moves}")
                if model.game.view.winner is not None:
                    break
                before = model.game.view.seq, len(model.game.hand), model.game.deal_count
                await play_one_move(model, keys)
                await wait_for(lambda: (model.game.view.seq, len(model.game.hand), model.game.deal_count) != before
                               or model.game.view.winner is not None, "the move")
                moves += 1
            assert_whole(app, "the game's end")
