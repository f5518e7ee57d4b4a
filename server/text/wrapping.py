"""Text mode's lines wrapped between words at the reader's width (issue 33, item 9).

A person on ``nc`` reads the server's lines in a terminal that cuts them at its edge, in
the middle of a word (``... counts agains`` / ``t your address``).  Every line text mode
sends is wrapped here, between words, at the width the person reads at: 80 columns unless
they say otherwise with ``width N``.  A continuation is indented two columns more than the
line it continues, so it never reads as a new line of the server's; a token (a card list
such as ``1:3C``, a URL) is never split unless it alone is wider than the width.

The width is the text adapter's for each person, carried to the send path by
:class:`~noddy.server.core.instructions.Send` as ``width`` beside the ``names``; the send
path caches a text rendering by (message, names, width), so two people at one table reading
at different widths are each sent their own wrapping.

>>> wrap("one two three", 9)
'one two\\n  three'
>>> wrap("short\\n  indented line", 12)
'short\\n  indented\\n    line'
"""

from __future__ import annotations

import re
from typing import Iterable, Iterator

#: A terminal's width when the person has not said otherwise: the classic 80 columns
#: (issue 33: "a person's terminal is 80 columns unless they say otherwise").
DEFAULT_WIDTH = 80
#: The narrowest ``width N`` takes: below 20 columns nearly every word of a prompt would
#: stand on a line of its own, which reads worse than the terminal's own cutting.
MIN_WIDTH = 20
#: The widest ``width N`` takes: wider than any line the server sends (so, in effect, no
#: wrapping), and small enough that a typo (``width 80000``) is told, not taken.
MAX_WIDTH = 1000
#: How much further a continuation line is indented than the line it continues.
CONTINUATION_INDENT = "  "
#: The fewest characters of a too-wide word put on a line, however deep its indentation.
MIN_PIECE = 10
#: The spaces between words (kept, so ``Count: 0  Pile: -`` keeps its two spaces).
_WORDS = re.compile(r"( +)")
#: A label that is never left at the end of a line: a seat's number (``2: empty``).
_LABEL = re.compile(r"\d+:")


def wrap(text: str, width: int = DEFAULT_WIDTH) -> str:
    """``text`` (lines joined by ``\\n``, without the last line's end) with each line longer
    than ``width`` wrapped between words (see the module docstring)."""
    if len(text) <= width:  # most messages: one short line (or a few that fit together)
        return text
    lines = text.split("\n")
    if all(len(line) <= width for line in lines):
        return text
    return "\n".join(_wrapped(lines, width))


def _wrapped(lines: Iterable[str], width: int) -> Iterator[str]:
    for line in lines:
        if len(line) <= width:
            yield line
        else:
            yield from _wrap_line(line, width)


def _wrap_line(line: str, width: int) -> Iterator[str]:
    """One line over ``width`` as lines within it, broken at spaces (the runs of spaces
    between words on one line kept as they were); a word wider than a line starts a line of
    its own and is cut in pieces that fill the width."""
    body = line.lstrip(" ")
    indent = line[:len(line) - len(body)]
    further = indent + CONTINUATION_INDENT
    current, spaces = indent, ""
    pieces = _WORDS.split(body)  # word, spaces, word, ... (words never empty but the first)
    index = 0
    while index + 2 < len(pieces):  # a seat's label stays with what follows it: "2: empty"
        if _LABEL.fullmatch(pieces[index]):
            pieces[index:index + 3] = ["".join(pieces[index:index + 3])]
        index += 2
    for index in range(0, len(pieces), 2):
        word = pieces[index]
        if index:
            spaces = pieces[index - 1]
        if not word:
            continue
        if current.strip() and len(current) + len(spaces) + len(word) <= width:
            current += spaces + word
            continue
        if current.strip():
            yield current
            current = further
        while len(current) + len(word) > width:  # wider than a line: cut to fill each line
            cut = max(width - len(current), MIN_PIECE)
            yield current + word[:cut]
            word, current = word[cut:], further
        current += word
    if current.strip():
        yield current
