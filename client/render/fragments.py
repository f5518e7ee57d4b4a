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
from typing import Any

from prompt_toolkit.styles import Style
from prompt_toolkit.utils import get_cwidth

Fragments = list[tuple[str, str]]


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
