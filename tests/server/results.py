"""Comparing game results and ``game_over`` events by the fields a test is about.

A test that compares a whole ``game_over`` dict, or a record's whole ``result``, breaks on
every field the server adds to a result (how long the game took, say), though it is about
none of them.  These helpers pick the fields a test names: the engine's outcome (who won,
the scores, how it ended) for the usual test, or any fields given by name.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

#: The fields of a game's outcome, as the engine decides them (noddy.engine.outcome):
#: what a test of who won and how compares.  ``resigned``/``abandoned`` are there only
#: when not empty, so a result without them compares as without them.
OUTCOME_FIELDS = ("winner", "winning_seats", "scores", "ending", "skunk", "resigned", "abandoned")


def fields(result: Mapping[str, Any], *names: str) -> dict[str, Any]:
    """The named fields of ``result`` (a result, or a ``game_over`` event), those it has.

    >>> fields({"winner": 1, "scores": [3, 31], "ending": "target"}, "winner", "skunk")
    {'winner': 1}
    """
    return {name: result[name] for name in names if name in result}


def outcome(result: Mapping[str, Any]) -> dict[str, Any]:
    """The outcome's fields of a result; of a ``game_over`` event, with its ``kind``."""
    return fields(result, "kind", *OUTCOME_FIELDS)


def outcome_events(events: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """``events`` as they are, but each ``game_over`` by its outcome's fields only: for a
    test comparing a stream of events with the engine's, about the game, not the server."""
    return [outcome(e) if e.get("kind") == "game_over" else dict(e) for e in events]


def assert_result(result: Mapping[str, Any], **expected: Any) -> None:
    """``result`` has the ``expected`` values of the fields named (and maybe others)."""
    assert fields(result, *expected) == expected, f"{dict(result)!r} is not {expected!r}"


def like(got: Iterable[Mapping[str, Any]], want: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Each of ``got`` by the fields its counterpart in ``want`` has (any beyond ``want``
    whole): for comparing figures with a recount of some of them, which a new figure the
    recount does not know leaves as it was."""
    got, wanted = list(got), list(want)
    return [fields(g, *w) for g, w in zip(got, wanted)] + [dict(g) for g in got[len(wanted):]]
