"""The one-line bars around every screen: the title at the top, the status line and the
key hints at the bottom.

They are drawn on every screen (lobby, table, records) and each depends on where the
player is rather than on what a panel shows, so they live together, apart from the panels.
"""

from __future__ import annotations

from typing import Any

from noddy.protocol.i18n import N_, _

from ..model import ViewModel
from ..screens.lobby import free_seats
from ..screens.table import match_sides
from ..session import CONNECTING, LOBBY
from .fragments import EDGE, Fragments, Part, join_parts, plain, wrapped


#: The screen width the title is drawn for when none is given.
TITLE_WIDTH = 80

# The ranks of the title's parts (:func:`~noddy.client.render.fragments.join_parts`): on a
# narrow screen the address goes first, then whether the game is rated, the program's name,
# the deal, the "(guest)"; never the name, the table, the game, a match's score or the
# connection's state.
_ADDRESS, _RATED, _PROGRAM, _DEAL, _GUEST = 1, 2, 3, 4, 5


def title_bar(model: ViewModel, address: str, where: str | list[Part],
              width: int = TITLE_WIDTH) -> Fragments:
    """The top line, across the screen: who is where (red while the connection is down),
    whole parts left out, least important first, where ``width`` is too narrow for all:
    a title cut at the edge read "Table 1 · noddy to 31 · rate" (issue 33, item 8)."""
    style = "class:title" if model.session.connection == "online" else "class:title.offline"
    parts: list[Part] = [(" Noddy", "", _PROGRAM), (model.session.name, " · ", 0)]
    if model.session.registered is False:
        parts.append((_("(guest)"), " ", _GUEST))
    parts.append((address, " @ ", _ADDRESS))
    parts += [(where, " · ", 0)] if isinstance(where, str) else where
    line = join_parts(parts, width - EDGE)
    if not line.startswith(" "):  # " Noddy" left out: the space before the name takes a column
        line = " " + join_parts(parts, width - EDGE - 1)
    return [(style, line), (style, " " * 200)]


def match_text(table: dict[str, Any]) -> str:
    """The running match score for the title (table option ``match``): `` · match 1-0 to 3``;
    once won, who won it (short: 80 columns must keep it; the prompt line has the score)."""
    match = table.get("match")
    if not match:
        return ""
    winner = match.get("winner")
    if winner is not None:
        sides = match_sides(table)
        name = sides[winner] if 0 <= winner < len(sides) else ""
        name = name or _("side {side}").format(side=winner)
        return " · " + _("match: {name} won").format(name=name)  # (the score: below)
    points = "-".join(str(p) for p in match.get("points") or [])
    return " · " + _("match {points} to {to}").format(points=points, to=match.get("to"))


def title_fragments(model: ViewModel, address: str, width: int = TITLE_WIDTH) -> Fragments:
    """The title bar for the live screens: lobby or table (preset, target, deal, a match's
    score), and the connection's state, so a dropped link is visible at a glance."""
    where: list[Part]
    if model.session.screen == LOBBY or model.game.table_id is None:
        where = [(_("Lobby"), " · ", 0)]
        if model.lobby.people_only:
            where.append((_("people only"), " · ", 0))
    else:
        table = model.game.table or {}
        target = model.game.target  # the game's, or before it the table's (see Game.target)
        where = [(_("Table {table}").format(table=model.game.table_id), " · ", 0),
                 (str(table.get('preset', model.game.view.preset or '')), " · ", 0)]
        if target:
            where.append((_("to {target}").format(target=target), " ", 0))
        match = match_text(table)
        if match:
            where.append((match.removeprefix(" · "), " · ", 0))
        if model.game.view.deal:
            where.append((_("deal {deal}").format(deal=model.game.view.deal), " · ", _DEAL))
        ended = model.game.game_rating if model.game.view.winner is not None else None  # (that game's)
        rating = ended or table
        if isinstance(rating.get("rated"), bool):
            where.append((_("rated") if rating["rated"] else _("unrated"), " · ", _RATED))
    if model.session.connection in ("reconnecting", "offline") and model.session.screen == CONNECTING:
        return title_bar(model, address, where + [(_("not connected"), " · ", 0)], width)
    state = CONNECTION_STATES.get(model.session.connection, "")
    state = _(state) if state else ""
    return title_bar(model, address, where + ([(state, " · ", 0)] if state else []), width)


#: The connection's state as the title says it (said with ``_()``; online: nothing).
CONNECTION_STATES = {"connecting": N_("connecting…"),
                     "reconnecting": N_("connection lost, reconnecting…"),
                     "offline": N_("offline")}


def status_line(model: ViewModel, idle: Fragments, width: int | None = None) -> Fragments:
    """The model's status message (red when it is an error), or ``idle`` when there is none."""
    if not model.session.status:
        return idle
    return [("class:status.error" if model.session.status_is_error else "class:status",
             wrapped(model.session.status, width))]


def status_fragments(model: ViewModel, width: int | None = None) -> Fragments:
    """At a table: what the player is asked to do, then any status message under it."""
    return [("class:prompt", wrapped(model.prompt(), width) + "\n")] + status_line(model, [], width)


def status_fragments_lobby(model: ViewModel, width: int | None = None) -> Fragments:
    """In the lobby: a lost connection first, else the status message, else where we are
    connected (the lobby has no prompt to show)."""
    if model.session.connection in ("reconnecting", "offline") and not model.session.status:
        return [("class:status.error", wrapped(model.session.connection_words(), width))]
    return status_line(model, [("class:dim", " " + (model.session.connection_detail or ""))], width)


def keys_fragments(model: ViewModel, width: int = 80, scrolling: bool = False,
                   answering: bool = False) -> Fragments:
    """The bottom line: only the keys that do something where the player is, as many as fit
    ``width`` columns (see :func:`fit_keys`); ``scrolling``: the coach's box or the count has
    more rows than it shows, and the arrows scroll it; ``answering``: a challenge or an
    invitation waits, and in the lobby a and d answer it (a no longer registers)."""
    scroll = [("↑↓ PgUp PgDn", _("scroll")), (_("other keys"), _("close it"))] if scrolling else []
    if model.session.name_prompt is not None:
        keys = [("↵", _("use this name")), ("Ctrl-Q", _("quit"))]
    elif model.lobby.password_prompt is not None:
        keys = [("↵", _("send")), ("Esc", _("cancel"))]
    elif model.session.connection in ("reconnecting", "offline"):
        keys = [("r", _("retry now")), ("?", _("help")), ("q", _("quit"))]
    elif model.session.screen == CONNECTING:
        keys = [("?", _("help")), ("q", _("quit"))]
    elif model.coach.panel is not None:
        keys = (scroll or [(_("any key"), _("closes the coach's box"))]) + [("Ctrl-Q", _("quit"))]
    elif model.game.deal_count is not None and model.session.screen != LOBBY:
        keys = (scroll or [(_("any key"), _("closes the count"))]) + [("Ctrl-Q", _("quit"))]
    elif model.session.screen == LOBBY and model.new_table.form is not None:
        if model.new_table.form.on_text:
            keys = [("↑↓", _("line")), (_("type"), _("password")), ("⌫", _("delete")), ("↵", _("create")),
                    ("Esc", _("back"))]
        else:
            keys = [("↑↓", _("line")), ("←→", _("change")), ("↵", _("create")), ("Esc", _("back")),
                    ("?", _("help"))]
    elif model.session.screen == LOBBY:
        keys = [("n", _("new")), ("↵", _("sit")), ("w", _("watch")), ("o", _("who")), ("m", _("my games")),
                ("e", _("clubs")), ("b", _("ratings")), ("i", _("stats")), ("c", _("chat")), ("?", _("help")),
                ("q", _("quit"))]
        if answering:  # the status line may since say something else: the keys still tell
            keys[:0] = [("a", _("accept")), ("d", _("decline"))]
        elif model.session.registered is False:  # a guest: how to keep the name (c chat, i stats give way first)
            keys.insert(7, ("a", _("register")))
    elif model.table_screen.seats.picking == "remove":
        keys = [("1-4", _("that seat's computer")), ("Esc", _("none"))]
    elif model.game.view.winner is not None:
        match = (model.game.table or {}).get("match")  # what r starts: as the prompt says it
        again = (_("play again") if not match else _("new match") if match.get("winner") is not None
                 else _("game {game}").format(game=match.get("game", 0) + 1))
        keys = ([("r", again)] if model.game.seat is not None else []) + [
            ("l", _("leave")), ("PgUp", _("log")), ("c", _("chat")), ("?", _("help")), ("q", _("quit"))]
    elif model.table_screen.seats.at_event_board():  # the server seats and starts it (issue 35)
        keys = [("l", _("leave")), ("c", _("chat")), ("?", _("help")), ("q", _("quit"))]
    elif model.table_screen.seats.seats_open and (not model.game.in_game or model.game.seat is None):
        seats = f"1-{len((model.game.table or {}).get('seats', [])) or 4}"
        if model.game.seat is None:
            keys = [(seats, _("sit there")), ("s", _("first free seat")), ("l", _("leave")), ("c", _("chat")),
                    ("?", _("help")), ("q", _("quit"))]
        else:
            computers = []
            if model.game.table is not None and free_seats(model.game.table):
                computers.append(("a", _("add computer")))
            if model.table_screen.seats.computer_seats():
                computers.append(("x", _("remove computer")))
            keys = [(seats, _("seat")), *computers, ("v", _("level")), ("s", _("stand")),
                    ("r", _("ready")), ("l", _("leave")), ("c", _("chat")), ("?", _("help"))]
    elif model.game.seat is None:
        keys = [("l", _("leave")), ("PgUp", _("log")), ("c", _("chat")), ("?", _("help")), ("q", _("quit"))]
    elif model.hand_count.active:
        keys = model.hand_count.keys() + [("PgUp", _("log")), ("c", _("chat")), ("?", _("help"))]
    else:
        cards = len(model.game.hand)
        keys = [("1" if cards == 1 else f"1-{cards}", _("card"))] if cards else []
        keys += [("g", _("go"))] if model.game.go_is_legal else []  # only when no card can be played
        keys += [("h", _("hint"))] if model.coach.can_hint else []
        keys += [("v", _("review"))] if model.coach.notes is not None else []
        away = model.table_screen.away_choice()
        if away:
            keys.append(("w", (_("computer for {name}") if away[2] else _("wait for {name}")).format(
                name=away[1])))
        keys += [("l", _("resign"))] + ([("m", _("give up match"))] if model.table_screen.in_match() else [])
        keys += [("PgUp", _("log")), ("c", _("chat")), ("?", _("help")), ("q", _("quit"))]
    return key_hints(fit_keys(keys, width))


#: The hints left out first when the line is too narrow for all (the help lists every key).
#: (The hints are said with ``_()`` where they are compared: a screen's keys come in its
#: reader's language.)
FIRST_TO_GO = (("v", N_("level")), ("PgUp", N_("log")), ("c", N_("chat")), ("i", N_("stats")),
               ("e", N_("clubs")), ("b", N_("ratings")), ("m", N_("my games")), ("w", N_("watch")))
#: Never left out: the way to the help, and the ways back and out.
ALWAYS_SHOWN = ("?", "q", "Ctrl-Q", "Esc")


def fit_keys(keys: list[tuple[str, str]], width: int) -> list[tuple[str, str]]:
    """``keys`` less the hints that do not fit ``width`` columns, so that none is cut in the
    middle ("? hel" on a 60-column terminal).  The first hint (what the screen is for) and
    the help and quit keys stay; the others go in the order of :data:`FIRST_TO_GO`, then
    from the right."""
    keys = list(keys)
    first_to_go = [(key, _(what)) for key, what in FIRST_TO_GO]
    while len(key_text(keys)) > width:
        droppable = [key for key in keys[1:] if key[0] not in ALWAYS_SHOWN]
        if not droppable:
            break
        keys.remove(next((key for key in first_to_go if key in droppable), droppable[-1]))
    return keys


def key_text(keys: list[tuple[str, str]]) -> str:
    """The key hints as plain text, to measure whether they fit the line."""
    return plain(key_hints(keys))


def key_hints(keys: list[tuple[str, str]]) -> Fragments:
    """The bottom line: each key, then what it does."""
    out: Fragments = []
    for key, what in keys:
        out += [("class:key", f" {key}"), ("class:dim", f" {what} ")]
    return out
