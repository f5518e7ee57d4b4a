"""The table screen's middle: turn-up, count and pile, the other hands, the log, the
seats before a game, and the count at the end of a deal.

These are the panels that show one table's play; the bars above and below them are in
:mod:`noddy.client.render.bars`, the hand in :mod:`noddy.client.render.cards` and the
board in :mod:`noddy.client.render.board`.
"""

from __future__ import annotations

import re

from prompt_toolkit.utils import get_cwidth

from ..lines import LogLine
from ..model import ViewModel
from .board import compact
from .cards import card_fragments, cards_inline
from .fragments import Fragments, plain


def pile_fragments(model: ViewModel, width: int) -> Fragments:
    """The cards of the current count, each after a dim mark of who played it (``A:4♥``;
    see :meth:`ViewModel.seat_marks`).  When the pile is longer than ``width`` allows, its
    oldest cards give way to ``…``, so the line never wraps."""
    if not model.game.view.pile:
        return [("class:dim", "—")]
    marks = model.game.seat_marks()
    entries: list[Fragments] = []
    for seat, card in model.game.view.pile:
        mark = marks[seat] if 0 <= seat < len(marks) else "?"
        mine = seat == model.game.seat
        entries.append([("class:peg.mine" if mine else "class:dim", f"{mark}:"),
                        *card_fragments(card)])
    shown: list[Fragments] = []
    used = 0
    for entry in reversed(entries):
        size = len(plain(entry)) + 1
        if used + size > width - (2 if len(shown) + 1 < len(entries) else 0):
            break
        shown.insert(0, entry)
        used += size
    out: Fragments = [("class:dim", "… ")] if len(shown) < len(entries) else []
    for i, entry in enumerate(shown):
        if i:
            out.append(("", " "))
        out += entry
    return out


def table_fragments(model: ViewModel, now: float, width: int = 80) -> Fragments:
    """Turn-up, count and pile (who played each card); the other hands, the dealer, whose
    turn, the timer."""
    out: Fragments = [("class:label", " Turn-up ")]
    if model.game.view.turn_up:
        out += [("", "["), *card_fragments(model.game.view.turn_up), ("", "]")]
    else:
        out.append(("class:dim", "[  ]"))
    out += [("class:label", "   Count "), ("class:key", f"{model.game.view.count:>2}"), ("class:label", "   Pile ")]
    out += pile_fragments(model, width - len(plain(out)) - 1)
    out.append(("", "\n"))
    parts: Fragments = [("", " ")]
    marks = model.game.seat_marks()
    crowded = len(model.game.view.hand_sizes) > 2 and width < 100  # three other hands share one line
    for seat in range(model.game.view.players):
        if seat == model.game.seat:
            continue
        size = model.game.view.hand_sizes[seat] if seat < len(model.game.view.hand_sizes) else 0
        name = model.game.seat_name(seat)
        if seat < len(marks) and marks[seat].isdigit():
            name = f"{marks[seat]}:{name}"     # the pile's marks are seat numbers: say whose
        if crowded:
            name = compact(name)
        mark = "▶" if seat in model.game.view.awaiting else " "
        parts += [("class:key" if seat in model.game.view.awaiting else "", f"{mark}{name}"),
                  ("", " "), ("class:cardback", "▒" * size if size else ""),
                  ("class:dim", f" {size} " if size else " 0 ")]
    dealer = model.game.view.dealer
    if dealer is not None:
        if crowded:  # named as the other hands are
            if dealer == model.game.seat:
                parts.append(("class:dim", " · your deal"))
            else:
                mark = marks[dealer] if dealer < len(marks) else ""
                label = mark if mark.isdigit() else compact(model.game.seat_name(dealer))
                parts.append(("class:dim", f" · dealer {label}"))
        else:
            parts.append(("class:dim", f" · dealer {model.game.seat_name(dealer)}"))
    if model.game.view.crib_size:
        parts.append(("class:dim", f" · crib {model.game.view.crib_size}"))
    left = model.game.time_left_now(now)
    if left is not None and model.game.view.awaiting:
        parts.append(("class:status.error" if left < 10 else "class:status", f" · ⏱ {left:.0f}s"))
    return out + parts + [("", "\n")]


def log_rule_fragments(model: ViewModel, width: int) -> Fragments:
    """The rule above the table's log; while scrolled back, it says how far and how to return."""
    if not model.game.log_scroll:
        return [("class:dim", "─" * width)]
    note = f" ↓ {model.game.log_scroll} newer line{'s' * (model.game.log_scroll != 1)} · PgDn / End return "
    return [("class:dim", "──"), ("class:status", note), ("class:dim", "─" * max(0, width - len(note) - 2))]


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
    columns ("fifte / en eight", "4 claim / ed").  A word longer than a whole row is cut."""
    out: Fragments = []
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


def waiting_fragments(model: ViewModel) -> Fragments:
    """Before a game: the seats by the number that picks them, who is ready, who watches."""
    table = model.game.table or {}
    out: Fragments = []
    seats = table.get("seats", [])
    for entry in range(table.get("players", 0)):
        seat = seats[entry] if entry < len(seats) else None
        mine = " (you)" if entry == model.game.seat else ""
        out.append(("class:key", f"  {entry + 1} "))
        if seat is None:
            out.append(("class:dim", " ·free·\n"))
        else:
            ready = "ready" if seat.get("ready") else "not ready"
            kind = f"computer, {seat.get('level')}" if seat.get("kind") == "computer" else ready
            if seat.get("kind") == "computer" and not seat.get("level"):
                kind = "computer"
            away = "" if seat.get("connected", True) else ", away"
            if seat.get("bot"):  # a program that said so in its hello (issue 24)
                kind = f"bot, {kind}"
            elif seat.get("guest"):  # unrated, as the lobby row says
                kind = f"guest, {kind}"
            out.append(("class:label", f" {seat.get('name')}{mine}"))
            out.append(("class:dim", f"  ({kind}{away})\n"))
    watchers = list(table.get("spectators") or [])
    if watchers:
        out.append(("class:dim", f"  watching: {', '.join(watchers)}\n"))
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
    turn_up = [count.turn_up] if count.turn_up else []
    head: Fragments = [("class:label", f"The count of deal {count.deal}")]
    if count.turn_up:
        head += [("class:label", " · turn-up "), *card_fragments(count.turn_up)]
    head += [("class:dim", "  — any key goes on —")]
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
        line.append(("class:score", row.announcement or "nothing"))
        out += _wrapped_segments(line, width, indent) + [("", "\n")]
    if count.after:
        out += _wrapped_segments([("class:deal", count.after)], width)
    if count.notes:
        out += [("", "\n"), ("class:label", " The coach:"), ("", "\n")] + log_fragments(count.notes, width)
    return out
