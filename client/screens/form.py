"""The new-table form, and creating a table: the form's rows, its request, and what follows it.

:class:`CreateForm` is the form itself (n in the lobby), built from the server's declarations
and nothing else: the ``presets`` (each with its ``options``), the ``levels`` and the
``table_options`` of its ``welcome``.  Every declared option is a row, by its kind: a ``bool``
flips yes/no, a ``choice`` cycles its ``values`` (a row when there are two or more), an ``int``
steps by one (PgUp/PgDn by ten) within its ``min``/``max``, a ``number`` steps through the
round values of :data:`NUMBER_LADDER` within its range, and a ``str`` is a line typed into.
An option whose default is null may be left off ("off"), and is sent only when given a
value.  A table option says where its value goes (``"in": "options"``: inside
``create_table``'s ``options``; ``"in": "request"``: a field of ``create_table`` of the same
name).  So an option the client has never heard of is offered and sent with no code here;
how an option reads to a person (its label, its values' words) is :mod:`noddy.client.option_words`'s.

:class:`NewTable` owns the form while it is open and the creation that follows Enter (or
``--quick``, :attr:`NewTable.quick_start`): it sends ``create_table`` and keeps the requests
that must follow once the table exists (computers in the other seats, ``ready``), which
:class:`~noddy.client.model.ViewModel` sends when the ``table`` reply comes
(:meth:`NewTable.take_follow_ups`).  Its keys are declared with it (:mod:`noddy.client.keymap`);
its windows are :class:`~noddy.client.screens.form_layout.FormLayout`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from noddy.protocol.i18n import N_, _

from ..keymap import Screen, key
from ..option_words import FALLBACK_TABLE_OPTIONS, OptionWords, words
from ..session import CONNECTING, FALLBACK_PRESETS, LOBBY, Session

#: The values a ``number`` option steps through, those within its range: round figures, as a
#: person picks a number of seconds (a timer stepped by one from 1 to 3600 is no use).
NUMBER_LADDER: tuple[float, ...] = (15, 30, 60, 120, 300, 600, 1800, 3600, 7200, 21600, 86400)
#: An ``int`` option spanning more values than this steps through :data:`NUMBER_LADDER` too.
INT_SPAN_LIMIT = 1000
#: The longest text typed into a ``str`` option that declares no ``max_length``.
TEXT_LIMIT = 64
#: What PgUp/PgDn step an ``int`` by.
BIG_STEP = 10
#: The order of the rows by kind: the preset's (the rules) and the server's own.
_RULES_ORDER = ("int", "number", "bool", "choice")
_TABLE_ORDER = ("bool", "choice", "int", "number")


@dataclass
class OptionRow:
    """One declared option and its value as chosen (``where``: ``rules`` for a preset's,
    else the table option's ``in``)."""

    name: str
    spec: dict[str, Any]
    where: str
    value: Any = None

    def __post_init__(self) -> None:
        self.value = self.spec.get("default")
        if self.kind == "choice" and self.value is None:
            self.value = self.values()[0]
        if self.kind == "str":
            self.value = self.value or ""

    @property
    def kind(self) -> str:
        return str(self.spec.get("type"))

    @property
    def words(self) -> OptionWords:
        return words(self.name, self.spec)

    def values(self) -> list[Any]:
        """The values ←→ go through (a ``bool``, a ``choice``, a ``number``, a wide ``int``)."""
        spec, kind = self.spec, self.kind
        if kind == "bool":
            return [False, True]
        if kind == "choice":
            return [str(v) for v in spec.get("values") or []]
        low, high = spec.get("min"), spec.get("max")
        if kind == "int" and low is not None and high is not None and high - low <= INT_SPAN_LIMIT:
            out: list[Any] = list(range(int(low), int(high) + 1))
        else:
            out = [v for v in NUMBER_LADDER
                   if (low is None or v >= low) and (high is None or v <= high)]
            if spec.get("default") is not None and spec["default"] not in out:
                out = sorted([*out, spec["default"]])
        return [None, *out] if spec.get("default") is None else out

    def change(self, delta: int, big: bool = False) -> None:
        """←/→: the next value round (an ``int`` with a default stops at its bounds)."""
        if self.kind == "int" and self.spec.get("default") is not None:
            low, high = self.spec.get("min"), self.spec.get("max")
            value = int(self.value) + delta * (BIG_STEP if big else 1)
            self.value = max(low, value) if low is not None else value
            self.value = min(high, self.value) if high is not None else self.value
            return
        values = self.values()
        index = values.index(self.value) if self.value in values else 0
        self.value = values[(index + delta) % len(values)]

    def shown(self) -> str:
        said = self.words
        if self.kind == "bool":
            return _(said.on) if self.value else _("no")
        if self.value is None or self.value == "":
            return _(said.none)
        if self.kind == "choice":
            return _(said.choices[self.value]) if self.value in said.choices else self.value
        return _(said.value).format(value=self.value)

    def chosen(self) -> Any:
        """The value to send (None: leave it out: the default, or nothing given)."""
        value = None if self.value == "" else self.value
        return None if value is None or value == self.spec.get("default") else value

    @property
    def limit(self) -> int:
        return int(self.spec.get("max_length") or TEXT_LIMIT)


def option_rows(declared: dict[str, dict[str, Any]], where: str | None,
                order: tuple[str, ...]) -> list[OptionRow]:
    """The rows of ``declared`` options, by kind in ``order`` then as declared; a ``choice``
    of one value has none."""
    rows = [OptionRow(name, dict(spec), where or str(spec.get("in") or "options"))
            for name, spec in declared.items() if isinstance(spec, dict)]
    rows = [row for row in rows if row.kind in (*order, "str")
            and (row.kind != "choice" or len(row.values()) > 1)]
    return sorted(rows, key=lambda row: (order + ("str",)).index(row.kind))


@dataclass
class CreateForm:
    """The create-table form: a list of rows moved through with ↑↓ and changed with ←→
    (module docstring).  ``table_options`` None: an older server
    (:data:`~noddy.client.option_words.FALLBACK_TABLE_OPTIONS`)."""

    presets: list[dict[str, Any]]
    levels: list[str] = field(default_factory=list)
    level_index: int = 0
    preset_index: int = 0
    players_index: int = 0
    computers: int = 1
    row: int = 0
    table_options: dict[str, dict[str, Any]] | None = None
    #: The preset's options (rebuilt when the preset changes) and the server's own.
    rules: list[OptionRow] = field(init=False, default_factory=list)
    server: list[OptionRow] = field(init=False, default_factory=list)

    def __post_init__(self) -> None:
        declared = FALLBACK_TABLE_OPTIONS if self.table_options is None else self.table_options
        self.server = option_rows(declared, None, _TABLE_ORDER)
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

    def _preset_changed(self) -> None:
        self.players_index = 0
        self.rules = option_rows(self.preset.get("options") or {}, "rules", _RULES_ORDER)
        self.computers = self.players - 1

    def _layout(self) -> list[str | OptionRow]:
        """The rows in order: the form's own by name, the options as themselves."""
        texts = [r for r in self.rules + self.server if r.kind == "str"]
        picked = [r for r in self.rules + self.server if r.kind != "str"]
        return ["preset", "players", *picked, "computers", *(["level"] if self.levels else []),
                *texts, "create"]

    def rows(self) -> list[tuple[str, str]]:
        """(label, value) of every row, in order; the last is the Create button."""
        players = (_("{n} in partnerships") if self.partnerships else "{n}").format(n=self.players)
        own = {"preset": (_("Preset"), f"{self.preset['name']} — {self.preset.get('title', '')}".rstrip(" —")),
               "players": (_("Players"), players), "computers": (_("Computer players"), str(self.computers)),
               "level": (_("Computer level"), self.level or ""), "create": ("", self.create_label())}
        return [own[row] if isinstance(row, str) else (_(row.words.label), row.shown())
                for row in self._layout()]

    def create_label(self) -> str:
        for row in self.rules + self.server:
            if row.chosen() is not None and row.words.create:
                return _(row.words.create)
        return _("[ Create table ]")

    def current(self) -> str | OptionRow:
        return self._layout()[self.row]

    def option(self, name: str) -> OptionRow:
        """The row of option ``name`` (KeyError: the form has none)."""
        return next(row for row in self.rules + self.server if row.name == name)

    @property
    def level(self) -> str | None:
        """The level of the computer players the form seats (None: the server's default)."""
        return self.levels[self.level_index] if self.levels else None

    @property
    def on_text(self) -> bool:
        """A text row is current: printable keys type into it."""
        current = self.current()
        return isinstance(current, OptionRow) and current.kind == "str"

    def text_rows(self) -> list[int]:
        """Which rows are typed into."""
        return [i for i, row in enumerate(self._layout())
                if isinstance(row, OptionRow) and row.kind == "str"]

    def type_text(self, text: str) -> None:
        """Typed characters on a text row (anything printable, spaces too)."""
        current = self.current()
        if isinstance(current, OptionRow) and current.kind == "str":
            typed = "".join(ch for ch in text if ch.isprintable())
            current.value = (current.value + typed)[:current.limit]

    def backspace(self) -> None:
        current = self.current()
        if isinstance(current, OptionRow) and current.kind == "str":
            current.value = current.value[:-1]

    def move(self, delta: int) -> None:
        self.row = (self.row + delta) % len(self._layout())

    def change(self, delta: int, big: bool = False) -> None:
        """←/→ on the current row: cycle a choice, step a number, flip a yes/no."""
        current = self.current()
        if current == "preset":
            self.preset_index = (self.preset_index + delta) % len(self.presets)
            self._preset_changed()
        elif current == "players":
            self.players_index = (self.players_index + delta) % len(self.player_choices())
            self.computers = self.players - 1
        elif current == "computers":
            self.computers = min(self.players - 1, max(0, self.computers + delta))
        elif current == "level":
            self.level_index = (self.level_index + delta) % len(self.levels)
        elif isinstance(current, OptionRow) and current.kind != "str":
            current.change(delta, big)

    @property
    def on_create(self) -> bool:
        return self.current() == "create"

    def request(self) -> dict[str, Any]:
        """The ``create_table`` request this form describes (options only where not default)."""
        options: dict[str, Any] = {}
        message: dict[str, Any] = {"type": "create_table", "preset": self.preset["name"],
                                   "players": self.players, "partnerships": self.partnerships,
                                   "options": options, "seat": 0}
        also: dict[str, Any] = {}
        for row in self.rules + self.server:
            value = row.chosen()
            if value is not None:
                (message if row.where == "request" else options)[row.name] = value
                also |= row.words.also
        return message | also


class FormScreen(Screen):
    """What every form of the client shares: the keys that move between its lines, change a
    line's value and type on a text line.  ``form`` is the open form (None: closed); it has
    ``move``, ``change``, ``type_text``, ``backspace`` and ``on_text``.  The new-table form and
    the announce form (:mod:`.events_form`) build on it, each adding its own Enter and Esc."""

    form: Any

    def _typing(self) -> bool:
        return self.form is not None and self.form.on_text

    @key("up", label=N_("↑ ↓ Tab"), help=N_("choose a line"), flush=False)
    def _line_up(self, pressed: str) -> None:
        if self.form is not None:
            self.form.move(-1)

    @key("down", "tab", help="", flush=False)
    def _line_down(self, pressed: str) -> None:
        if self.form is not None:
            self.form.move(1)

    @key("left", label="← →", help=N_("change it (Space too)"), flush=False)
    def _less(self, pressed: str) -> None:
        if self.form is not None:
            self.form.change(-1)

    @key("right", help="", flush=False)
    @key("space", help="", when=lambda self: not self._typing(), flush=False)
    def _more(self, pressed: str) -> None:
        if self.form is not None:
            self.form.change(1)

    @key("<any>", label=N_("letters"), help=N_("type on a text line"), when=_typing, flush=False)
    def _type(self, pressed: str) -> None:
        if self.form is not None and len(pressed) == 1 and pressed.isprintable():
            self.form.type_text(pressed)

    @key("backspace", help="", when=_typing, flush=False)
    def _backspace(self, pressed: str) -> None:
        if self.form is not None:
            self.form.backspace()


class NewTable(FormScreen):
    """The form while it is open, and the creation of a table (module docstring)."""

    title = N_("In the new-table form")

    def __init__(self, session: Session) -> None:
        self.session = session
        self.form: CreateForm | None = None
        #: Set by ``--quick``: the table to create (and fill with computers) once welcomed.
        self.quick_start: dict[str, Any] | None = None
        self._after_create: list[dict[str, Any]] = []

    # == keys ============================================================================
    def is_up(self) -> bool:
        return self.session.screen in (LOBBY, CONNECTING) and self.form is not None


    @key("pageup", label=N_("PgUp PgDn"), help=N_("a number by ten"), flush=False)
    def _much_more(self, pressed: str) -> None:
        if self.form is not None:
            self.form.change(1, big=True)

    @key("pagedown", help="", flush=False)
    def _much_less(self, pressed: str) -> None:
        if self.form is not None:
            self.form.change(-1, big=True)

    @key("enter", help=N_("create the table (a password: private)"),
         sends=("create_table", "add_computer", "ready"))
    def _create(self, pressed: str) -> None:
        self.submit_form()

    @key("escape", label=N_("Esc"), help=N_("close the form"), eager=True, flush=False)
    @key("q", help="", when=lambda self: not self._typing(), flush=False)
    def _close(self, pressed: str) -> None:
        self.close_form()


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


__all__ = ["CreateForm", "NewTable", "OptionRow", "NUMBER_LADDER", "FALLBACK_PRESETS"]
