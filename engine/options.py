"""Table options, each declared once: its name, kind, bounds, default and what it means.

An :class:`OptionSpec` is used to check a value (:meth:`OptionSpec.check`, raising
:class:`~noddy.engine.errors.InvalidOptionError` with what is allowed) and to describe the
option to whoever builds a table (:meth:`OptionSpec.describe`: the lobby's ``presets``, a
client's form, a bot).  The engine's own options are :data:`ENGINE_OPTIONS`, which
:func:`~noddy.engine.rules.configure` and :meth:`Rules.describe
<noddy.engine.rules.Rules.describe>` both read; the server declares its own options (the
coach, the turn timer, a password) with the same type, so every option is told alike.

>>> TARGET.describe(default=121)
{'type': 'int', 'min': 15, 'max': 500, 'default': 121, 'description': 'the points that win the game'}
>>> TARGET.check(600)
Traceback (most recent call last):
...
noddy.engine.errors.InvalidOptionError: option 'target' must be a whole number from 15 to 500, not 600
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .errors import N_, EngineText, InvalidOptionError

KINDS = ("bool", "int", "number", "choice", "str")


@dataclass(frozen=True)
class OptionSpec:
    """One table option; see the module docstring.  ``minimum``/``maximum`` bound an ``int``
    or a ``number``, ``choices`` a ``choice``, ``max_length`` a ``str``."""

    name: str
    kind: str
    default: Any = None
    description: str = ""
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[Any, ...] = ()
    max_length: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"an option is one of {', '.join(KINDS)}, not {self.kind!r}")

    def allowed(self) -> str:
        """What the option allows, in words (an error's ``allowed``)."""
        if self.kind == "bool":
            return "true or false"
        if self.kind in ("int", "number"):
            return f"{self.minimum:g} to {self.maximum:g}"
        if self.kind == "choice":
            return " or ".join(map(str, self.choices))
        return f"text of at most {self.max_length} characters"

    def check(self, value: Any) -> Any:
        """``value`` if the option may take it, else :class:`InvalidOptionError`."""
        name = self.name
        if self.kind == "bool":
            ok, wanted = isinstance(value, bool), EngineText(N_("true or false"))
        elif self.kind in ("int", "number"):
            number = isinstance(value, (int, float)) if self.kind == "number" else isinstance(value, int)
            ok = (number and not isinstance(value, bool) and math.isfinite(value)
                  and self.minimum <= value <= self.maximum)  # type: ignore[operator]
            wanted = EngineText(N_("a whole number from {low:g} to {high:g}") if self.kind == "int"
                                else N_("a number from {low:g} to {high:g}"),
                                low=self.minimum, high=self.maximum)
        elif self.kind == "choice":
            ok = isinstance(value, str) and value in self.choices
            quoted = [f'"{choice}"' for choice in self.choices]
            wanted = (quoted[0] if len(quoted) == 1
                      else EngineText(N_("{some} or {last}"), some=" or ".join(quoted[:-1]), last=quoted[-1]))
        else:
            ok = isinstance(value, str) and len(value) <= (self.max_length or 0)
            wanted = EngineText(N_("text of at most {most} characters"), most=self.max_length)
        if not ok:
            raise InvalidOptionError(N_("option {option!r} must be {wanted}, not {value!r}"), wanted=wanted,
                                     option=name, value=value, allowed=self.allowed())
        return value

    def describe(self, **given: Any) -> dict[str, Any]:
        """What a table's creator is told of the option (``given``: a preset's own
        ``default``, or fewer ``values`` of a choice)."""
        default = given.get("default", self.default)
        if self.kind in ("int", "number"):
            shown: dict[str, Any] = {"type": self.kind, "min": self.minimum, "max": self.maximum}
        elif self.kind == "choice":
            shown = {"type": "choice", "values": list(given.get("values", self.choices))}
        elif self.kind == "str":
            shown = {"type": "str", "max_length": self.max_length}
        else:
            shown = {"type": "bool"}
        shown["default"] = default
        shown["description"] = self.description
        return shown


#: The least and the most points a game may be played to.
TARGET_RANGE = (15, 500)
#: The values of ``counting``: the server counts every show, or each owner counts their own
#: (claims) and the opponents may call muggins.
COUNTING_MODES = ("auto", "manual")

TARGET = OptionSpec("target", "int", description="the points that win the game",
                    minimum=TARGET_RANGE[0], maximum=TARGET_RANGE[1])
KNAVE_NODDY = OptionSpec("knave_noddy", "bool", True,
                         "a jack turned up scores at once: 2 for the player on the dealer's left in "
                         "noddy and noddy-holme (knave noddy); for the dealer in noddy-ducoeur (2), "
                         "noddy-modern (1, his heels) and the cribbages (2, his heels)")
COUNTING = OptionSpec("counting", "choice", "auto",
                      "who counts the shows: the server (auto), or each player, with muggins "
                      "(manual, only where the preset's values list it)",
                      choices=COUNTING_MODES)
HITTER_COUNTS_THIRTY_ONE = OptionSpec("hitter_counts_thirty_one", "bool", False,
                                      "reaching 31 in the play scores, besides the hitter's 2, a point for each card in the count")
FOUR_CARD = OptionSpec("four_card", "bool", False, "four cards a hand instead of three")

#: The engine's options, in the order a preset lists them.
ENGINE_OPTIONS: dict[str, OptionSpec] = {spec.name: spec for spec in (
    TARGET, KNAVE_NODDY, COUNTING, HITTER_COUNTS_THIRTY_ONE, FOUR_CARD)}
