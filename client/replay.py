"""Finished games in the terminal client: "My games", the replay of one game, the leaderboard.

Theory of operation
===================

A game record (the server's ``get_game`` reply, docs/PROTOCOL.md "Records") is the events of
the deal-in (``opening``) and then ``steps``: each an action with the events it caused.  The
record is not redacted -- the game is over -- so every hand, discard and crib is in it.

:class:`Replay` is pure: it folds those events, once, into a list of :class:`Frame`\\ s, the
table as it stood at each point, and the replay screen only moves an index along them.
Frame 0 is the deal-in; then each action is a frame.  An action that ends a deal (the last
card, a show) often deals the next one in the same step: its events are split at that
``deal_started``, so the end of every deal (all hands, the crib, the scores) can be looked at
before the next deal-in, which is a frame of its own with no action.  The log is one list
for the whole game; a frame remembers how much of it had been written (``log_end``).

:class:`RecordsView` holds the three screens' state (the list of my games, the replay, the
leaderboard) next to the :class:`~noddy.client.model.ViewModel`: it queues its requests with
``model.send``, reads the replies the application hands it (``games``, ``game_record``,
``leaderboard``), and switches ``model.screen``.  The rest of this module draws the screens
and binds their keys; :mod:`noddy.client.app` adds them with :func:`build_layout` and
:func:`bind_keys`.  The client never imports the engine: nothing here re-plays rules, it only
reads what the record says happened.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable, cast

from prompt_toolkit.data_structures import Point
from prompt_toolkit.filters import Condition, Filter
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import ConditionalContainer, HSplit, Window
from prompt_toolkit.layout.containers import Container
from prompt_toolkit.layout.controls import FormattedTextControl

from . import render
from .cards import card_label, cards_label, sort_cards
from .model import LOBBY, LogLine, Peg, ViewModel, _line, number_words, request_field

GAMES = "games"
REPLAY = "replay"
LEADERBOARD = "leaderboard"
SCREENS = (GAMES, REPLAY, LEADERBOARD)
#: The rating families, as the ``leaderboard`` request names them.
FAMILIES: tuple[str, ...] = request_field("leaderboard", "family").choices
#: How many players the leaderboard asks for: as many as the protocol allows.
BOARD_LIMIT = int(cast(float, request_field("leaderboard", "limit").maximum))
#: How many of my games the list asks for (the protocol allows 1-100).
GAMES_LIMIT = 50

Fragments = list[tuple[str, str]]


# == the step model =========================================================================

@dataclass(frozen=True)
class Frame:
    """The table at one point of a finished game.

    ``action`` is what was done to get here (None for a deal-in); ``seat`` who did it.
    ``hands`` are the cards each seat kept (dealt less laid away), ``played`` the cards
    already played this deal, ``crib`` the cards laid away so far, ``pile`` the cards of the
    current count with who played them.  ``scores`` and ``back_pegs`` are per player, or per
    team in partnerships; ``winner`` is set on the last frame.
    """

    index: int
    action: dict[str, Any] | None
    seat: int | None
    headline: str
    deal: int
    dealer: int | None
    phase: str
    turn_up: str | None
    hands: tuple[tuple[str, ...], ...]
    played: frozenset[str]
    crib: tuple[str, ...]
    pile: tuple[tuple[int, str], ...]
    count: int
    scores: tuple[int, ...]
    back_pegs: tuple[int, ...]
    winner: int | None
    log_end: int


class Replay:
    """A finished game's record as frames to step through; see the module docstring."""

    def __init__(self, record: dict[str, Any], me: str | None = None) -> None:
        self.record = record
        self.me = me
        self.players = int(record["players"])
        self.partnerships = bool(record["partnerships"])
        self.names = {s["seat"]: str(s["name"]) for s in record.get("seats", [])}
        self.target = 0
        self.log: list[LogLine] = []
        self.frames: list[Frame] = []
        self.position = 0
        self._fold()

    # -- questions ----------------------------------------------------------------------
    @property
    def frame(self) -> Frame:
        return self.frames[self.position]

    @property
    def deals(self) -> int:
        return self.frames[-1].deal

    def seat_name(self, seat: int | None) -> str:
        if seat is None:
            return "the pack"
        return self.names.get(seat, f"seat {seat}")

    def team_of(self, seat: int) -> int:
        return seat % 2 if self.partnerships else seat

    def team_labels(self) -> list[str]:
        if not self.partnerships:
            return [self.seat_name(s) for s in range(self.players)]
        return [" & ".join(self.seat_name(s) for s in range(self.players) if s % 2 == team)
                for team in (0, 1)]

    def my_team(self) -> int | None:
        seats = [s for s, name in self.names.items() if name == self.me]
        return self.team_of(seats[0]) if seats else None

    def pegs(self) -> list[Peg]:
        frame, mine = self.frame, self.my_team()
        return [Peg(label, frame.scores[t], min(frame.back_pegs[t], frame.scores[t]),
                    self.target, t == mine)
                for t, label in enumerate(self.team_labels()) if t < len(frame.scores)]

    def visible_log(self) -> list[LogLine]:
        return self.log[:self.frame.log_end]

    # -- moving -------------------------------------------------------------------------
    def go_to(self, position: int) -> None:
        self.position = max(0, min(position, len(self.frames) - 1))

    def step(self, delta: int) -> None:
        """→ / ←: one action forward or back (a deal-in counts as one)."""
        self.go_to(self.position + delta)

    def home(self) -> None:
        self.go_to(0)

    def end(self) -> None:
        self.go_to(len(self.frames) - 1)

    def next_deal(self) -> None:
        """↓: the deal-in of the next deal (the last frame from the last deal)."""
        deal = self.frame.deal
        later = [f.index for f in self.frames if f.deal > deal]
        self.go_to(later[0] if later else len(self.frames) - 1)

    def previous_deal(self) -> None:
        """↑: the start of this deal, or of the one before when already at its start."""
        deal = self.frame.deal
        start = min(f.index for f in self.frames if f.deal == deal)
        if self.position > start or deal <= 1:
            self.go_to(start)
        else:
            self.go_to(min(f.index for f in self.frames if f.deal == deal - 1))

    # -- folding the record into frames --------------------------------------------------
    def _fold(self) -> None:
        teams = 2 if self.partnerships else self.players
        self._deal, self._dealer, self._phase = 0, None, "deal"
        self._turn_up: str | None = None
        self._hands: list[list[str]] = [[] for _ in range(self.players)]
        self._played: set[str] = set()
        self._crib: list[str] = []
        self._pile: list[tuple[int, str]] = []
        self._count = 0
        self._scores = [0] * teams
        self._back = [0] * teams
        self._winner: int | None = None
        self._show_points: dict[int, int] = {}
        for event in self.record.get("opening", []):
            self._apply(event)
        self._snapshot(None, self._deal_headline())
        for step in self.record.get("steps", []):
            action: dict[str, Any] | None = dict(step.get("action") or {})
            headline = self._action_text(action or {})
            for event in step.get("events", []):
                kind = event.get("kind")
                if kind == "deal_started" or (kind == "scored" and self._phase == "play" and self._played
                                              and event.get("reason") in ("show", "crib")):
                    # The end of the play (or of the deal) is a point of its own.
                    self._snapshot(action, headline)
                    action, headline = None, "The hands are counted."
                self._apply(event)
                if kind == "deal_started":
                    headline = self._deal_headline()
            self._snapshot(action, headline)

    def _deal_headline(self) -> str:
        return f"Deal {self._deal}: {self.seat_name(self._dealer)} deals."

    def _snapshot(self, action: dict[str, Any] | None, headline: str) -> None:
        if self._phase == "deal over":
            headline += " End of the deal."
        if self._winner is not None:
            labels = self.team_labels()
            if 0 <= self._winner < len(labels):
                won = "win" if self.partnerships else "wins"
                headline += f" {labels[self._winner]} {won} the game."
        self.frames.append(Frame(
            index=len(self.frames), action=action, seat=(action or {}).get("seat"),
            headline=headline, deal=self._deal, dealer=self._dealer, phase=self._phase,
            turn_up=self._turn_up, hands=tuple(tuple(h) for h in self._hands),
            played=frozenset(self._played), crib=tuple(sort_cards(self._crib)), pile=tuple(self._pile),
            count=self._count, scores=tuple(self._scores), back_pegs=tuple(self._back),
            winner=self._winner, log_end=len(self.log)))

    def _action_text(self, action: dict[str, Any]) -> str:
        who = self.seat_name(action.get("seat"))
        verb = action.get("action")
        if verb == "play":
            return f"{who} plays {card_label(action['card'])}."
        if verb == "discard":
            return f"{who} lays away {cards_label(action.get('cards', []))}."
        if verb == "go":
            return f"{who} says go."
        return f"{who}: {verb}."

    def _log(self, kind: str, *parts: Any) -> None:
        self.log.append(_line(kind, *parts))

    def _apply(self, e: dict[str, Any]) -> None:
        kind = e.get("kind")
        if "scores" in e and kind != "scored":
            self._scores = list(e["scores"])
        if kind == "game_started":
            self.target = int(e.get("target", 0))
            how = f"{self.players} players" + (" in partnerships" if self.partnerships else "")
            self._log("deal", f"A game of {e.get('preset')}, {how}, first to {self.target}.")
        elif kind == "cut_for_deal":
            parts: list[Any] = ["Cut for deal: "]
            for i, cut in enumerate(e.get("cuts", [])):
                parts += [", " if i else "", f"{self.seat_name(cut['seat'])} ", [cut["card"]]]
            dealer = e.get("dealer")
            parts.append(" — a tie, cut again." if dealer is None
                         else f" — {self.seat_name(dealer)} deals.")
            self._log("event", *parts)
        elif kind == "deal_started":
            self._deal, self._dealer, self._phase = e["deal"], e["dealer"], "deal"
            self._turn_up, self._crib, self._pile, self._count = None, [], [], 0
            self._hands = [[] for _ in range(self.players)]
            self._played = set()
            self._show_points = {}
            self._log("deal", f"— Deal {self._deal}: {self.seat_name(self._dealer)} deals —")
        elif kind == "cards_dealt":
            cards = sort_cards(e.get("cards") or [])
            if 0 <= e["seat"] < self.players:
                self._hands[e["seat"]] = cards
            self._log("event", f"{self.seat_name(e['seat'])} is dealt ", cards, ".")
        elif kind == "discarded":
            cards = list(e.get("cards") or [])
            self._crib += cards
            self._phase = "discard"
            seat = e.get("seat")
            if seat is None:
                self._log("event", "The pack gives the crib ", cards, ".")
            else:
                self._hands[seat] = [c for c in self._hands[seat] if c not in cards]
                self._log("event", f"{self.seat_name(seat)} lays away ", cards,
                          f" to {self.seat_name(self._dealer)}'s crib.")
        elif kind == "turned_up":
            self._turn_up, self._phase = e["card"], "play"
            self._log("event", "Turn-up: ", [e["card"]], ".")
        elif kind == "scored":
            self._scored(e)
        elif kind == "played":
            self._phase = "play"
            self._pile.append((e["seat"], e["card"]))
            self._played.add(e["card"])
            self._count = e["count"]
            self._log("event", f"{self.seat_name(e['seat'])} plays ", [e["card"]],
                      f" — {number_words(self._count)}")
        elif kind == "go":
            self._log("event", f"{self.seat_name(e['seat'])}: go")
        elif kind == "count_reset":
            self._pile, self._count = [], 0
            self._log("event", "The count starts again from nought.")
        elif kind == "hands_revealed":
            self._phase = "show"
            for seat, hand in enumerate(e.get("hands", [])):
                if seat < self.players:
                    self._hands[seat] = sort_cards(hand)
            if e.get("crib") is not None:
                self._crib = list(e["crib"])
        elif kind == "deal_ended":
            self._phase = "deal over"
            figures = ", ".join(f"{label} {score}"
                                for label, score in zip(self.team_labels(), self._scores))
            self._log("deal", f"After deal {e['deal']}: {figures}.")
        elif kind == "game_over":
            self._phase, self._winner = "over", e["winner"]
            labels = self.team_labels()
            winner = labels[self._winner] if 0 <= self._winner < len(labels) else "?"
            others = " to ".join(str(s) for i, s in enumerate(self._scores) if i != self._winner)
            self._log("win", f"{winner} wins the game, {self._scores[self._winner]} to {others}!")

    def _scored(self, e: dict[str, Any]) -> None:
        team = self.team_of(e["seat"])
        scores = list(e.get("scores", self._scores))
        if e.get("points", 0) and 0 <= team < len(self._back):
            self._back[team] = self._scores[team]
        self._scores = scores
        who = self.seat_name(e["seat"])
        said = e.get("announcement") or "nothing"
        reason = e.get("reason", "")
        if reason in ("show", "crib"):
            self._phase = "show"
            cards = list(e.get("cards") or [])
            whose = f"{who}'s crib" if reason == "crib" else f"{who} shows"
            self._log("score", f"{whose} ", cards, f": {said}" if cards else said)
        elif reason == "turn-up":
            self._log("score", f"{who}: {said} (the turn-up)")
        elif reason == "first deal":
            self._log("score", f"{who} pegs {e.get('points', 0)} for the first deal.")
        else:
            self._log("score", f"{who}: {said}")


# == the screens' state =====================================================================

class RecordsView:
    """My games, the replay and the leaderboard, beside the view model (module docstring)."""

    def __init__(self, model: ViewModel) -> None:
        self.model = model
        self.games: list[dict[str, Any]] | None = None     # None: asked for, not yet here
        self.cursor = 0
        self.replay: Replay | None = None
        self.family = FAMILIES[0]
        self.board: list[dict[str, Any]] | None = None
        self._asked: dict[int, str] = {}

    @property
    def active(self) -> bool:
        return self.model.screen in SCREENS

    def _ask(self, kind: str, **fields: Any) -> None:
        self._asked[self.model.send(kind, **fields)] = kind

    # -- keys ---------------------------------------------------------------------------
    def open_games(self) -> None:
        """m in the lobby: my recent games, newest first."""
        self.model.clear_status()
        self.model.screen = GAMES
        self.games = None
        self._ask("list_games", limit=GAMES_LIMIT)

    def open_leaderboard(self, family: str | None = None) -> None:
        """b in the lobby: the ratings of one family of games."""
        self.model.clear_status()
        self.family = family or self.family
        self.model.screen = LEADERBOARD
        self.board = None
        self._ask("leaderboard", family=self.family, limit=BOARD_LIMIT)

    def other_family(self) -> None:
        index = FAMILIES.index(self.family) if self.family in FAMILIES else -1
        self.open_leaderboard(FAMILIES[(index + 1) % len(FAMILIES)])

    def move(self, delta: int) -> None:
        if self.games:
            self.cursor = (self.cursor + delta) % len(self.games)

    def open_selected(self) -> None:
        """Enter on a game: ask for its whole record; the replay opens when it comes."""
        if not self.games:
            return
        game_id = self.games[self.cursor]["id"]
        self.model.set_status(f"Fetching game {game_id}…")
        self._ask("get_game", game=game_id)

    def back(self) -> None:
        """Esc: from the replay to the list, from a list to the lobby."""
        self.model.clear_status()
        if self.model.screen == REPLAY:
            self.replay = None
            self.model.screen = GAMES
        else:
            self.model.screen = LOBBY
            self.model.send("list_tables")

    # -- replies ------------------------------------------------------------------------
    def handle(self, message: dict[str, Any]) -> None:
        """A message from the server (the application passes every one)."""
        request_id = message.get("id")
        asked = self._asked.pop(request_id, None) if isinstance(request_id, int) else None
        if asked is None:
            return
        kind = message.get("type")
        if kind == "games":
            self.games = list(message.get("games") or [])
            self.cursor = max(0, min(self.cursor, len(self.games) - 1))
        elif kind == "leaderboard":
            self.board = list(message.get("players") or [])
        elif kind == "game_record" and self.model.screen == GAMES:
            self.model.clear_status()
            self.replay = Replay(message["record"], me=self.model.name)
            self.model.screen = REPLAY
        elif kind == "error":
            if asked == "list_games":
                self.games = []
            elif asked == "leaderboard":
                self.board = []


# == drawing ================================================================================

def _when(seconds: float | None) -> str:
    if seconds is None:
        return "?"
    return time.strftime("%d %b %H:%M", time.localtime(seconds))


def game_line(game: dict[str, Any], me: str) -> str:
    """One finished game in the list: id, preset, when, the scores, and how it went for me."""
    names = {s["seat"]: s["name"] for s in game.get("seats", [])}
    players = game.get("players", len(names))
    if game.get("partnerships"):
        sides = [" & ".join(names.get(s, "?") for s in range(players) if s % 2 == t) for t in (0, 1)]
        mine = [t for t in (0, 1) if any(names.get(s) == me for s in range(players) if s % 2 == t)]
    else:
        sides = [names.get(s, "?") for s in range(players)]
        mine = [s for s in range(players) if names.get(s) == me]
    result = game.get("result") or {}
    scores = result.get("scores") or []
    figures = ", ".join(f"{side} {score}" for side, score in zip(sides, scores))
    outcome = "    "
    if mine and result.get("winner") is not None:
        outcome = "won " if result["winner"] in mine else "lost"
    pairs = " pairs" if game.get("partnerships") else ""
    return (f"#{game['id']:<3} {game['preset']:<10} {str(players) + 'p' + pairs:<3} "
            f"{_when(game.get('finished_at'))}  {outcome}  {figures}")


def games_fragments(view: RecordsView) -> Fragments:
    out: Fragments = [("class:label", " My games"), ("class:dim", "  newest first\n")]
    if view.games is None:
        return out + [("class:dim", "   Asking the server…\n")]
    if not view.games:
        return out + [("class:dim", "   No finished games yet: play one, then come back.\n")]
    return out + render.cursor_list([game_line(game, view.model.name) for game in view.games],
                                    view.cursor)


def leaderboard_fragments(view: RecordsView) -> Fragments:
    out: Fragments = [("class:label", f" Leaderboard · {view.family}"),
                      ("class:dim", "   (Tab: " + " / ".join(FAMILIES) + ")\n")]
    if view.board is None:
        return out + [("class:dim", "   Asking the server…\n")]
    if not view.board:
        return out + [("class:dim", f"   Nobody has played a rated {view.family} game yet.\n")]
    out.append(("class:dim", f"   {'#':>3}  {'name':<24} {'rating':>6}  {'games':>5}  {'wins':>5}\n"))
    for row in view.board:
        name = str(row.get("name", "?")) + (" (computer)" if row.get("kind") == "computer" else "")
        style = "class:peg.mine" if row.get("name") == view.model.name else ""
        out.append((style, f"   {row.get('rank', ''):>3}  {name[:24]:<24} {row.get('rating', ''):>6}  "
                           f"{row.get('games', ''):>5}  {row.get('wins', ''):>5}\n"))
    return out


def step_fragments(replay: Replay) -> Fragments:
    """What this step was, where it stands, and the turn-up, count and pile."""
    frame = replay.frame
    out: Fragments = [("class:key", f" Step {frame.index}/{len(replay.frames) - 1}"),
                      ("class:dim", f" · deal {frame.deal}/{replay.deals} · "),
                      ("class:label", frame.headline), ("", "\n")]
    out += [("class:label", " Turn-up ")]
    out += [("", "["), *render.card_fragments(frame.turn_up), ("", "]")] if frame.turn_up else [("class:dim", "[  ]")]
    out += [("class:label", "   Count "), ("class:key", f"{frame.count:>2}"), ("class:label", "   Pile ")]
    if not frame.pile:
        out.append(("class:dim", "—"))
    for i, (seat, card) in enumerate(frame.pile[-12:]):
        out += [("", " " if i else ""), ("class:dim", f"{replay.seat_name(seat)[:1].upper()}:"),
                *render.card_fragments(card)]
    return out + [("", "\n")]


def hands_fragments(replay: Replay) -> Fragments:
    """Every hand, face up (the game is over): cards already played this deal are dimmed
    during the play; the seat that just acted is marked ▶; then the crib."""
    frame = replay.frame
    width = min(16, max(len(replay.seat_name(s)) for s in range(replay.players)) + 1)
    out: Fragments = []
    dim = frame.played if frame.phase == "play" else frozenset()
    for seat in range(replay.players):
        marker = "▶" if seat == frame.seat else " "
        name = replay.seat_name(seat)[:width - 1]
        dealer = "dealer" if seat == frame.dealer else ""
        style = "class:key" if seat == frame.seat else "class:label"
        out += [(style, f" {marker}{name:<{width}}"), ("class:dim", f"{dealer:<7}")]
        out += render.cards_inline(frame.hands[seat], dim) if frame.hands[seat] else [("class:dim", "—")]
        out.append(("", "\n"))
    if frame.crib:
        out += [("class:label", f"  {'crib':<{width}}"), ("class:dim", " " * 7), *render.cards_inline(frame.crib),
                ("", "\n")]
    return out


def replay_title(replay: Replay) -> str:
    record = replay.record
    return f"Replay of game {record['id']} · {record['preset']} to {replay.target}"


def title_fragments(view: RecordsView, address: str) -> Fragments:
    screen = view.model.screen
    where = {GAMES: "My games", LEADERBOARD: "Leaderboard"}.get(screen, "")
    if screen == REPLAY and view.replay is not None:
        where = replay_title(view.replay)
    return render.title_bar(view.model, address, where)


def keys_fragments(view: RecordsView) -> Fragments:
    screen = view.model.screen
    if screen == REPLAY:
        keys = [("← →", "step"), ("↑ ↓", "deal"), ("Home End", "start/end"), ("Esc", "back"),
                ("q", "quit")]
    elif screen == GAMES:
        keys = [("↑ ↓", "choose"), ("↵", "replay"), ("b", "leaderboard"), ("Esc", "lobby"),
                ("q", "quit")]
    else:
        keys = [("Tab", "/".join(FAMILIES)), ("m", "my games"), ("Esc", "lobby"), ("q", "quit")]
    return render.key_hints(keys)


def status_fragments(view: RecordsView) -> Fragments:
    return render.status_line(view.model, [("", "")])


# == the application's hooks ================================================================

def build_layout(view: RecordsView, width: Callable[[], int]) -> Container:
    """The three screens, each shown while ``model.screen`` names it."""
    model = view.model

    def text(fn: Callable[[], Fragments]) -> FormattedTextControl:
        return FormattedTextControl(fn, focusable=False)

    def on(screen: str) -> Filter:
        return Condition(lambda: model.screen == screen)

    def when_replaying(fn: Callable[[Replay], Fragments]) -> Callable[[], Fragments]:
        return lambda: fn(view.replay) if view.replay is not None else []

    def log_cursor() -> Point:
        return Point(0, max(0, len(view.replay.visible_log()) - 1) if view.replay else 0)

    games = HSplit([
        Window(FormattedTextControl(lambda: games_fragments(view), focusable=False,
                                    get_cursor_position=lambda: Point(0, view.cursor + 1)),
               always_hide_cursor=True),
        Window(text(lambda: status_fragments(view)), height=1),
    ])
    board = HSplit([
        Window(text(lambda: leaderboard_fragments(view)), always_hide_cursor=True),
        Window(text(lambda: status_fragments(view)), height=1),
    ])
    replay = HSplit([
        Window(text(when_replaying(lambda r: render.pegs_fragments(r.pegs(), width()))),
               height=lambda: max(1, len(view.replay.pegs()) if view.replay else 1)),
        Window(height=1, char="─", style="class:dim"),
        Window(text(when_replaying(step_fragments)), height=2),
        Window(text(when_replaying(hands_fragments)),
               height=lambda: (view.replay.players + bool(view.replay.frame.crib)) if view.replay else 1),
        Window(height=1, char="─", style="class:dim"),
        Window(FormattedTextControl(when_replaying(lambda r: render.log_fragments(r.visible_log())),
                                    get_cursor_position=log_cursor, focusable=False),
               wrap_lines=True, always_hide_cursor=True),
    ])
    return HSplit([
        ConditionalContainer(games, filter=on(GAMES)),
        ConditionalContainer(board, filter=on(LEADERBOARD)),
        ConditionalContainer(replay, filter=on(REPLAY)),
    ])


def bind_keys(kb: KeyBindings, view: RecordsView, lobby: Filter, free: Filter,
              after: Callable[[KeyPressEvent], None]) -> None:
    """m and b in the lobby; the keys of the three screens (``free``: no prompt is open)."""
    model = view.model
    games = free & Condition(lambda: model.screen == GAMES)
    board = free & Condition(lambda: model.screen == LEADERBOARD)
    replaying = free & Condition(lambda: model.screen == REPLAY and view.replay is not None)

    def replay_key(fn: Callable[[Replay], None]) -> Callable[[KeyPressEvent], None]:
        def handler(event: KeyPressEvent) -> None:
            if view.replay is not None:
                fn(view.replay)
        return handler

    @kb.add("m", filter=lobby | board)
    def _my_games(event: KeyPressEvent) -> None:
        view.open_games()
        after(event)

    @kb.add("b", filter=lobby | games)
    def _leaderboard(event: KeyPressEvent) -> None:
        view.open_leaderboard()
        after(event)

    @kb.add("tab", filter=board)
    @kb.add("right", filter=board)
    @kb.add("left", filter=board)
    def _family(event: KeyPressEvent) -> None:
        view.other_family()
        after(event)

    @kb.add("up", filter=games)
    @kb.add("k", filter=games)
    def _up(event: KeyPressEvent) -> None:
        view.move(-1)

    @kb.add("down", filter=games)
    @kb.add("j", filter=games)
    def _down(event: KeyPressEvent) -> None:
        view.move(1)

    @kb.add("enter", filter=games)
    def _open(event: KeyPressEvent) -> None:
        view.open_selected()
        after(event)

    @kb.add("escape", filter=free & Condition(lambda: view.active), eager=True)
    @kb.add("backspace", filter=free & Condition(lambda: view.active))
    def _back(event: KeyPressEvent) -> None:
        view.back()
        after(event)

    kb.add("right", filter=replaying)(replay_key(lambda r: r.step(1)))
    kb.add("l", filter=replaying)(replay_key(lambda r: r.step(1)))
    kb.add("left", filter=replaying)(replay_key(lambda r: r.step(-1)))
    kb.add("h", filter=replaying)(replay_key(lambda r: r.step(-1)))
    kb.add("down", filter=replaying)(replay_key(Replay.next_deal))
    kb.add("n", filter=replaying)(replay_key(Replay.next_deal))
    kb.add("up", filter=replaying)(replay_key(Replay.previous_deal))
    kb.add("p", filter=replaying)(replay_key(Replay.previous_deal))
    kb.add("home", filter=replaying)(replay_key(Replay.home))
    kb.add("end", filter=replaying)(replay_key(Replay.end))


__all__ = ["Frame", "Replay", "RecordsView", "GAMES", "REPLAY", "LEADERBOARD", "SCREENS",
           "build_layout", "bind_keys", "title_fragments", "keys_fragments", "game_line"]
