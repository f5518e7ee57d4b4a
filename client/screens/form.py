"""The new-table form, and creating a table: the form's rows, its request, and what follows it.

:class:`CreateForm` is the form itself (n in the lobby): its rows come from the ``presets``
and ``levels`` the server describes in its ``welcome``, so it offers exactly what the server
accepts.  :class:`NewTable` owns the form while it is open and the creation that follows
Enter (or ``--quick``, :attr:`NewTable.quick_start`): it sends ``create_table`` and keeps the
requests that must follow once the table exists (computers in the other seats, ``ready``),
which :class:`~noddy.client.model.ViewModel` sends when the ``table`` reply comes
(:meth:`NewTable.take_follow_ups`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..session import FALLBACK_PRESETS, Session
from .lobby import PASSWORD_LIMIT

#: Turn-timer choices offered by the create-table form (seconds; None: no timer).
TIMER_CHOICES: tuple[float | None, ...] = (None, 15, 30, 60, 120)


@dataclass
class CreateForm:
    """The create-table form: a list of fields moved through with ↑↓ and changed with ←→.

    The choices come from the ``presets`` and ``levels`` the server describes in its
    ``welcome``, so the form offers exactly what the server accepts (player counts, options
    and their ranges, computer levels): a ``bool`` option is a yes/no row, a ``choice`` one
    (such as ``counting``) cycles through its ``values`` (a row only when there are two or
    more), and the server's own ``hints`` (not in ``describe``) is a yes/no row of its own,
    off by default.  The password row is a text field: while it is the
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
    #: The preset's options that take one of a few words (``"type": "choice"``), as chosen.
    choices: dict[str, str] = field(default_factory=dict)
    #: The server's own option ``hints``: a coach at the table (and no rating).
    hints: bool = False
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
        self.choices = {name: str(spec.get("default", spec["values"][0]))
                        for name, spec in self.preset.get("options", {}).items()
                        if spec.get("type") == "choice" and len(spec.get("values") or []) > 1}
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
        out += [(_FLAG_LABELS.get(name, name), _CHOICE_LABELS.get(value, value))
                for name, value in self.choices.items()]
        out.append((_FLAG_LABELS["hints"], "yes (unrated)" if self.hints else "no"))
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
        return ["preset", "players", "target", *self.flags, *self.choices, "hints", "timer",
                "computers", *levels, "password", "create"]

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
        elif key == "hints":
            self.hints = not self.hints
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
        if self.hints:
            options["hints"] = True
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
    "counting": "Counting",
    "hints": "Coach (h: hints)",
}
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


__all__ = ["CreateForm", "NewTable", "TIMER_CHOICES", "FALLBACK_PRESETS"]
