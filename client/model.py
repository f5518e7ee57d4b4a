"""The client's view model: everything the screen shows, worked out from the server's messages.

Theory of operation
===================

:class:`ViewModel` is plain Python with no I/O and no prompt_toolkit, so it can be tested by
feeding it messages.  Three kinds of call reach it:

* ``handle(message, now)`` -- one message from the server (``welcome``, ``tables``,
  ``table``, ``event``, ``turn``, ``snapshot``, ``chat``, ``error``...).  Game ``event``
  messages carry the engine's events (``played``, ``scored``...) and update the hand, the
  pile, the count, the pegs and the log;
* the key methods (``move_cursor``, ``choose``, ``enter``, ``say_go``, ``sit``...) -- what
  the player asked for;
* ``connection_*`` -- the connection went down, is being retried, came back.

None of them sends anything: requests are appended to :attr:`ViewModel.outbox`, which the
application drains and writes to the connection.  Each request gets an ``id``; the reply
echoes it, which is how the model knows that a ``table`` reply is the table it just
created or sat at, and which request an ``error`` refuses.

The model keeps the last ``seq`` of the table's game stream.  If a message arrives with a
gap (a message was lost), it asks for a ``snapshot``, which rebuilds the game from the
server's record; a resumed connection gets a snapshot from the server unasked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from noddy.protocol import PROTOCOL_VERSION, REQUESTS, FieldSpec

from .cards import card_label, card_value, is_red, sort_cards

LOBBY = "lobby"
TABLE = "table"
CONNECTING = "connecting"

#: Turn-timer choices offered by the create-table form (seconds; None: no timer).
TIMER_CHOICES: tuple[float | None, ...] = (None, 15, 30, 60, 120)
#: How many log lines are kept (the screen shows the last few; PgUp scrolls back).
LOG_LIMIT = 500
#: How long the count of a deal stays up by itself once the game waits for the player (a
#: key closes it sooner); while others are to move it stays until a key.
COUNT_SECONDS = 8.0
#: What a request before the server's welcome gets instead of being sent (the server would
#: answer ``hello_required``, which is no word for a person).
NOT_CONNECTED = "Not connected yet: wait a moment (q quits)."


def request_field(kind: str, name: str) -> FieldSpec:
    """The protocol's schema of one field of a request: its limits are the client's too."""
    return next(spec for spec in REQUESTS[kind] if spec.name == name)


#: The longest table password the protocol accepts (``password`` of create_table/sit).
PASSWORD_LIMIT = request_field("sit", "password").max_length
#: The longest chat line the protocol accepts.
CHAT_LIMIT = request_field("chat", "text").max_length
#: The longest name a ``hello`` may give.
NAME_LIMIT = request_field("hello", "name").max_length


# -- small values ------------------------------------------------------------------------

@dataclass(frozen=True)
class LogLine:
    """One line of the log: ``segments`` are (style, text) pairs so cards can be coloured.

    ``style`` is one of ``event``, ``score``, ``deal``, ``chat``, ``error``, ``win``,
    ``info``, or ``card.red`` / ``card.black`` for a card inside a line.
    """

    kind: str
    segments: tuple[tuple[str, str], ...]

    @property
    def text(self) -> str:
        return "".join(text for _, text in self.segments)


def _line(kind: str, *parts: str | list[str] | tuple[str, ...]) -> LogLine:
    """A log line; a list/tuple part is a run of wire cards shown with their suit colours."""
    segments: list[tuple[str, str]] = []
    for part in parts:
        if isinstance(part, (list, tuple)):
            for i, card in enumerate(part):
                if i:
                    segments.append((kind, " "))
                segments.append(("card.red" if is_red(card) else "card.black", card_label(card)))
        elif part:
            segments.append((kind, part))
    return LogLine(kind, tuple(segments))


@dataclass(frozen=True)
class Peg:
    """One track of the peg board: a player or a team, with the front and back peg."""

    label: str
    front: int
    back: int
    target: int
    mine: bool


@dataclass(frozen=True)
class PasswordPrompt:
    """A private table asked for its password: what to send once it is typed.

    ``verb`` is ``sit`` or ``spectate``; ``seat`` is the seat asked for (sit only);
    ``retry`` says the last password was refused, so the screen can say so.
    """

    table: int
    verb: str
    seat: int | None = None
    retry: bool = False


@dataclass(frozen=True)
class CountRow:
    """One line of a deal's count: a hand (or the crib) with the turn-up and what it made."""

    label: str
    cards: tuple[str, ...]
    points: int | None
    announcement: str


@dataclass
class DealCount:
    """The count at the end of a deal, shown until a key (see :data:`COUNT_SECONDS`): every
    hand and the crib with the turn-up, each with its score as the announcement reads, and
    the totals after the deal once ``deal_ended`` gives them."""

    deal: int
    turn_up: str | None
    rows: list[CountRow]
    shown_at: float
    after: str = ""


@dataclass
class CreateForm:
    """The create-table form: a list of fields moved through with ↑↓ and changed with ←→.

    The choices come from the ``presets`` and ``levels`` the server describes in its
    ``welcome``, so the form offers exactly what the server accepts (player counts, options
    and their ranges, computer levels).  The password row is a text field: while it is the
    current row, typed characters go into it (:meth:`type_text`), and a table with a
    password is created private.
    """

    presets: list[dict[str, Any]]
    levels: list[str] = field(default_factory=list)
    level_index: int = 0
    password: str = ""
    preset_index: int = 0
    players_index: int = 0
    target: int = 31
    flags: dict[str, bool] = field(default_factory=dict)
    timer_index: int = 0
    computers: int = 1
    row: int = 0

    def __post_init__(self) -> None:
        self._preset_changed()

    @property
    def preset(self) -> dict[str, Any]:
        return self.presets[self.preset_index]

    def player_choices(self) -> list[tuple[int, bool]]:
        """(players, partnerships) pairs the preset is played with."""
        solo = [(n, False) for n in self.preset.get("players", [2])]
        pairs = [(n, True) for n in self.preset.get("partnership_players", [])]
        return solo + pairs

    @property
    def players(self) -> int:
        return self.player_choices()[self.players_index][0]

    @property
    def partnerships(self) -> bool:
        return self.player_choices()[self.players_index][1]

    def _option(self, name: str) -> dict[str, Any]:
        return self.preset.get("options", {}).get(name, {})

    def _preset_changed(self) -> None:
        self.players_index = 0
        target = self._option("target")
        self.target = int(target.get("default", 31))
        self.flags = {name: bool(spec.get("default", False))
                      for name, spec in self.preset.get("options", {}).items()
                      if spec.get("type") == "bool"}
        self.computers = self.players - 1

    def rows(self) -> list[tuple[str, str]]:
        """(label, value) of every row, in order; the last is the Create button."""
        players = f"{self.players}" + (" in partnerships" if self.partnerships else "")
        timer = TIMER_CHOICES[self.timer_index]
        out = [
            ("Preset", f"{self.preset['name']} — {self.preset.get('title', '')}".rstrip(" —")),
            ("Players", players),
            ("Target", str(self.target)),
        ]
        out += [(_FLAG_LABELS.get(name, name), "yes" if value else "no")
                for name, value in self.flags.items()]
        out += [
            ("Turn timer", "off" if timer is None else f"{timer:g} s"),
            ("Computer players", str(self.computers)),
        ]
        if self.levels:
            out.append(("Computer level", self.level or ""))
        out += [
            ("Password", self.password or "none: a public table"),
            ("", "[ Create private table ]" if self.password else "[ Create table ]"),
        ]
        return out

    def _row_keys(self) -> list[str]:
        levels = ["level"] if self.levels else []
        return ["preset", "players", "target", *self.flags, "timer", "computers", *levels,
                "password", "create"]

    def _row_key(self) -> str:
        return self._row_keys()[self.row]

    @property
    def level(self) -> str | None:
        """The level of the computer players the form seats (None: the server's default)."""
        return self.levels[self.level_index] if self.levels else None

    @property
    def on_password(self) -> bool:
        """The password row is current: printable keys type into it."""
        return self._row_key() == "password"

    def type_text(self, text: str) -> None:
        """Typed characters on the password row (anything printable, spaces too)."""
        if self.on_password:
            typed = "".join(ch for ch in text if ch.isprintable())
            self.password = (self.password + typed)[:PASSWORD_LIMIT]

    def backspace(self) -> None:
        if self.on_password:
            self.password = self.password[:-1]

    def move(self, delta: int) -> None:
        self.row = (self.row + delta) % len(self.rows())

    def change(self, delta: int, big: bool = False) -> None:
        """←/→ on the current row: cycle a choice, step a number, flip a yes/no."""
        key = self._row_key()
        if key == "preset":
            self.preset_index = (self.preset_index + delta) % len(self.presets)
            self._preset_changed()
        elif key == "players":
            self.players_index = (self.players_index + delta) % len(self.player_choices())
            self.computers = self.players - 1
        elif key == "target":
            spec = self._option("target")
            low, high = int(spec.get("min", 15)), int(spec.get("max", 500))
            step = 10 if big else 1
            self.target = min(high, max(low, self.target + delta * step))
        elif key == "timer":
            self.timer_index = (self.timer_index + delta) % len(TIMER_CHOICES)
        elif key == "computers":
            self.computers = min(self.players - 1, max(0, self.computers + delta))
        elif key == "level":
            self.level_index = (self.level_index + delta) % len(self.levels)
        elif key in self.flags:
            self.flags[key] = not self.flags[key]

    @property
    def on_create(self) -> bool:
        return self._row_key() == "create"

    def request(self) -> dict[str, Any]:
        """The ``create_table`` request this form describes (options only where not default)."""
        options: dict[str, Any] = {}
        if self.target != int(self._option("target").get("default", self.target)):
            options["target"] = self.target
        for name, value in self.flags.items():
            if value != bool(self._option(name).get("default", False)):
                options[name] = value
        message: dict[str, Any] = {"type": "create_table", "preset": self.preset["name"],
                                   "players": self.players, "partnerships": self.partnerships,
                                   "options": options, "seat": 0}
        timer = TIMER_CHOICES[self.timer_index]
        if timer is not None:
            message["turn_timer"] = timer
        if self.password:
            message["private"] = True
            message["password"] = self.password
        return message


_FLAG_LABELS = {
    "knave_noddy": "Turned-up Jack scores",
    "hitter_counts_thirty_one": "31 also pegs per card",
    "four_card": "Four cards each",
}

#: Used when the server's welcome lists no presets (an older server): the common ones.
FALLBACK_PRESETS: list[dict[str, Any]] = [
    {"name": "noddy", "title": "Noddy", "players": [2], "partnership_players": [4],
     "options": {"target": {"type": "int", "min": 15, "max": 500, "default": 31},
                 "knave_noddy": {"type": "bool", "default": True}}},
]


# -- the model -------------------------------------------------------------------------

def free_seats(summary: dict[str, Any]) -> list[int]:
    """The empty seats of a table summary, in order."""
    return [i for i, s in enumerate(summary.get("seats", [])) if s is None]


class ViewModel:
    """What the client knows and shows; see the module docstring."""

    def __init__(self, name: str = "player") -> None:
        self.name = name
        self.screen = CONNECTING
        self.connection = "connecting"   # connecting | online | reconnecting | offline
        self.connection_detail = ""
        self.token: str | None = None
        self.server = ""
        self.presets: list[dict[str, Any]] = []
        self.levels: list[str] = []
        self.default_level: str | None = None
        #: The level of the next computer player added at the table (v cycles it).
        self.computer_level: str | None = None
        #: Set while the password of a private table is being asked for.
        self.password_prompt: PasswordPrompt | None = None
        #: Set (to why) while another name is asked for: the server refused this one.
        self.name_prompt: str | None = None
        #: The name the last hello asked for (the resume token is kept under it).
        self.requested_name = name
        #: The server has welcomed this connection: requests may be sent.
        self.welcomed = False
        #: How long the server holds a dropped player's seat (its welcome says).
        self.grace: float | None = None
        #: The count of the last deal, while it is on the screen.
        self.deal_count: DealCount | None = None
        self._now = 0.0
        #: "remove" while the player is picking which computer to remove with a seat key.
        self.picking: str | None = None
        self.tables: dict[int, dict[str, Any]] = {}
        self.lobby_cursor = 0
        self.lobby_chat: list[LogLine] = []
        self.form: CreateForm | None = None
        self.status = ""          # the one-line message under the board (errors, hints)
        self.status_is_error = False
        self.outbox: list[dict[str, Any]] = []
        self._next_id = 1
        self._pending: dict[int, dict[str, Any]] = {}
        self._after_create: list[dict[str, Any]] = []
        self.quick_start: dict[str, Any] | None = None
        # the table
        self.table_id: int | None = None
        self.table: dict[str, Any] | None = None
        self.seat: int | None = None
        self._reset_game()

    def _reset_game(self) -> None:
        self.seq = 0
        self.in_game = False
        self.preset: str | None = None
        self.players = 0
        self.partnerships = False
        self.target = 31
        self.deal = 0
        self.dealer: int | None = None
        self.phase = ""
        self.hand: list[str] = []
        self.hand_sizes: list[int] = []
        self.crib_size = 0
        self.turn_up: str | None = None
        self.pile: list[tuple[int, str]] = []
        self.count = 0
        self.scores: list[int] = []
        self.back_pegs: list[int] = []
        self.to_move: int | None = None
        self.awaiting: list[int] = []
        self.legal: list[dict[str, Any]] = []
        self.time_left: float | None = None
        self._time_at = 0.0
        self.winner: int | None = None
        self.winning_seats: list[int] = []
        self.cursor = 0
        self.selected: set[str] = set()
        self.log: list[LogLine] = []
        #: How many of the newest log lines are scrolled out of view (0: following the log).
        self.log_scroll = 0
        self._show_points: dict[int, int] = {}
        self._show_announcements: dict[int, str] = {}
        self._crib_points: int | None = None
        self._crib_announcement = ""
        self._points_by_reason: dict[int, dict[str, int]] = {}
        self._best_show: dict[int, int] = {}
        self._sending_action = False

    # == requests ========================================================================
    def send(self, kind: str, **fields: Any) -> int:
        """Queue a request; returns its id (0: not sent, there is no welcomed connection)."""
        if not self.welcomed:
            self.set_status(NOT_CONNECTED, error=True)
            return 0
        request_id = self._next_id
        self._next_id += 1
        message = {"type": kind, **fields, "id": request_id}
        self._pending[request_id] = message
        self.outbox.append(message)
        return request_id

    def take_outbox(self) -> list[dict[str, Any]]:
        out, self.outbox = self.outbox, []
        return out

    def hello(self) -> dict[str, Any]:
        """The hello for a new connection: with the resume token when we hold a seat."""
        message: dict[str, Any] = {"type": "hello", "name": self.name, "version": PROTOCOL_VERSION}
        self.requested_name = self.name
        if self.token is not None:
            message["resume"] = self.token
        return message

    # == the connection ==================================================================
    def connection_up(self) -> None:
        self.connection = "online"
        self.connection_detail = ""
        self.welcomed = False
        if self.status == NOT_CONNECTED:
            self.clear_status()
        self.outbox.append(self.hello())

    def connection_lost(self, detail: str) -> None:
        self.connection = "reconnecting"
        self.connection_detail = detail
        self.welcomed = False
        self._pending.clear()
        self.outbox.clear()
        self._sending_action = False
        # Nothing can be played until the server has said again whose turn it is.
        self.awaiting, self.legal = [], []

    def connection_failed(self, detail: str) -> None:
        self.connection = "offline"
        self.connection_detail = detail

    # == messages from the server ========================================================
    def handle(self, message: dict[str, Any], now: float = 0.0) -> None:
        self._now = now
        kind = message.get("type")
        request = self._pending.pop(message["id"], None) if isinstance(message.get("id"), int) else None
        handler = getattr(self, f"_on_{kind}", None) if isinstance(kind, str) else None
        if handler is not None:
            handler(message, request, now)

    def _on_greeting(self, m: dict[str, Any], request: Any, now: float) -> None:
        self.server = str(m.get("server", ""))

    def _on_welcome(self, m: dict[str, Any], request: Any, now: float) -> None:
        self.welcomed = True
        self.name_prompt = None
        if self.status == NOT_CONNECTED:
            self.clear_status()
        limits = m.get("limits") or {}
        if isinstance(limits.get("grace_period"), (int, float)):
            self.grace = float(limits["grace_period"])
        self.name = m.get("name", self.name)
        self.token = m.get("token")
        self.server = m.get("server", self.server)
        self.presets = list(m.get("presets") or FALLBACK_PRESETS)
        self.levels = list(m.get("levels") or [])
        self.default_level = m.get("default_level")
        if self.computer_level not in self.levels:
            self.computer_level = (self.default_level if self.default_level in self.levels
                                   else (self.levels[0] if self.levels else None))
        if m.get("resumed") and m.get("table") is not None:
            self.set_status("Connection restored; back at the table.")
            self.table_id = m["table"]
            self.seat = m.get("seat")
            self.screen = TABLE
            return
        if self.table_id is not None and not m.get("resumed"):
            self._leave_table("Your seat was not held; back in the lobby.")
        self.screen = LOBBY
        self.send("list_tables")
        if self.quick_start is not None:
            settings, self.quick_start = dict(self.quick_start), None
            computers = settings.pop("computers", settings.get("players", 2) - 1)
            described = next((p for p in self.presets if p.get("name") == settings.get("preset")), None)
            players = settings.get("players", 2)
            if (described is not None and "partnerships" not in settings
                    and players not in described.get("players", [])
                    and players in described.get("partnership_players", [])):
                settings["partnerships"] = True
            self._create(settings, computers=computers, ready=True)

    def _on_tables(self, m: dict[str, Any], request: Any, now: float) -> None:
        self.tables = {t["id"]: t for t in m.get("tables", [])}
        self._clamp_lobby_cursor()

    def _on_table(self, m: dict[str, Any], request: Any, now: float) -> None:
        summary = m["table"]
        self.tables[summary["id"]] = summary
        if request is not None and request["type"] in ("create_table", "sit", "spectate", "stand"):
            if "seat" in m:
                # A server that says where we now are is the truth (docs/PROTOCOL.md).
                self.seat = m["seat"]
            elif request["type"] == "create_table":
                self.seat = request.get("seat", 0)
            elif request["type"] == "sit":
                self.seat = request.get("seat")
            else:
                self.seat = None
            self.picking = None
            if self.table_id != summary["id"]:
                self._enter_table(summary["id"])
            follow, self._after_create = self._after_create, []
            for extra in follow:
                self.send(extra.pop("type"), **extra)
        if summary["id"] == self.table_id:
            self.table = summary
            if summary.get("status") != "playing" and self.in_game and self.winner is None:
                self.in_game = False
        self._clamp_lobby_cursor()

    def _on_table_closed(self, m: dict[str, Any], request: Any, now: float) -> None:
        self.tables.pop(m.get("table"), None)
        if m.get("table") == self.table_id:
            self._leave_table(f"Table {m.get('table')} closed: {m.get('reason', '')}".rstrip(": "))
        self._clamp_lobby_cursor()

    def _on_ok(self, m: dict[str, Any], request: Any, now: float) -> None:
        if request is None:
            return
        if request["type"] == "leave":
            self._leave_table("You left the table.")
        elif request["type"] == "action":
            self._sending_action = False

    def _on_error(self, m: dict[str, Any], request: Any, now: float) -> None:
        code = m.get("code", "")
        if code == "bad_token":
            # The seat was not held (the grace period passed): start afresh as a new player.
            self.token = None
            if self.table_id is not None:
                self._leave_table("Your seat was given up while you were away.")
            self.outbox.append(self.hello())
            return
        if not self.welcomed and m.get("field") == "name":
            # The hello was refused for its name: ask for another here, not on the command line.
            why = "is taken" if code == "name_taken" else f"cannot be used: {m.get('message', '')}"
            self.name_prompt = (f"The name {self.name!r} {why}. Type another name and press "
                                "Enter (Ctrl-Q quits).")
            self.set_status(self.name_prompt, error=True)
            return
        if code == "hello_required":
            self.set_status(NOT_CONNECTED, error=True)
            return
        if request is not None and request["type"] == "action":
            self._sending_action = False
        if request is not None and request["type"] == "create_table":
            self._after_create = []
        if (code == "wrong_password" and request is not None
                and request["type"] in ("sit", "spectate") and isinstance(request.get("table"), int)):
            # Ask again: a mistyped password should cost one more try, not a trip back.
            self.password_prompt = PasswordPrompt(request["table"], request["type"],
                                                  request.get("seat"), retry=True)
            self.set_status(f"Wrong password for table {request['table']}: type it again, "
                            "or Esc.", error=True)
            return
        # The message is for people; the code is for programs and stays off the screen.
        self.set_status(str(m.get("message") or code.replace("_", " ")), error=True)

    def _on_chat(self, m: dict[str, Any], request: Any, now: float) -> None:
        line = _line("chat", f"<{m.get('from', '?')}> {m.get('text', '')}")
        if m.get("to") == "table":
            self._log(line)
        else:
            self.lobby_chat.append(line)
            del self.lobby_chat[:-LOG_LIMIT]

    def _on_player_away(self, m: dict[str, Any], request: Any, now: float) -> None:
        grace = m.get("grace")
        wait = f"; the seat is held for {grace:g} s" if isinstance(grace, (int, float)) else ""
        self._log(_line("info", f"{m.get('name', 'A player')} lost the connection{wait}."))

    def _on_player_back(self, m: dict[str, Any], request: Any, now: float) -> None:
        self._log(_line("info", f"{m.get('name', 'A player')} is back."))

    def _on_player_replaced(self, m: dict[str, Any], request: Any, now: float) -> None:
        self._log(_line("info", f"{m.get('name', 'A player')} has gone; a {m.get('level', '')} "
                                "computer player takes the seat."))

    def _on_timed_out(self, m: dict[str, Any], request: Any, now: float) -> None:
        who = self.seat_name(m.get("seat"))
        self._log(_line("info", f"{who} ran out of time; a move was made for them."))

    def _on_shutdown(self, m: dict[str, Any], request: Any, now: float) -> None:
        self.set_status(m.get("message", "the server is shutting down"), error=True)

    def _on_bye(self, m: dict[str, Any], request: Any, now: float) -> None:
        if m.get("reason") and m.get("reason") != "goodbye":
            self.set_status(f"The server said goodbye: {m['reason']}", error=True)

    def _on_snapshot(self, m: dict[str, Any], request: Any, now: float) -> None:
        summary = m.get("table") or {}
        if "id" in summary:
            self.tables[summary["id"]] = summary
            if self.table_id != summary["id"]:
                self._enter_table(summary["id"])
            self.table = summary
        self.seat = m.get("seat")
        self._reset_game()
        shown = self.deal_count       # replaying old deals must not put their count up again
        for entry in m.get("events", []):
            self._apply_event(entry["event"])
            self.seq = entry.get("seq", self.seq)
        self.deal_count = shown
        self.seq = m.get("seq", self.seq)
        game = m.get("game")
        if game is not None:
            self._adopt_observation(game)
            if m.get("turn") is None:
                self.to_move, self.awaiting, self.legal = None, [], []
        turn = m.get("turn")
        if turn is not None:
            self._on_turn(turn, None, now)

    def _adopt_observation(self, game: dict[str, Any]) -> None:
        """The server's own view of the game is the truth: take it over the replayed events."""
        self.in_game = game.get("phase") != "over" or self.winner is not None
        self.preset = game.get("preset", self.preset)
        self.players = game.get("players", self.players)
        self.partnerships = game.get("partnerships", self.partnerships)
        self.target = game.get("target", self.target)
        self.deal = game.get("deal", self.deal)
        self.dealer = game.get("dealer", self.dealer)
        if game.get("hand") is not None:
            self.hand = sort_cards(game["hand"])
        self.hand_sizes = list(game.get("hand_sizes", self.hand_sizes))
        self.crib_size = game.get("crib_size", self.crib_size)
        self.turn_up = game.get("turn_up")
        played = game.get("played", [])
        pile = game.get("pile", [])
        tail = played[len(played) - len(pile):] if pile else []
        self.pile = [(p["seat"], p["card"]) for p in tail]
        self.count = game.get("count", 0)
        scores = list(game.get("scores", self.scores))
        if len(self.back_pegs) != len(scores):
            self.back_pegs = [0] * len(scores)
        self.scores = scores
        self.to_move = game.get("to_move")
        self.legal = [dict(a) for a in game.get("legal_actions", [])]
        self.phase = game.get("phase", self.phase)
        self._clamp_cursor()

    def _on_event(self, m: dict[str, Any], request: Any, now: float) -> None:
        if self.table_id is not None and m.get("table") not in (None, self.table_id):
            return
        seq = m.get("seq")
        if isinstance(seq, int):
            if self.seq and seq <= self.seq:
                return          # already seen (a snapshot covered it)
            if self.seq and seq != self.seq + 1:
                self._request_snapshot()
            self.seq = seq
        self._apply_event(m["event"])

    def _on_turn(self, m: dict[str, Any], request: Any, now: float) -> None:
        if self.table_id is not None and m.get("table") not in (None, self.table_id):
            return
        seq = m.get("seq")
        if isinstance(seq, int) and self.seq and seq > self.seq:
            self._request_snapshot()
        self.to_move = m.get("to_move")
        self.awaiting = list(m.get("awaiting", []))
        self.legal = [dict(a) for a in m.get("legal_actions", [])]
        self.time_left = m.get("time_left")
        self._time_at = now
        self._sending_action = False
        if not self.can_act:
            self.selected.clear()
        self._clamp_cursor()

    def _request_snapshot(self) -> None:
        if not any(p["type"] == "snapshot" for p in self._pending.values()):
            self.send("snapshot")

    # == game events =====================================================================
    def _apply_event(self, e: dict[str, Any]) -> None:
        handler = getattr(self, "_ev_" + str(e.get("kind", "")).replace("-", "_"), None)
        if handler is not None:
            handler(e)

    def _ev_game_started(self, e: dict[str, Any]) -> None:
        log = self.log
        seq = self.seq
        self._reset_game()
        self.seq = seq
        self.log = log
        self.in_game = True
        self.preset = e["preset"]
        self.players = e["players"]
        self.partnerships = e["partnerships"]
        self.target = e["target"]
        teams = 2 if self.partnerships else self.players
        self.scores = [0] * teams
        self.back_pegs = [0] * teams
        self.hand_sizes = [0] * self.players
        self._points_by_reason = {t: {} for t in range(teams)}
        how = f"{self.players} players" + (" in partnerships" if self.partnerships else "")
        self._log(_line("deal", f"New game of {self.preset}, {how}, first to {self.target}."))

    def _ev_cut_for_deal(self, e: dict[str, Any]) -> None:
        cuts: list[str | list[str]] = ["Cut for deal: "]
        for i, cut in enumerate(e.get("cuts", [])):
            cuts += [", " if i else "", f"{self.seat_name(cut['seat'])} ", [cut["card"]]]
        if e.get("dealer") is None:
            cuts.append(" — a tie, cut again.")
        else:
            cuts.append(f" — {self.seat_name(e['dealer'])} deals.")
        self._log(_line("event", *cuts))

    def _ev_deal_started(self, e: dict[str, Any]) -> None:
        self.deal = e["deal"]
        self.dealer = e["dealer"]
        self.phase = "deal"
        self.hand = []
        self.hand_sizes = [0] * self.players
        self.crib_size = 0
        self.turn_up = None
        self.pile = []
        self.count = 0
        self.selected.clear()
        self.cursor = 0
        self._show_points = {}
        self._show_announcements = {}
        self._crib_points = None
        self._crib_announcement = ""
        self._log(_line("deal", f"— Deal {self.deal}: {self.seat_name(self.dealer)} deals —"))

    def _ev_cards_dealt(self, e: dict[str, Any]) -> None:
        seat = e["seat"]
        if 0 <= seat < len(self.hand_sizes):
            self.hand_sizes[seat] = e["count"]
        if seat == self.seat and e.get("cards") is not None:
            self.hand = sort_cards(e["cards"])
            self._log(_line("event", "You hold ", self.hand, "."))
        self.phase = "discard"

    def _ev_discarded(self, e: dict[str, Any]) -> None:
        seat = e.get("seat")
        self.crib_size += e["count"]
        if seat is None:
            self._log(_line("event", "The pack gives the crib a card."))
            return
        if 0 <= seat < len(self.hand_sizes):
            self.hand_sizes[seat] -= e["count"]
        crib = self._whose_crib()
        if seat == self.seat and e.get("cards") is not None:
            for card in e["cards"]:
                if card in self.hand:
                    self.hand.remove(card)
            self.selected.clear()
            self._clamp_cursor()
            self._log(_line("event", "You lay away ", list(e["cards"]), f" to {crib} crib."))
        else:
            n = e["count"]
            self._log(_line("event", f"{self.seat_name(seat)} lays away {n} card{'s' * (n != 1)}."))

    def _ev_turned_up(self, e: dict[str, Any]) -> None:
        self.turn_up = e["card"]
        self.phase = "play"
        self._log(_line("event", "Turn-up: ", [e["card"]], "."))

    def _ev_scored(self, e: dict[str, Any]) -> None:
        seat = e["seat"]
        team = self.team_of(seat)
        scores = list(e.get("scores", self.scores))
        if len(self.back_pegs) != len(scores):
            self.back_pegs = [0] * len(scores)
        if e.get("points", 0) and 0 <= team < len(scores):
            self.back_pegs[team] = self.scores[team] if team < len(self.scores) else 0
        self.scores = scores
        reason = e.get("reason", "")
        by_reason = self._points_by_reason.setdefault(team, {})
        by_reason[reason] = by_reason.get(reason, 0) + e.get("points", 0)
        who = self.seat_name(seat)
        announcement = e.get("announcement") or "nothing"
        if reason == "show":
            self._show_points[seat] = e.get("points", 0)
            self._show_announcements[seat] = e.get("announcement") or ""
            self._best_show[seat] = max(self._best_show.get(seat, 0), e.get("points", 0))
            self._log(_line("score", f"{who}: {announcement}"))
        elif reason == "crib":
            self._crib_points = e.get("points", 0)
            self._crib_announcement = e.get("announcement") or ""
            self._log(_line("score", f"{who}'s crib: {announcement}"))
        elif reason == "turn-up":
            self._log(_line("score", f"{who}: {announcement} (the turn-up)"))
        elif reason == "first deal":
            self._log(_line("score", f"{who} pegs {e.get('points', 0)} for the first deal."))
        else:
            self._log(_line("score", f"{who}: {announcement}"))

    def _ev_played(self, e: dict[str, Any]) -> None:
        seat, card = e["seat"], e["card"]
        self.pile.append((seat, card))
        self.count = e["count"]
        self.phase = "play"
        if 0 <= seat < len(self.hand_sizes):
            self.hand_sizes[seat] -= 1
        if seat == self.seat and card in self.hand:
            self.hand.remove(card)
            self._clamp_cursor()
        self._log(_line("event", f"{self.seat_name(seat)} plays ", [card], f" — {number_words(self.count)}"))

    def _ev_go(self, e: dict[str, Any]) -> None:
        self._log(_line("event", f"{self.seat_name(e['seat'])}: go"))

    def _ev_count_reset(self, e: dict[str, Any]) -> None:
        self.pile = []
        self.count = 0
        self._log(_line("event", "The count starts again from nought."))

    def _ev_hands_revealed(self, e: dict[str, Any]) -> None:
        up = [self.turn_up] if self.turn_up else []
        for seat, hand in enumerate(e.get("hands", [])):
            points = self._show_points.get(seat)
            tail = "" if points is None else f": {points}"
            self._log(_line("event", f"{self.seat_name(seat)}'s hand ", list(hand),
                            " + " if up else "", up, tail))
        crib = e.get("crib")
        if crib is not None and self.dealer is not None:
            tail = "" if self._crib_points is None else f": {self._crib_points}"
            self._log(_line("event", f"{self.seat_name(self.dealer)}'s crib ", list(crib),
                            " + " if up else "", up, tail))
        rows = [CountRow(self.seat_name(seat), tuple(hand), self._show_points.get(seat),
                         self._show_announcements.get(seat, ""))
                for seat, hand in enumerate(e.get("hands", []))]
        if crib is not None:
            rows.append(CountRow("crib", tuple(crib), self._crib_points, self._crib_announcement))
        self.deal_count = DealCount(self.deal, self.turn_up, rows, self._now)

    def _ev_deal_ended(self, e: dict[str, Any]) -> None:
        self.scores = list(e.get("scores", self.scores))
        self.phase = "deal over"
        figures = ", ".join(f"{label} {score}" for label, score in zip(self.team_labels(), self.scores))
        self._log(_line("deal", f"After deal {e['deal']}: {figures}."))
        if self.deal_count is not None and self.deal_count.deal == e["deal"]:
            self.deal_count.after = f"After deal {e['deal']}: {figures}."

    def _ev_game_over(self, e: dict[str, Any]) -> None:
        self.scores = list(e.get("scores", self.scores))
        self.winner = e["winner"]
        self.winning_seats = list(e.get("winning_seats", []))
        self.phase = "over"
        self.to_move, self.awaiting, self.legal = None, [], []
        labels = self.team_labels()
        winner = labels[self.winner] if 0 <= self.winner < len(labels) else f"seat {self.winner}"
        others = [s for i, s in enumerate(self.scores) if i != self.winner]
        against = " to ".join(str(s) for s in others)
        self._log(_line("win", f"{winner} wins the game, {self.scores[self.winner]} to {against}!"))
        self._log(_line("win", f"Summary after {self.deal} deal{'s' * (self.deal != 1)}:"))
        for team, label in enumerate(labels):
            parts = self._points_by_reason.get(team, {})
            detail = ", ".join(f"{reason} {points}" for reason, points in sorted(parts.items()) if points)
            seats = self.seats_of_team(team)
            best = max((self._best_show.get(s, 0) for s in seats), default=0)
            self._log(_line("win", f"  {label}: {self.scores[team]} ({detail or 'nothing'}; "
                                   f"best hand {best})"))

    # == questions the screen asks =======================================================
    def seat_name(self, seat: int | None) -> str:
        if seat is None:
            return "nobody"
        seats = (self.table or {}).get("seats") or []
        if 0 <= seat < len(seats) and seats[seat] is not None:
            return str(seats[seat].get("name") or f"seat {seat}")
        return f"seat {seat}"

    def seat_marks(self) -> list[str]:
        """One character per seat, to mark who played each card of the pile: the players'
        initials, or their seat numbers (1, 2...) when two share an initial."""
        initials = [(self.seat_name(s)[:1] or "?").upper() for s in range(self.players)]
        if len(set(initials)) == len(initials):
            return initials
        return [str(s + 1) for s in range(self.players)]

    def _whose_crib(self) -> str:
        return "your" if self.dealer == self.seat else f"{self.seat_name(self.dealer)}'s"

    def team_of(self, seat: int) -> int:
        return seat % 2 if self.partnerships else seat

    def seats_of_team(self, team: int) -> list[int]:
        if not self.partnerships:
            return [team]
        return [s for s in range(self.players) if s % 2 == team]

    def team_labels(self) -> list[str]:
        teams = len(self.scores) or (2 if self.partnerships else self.players)
        return [" & ".join(self.seat_name(s) for s in self.seats_of_team(t)) for t in range(teams)]

    @property
    def my_team(self) -> int | None:
        return None if self.seat is None else self.team_of(self.seat)

    @property
    def i_won(self) -> bool:
        return self.winner is not None and self.winner == self.my_team

    def pegs(self) -> list[Peg]:
        """One track per player or team: the front peg (the score) and the back peg (the
        score before the last points made), as on a real board."""
        labels = self.team_labels()
        return [Peg(labels[t], self.scores[t], min(self.back_pegs[t], self.scores[t])
                    if t < len(self.back_pegs) else 0, self.target, t == self.my_team)
                for t in range(len(self.scores))]

    @property
    def can_act(self) -> bool:
        return self.seat is not None and self.seat in self.awaiting and bool(self.legal)

    def playable(self) -> set[str]:
        """The cards the player may play now (highlighted on the screen)."""
        if not self.can_act:
            return set()
        return {a["card"] for a in self.legal if a.get("action") == "play" and "card" in a}

    @property
    def go_is_legal(self) -> bool:
        return self.can_act and any(a.get("action") == "go" for a in self.legal)

    @property
    def discard_size(self) -> int:
        """Cards to lay away now (0 unless a discard is the player's legal move)."""
        if not self.can_act:
            return 0
        for a in self.legal:
            if a.get("action") == "discard":
                return len(a.get("cards", []))
        return 0

    def time_left_now(self, now: float) -> float | None:
        if self.time_left is None:
            return None
        return max(0.0, self.time_left - (now - self._time_at))

    def prompt(self) -> str:
        """The line that says what happens now, and what the player may do."""
        if self.connection in ("reconnecting", "offline"):
            return self.connection_words()
        if self.winner is not None:
            if self.seat is None:
                return "The game is over: l goes back to the lobby."
            return "The game is over: r to play again, l to leave the table."
        if self.picking == "remove":
            return "Remove which computer? Press its seat number; Esc keeps them all."
        if not self.in_game:
            if self.table is not None and self.seat is not None:
                seats = self.table.get("seats", [])
                if not free_seats(self.table):
                    mine = seats[self.seat] if self.seat < len(seats) else None
                    if not (mine or {}).get("ready"):
                        return "Every seat is taken: r says you are ready, and the game begins."
                    waiting = [str(s.get("name")) for i, s in enumerate(seats)
                               if s is not None and i != self.seat and not s.get("ready")]
                    return (f"You are ready; waiting for {', '.join(waiting) or 'the others'} "
                            "(r: not ready after all).")
                level = f" ({self.computer_level})" if self.computer_level else ""
                return f"Waiting for players: a adds a computer{level}, r says you are ready."
            if self.seats_open:
                return "Watching: s or a seat number sits you down, l goes back to the lobby."
            return "Watching: l goes back to the lobby."
        size = self.discard_size
        if size:
            crib = self._whose_crib()
            chosen = len(self.selected)
            return (f"Lay away {size} for {crib} crib ({chosen}/{size}): keys 1-{len(self.hand)} "
                    "or ←→ Space, then Enter.")
        if self.can_act:
            if self.go_is_legal:
                return "You cannot play without passing 31: g (or Enter) says go."
            if len(self.hand) == 1:
                return "Your turn: play your card with 1, or Enter."
            return f"Your turn: play a card with 1-{len(self.hand)}, or ←→ and Enter."
        if len(self.awaiting) > 1 or (self.phase == "discard" and self.awaiting):
            names = ", ".join(self.seat_name(s) for s in self.awaiting if s != self.seat)
            return f"Waiting for {names} to lay away."
        if self.to_move is not None:
            return f"{self.seat_name(self.to_move)} to play."
        return ""

    def connection_words(self) -> str:
        """The connection is down: what happened, in words, and the two ways on."""
        detail = self.connection_detail
        if detail.startswith("cannot reach"):
            said = detail[:1].upper() + detail[1:]
        elif detail:
            said = f"Connection lost ({detail}); reconnecting by itself"
        else:
            said = "Connection lost; reconnecting by itself"
        return f"{said}. r tries now, q quits."

    # == the count at the end of a deal ===================================================
    def count_expired(self, now: float) -> bool:
        """The count has been up :data:`COUNT_SECONDS` and the game waits for this player (or
        they only watch): it goes by itself, so nobody waits on a screen nobody reads."""
        count = self.deal_count
        return (count is not None and now - count.shown_at >= COUNT_SECONDS
                and (self.seat is None or self.can_act or self.winner is not None))

    def dismiss_count(self) -> None:
        self.deal_count = None

    # == the name ============================================================================
    def submit_name(self, text: str) -> None:
        """Enter on the name line: say hello again under the name typed."""
        name = " ".join(text.split())
        if not name:
            self.set_status("Type a name first (Ctrl-Q quits).", error=True)
            return
        self.name = name[:NAME_LIMIT]
        self.name_prompt = None
        self.token = None
        self.clear_status()
        self.outbox.append(self.hello())

    def table_line(self, summary: dict[str, Any]) -> str:
        """One row of the lobby's table list, in plain text: each seated player with their
        rating in the table's family (docs/PROTOCOL.md "Ratings") when the server gives it."""
        options = summary.get("options") or {}
        target = options.get("target")
        seats = []
        for seat in summary.get("seats", []):
            if seat is None:
                seats.append("·free·")
            else:
                mark = "" if seat.get("connected", True) else "(away)"
                rating = f" ({seat['rating']})" if isinstance(seat.get("rating"), int) else ""
                seats.append(f"{seat['name']}{rating}{mark}")
        who = f"{summary['players']}p" + (" pairs" if summary.get("partnerships") else "")
        extra = []
        if target is not None:
            extra.append(f"to {target}")
        extra += [name for name, value in options.items() if name != "target" and value is True]
        extra += [f"no {name}" for name, value in options.items() if value is False]
        if summary.get("turn_timer"):
            extra.append(f"{summary['turn_timer']:g}s timer")
        if summary.get("private"):
            extra.append("private")
        watchers = len(summary.get("spectators", []))
        return (f"#{summary['id']:<3} {summary['preset']:<18} {who:<8} {summary.get('status', ''):<9} "
                f"{', '.join(seats)}" + (f"  [{'; '.join(extra)}]" if extra else "")
                + (f"  {watchers} watching" if watchers else ""))

    def sorted_tables(self) -> list[dict[str, Any]]:
        return [self.tables[k] for k in sorted(self.tables)]

    # == what the player does =============================================================
    def set_status(self, text: str, error: bool = False) -> None:
        self.status = text
        self.status_is_error = error

    def clear_status(self) -> None:
        self.status = ""
        self.status_is_error = False

    def _log(self, line: LogLine) -> None:
        self.log.append(line)
        if self.log_scroll:
            # Scrolled back: keep the lines being read in place while new ones arrive.
            self.log_scroll += 1
        del self.log[:-LOG_LIMIT]
        self.log_scroll = min(self.log_scroll, max(0, len(self.log) - 1))

    def scroll_log(self, lines: int, view_height: int = 1) -> None:
        """PgUp (positive) / PgDn (negative): scroll the log back or forward by ``lines``,
        no further back than a window of ``view_height`` lines full of the oldest ones."""
        furthest = max(0, len(self.log) - max(1, view_height))
        self.log_scroll = max(0, min(self.log_scroll + lines, furthest))

    def scroll_log_to_end(self) -> None:
        self.log_scroll = 0

    def visible_log(self) -> list[LogLine]:
        """The log up to the line scrolled to; the screen shows its last lines."""
        return self.log[:len(self.log) - self.log_scroll]

    def _enter_table(self, table_id: int) -> None:
        self.table_id = table_id
        self.deal_count = None
        self.table = self.tables.get(table_id)
        self.screen = TABLE
        self._reset_game()

    def _leave_table(self, why: str) -> None:
        self.table_id = None
        self.table = None
        self.seat = None
        self.deal_count = None
        self._reset_game()
        self.screen = LOBBY
        self.set_status(why)
        if self.welcomed:
            self.send("list_tables")

    def _clamp_cursor(self) -> None:
        self.cursor = max(0, min(self.cursor, len(self.hand) - 1))
        self.selected &= set(self.hand)

    def _clamp_lobby_cursor(self) -> None:
        self.lobby_cursor = max(0, min(self.lobby_cursor, len(self.tables) - 1))

    # lobby
    def lobby_move(self, delta: int) -> None:
        if self.tables:
            self.lobby_cursor = (self.lobby_cursor + delta) % len(self.tables)

    def selected_table(self) -> dict[str, Any] | None:
        tables = self.sorted_tables()
        return tables[self.lobby_cursor] if tables else None

    def sit(self, seat: int | None = None) -> None:
        """Sit at the table under the cursor: in ``seat`` (0-based; the screen and the keys
        say 1, 2...), or in the first free one.  A private table asks for its password first."""
        table = self.selected_table()
        if table is None:
            self.set_status("There is no table yet: n creates one.", error=True)
            return
        seats = table.get("seats", [])
        free = free_seats(table)
        if seat is None:
            if not free:
                self.set_status(f"Table {table['id']} has no free seat; w watches it.", error=True)
                return
            seat = free[0]
        elif not 0 <= seat < len(seats):
            self.set_status(f"Table {table['id']} has seats 1 to {len(seats)}.", error=True)
            return
        elif seats[seat] is not None:
            self.set_status(f"{seats[seat].get('name', 'Someone')} sits in seat {seat + 1} "
                            f"of table {table['id']}.", error=True)
            return
        if table.get("private"):
            self.password_prompt = PasswordPrompt(table["id"], "sit", seat)
            return
        self.send("sit", table=table["id"], seat=seat)

    def spectate(self) -> None:
        """Watch the table under the cursor (a private one asks for its password first)."""
        table = self.selected_table()
        if table is None:
            self.set_status("There is no table to watch.", error=True)
            return
        if table.get("private"):
            self.password_prompt = PasswordPrompt(table["id"], "spectate")
            return
        self.send("spectate", table=table["id"])

    def submit_password(self, password: str) -> None:
        """Enter on the password line: send the sit or spectate it was asked for."""
        prompt = self.password_prompt
        if prompt is None:
            return
        if not password:
            self.set_status(f"Table {prompt.table} is private: type its password, or Esc.",
                            error=True)
            return
        self.password_prompt = None
        self.clear_status()
        fields: dict[str, Any] = {"table": prompt.table, "password": password[:PASSWORD_LIMIT]}
        if prompt.verb == "sit":
            fields["seat"] = prompt.seat
        self.send(prompt.verb, **fields)

    def cancel_password(self) -> None:
        self.password_prompt = None
        self.clear_status()

    def open_form(self) -> None:
        levels = list(self.levels)
        level_index = levels.index(self.computer_level) if self.computer_level in levels else 0
        self.form = CreateForm(self.presets or FALLBACK_PRESETS, levels=levels,
                               level_index=level_index)

    def close_form(self) -> None:
        self.form = None

    def submit_form(self) -> None:
        if self.form is None:
            return
        form, self.form = self.form, None
        request = form.request()
        request.pop("type")
        if form.level is not None:
            self.computer_level = form.level
        self._create(request, computers=form.computers, ready=form.computers == form.players - 1,
                     level=form.level)

    def _create(self, settings: dict[str, Any], computers: int, ready: bool,
                level: str | None = None) -> None:
        """Create a table, then (once it exists) fill seats with computers and say ready."""
        settings = dict(settings)
        settings.setdefault("seat", 0)
        players = settings.get("players", 2)
        follow: list[dict[str, Any]] = []
        for seat in range(players):
            if seat != settings["seat"] and len(follow) < computers:
                follow.append({"type": "add_computer", "seat": seat}
                              | ({"level": level} if level else {}))
        if ready:
            follow.append({"type": "ready", "ready": True})
        self._after_create = follow
        self.send("create_table", **settings)

    # at a table
    @property
    def seats_open(self) -> bool:
        """At a table whose seats may change now: before a game or after one, as the server
        has it (``game_in_progress`` otherwise)."""
        return (self.table is not None and self.table.get("status") != "playing"
                and (not self.in_game or self.winner is not None))

    def _seats_closed(self) -> bool:
        if self.table is not None and self.seats_open:
            return False
        if self.table is not None:
            self.set_status("Seats cannot change during a game.", error=True)
        return True

    def add_computer(self) -> None:
        """Seat a computer player of :attr:`computer_level` in the first free seat."""
        if self.table is None:
            return
        free = free_seats(self.table)
        if not free:
            self.set_status("Every seat is taken.", error=True)
            return
        fields: dict[str, Any] = {"seat": free[0]}
        if self.computer_level:
            fields["level"] = self.computer_level
        self.send("add_computer", **fields)

    def cycle_level(self, delta: int = 1) -> None:
        """v: the next computer level the server offers (the ``levels`` of its welcome)."""
        if not self.levels:
            self.set_status("This server names no computer levels.", error=True)
            return
        index = self.levels.index(self.computer_level) if self.computer_level in self.levels else -1
        self.computer_level = self.levels[(index + delta) % len(self.levels)]
        self.set_status(f"Computer players you add will be {self.computer_level}.")

    def computer_seats(self) -> list[int]:
        seats = (self.table or {}).get("seats", [])
        return [i for i, s in enumerate(seats) if s is not None and s.get("kind") == "computer"]

    def remove_computer(self, seat: int | None = None) -> None:
        """x: take a computer player away -- the only one at once, else ask which seat."""
        if self._seats_closed():
            return
        computers = self.computer_seats()
        if seat is None:
            if not computers:
                self.set_status("No computer player sits at this table.", error=True)
            elif len(computers) == 1:
                self.send("remove_computer", seat=computers[0])
            else:
                self.picking = "remove"
                listed = ", ".join(str(s + 1) for s in computers)
                self.set_status(f"Remove the computer in which seat? {listed} (Esc: none)")
            return
        self.picking = None
        if seat not in computers:
            self.set_status(f"No computer player sits in seat {seat + 1}.", error=True)
            return
        self.clear_status()
        self.send("remove_computer", seat=seat)

    def take_seat(self, seat: int) -> None:
        """A seat key at a waiting table: move there (or sit there, when watching)."""
        if self._seats_closed():
            return
        assert self.table is not None
        seats = self.table.get("seats", [])
        if not 0 <= seat < len(seats):
            self.set_status(f"This table has seats 1 to {len(seats)}.", error=True)
            return
        if seat == self.seat:
            self.set_status(f"You already sit in seat {seat + 1}.")
            return
        if seats[seat] is not None:
            self.set_status(f"{seats[seat].get('name', 'Someone')} sits in seat {seat + 1}.",
                            error=True)
            return
        self.clear_status()
        self.send("sit", table=self.table_id, seat=seat)

    def pick_seat(self, seat: int) -> None:
        """A seat key (1 is seat 0): the computer to remove when picking one, else a seat."""
        if self.picking == "remove":
            self.remove_computer(seat)
        else:
            self.take_seat(seat)

    def cancel_pick(self) -> None:
        if self.picking is not None:
            self.picking = None
            self.clear_status()

    def stand_or_sit(self) -> None:
        """s at a table: a player stands up to watch; a spectator sits in the first free seat."""
        if self._seats_closed():
            return
        assert self.table is not None
        if self.seat is not None:
            self.clear_status()
            self.send("stand")
            return
        free = free_seats(self.table)
        if not free:
            self.set_status("Every seat is taken.", error=True)
            return
        self.take_seat(free[0])

    def toggle_ready(self) -> None:
        if self.table is None or self.seat is None:
            return
        seats = self.table.get("seats", [])
        mine = seats[self.seat] if self.seat < len(seats) else None
        ready = not (mine or {}).get("ready", False)
        if self.winner is not None and not self.in_game:
            ready = True
        self.send("ready", ready=ready)

    def leave(self) -> None:
        if self.table_id is not None:
            self.send("leave")

    def chat(self, text: str) -> None:
        text = text.strip()
        if text:
            self.send("chat", text=text[:CHAT_LIMIT], to="table" if self.table_id is not None else "lobby")

    def move_cursor(self, delta: int) -> None:
        if self.hand:
            self.cursor = (self.cursor + delta) % len(self.hand)

    def choose(self, index: int) -> None:
        """Number key ``index + 1``: play that card, or pick/unpick it for the crib."""
        if not 0 <= index < len(self.hand):
            return
        self.cursor = index
        if self.discard_size:
            self._toggle(self.hand[index])
        else:
            self._play(self.hand[index])

    def toggle(self) -> None:
        """Space: pick or unpick the card under the cursor for the crib."""
        if self.discard_size and self.hand:
            self._toggle(self.hand[self.cursor])

    def enter(self) -> None:
        """Enter: lay away the chosen cards, play the card under the cursor, or say go."""
        size = self.discard_size
        if size:
            if len(self.selected) == size:
                cards = sort_cards(self.selected)
                self._action("discard", cards=cards)
            elif self.hand:
                self._toggle(self.hand[self.cursor])
            return
        if not self.can_act:
            self._not_your_turn()
            return
        if self.go_is_legal:
            self._action("go")
        elif self.hand:
            self._play(self.hand[self.cursor])

    def say_go(self) -> None:
        if self.go_is_legal:
            self._action("go")
        elif self.can_act and self.playable():
            self.set_status("You can still play a card; go is only for when you cannot.", error=True)
        else:
            self._not_your_turn()

    def _not_your_turn(self) -> None:
        if self.in_game and self.winner is None:
            self.set_status("It is not your turn.", error=True)

    def _toggle(self, card: str) -> None:
        if card in self.selected:
            self.selected.discard(card)
        elif len(self.selected) < self.discard_size:
            self.selected.add(card)
        else:
            self.set_status(f"You lay away {self.discard_size}; unpick one first.", error=True)
            return
        self.clear_status()

    def _play(self, card: str) -> None:
        if not self.can_act:
            self._not_your_turn()
            return
        if card not in self.playable():
            room = 31 - self.count
            self.set_status(f"{card_label(card)} ({card_value(card)}) would pass 31: "
                         f"only {room} to go.", error=True)
            return
        self._action("play", card=card)

    def _action(self, verb: str, **fields: Any) -> None:
        if self._sending_action:
            return
        self._sending_action = True
        self.clear_status()
        self.send("action", action=verb, **fields)


_SMALL = ("nought one two three four five six seven eight nine ten eleven twelve thirteen "
          "fourteen fifteen sixteen seventeen eighteen nineteen").split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def number_words(n: int) -> str:
    """The running count as it is called: ``number_words(25) == "twenty-five"``."""
    if n < 20:
        return _SMALL[n]
    tens, ones = divmod(n, 10)
    return _TENS[tens] + ("-" + _SMALL[ones] if ones else "")


__all__ = ["ViewModel", "LogLine", "Peg", "CreateForm", "PasswordPrompt", "DealCount", "CountRow",
           "number_words", "COUNT_SECONDS"]
