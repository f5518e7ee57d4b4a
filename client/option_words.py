"""The words the new-table form shows for options it knows by name, and nothing else about them.

The form (:mod:`noddy.client.screens.form`) is built from the server's declarations alone:
each option's kind, range, default and where it goes come from the welcome's ``presets[].options``
and ``table_options``, so an option the client has never heard of gets a row and is sent.  What
the declarations do not carry is how a person reads them: a short label ("Coach (h: hints)"
rather than ``hints``), how a value reads ("first to 5 match points"), and, for the password,
that a table with one is created private.  Those words are here, by name, as data; an option
without an entry reads as its name and its values as they are.

:data:`FALLBACK_TABLE_OPTIONS` is what a server too old to send ``table_options`` takes: the
declarations the form offered before servers declared them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from noddy.protocol.i18n import N_

from .session import request_field

_TIMER = request_field("create_table", "turn_timer")
_PASSWORD = request_field("create_table", "password")


@dataclass(frozen=True)
class OptionWords:
    """How one option reads in the form (module docstring)."""

    label: str = ""
    #: How "yes" reads, where it says more than yes.
    on: str = N_("yes")
    #: How no value (null) reads.
    none: str = N_("off")
    #: How a value reads: a format with ``{value}`` (``"{value:g} s"``).
    value: str = "{value}"
    #: How each word of a ``choice`` reads.
    choices: dict[str, str] = field(default_factory=dict)
    #: Fields ``create_table`` carries besides the option, when it is given a value.
    also: dict[str, Any] = field(default_factory=dict)
    #: The Create button when it is given a value.
    create: str = ""


#: Every word here is marked (``N_``) and said in the reader's language where the form shows
#: it (:meth:`noddy.client.screens.form.OptionRow.shown`, :meth:`~noddy.client.screens.form.CreateForm.rows`).
OPTION_WORDS: dict[str, OptionWords] = {
    "target": OptionWords(N_("Target")),
    "knave_noddy": OptionWords(N_("Turned-up Jack scores")),
    "hitter_counts_thirty_one": OptionWords(N_("31 also pegs per card")),
    "four_card": OptionWords(N_("Four cards each")),
    "counting": OptionWords(N_("Counting"), choices={"auto": N_("auto (the server counts)"),
                                                     "manual": N_("by hand, with muggins")}),
    "hints": OptionWords(N_("Coach (h: hints)"), on=N_("yes (unrated)")),
    "turn_timer": OptionWords(N_("Turn timer"), value=N_("{value:g} s")),
    "seat_silence": OptionWords(N_("Stand-in after silence"), none=N_("the server's"),
                                value=N_("{value:g} s")),
    "match": OptionWords(N_("Match"), none=N_("single games"), value=N_("first to {value} match points")),
    "unlisted": OptionWords(N_("Unlisted")),
    "max_spectators": OptionWords(N_("Max spectators")),
    "password": OptionWords(N_("Password"), none=N_("none: a public table"), also={"private": True},
                            create=N_("[ Create private table ]")),
}

#: The table options of a server whose welcome has no ``table_options`` (an older one): the
#: ones the form offered before servers declared them, as such a server takes them.
FALLBACK_TABLE_OPTIONS: dict[str, dict[str, Any]] = {
    "hints": {"type": "bool", "default": False, "in": "options"},
    "turn_timer": {"type": "number", "min": _TIMER.minimum, "max": _TIMER.maximum,
                   "default": None, "in": "request"},
    "password": {"type": "str", "max_length": _PASSWORD.max_length, "default": None, "in": "request"},
}


def words(name: str, spec: dict[str, Any]) -> OptionWords:
    """The words of option ``name``: its entry, else its declared ``label``, else its name."""
    known = OPTION_WORDS.get(name)
    if known is not None:
        return known
    return OptionWords(str(spec.get("label") or name.replace("_", " ").capitalize()),
                       none=N_("none") if spec.get("type") == "str" else N_("off"))


__all__ = ["OptionWords", "OPTION_WORDS", "FALLBACK_TABLE_OPTIONS", "words"]
