"""The statistics screen of the terminal client: a person's figures per preset, their best
hands and their rating over time, drawn as a small bar chart of block characters.

Opened with ``i`` in the lobby (one's own) or on a name in the leaderboard (``Enter``);
``Esc`` goes back where it came from.  :class:`StatsView` asks the server (``stats``) and
keeps the answer; :func:`stats_fragments` draws it with the same table of figures text
mode prints (:mod:`noddy.protocol.stats_view`), the best hands with the cards' suits, and a
chart per rating family sized to the room left on the screen.  The records view
(:mod:`noddy.client.screens.records`) holds it beside its own screens, which share the
title, the keys line and the way back.
"""

from __future__ import annotations

import textwrap
from typing import Any

from noddy.protocol.i18n import N_, _, pgettext
from noddy.protocol.stats_view import NO_RATING, chart_rows, preset_line, rating_summary

from ..cards import cards_label
from ..model import LOBBY, ViewModel
from ..render.fragments import EDGE, Part, fit_words, join_parts

STATS = "stats"

Fragments = list[tuple[str, str]]

#: The chart's height in rows at most (it shrinks to what the screen has room for).
CHART_ROWS = 5


class StatsView:
    """Whose statistics are shown, the answer once it came, and the screen to go back to."""

    def __init__(self, model: ViewModel) -> None:
        self.model = model
        self.name = ""
        self.stats: dict[str, Any] | None = None   # None: asked for, not yet here
        self.came_from = LOBBY
        self._asked: int | None = None

    def open(self, name: str | None = None) -> None:
        """Ask for ``name``'s statistics (one's own when None) and show the screen."""
        self.model.session.clear_status()
        self.came_from = self.model.session.screen
        self.name = name or self.model.session.name
        self.stats = None
        self.model.session.screen = STATS
        self._asked = self.model.session.send("stats", **({"name": name} if name else {}))

    def handle(self, message: dict[str, Any]) -> bool:
        """The reply to our request (True: it was ours); an error shows as an empty answer,
        its words on the status line (the model shows them)."""
        if self._asked is None or message.get("id") != self._asked:
            return False
        self._asked = None
        if message.get("type") == "stats":
            self.stats = message
            self.name = str(message.get("name", self.name))
        else:
            self.stats = {"name": self.name, "presets": [], "ratings": [], "failed": True}
        return True


#: Where each column of the table of figures ends (:data:`noddy.protocol.stats_view.HEAD`:
#: preset, games, wins, win%, peg, hand, crib, given, taken): a narrow screen shows the
#: columns that fit whole, never a figure cut in two.
COLUMN_ENDS = (19, 25, 31, 38, 45, 52, 59, 68, 75)
#: What the heading says of the columns, with the column each is about (its end).
LEGEND = ((N_("points per deal"), 52), (N_("crib per crib held"), 59), (N_("skunks given/taken"), 75))


def head() -> str:
    """The heads of the table's columns in the reader's language, each within its column
    (:data:`COLUMN_ENDS`; the figures are :func:`noddy.protocol.stats_view.preset_line`'s)."""
    heads = [pgettext("statistics column", "preset"), pgettext("statistics column", "games"),
             pgettext("statistics column", "wins"), pgettext("statistics column", "win%"),
             pgettext("statistics column", "peg"), pgettext("statistics column", "hand"),
             pgettext("statistics column", "crib"), pgettext("statistics column", "given"),
             pgettext("statistics column", "taken")]
    out = f"{heads[0]:<{COLUMN_ENDS[0]}}"
    for word, start, end in zip(heads[1:], COLUMN_ENDS, COLUMN_ENDS[1:]):
        out += f"{word[:end - start - 1]:>{end - start}}"
    return out


def _columns(line: str, room: int) -> str:
    """The whole columns of a row of the table that fit ``room`` columns."""
    return line[:max(end for end in COLUMN_ENDS if end <= max(room, COLUMN_ENDS[0]))].rstrip()


def _shown_columns(room: int) -> int:
    return max(end for end in COLUMN_ENDS if end <= max(room, COLUMN_ENDS[0]))


def stats_fragments(view: StatsView, width: int, rows: int) -> Fragments:
    """The screen's body in ``rows`` rows of ``width`` columns (the last one left free,
    whole columns and whole words only: issue 33, item 8)."""
    room = width - 1 - EDGE
    legend: list[Part] = [(_("Statistics of {name}").format(name=view.name), "", 0)]
    legend += [(_(said), " · " if i else "   ", len(LEGEND) - i)
               for i, (said, end) in enumerate(LEGEND) if end <= _shown_columns(room)]
    out: Fragments = [("class:label", " " + join_parts(legend, room) + "\n")]
    stats = view.stats
    if stats is None:
        return out + [("class:dim", "   " + _("Asking the server…") + "\n")]
    presets = stats.get("presets") or []
    if not presets:
        why = (_("{name} could not be read.") if stats.get("failed")
               else _("{name} has no finished games yet."))
        return out + [("class:dim", "   " + why.format(name=view.name) + "\n")]
    out += [("class:dim", " " + _columns(head(), room) + "\n")]
    out += [("", " " + _columns(preset_line(entry), room) + "\n") for entry in presets]
    used = 2 + len(presets)
    best = [entry for entry in presets if entry.get("best_hand")]
    if best:
        out.append(("class:label", " " + _("Best hands") + "\n"))
        used += 1
        for entry in best:
            hand = entry["best_hand"]
            cards = hand["cards"]
            shown = cards_label(cards[:-1]) + " + " + cards_label(cards[-1:])
            out += [("class:dim", f"   {entry['preset']:<19}"), ("class:key", f"{hand['points']:>2}"),
                    ("", f"  {shown}"), ("class:dim", "  " + _("(game {game})").format(game=hand['game']) + "\n")]
            used += 1
    histories = stats.get("ratings") or []
    if not histories:  # a guest, or games none of which was rated: say so, not a blank
        out += [("class:dim", f" {line}\n") for line in textwrap.wrap(_(NO_RATING), width - 2)]
    if histories:
        left = rows - used - len(histories)  # each chart has a line above it
        height = max(1, min(CHART_ROWS, left // len(histories)))
        for history in histories:
            values = [point["rating"] for point in history["history"]]
            out.append(("class:label", " " + _summary(history, room) + "\n"))
            chart = chart_rows(values, width - 8, height)
            top, low = round(max(values[-(width - 8):])), round(min(values[-(width - 8):]))
            for i, line in enumerate(chart):
                label = str(low) if i == len(chart) - 1 else str(top) if i == 0 and top != low else ""
                out += [("class:dim", f" {label:>5} "), ("class:peg.mine", line + "\n")]
    return out


def _summary(history: dict[str, Any], room: int) -> str:
    """The rating's line above its chart, said shorter where the screen is narrow."""
    said = rating_summary(history)
    if len(said) <= room:
        return said
    values = [point["rating"] for point in history["history"]]
    return fit_words(_("{family} rating {rating} ({low}-{high}, {n} rated)").format(
        family=history['family'], rating=round(values[-1]), low=round(min(values)),
        high=round(max(values)), n=len(values)), room)


def keys(view: StatsView) -> list[tuple[str, str]]:
    back = N_("leaderboard") if view.came_from != LOBBY else N_("lobby")
    return [(N_("Esc"), back), ("q", N_("quit"))]
