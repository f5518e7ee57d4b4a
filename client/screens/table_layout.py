"""The table screen's layout: the board, the table's middle, the prompt and the game's log.

:class:`TableLayout` is what :class:`~noddy.client.screens.table.TableScreen` shows (its keys
are declared with it) while ``model.session.screen`` is the table: the peg board on top;
then the count of a deal while it is up (it has the room), else during a game the turn-up,
count and pile with the other hands (:func:`table_fragments`) over the hand, else the seats
(:func:`waiting_fragments`); the prompt; the log under its rule (:func:`log_rule_fragments`).
It owns the windows the application's keys and measures reach: the count's
(:attr:`TableLayout.count_view`, which scrolls) and the log's (:attr:`TableLayout.log_window`).
It lives apart from :mod:`~noddy.client.screens.table` because it draws from the whole
:class:`~noddy.client.model.ViewModel`, which is composed from the table screen.
"""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.filters import Condition
from prompt_toolkit.layout import ConditionalContainer, HSplit, Window
from prompt_toolkit.layout.dimension import Dimension

from noddy.protocol.i18n import _, ngettext

from .. import render
from ..model import ViewModel
from ..scrolling import Scrolled
from .windows import log_window, text


def pile_fragments(model: ViewModel, width: int) -> render.Fragments:
    """The cards of the current count, each after a dim mark of who played it (``A:4♥``;
    see :meth:`~noddy.client.screens.game.Game.seat_marks`).  When the pile is longer than ``width`` allows, its
    oldest cards give way to ``…``, so the line never wraps."""
    if not model.game.view.pile:
        return [("class:dim", "—")]
    marks = model.game.seat_marks()
    names = model.game.names()
    played = list(zip(model.game.view.pile, model.game.view.pile_names()))
    if any(then and seat < len(names) and then != names[seat] and then[:1].upper() in marks
           and marks.index(then[:1].upper()) != seat for (seat, _), then in played):
        # A stand-in's initial is another seat's (greedy computer 2 for ben, beside guinevere):
        # seat numbers, as when two seated players share one.
        marks = [str(seat + 1) for seat in range(len(marks))]
    entries: list[render.Fragments] = []
    for (seat, card), then in played:
        mark = marks[seat] if 0 <= seat < len(marks) else "?"
        if then and seat < len(names) and then != names[seat] and not mark.isdigit():
            mark = then[:1].upper()  # who played it then, not who sits there now (issue 33)
        mine = seat == model.game.seat
        entries.append([("class:peg.mine" if mine else "class:dim", f"{mark}:"),
                        *render.card_fragments(card)])
    shown: list[render.Fragments] = []
    used = 0
    for entry in reversed(entries):
        size = len(render.plain(entry)) + 1
        if used + size > width - (2 if len(shown) + 1 < len(entries) else 0):
            break
        shown.insert(0, entry)
        used += size
    out: render.Fragments = [("class:dim", "… ")] if len(shown) < len(entries) else []
    for i, entry in enumerate(shown):
        if i:
            out.append(("", " "))
        out += entry
    return out


def table_fragments(model: ViewModel, now: float, width: int = 80) -> render.Fragments:
    """Turn-up, count and pile (who played each card); the other hands, the dealer, whose
    turn, the timer."""
    out: render.Fragments = [("class:label", f" {_('Turn-up')} ")]
    if model.game.view.turn_up:
        out += [("", "["), *render.card_fragments(model.game.view.turn_up), ("", "]")]
    else:
        out.append(("class:dim", "[  ]"))
    out += [("class:label", f"   {_('Count')} "), ("class:key", f"{model.game.view.count:>2}"),
            ("class:label", f"   {_('Pile')} ")]
    out += pile_fragments(model, width - len(render.plain(out)) - 1)
    out.append(("", "\n"))
    for dropped in range(OTHERS_PARTS + 1):  # whole parts give way, never half a word
        parts = _others_fragments(model, width, now, dropped)
        if len(render.plain(parts)) <= width - render.EDGE:
            break
    return out + parts + [("", "\n")]


#: The parts of the other hands' line that give way on a narrow screen (the crib's size, the
#: dealer, the hands' card backs), in that order (issue 33, item 8).
OTHERS_PARTS = 3


def _others_fragments(model: ViewModel, width: int, now: float, dropped: int) -> render.Fragments:
    """The other hands' line: each seat's name and cards left, the dealer, the crib's size,
    the turn's clock; less its ``dropped`` least important parts."""
    parts: render.Fragments = [("", " ")]
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
            name = render.compact(name)
        mark = "▶" if seat in model.game.view.awaiting else " "
        parts += [("class:key" if seat in model.game.view.awaiting else "", f"{mark}{name}"),
                  ("", " "), ("class:cardback", "▒" * size if size and dropped < 3 else ""),
                  ("class:dim", f" {size} " if size else " 0 ")]
    dealer = model.game.view.dealer
    if dealer is not None and dropped < 2:
        if crowded:  # named as the other hands are
            if dealer == model.game.seat:
                parts.append(("class:dim", " · " + _("your deal")))
            else:
                mark = marks[dealer] if dealer < len(marks) else ""
                label = mark if mark.isdigit() else render.compact(model.game.seat_name(dealer))
                parts.append(("class:dim", " · " + _("dealer {name}").format(name=label)))
        else:
            name = model.game.view.dealer_name or model.game.seat_name(dealer)
            parts.append(("class:dim", " · " + _("dealer {name}").format(name=name)))
    if model.game.view.crib_size and dropped < 1:
        parts.append(("class:dim", " · " + _("crib {cards}").format(cards=model.game.view.crib_size)))
    left = model.game.time_left_now(now)
    if left is not None and model.game.view.awaiting:
        parts.append(("class:status.error" if left < 10 else "class:status", f" · ⏱ {left:.0f}s"))
    return parts


def log_rule_fragments(model: ViewModel, width: int) -> render.Fragments:
    """The rule above the table's log; while scrolled back, it says how far and how to return."""
    if not model.game.log_scroll:
        return [("class:dim", "─" * width)]
    newer = model.game.log_scroll
    note = " " + ngettext("↓ {n} newer line · PgDn / End return",
                          "↓ {n} newer lines · PgDn / End return", newer).format(n=newer) + " "
    return [("class:dim", "──"), ("class:status", note), ("class:dim", "─" * max(0, width - len(note) - 2))]


def waiting_fragments(model: ViewModel) -> render.Fragments:
    """Before a game: the seats by the number that picks them, who is ready, who watches."""
    table = model.game.table or {}
    out: render.Fragments = []
    seats = table.get("seats", [])
    for entry in range(table.get("players", 0)):
        seat = seats[entry] if entry < len(seats) else None
        mine = " " + _("(you)") if entry == model.game.seat else ""
        out.append(("class:key", f"  {entry + 1} "))
        if seat is None:
            out.append(("class:dim", f" ·{_('free')}·\n"))
        else:
            ready = _("ready") if seat.get("ready") else _("not ready")
            kind = (_("computer, {level}").format(level=seat.get("level"))
                    if seat.get("kind") == "computer" else ready)
            if seat.get("kind") == "computer" and not seat.get("level"):
                kind = _("computer")
            away = "" if seat.get("connected", True) else ", " + _("away")
            if seat.get("bot"):  # a program that said so in its hello (issue 24)
                kind = _("bot, {what}").format(what=kind)
            elif seat.get("guest"):  # unrated, as the lobby row says
                kind = _("guest, {what}").format(what=kind)
            out.append(("class:label", f" {seat.get('name')}{mine}"))
            out.append(("class:dim", f"  ({kind}{away})\n"))
    watchers = list(table.get("spectators") or [])
    if watchers:
        out.append(("class:dim", "  " + _("watching: {names}").format(names=", ".join(watchers)) + "\n"))
    return out


class TableLayout:
    """The table screen's windows (module docstring); ``width`` and ``rows`` measure the
    screen, ``now`` is the clock a turn timer counts down by."""

    def __init__(self, model: ViewModel, width: Callable[[], int], rows: Callable[[], int],
                 now: Callable[[], float]) -> None:
        in_game = Condition(lambda: model.game.in_game or model.game.view.winner is not None)
        counting = Condition(lambda: model.game.deal_count is not None)
        board_height = lambda: max(1, len(model.game.view.scores))  # noqa: E731
        self.log_window = log_window(model.game.visible_log, width, rows)
        game = HSplit([
            Window(text(lambda: table_fragments(model, now(), width())), height=2),
            Window(text(lambda: render.hand_or_show_fragments(model, width())), height=4),
        ])
        # The count scrolls what does not fit (a marker says so).
        self.count_view = Scrolled(lambda columns: render.count_fragments(model, columns),
                                   lambda: model.game.deal_count)
        # (it has the room before the log under it: its rows are what the screen is for now)
        count = Window(self.count_view, height=Dimension(min=6, max=16, weight=10),
                       always_hide_cursor=True)
        self.container = HSplit([
            Window(text(lambda: render.board_fragments(model, width())), height=board_height),
            Window(height=1, char="─", style="class:dim"),
            ConditionalContainer(count, filter=counting),
            ConditionalContainer(game, filter=in_game & ~counting),
            ConditionalContainer(Window(text(lambda: waiting_fragments(model)),
                                        height=Dimension(min=2, max=6)), filter=~in_game & ~counting),
            # (while the count is up, it has the room: the prompt comes back with the game)
            ConditionalContainer(
                Window(text(lambda: render.status_fragments(model, width())), wrap_lines=True,
                       height=Dimension(min=2, max=4)), filter=~counting),
            Window(text(lambda: log_rule_fragments(model, width())), height=1),
            self.log_window,
        ])


__all__ = ["TableLayout", "table_fragments", "pile_fragments", "waiting_fragments",
           "log_rule_fragments"]
