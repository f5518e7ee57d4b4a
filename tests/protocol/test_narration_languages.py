"""The narration of a whole game in German and in Spanish, pinned line by line.

One seeded game of Cribbage to 31, counted by hand (``counting: manual``): claims above a
show's worth refused once and then counted as 0, claims let stand, muggins called right and
wrong, points lost, His Heels and His Nobs, every kind of line the narration says.  It is
played by a fixed random policy and told to Ann (seat 0) by a
:class:`~noddy.protocol.story.TableView`; the lines are kept in
``narration_game.<lang>.txt`` beside this file, written as a German or Spanish player
would read them (the English is kept too, for the comparison).  Then every event kind, the
whole game from each seat and from a replay, and the ends a game can have are told in a
made-up language (tests/pseudo_language.py): no word a person reads may come from outside
the catalogs.

To see a change of wording: ``python -m tests.protocol.test_narration_languages de``
prints the lines as the code says them now.
"""

from __future__ import annotations

import pathlib
import random
import sys

import pytest

from noddy.engine import Game
from noddy.protocol.i18n import speaking
from noddy.protocol.narration import narrate
from noddy.protocol.results import result_message
from noddy.protocol.stats_view import stats_lines
from noddy.protocol.story import TableView, record_events
from tests.protocol.test_story import TOLD
from tests.pseudo_language import pseudo_language, unmarked_words

HERE = pathlib.Path(__file__).resolve().parent
NAMES = ["Ann", "Ben"]
#: The game: its preset, options and seed, and the seed of the policy that plays it.
PRESET, OPTIONS, SEED = "cribbage", {"counting": "manual", "target": 31}, 5


def play_game() -> Game:
    """The pinned game.  The policy is random but for the counting: a claim is one of the
    twelve lowest (so some are too high, some too low), and an opponent either lets it
    stand or calls muggins one or two above it."""
    game = Game(PRESET, 2, seed=SEED, options=OPTIONS)
    rng = random.Random(SEED)
    while not game.is_over:
        actions = game.legal_actions(game.awaiting[-1])
        verbs = {action.verb for action in actions}
        if "claim" in verbs:
            action = rng.choice([a for a in actions if a.verb == "claim"][:12])
        elif verbs & {"muggins", "pass"}:
            action = rng.choice([a for a in actions if a.verb == "pass"]
                                + [a for a in actions if a.verb == "muggins"][:2])
        else:
            action = rng.choice(actions)
        game.apply(action)
    return game


def story(game: Game, language: str, seat: int | None = 0) -> list[str]:
    """The game told to ``seat`` in ``language``, event by event, as a live client folds it."""
    view = TableView(seat=seat, names=list(NAMES))
    lines: list[str] = []
    with speaking(language):
        for seq, event in enumerate(game.log):
            seen = event.for_seat(seat)
            if seen is not None:
                message = {"type": "event", "table": 1, "seq": seq, "event": seen.to_dict()}
                lines += [line.text() for line in view.apply(message)]
    return lines


def pinned(language: str) -> list[str]:
    return (HERE / f"narration_game.{language}.txt").read_text(encoding="utf-8").splitlines()


@pytest.fixture(scope="module")
def game() -> Game:
    return play_game()


def test_the_game_holds_every_kind_of_counting_line(game: Game) -> None:
    """The pinned game is worth pinning: it has what counting by hand can say."""
    events = [event.to_dict() for event in game.log]
    kinds = {e["kind"] for e in events}
    assert {"claimed", "claim_refused", "muggins", "passed", "counted", "go", "count_reset",
            "hands_revealed", "deal_ended", "game_over"} <= kinds
    assert {e["right"] for e in events if e["kind"] == "muggins"} == {True, False}
    assert {e["counts_as_zero"] for e in events if e["kind"] == "claim_refused"} == {True, False}
    items = {i["kind"] for e in events if e["kind"] in ("scored", "counted") for i in e["items"]}
    assert {"his nob", "fifteen", "pair", "run", "go", "thirty-one", "claim", "muggins"} <= items


@pytest.mark.parametrize("language", ["en", "de", "es"])
def test_a_whole_game_is_told_line_by_line(game: Game, language: str) -> None:
    told = story(game, language)
    expected = pinned(language)
    for number, (line, want) in enumerate(zip(told, expected), 1):
        assert line == want, f"line {number}"
    assert len(told) == len(expected)


def test_the_pinned_languages_tell_the_same_story() -> None:
    """Each language's lines stand where the English ones do, with the same cards."""
    english, german, spanish = pinned("en"), pinned("de"), pinned("es")
    assert len(english) == len(german) == len(spanish) > 100
    for en, de, es in zip(english, german, spanish):
        cards = sorted(w for w in en.replace(",", " ").replace(".", " ").split()
                       if len(w) == 2 and w[0] in "A23456789TJQK" and w[1] in "CDHS")
        for other in (de, es):
            assert sorted(w for w in other.replace(",", " ").replace(".", " ").split()
                          if len(w) == 2 and w[0] in "A23456789TJQK" and w[1] in "CDHS") == cards


# -- nothing a person reads comes from outside the catalogs ------------------------------------

#: Words that are not text: names, the preset's name, names of the seats in TOLD.
ALLOWED = ["Ann", "Ben", "Cy", "Di", "cribbage", "noddy", "noddy-modern"]


def test_every_event_kind_is_said_through_the_catalogs() -> None:
    """Every line of test_story's table of event kinds (one made-up language for them all:
    making it reads the whole source)."""
    with pseudo_language() as qq, speaking(qq):
        for event, seat, _ in TOLD:
            told = narrate(event, ["Ann", "Ben"], seat)
            assert told is not None
            assert unmarked_words(told, ALLOWED) == [], told


def test_a_whole_game_from_every_seat_and_a_replay_is_said_through_the_catalogs(game: Game) -> None:
    with pseudo_language() as qq:
        for seat in (0, 1, None):
            for line in story(game, qq, seat):
                assert unmarked_words(line, ALLOWED) == [], line
        record = {"seats": [{"seat": s, "name": n} for s, n in enumerate(NAMES)],
                  "opening": [], "steps": [{"action": None, "events": [e.to_dict() for e in game.log]}]}
        view = TableView.for_record(record)
        with speaking(qq):
            for _, _, event in record_events(record):
                for line in view.apply_event(event):
                    assert unmarked_words(line.text(), ALLOWED) == [], line


GAME_ENDS = [
    {"kind": "game_over", "winner": 0, "winning_seats": [0], "scores": [31, 20], "ending": "resignation",
     "skunk": "none", "resigned": [1], "names": ["Ann", "Ben"]},
    {"kind": "game_over", "winner": 1, "winning_seats": [1], "scores": [10, 4], "ending": "abandoned",
     "skunk": "none", "abandoned": [0], "played_to": [12, 31]},
    {"kind": "game_over", "winner": 0, "winning_seats": [0], "scores": [31, 9], "ending": "target",
     "skunk": "double", "resigned": [1], "abandoned": [1]},
    {"kind": "game_over", "winner": 1, "winning_seats": [1, 3], "scores": [40, 61], "ending": "target",
     "skunk": "skunk"},
    {"kind": "game_over", "winner": 1, "winning_seats": [], "scores": [40, 61]},
]


def test_every_end_of_a_game_is_said_through_the_catalogs(game: Game) -> None:
    with pseudo_language() as qq, speaking(qq):
        for event in GAME_ENDS:
            view = TableView(seat=0, names=["Ann", "Ben", "Cy", "Di"])
            for logged in game.log[:-1]:  # a summary has something to add up
                view.apply_event(logged.to_dict())
            lines = [line.text() for line in view.apply_event(event)]
            lines += [narrate(event, [None, None], 1) or ""]  # seats without names
            assert all(unmarked_words(line, ALLOWED) == [] for line in lines), lines


def test_game_results_and_statistics_are_said_in_the_readers_language() -> None:
    over = {"kind": "game_over", "winner": 0, "winning_seats": [0], "scores": [5, 0],
            "ending": "resignation", "skunk": "none", "resigned": [1]}
    message = result_message(1, 7, 1, ["ann", "ben"], "resigned", over, {"to": 2, "points": [1, 0],
                             "winner": 0}, {"family": "noddy", "before": 1500.0, "after": 1484.0})
    assert message["message"] == ("You resigned: ann wins the game, 5 to 0 (rated: your noddy rating "
                                  "1500 -> 1484); the match (first to 2): ann 1, ben 0, ann wins it.")
    assert message["message"].said_in("de") == (
        "Du hast aufgegeben: ann gewinnt die Partie, 5 zu 0 (gewertet: deine Wertung in noddy "
        "1500 -> 1484); das Match (bis zu 2 Siegen): ann 1, ben 0, ann gewinnt es.")
    assert message["message"].said_in("es") == (
        "Abandonaste: ann gana la partida, 5 a 0 (puntuable: tu valoración de noddy 1500 -> 1484); "
        "el match (a 2 victorias): ann 1, ben 0, lo gana ann.")
    stats = {"name": "ann", "preset": None, "ratings": [], "presets": [
        {"preset": "cribbage", "games": 3, "wins": 2, "win_rate": 2 / 3, "skunks_given": 1,
         "double_skunks_given": 0, "skunks_taken": 0, "double_skunks_taken": 0,
         "per_deal": {"pegging": 3.5, "hand": 7.25, "crib": 4.0},
         "best_hand": {"points": 16, "cards": ["5H", "5S", "JD", "4C", "6D"], "game": 2}}]}
    with speaking("de"):
        german = stats_lines(stats)
    assert german[0] == "Statistik von ann"
    assert german[2].split() == ["Variante", "Part.", "Siege", "Sieg%", "Aussp.", "Hand", "Krippe",
                                 "gegeben", "erh."]
    assert german[4] == "Beste Hände: cribbage: 16 mit 4C 5H 5S JD + 6D (Partie 2)"
    assert all(len(line) <= 80 for line in german)
    with pseudo_language() as qq:
        for why in ("resigned", "abandoned", "match_given_up"):
            said = result_message(1, 7, 1, [None, "ben"], why, over, {"to": 2, "points": [1, 0],
                                  "winner": None}, {"family": "noddy", "before": 1, "after": 2},
                                  )["message"].said_in(qq)
            assert unmarked_words(said, ["ben", "noddy"]) == [], said
        with speaking(qq):
            lines = stats_lines(stats) + stats_lines({**stats, "presets": [], "preset": "noddy"})
        assert all(unmarked_words(line, ["ann", "cribbage", "noddy"]) == [] for line in lines), lines


if __name__ == "__main__":  # prints the story as the code tells it now, to pin a new wording
    print("\n".join(story(play_game(), sys.argv[1] if len(sys.argv) > 1 else "en")))
