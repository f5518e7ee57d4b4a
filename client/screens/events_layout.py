"""The club nights' screens drawn: the list of events, one event (its definition, entrants,
standings cross-table and current round's boards), and the announce form.

Every row is laid out in whole columns (:func:`columns`): on a narrow screen the least
important columns go whole (the rating's interval first, then skunk wins, games, spread,
the rating), and a row still too long is cut between words, never inside one (issue 33,
item 8).  :func:`build_layout` puts the screens up for :mod:`noddy.client.layout`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from prompt_toolkit.data_structures import Point
from prompt_toolkit.filters import Condition
from prompt_toolkit.layout import ConditionalContainer, HSplit, Window
from prompt_toolkit.layout.containers import Container
from prompt_toolkit.layout.controls import FormattedTextControl

from noddy.protocol.i18n import N_, _, ngettext

from .. import render
from .events import EVENT, EVENTS, EventsView
from .form_layout import VALUE_COLUMN
from .windows import said_keys, status_height

Fragments = list[tuple[str, str]]
#: A cell: its text, its rank (the order columns are left out in: 1 first; 0 never), and
#: whether it is a figure (right-aligned).
Cell = tuple[str, int, bool]
#: The gap between two columns.
GAP = "  "


def columns(rows: list[list[Cell]], cells: int) -> list[str]:
    """``rows`` (each the same columns) laid out in line within ``cells`` columns: the fewest
    columns left out whole, lowest rank first, that let every row fit; else cut between words."""
    if not rows:
        return []
    ranks = sorted({rank for row in rows for _, rank, _ in row if rank > 0})
    for dropped in range(len(ranks) + 1):
        gone = set(ranks[:dropped])
        kept = [i for i, (_, rank, _) in enumerate(rows[0]) if rank not in gone]
        widths = {i: max(len(row[i][0]) for row in rows) for i in kept}
        lines = [GAP.join(row[i][0].rjust(widths[i]) if row[i][2] else row[i][0].ljust(widths[i])
                          for i in kept).rstrip() for row in rows]
        if all(len(line) <= cells for line in lines):
            return lines
    return [render.fit_words(line, cells) for line in lines]


# == the list ================================================================================
#: The columns a list row gives the columns beside the title (number, state, round,
#: entrants, private, and their gaps): the title takes what is left, cut between words.
LIST_OTHERS = 47
#: The least room a title is given in the list.
LIST_TITLE_MIN = 12
#: Where an event's second line (its definition) starts, under its title.
LIST_INDENT = "      "


def event_cells(summary: dict[str, Any], title_room: int = 40) -> list[Cell]:
    """An event's first line in the list: number, title, state, round, entrants, private."""
    played = (_("round {round}/{rounds}").format(round=summary.get('round'), rounds=summary.get('rounds'))
              if summary.get("round") else _("not begun"))
    title = render.fit_words(str(summary.get("title", "")), title_room)
    return [(f"#{summary.get('id')}", 0, False), (title, 0, False),
            (state_word(summary.get("state")), 0, False), (played, 2, False),
            (_("{n} entered").format(n=summary.get('entrants', 0)), 1, False),
            (_("private") if summary.get("private") else "", 0, False)]


#: An event's state, an entrant's and a board's, as the screen says them (the wire's word
#: for one the client does not know).
STATE_WORDS = {"announced": N_("announced"), "running": N_("running"), "paused": N_("paused"),
               "finished": N_("finished"), "ended": N_("ended"), "entered": N_("entered"),
               "withdrawn": N_("withdrawn"), "removed": N_("removed"), "pending": N_("pending"),
               "seating": N_("seating"), "playing": N_("playing"), "done": N_("done"), "void": N_("void")}


def state_word(state: Any) -> str:
    """A state the server names, in the reader's language."""
    return _(STATE_WORDS[state]) if state in STATE_WORDS else str(state if state is not None else "")


def format_words(summary: dict[str, Any]) -> str:
    """"Swiss, 3 rounds" or "round robin"."""
    if summary.get("format") == "swiss":
        return ngettext("Swiss, {n} round", "Swiss, {n} rounds", int(summary.get("rounds") or 0)).format(
            n=summary.get('rounds'))
    return _("round robin")


def games_words(summary: dict[str, Any]) -> str:
    games = int(summary.get("games") or 1)
    return ngettext("{n} game a pairing", "{n} games a pairing", games).format(n=games)


def event_second_line(summary: dict[str, Any], room: int) -> str:
    """An event's second line in the list: its format, preset, games, deals, rating, director."""
    parts: list[render.Part] = [
        (format_words(summary), "", 0), (str(summary.get("preset", "")), " · ", 0),
        (games_words(summary), " · ", 3),
        (_("duplicate deals") if summary.get("duplicate") else _("own deals"), " · ", 2),
        (_("rated") if summary.get("rated") else _("unrated"), " · ", 4),
        (_("director {name}").format(name=summary.get('director')), " · ", 1)]
    return render.join_parts(parts, room)


def list_fragments(view: EventsView, width: int) -> Fragments:
    head = " " + _("Club nights")
    out: Fragments = [("class:label", head),
                      ("class:dim", render.join_parts([("", "", 0), (_("Enter opens one"), "   ", 2),
                                                        (_("n announces one"), " · ", 1)],
                                                       width - len(head) - 1 - render.EDGE) + "\n")]
    if view.events is None:
        return out + [("class:dim", "   " + _("Asking the server…") + "\n")]
    if not view.events:
        return out + [("class:dim", "   " + _("No club night yet: n announces one.") + "\n")]
    room = width - render.CURSOR_COLUMNS - render.EDGE
    title_room = max(LIST_TITLE_MIN, room - LIST_OTHERS)
    firsts = columns([event_cells(e, title_room) for e in view.events], room)
    for i, (event, first) in enumerate(zip(view.events, firsts)):
        chosen = i == view.cursor
        out += [("class:selected", f" ▶ {first}") if chosen else ("", f"   {first}"), ("", "\n"),
                ("class:dim", LIST_INDENT + event_second_line(event, width - len(LIST_INDENT) - render.EDGE)
                 + "\n")]
    return out


# == one event ===============================================================================
def definition_parts(event: dict[str, Any]) -> list[render.Part]:
    parts: list[render.Part] = [
        (format_words(event), "", 5),
        # The duplicate deals outlast the games a pairing: they are what sets the event apart,
        # and say so once it is running too (with its round, the line is long at 80 columns).
        (str(event.get("preset")), " · ", 4), (games_words(event), ", ", 1),
        (_("duplicate deals") if event.get("duplicate") else "", ", ", 2), (state_word(event.get("state")), " · ", 0)]
    if event.get("round"):
        parts.append((_("round {round}/{rounds}").format(round=event.get('round'), rounds=event.get('rounds')),
                      ", ", 0))
    parts += [(_("private") if event.get("private") else "", " · ", 0),
              (_("rated") if event.get("rated") else "", " · ", 3)]
    return [p for p in parts if p[0]]


def when_words(event: dict[str, Any]) -> str:
    director = _("director {name}").format(name=event.get('director'))
    if event.get("state") == "announced":
        starts = event.get("starts_in")
        when = (_("starts when the director says") if starts is None
                else _("starts in {minutes} min").format(minutes=round(starts / 60)))
        return f"{director}; {when}"
    if event.get("next_round_in") is not None:
        return f"{director}; " + _("next round in {seconds} s").format(seconds=round(event['next_round_in']))
    if event.get("reason"):
        return f"{director}; {event['reason']}"
    return director


def entrant_words(entrant: dict[str, Any]) -> str:
    marks = [m for m, on in ((_("bot"), entrant.get("kind") == "bot"),
                             (state_word(entrant.get("status")), entrant.get("status") != "entered")) if on]
    return str(entrant.get("name")) + (f" ({', '.join(marks)})" if marks else "")


def standing_cells(row: dict[str, Any]) -> list[Cell]:
    name = str(row.get("name")) + (_(" (bot)") if row.get("kind") == "bot" else "")
    if row.get("status") not in (None, "entered"):
        name += f" ({state_word(row['status'])})"
    spread = int(row.get("spread") or 0)
    return [(str(row.get("rank")), 0, True), (name, 0, False), (str(row.get("games")), 3, True),
            (str(row.get("wins")), 0, True), (str(row.get("skunk_wins")), 2, True),
            (str(row.get("points")), 0, True), (f"{spread:+d}" if spread else "0", 4, True),
            (f"{round(row.get('rating') or 0)}", 5, True),
            (f"({round(row.get('low') or 0)}-{round(row.get('high') or 0)})", 1, False)]


#: The cross-table's heading, column for column with :func:`standing_cells`.
STANDINGS_HEAD: list[Cell] = [("#", 0, True), (N_("name"), 0, False), (N_("games"), 3, True), (N_("wins"), 0, True),
                              (N_("skunk"), 2, True), (N_("pts"), 0, True), (N_("spread"), 4, True),
                              (N_("rating"), 5, True), (N_("interval"), 1, False)]


def standings_head() -> list[Cell]:
    """:data:`STANDINGS_HEAD` in the reader's language."""
    return [(_(word) if word != "#" else word, rank, figure) for word, rank, figure in STANDINGS_HEAD]


def board_cells(board: dict[str, Any]) -> list[Cell]:
    """A board of the round: its number, its players, the games won each, its table, its
    state (left out whole first where the screen is narrow), a forfeit."""
    a, b = str(board.get("a")), str(board.get("b"))
    games = board.get("games") or []
    won = (sum(1 for g in games if g.get("winner") == a), sum(1 for g in games if g.get("winner") == b))
    table = _("table {table}").format(table=board['table']) if board.get("table") is not None else _("no table")
    forfeit = (_("forfeit by {names}").format(names=', '.join(board.get('forfeit_by') or []) or _("both"))
               if board.get("forfeit") else "")
    return [(_("board {board}:").format(board=board.get('board')), 0, False),
            (_("{a} v {b}").format(a=a, b=b), 0, False),
            (f"{won[0]}-{won[1]}", 0, False), (table, 0, False), (state_word(board.get("status")), 1, False),
            (forfeit, 0, False)]


def event_fragments(view: EventsView, width: int) -> Fragments:
    room = width - 1 - render.EDGE
    event = view.event
    if event is None:
        return [("class:dim", "   " + _("Asking the server…") + "\n")]
    # The title on a line of its own: a long one cut between words, never the state after it.
    out: Fragments = [("class:label", " " + render.fit_words(f"#{event.get('id')} {event.get('title')}", room) + "\n"),
                      ("", " " + render.join_parts(definition_parts(event), room) + "\n"),
                      ("class:dim", " " + render.fit_words(when_words(event), room) + "\n")]
    entrants = event.get("entrants") or []
    chosen = view.chosen_entrant() if view.is_director() else None
    heading = " " + _("Entrants:")
    line: Fragments = [("class:dim", heading)]
    used = len(heading)
    if not entrants:
        line.append(("class:dim", " " + _("none yet (j joins)")))
    for entrant in entrants:
        words = " " + entrant_words(entrant)
        if used + len(words) + 1 > room:  # a new line rather than a name cut at the edge
            line.append(("", "\n  "))
            used = 2
        line.append(("class:selected" if entrant.get("name") == chosen else "", words))
        used += len(words) + 1
        if entrant is not entrants[-1]:
            line.append(("", ","))
    out += line + [("", "\n")]
    current = view.current_round()
    if current is not None:
        bye = " · " + _("bye: {name}").format(name=current['bye']) if current.get("bye") else ""
        over = " " + _("(over)") if current.get("over") else ""
        said = " " + _("Round {round}").format(round=current.get('round')) + over + bye
        out.append(("class:label", render.fit_words(said, room) + "\n"))
        laid = columns([board_cells(b) for b in view.boards()], width - render.CURSOR_COLUMNS - render.EDGE)
        out += render.cursor_list(laid, view.board_cursor, width)
        if current.get("over") or not view.boards():
            out.append(("", "\n"))
    rows = (event.get("standings") or {}).get("rows") or []
    if rows:
        laid = columns([standings_head()] + [standing_cells(r) for r in rows], room)
        out.append(("class:label", " " + _("Standings") + "\n"))
        out.append(("class:dim", " " + laid[0] + "\n"))
        out += [("", " " + text + "\n") for text in laid[1:]]
    return out


# == the announce form =======================================================================
def form_fragments(view: EventsView, width: int) -> Fragments:
    form = view.announce.form
    if form is None:
        return []
    head = " " + _("Announce a club night") + "  "
    hints: list[render.Part] = [("↑↓ " + _("line"), "", 0), ("←→ " + _("change"), "  ", 3),
                                (_("Enter") + " " + _("announce"), "  ", 2), (_("Esc") + " " + _("back"), "  ", 1)]
    out: Fragments = [("class:label", head),
                      ("class:dim", render.join_parts(hints, width - len(head) - render.EDGE) + "\n\n")]
    room = width - VALUE_COLUMN - render.EDGE
    texts = form.text_rows()
    for i, (label, value) in enumerate(form.rows()):
        current = i == form.row
        if i in texts and current:
            shown = str(form.rows_[i].value) + "▏"
        elif label:
            shown = "‹ " + render.fit_words(value, room - 4) + " ›" if i not in texts else value
        else:
            shown = value
        out += [("class:selected" if current else "", f"  {label:<22} {shown}"), ("", "\n")]
    return out


# == the frame ===============================================================================
def title_where(view: EventsView) -> str:
    if view.model.session.screen == EVENT and view.event is not None:
        return _("Club night {event}").format(event=view.event.get('id'))
    return _("Club nights")


def keys_fragments(view: EventsView, width: int = 80) -> Fragments:
    """The key hints, whole ones left out where the screen is narrow (never Esc)."""
    if view.model.lobby.password_prompt is not None:  # the event's password is asked
        keys = [("↵", N_("send")), (N_("Esc"), N_("cancel"))]
    elif view.announce.form is not None:
        keys = [("↵", N_("announce")), (N_("Esc"), N_("back"))]
    elif view.model.session.screen == EVENTS:
        keys = [("↑↓", N_("choose")), ("↵", N_("open")), ("n", N_("announce")), ("r", N_("refresh")),
                (N_("Esc"), N_("lobby"))]
    else:
        keys = [("↑↓", N_("board")), ("↵", N_("watch")), ("j", N_("join")), ("w", N_("withdraw"))]
        if view.is_director():
            keys += [("s", N_("start")), ("p", N_("pause/resume")), ("←→", N_("entrant")), ("x", N_("remove")),
                     ("E", N_("end")), ("+-", N_("round pause"))]
        keys += [("?", N_("help")), (N_("Esc"), N_("list"))]
    return render.key_hints(render.fit_keys(said_keys(keys), width - render.EDGE))


def _body(view: EventsView, width: int) -> Fragments:
    if view.announce.form is not None:
        return form_fragments(view, width)
    if view.model.session.screen == EVENTS:
        return list_fragments(view, width)
    return event_fragments(view, width)


def build_layout(view: EventsView, width: Callable[[], int]) -> Container:
    return ConditionalContainer(HSplit([
        Window(FormattedTextControl(lambda: _body(view, width()), focusable=False,
                                    get_cursor_position=lambda: Point(0, 0)),
               always_hide_cursor=True),
        Window(FormattedTextControl(lambda: render.status_line(view.model, [("", "")], width()),
                                    focusable=False), height=status_height, wrap_lines=True),
    ]), filter=Condition(lambda: view.active))


__all__ = ["build_layout", "keys_fragments", "title_where", "list_fragments", "event_fragments",
           "form_fragments", "columns"]
