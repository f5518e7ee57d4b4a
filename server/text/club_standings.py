"""A club night's standings as text mode shows them (``event N``): a table that fits the
reader's width (80 columns unless they said otherwise), its column heads in the reader's
language.  A name longer than its column is cut with ``~`` rather than the line wrapped,
since a wrapped row of a table no longer reads as a row.

Apart from :mod:`.club_text`, which words the rest of a club night, because laying out a
table of figures is a job of its own.
"""

from __future__ import annotations

from typing import Any

from noddy.protocol.i18n import _, pgettext

#: The fewest columns a name keeps in the standings before the line is let run over the
#: width: a name cut shorter than this no longer says who it is.
MIN_NAME_COLUMN = 8


def mark_word(mark: str) -> str:
    """An entrant's mark (bot, or a status code word) in the reader's language."""
    words = {"bot": pgettext("entrant", "bot"), "withdrawn": pgettext("entrant", "withdrawn"),
             "removed": pgettext("entrant", "removed")}
    return words.get(mark, mark)


def _grid(rows: list[dict[str, Any]]) -> list[list[str]]:
    """Each row's games won-lost against each entrant, in rank order (``x`` itself, ``.``
    not met), as the offline runner's cross-table (:func:`noddy.bots.crosstable.cross_table`)
    writes its cells."""
    cells = []
    for row in rows:
        line = []
        for other in rows:
            won, met = row["against"].get(other["name"], [0, 0])
            line.append("x" if other is row else f"{won}-{met - won}" if met else ".")
        cells.append(line)
    return cells


def standings_lines(standings: dict[str, Any], width: int) -> list[str]:
    """The standings as a table within ``width`` columns (see the module docstring): rank,
    name, each pairing's games won-lost against each entrant where the whole of it fits (the
    cross-table proper), games, wins, skunk wins, ACC points, spread, and the rating estimate
    with its 95 % interval as of the last round finished (``-`` before one has); a bot, a
    withdrawn or removed entrant is marked last."""
    rows = standings["rows"]
    rated = standings["rated_rounds"] > 0
    ratings = [f"{row['rating']:.0f}±{(row['high'] - row['low']) / 2:.0f}" if rated else "-" for row in rows]
    notes = [", ".join(mark_word(mark) for mark in ("bot" if row["kind"] == "bot" else "",
                                                     "" if row["status"] == "entered" else row["status"]) if mark)
             for row in rows]
    heads = [pgettext("standings", "games"), pgettext("standings", "wins"), pgettext("standings", "skunk"),
             pgettext("standings", "points"), pgettext("standings", "spread")]
    rating_head = pgettext("standings", "rating")
    widths = [max(len(head), least) for head, least in zip(heads, (5, 4, 5, 6, 6))]
    rating_width = max([len(rating_head)] + [len(text) for text in ratings])
    note_width = max([0] + [len(note) + 1 for note in notes])
    rest = "".join(f" {head:>{w}}" for head, w in zip(heads, widths)) + f" {rating_head:<{rating_width}}"
    rank_width = len(str(len(rows))) + 1
    fixed = rank_width + 1 + len(rest) + note_width
    name_head = pgettext("standings", "name")
    longest = max([len(name_head)] + [len(row["name"]) for row in rows])
    cells = _grid(rows)
    cell_width = max([3] + [len(cell) for line in cells for cell in line])
    if longest + fixed + len(rows) * (cell_width + 1) > width:  # the grid goes first, then names are cut
        cells, cell_width = [[] for row in rows], 0
    head = "".join(f" {number:>{cell_width}}" for number in range(1, len(cells[0]) + 1)) if cells else ""
    name_width = min(longest, max(MIN_NAME_COLUMN, width - fixed))
    when = (_("after round {round}").format(round=standings["rated_rounds"]) if standings["rated_rounds"]
            else _("no round over yet"))
    lines = [_("Standings, {when} (points: 2 a win, 3 a skunk win; ties: spread):").format(when=when),
             f"{'#':>{rank_width}} {name_head:<{name_width}}{head}{rest}".rstrip()]
    for row, rating, note, line_cells in zip(rows, ratings, notes, cells):
        name = row["name"] if len(row["name"]) <= name_width else row["name"][:name_width - 1] + "~"
        grid = "".join(f" {cell:>{cell_width}}" for cell in line_cells)
        figures = [f"{row['games']}", f"{row['wins']}", f"{row['skunk_wins']}", f"{row['points']}",
                   f"{row['spread']:+}"]
        line = (f"{row['rank']:>{rank_width}} {name:<{name_width}}{grid}"
                + "".join(f" {figure:>{w}}" for figure, w in zip(figures, widths)) + f" {rating:<{rating_width}}")
        lines.append((line + (f" {note}" if note else "")).rstrip())
    return lines
