"""A table's options: the rules options the engine configures, plus the server's own.

A table is created with one ``options`` object (``create_table`` / ``configure_table``; in
text mode ``name=value`` words).  Most of it is the engine's business (:func:`configure`
checks it against the preset); ``hints`` is the server's: ``true`` lets the seats ask the
coach (``hint``, ``review``), and makes the table's games unrated; so is ``match`` (a match
to N match points: :mod:`noddy.server.model.match`), and ``seat_silence`` (how long the
person to move may say nothing before the others may call in a stand-in:
:mod:`noddy.server.core.silence`), and ``max_spectators`` (the most watchers at once:
``too_many_watchers`` past it, :mod:`noddy.server.core.seating`).  This module splits the
two, so every place that configures a table's rules (creating and configuring it, restoring
it, replaying a stored game) sees the same rules, and the stored options keep ``hints``.

Every option, the engine's and the server's, is one :class:`~noddy.engine.OptionSpec`: the
server's are :data:`SERVER_OPTIONS` (``hints`` inside ``options``; ``turn_timer`` and
``password``, fields of ``create_table`` itself, their bounds read from the request's own
fields), which check a value and describe the option in ``welcome.table_options``.
"""

from __future__ import annotations

from typing import Any, Mapping

from noddy.engine import OptionSpec, Rules, configure
from noddy.protocol import REQUESTS
from noddy.protocol.requests import TURN_TIMER_MAX, TURN_TIMER_MIN

_PASSWORD_FIELD = next(spec for spec in REQUESTS["create_table"] if spec.name == "password")

HINTS = OptionSpec("hints", "bool", False,
                   "the coach: seats may ask for hints and reviews; the table's games are unrated")
TURN_TIMER = OptionSpec("turn_timer", "number", None,
                        "seconds a seat has to act before the server moves for it",
                        minimum=TURN_TIMER_MIN, maximum=TURN_TIMER_MAX)
MATCH = OptionSpec("match", "int", None, "a match: the table plays game after game until a side has "
                   "this many match points (a win 1, a skunk 2, a double skunk 4)", minimum=2, maximum=15)
#: The bounds of ``seat_silence``: under 30 s an impatient table could take the seat of someone
#: thinking over a hard discard; over a day is the same as never (``noddy-server
#: --seat-silence 0`` turns it off for the whole server).
SEAT_SILENCE_MIN = 30
SEAT_SILENCE_MAX = 86400
SEAT_SILENCE = OptionSpec("seat_silence", "number", None,
                          "seconds the person to move may say nothing before the others may call in a "
                          "computer to stand in for them (null: the server's default)",
                          minimum=SEAT_SILENCE_MIN, maximum=SEAT_SILENCE_MAX)
PASSWORD = OptionSpec("password", "str", None, "a private table's password: only those who give it "
                      "may sit or watch", max_length=_PASSWORD_FIELD.max_length)
#: The most watchers a table may limit itself to: every event of its game goes to each of
#: them, so past a thousand a table's watchers cost more than its game, and no table needs it.
MAX_SPECTATORS_MAX = 1000
MAX_SPECTATORS = OptionSpec("max_spectators", "int", None,
                            "the most people who may watch the table at once (null: no limit; 0: "
                            "nobody may watch)", minimum=0, maximum=MAX_SPECTATORS_MAX)

UNLISTED = OptionSpec("unlisted", "bool", False, "the table is left out of the lobby's list and "
                      "news: only those told its number find it (anyone may still join it)")

#: The server's own table options, and where each goes in ``create_table``: inside its
#: ``options`` object, or a field of the request itself.
SERVER_OPTIONS: dict[str, tuple[OptionSpec, str]] = {
    HINTS.name: (HINTS, "options"), MATCH.name: (MATCH, "options"), TURN_TIMER.name: (TURN_TIMER, "request"),
    PASSWORD.name: (PASSWORD, "request"), SEAT_SILENCE.name: (SEAT_SILENCE, "options"),
    MAX_SPECTATORS.name: (MAX_SPECTATORS, "options"), UNLISTED.name: (UNLISTED, "options"),
}


def rules_options(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """``options`` without the server's own (those of :data:`SERVER_OPTIONS` that go in
    ``options``), each checked by its declaration: a bad value is refused like any bad
    option, with ``invalid_option``.  Null is a value only of an option whose default is
    null (the server's default, or none); ``hints`` null is refused."""
    options = dict(options or {})
    for name, (spec, where) in SERVER_OPTIONS.items():
        if where == "options":
            value = options.pop(name, spec.default)
            if value is not None or spec.default is not None:
                spec.check(value)
    return options


def table_rules(preset: str, players: int, partnerships: bool,
                options: Mapping[str, Any] | None) -> Rules:
    """The rules of a table (or a stored game) with these options."""
    return configure(preset, players, partnerships=partnerships, options=rules_options(options))


def unlisted(options: Mapping[str, Any] | None) -> bool:
    """Whether a table with these options is left out of the lobby's list and news."""
    return bool(options) and options.get(UNLISTED.name) is True  # type: ignore[union-attr]


def hints_on(options: Mapping[str, Any] | None) -> bool:
    """Whether a table with these options lets its seats ask the coach."""
    return bool(options) and options.get(HINTS.name) is True  # type: ignore[union-attr]


def match_to(options: Mapping[str, Any] | None) -> int | None:
    """The match points a table with these options plays to (None: single games), checked
    (``invalid_option`` for anything but a whole number from 2 to 15)."""
    value = (options or {}).get(MATCH.name)
    return None if value is None else MATCH.check(value)


def seat_silence(options: Mapping[str, Any] | None) -> float | None:
    """The seconds of silence a table with these options chose (None: the server's default),
    checked (``invalid_option`` for anything but a number from 30 to 86400)."""
    value = (options or {}).get(SEAT_SILENCE.name)
    return None if value is None else SEAT_SILENCE.check(value)


def max_spectators(options: Mapping[str, Any] | None) -> int | None:
    """The most watchers a table with these options allows (None: no limit of its own),
    checked (``invalid_option`` for anything but a whole number from 0 to 1000)."""
    value = (options or {}).get(MAX_SPECTATORS.name)
    return None if value is None else MAX_SPECTATORS.check(value)


def advertised_options() -> dict[str, dict[str, Any]]:
    """The server's own table options as ``welcome`` advertises them (the engine's are in
    each preset's ``options``), so that a client's form and a bot discover them."""
    return {name: {**spec.describe(), "in": where} for name, (spec, where) in SERVER_OPTIONS.items()}
