"""Club nights in the full-screen client (issue 35): the events list (``e`` in the lobby),
an event opened with its cross-table, joining a private one (its password asked), the
director's keys, the announce form, news on the status line, and ``event_table`` taking the
person to their board.  Keys go through prompt_toolkit's pipe input, drawn to a sized dummy
output at 80x24 and 60x20; one test plays against a real server on 127.0.0.1."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.keys import Keys

from noddy.client.app import ClientApp
from noddy.client.keys import requests_sent
from noddy.client.model import LOBBY, TABLE
from noddy.client.screens.events import EVENT, EVENTS
from noddy.client.screens.records import REPLAY

from .test_idle import SizedOutput, screen_text
from .test_no_cut_words import SIZES, assert_whole, record  # noqa: F401 (a fixture)
from .test_scrolling import press

ME = "guinevere"
PRESETS = [{"name": "noddy", "title": "Noddy", "players": [2], "options": {}},
           {"name": "cribbage", "title": "Cribbage", "players": [2, 3], "options": {}}]

SUMMARIES = [
    {"id": 1, "title": "Tuesday club", "director": "ann", "format": "swiss", "preset": "cribbage",
     "state": "running", "round": 2, "rounds": 3, "entrants": 8, "private": False, "duplicate": True,
     "rated": True, "games": 2, "starts_at": None},
    {"id": 2, "title": "The Friday night invitational round robin", "director": ME,
     "format": "round-robin", "preset": "five-card-cribbage", "state": "announced", "round": 0,
     "rounds": 7, "entrants": 3, "private": True, "duplicate": False, "rated": False, "games": 1,
     "starts_at": None},
]


def standing(rank: int, name: str, kind: str = "person", **more: Any) -> dict[str, Any]:
    row = {"rank": rank, "name": name, "kind": kind, "status": "entered", "games": 4, "wins": 4 - rank // 2,
           "skunk_wins": 1, "byes": 0, "forfeits": 0, "points": 10 - rank, "spread": 40 - 9 * rank,
           "rating": 1600.4 - 25 * rank, "low": 1400.0 - 25 * rank, "high": 1800.6 - 25 * rank,
           "against": {}}
    return row | more


ENTRANTS = ["ann", "ben", "christabel-longname", "dee", "pybot", "greedy-bot", "eve", ME]
EVENT_VIEW: dict[str, Any] = {
    **SUMMARIES[0], "options": {}, "forfeit_wait": 300, "round_pause": 60, "starts_in": None,
    "next_round_in": None, "reason": None,
    "entrants": [{"name": n, "kind": "bot" if n.endswith("bot") else "person",
                  "status": "withdrawn" if n == "eve" else "entered", "joined_round": 1} for n in ENTRANTS],
    "rounds_played": [
        {"round": 1, "bye": None, "over": True, "boards": []},
        {"round": 2, "bye": None, "over": False, "boards": [
            {"board": 1, "a": "ann", "b": "christabel-longname", "table": 7, "status": "playing",
             "forfeit": False, "forfeit_by": [], "games": [{"game": 0, "winner": "ann", "a_score": 121,
                                                           "b_score": 88, "skunk": None, "forfeit": False}]},
            {"board": 2, "a": "ben", "b": "pybot", "table": 8, "status": "seating", "forfeit": False,
             "forfeit_by": [], "games": []},
            {"board": 3, "a": "dee", "b": ME, "table": 9, "status": "playing", "forfeit": False,
             "forfeit_by": [], "games": []}]}],
    "standings": {"event": 1, "title": "Tuesday club", "state": "running", "round": 2, "rounds": 3,
                  "rated_rounds": 1, "rows": [
                      standing(1, "ann"), standing(2, "christabel-longname"), standing(3, "pybot", "bot"),
                      standing(4, "ben"), standing(5, "dee"), standing(6, ME),
                      standing(7, "greedy-bot", "bot"), standing(8, "eve", status="withdrawn")]},
}


@pytest.fixture(params=SIZES, ids=lambda size: f"{size[1]}x{size[0]}")
def client(request: pytest.FixtureRequest) -> Iterator[ClientApp]:
    rows, columns = request.param
    with create_pipe_input() as keys:
        app = ClientApp("192.168.100.200", 3131, ME, input=keys, output=SizedOutput(rows, columns))
        app.model.connection_up()
        app.model.handle({"type": "welcome", "name": ME, "token": "t", "resumed": False,
                          "registered": True, "presets": PRESETS, "levels": ["random"]})
        app.model.session.take_outbox()
        app.sent = []  # type: ignore[attr-defined]
        app.connection.send = app.sent.append  # type: ignore[attr-defined,method-assign]
        yield app


def sent(app: ClientApp) -> list[dict[str, Any]]:
    return app.sent  # type: ignore[attr-defined,no-any-return]


def reply(app: ClientApp, message: dict[str, Any]) -> None:
    """The server's answer to the client's last request."""
    app._on_message({**message, "id": sent(app)[-1]["id"]})


def open_list(app: ClientApp) -> None:
    press(app, "e")
    assert (app.model.session.screen, sent(app)[-1]["type"]) == (EVENTS, "events")
    reply(app, {"type": "club_events", "events": SUMMARIES})


def open_event(app: ClientApp, view: dict[str, Any] = EVENT_VIEW) -> None:
    open_list(app)
    if view["id"] == 2:
        press(app, Keys.Down)
    press(app, Keys.ControlM)
    assert (app.model.session.screen, sent(app)[-1]) == (EVENT, {"type": "event", "event": view["id"],
                                                                 "id": sent(app)[-1]["id"]})
    reply(app, {"type": "club_event", "event": view})


#: The events list as drawn, by width (rows 2 to 5: two lines an event).
LIST_ROWS = {
    80: [" ▶ #1  Tuesday club        running    round 2/3  8 entered",
         "      Swiss, 3 rounds · cribbage · 2 games a pairing · duplicate deals · rated",
         "   #2  The Friday night …  announced  not begun  3 entered  private",
         "      round robin · five-card-cribbage · 1 game a pairing · own deals · unrated"],
    60: [" ▶ #1  Tuesday club  running    round 2/3",
         "      Swiss, 3 rounds · cribbage · rated",
         "   #2  The Friday …  announced  not begun  private",
         "      round robin · five-card-cribbage · unrated"],
}


async def test_the_events_list(client: ClientApp) -> None:
    open_list(client)
    rows = assert_whole(client, "the events list")
    width = client.application.output.get_size().columns
    assert rows[0].startswith(" Noddy · guinevere @ 192.168.100.200:3131 · Club nights")
    assert [r.rstrip() for r in rows[2:6]] == LIST_ROWS[width]
    press(client, Keys.Down)
    assert drawn_rows(client)[4].startswith(" ▶ #2")
    press(client, Keys.Escape)
    assert client.model.session.screen == LOBBY


async def test_an_event_its_cross_table_and_boards(client: ClientApp) -> None:
    open_event(client)
    rows = assert_whole(client, "an event's standings mid-event")
    width = client.application.output.get_size().columns
    text = "\n".join(rows)
    assert "Club night 1" in rows[0]
    # Running, the duplicate deals are still said while there is room (the games a pairing go first).
    games = " · cribbage, duplicate deals" if width == 80 else " · cribbage"
    assert [r.rstrip() for r in rows[1:4]] == [" #1 Tuesday club", f" Swiss, 3 rounds{games} · running, round 2/3 · rated",
                                               " director ann"]
    assert "pybot (bot)" in text and "eve (withdrawn)" in text
    head = next(r for r in rows if r.lstrip().startswith("#  name"))
    if width == 80:
        assert head.split() == ["#", "name", "games", "wins", "skunk", "pts", "spread", "rating",
                                "interval"]
        ann = next(r for r in rows if r.lstrip().startswith("1  ann"))
        assert ann.split() == ["1", "ann", "4", "4", "1", "9", "+31", "1575", "(1375-1776)"]
    else:  # the interval and skunk wins go whole; the rating stays
        assert head.split() == ["#", "name", "games", "wins", "pts", "spread", "rating"]
        ann = next(r for r in rows if r.lstrip().startswith("1  ann"))
        assert ann.split() == ["1", "ann", "4", "4", "9", "+31", "1575"]
    assert "Round 2" in text
    status = "  playing" if width == 80 else ""  # (the board's state goes whole at 60)
    assert f" ▶ board 1:  ann v christabel-longname  1-0  table 7{status}" in rows
    press(client, Keys.Down, Keys.ControlM)
    assert sent(client)[-1]["type"] == "spectate" and sent(client)[-1]["table"] == 8
    reply(client, {"type": "table", "table": {"id": 8, "preset": "cribbage", "players": 2, "status": "waiting",
                                              "seats": [None, None], "event": {"id": 1, "round": 2, "board": 2}}})
    assert (client.model.session.screen, client.model.game.table_id) == (TABLE, 8)


async def test_joining_a_private_event_asks_its_password(client: ClientApp) -> None:
    private = {**EVENT_VIEW, **SUMMARIES[1], "entrants": [], "rounds_played": [],
               "standings": {"rows": []}}
    open_event(client, private)
    assert_whole(client, "an announced private event")
    press(client, "j")
    prompt = client.model.lobby.password_prompt
    assert prompt is not None and (prompt.verb, prompt.table) == ("join_event", 2)
    assert [s for s in sent(client) if s["type"] == "join_event"] == []
    assert "Password to join club night 2" in "\n".join(drawn_rows(client))
    client.model.lobby.submit_password("sesame")
    client._flush()
    assert {k: sent(client)[-1][k] for k in ("type", "event", "password")} == {
        "type": "join_event", "event": 2, "password": "sesame"}
    reply(client, {"type": "error", "code": "bad_password", "message": "wrong password"})
    again = client.model.lobby.password_prompt
    assert again is not None and (again.verb, again.table, again.retry) == ("join_event", 2, True)
    assert client.model.session.status == "Wrong password for club night 2: type it again, or Esc."


def drawn_rows(app: ClientApp) -> list[str]:
    return screen_text(app)


async def test_the_directors_keys_send_direct_event(client: ClientApp) -> None:
    mine = {**EVENT_VIEW, "director": ME}
    open_event(client, mine)
    assert_whole(client, "the director's view")
    before = len(sent(client))
    press(client, "s")
    press(client, "p")
    press(client, "+")
    press(client, "-")
    press(client, Keys.Right, "x")
    assert client.question == " Remove ben from the event?  y / n "
    press(client, "y")
    press(client, "E", "y")
    directs = [{k: v for k, v in s.items() if k != "id"} for s in sent(client)[before:]
               if s["type"] == "direct_event"]
    assert directs == [
        {"type": "direct_event", "event": 1, "command": "start"},
        {"type": "direct_event", "event": 1, "command": "pause"},
        {"type": "direct_event", "event": 1, "command": "round_pause", "seconds": 90},
        {"type": "direct_event", "event": 1, "command": "round_pause", "seconds": 30},
        {"type": "direct_event", "event": 1, "command": "remove", "name": "ben"},
        {"type": "direct_event", "event": 1, "command": "end"}]
    client.events.event = {**mine, "state": "paused"}
    press(client, "p")
    assert sent(client)[-1]["command"] == "resume"


async def test_not_the_director_has_no_directors_keys(client: ClientApp) -> None:
    open_event(client)
    before = len(sent(client))
    press(client, "s", "p", "x", "+")
    assert sent(client)[before:] == []


async def test_announcing_through_the_form(client: ClientApp) -> None:
    open_list(client)
    press(client, "n")
    assert client.events.announce.form is not None
    for ch in "Club night 1":
        press(client, ch)
    assert_whole(client, "the announce form")
    press(client, Keys.Down, Keys.Right)             # format: round robin
    press(client, Keys.Down, Keys.Down, Keys.Down, Keys.Left)  # games: 1
    press(client, Keys.Down, Keys.Down, Keys.Right)  # start in 15 minutes
    press(client, Keys.Down, "q")                    # (q types nothing on a choice, quits nothing)
    assert client.confirm_quit is False
    press(client, Keys.Down)
    for ch in "pw":
        press(client, ch)
    press(client, Keys.ControlM)
    request = {k: v for k, v in sent(client)[-1].items() if k != "id"}
    assert request == {"type": "announce_event", "title": "Club night 1", "format": "round-robin",
                       "preset": "cribbage", "games": 1, "duplicate": True, "rated": False,
                       "starts_in": 900, "password": "pw"}
    reply(client, {"type": "club_event", "event": {**EVENT_VIEW, "id": 3, "title": "Club night 1"}})
    assert (client.model.session.screen, client.events.event_id) == (EVENT, 3)
    assert sent(client)[-1]["type"] == "event"


async def test_news_on_the_status_line_and_the_log_and_the_screen_refreshes(client: ClientApp) -> None:
    open_event(client)
    asked = len(sent(client))
    client._on_message({"type": "event_news", "event": 1, "kind": "round", "text": "round 3: board 1: ann v ben",
                        "names": ["ann", "ben"]})
    assert client.model.session.status == "round 3: board 1: ann v ben"
    assert client.model.lobby.lobby_chat[-1].text == "[club night 1] round 3: board 1: ann v ben"
    assert [{k: v for k, v in s.items() if k != "id"} for s in sent(client)[asked:]] == [
        {"type": "event", "event": 1}]
    assert_whole(client, "an event with news")


async def test_event_table_takes_the_person_to_their_board(client: ClientApp) -> None:
    open_list(client)
    client._on_message({"type": "event_table", "event": 1, "round": 2, "board": 3, "table": 9, "seat": 1,
                        "opponent": "dee", "games": 2})
    said = "Club night 1, round 2, board 3: your table is 9, seat 2, against dee (2 games)."
    assert client.model.session.status == said
    client._on_message({"type": "table", "seat": 1, "table": {
        "id": 9, "preset": "cribbage", "players": 2, "status": "waiting", "event": {"id": 1, "round": 2, "board": 3},
        "seats": [{"seat": 0, "name": "dee", "kind": "human", "bot": False, "ready": True},
                  {"seat": 1, "name": ME, "kind": "human", "bot": False, "ready": True}]}})
    assert (client.model.session.screen, client.model.game.table_id, client.model.game.seat) == (TABLE, 9, 1)
    assert client.model.session.status == said
    assert_whole(client, "the board's table")


def test_the_help_lists_the_club_nights_keys() -> None:
    from noddy.client.keys import HELP_TEXT, help_text
    assert any(line.startswith("  e         club nights (Enter opens") for line in HELP_TEXT.splitlines())
    narrow = help_text(60)
    for line in ("  e         club nights (Enter opens one)", "  j         join the event (a private one asks its", "  E         director: end it early (asks first)",
                 "  n         announce a club night (a form)", " In the announce form"):
        assert line in narrow.splitlines(), line


def test_every_club_request_has_its_key() -> None:
    sent_by = requests_sent()
    assert {k: sent_by[k] for k in ("events", "event", "join_event", "withdraw_event", "direct_event",
                                    "announce_event")} == {
        "events": "Club nights: e", "event": "Club nights: Enter", "join_event": "Club nights: j",
        "withdraw_event": "Club nights: w", "direct_event": "Club nights: s",
        "announce_event": "In the announce form: Enter"}


async def test_a_watcher_follows_the_boards_opening_and_closing(client: ClientApp) -> None:
    """Not an entrant, no news: a board's table opening or closing asks again."""
    open_event(client)
    asked = len(sent(client))
    board_table = {"id": 8, "preset": "cribbage", "players": 2, "status": "playing", "seats": [None, None],
                   "event": {"id": 1, "round": 2, "board": 2}}
    client._on_message({"type": "table", "table": board_table})          # a board already shown
    client._on_message({"type": "table", "table": {**board_table, "id": 5, "event": None}})
    assert sent(client)[asked:] == []
    client._on_message({"type": "table_closed", "table": 8, "reason": "event_board"})
    client._on_message({"type": "table", "table": {**board_table, "id": 11,
                                                   "event": {"id": 1, "round": 3, "board": 1}}})
    assert [{k: v for k, v in s.items() if k != "id"} for s in sent(client)[asked:]] == [
        {"type": "event", "event": 1}, {"type": "event", "event": 1}]


async def test_enter_on_a_finished_board_opens_the_replay_of_its_first_game(
        client: ClientApp, record: dict[str, Any]) -> None:
    """A board still playing is watched; one over (its table closed) replays its first game
    played, by the id the event gives it, and Esc goes back to the event."""
    done = {"board": 4, "a": "eve", "b": "pybot", "table": 10, "status": "done", "forfeit": None,
            "forfeit_by": [], "games": [
                {"game": 0, "id": None, "winner": "eve", "a_score": 0, "b_score": 0, "skunk": "none",
                 "forfeit": "no_show"},
                {"game": 1, "id": record["id"], "winner": "pybot", "a_score": 90, "b_score": 121,
                 "skunk": "none", "forfeit": None}]}
    view = {**EVENT_VIEW, "rounds_played": [EVENT_VIEW["rounds_played"][0], {
        **EVENT_VIEW["rounds_played"][1], "boards": [*EVENT_VIEW["rounds_played"][1]["boards"], done]}]}
    open_event(client, view)
    press(client, Keys.Down, Keys.Down, Keys.Down, Keys.ControlM)
    assert sent(client)[-1] == {"type": "get_game", "game": record["id"], "id": sent(client)[-1]["id"]}
    reply(client, {"type": "game_record", "record": record})
    assert client.model.session.screen == REPLAY
    press(client, Keys.Escape)
    assert client.model.session.screen == EVENT
