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

from .session import request_field

_TIMER = request_field("create_table", "turn_timer")
_PASSWORD = request_field("create_table", "password")


@dataclass(frozen=True)
class OptionWords:
    """How one option reads in the form (module docstring)."""

    label: str = ""
    #: How "yes" reads, where it says more than yes.
    on: str = "yes"
    #: How no value (null) reads.
    none: str = "off"
    #: How a value reads: a format with ``{value}`` (``"{value:g} s"``).
    value: str = "{value}"
    #: How each word of a ``choice`` reads.
    choices: dict[str, str] = field(default_factory=dict)
    #: Fields ``create_table`` carries besides the option, when it is given a value.
    also: dict[str, Any] = field(default_factory=dict)
    #: The Create button when it is given a value.
    create: str = ""


OPTION_WORDS: dict[str, OptionWords] = {
    "knave_noddy": OptionWords("Turned-up Jack scores"),
    "hitter_counts_thirty_one": OptionWords("31 also pegs per card"),
    "four_card": OptionWords("Four cards each"),
    "counting": OptionWords("Counting", choices={"auto": "auto (the server counts)",
                                                 "manual": "by hand, with muggins"}),
    "hints": OptionWords("Coach (h: hints)", on="yes (unrated)"),
    "turn_timer": OptionWords("Turn timer", value="{value:g} s"),
    "seat_silence": OptionWords("Stand-in after silence", none="the server's",
                                value="{value:g} s"),
    "match": OptionWords("Match", none="single games", value="first to {value} match points"),
    "password": OptionWords("Password", none="none: a public table", also={"private": True},
                            create="[ Create private table ]"),
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
                       none="none" if spec.get("type") == "str" else "off")


__all__ = ["OptionWords", "OPTION_WORDS", "FALLBACK_TABLE_OPTIONS", "words"]
