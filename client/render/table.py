"""A log, as the table, the lobby's chat and a replay draw it, and the count at the end of a deal.

The log's lines wrap under a hanging indent, and only its last lines are formatted
(:func:`log_tail`); the count of a deal wraps its rows the same way.  The rest of the table
screen's middle (turn-up, count and pile, the other hands, the seats before a game, the
log's rule) is :mod:`noddy.client.screens.table_layout`'s; the bars above and below it are
in :mod:`noddy.client.render.bars`, the hand in :mod:`noddy.client.render.cards` and the
board in :mod:`noddy.client.render.board`.
"""

from __future__ import annotations

import re

from prompt_toolkit.utils import get_cwidth

from noddy.protocol.i18n import _

from ..lines import LogLine
from ..model import ViewModel
from .cards import card_fragments, cards_inline
from .fragments import EDGE, Fragments, plain


def log_tail(lines: list[LogLine], rows: int) -> list[LogLine]:
    """The lines of a log a window of at most ``rows`` rows can show when it shows the end
    (every line takes a row at least): what :func:`log_fragments` need be given, so that a
    frame costs the screen's height, not the log's length.

    >>> log_tail(list("abcdef"), 4), log_tail(list("ab"), 4), log_tail(list("ab"), 0)
    (['c', 'd', 'e', 'f'], ['a', 'b'], ['b'])
    """
    return lines[-max(1, rows):]


def last_row(fragments: Fragments) -> int:
    """The index of the last row ``fragments`` take (where a log window keeps its cursor, so
    that it shows the end of the log, wrapped rows included)."""
    return sum(text.count("\n") for _style, text, *_ in fragments)


#: How far a log line's continuation rows are indented, so a wrapped line reads as one.
HANGING_INDENT = "   "


def log_fragments(lines: list[LogLine], width: int | None = None) -> Fragments:
    """Log lines one under another, each keeping its own styled segments (coloured cards).

    With ``width``, a line longer than the window is broken between words, its later rows
    indented by :data:`HANGING_INDENT`: the terminal's own wrapping broke words in two at 80
    columns ("fifte / en eight", "4 claim / ed").  A word longer than a whole row is cut.
    The window's last column is left free (a line that reached it read as cut there)."""
    out: Fragments = []
    if width is not None:
        width -= EDGE
    for i, line in enumerate(lines):
        if i:
            out.append(("", "\n"))
        segments = [(f"class:{style}", text) for style, text in line.segments]
        if width is None or 1 + sum(get_cwidth(text) for _, text in segments) <= width:
            out.append(("", " "))
            out += segments
        else:
            out += _wrapped_segments(segments, width)
    return out


def _wrapped_segments(segments: Fragments, width: int, indent: str = HANGING_INDENT) -> Fragments:
    """``segments`` (one log line) broken into rows of at most ``width`` cells between words,
    the later rows indented by ``indent``."""
    out: Fragments = [("", " ")]
    used = 1
    pending: Fragments = []  # spaces seen since the last word: dropped at a row's end
    for style, text in segments:
        for token in re.findall(r"\s+|\S+", text):
            cells = get_cwidth(token)
            if token.isspace():
                pending.append((style, token))
                continue
            spaces = sum(get_cwidth(t) for _, t in pending)
            if used + spaces + cells > width and used > len(indent):
                out.append(("", "\n" + indent))
                used, pending, spaces = len(indent), [], 0
            out += pending
            pending = []
            used += spaces
            while used + cells > width:  # longer than a whole row: cut it
                room = max(1, width - used)
                out.append((style, token[:room]))
                out.append(("", "\n" + indent))
                token, used = token[room:], len(indent)
                cells = get_cwidth(token)
            out.append((style, token))
            used += cells
    return out


#: The least room an announcement of the count keeps under itself when it wraps; with less
#: (a narrow screen, long names), its later rows take the log's hanging indent instead.
ANNOUNCEMENT_ROOM = 20


def count_fragments(model: ViewModel, width: int = 80) -> Fragments:
    """The count at the end of a deal: each hand and the crib with the turn-up, its points
    and the announcement, then the totals and how to go on.

    Every row is broken between words to ``width`` by the log's wrapping (at 60 columns the
    terminal broke "a ru / n"); a hand's announcement goes on under itself when it has
    :data:`ANNOUNCEMENT_ROOM`, else under the log's hanging indent.  The window scrolls
    what does not fit (:class:`noddy.client.scrolling.Scrolled`)."""
    count = model.game.deal_count
    if count is None:
        return []
    width -= EDGE  # (the last column left free: a row that reached it read as cut)
    turn_up = [count.turn_up] if count.turn_up else []
    head: Fragments = [("class:label", _("The count of deal {deal}").format(deal=count.deal))]
    if count.turn_up:
        head += [("class:label", f" · {_('turn-up')} "), *card_fragments(count.turn_up)]
    head += [("class:dim", f"  — {_('any key goes on')} —")]
    out = _wrapped_segments(head, width) + [("", "\n")]
    label_width = min(20, max((len(row.label) for row in count.rows), default=4))
    cards_width = max((len(plain(cards_inline(row.cards))) for row in count.rows), default=0)
    for row in count.rows:
        points = "   " if row.points is None else f"{row.points:>3}"
        shown = cards_inline(row.cards)
        line: Fragments = [("class:label", f"{row.label[:label_width]:<{label_width}}  "), *shown,
                           ("", " " * (cards_width - len(plain(shown))))]
        if turn_up:
            line += [("class:dim", " + "), *cards_inline(turn_up)]
        line.append(("class:key", f"  {points}  "))
        column = 1 + get_cwidth(plain(line))
        indent = " " * column if width - column >= ANNOUNCEMENT_ROOM else HANGING_INDENT
        line.append(("class:score", row.announcement or _("nothing")))
        out += _wrapped_segments(line, width, indent) + [("", "\n")]
    if count.after:
        out += _wrapped_segments([("class:deal", count.after)], width)
    if count.notes:
        out += [("", "\n"), ("class:label", f" {_('The coach:')}"), ("", "\n")] + log_fragments(count.notes, width)
    return out
