"""A ``stats`` message as lines a person reads: the table of figures per preset, the best
hands, and the rating history drawn with block characters.

Shared by text mode (:mod:`noddy.server.text.render`) and the terminal client's statistics
screen (:mod:`noddy.client.screens.stats`), as the narration is, so that both say the same
figures the same way; every line fits 80 columns.

>>> sparkline([1500, 1516, 1532, 1516], 10)
'▁▅█▅'
>>> chart_rows([0, 4, 8], 3, 2)
[' ▁█', '▁██']
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from .i18n import N_, _, pgettext
from .narration import sort_cards

#: Eighths of a character cell, from empty to full: the chart's resolution within a row.
BLOCKS = " ▁▂▃▄▅▆▇█"


def sparkline(values: Sequence[float], width: int) -> str:
    """The last ``width`` values as one row of blocks, lowest ▁ to highest █."""
    shown = list(values)[-width:] if width > 0 else []
    if not shown:
        return ""
    low, high = min(shown), max(shown)
    span = high - low
    return "".join(BLOCKS[1 + (round((v - low) / span * 7) if span else 3)] for v in shown)


def chart_rows(values: Sequence[float], width: int, height: int) -> list[str]:
    """The last ``width`` values as a bar chart ``height`` rows high (top row first), each
    column's bar in eighths of a cell: the lowest value is one eighth, the highest full."""
    shown = list(values)[-width:] if width > 0 else []
    if not shown or height < 1:
        return []
    low, high = min(shown), max(shown)
    span, levels = high - low, height * 8
    filled = [1 + (round((v - low) / span * (levels - 1)) if span else levels // 2 - 1) for v in shown]
    rows = []
    for row in range(height - 1, -1, -1):  # the top row first
        base = row * 8
        rows.append("".join(BLOCKS[max(0, min(8, f - base))] for f in filled))
    return rows


def _figure(value: float | None, places: int = 2) -> str:
    return "-" if value is None else f"{value:.{places}f}"


#: The column heads of the table of figures (each a word short enough for its column in
#: every language: one space less than the column's width) and how wide each column is.
COLUMNS: tuple[tuple[Callable[[], str], int], ...] = (
    (lambda: pgettext("stats column", "preset"), -19), (lambda: pgettext("stats column", "games"), 6),
    (lambda: pgettext("stats column", "wins"), 6), (lambda: pgettext("stats column", "win%"), 7),
    (lambda: pgettext("stats column", "peg"), 7), (lambda: pgettext("stats column", "hand"), 7),
    (lambda: pgettext("stats column", "crib"), 7), (lambda: pgettext("stats column", "given"), 9),
    (lambda: pgettext("stats column", "taken"), 7))


def head() -> str:
    """The column heads in the current language (:data:`HEAD` in English)."""
    return "".join(f"{word():<{-width}}" if width < 0 else f"{word():>{width}}"
                   for word, width in COLUMNS)


#: The column heads in English (a client says them with :func:`head`, in its reader's language).
HEAD = (f"{'preset':<19}{'games':>6}{'wins':>6}{'win%':>7}{'peg':>7}{'hand':>7}{'crib':>7}"
        f"{'given':>9}{'taken':>7}")


def preset_line(entry: dict[str, Any]) -> str:
    """One preset's row: games, wins, win rate, points per deal from pegging and the hand,
    per crib held from the crib, skunks given and taken (doubles in brackets)."""
    per = entry["per_deal"]

    def skunks(count: int, doubles: int) -> str:
        return f"{count}({doubles})" if doubles else str(count)
    return (f"{entry['preset'][:18]:<19}{entry['games']:>6}{entry['wins']:>6}"
            f"{_figure(entry['win_rate'] * 100, 1):>7}{_figure(per['pegging']):>7}"
            f"{_figure(per['hand']):>7}{_figure(per['crib']):>7}"
            f"{skunks(entry['skunks_given'], entry['double_skunks_given']):>9}"
            f"{skunks(entry['skunks_taken'], entry['double_skunks_taken']):>7}")


def best_hand_line(entry: dict[str, Any]) -> str | None:
    """``cribbage: 29 with 5C 5H 5S JD + 5D (game 17)``, or None if no hand was shown: the hand
    sorted as players hold it (it is stored as dealt), the turn-up last."""
    best = entry.get("best_hand")
    if not best:
        return None
    cards = best["cards"]
    shown = " ".join(sort_cards(cards[:-1])) + " + " + cards[-1] if len(cards) > 1 else " ".join(cards)
    return _("{preset}: {points} with {cards} (game {game})").format(
        preset=entry["preset"], points=best["points"], cards=shown, game=best["game"])


def rating_summary(history: dict[str, Any]) -> str:
    """``cribbage rating 1516 (1484-1532 over the last 12 rated games)``; after one rated
    game, or when the rating did not move, said plainly (issue 33: not ``1516-1516 over the
    last 1 rated game``).

    >>> rating_summary({"family": "noddy", "history": [{"rating": 1516.2}]})
    'noddy rating 1516 (after 1 rated game)'
    """
    values = [point["rating"] for point in history["history"]]
    count, low, high = len(values), round(min(values)), round(max(values))
    family, now = history["family"], round(values[-1])
    if count == 1:
        return _("{family} rating {rating} (after 1 rated game)").format(family=family, rating=now)
    if low == high:
        return _("{family} rating {rating} (the same over the last {n} rated games)").format(
            family=family, rating=now, n=count)
    return _("{family} rating {rating} ({low}-{high} over the last {n} rated games)").format(
        family=family, rating=now, low=low, high=high, n=count)


#: What stands where the rating chart would, when a person has no rated game.
NO_RATING = N_("No rating history: none of these games was rated.")  # (fits 80 columns in text mode)


def stats_lines(message: dict[str, Any], width: int = 80) -> list[str]:
    """The whole ``stats`` message as text-mode lines (the chart a one-row sparkline)."""
    presets = message["presets"]
    name, preset = message["name"], message.get("preset")
    if not presets:
        if preset:
            return [_("No finished games for {name} ({preset}) yet.").format(name=name, preset=preset)]
        return [_("No finished games for {name} yet.").format(name=name)]
    lines = [_("Statistics of {name} ({preset})").format(name=name, preset=preset) if preset
             else _("Statistics of {name}").format(name=name),
             _("Points per deal (crib: per crib held); skunks given/taken (doubles in brackets)"),
             head(), *[preset_line(entry) for entry in presets]]
    best = [line for line in map(best_hand_line, presets) if line]
    if best:
        label = _("Best hands: ")
        lines.append(label + best[0])
        lines += [" " * len(label) + line for line in best[1:]]
    for history in message["ratings"]:
        lines.append(rating_summary(history) + ":")
        lines.append("  " + sparkline([p["rating"] for p in history["history"]], width - 4))
    if not message["ratings"]:
        lines.append(_(NO_RATING))
    return lines
