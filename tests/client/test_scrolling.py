"""What does not fit scrolls (issue 27, items 2 and 3): the coach's review of a stored game
and the count at the end of a deal, drawn by the whole client at the sizes the issue names
(80×24, 60×20, 80×50), keys fed through prompt_toolkit's own key processor.

The review held 14 notes through deal 13 but the box showed 11, ending at deal 7, with no
"more" and no way down; at 60×20 the count of a three-handed deal broke "a ru / n" and cut
off the third hand and the crib.  Each test reads the screen as a person would: the rows,
the marker that says rows are hidden, the key hints at the foot.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from prompt_toolkit.application.current import set_app
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.key_binding.key_processor import KeyPress
from prompt_toolkit.keys import Keys

from noddy.client.app import ClientApp
from noddy.client.model import ViewModel

from .test_counting_and_coach import at_table, reply
from .test_idle import SizedOutput, screen_text
from .test_model import ev, scored


@pytest.fixture
def sized() -> Iterator[Any]:
    """Clients on terminals of the sizes asked for (``sized(rows, columns, name)``)."""
    with create_pipe_input() as keys:
        yield lambda rows, columns, name="Ann": ClientApp(
            "127.0.0.1", 1, name, input=keys, output=SizedOutput(rows, columns))


def drawn(client: ClientApp) -> list[str]:
    """The screen as the running client leaves it: drawn, and drawn again when the first
    draw changed what the key hints say (the application does so after each draw)."""
    screen_text(client)
    client.application.after_render.fire()
    return screen_text(client)


def press(client: ClientApp, *keys: str) -> None:
    with set_app(client.application):
        for key in keys:
            client.application.key_processor.feed(KeyPress(key))
        client.application.key_processor.process_keys()


# == the coach's review of a stored game ===================================================

#: The server's review of game 7 for Ann: 14 notes, through deal 13 (as in the issue).
NOTE_DEALS = [1, 2, 3, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]
NOTES = [{"deal": deal, "decision": "discard", "chosen": {"laid": ["5H", "5S"], "total": -4.15},
          "best": {"laid": ["KH", "QH"], "total": 7.9 + i}, "difference": 12.05 + i}
         for i, deal in enumerate(NOTE_DEALS)]


def reviewed(client: ClientApp) -> ViewModel:
    """Ann (at a table, as in the replay) has asked for the review of game 7 and it came."""
    model = at_table(model=client.model)
    model.coach.review_game(7)
    model.session.take_outbox()
    reply(model, type="review", game=7, seat=0, deal=None, notes=NOTES)
    return model


def notes_on(rows: list[str]) -> list[str]:
    """The notes wholly in the box on the screen (a row or two each), as "deal/best total"."""
    text = " ".join(row.split("│")[1].strip() for row in rows if row.count("│") == 2)
    return [f"{m[1]}/{m[2]}" for m in re.finditer(
        r"Deal (\d+): you laid away 5♥ 5♠ \(total -4\.2\), best K♥ Q♥ \(total (\d+\.\d)\): "
        r"\d+\.\d points", text)]


def box_marker(rows: list[str]) -> list[str]:
    """The box's "more rows" markers, as written inside its frame."""
    return [row.split("│")[1].strip() for row in rows if "more row" in row]


@pytest.mark.parametrize("size", [(24, 80), (20, 60)])
async def test_a_stored_games_review_scrolls_down_to_its_last_note(sized: Any, size: tuple[int, int]
                                                                 ) -> None:
    client = sized(*size)
    model = reviewed(client)
    every = [f"{deal}/{7.9 + i:.1f}" for i, deal in enumerate(NOTE_DEALS)]
    rows = drawn(client)
    assert len(rows) == size[0]
    first = notes_on(rows)
    assert first == every[:len(first)] and 0 < len(first) < len(every)
    hidden = len(every) - len(first)
    assert box_marker(rows) == [m for m in box_marker(rows) if m.startswith("↓ ")]
    assert re.fullmatch(r"↓ \d+ more rows · ↑↓ PgUp PgDn scroll", box_marker(rows)[0])
    assert rows[-1].strip() == "↑↓ PgUp PgDn scroll  other keys close it  Ctrl-Q quit"
    seen = list(first)
    for _ in range(20):                              # PgDn to the end, reading every note
        press(client, Keys.PageDown)
        rows = drawn(client)
        seen += [note for note in notes_on(rows) if note not in seen]
        if not any(m.startswith("↓") for m in box_marker(rows)):
            break
    assert seen == every and hidden > 0
    assert model.coach.panel is not None            # the keys scrolled; they did not close it
    assert notes_on(rows)[-1] == "13/20.9"
    assert any(row.split("│")[1].strip() == "any key closes this" for row in rows if "│" in row)
    above = box_marker(rows)
    assert len(above) == 1 and above[0].startswith("↑ ") and above[0].endswith(" more rows above")
    press(client, Keys.Up)                          # one row back up: one fewer hidden above
    assert box_marker(drawn(client))[0] == f"↑ {int(above[0].split()[1]) - 1} more rows above"
    press(client, Keys.Home)
    assert notes_on(drawn(client))[:1] == ["1/7.9"]
    press(client, "x")                              # any other key closes the box
    assert model.coach.panel is None


async def test_a_review_with_room_is_shown_whole_and_any_key_closes_it(sized: Any) -> None:
    client = sized(50, 80)
    model = reviewed(client)
    rows = drawn(client)
    assert notes_on(rows) == [f"{deal}/{7.9 + i:.1f}" for i, deal in enumerate(NOTE_DEALS)]
    assert box_marker(rows) == []
    assert rows[-1].strip() == "any key closes the coach's box  Ctrl-Q quit"
    press(client, Keys.Down)
    assert model.coach.panel is None


# == the count at the end of a deal ========================================================

def _seat(seat: int, name: str, kind: str = "human") -> dict[str, Any]:
    return {"seat": seat, "name": name, "kind": kind,
            "level": "greedy" if kind == "computer" else None, "ready": True, "connected": True}


#: A three-handed cribbage table: ann, Benedict and a computer with a long name.
THREE_HANDED = {"id": 1, "preset": "cribbage", "players": 3, "partnerships": False,
                "options": {}, "private": False, "turn_timer": None, "status": "playing",
                "rated": True, "spectators": [], "games_played": 0,
                "seats": [_seat(0, "ann"), _seat(1, "Benedict"),
                          _seat(2, "greedy computer 3", "computer")]}
HANDS = [["3C", "9D", "8S", "4H"], ["6D", "9H", "TS", "JC"], ["4D", "5H", "6S", "6C"]]
#: What each hand and the crib held with 5♣ turned up (as the engine says them).
SHOWS = [(5, "fifteen two, a run of three five"),
         (10, "fifteen two, fifteen four, fifteen six, a run of three nine, his nob ten"),
         (24, "fifteen two, fifteen four, fifteen six, fifteen eight, a pair ten, a pair twelve, "
              "a run of three fifteen, a run of three eighteen, a run of three twenty-one, "
              "a run of three twenty-four"),
         (8, "fifteen two, fifteen four, fifteen six, a pair eight")]


def counted(client: ClientApp) -> ViewModel:
    """The fourth deal of a three-handed game has been counted: its count is up."""
    model = client.model
    model.connection_up()
    model.handle({"type": "welcome", "name": "ann", "token": "t", "resumed": False,
                  "presets": [], "levels": ["greedy"]})
    model.session.send("create_table", preset="cribbage", players=3, seat=0)
    model.handle({"type": "table", "table": THREE_HANDED, "id": model.session.take_outbox()[-1]["id"]})
    scores = [[40, 30, 20], [40, 40, 20], [40, 40, 44], [40, 40, 52]]
    for message in [
        ev(1, "game_started", preset="cribbage", players=3, partnerships=False, target=121),
        ev(2, "deal_started", deal=4, dealer=2),
        ev(3, "cards_dealt", seat=0, count=5, cards=HANDS[0] + ["2S"]),
        ev(4, "turned_up", card="5C"),
        *[scored(5 + seat, seat, points, "show", scores[seat], words)
          for seat, (points, words) in enumerate(SHOWS[:3])],
        scored(8, 2, SHOWS[3][0], "crib", scores[3], SHOWS[3][1]),
        ev(9, "hands_revealed", hands=HANDS, crib=["2S", "7C", "7H", "8D"]),
        ev(10, "deal_ended", deal=4, scores=scores[3]),
    ]:
        model.handle(message)
    assert model.game.deal_count is not None
    return model


def count_rows(rows: list[str]) -> list[str]:
    """The count's window: the rows between the rule under the board and the log's rule."""
    rules = [i for i, row in enumerate(rows) if row.startswith("────")]
    return rows[rules[0] + 1:rules[1]]


async def test_the_count_at_60_by_20_breaks_between_words_and_scrolls_to_the_crib(sized: Any) -> None:
    client = sized(20, 60, "ann")
    model = counted(client)
    rows = drawn(client)
    assert count_rows(rows) == [
        " The count of deal 4 · turn-up 5♣  — any key goes on —",
        " ann                3♣ 9♦ 8♠ 4♥  + 5♣    5  fifteen two, a",
        "   run of three five",
        " Benedict           6♦ 9♥ 10♠ J♣ + 5♣   10  fifteen two,",
        "   fifteen four, fifteen six, a run of three nine, his nob",
        "   ten",
        " greedy computer 3  4♦ 5♥ 6♠ 6♣  + 5♣   24  fifteen two,",
        "   fifteen four, fifteen six, fifteen eight, a pair ten, a",
        "   pair twelve, a run of three fifteen, a run of three",
        "   eighteen, a run of three twenty-one, a run of three",
        "   twenty-four",
        " ↓ 3 more rows · ↑↓ PgUp PgDn scroll",
    ]
    assert rows[-1].strip() == "↑↓ PgUp PgDn scroll  other keys close it  Ctrl-Q quit"
    before = time.monotonic()
    press(client, Keys.PageDown)
    assert count_rows(drawn(client)) == [
        " ↑ 3 more rows above",
        " Benedict           6♦ 9♥ 10♠ J♣ + 5♣   10  fifteen two,",
        "   fifteen four, fifteen six, a run of three nine, his nob",
        "   ten",
        " greedy computer 3  4♦ 5♥ 6♠ 6♣  + 5♣   24  fifteen two,",
        "   fifteen four, fifteen six, fifteen eight, a pair ten, a",
        "   pair twelve, a run of three fifteen, a run of three",
        "   eighteen, a run of three twenty-one, a run of three",
        "   twenty-four",
        " crib               2♠ 7♣ 7♥ 8♦  + 5♣    8  fifteen two,",
        "   fifteen four, fifteen six, a pair eight",
        " After deal 4: ann 40, Benedict 40, greedy computer 3 52.",
    ]
    assert model.game.deal_count is not None and model.game.deal_count.shown_at >= before  # read: held up
    press(client, " ")                               # any other key goes on
    assert model.game.deal_count is None


async def test_a_count_with_room_is_shown_whole_and_any_key_goes_on(sized: Any) -> None:
    client = sized(24, 80, "ann")
    model = counted(client)
    rows = count_rows(drawn(client))
    assert rows[0] == " The count of deal 4 · turn-up 5♣  — any key goes on —"
    assert rows[1] == " ann                3♣ 9♦ 8♠ 4♥  + 5♣    5  fifteen two, a run of three five"
    assert rows[-3:] == [
        " crib               2♠ 7♣ 7♥ 8♦  + 5♣    8  fifteen two, fifteen four, fifteen",
        "                                            six, a pair eight",
        " After deal 4: ann 40, Benedict 40, greedy computer 3 52.",
    ]
    assert not any("more row" in row for row in rows)
    press(client, Keys.Down)
    assert model.game.deal_count is None
