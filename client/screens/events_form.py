"""The form that announces a club night (``n`` on the events screen): its rows, its request
and its keys.

The form is the new-table form's machinery (:class:`~noddy.client.screens.form.OptionRow`):
each field of ``announce_event`` is an option row declared here once, by kind (a ``choice``
cycles, an ``int`` steps within its bounds, a ``bool`` flips, a ``str`` is typed into), its
bounds read from the protocol's schema (:func:`~noddy.client.session.request_field`) so the
form never offers what the server refuses.  The start is asked in minutes, or left "when the
director says" (sent as no ``starts_in``).  :class:`AnnounceForm` owns it while it is open
and declares its keys (:mod:`noddy.client.keymap`); Enter sends the ``announce_event``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from noddy.protocol.i18n import N_, _

from ..keymap import key
from ..session import Session, request_field
from .form import FormScreen, OptionRow

#: The longest title the server takes (its schema's limit).
TITLE_LIMIT = int(request_field("announce_event", "title").max_length or 40)
#: The most rounds of a Swiss, and games a pairing (the schema's bounds).
ROUNDS_LIMIT = int(request_field("announce_event", "rounds").maximum or 15)
GAMES_LIMIT = int(request_field("announce_event", "games").maximum or 10)
#: The latest start offered, in minutes (the schema's seconds, as minutes: a day).
START_LIMIT_MINUTES = int((request_field("announce_event", "starts_in").maximum or 86400) // 60)
#: The password's longest (the schema's).
PASSWORD_LIMIT = int(request_field("announce_event", "password").max_length or 64)


def announce_fields(presets: list[str]) -> dict[str, dict[str, Any]]:
    """The form's rows, as options are declared (:mod:`noddy.client.screens.form`)."""
    return {
        "format": {"type": "choice", "values": ["swiss", "round-robin"], "default": "swiss",
                   "label": N_("Format")},
        "rounds": {"type": "int", "min": 1, "max": ROUNDS_LIMIT, "default": 3,
                   "label": N_("Rounds (a Swiss)")},
        "preset": {"type": "choice", "values": presets, "default": presets[0], "label": N_("Preset")},
        "games": {"type": "int", "min": 1, "max": GAMES_LIMIT, "default": 2,
                  "label": N_("Games a pairing")},
        "duplicate": {"type": "bool", "default": True, "label": N_("Duplicate deals")},
        "start": {"type": "int", "min": 1, "max": START_LIMIT_MINUTES, "default": None,
                  "label": N_("Start in minutes")},
        "rated": {"type": "bool", "default": False, "label": N_("Rated")},
        "title": {"type": "str", "max_length": TITLE_LIMIT, "default": None, "label": N_("Title")},
        "password": {"type": "str", "max_length": PASSWORD_LIMIT, "default": None,
                     "label": N_("Password")},
    }


#: The words a row's value is said in, where the option's own would mislead.
_SHOWN = {("start", None): N_("when the director says"), ("password", ""): N_("none: public"),
          ("title", ""): N_("(type a title)")}
#: How the formats read (the wire's words are the values sent).
_FORMATS = {"swiss": N_("swiss"), "round-robin": N_("round-robin")}


@dataclass
class EventForm:
    """The announce form's rows, the current one, and the request it makes."""

    presets: list[str]
    row: int = 0
    rows_: list[OptionRow] = field(init=False, default_factory=list)

    def __post_init__(self) -> None:
        declared = announce_fields(self.presets or ["cribbage"])
        # The title first (the first thing typed), then the choices, the password last.
        order = ["title", "format", "rounds", "preset", "games", "duplicate", "start", "rated",
                 "password"]
        made = {name: OptionRow(name, dict(spec), "request") for name, spec in declared.items()}
        self.rows_ = [made[name] for name in order]
        made["preset"].value = "cribbage" if "cribbage" in self.presets else made["preset"].value

    def rows(self) -> list[tuple[str, str]]:
        """(label, value) of every row, then the Announce button."""
        out = []
        for row in self.rows_:
            said = _SHOWN.get((row.name, row.value))
            if row.name == "rounds" and self.option("format").value != "swiss":
                said = N_("every one meets every other")
            elif row.name == "format" and row.value in _FORMATS:
                said = _FORMATS[row.value]
            out.append((_(str(row.spec["label"])), _(said) if said is not None else row.shown()))
        return out + [("", _("[ Announce ]"))]

    def option(self, name: str) -> OptionRow:
        return next(row for row in self.rows_ if row.name == name)

    def current(self) -> OptionRow | None:
        return self.rows_[self.row] if self.row < len(self.rows_) else None

    @property
    def on_text(self) -> bool:
        current = self.current()
        return current is not None and current.kind == "str"

    def text_rows(self) -> list[int]:
        return [i for i, row in enumerate(self.rows_) if row.kind == "str"]

    def move(self, delta: int) -> None:
        self.row = (self.row + delta) % (len(self.rows_) + 1)

    def change(self, delta: int, big: bool = False) -> None:
        current = self.current()
        if current is not None and current.kind != "str":
            current.change(delta, big)

    def type_text(self, text: str) -> None:
        current = self.current()
        if current is not None and current.kind == "str":
            typed = "".join(ch for ch in text if ch.isprintable())
            current.value = (current.value + typed)[:current.limit]

    def backspace(self) -> None:
        current = self.current()
        if current is not None and current.kind == "str":
            current.value = current.value[:-1]

    def request(self) -> dict[str, Any]:
        """The ``announce_event`` fields this form describes."""
        value = {row.name: row.value for row in self.rows_}
        out: dict[str, Any] = {"title": str(value["title"]).strip(), "format": value["format"],
                               "preset": value["preset"], "games": value["games"],
                               "duplicate": value["duplicate"], "rated": value["rated"]}
        if value["format"] == "swiss":
            out["rounds"] = value["rounds"]
        if value["start"] is not None:
            out["starts_in"] = int(value["start"]) * 60
        if value["password"]:
            out["password"] = value["password"]
        return out


class AnnounceForm(FormScreen):
    """The announce form while it is open (module docstring); ``up`` says when the events
    screen is up (the form opens over it), ``ask`` sends a request whose reply the events
    screen awaits (the ``club_event`` that answers the announcement opens the event)."""

    title = N_("In the announce form")

    def __init__(self, session: Session, up: Callable[[], bool], ask: Callable[..., int]) -> None:
        self.session = session
        self.form: EventForm | None = None
        self._up = up
        self._ask = ask

    def is_up(self) -> bool:
        return self.form is not None and self._up()

    def open(self) -> None:
        names = [str(p["name"]) for p in self.session.presets if p.get("name")]
        self.form = EventForm(names or ["cribbage"])


    @key("enter", help=N_("announce the club night (a password: private)"), sends="announce_event")
    def _announce(self, pressed: str) -> None:
        self.submit()

    @key("escape", label=N_("Esc"), help=N_("close the form"), eager=True, flush=False)
    def _close(self, pressed: str) -> None:
        self.form = None

    def submit(self) -> int | None:
        """Send the announcement (a title is needed first); the id of the request sent."""
        if self.form is None:
            return None
        fields = self.form.request()
        if not fields["title"]:
            self.form.row = 0
            self.session.set_status(_("A club night needs a title: type one on the first line."),
                                    error=True)
            return None
        self.form = None
        self.session.clear_status()
        return self._ask("announce_event", **fields)


__all__ = ["AnnounceForm", "EventForm", "announce_fields", "TITLE_LIMIT"]
