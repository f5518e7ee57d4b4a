"""docs/RULES.md describes what the engine plays: every example on the page is checked
against the engine, and its tables name every preset and option the engine has.

The page is written for players (issue 27, item 11), so its examples are written as a
person writes them, one to a line in a list: "- 5♣ 5♠ 5♦ J♥, turn-up 5♥: 29 (fifteen two,
…)" for a hand with the turn-up, "- crib …" for a crib, "- played 7♥ 8♣: 2 (fifteen two)"
for the cards of a count in the order laid (what the last one scores).  The game is the one
of the section the example stands in (its heading), or the preset the line names first
("- `cribbage`: …"); "with `option`," turns an option on.  They are read from the page
here, so an example added to the page is checked without a word written in this file.
"""

from __future__ import annotations

import pathlib
import re
from dataclasses import dataclass

import pytest

from noddy.engine import PRESETS, configure, score_play, score_show

RULES = pathlib.Path(__file__).resolve().parent.parent / "docs" / "RULES.md"

#: The game each section of the page is about, by its heading ("###" sections are parts of
#: the "##" section above them unless named here).
SECTIONS = {"Noddy": "noddy", "Du Coeur's Noddy": "noddy-ducoeur",
            "Randle Holme's Noddy": "noddy-holme", "Modern Noddy": "noddy-modern",
            "Five-card Cribbage": "five-card-cribbage", "Cribbage": "cribbage"}
SUITS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
CARD = r"(?:10|[A2-9JQK])[♣♦♥♠]"
EXAMPLE = re.compile(
    r"- (?:`(?P<preset>[a-z-]+)`: )?(?:with `(?P<option>[a-z_]+)`, )?(?:(?P<kind>crib|played) )?"
    rf"(?P<cards>{CARD}(?: {CARD})*)(?:, turn-up (?P<turn_up>{CARD}))?: (?P<points>\d+) "
    r"\((?P<said>[^()]+)\)")
#: What a line that means to be an example looks like: a list item with a score and what
#: is said for it.  Each must be read as one (a mistyped example is not skipped).
LOOKS_LIKE_ONE = re.compile(r"- .*: \d+ \(.*\)$")


@dataclass(frozen=True)
class Example:
    """One example of the page: where it stands, and what it says the engine answers."""

    line: int
    preset: str | None
    option: str | None
    kind: str                   # "show", "crib" or "play"
    cards: tuple[str, ...]      # as the engine reads them ("TH")
    turn_up: str | None
    points: int
    said: str


def wire(card: str) -> str:
    """A card as the page writes it (10♥, J♣) as the engine reads it (TH, JC)."""
    rank, suit = card[:-1], card[-1]
    return ("T" if rank == "10" else rank) + SUITS[suit]


def read_examples(text: str) -> tuple[list[Example], list[int]]:
    """The examples of a page, and the numbers of the lines that look like one but are not
    written as one."""
    found: list[Example] = []
    unread: list[int] = []
    preset: str | None = None
    for number, line in enumerate(text.splitlines(), 1):
        heading = re.fullmatch(r"(#+) (.+)", line)
        if heading:
            level, title = heading.groups()
            if level == "##" or title in SECTIONS:
                preset = SECTIONS.get(title)
            continue
        example = EXAMPLE.fullmatch(line)
        if example is None:
            if LOOKS_LIKE_ONE.match(line):
                unread.append(number)
            continue
        turn_up = example["turn_up"]
        found.append(Example(
            line=number, preset=example["preset"] or preset, option=example["option"],
            kind={"crib": "crib", "played": "play"}.get(example["kind"] or "", "show"),
            cards=tuple(wire(card) for card in example["cards"].split()),
            turn_up=wire(turn_up) if turn_up else None, points=int(example["points"]),
            said=example["said"]))
    return found, unread


def engine_says(example: Example) -> tuple[int, str]:
    """What the engine scores for an example, and how it says it."""
    assert example.preset is not None, f"line {example.line} names no game"
    rules = (configure(example.preset, options={example.option: True}) if example.option
             else example.preset)
    if example.kind == "play":
        score = score_play(list(example.cards), rules)
    else:
        score = score_show(list(example.cards), example.turn_up, rules, crib=example.kind == "crib")
    return score.total, score.announce()


EXAMPLES, UNREAD = read_examples(RULES.read_text())


@pytest.mark.parametrize("example", EXAMPLES, ids=[f"line {e.line}" for e in EXAMPLES])
def test_each_example_on_the_page_is_what_the_engine_says(example: Example) -> None:
    assert engine_says(example) == (example.points, example.said)


def test_the_page_has_an_example_for_every_game_and_none_unread() -> None:
    assert UNREAD == []
    assert len(EXAMPLES) >= 30
    assert {e.preset for e in EXAMPLES} == set(PRESETS)
    kinds = {(e.kind, e.option) for e in EXAMPLES}
    assert {("show", None), ("crib", None), ("play", None), ("play", "hitter_counts_thirty_one")} <= kinds


def test_the_page_is_for_players_not_a_python_session() -> None:
    text = RULES.read_text()
    assert ">>>" not in text and "```python" not in text
    contents = text[text.index("## Contents"):].split("\n## ")[0]
    for title in ["Noddy", "Du Coeur's Noddy", "Randle Holme's Noddy", "Modern Noddy",
                  "Five-card Cribbage", "Cribbage", "Counting by hand, and muggins"]:
        assert f"\n## {title}\n" in text or f"\n### {title}\n" in text, title
        assert f"[{title}]" in contents or f"[{title[0].lower() + title[1:]}]" in contents, title


def test_the_reader_checks_what_an_example_says() -> None:
    page = ("## Cribbage\n\n"
            "- 5♣ 5♠ 5♦ J♥, turn-up 5♥: 28 (fifteen two)\n"
            "- `noddy`: played 10♦ K♦ Q♦ A♦: 6 (hitter two, a flush six)\n"
            "- crib 2♥ 3♥ 9♥ 6♥ turn-up K♥: 9 (a flush nine)\n"
            "## Options\n\n"
            "- played 7♥ 8♣: 2 (fifteen two)\n")
    found, unread = read_examples(page)
    assert [(e.line, e.preset, e.kind, e.cards, e.turn_up, e.points) for e in found] == [
        (3, "cribbage", "show", ("5C", "5S", "5D", "JH"), "5H", 28),
        (4, "noddy", "play", ("TD", "KD", "QD", "AD"), None, 6),
        (8, None, "play", ("7H", "8C"), None, 2)]
    assert unread == [5]                                   # no comma before the turn-up
    assert engine_says(found[0])[0] == 29                  # not the 28 written
    assert engine_says(found[1]) == (6, "hitter two, a flush six")
    with pytest.raises(AssertionError, match="line 8 names no game"):
        engine_says(found[2])


def test_every_preset_and_option_is_described() -> None:
    text = RULES.read_text()
    header = next(line for line in text.splitlines() if line.startswith("| | `noddy`"))
    assert sorted(re.findall(r"`([a-z-]+)`", header)) == sorted(PRESETS)
    options = {name for rules in PRESETS.values() for name in rules.describe()["options"]}
    for name in options:
        assert f"| `{name}` |" in text, name
