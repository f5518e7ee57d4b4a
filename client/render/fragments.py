"""The vocabulary every drawing module shares: the fragment type, the style sheet, and the
text helpers.

Drawing is split by what is drawn (cards, the peg board, the table, the bars, the lobby,
the help), but all of those speak in ``(style, text)`` fragments whose style names must
exist in one :data:`STYLE`, and several measure or wrap text the same way.  Keeping those
here, with no drawing of their own, lets every drawing module import them without
importing one another (bar the odd inline card or compacted name from a sibling).
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from typing import Any

from prompt_toolkit.styles import Style
from prompt_toolkit.utils import get_cwidth

Fragments = list[tuple[str, str]]

#: The columns a line leaves free at the screen's right edge: text that reached the edge
#: read as cut there (issue 33, item 8).
EDGE = 1


STYLE = Style.from_dict({
    "title": "reverse bold",
    "title.offline": "bg:ansired fg:ansiwhite bold",
    "dim": "fg:ansibrightblack",
    "key": "bold fg:ansicyan",
    "label": "bold",
    "card.red": "fg:ansired bold",
    "card.black": "fg:ansiblack bold bg:ansiwhite",
    "cardface": "bg:ansiwhite fg:ansiblack",
    "cardface.red": "bg:ansiwhite fg:ansired bold",
    "cardface.playable": "bg:ansibrightyellow fg:ansiblack bold",
    "cardface.playable.red": "bg:ansibrightyellow fg:ansired bold",
    "cardface.dim": "bg:ansibrightblack fg:ansiwhite",
    "cardface.selected": "bg:ansigreen fg:ansiblack bold",
    "cardface.selected.red": "bg:ansigreen fg:ansired bold",
    "cardback": "bg:ansiblue fg:ansiwhite",
    "cursor": "reverse bold",
    "peg.track": "fg:ansibrightblack",
    "peg.trail": "fg:ansiyellow",
    "peg.front": "fg:ansigreen bold",
    "peg.back": "fg:ansiyellow",
    "peg.mine": "fg:ansicyan bold",
    "event": "",
    "score": "fg:ansigreen",
    "deal": "fg:ansicyan",
    "chat": "fg:ansimagenta",
    "error": "fg:ansired bold",
    "info": "fg:ansiyellow",
    "win": "fg:ansiyellow bold",
    "prompt": "bold",
    "status.error": "fg:ansired bold",
    "status": "fg:ansiyellow",
    "selected": "reverse",
    "help": "bg:ansiblack fg:ansiwhite",
    "help.frame": "bg:ansiblack fg:ansicyan",
})


def plain(fragments: list[tuple[Any, ...]]) -> str:
    """The text of fragments without styles (for tests and debugging)."""
    return "".join(f[1] for f in fragments)


def wrapped(text: str, width: int | None) -> str:
    """`` text`` broken between words to lines of ``width`` (a status line is never cut: the
    window it is drawn in grows a line or two); as it is when ``width`` is None."""
    if width is None or len(text) + 1 < width:
        return " " + text
    return textwrap.fill(text, max(10, width - 1), initial_indent=" ", subsequent_indent=" ",
                         break_on_hyphens=False)


def fit(text: str, cells: int) -> str:
    """``text`` cut to ``cells`` terminal columns, its last one ``…`` if anything was cut, so
    that a cut name does not read as a whole one (a wide character counts as the two columns
    it takes, and is not split)."""
    if get_cwidth(text) <= cells:
        return text
    kept, used = [], 0
    for char in text:
        used += get_cwidth(char)
        if used > cells - 1:
            break
        kept.append(char)
    return "".join(kept) + "…"


def fit_words(text: str, cells: int) -> str:
    """``text`` in ``cells`` terminal columns, cut only between words: the words that fit,
    then `` …`` to say more was there.  A row cut mid-word ("cy (1500) (aw…") read as
    a whole word (issue 33, item 8); a first word longer than ``cells`` alone is cut (:func:`fit`)."""
    if get_cwidth(text) <= cells:
        return text
    for end in range(len(text) - 1, 0, -1):
        if text[end] == " " and text[end - 1] != " ":
            kept = text[:end].rstrip()
            if get_cwidth(kept) + 2 <= cells:
                return kept + " …"
    return fit(text, cells)


def fit_by_dropping(make: Callable[[int], str], steps: int, cells: int) -> str:
    """The first of ``make(0)``, ``make(1)`` ... ``make(steps)`` that fits ``cells`` columns
    (``make(n)``: the text less its ``n`` least important parts), else the last cut between
    words (:func:`fit_words`): whole parts go, least important first, before any word is cut."""
    text = make(0)
    for dropped in range(1, steps + 1):
        if get_cwidth(text) <= cells:
            return text
        text = make(dropped)
    return fit_words(text, cells)


def fit_rows(make: Callable[[Any, int], str], items: list[Any], steps: int, cells: int) -> list[str]:
    """A row per item (``make(item, n)``: its row less its ``n`` least important parts), all
    with the same parts left out, the fewest that let every row fit ``cells`` columns, so
    that the rows' columns stay in line; a row still too long is cut between words."""
    for dropped in range(steps + 1):
        rows = [make(item, dropped) for item in items]
        if all(get_cwidth(row) <= cells for row in rows):
            return rows
    return [fit_words(row, cells) for row in rows]


#: One part of a line that gives way on a narrow screen: its text, the separator before it,
#: and its rank (the order parts are left out in: 1 first; 0: never).
Part = tuple[str, str, int]


def join_parts(parts: list[Part], cells: int) -> str:
    """The parts in ``cells`` columns: those of rank 1 left out first, then rank 2...,
    whole, so that a title is never cut mid-word ("Table 1 · noddy to 31 · rate")."""
    ranks = sorted({rank for _, _, rank in parts if rank > 0})

    def make(dropped: int) -> str:
        gone = set(ranks[:dropped])
        return _joined([(sep, text) for text, sep, rank in parts if rank not in gone])
    return fit_by_dropping(make, len(ranks), cells)


def _joined(kept: list[tuple[str, str]]) -> str:
    """The kept parts with their separators, the first part's separator left out."""
    return "".join(text if i == 0 else sep + text for i, (sep, text) in enumerate(kept))
