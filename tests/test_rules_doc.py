"""docs/RULES.md describes what the engine plays: every example on the page is checked
against the engine, and its tables name every preset and option the engine has.  The same
holds for the page in German (docs/RULES.de.md) and in Spanish (docs/RULES.es.md), whose
examples are the English page's, said in their language (issue 36).

The page is written for players (issue 27, item 11), so its examples are written as a
person writes them, one to a line in a list: "- 5♣ 5♠ 5♦ J♥, turn-up 5♥: 29 (fifteen two,
…)" for a hand with the turn-up, "- crib …" for a crib, "- played 7♥ 8♣: 2 (fifteen two)"
for the cards of a count in the order laid (what the last one scores).  The game is the one
of the section the example stands in (its heading), or the preset the line names first
("- `cribbage`: …"); "with `option`," turns an option on.  A translated page writes the
same lines with its own words (:data:`PAGES`: "Startkarte", "Krippe", "ausgespielt"...),
and what is said in brackets is the call in its language (:func:`noddy.protocol.calls.announce`,
what a German or Spanish player is sent at the table).  They are read from the pages here,
so an example added to a page is checked without a word written in this file.
"""

from __future__ import annotations

import pathlib
import re
from dataclasses import dataclass, field
from typing import Mapping

import pytest

from noddy.engine import PRESETS, configure, score_play, score_show
from noddy.protocol.calls import announce
from noddy.protocol.i18n import speaking

DOCS = pathlib.Path(__file__).resolve().parent.parent / "docs"
RULES = DOCS / "RULES.md"


@dataclass(frozen=True)
class PageWords:
    """How one language's rules page writes its examples and names its sections: the words
    of the example line format, declared once per language."""

    page: str                   # the file in docs/
    language: str               # the language its calls are said in
    turn_up: str                # ", turn-up 5♥"
    crib: str                   # "- crib 2♥ …"
    played: str                 # "- played 7♥ 8♣ …"
    with_option: str            # "- with `option`, …"
    #: The game each section of the page is about, by its heading ("###" sections are parts
    #: of the "##" section above them unless named here).
    sections: Mapping[str, str] = field(default_factory=dict)
    counting: str = ""          # the heading of "Counting by hand, and muggins"
    contents: str = ""          # the heading of the table of contents

    @property
    def path(self) -> pathlib.Path:
        return DOCS / self.page

    @property
    def example(self) -> re.Pattern[str]:
        """An example line in this language."""
        kinds = f"{re.escape(self.crib)}|{re.escape(self.played)}"
        return re.compile(
            rf"- (?:`(?P<preset>[a-z-]+)`: )?(?:{re.escape(self.with_option)} `(?P<option>[a-z_]+)`, )?"
            rf"(?:(?P<kind>{kinds}) )?(?P<cards>{CARD}(?: {CARD})*)"
            rf"(?:, {re.escape(self.turn_up)} (?P<turn_up>{CARD}))?: (?P<points>\d+) "
            r"\((?P<said>[^()]+)\)")


SUITS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
CARD = r"(?:10|[A2-9JQK])[♣♦♥♠]"
PAGES: dict[str, PageWords] = {
    "en": PageWords(
        "RULES.md", "en", turn_up="turn-up", crib="crib", played="played", with_option="with",
        sections={"Noddy": "noddy", "Du Coeur's Noddy": "noddy-ducoeur",
                  "Randle Holme's Noddy": "noddy-holme", "Modern Noddy": "noddy-modern",
                  "Five-card Cribbage": "five-card-cribbage", "Cribbage": "cribbage"},
        counting="Counting by hand, and muggins", contents="Contents"),
    "de": PageWords(
        "RULES.de.md", "de", turn_up="Startkarte", crib="Krippe", played="ausgespielt",
        with_option="mit",
        sections={"Noddy": "noddy", "Noddy nach du Coeur": "noddy-ducoeur",
                  "Noddy nach Randle Holme": "noddy-holme", "Modernes Noddy": "noddy-modern",
                  "Cribbage mit fünf Karten": "five-card-cribbage", "Cribbage": "cribbage"},
        counting="Zählen von Hand, und Muggins", contents="Inhalt"),
    "es": PageWords(
        "RULES.es.md", "es", turn_up="carta de arranque", crib="cuna", played="jugadas",
        with_option="con",
        sections={"Noddy": "noddy", "Noddy de du Coeur": "noddy-ducoeur",
                  "Noddy de Randle Holme": "noddy-holme", "Noddy moderno": "noddy-modern",
                  "Cribbage de cinco cartas": "five-card-cribbage", "Cribbage": "cribbage"},
        counting="Contar a mano, y muggins", contents="Índice"),
}
#: The line at the top of every page, linking the languages it is written in.
LANGUAGE_LINE = "[English](RULES.md) · [Deutsch](RULES.de.md) · [Español](RULES.es.md)"
#: What a line that means to be an example looks like: a list item with a score and what
#: is said for it.  Each must be read as one (a mistyped example is not skipped).
LOOKS_LIKE_ONE = re.compile(r"- .*: \d+ \(.*\)$")


@dataclass(frozen=True)
class Example:
    """One example of a page: where it stands, and what it says the engine answers."""

    line: int
    preset: str | None
    option: str | None
    kind: str                   # "show", "crib" or "play"
    cards: tuple[str, ...]      # as the engine reads them ("TH")
    turn_up: str | None
    points: int
    said: str
    language: str = "en"

    def hand(self) -> tuple[object, ...]:
        """What the example is about and scores, whatever language it is said in."""
        return self.preset, self.option, self.kind, self.cards, self.turn_up, self.points


def wire(card: str) -> str:
    """A card as the page writes it (10♥, J♣) as the engine reads it (TH, JC)."""
    rank, suit = card[:-1], card[-1]
    return ("T" if rank == "10" else rank) + SUITS[suit]


def read_examples(text: str, words: PageWords = PAGES["en"]) -> tuple[list[Example], list[int]]:
    """The examples of a page written with ``words``, and the numbers of the lines that look
    like one but are not written as one."""
    found: list[Example] = []
    unread: list[int] = []
    preset: str | None = None
    pattern = words.example
    kinds = {words.crib: "crib", words.played: "play"}
    for number, line in enumerate(text.splitlines(), 1):
        heading = re.fullmatch(r"(#+) (.+)", line)
        if heading:
            level, title = heading.groups()
            if level == "##" or title in words.sections:
                preset = words.sections.get(title)
            continue
        example = pattern.fullmatch(line)
        if example is None:
            if LOOKS_LIKE_ONE.match(line):
                unread.append(number)
            continue
        turn_up = example["turn_up"]
        found.append(Example(
            line=number, preset=example["preset"] or preset, option=example["option"],
            kind=kinds.get(example["kind"] or "", "show"),
            cards=tuple(wire(card) for card in example["cards"].split()),
            turn_up=wire(turn_up) if turn_up else None, points=int(example["points"]),
            said=example["said"], language=words.language))
    return found, unread


def engine_says(example: Example) -> tuple[int, str]:
    """What the engine scores for an example, and how it is said in the example's language:
    in English the engine's own call, in the others the call a player of that language is
    sent (the protocol says the engine's score items again)."""
    assert example.preset is not None, f"line {example.line} names no game"
    rules = (configure(example.preset, options={example.option: True}) if example.option
             else example.preset)
    if example.kind == "play":
        score = score_play(list(example.cards), rules)
    else:
        score = score_show(list(example.cards), example.turn_up, rules, crib=example.kind == "crib")
    if example.language == "en":
        return score.total, score.announce()
    with speaking(example.language):
        return score.total, announce([item.to_dict() for item in score.items])


READ = {language: read_examples(words.path.read_text(), words) for language, words in PAGES.items()}
EXAMPLES = [example for examples, _ in READ.values() for example in examples]


@pytest.mark.parametrize("example", EXAMPLES,
                         ids=[f"{PAGES[e.language].page} line {e.line}" for e in EXAMPLES])
def test_each_example_on_the_page_is_what_the_engine_says(example: Example) -> None:
    assert engine_says(example) == (example.points, example.said)


@pytest.mark.parametrize("language", PAGES)
def test_the_page_has_an_example_for_every_game_and_none_unread(language: str) -> None:
    examples, unread = READ[language]
    assert unread == []
    assert len(examples) >= 30
    assert {e.preset for e in examples} == set(PRESETS)
    kinds = {(e.kind, e.option) for e in examples}
    assert {("show", None), ("crib", None), ("play", None), ("play", "hitter_counts_thirty_one")} <= kinds


@pytest.mark.parametrize("language", ["de", "es"])
def test_a_translated_page_has_the_english_pages_examples(language: str) -> None:
    english = [e.hand() for e in READ["en"][0]]
    assert [e.hand() for e in READ[language][0]] == english


@pytest.mark.parametrize("language", PAGES)
def test_the_page_is_for_players_not_a_python_session(language: str) -> None:
    words = PAGES[language]
    text = words.path.read_text()
    assert ">>>" not in text and "```python" not in text
    contents = text[text.index(f"## {words.contents}"):].split("\n## ")[0]
    for title in [*words.sections, words.counting]:
        assert f"\n## {title}\n" in text or f"\n### {title}\n" in text, title
        assert f"[{title}]" in contents or f"[{title[0].lower() + title[1:]}]" in contents, title


def anchor(title: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped (letters of any
    script kept), spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", title.strip().lower()).replace(" ", "-")


@pytest.mark.parametrize("language", PAGES)
def test_the_pages_link_each_other_and_their_own_sections(language: str) -> None:
    text = PAGES[language].path.read_text()
    assert text.splitlines()[0] == LANGUAGE_LINE
    anchors = {anchor(title) for title in re.findall(r"^#+ (.+)$", text, re.MULTILINE)}
    links = set(re.findall(r"\]\(#([^)]+)\)", text))
    assert links and links <= anchors, sorted(links - anchors)


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


def test_a_translated_page_is_read_in_its_own_words_and_said_in_its_language() -> None:
    page = ("## Cribbage mit fünf Karten\n\n"
            "- Krippe 2♥ 3♥ 9♥ 6♥, Startkarte K♥: 9 (fünfzehn zwei, fünfzehn vier, ein Flush neun)\n"
            "- `noddy`: mit `hitter_counts_thirty_one`, ausgespielt 10♦ K♦ Q♦ A♦: 10 (hitter two)\n"
            "- crib 2♥ 3♥ 9♥ 6♥, turn-up K♥: 9 (fifteen two, fifteen four, a flush nine)\n")
    found, unread = read_examples(page, PAGES["de"])
    assert [(e.line, e.preset, e.option, e.kind, e.turn_up, e.points) for e in found] == [
        (3, "five-card-cribbage", None, "crib", "KH", 9),
        (4, "noddy", "hitter_counts_thirty_one", "play", None, 10)]
    assert unread == [5]                                   # English words on the German page
    assert engine_says(found[0]) == (9, found[0].said)
    assert engine_says(found[1]) == (10, "Hitter zwei, einunddreißig sechs, ein Flush zehn")
    spanish, _ = read_examples("## Cribbage\n\n- jugadas 7♥ 8♣: 2 (quince dos)\n", PAGES["es"])
    assert [engine_says(e) for e in spanish] == [(2, "quince dos")]


@pytest.mark.parametrize("language", PAGES)
def test_every_preset_and_option_is_described(language: str) -> None:
    text = PAGES[language].path.read_text()
    header = next(line for line in text.splitlines() if line.startswith("| | `noddy`"))
    assert sorted(re.findall(r"`([a-z-]+)`", header)) == sorted(PRESETS)
    options = {name for rules in PRESETS.values() for name in rules.describe()["options"]}
    for name in options:
        assert f"| `{name}` |" in text, name
