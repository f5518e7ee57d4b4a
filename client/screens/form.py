"""The new-table form, and creating a table: the form's rows, its request, and what follows it.

:class:`CreateForm` is the form itself (n in the lobby): its rows come from the ``presets``
and ``levels`` the server describes in its ``welcome``, and the rows of the server's own
options (the coach, a match, the turn timer, the password) from the welcome's ``table_options``, so it
offers exactly what the server accepts.  Each table option says where its value goes
(``"in": "options"``: inside ``create_table``'s ``options``; ``"in": "request"``: a field of
``create_table`` of the same name).  A server too old to send ``table_options`` gets the rows
the form always had (:data:`FALLBACK_TABLE_OPTIONS`).

:class:`NewTable` owns the form while it is open and the creation that follows Enter (or
``--quick``, :attr:`NewTable.quick_start`): it sends ``create_table`` and keeps the requests
that must follow once the table exists (computers in the other seats, ``ready``), which
:class:`~noddy.client.model.ViewModel` sends when the ``table`` reply comes
(:meth:`NewTable.take_follow_ups`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..session import FALLBACK_PRESETS, Session, request_field
from .lobby import PASSWORD_LIMIT

#: Turn-timer choices offered by the create-table form (seconds; None: no timer).
TIMER_CHOICES: tuple[float | None, ...] = (None, 15, 30, 60, 120)
_TIMER = request_field("create_table", "turn_timer")
#: The table options of a server whose welcome has no ``table_options`` (an older one): the
#: ones the form offered before servers declared them, as such a server takes them.
FALLBACK_TABLE_OPTIONS: dict[str, dict[str, Any]] = {
    "hints": {"type": "bool", "default": False, "in": "options"},
    "turn_timer": {"type": "number", "min": _TIMER.minimum, "max": _TIMER.maximum,
                   "default": None, "in": "request"},
    "password": {"type": "str", "max_length": PASSWORD_LIMIT, "default": None, "in": "request"},
}


@dataclass
class CreateForm:
    """The create-table form: a list of fields moved through with ↑↓ and changed with ←→.

    The choices come from the ``presets`` and ``levels`` the server describes in its
    ``welcome``, so the form offers exactly what the server accepts (player counts, options
    and their ranges, computer levels): a ``bool`` option is a yes/no row, a ``choice`` one
    (such as ``counting``) cycles through its ``values`` (a row only when there are two or
    more).  The server's own options come from ``table_options`` (None: an older server,
    :data:`FALLBACK_TABLE_OPTIONS`), and only those the form knows how to edit get a row:
    every ``bool`` is a yes/no row (``hints``, the coach, among them), ``turn_timer`` cycles
    through :data:`TIMER_CHOICES` (those within its range), and ``password`` is a text field:
    while it is the current row, typed characters go into it (:meth:`type_text`), and a
    table with a password is created private.
    """

    presets: list[dict[str, Any]]
    levels: list[str] = field(default_factory=list)
    level_index: int = 0
    password: str = ""
    preset_index: int = 0
    players_index: int = 0
    target: int = 31
    flags: dict[str, bool] = field(default_factory=dict)
    #: The preset's options that take one of a few words (``"type": "choice"``), as chosen.
    choices: dict[str, str] = field(default_factory=dict)
    #: The server's yes/no table options (``hints``: a coach at the table, and no rating).
    table_flags: dict[str, bool] = field(default_factory=dict)
    timer_index: int = 0
    #: A match to this many match points (table option ``match``; None: single games).
    match: int | None = None
    computers: int = 1
    row: int = 0
    #: The welcome's ``table_options`` (None: the server sent none).
    table_options: dict[str, dict[str, Any]] | None = None
    #: The table options the form has a row for, by name (the rest it cannot edit).
    server_options: dict[str, dict[str, Any]] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        declared = FALLBACK_TABLE_OPTIONS if self.table_options is None else self.table_options
        self.server_options = {name: spec for name, spec in declared.items()
                               if _editable(name, spec)}
        self.table_flags = {name: bool(spec.get("default") or False)
                            for name, spec in self.server_options.items()
                            if spec.get("type") == "bool"}
        timer = self.server_options.get("turn_timer", {})
        self.timer_index = (self.timer_choices().index(timer.get("default"))
                            if timer.get("default") in self.timer_choices() else 0)
        self._preset_changed()

    def timer_choices(self) -> list[float | None]:
        """The turn timers the form offers (seconds; None: none), within the server's range."""
        spec = self.server_options.get("turn_timer")
        if spec is None:
            return [None]
        low, high = spec.get("min"), spec.get("max")
        return [choice for choice in TIMER_CHOICES
                if (choice is None and spec.get("default") is None)
                or (choice is not None and (low is None or choice >= low)
                    and (high is None or choice <= high))]

    @property
    def password_limit(self) -> int:
        """The longest password the server takes."""
        spec = self.server_options.get("password", {})
        return min(PASSWORD_LIMIT, int(spec.get("max_length") or PASSWORD_LIMIT))

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
        self.choices = {name: str(spec.get("default", spec["values"][0]))
                        for name, spec in self.preset.get("options", {}).items()
                        if spec.get("type") == "choice" and len(spec.get("values") or []) > 1}
        self.computers = self.players - 1

    def rows(self) -> list[tuple[str, str]]:
        """(label, value) of every row, in order; the last is the Create button."""
        players = f"{self.players}" + (" in partnerships" if self.partnerships else "")
        out = [
            ("Preset", f"{self.preset['name']} — {self.preset.get('title', '')}".rstrip(" —")),
            ("Players", players),
            ("Target", str(self.target)),
        ]
        out += [(_FLAG_LABELS.get(name, name), "yes" if value else "no")
                for name, value in self.flags.items()]
        out += [(_FLAG_LABELS.get(name, name), _CHOICE_LABELS.get(value, value))
                for name, value in self.choices.items()]
        out += [(self._label(name), _ON_LABELS.get(name, "yes") if value else "no")
                for name, value in self.table_flags.items()]
        if "match" in self.server_options:
            out.append((self._label("match"), "single games" if self.match is None
                        else f"first to {self.match} match points"))
        if "turn_timer" in self.server_options:
            timer = self.timer
            out.append((self._label("turn_timer"), "off" if timer is None else f"{timer:g} s"))
        out.append(("Computer players", str(self.computers)))
        if self.levels:
            out.append(("Computer level", self.level or ""))
        if "password" in self.server_options:
            out.append((self._label("password"), self.password or "none: a public table"))
        out.append(("", "[ Create private table ]" if self.password else "[ Create table ]"))
        return out

    def _label(self, name: str) -> str:
        """A table option's row label: the spec's own, else the form's, else its name."""
        spec = self.server_options.get(name, {})
        return str(spec.get("label") or _FLAG_LABELS.get(name)
                   or name.replace("_", " ").capitalize())

    @property
    def timer(self) -> float | None:
        """The turn timer chosen (seconds; None: none)."""
        return self.timer_choices()[self.timer_index]

    def _row_keys(self) -> list[str]:
        levels = ["level"] if self.levels else []
        timer = ["timer"] if "turn_timer" in self.server_options else []
        password = ["password"] if "password" in self.server_options else []
        match = ["match"] if "match" in self.server_options else []
        return ["preset", "players", "target", *self.flags, *self.choices,
                *(_TABLE_FLAG + name for name in self.table_flags), *match, *timer, "computers",
                *levels, *password, "create"]

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

    @property
    def password_row(self) -> int | None:
        """Which row is the password's (None: the server takes no password)."""
        keys = self._row_keys()
        return keys.index("password") if "password" in keys else None

    def type_text(self, text: str) -> None:
        """Typed characters on the password row (anything printable, spaces too)."""
        if self.on_password:
            typed = "".join(ch for ch in text if ch.isprintable())
            self.password = (self.password + typed)[:self.password_limit]

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
        elif key == "match":  # off, then 2 .. 15 (the option's bounds), round again
            spec = self.server_options["match"]
            choices = [None, *range(int(spec.get("min", 2)), int(spec.get("max", 15)) + 1)]
            index = choices.index(self.match) if self.match in choices else 0
            self.match = choices[(index + delta) % len(choices)]
        elif key == "timer":
            self.timer_index = (self.timer_index + delta) % len(self.timer_choices())
        elif key == "computers":
            self.computers = min(self.players - 1, max(0, self.computers + delta))
        elif key == "level":
            self.level_index = (self.level_index + delta) % len(self.levels)
        elif key.startswith(_TABLE_FLAG):
            name = key[len(_TABLE_FLAG):]
            self.table_flags[name] = not self.table_flags[name]
        elif key in self.flags:
            self.flags[key] = not self.flags[key]
        elif key in self.choices:
            values = [str(v) for v in self._option(key).get("values", [])]
            index = values.index(self.choices[key]) if self.choices[key] in values else 0
            self.choices[key] = values[(index + delta) % len(values)]

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
        for name, choice in self.choices.items():
            if choice != str(self._option(name).get("default", choice)):
                options[name] = choice
        message: dict[str, Any] = {"type": "create_table", "preset": self.preset["name"],
                                   "players": self.players, "partnerships": self.partnerships,
                                   "options": options, "seat": 0}
        chosen: dict[str, Any] = dict(self.table_flags)
        if "match" in self.server_options:
            chosen["match"] = self.match
        if "turn_timer" in self.server_options:
            chosen["turn_timer"] = self.timer
        for name, value in chosen.items():
            spec = self.server_options[name]
            if value is not None and value != spec.get("default"):
                (message if spec.get("in") == "request" else options)[name] = value
        if self.password:
            message["private"] = True
            message["password"] = self.password
        return message


def _editable(name: str, spec: dict[str, Any]) -> bool:
    """The form has a row for this table option: a yes/no, the turn timer, the password."""
    kind = spec.get("type")
    return (kind == "bool" or (name, kind) in {("turn_timer", "number"), ("password", "str"),
                                                ("match", "int")})


#: The row key of a table option's yes/no (``table:hints``), apart from the preset's flags.
_TABLE_FLAG = "table:"
_FLAG_LABELS = {
    "knave_noddy": "Turned-up Jack scores",
    "hitter_counts_thirty_one": "31 also pegs per card",
    "four_card": "Four cards each",
    "counting": "Counting",
    "hints": "Coach (h: hints)",
    "turn_timer": "Turn timer",
    "match": "Match",
    "password": "Password",
}
#: How a table option's "yes" reads in the form, where it says more than yes.
_ON_LABELS = {"hints": "yes (unrated)"}
#: How a choice's value reads in the form.
_CHOICE_LABELS = {"auto": "auto (the server counts)", "manual": "by hand, with muggins"}


class NewTable:
    """The form while it is open, and the creation of a table (module docstring)."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.form: CreateForm | None = None
        #: Set by ``--quick``: the table to create (and fill with computers) once welcomed.
        self.quick_start: dict[str, Any] | None = None
        self._after_create: list[dict[str, Any]] = []

    def open_form(self) -> None:
        session = self.session
        levels = list(session.levels)
        level = session.computer_level
        level_index = levels.index(level) if level in levels else 0
        self.form = CreateForm(session.presets or FALLBACK_PRESETS, levels=levels,
                               level_index=level_index, table_options=session.table_options)

    def close_form(self) -> None:
        self.form = None

    def submit_form(self) -> None:
        if self.form is None:
            return
        form, self.form = self.form, None
        request = form.request()
        request.pop("type")
        if form.level is not None:
            self.session.computer_level = form.level
        self.create(request, computers=form.computers, ready=form.computers == form.players - 1,
                    level=form.level)

    def start_quick(self) -> None:
        """Once welcomed: create the ``--quick`` table, if one was asked for."""
        if self.quick_start is None:
            return
        settings, self.quick_start = dict(self.quick_start), None
        computers = settings.pop("computers", settings.get("players", 2) - 1)
        described = next((p for p in self.session.presets
                          if p.get("name") == settings.get("preset")), None)
        players = settings.get("players", 2)
        if (described is not None and "partnerships" not in settings
                and players not in described.get("players", [])
                and players in described.get("partnership_players", [])):
            settings["partnerships"] = True
        self.create(settings, computers=computers, ready=True)

    def create(self, settings: dict[str, Any], computers: int, ready: bool,
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
        self.session.send("create_table", **settings)

    def take_follow_ups(self) -> list[dict[str, Any]]:
        """The requests to send now that a table reply has placed us (empty after the first)."""
        follow, self._after_create = self._after_create, []
        return follow

    def creation_refused(self) -> None:
        """The create_table was refused: nothing follows it."""
        self._after_create = []


__all__ = ["CreateForm", "NewTable", "TIMER_CHOICES", "FALLBACK_PRESETS", "FALLBACK_TABLE_OPTIONS"]
