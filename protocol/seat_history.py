"""Who sat in each seat *when*: a game's seats may change hands (a computer stands in for
someone who left, who later takes the seat back), and every event must still be told with
the name of whoever made it (issue 33: a stand-in must not rewrite history).

A change is ``(since, seat, name)``: from ``since`` on, ``seat`` is ``name``'s.  ``since`` is
an event's ``seq`` for a snapshot's changes (``seat_changes``) and a step's index for a stored
record's (its seats' ``changes``, counted by ``after``).  :func:`names_then` applies them to
the names the game was dealt to.  Standard library only, no I/O.

>>> changes = [(14, 1, "greedy computer 2"), (30, 1, "ben")]
>>> names_then(["ann", "ben"], changes, 13), names_then(["ann", "ben"], changes, 14)
(['ann', 'ben'], ['ann', 'greedy computer 2'])
>>> names_then(["ann", "ben"], changes, 31)
['ann', 'ben']
"""

from __future__ import annotations

from typing import Any, Sequence

Change = tuple[int, int, str]


def names_then(dealt: Sequence[str], changes: Sequence[Change], point: int) -> list[str]:
    """The names as dealt, with each change made by ``point`` applied (in order)."""
    names = list(dealt)
    for since, seat, name in changes:
        if since <= point and 0 <= seat < len(names):
            names[seat] = name
    return names


def snapshot_changes(snapshot: dict[str, Any]) -> tuple[list[str], list[Change]]:
    """A snapshot's ``dealt`` names and ``seat_changes`` (by event ``seq``); none: ``[]``."""
    dealt = [str(name or "") for name in snapshot.get("dealt") or []]
    return dealt, sorted((int(c["seq"]), int(c["seat"]), str(c["name"]))
                         for c in snapshot.get("seat_changes") or [])


def record_changes(record: dict[str, Any]) -> list[Change]:
    """A stored record's seat changes, by step (a change ``after`` N actions is the player
    of step N and those after it)."""
    return sorted((int(c["after"]), int(s["seat"]), str(c["name"]))
                  for s in record.get("seats", []) for c in s.get("changes") or [])
