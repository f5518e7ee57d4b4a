"""Drawing: the view model turned into prompt_toolkit formatted text, one function per panel.

Every function here takes the :class:`~noddy.client.model.ViewModel` (and the width it may
use) and returns a list of ``(style, text)`` fragments; none keeps state, so the
application simply calls them again on every redraw (and on every resize).  The style
names are defined once, in :data:`STYLE`.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Collection, Iterable
from typing import Any

from prompt_toolkit.styles import Style

from .cards import card_label, is_red, rank_label, suit_symbol
from .lines import LogLine, Peg
from .lobby import free_seats
from .model import ViewModel
from .session import CONNECTING, LOBBY

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


def card_fragments(card: str) -> Fragments:
    """A card as inline coloured text: ``10♥`` in red, ``5♠`` in black."""
    return [("class:card.red" if is_red(card) else "class:card.black", card_label(card))]


def cards_inline(cards: Iterable[str], dim: Collection[str] = ()) -> Fragments:
    """Cards side by side, a space apart; those in ``dim`` are greyed (a replay's played cards)."""
    out: Fragments = []
    for i, card in enumerate(cards):
        if i:
            out.append(("", " "))
        out += [("class:dim", card_label(card))] if card in dim else card_fragments(card)
    return out


def _face_style(card: str, kind: str) -> str:
    red = ".red" if is_red(card) else ""
    if kind == "playable":
        return f"class:cardface.playable{red}"
    if kind == "selected":
        return f"class:cardface.selected{red}"
    if kind == "dim":
        return "class:cardface.dim"
    return f"class:cardface{red}"


def hand_fragments(model: ViewModel) -> Fragments:
    """The player's hand as small cards, three lines high, with the key number under each.

    Playable cards are lit, the others dimmed while it is the player's turn; cards picked
    for the crib are shown lifted (green); the cursor is the reversed number.
    """
    hand = model.hand
    if not hand:
        if model.seat is None:
            return [("class:dim", "  (watching: no hand)\n\n\n")]
        return [("class:dim", "  (no cards)\n\n\n")]
    playable = model.playable()
    discarding = model.discard_size > 0
    kinds = []
    for card in hand:
        if card in model.selected:
            kinds.append("selected")
        elif discarding:
            kinds.append("playable")
        elif model.can_act:
            kinds.append("playable" if card in playable else "dim")
        else:
            kinds.append("plain")
    top: Fragments = [("", "  ")]
    mid: Fragments = [("", "  ")]
    bottom: Fragments = [("", "  ")]
    keys: Fragments = [("", "  ")]
    for i, (card, kind) in enumerate(zip(hand, kinds)):
        style = _face_style(card, kind)
        rank = rank_label(card)
        top += [(style, f"{rank:<3}  "), ("", " ")]
        mid += [(style, f"  {suit_symbol(card)}  "), ("", " ")]
        bottom += [(style, f"  {rank:>3}"), ("", " ")]
        number = f"  {i + 1}   "
        if i == model.cursor and (model.can_act or discarding):
            keys += [("", " "), ("class:cursor", f"▲{i + 1}▲"), ("", "  ")]
        else:
            keys += [("class:key" if kind in ("playable", "selected") else "class:dim", number)]
    note = ""
    if discarding:
        note = f"   for the crib: {len(model.selected)}/{model.discard_size}"
    return top + [("", "\n")] + mid + [("class:dim", note), ("", "\n")] + bottom + [("", "\n")] + keys


def _track(peg: Peg, width: int) -> Fragments:
    """One track of holes from 0 to the target: the back peg ○, the front peg ●, the
    points just made drawn between them."""
    per_hole = max(1, math.ceil(peg.target / max(1, width)))
    holes = math.ceil(peg.target / per_hole)
    front = min(holes, math.ceil(peg.front / per_hole))
    back = min(front, math.ceil(peg.back / per_hole))
    out: Fragments = []
    front_style = "class:peg.mine" if peg.mine else "class:peg.front"
    out.append((front_style if front == 0 else ("class:peg.back" if back == 0 else "class:peg.track"),
                "●" if front == 0 else ("○" if back == 0 and front != 0 else "▕")))
    for hole in range(1, holes + 1):
        if hole == front:
            out.append((front_style, "●"))
        elif hole == back and back != 0:
            out.append(("class:peg.back", "○"))
        elif back < hole < front:
            out.append(("class:peg.trail", "━"))
        elif hole < back:
            out.append(("class:peg.track", "─"))
        else:
            out.append(("class:peg.track", "┊" if hole % (5 if holes <= 61 else 10) == 0 else "·"))
    out.append(("class:peg.track", "▏"))
    return out


def board_fragments(model: ViewModel, width: int) -> Fragments:
    """The peg board: a track per player or team, the figures beside it."""
    pegs = model.pegs()
    if not pegs:
        return [("class:dim", " The peg board appears when the game begins.\n")]
    return pegs_fragments(pegs, width)


def compact(name: str) -> str:
    """A computer player's name made short where room is short: ``greedy cpu 2``."""
    return name.replace(" computer ", " cpu ")


def pegs_fragments(pegs: list[Peg], width: int) -> Fragments:
    """A track per peg, ``width`` columns wide with the label and figures (the replay's
    board too)."""
    labels = [p.label for p in pegs]
    widest = max(16, width * 2 // 5)
    if any(len(label) >= widest for label in labels):
        # "greedy computer 2 & greedy computer 4" would be cut where the seat number is.
        labels = [compact(label) for label in labels]
    label_width = min(widest, max(len(label) for label in labels) + 1)
    track_width = max(10, width - label_width - 14)
    out: Fragments = []
    for peg, label in zip(pegs, labels):
        label = label[:label_width - 1]
        style = "class:peg.mine" if peg.mine else "class:label"
        gained = peg.front - peg.back
        figure = f" {peg.front:>3}/{peg.target}"
        out += [(style, f" {label:<{label_width}}")] + _track(peg, track_width)
        out += [(style, figure)]
        if gained:
            out.append(("class:peg.trail", f" +{gained}"))
        out.append(("", "\n"))
    return out


def pile_fragments(model: ViewModel, width: int) -> Fragments:
    """The cards of the current count, each after a dim mark of who played it (``A:4♥``;
    see :meth:`ViewModel.seat_marks`).  When the pile is longer than ``width`` allows, its
    oldest cards give way to ``…``, so the line never wraps."""
    if not model.pile:
        return [("class:dim", "—")]
    marks = model.seat_marks()
    entries: list[Fragments] = []
    for seat, card in model.pile:
        mark = marks[seat] if 0 <= seat < len(marks) else "?"
        mine = seat == model.seat
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
    if model.turn_up:
        out += [("", "["), *card_fragments(model.turn_up), ("", "]")]
    else:
        out.append(("class:dim", "[  ]"))
    out += [("class:label", "   Count "), ("class:key", f"{model.count:>2}"), ("class:label", "   Pile ")]
    out += pile_fragments(model, width - len(plain(out)) - 1)
    out.append(("", "\n"))
    parts: Fragments = [("", " ")]
    marks = model.seat_marks()
    for seat in range(model.players):
        if seat == model.seat:
            continue
        size = model.hand_sizes[seat] if seat < len(model.hand_sizes) else 0
        name = model.seat_name(seat)
        if seat < len(marks) and marks[seat].isdigit():
            name = f"{marks[seat]}:{name}"     # the pile's marks are seat numbers: say whose
        if len(model.hand_sizes) > 2 and width < 100:
            name = compact(name)      # three other hands and their names share one line
        mark = "▶" if seat in model.awaiting else " "
        parts += [("class:key" if seat in model.awaiting else "", f"{mark}{name}"),
                  ("", " "), ("class:cardback", "▒" * size if size else ""),
                  ("class:dim", f" {size} " if size else " 0 ")]
    if model.dealer is not None:
        parts.append(("class:dim", f" · dealer {model.seat_name(model.dealer)}"))
    if model.crib_size:
        parts.append(("class:dim", f" · crib {model.crib_size}"))
    left = model.time_left_now(now)
    if left is not None and model.awaiting:
        parts.append(("class:status.error" if left < 10 else "class:status", f" · ⏱ {left:.0f}s"))
    return out + parts + [("", "\n")]


def wrapped(text: str, width: int | None) -> str:
    """`` text`` broken between words to lines of ``width`` (a status line is never cut: the
    window it is drawn in grows a line or two); as it is when ``width`` is None."""
    if width is None or len(text) + 1 < width:
        return " " + text
    return textwrap.fill(text, max(10, width - 1), initial_indent=" ", subsequent_indent=" ",
                         break_on_hyphens=False)


def status_line(model: ViewModel, idle: Fragments, width: int | None = None) -> Fragments:
    """The model's status message (red when it is an error), or ``idle`` when there is none."""
    if not model.status:
        return idle
    return [("class:status.error" if model.status_is_error else "class:status",
             wrapped(model.status, width))]


def status_fragments(model: ViewModel, width: int | None = None) -> Fragments:
    return [("class:prompt", wrapped(model.prompt(), width) + "\n")] + status_line(model, [], width)


def status_fragments_lobby(model: ViewModel, width: int | None = None) -> Fragments:
    if model.connection in ("reconnecting", "offline") and not model.status:
        return [("class:status.error", wrapped(model.connection_words(), width))]
    return status_line(model, [("class:dim", " " + (model.connection_detail or ""))], width)


def log_rule_fragments(model: ViewModel, width: int) -> Fragments:
    """The rule above the table's log; while scrolled back, it says how far and how to return."""
    if not model.log_scroll:
        return [("class:dim", "─" * width)]
    note = f" ↓ {model.log_scroll} newer line{'s' * (model.log_scroll != 1)} · PgDn / End return "
    return [("class:dim", "──"), ("class:status", note), ("class:dim", "─" * max(0, width - len(note) - 2))]


def log_fragments(lines: list[LogLine]) -> Fragments:
    out: Fragments = []
    for i, line in enumerate(lines):
        if i:
            out.append(("", "\n"))
        out.append(("", " "))
        out += [(f"class:{style}", text) for style, text in line.segments]
    return out


def waiting_fragments(model: ViewModel) -> Fragments:
    """Before a game: the seats by the number that picks them, who is ready, who watches."""
    table = model.table or {}
    out: Fragments = []
    seats = table.get("seats", [])
    for entry in range(table.get("players", 0)):
        seat = seats[entry] if entry < len(seats) else None
        mine = " (you)" if entry == model.seat else ""
        out.append(("class:key", f"  {entry + 1} "))
        if seat is None:
            out.append(("class:dim", " ·free·\n"))
        else:
            ready = "ready" if seat.get("ready") else "not ready"
            kind = f"computer, {seat.get('level')}" if seat.get("kind") == "computer" else ready
            if seat.get("kind") == "computer" and not seat.get("level"):
                kind = "computer"
            away = "" if seat.get("connected", True) else ", away"
            out.append(("class:label", f" {seat.get('name')}{mine}"))
            out.append(("class:dim", f"  ({kind}{away})\n"))
    watchers = list(table.get("spectators") or [])
    if watchers:
        out.append(("class:dim", f"  watching: {', '.join(watchers)}\n"))
    return out


def title_bar(model: ViewModel, address: str, where: str) -> Fragments:
    """The top line, across the screen: who is where (red while the connection is down)."""
    style = "class:title" if model.connection == "online" else "class:title.offline"
    return [(style, f" Noddy · {model.name} @ {address} · {where}"), (style, " " * 200)]


def title_fragments(model: ViewModel, address: str) -> Fragments:
    if model.screen == LOBBY or model.table_id is None:
        where = "Lobby"
    else:
        table = model.table or {}
        options = table.get("options") or {}
        target = options.get("target", model.target)
        where = f"Table {model.table_id} · {table.get('preset', model.preset or '')}"
        if target:
            where += f" to {target}"
        if model.deal:
            where += f" · deal {model.deal}"
    if model.connection in ("reconnecting", "offline") and model.screen == CONNECTING:
        return title_bar(model, address, where + " · not connected")
    state = {"online": "", "connecting": " · connecting…",
             "reconnecting": " · connection lost, reconnecting…",
             "offline": " · offline"}.get(model.connection, "")
    return title_bar(model, address, where + state)


def lobby_fragments(model: ViewModel) -> Fragments:
    out: Fragments = [("class:label", " Tables\n")]
    tables = model.sorted_tables()
    if model.screen == CONNECTING:
        return out + [("class:dim", "   Connecting to the server…\n")]
    if not tables:
        out.append(("class:dim", "   No tables yet: press n to create one.\n"))
    return out + cursor_list([model.table_line(table) for table in tables], model.lobby_cursor)


def cursor_list(lines: list[str], cursor: int) -> Fragments:
    """One line each, the one under the cursor marked ``▶`` and highlighted."""
    out: Fragments = []
    for i, line in enumerate(lines):
        out.append(("class:selected", f" ▶ {line}") if i == cursor else ("", f"   {line}"))
        out.append(("", "\n"))
    return out


def form_fragments(model: ViewModel) -> Fragments:
    form = model.form
    if form is None:
        return []
    if form.on_password:
        hint = "↑↓ line  type a password (none: public)  ⌫ delete  Enter create"
    else:
        hint = "↑↓ line  ←→ change  PgUp/PgDn ±10  Enter create  Esc back"
    out: Fragments = [("class:label", " New table  "), ("class:dim", hint + "\n\n")]
    for i, (label, value) in enumerate(form.rows()):
        current = i == form.row
        if label == "Password":
            shown = form.password + ("▏" if current else "") if form.password or current else value
            text = f"  {label:<22} {shown}"
        else:
            text = f"  {label:<22} {'‹ ' + value + ' ›' if label else value}"
        out.append(("class:selected" if current else "", text))
        out.append(("", "\n"))
    return out


def password_prefix(model: ViewModel) -> Fragments:
    """What the password line asks, before the (masked) typing."""
    prompt = model.password_prompt
    if prompt is None:
        return []
    verb = "sit at" if prompt.verb == "sit" else "watch"
    again = "again " if prompt.retry else ""
    return [("class:key", f" Password {again}to {verb} table {prompt.table} (Esc cancels): ")]


#: The first line of the help, on every size of screen.
HELP_TITLE = " Keys · any key closes this help"
#: The help's two columns: side by side on a wide screen, one after the other on a narrow one.
HELP_LEFT = """\
 In the lobby
   ↑ ↓    choose a table
   Enter  sit (first free seat)
   1-4    sit in that seat
   w      watch the table
   n      new table (form)
   m games  b ratings  r refresh
 A private table asks for its
 password (Esc cancels).
 In the form
   ↑ ↓ ← →  choose and change
   Password: type one for a
   private table; Enter creates.
 Lit cards may be played; green
 ones are picked for the crib.
 Pile: A:4♥ is Ann's 4♥.
 Board: ● score, ○ back peg."""
HELP_RIGHT = """\
 In a game
   1-6    play that card / pick it for crib
   ← →    move along the hand
   Enter  play / lay away the picked cards
   Space  pick the card under the cursor
   g      say go (only when it is legal)
   PgUp PgDn End  scroll the log
   l      resign: a computer takes your seat
 Before a game
   1-4    move to that seat   s  stand/sit
   a      add a computer  v  its level
   x      remove a computer
   r      ready / play again  l  leave
 Anywhere
   c or t  chat (Enter sends, Esc cancels)
   q       quit (in a game the seat is held
           a while: start again to resume)
   Ctrl-Q  quit at once"""
#: Width of the left column when the two stand side by side.
HELP_COLUMN = 33


def help_text(width: int = 80) -> str:
    """The help for a screen ``width`` wide: two columns from 80 up, else one column with
    long lines wrapped, so that nothing is cut off at the frame."""
    left, right = HELP_LEFT.splitlines(), HELP_RIGHT.splitlines()
    if width >= 80:
        rows = [f"{a:<{HELP_COLUMN}}{b}".rstrip() for a, b in
                zip(left + [""] * (len(right) - len(left)), right + [""] * (len(left) - len(right)))]
        return "\n".join([HELP_TITLE, *rows])
    room = max(20, width - 2)
    lines = [HELP_TITLE[:room]]
    anywhere = next(i for i, line in enumerate(right) if line.strip() == "Anywhere")
    for line in right[anywhere:] + right[:anywhere] + left:     # the way out first
        indent = len(line) - len(line.lstrip())
        lines += textwrap.wrap(line, room, subsequent_indent=" " * (indent + 2)) or [""]
    return "\n".join(lines)


#: The help of a full-width screen (documentation and tests read it).
HELP_TEXT = help_text(80)


def help_fragments(width: int = 80) -> Fragments:
    return [("class:help", help_text(width))]


def count_fragments(model: ViewModel, width: int = 80) -> Fragments:
    """The count at the end of a deal: each hand and the crib with the turn-up, its points
    and the announcement, then the totals and how to go on."""
    count = model.deal_count
    if count is None:
        return []
    turn_up = [count.turn_up] if count.turn_up else []
    out: Fragments = [("class:label", f" The count of deal {count.deal}")]
    if count.turn_up:
        out += [("class:label", " · turn-up "), *card_fragments(count.turn_up)]
    out += [("class:dim", "  — any key goes on —"), ("", "\n")]
    label_width = min(20, max((len(row.label) for row in count.rows), default=4))
    cards_width = max((len(plain(cards_inline(row.cards))) for row in count.rows), default=0)
    for row in count.rows:
        points = "   " if row.points is None else f"{row.points:>3}"
        shown = cards_inline(row.cards)
        line: Fragments = [("class:label", f" {row.label[:label_width]:<{label_width}}  "), *shown,
                           ("", " " * (cards_width - len(plain(shown))))]
        if turn_up:
            line += [("class:dim", " + "), *cards_inline(turn_up)]
        line.append(("class:key", f"  {points}  "))
        # The announcement wraps between words, under itself.
        indent = len(plain(line))
        words = textwrap.wrap(row.announcement or "nothing", max(20, width - indent - 1),
                              break_on_hyphens=False) or ["nothing"]
        out += line + [("class:score", ("\n" + " " * indent).join(words)), ("", "\n")]
    if count.after:
        out += [("class:deal", wrapped(count.after, width))]
    return out


def keys_fragments(model: ViewModel) -> Fragments:
    """The bottom line: only the keys that do something where the player is."""
    if model.name_prompt is not None:
        keys = [("↵", "use this name"), ("Ctrl-Q", "quit")]
    elif model.password_prompt is not None:
        keys = [("↵", "send"), ("Esc", "cancel")]
    elif model.connection in ("reconnecting", "offline"):
        keys = [("r", "retry now"), ("?", "help"), ("q", "quit")]
    elif model.screen == CONNECTING:
        keys = [("?", "help"), ("q", "quit")]
    elif model.deal_count is not None and model.screen != LOBBY:
        keys = [("any key", "closes the count"), ("Ctrl-Q", "quit")]
    elif model.screen == LOBBY and model.form is not None:
        if model.form.on_password:
            keys = [("↑↓", "line"), ("type", "password"), ("⌫", "delete"), ("↵", "create"),
                    ("Esc", "back")]
        else:
            keys = [("↑↓", "line"), ("←→", "change"), ("↵", "create"), ("Esc", "back"),
                    ("?", "help")]
    elif model.screen == LOBBY:
        keys = [("n", "new"), ("↵", "sit"), ("w", "watch"), ("m", "my games"), ("b", "ratings"),
                ("c", "chat"), ("?", "help"), ("q", "quit")]
    elif model.picking == "remove":
        keys = [("1-4", "that seat's computer"), ("Esc", "none")]
    elif model.winner is not None:
        keys = ([("r", "play again")] if model.seat is not None else []) + [
            ("l", "leave"), ("PgUp", "log"), ("c", "chat"), ("?", "help"), ("q", "quit")]
    elif model.seats_open and (not model.in_game or model.seat is None):
        seats = f"1-{len((model.table or {}).get('seats', [])) or 4}"
        if model.seat is None:
            keys = [(seats, "sit there"), ("s", "first free seat"), ("l", "leave"), ("c", "chat"),
                    ("?", "help"), ("q", "quit")]
        else:
            computers = []
            if model.table is not None and free_seats(model.table):
                computers.append(("a", "add computer"))
            if model.computer_seats():
                computers.append(("x", "remove computer"))
            keys = [(seats, "seat"), *computers, ("v", "level"), ("s", "stand"),
                    ("r", "ready"), ("l", "leave"), ("c", "chat"), ("?", "help")]
            if len(key_text(keys)) > 80:
                keys.remove(("v", "level"))
    elif model.seat is None:
        keys = [("l", "leave"), ("PgUp", "log"), ("c", "chat"), ("?", "help"), ("q", "quit")]
    else:
        cards = len(model.hand)
        keys = [("1" if cards == 1 else f"1-{cards}", "card")] if cards else []
        keys += [("g", "go")] if model.go_is_legal else []  # only when no card can be played
        keys += [("l", "resign"), ("PgUp", "log"), ("c", "chat"), ("?", "help"), ("q", "quit")]
    return key_hints(keys)


def key_text(keys: list[tuple[str, str]]) -> str:
    return plain(key_hints(keys))


def key_hints(keys: list[tuple[str, str]]) -> Fragments:
    """The bottom line: each key, then what it does."""
    out: Fragments = []
    for key, what in keys:
        out += [("class:key", f" {key}"), ("class:dim", f" {what} ")]
    return out


__all__ = ["STYLE", "count_fragments", "help_text", "board_fragments", "pegs_fragments", "hand_fragments", "table_fragments", "log_fragments",
           "pile_fragments", "log_rule_fragments", "password_prefix",
           "lobby_fragments", "form_fragments", "help_fragments", "keys_fragments",
           "status_fragments", "title_fragments", "waiting_fragments", "cards_inline",
           "card_fragments", "key_hints", "status_line", "title_bar", "cursor_list"]


def plain(fragments: list[tuple[Any, ...]]) -> str:
    """The text of fragments without styles (for tests and debugging)."""
    return "".join(f[1] for f in fragments)
