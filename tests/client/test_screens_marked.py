"""Every word the client's screens show comes through a catalog (issue 36: "a test fails when a
string a person reads is not in the catalogs").

The walk is the no-cut-words walk's (:mod:`tests.client.test_no_cut_words`): the same screens
fed the same messages, at 80x24, but drawn in the made-up language of
:func:`tests.pseudo_language.pseudo_language`, where every marked string is said in ``⟪ ⟫``.
Whatever is left outside the brackets (:func:`tests.pseudo_language.unmarked_words`) is text
no catalog holds, unless it is data the screen was given: names people chose, the presets'
names and titles, the options' names and values as the server sends them, the keys' names
printed on a keyboard.

One screen is not read whole as drawn, :data:`READ_ELSEWHERE`: the help box, whose two
columns interleave wrapped lines (a bracket opens in one column and closes rows later, beside
other text); its words are checked where they are declared instead
(:func:`test_every_key_help_label_and_screen_title_is_marked`).

Pinned beside it: a few exact German and Spanish lines of the lobby and the records screens.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from prompt_toolkit.input import create_pipe_input

from noddy.client.app import ClientApp
from noddy.client.screens.lobby import Lobby
from noddy.client.model import ViewModel
from noddy.client.screens.records import RecordsView, game_line, leaderboard_fragments
from noddy.client.session import Session
from noddy.protocol import i18n

from noddy.protocol.stats_view import NO_RATING, rating_summary

from ..pseudo_language import pseudo_language, unmarked_words
from . import test_no_cut_words as walk
from .test_idle import SizedOutput
from .test_model import PRESETS
from .test_stats_screen import STATS_MESSAGE

#: The parts of the walk's screens that another helper's part still draws unmarked, by the
#: name the walk gives the screen (its beginning), each with whose they are: the lead empties
#: this once every branch of issue 36 has landed, and every screen is then checked whole.
#: A part is ``"title"`` (the title bar, the first row), ``"keys"`` (the key hints, the last
#: row), ``"log"`` (the rows under the replay's last rule: the shared narration),
#: ``"rating"`` (the statistics' rating lines) or ``"all"``.
READ_ELSEWHERE: dict[str, tuple[set[str], str]] = {
    "the help": ({"all"}, "client/keys.py: two columns of wrapped lines; checked by declaration"),
}

#: Data the walk gives the screens (names, presets, options as the server sends them), and
#: the names of keys as a keyboard prints them.
GIVEN = {walk.ME, walk.LONG, walk.LONG + "-and", "Me", "cy", "dee", "eve", "pybot", "greedy", "computer", "cpu", "christabel",
         "longname", "and", "more", "Noddy", "Parlett's", "reconstruction", "noddy", "cribbage",
         "five-card-cribbage", "target", "counting", "manual", "hints", "match", "random",
         "Esc", "Tab", "Enter", "PgUp", "PgDn", "Home", "End"}
GIVEN |= {"Tuesday", "club", "The", "Friday", "night", "invitational", "ann", "ben", "greedy-bot"}
GIVEN |= {word for preset in PRESETS for word in str(preset.get("title", "")).replace("(", " ").split()}


def others_parts(what: str) -> set[str]:
    """The parts of a screen of the walk still owned by others (none: it is checked whole)."""
    for name, (parts, _whose) in READ_ELSEWHERE.items():
        if what.startswith(name):
            return parts
    return set()


def rows_to_check(rows: list[str], parts: set[str]) -> list[str]:
    """``rows`` less the parts checked elsewhere (:data:`READ_ELSEWHERE`)."""
    if "all" in parts:
        return []
    kept = list(rows)
    if "log" in parts:
        rules = [i for i, row in enumerate(kept) if row.strip() and set(row.strip()) == {"─"}]
        kept = kept[:rules[-1]] if rules else kept
    elif "keys" in parts:
        kept = kept[:-1]
    if "title" in parts:
        kept = kept[1:]
    if "rating" in parts:
        said = [rating_summary(history) for history in STATS_MESSAGE.get("ratings") or []]
        kept = [row for row in kept if not any(line[:20] in row for line in said + [NO_RATING])]
    return kept


WALKS = [name for name, fn in inspect.getmembers(walk, inspect.iscoroutinefunction)
         if name.startswith("test_") and "client" in inspect.signature(fn).parameters
         and "whole_game" not in name]


@pytest.fixture
def drawn_screens(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, list[str]]]]:
    """The walk's screens as drawn (what, rows), in the pseudo language."""
    seen: list[tuple[str, list[str]]] = []

    def record(app: ClientApp, what: str) -> list[str]:
        rows = walk.drawn(app)
        seen.append((what, rows))
        return rows
    monkeypatch.setattr(walk, "assert_whole", record)
    with pseudo_language() as qq:
        i18n.set_language(qq)
        try:
            yield seen
        finally:
            i18n.set_language(i18n.DEFAULT_LANGUAGE)


def a_client() -> Iterator[ClientApp]:
    """The walk's client (:func:`tests.client.test_no_cut_words.client`) at 80x24."""
    with create_pipe_input() as keys:
        app = ClientApp("192.168.100.200", 3131, walk.ME, input=keys, output=SizedOutput(24, 80))
        app.model.connection_up()
        app.model.handle({"type": "welcome", "name": walk.ME, "token": "t", "resumed": False,
                          "registered": False, "presets": walk.TITLED, "levels": ["random", "greedy"]})
        app.model.session.take_outbox()
        app.sent = []  # type: ignore[attr-defined]
        app.connection.send = app.sent.append  # type: ignore[attr-defined,method-assign]
        yield app


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return asyncio.run(walk._record("cribbage", 3))


@pytest.mark.parametrize("name", WALKS)
async def test_every_word_of_the_screens_is_marked(name: str, drawn_screens: list[tuple[str, list[str]]],
                                                   record: dict[str, Any]) -> None:
    fn: Callable[..., Any] = getattr(walk, name)
    for app in a_client():
        wanted = inspect.signature(fn).parameters
        await fn(**{"client": app, **({"record": record} if "record" in wanted else {}),
                    **({"language": i18n.current_language()} if "language" in wanted else {})})
    assert drawn_screens, f"{name} drew no screen"
    for what, rows in drawn_screens:
        mine = rows_to_check(rows, others_parts(what))
        left = unmarked_words("\n".join(mine), allowed=GIVEN)
        assert left == [], f"{what}: words no catalog holds: {left}\n\n" + "\n".join(rows)


def test_the_screens_read_elsewhere_are_named() -> None:
    """Every name in :data:`READ_ELSEWHERE` is one the walk gives a screen (a renamed screen
    would otherwise be skipped for good)."""
    source = inspect.getsource(walk)
    for name in READ_ELSEWHERE:
        assert f'"{name}' in source, name


def test_every_key_help_label_and_screen_title_is_marked() -> None:
    """What the help box says, as declared: each screen's title and each key's help line is a
    marked string, and so is each label but the names printed on keys (Esc, 1-6, ↑ ↓)."""
    from noddy.client.keys import SCREENS
    from noddy.protocol.make_catalogs import marked
    known = {msgid for _context, msgid in marked()}
    unmarked = []
    for screen in SCREENS:
        unmarked += [screen.title] if screen.title not in known else []
        for key in screen.declared_keys():
            unmarked += [key.help] if key.help and key.help not in known else []
            words = unmarked_words(key.label, allowed=GIVEN | {"Ctrl-Q", "Space", "Backspace"})
            unmarked += [key.label] if words and key.label not in known else []
    assert unmarked == []


# == German and Spanish, pinned ==============================================================

TABLE = {"id": 12, "preset": "cribbage", "players": 2, "partnerships": False, "status": "waiting",
         "private": True, "rated": True, "options": {"target": 121},
         "seats": [{"name": "ann", "rating": 1516, "connected": False}, None]}
GAME = {"id": 7, "preset": "cribbage", "players": 2, "finished_at": None,
        "seats": [{"seat": 0, "name": "ann"}, {"seat": 1, "name": "ben"}],
        "result": {"winner": 0, "scores": [121, 88], "ending": "resignation", "skunk": "skunk"},
        "match": {"points": [2, 1], "winner": 0}}


@pytest.fixture(params=["de", "es"])
def spoken(request: pytest.FixtureRequest) -> Iterator[str]:
    i18n.set_language(request.param)
    try:
        yield request.param
    finally:
        i18n.set_language(i18n.DEFAULT_LANGUAGE)


LOBBY_ROW = {
    "de": "#12  cribbage           2p       wartet    ·frei·, ann (1516) (weg)  [bis 121; privat; gewertet]",
    "es": "#12  cribbage           2p       espera    ·libre·, ann (1516) (ausente)  [a 121; privada; puntuable]",
}
GAMES_ROW = {
    "de": "#7   cribbage   2p  ?  gew.  ann 121, ben 88 (aufgegeben), Schneider · Match 2-1 gewonnen",
    "es": "#7   cribbage   2p  ?  gan.  ann 121, ben 88 (por abandono), zapatero · match 2-1 ganado",
}
STATUS = {
    "de": "Tisch 12 hat keinen freien Platz; w sieht zu.",
    "es": "La mesa 12 no tiene asiento libre; w para mirar.",
}


def test_a_lobby_row_and_a_refusal(spoken: str) -> None:
    session = Session("ann")
    lobby = Lobby(session)
    lobby.tables = {12: {**TABLE, "seats": [None, {"name": "ann", "rating": 1516, "connected": False}]}}
    assert lobby.table_line(lobby.tables[12]) == LOBBY_ROW[spoken]
    lobby.tables = {12: {**TABLE, "seats": [{"name": "ann"}, {"name": "ben"}]}}
    lobby.sit()
    assert session.status == STATUS[spoken]


def test_a_row_of_my_games(spoken: str) -> None:
    assert game_line(GAME, "ann") == GAMES_ROW[spoken]


def test_the_leaderboards_head(spoken: str) -> None:
    view = RecordsView(ViewModel("ann"))
    view.family, view.board = "noddy", []
    said = {"de": " Rangliste · noddy", "es": " Clasificación · noddy"}[spoken]
    why = {"de": "   Noch niemand hat eine gewertete noddy-Partie gespielt.\n",
           "es": "   Nadie ha jugado aún una partida puntuable de noddy.\n"}[spoken]
    assert leaderboard_fragments(view)[0] == ("class:label", said)
    assert leaderboard_fragments(view)[2] == ("class:dim", why)


def test_the_round_pause_keys_help_says_its_step() -> None:
    """The director's + / - help is one marked string (a catalog cannot hold an f-string), so
    it writes the step out: it must say :data:`ROUND_PAUSE_STEP`."""
    from noddy.client.screens.events import ROUND_PAUSE_STEP, EventsView
    helps = [binding.help for binding in EventsView.declared_keys() if "between rounds" in binding.help]
    assert helps == [f"director: {ROUND_PAUSE_STEP} s more or less between rounds"]


def test_every_table_option_a_server_offers_has_its_words_in_the_catalogs() -> None:
    """The new-table form shows each option the server's welcome offers; one without an entry
    in OPTION_WORDS would be labelled with its English name in every language (the tmux
    evening of issue 36 found "Unlisted" and "Max spectators" so in the German form)."""
    from noddy.client.option_words import OPTION_WORDS
    from noddy.engine import PRESETS as ENGINE_PRESETS
    from noddy.server.model.table_options import advertised_options
    offered = set(advertised_options())
    for preset in ENGINE_PRESETS.values():
        offered |= set(preset.allowed_options())
    assert sorted(offered - set(OPTION_WORDS)) == []
