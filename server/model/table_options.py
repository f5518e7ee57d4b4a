"""A table's options: the rules options the engine configures, plus the server's own.

A table is created with one ``options`` object (``create_table`` / ``configure_table``; in
text mode ``name=value`` words).  Most of it is the engine's business (:func:`configure`
checks it against the preset); ``hints`` is the server's: ``true`` lets the seats ask the
coach (``hint``, ``review``), and makes the table's games unrated.  This module splits the
two, so every place that configures a table's rules (creating and configuring it, restoring
it, replaying a stored game) sees the same rules, and the stored options keep ``hints``.
"""

from __future__ import annotations

from typing import Any, Mapping

from noddy.engine import InvalidOptionError, Rules, configure

#: The server's own table options, with their defaults.
SERVER_OPTIONS = {"hints": False}


def rules_options(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """``options`` without the server's own, checked (a bad ``hints`` is refused like any
    bad option, with ``invalid_option``)."""
    options = dict(options or {})
    hints = options.pop("hints", False)
    if not isinstance(hints, bool):
        raise InvalidOptionError(f"option 'hints' must be true or false, not {hints!r}",
                                 option="hints", value=hints, allowed="true or false")
    return options


def table_rules(preset: str, players: int, partnerships: bool,
                options: Mapping[str, Any] | None) -> Rules:
    """The rules of a table (or a stored game) with these options."""
    return configure(preset, players, partnerships=partnerships, options=rules_options(options))


def hints_on(options: Mapping[str, Any] | None) -> bool:
    """Whether a table with these options lets its seats ask the coach."""
    return bool(options) and options.get("hints") is True  # type: ignore[union-attr]


def advertised_options() -> dict[str, dict[str, Any]]:
    """The server's own table options as ``welcome`` advertises them (the engine's are in
    each preset's ``options``), so that a client's form and a bot discover them."""
    from noddy.protocol.requests import TURN_TIMER_MAX, TURN_TIMER_MIN
    return {
        "hints": {"type": "bool", "default": False, "in": "options",
                  "description": "the coach: seats may ask for hints and reviews; the table's games are unrated"},
        "turn_timer": {"type": "number", "min": TURN_TIMER_MIN, "max": TURN_TIMER_MAX, "default": None,
                       "in": "request", "description": "seconds a seat has to act before the server moves for it"},
        "password": {"type": "str", "max_length": 64, "default": None, "in": "request",
                     "description": "a private table's password"},
    }
