"""Finished games in the terminal client: "My games", the replay screen, the leaderboard, and
(held here, drawn by :mod:`noddy.client.screens.stats`) a person's statistics.

:class:`RecordsView` holds the three screens' state (the list of my games, the
:class:`~noddy.client.screens.replay.Replay` being watched, the leaderboard) next to the
:class:`~noddy.client.model.ViewModel`: it queues its requests with ``model.session.send``, reads the
replies the application hands it (``games``, ``game_record``, ``leaderboard``), and switches
``model.session.screen``.  In a replay, ``v`` asks the coach to review the stored game
(:meth:`noddy.client.screens.coach.Coach.review_game`; the notes open in the coach's box).
The rest of this module draws the screens and binds their keys; :mod:`noddy.client.app` adds
them with :func:`build_layout`; its keys are declared with it (:mod:`noddy.client.keymap`).
"""

from __future__ import annotations

import textwrap

import time
from typing import Any, Callable, cast

from prompt_toolkit.data_structures import Point
from prompt_toolkit.filters import Condition, Filter
from prompt_toolkit.layout import ConditionalContainer, HSplit, Window
from prompt_toolkit.layout.containers import Container
from prompt_toolkit.layout.controls import FormattedTextControl

from noddy.protocol.i18n import N_, _, pgettext

from .. import render
from ..keymap import Screen, key
from ..lines import LogLine
from ..model import LOBBY, ViewModel, request_field
from .replay import Replay, ReplayScreen
from .replay_layout import hands_fragments, replay_title, step_fragments
from .stats import STATS, StatsView, stats_fragments
from .stats import keys as stats_keys
from .windows import said_keys, status_height

GAMES = "games"
REPLAY = "replay"
LEADERBOARD = "leaderboard"
SCREENS = (GAMES, REPLAY, LEADERBOARD, STATS)
#: The rating families, as the ``leaderboard`` request names them.
FAMILIES: tuple[str, ...] = request_field("leaderboard", "family").choices
#: How many players the leaderboard asks for: as many as the protocol allows.
BOARD_LIMIT = int(cast(float, request_field("leaderboard", "limit").maximum))
#: How many of my games the list asks for (the protocol allows 1-100).
GAMES_LIMIT = 50

Fragments = list[tuple[str, str]]


# == the screens' state =====================================================================

class RecordsView(Screen):
    """My games, the replay and the leaderboard, beside the view model (module docstring)."""

    title = N_("My games and the ratings")

    def __init__(self, model: ViewModel) -> None:
        self.model = model
        #: The replay's keys, a screen of its own.
        self.replaying = ReplayScreen(lambda: self.replay if model.session.screen == REPLAY else None,
                                      model.coach.review_game)
        self.games: list[dict[str, Any]] | None = None     # None: asked for, not yet here
        self.cursor = 0
        self.replay: Replay | None = None
        self.family = FAMILIES[0]
        self.board: list[dict[str, Any]] | None = None
        self.board_cursor = 0
        self.stats = StatsView(model)
        #: The screen a replay goes back to (another screen's, :meth:`open_game`).
        self._replay_from = GAMES
        #: Why the leaderboard is empty, as the server says it (None: an older server).
        self.board_why: str | None = None
        self._asked: dict[int, str] = {}

    @property
    def active(self) -> bool:
        return self.model.session.screen in SCREENS

    def _ask(self, kind: str, **fields: Any) -> None:
        self._asked[self.model.session.send(kind, **fields)] = kind

    # -- keys ---------------------------------------------------------------------------
    def is_up(self) -> bool:
        return self.active or self.model.lobby.is_up()

    def _on(self, *screens: str) -> bool:
        return self.model.session.screen in screens or (LOBBY in screens and self.model.lobby.is_up())

    @key("m", help=N_("my games (Enter replays one)"), sends="list_games",
         when=lambda self: self._on(LOBBY, LEADERBOARD))
    def _my_games(self, pressed: str) -> None:
        self.open_games()

    @key("b", help=N_("the ratings (Tab: the other family)"), sends="leaderboard",
         when=lambda self: self._on(LOBBY, GAMES))
    def _ratings(self, pressed: str) -> None:
        self.open_leaderboard()

    @key("tab", "right", "left", label=N_("Tab"), help="", sends="leaderboard",
         when=lambda self: self._on(LEADERBOARD))
    def _family(self, pressed: str) -> None:
        self.other_family()

    @key("up", "k", label="↑ ↓", help=N_("choose a game or a person"), flush=False,
         when=lambda self: self._on(GAMES, LEADERBOARD))
    def _up(self, pressed: str) -> None:
        self.move(-1)

    @key("down", "j", help="", flush=False, when=lambda self: self._on(GAMES, LEADERBOARD))
    def _down(self, pressed: str) -> None:
        self.move(1)

    @key("i", help=N_("statistics (yours; in the ratings, the chosen one's)"), sends="stats",
         when=lambda self: self._on(LOBBY, LEADERBOARD))
    @key("enter", help="", when=lambda self: self._on(LEADERBOARD))
    def _statistics(self, pressed: str) -> None:
        self.open_stats()

    @key("enter", help="", sends="get_game", when=lambda self: self._on(GAMES))
    def _open(self, pressed: str) -> None:
        self.open_selected()

    @key("escape", "backspace", label=N_("Esc"), help=N_("back"), eager=True, when=lambda self: self.active)
    def _back(self, pressed: str) -> None:
        self.back()

    def open_games(self) -> None:
        """m in the lobby: my recent games, newest first."""
        self.model.session.clear_status()
        self.model.session.screen = GAMES
        self.games = None
        self._ask("list_games", limit=GAMES_LIMIT)

    def open_leaderboard(self, family: str | None = None) -> None:
        """b in the lobby: the ratings of one family of games."""
        self.model.session.clear_status()
        self.family = family or self.family
        self.model.session.screen = LEADERBOARD
        self.board = None
        # People only (p in the lobby or the list of who is online): no bots, no computers.
        self._ask("leaderboard", family=self.family, limit=BOARD_LIMIT,
                  **({"people_only": True} if self.model.lobby.people_only else {}))

    def other_family(self) -> None:
        index = FAMILIES.index(self.family) if self.family in FAMILIES else -1
        self.open_leaderboard(FAMILIES[(index + 1) % len(FAMILIES)])

    def move(self, delta: int) -> None:
        if self.model.session.screen == LEADERBOARD:
            if self.board:
                self.board_cursor = (self.board_cursor + delta) % len(self.board)
        elif self.games:
            self.cursor = (self.cursor + delta) % len(self.games)

    def open_stats(self) -> None:
        """i in the lobby: my statistics; Enter (or i) in the leaderboard: the chosen person's."""
        if self.model.session.screen != LEADERBOARD:
            self.stats.open()
            return
        if not self.board:
            return
        row = self.board[min(self.board_cursor, len(self.board) - 1)]
        if row.get("kind") == "computer":
            self.model.session.set_status(_("Computer players have no statistics: choose a person."))
            return
        self.stats.open(str(row.get("name", "")))

    def open_selected(self) -> None:
        """Enter on a game: ask for its whole record; the replay opens when it comes."""
        if not self.games:
            return
        game_id = self.games[self.cursor]["id"]
        self.model.session.set_status(_("Fetching game {game}…").format(game=game_id))
        self._ask("get_game", game=game_id)

    def open_game(self, game_id: int) -> None:
        """Open game ``game_id``'s replay from another screen (a club night's finished board):
        its record asked for, Esc from the replay goes back to that screen."""
        self._replay_from = self.model.session.screen
        self.model.session.set_status(_("Fetching game {game}…").format(game=game_id))
        self._ask("get_game", game=game_id)

    def back(self) -> None:
        """Esc: from the replay to the list (or the screen it was opened from), from a list to
        the lobby."""
        self.model.session.clear_status()
        if self.model.session.screen == REPLAY:
            self.replay = None
            self.model.session.screen = self._replay_from
            self._replay_from = GAMES
        elif self.model.session.screen == STATS and self.stats.came_from == LEADERBOARD:
            self.model.session.screen = LEADERBOARD
        else:
            self.model.session.screen = LOBBY
            self.model.session.send("list_tables")

    # -- replies ------------------------------------------------------------------------
    def handle(self, message: dict[str, Any]) -> None:
        """A message from the server (the application passes every one)."""
        request_id = message.get("id")
        if self.stats.handle(message):
            return
        asked = self._asked.pop(request_id, None) if isinstance(request_id, int) else None
        if asked is None:
            return
        kind = message.get("type")
        if kind == "games":
            self.games = list(message.get("games") or [])
            self.cursor = max(0, min(self.cursor, len(self.games) - 1))
        elif kind == "leaderboard":
            self.board = list(message.get("players") or [])
            mine = [i for i, row in enumerate(self.board)
                    if row.get("kind") == "human" and row.get("name") == self.model.session.name]
            self.board_cursor = mine[0] if mine else 0  # on my own row, if I am rated
            why = message.get("why")
            self.board_why = why if isinstance(why, str) else None
        elif kind == "game_record" and self.model.session.screen in (GAMES, self._replay_from):
            self.model.session.clear_status()
            self.replay = Replay(message["record"], me=self.model.session.name)
            self.model.session.screen = REPLAY
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


def game_line(game: dict[str, Any], me: str, dropped: int = 0) -> str:
    """One finished game in the list: id, preset, when, the scores, and how it went for me;
    a skunk says so, and a match's game the match score after it (and, the game that decided
    the match, whether I won it).

    ``dropped``: how many parts give way on a narrow screen (up to :data:`GAME_ROW_PARTS`):
    computers' names made short ("greedy cpu 2"), the date, the columns' padding, the number
    of players, then how the game ended said short; never the scores (a row cut at the edge read
    ``lost  ann 9, ben 8 (by``: issue 33, item 8)."""
    names = {s["seat"]: s["name"] if dropped < 1 else render.compact(s["name"])
             for s in game.get("seats", [])}
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
    ending = result.get("ending")
    if ending == "resignation":
        figures += " " + (_("(by resignation)") if dropped < 5 else _("(resigned)"))
    elif ending == "abandoned":
        figures += " " + (_("(a seat left, never taken back)") if dropped < 5 else _("(seat left)"))
    outcome = "    "
    if mine and result.get("winner") is not None:
        outcome = (pgettext("game outcome", "won") if result["winner"] in mine
                   else pgettext("game outcome", "lost")).ljust(4)
    skunk = {"skunk": N_("skunk"), "double": N_("double skunk")}.get(str(result.get("skunk")))
    figures += ", " + _(skunk) if skunk else ""
    match = game.get("match")
    if match:  # the match score after this game; the game that decided it says so
        figures += " · " + _("match {points}").format(points="-".join(map(str, match.get("points") or [])))
        if match.get("winner") is not None:
            figures += " " + ((_("won") if match["winner"] in mine else _("lost")) if mine else _("over"))
    pairs = " " + _("pairs") if game.get("partnerships") else ""
    when = f"{_when(game.get('finished_at'))}  " if dropped < 2 else ""
    if dropped < 3:
        return f"#{game['id']:<3} {game['preset']:<10} {str(players) + 'p' + pairs:<3} {when}{outcome}  {figures}"
    seats = f"{players}p{pairs} " if dropped < 4 else ""
    return f"#{game['id']} {game['preset']} {seats}{when}{outcome.strip() or '·'} {figures}"


#: The parts of a row of My games that give way on a narrow screen (:func:`game_line`).
GAME_ROW_PARTS = 5


def games_fragments(view: RecordsView, width: int = 80) -> Fragments:
    out: Fragments = [("class:label", " " + _("My games")), ("class:dim", "  " + _("newest first") + "\n")]
    if view.games is None:
        return out + [("class:dim", "   " + _("Asking the server…") + "\n")]
    if not view.games:
        return out + [("class:dim", "   " + _("No finished games yet: play one, then come back.") + "\n")]
    room = width - render.CURSOR_COLUMNS - render.EDGE
    me = view.model.session.name
    rows = render.fit_rows(lambda game, dropped: game_line(game, me, dropped), view.games, GAME_ROW_PARTS, room)
    return out + render.cursor_list(rows, view.cursor, width)


def leaderboard_fragments(view: RecordsView, width: int = 80) -> Fragments:
    out: Fragments = [("class:label", " " + _("Leaderboard · {family}").format(family=view.family)),
                      ("class:dim", "   (" + _("Tab") + ": " + " / ".join(FAMILIES) + ")\n")]
    if view.board is None:
        return out + [("class:dim", "   " + _("Asking the server…") + "\n")]
    if not view.board:
        why = view.board_why or _("Nobody has played a rated {family} game yet.").format(family=view.family)
        return out + [("class:dim", "".join(f"   {line}\n" for line in textwrap.wrap(why, min(74, width - 4))))]
    # The columns as wide as their heading says in the reader's language (German runs longer).
    name_head, rating_head, games_head, wins_head = _("name"), _("rating"), _("games"), _("wins")
    rw, gw, ww = max(6, len(rating_head)), max(5, len(games_head)), max(5, len(wins_head))
    out.append(("class:dim", f"   {'#':>3}  {name_head:<24} {rating_head:>{rw}}  {games_head:>{gw}}  "
                             f"{wins_head:>{ww}}\n"))
    for i, row in enumerate(view.board):
        kind = row.get("kind")
        marks = {"computer": N_(" (computer)"), "bot": N_(" (bot)")}
        name = str(row.get("name", "?")) + (_(marks[kind]) if kind in marks else "") + (
            _(" (guest)") if row.get("guest") else "")
        style = "class:peg.mine" if row.get("name") == view.model.session.name else ""
        mark = " ▶ " if i == view.board_cursor else "   "
        out.append((style, f"{mark}{row.get('rank', ''):>3}  {render.fit(name, 24):<24} {row.get('rating', ''):>{rw}}  "
                           f"{row.get('games', ''):>{gw}}  {row.get('wins', ''):>{ww}}\n"))
    return out


def title_fragments(view: RecordsView, address: str, width: int = 80) -> Fragments:
    screen = view.model.session.screen
    where = {GAMES: _("My games"), LEADERBOARD: _("Leaderboard"), STATS: _("Statistics")}.get(screen, "")
    if screen == REPLAY and view.replay is not None:
        where = replay_title(view.replay)
    return render.title_bar(view.model, address, where, width)


def keys_fragments(view: RecordsView, width: int = 80) -> Fragments:
    screen = view.model.session.screen
    if screen == REPLAY:
        keys = [("← →", N_("step")), ("↑ ↓", N_("deal")), (N_("Home End"), N_("start/end")),
                ("v", N_("coach's review")), (N_("Esc"), N_("back")), ("q", N_("quit"))]
        return render.key_hints(render.fit_keys(said_keys(keys), width - render.EDGE))
    elif screen == GAMES:
        keys = [("↑ ↓", N_("choose")), ("↵", N_("replay")), ("b", N_("leaderboard")), (N_("Esc"), N_("lobby")),
                ("q", N_("quit"))]
    elif screen == STATS:
        keys = stats_keys(view.stats)
    else:
        keys = [(N_("Tab"), ""), ("↑ ↓", N_("choose")), ("↵", N_("statistics")), ("m", N_("my games")),
                (N_("Esc"), N_("lobby")), ("q", N_("quit"))]
    # Whole hints left out where the screen is narrow ("m my games  E" at 60 columns).
    said = said_keys(keys)
    if screen == LEADERBOARD:
        said[0] = (said[0][0], "/".join(FAMILIES))
    return render.key_hints(render.fit_keys(said, width - render.EDGE))


def status_fragments(view: RecordsView, width: int | None = None) -> Fragments:
    return render.status_line(view.model, [("", "")], width)


# == the application's hooks ================================================================

def build_layout(view: RecordsView, width: Callable[[], int],
                 rows: Callable[[], int] = lambda: 24) -> Container:
    """The three screens, each shown while ``model.session.screen`` names it (``rows``: the screen's
    height, which bounds the log lines the replay draws)."""
    model = view.model

    def text(fn: Callable[[], Fragments]) -> FormattedTextControl:
        return FormattedTextControl(fn, focusable=False)

    def on(screen: str) -> Filter:
        return Condition(lambda: model.session.screen == screen)

    def when_replaying(fn: Callable[[Replay], Fragments]) -> Callable[[], Fragments]:
        return lambda: fn(view.replay) if view.replay is not None else []

    def log_shown(replay: Replay) -> list[LogLine]:
        return render.log_tail(replay.visible_log(), rows())

    def log_cursor() -> Point:  # the last row: a long line takes more than one
        if not view.replay:
            return Point(0, 0)
        return Point(0, render.last_row(render.log_fragments(log_shown(view.replay), width())))

    games = HSplit([
        Window(FormattedTextControl(lambda: games_fragments(view, width()), focusable=False,
                                    get_cursor_position=lambda: Point(0, view.cursor + 1)),
               always_hide_cursor=True),
        Window(text(lambda: status_fragments(view, width())), height=status_height, wrap_lines=True),
    ])
    board = HSplit([
        Window(text(lambda: leaderboard_fragments(view, width())), always_hide_cursor=True),
        Window(text(lambda: status_fragments(view, width())), height=status_height, wrap_lines=True),
    ])
    # The statistics' body has the screen less the title, status and keys lines.
    statistics = HSplit([
        Window(text(lambda: stats_fragments(view.stats, width(), rows() - 3)), always_hide_cursor=True),
        Window(text(lambda: status_fragments(view, width())), height=status_height, wrap_lines=True),
    ])
    replay = HSplit([
        Window(text(when_replaying(lambda r: render.pegs_fragments(r.pegs(), width()))),
               height=lambda: max(1, len(view.replay.pegs()) if view.replay else 1)),
        Window(height=1, char="─", style="class:dim"),
        Window(text(when_replaying(lambda r: step_fragments(r, width()))), height=2),
        Window(text(when_replaying(hands_fragments)),
               height=lambda: (view.replay.players + bool(view.replay.frame.crib)) if view.replay else 1),
        Window(height=1, char="─", style="class:dim"),
        Window(FormattedTextControl(when_replaying(lambda r: render.log_fragments(log_shown(r), width())),
                                    get_cursor_position=log_cursor, focusable=False),
               wrap_lines=True, always_hide_cursor=True),
    ])
    return HSplit([
        ConditionalContainer(games, filter=on(GAMES)),
        ConditionalContainer(board, filter=on(LEADERBOARD)),
        ConditionalContainer(replay, filter=on(REPLAY)),
        ConditionalContainer(statistics, filter=on(STATS)),
    ])


__all__ = ["RecordsView", "GAMES", "REPLAY", "LEADERBOARD", "STATS", "SCREENS",
           "build_layout", "title_fragments", "keys_fragments", "game_line"]
