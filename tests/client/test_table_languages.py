"""The table screen, counting by hand and the coach in German and Spanish (issue 36).

The client is fed the messages a server sends Ann at a cribbage table counted by hand with
the coach (tests/client/test_counting_and_coach.py's table), in each language and at the
two sizes issue 33 was played at, 80x24 and 60x20: the prompt line and the key line say
exactly what a German or Spanish player reads, no line is wider than the screen, and no
word is cut at a border (test_no_cut_words.py's :func:`cuts`).  Then the same screens, and
the ones before and after a game, are drawn in a made-up language (tests/pseudo_language.py)
to show that every word they say of their own comes through a catalog; the game's
narration lines (the log, a show's announcement) are another part's, left out here.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from prompt_toolkit.input import create_pipe_input

from noddy.client.app import ClientApp
from noddy.client.model import ViewModel
from noddy.client.render import (
    board_fragments,
    count_fragments,
    hand_or_show_fragments,
    keys_fragments,
    panel_fragments,
    plain,
    status_fragments,
    title_fragments,
)
from noddy.client.screens.coach import note_line
from noddy.client.screens.table_layout import log_rule_fragments, table_fragments, waiting_fragments
from noddy.protocol import i18n

from ..pseudo_language import pseudo_language, unmarked_words
from .test_counting_and_coach import ANN_HAND, BEN_HAND, HINT, at_table, reply, to_the_show, turn
from .test_idle import SizedOutput
from .test_model import ev
from .test_no_cut_words import ME, cuts, drawn
from .test_stand_in_names import ben_left_mid_deal, board_labels

#: The two sizes issue 33 was played at (rows, columns).
SIZES = [(24, 80), (20, 60)]
BEN_CRIB = ["KH", "QH", "2C", "3C"]


@pytest.fixture
def speaking() -> Iterator[Any]:
    """Set the client's language for one test (the client's is process-wide), then English."""
    def speak(language: str) -> None:
        i18n.set_language(language)
    try:
        yield speak
    finally:
        i18n.set_language(i18n.DEFAULT_LANGUAGE)


@contextmanager
def client(size: tuple[int, int], name: str = "Ann") -> Iterator[ClientApp]:
    """The whole client on a terminal of ``size`` (rows, columns), fed by hand."""
    rows, columns = size
    with create_pipe_input() as keys:
        yield ClientApp("127.0.0.1", 3131, name, input=keys, output=SizedOutput(rows, columns))


def assert_fits(app: ClientApp, what: str) -> None:
    """No line wider than the screen (the prompt as wrapped, the key line) and no word cut."""
    model, width = app.model, app.application.output.get_size().columns
    for line in plain(status_fragments(model, width)).splitlines() + [plain(keys_fragments(model, width))]:
        assert len(line) <= width, f"{what}: wider than {width}: {line!r}"
    rows = drawn(app)
    found = cuts(rows, width)
    assert not found, f"{what} at {width} columns:\n" + "\n".join(found) + "\n\n" + "\n".join(rows)


def muggins_open(model: ViewModel) -> None:
    """Ann has claimed her 16; Ben claims 0 for his crib, and Ann may call muggins."""
    model.handle(ev(10, "claimed", seat=0, reason="show", cards=ANN_HAND, points=16))
    model.handle(ev(11, "counting", seat=1, reason="crib", cards=BEN_CRIB))
    model.handle(ev(12, "claimed", seat=1, reason="crib", cards=BEN_CRIB, points=0))
    model.handle(turn(12, 0, [{"action": "muggins", "min": 1, "max": 29}, {"action": "pass"}]))


# == what a German or Spanish player reads, exactly ==========================================

#: (language, columns) -> the prompt and key lines of: the discard, the coach's box (its
#: title, its heading), the claim, the muggins call.
EXPECTED: dict[tuple[str, int], dict[str, Any]] = {
    ("de", 80): {
        "discard": ("Leg 2 in die Krippe von Ben (0/2): Tasten 1-6 oder ←→ Leertaste, dann Enter.",
                    " 1-6 Karte  h Tipp  l aufgeben  PgUp Verlauf  c Chat  ? Hilfe  q beenden "),
        "claim": ("Zähle deine Hand mit der Startkarte und sag die Punkte an (eine zu hohe Ansage "
                  "wird abgelehnt, eine zweite zählt 0): tippe sie und Enter.  Ansage: ▏",
                  " 0-9 Punkte  PgUp Verlauf  c Chat  ? Hilfe "),
        "muggins": ("Ben sagt 0 für die Krippe an.  Muggins? Tippe, was sie bringt, und Enter, "
                    "oder p zum Passen.  Muggins: ▏",
                    " 0-9 Punkte  p passen  PgUp Verlauf  c Chat  ? Hilfe "),
    },
    ("de", 60): {
        "discard": ("Leg 2 in die Krippe von Ben (0/2): Tasten 1-6 oder ←→ Leertaste, dann Enter.",
                    " 1-6 Karte  h Tipp  l aufgeben  c Chat  ? Hilfe  q beenden "),
    },
    ("es", 80): {
        "discard": ("Descarta 2 a la cuna de Ben (0/2): teclas 1-6 o ←→ Espacio, luego Enter.",
                    " 1-6 carta  h consejo  l abandonar  PgUp registro  c chat  ? ayuda  q salir "),
        "claim": ("Cuenta tu mano con la carta de arranque y canta los puntos (un canto demasiado "
                  "alto se rechaza, un segundo cuenta 0): escríbelos y Enter.  Canto: ▏",
                  " 0-9 puntos  PgUp registro  c chat  ? ayuda "),
        "muggins": ("Ben canta 0 por la cuna.  ¿Muggins? Escribe lo que vale y Enter, o p para "
                    "pasar.  Muggins: ▏",
                    " 0-9 puntos  p pasar  PgUp registro  c chat  ? ayuda "),
    },
    ("es", 60): {
        "discard": ("Descarta 2 a la cuna de Ben (0/2): teclas 1-6 o ←→ Espacio, luego Enter.",
                    " 1-6 carta  h consejo  l abandonar  ? ayuda  q salir "),
    },
}
for (_language, _columns), _lines in EXPECTED.items():
    if _columns == 60:  # (the claim and muggins key lines fit 60 columns whole, as at 80)
        _lines.update({k: v for k, v in EXPECTED[(_language, 80)].items() if k != "discard"})
#: The coach's box (its title and its heading) and the key line under it, at either size.
COACH = {
    "de": ([" Der Trainer · was ablegen, das Beste zuerst",
            "     ablegen   behalten          Hand Krippe  Summe",
            "  1  K♥ Q♥     5♥ 5♠ J♦ 4♣       12.5   -4.6    7.9"],
           " jede Taste schließt das Fenster  Ctrl-Q beenden "),
    "es": ([" El entrenador · qué descartar, lo mejor primero",
            "     descartar guardar           mano   cuna  total",
            "  1  K♥ Q♥     5♥ 5♠ J♦ 4♣       12.5   -4.6    7.9"],
           " cualquier tecla cierra el cuadro  Ctrl-Q salir "),
}


#: The count of the deal's heading, one row at either size.
COUNT_HEADING = {"de": " Zählung, Runde 1 · Startkarte 6♣  — Taste: weiter —",
                 "es": " Recuento, mano 1 · arranque 6♣  — pulsa una tecla —"}


@pytest.mark.parametrize("language", ["de", "es"])
@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[1]}x{size[0]}")
def test_the_table_counting_by_hand_and_the_coach_read_whole_in_each_language(
        language: str, size: tuple[int, int], speaking: Any) -> None:
    speaking(language)
    expected = EXPECTED[(language, size[1])]
    with client(size) as app:
        model = at_table(model=app.model)
        assert (model.prompt(), plain(keys_fragments(model, size[1]))) == expected["discard"]
        assert_fits(app, "the discard")

        model.coach.ask_hint()
        model.session.take_outbox()
        reply(model, **HINT)
        box, keys = COACH[language]
        assert [row.rstrip() for row in plain(panel_fragments(model)).splitlines()[:3]] == box
        assert plain(keys_fragments(model, size[1])) == keys
        assert_fits(app, "the coach's box")
        model.coach.close_panel()

        to_the_show(model)
        assert (model.prompt(), plain(keys_fragments(model, size[1]))) == expected["claim"]
        assert_fits(app, "Ann's hand counted by hand")

        muggins_open(model)
        assert (model.prompt(), plain(keys_fragments(model, size[1]))) == expected["muggins"]
        assert_fits(app, "Ben's crib, muggins open")

        model.handle(ev(13, "hands_revealed", hands=[ANN_HAND, BEN_HAND], crib=BEN_CRIB))
        assert plain(count_fragments(model, size[1])).splitlines()[0] == COUNT_HEADING[language]
        assert_fits(app, "the count of the deal")


#: How the peg board says that a computer stands in for ben, by language and columns: the
#: longest form that fits the label's room (test_stand_in_names.py has the English).
STAND_IN = {("de", 80): "ben (greedy cpu 2 vertritt)", ("de", 60): "ben (Computer vertritt)",
            ("es", 80): "ben (greedy cpu 2 de suplente)", ("es", 60): "ben (suplente)"}


@pytest.mark.parametrize("language", ["de", "es"])
@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[1]}x{size[0]}")
def test_the_peg_board_says_a_stand_in_in_each_language(language: str, size: tuple[int, int],
                                                        speaking: Any) -> None:
    speaking(language)
    with client(size, ME) as app:
        app.model.connection_up()
        app.model.handle({"type": "welcome", "name": ME, "token": "t", "resumed": False,
                          "presets": [], "levels": ["greedy"]})
        app.connection.send = lambda message: None  # type: ignore[method-assign]
        ben_left_mid_deal(app)
        assert board_labels(app) == [ME, STAND_IN[(language, size[1])]]
        assert_fits(app, "the table with a stand-in")


def test_a_players_news_and_the_coachs_notes_are_said_in_german(speaking: Any) -> None:
    """Lines the client writes in the log itself (not the narration's), and a review note
    whose cards a translation puts where its language says them."""
    speaking("de")
    model = at_table()
    model.handle({"type": "player_away", "table": 1, "seat": 1, "name": "Ben", "grace": 60})
    model.handle({"type": "seat_silent", "table": 1, "seat": 1, "name": "Ben", "silent": 30})
    assert [line.text for line in model.game.log[-2:]] == [
        "Ben hat die Verbindung verloren; der Platz wird 60 s gehalten.",
        "Ben hat am Zug 30 s nichts gesagt (w: ein Computer spielt für Ben, bis wieder etwas kommt)."]
    note = note_line({"deal": 3, "decision": "discard", "chosen": {"laid": ["5H", "5S"], "total": -4.15},
                      "best": {"laid": ["KH", "QH"], "total": 7.9}}, with_deal=True)
    assert note.text == ("Runde 3: du hast 5♥ 5♠ abgelegt (Summe -4.2), am besten K♥ Q♥ (Summe 7.9): "
                         "12.1 Punkte")
    assert [style for style, _ in note.segments] == ["event", "card.red", "event", "card.black",
                                                     "event", "card.red", "event", "card.red", "event"]


# == every word of these screens' own comes through a catalog ================================

#: What the screens show that no catalog should hold: the players' names, the program's
#: name, the table's preset and the computers' level as the server names them, key caps.
NAMES = ("Ann", "Ben", "Cy", "Dee", "Hal", "Noddy", "cribbage", "random", "PgUp", "PgDn", "Esc", "Ctrl-Q")


def table_screen(model: ViewModel, width: int) -> str:
    """Everything the table screen's own drawing says (not the log: the narration's lines)."""
    said = [title_fragments(model, "127.0.0.1:3131", width), board_fragments(model, width),
            table_fragments(model, 0.0, width), hand_or_show_fragments(model, width),
            waiting_fragments(model), status_fragments(model, width), keys_fragments(model, width),
            panel_fragments(model, width), log_rule_fragments(model, width)]
    count = model.game.deal_count
    text = "\n".join(plain(fragments) for fragments in said)
    if count is not None:  # its announcements and its last line are the narration's
        shown = plain(count_fragments(model, 200))
        for row in count.rows:
            shown = shown.replace(row.announcement, "") if row.announcement else shown
        text += "\n" + shown.replace(count.after, "")
    return text


def waiting_table(model: ViewModel) -> None:
    """Ann at a table waiting for players: a computer, a guest bot away, a watcher."""
    model.connection_up()
    model.handle({"type": "welcome", "name": "Ann", "token": "t", "resumed": False, "registered": False,
                  "presets": [], "levels": ["random"]})
    model.session.send("create_table", preset="cribbage", players=4, seat=0)
    created = model.session.take_outbox()[-1]["id"]
    seats = [{"seat": 0, "name": "Ann", "kind": "human", "level": None, "ready": False, "connected": True},
             {"seat": 1, "name": "Hal", "kind": "computer", "level": "random",
              "ready": True, "connected": True},
             {"seat": 2, "name": "Cy", "kind": "human", "bot": True, "guest": True, "level": None,
              "ready": True, "connected": False}, None]
    model.handle({"type": "table", "id": created, "table": {
        "id": 1, "preset": "cribbage", "players": 4, "partnerships": True, "options": {"match": 3},
        "private": False, "turn_timer": 60, "status": "waiting", "rated": False,
        "unrated_why": "Cy", "match": {"points": [0, 0], "to": 3, "game": 1},
        "seats": seats, "spectators": ["Dee"], "games_played": 0}})


def test_the_table_screens_say_no_word_no_catalog_holds() -> None:
    with pseudo_language() as language:
        i18n.set_language(language)
        try:
            said: list[str] = []
            model = ViewModel("Ann")
            waiting_table(model)
            said.append(table_screen(model, 80))
            model.table_screen.seats.remove_computer()
            said.append(table_screen(model, 80))

            model = at_table()
            said.append(table_screen(model, 80))
            model.coach.ask_hint()
            model.session.take_outbox()
            reply(model, **HINT)
            said.append(table_screen(model, 60))
            model.coach.close_panel()
            model.table_screen.choose(0)
            model.table_screen.choose(1)
            model.table_screen.choose(2)
            said += [model.session.status, table_screen(model, 80)]
            to_the_show(model)
            said.append(table_screen(model, 60))
            model.hand_count.type_digit("1")
            said.append(table_screen(model, 80))
            model.hand_count.clear()
            model.hand_count.submit()
            said.append(model.session.status)
            muggins_open(model)
            said.append(table_screen(model, 80))
            model.hand_count.type_digit("0")
            model.hand_count.submit()
            said.append(model.session.status)
            model.handle(ev(13, "hands_revealed", hands=[ANN_HAND, BEN_HAND], crib=BEN_CRIB))
            said.append(table_screen(model, 80))
            model.handle({"type": "player_away", "table": 1, "seat": 1, "name": "Ben", "grace": 60})
            model.handle({"type": "player_back", "table": 1, "seat": 1, "name": "Ben"})
            model.handle({"type": "stand_in", "table": 1, "seat": 1, "name": "Ben", "level": "random"})
            model.handle({"type": "seat_silent", "table": 1, "seat": 1, "name": "Ben", "silent": 30})
            model.handle({"type": "timed_out", "table": 1, "seat": 1})
            said += [line.text for line in model.game.log[-5:]]  # (the client's own lines)
            model.game.dismiss_count()
            model.handle(ev(14, "game_over", winner=0, winning_seats=[0], scores=[121, 90]))
            said.append(table_screen(model, 80))
            text = "\n".join(said)
            assert unmarked_words(text, allowed=NAMES) == [], text
        finally:
            i18n.set_language(i18n.DEFAULT_LANGUAGE)
