"""Readers of the text commands for records and statistics: the finished games one played (or
another person played), one game's record, the leaderboard and a person's statistics.

These ask only for what is stored; :mod:`.records_text` tells what the core answers them
with.  :mod:`.commands` declares these commands with the readers here.

>>> read_leaderboard("ratings", ["cribbage", "people"], "cribbage people")
{'type': 'leaderboard', 'family': 'cribbage', 'people_only': True}
"""

from __future__ import annotations

from typing import Any

from .words import number

#: The family of games whose leaderboard ``ratings`` shows when none is named.
DEFAULT_FAMILY = "noddy"


def read_games(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    """``games [NAME]``: one's own finished games, or NAME's."""
    if len(args) > 1:
        return None
    return {"type": "list_games", "name": args[0] if args else None}


def read_game(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    """``game ID [PASSWORD]`` (the ID as shown, ``#`` or not; a private game's password)."""
    if len(args) not in (1, 2):
        return None
    request = {"type": "get_game", "game": number(args[0].lstrip("#"), "game")}
    return request if len(args) == 1 else {**request, "password": args[1]}


def read_leaderboard(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    """``ratings [FAMILY] [people]``, in either order (people: the ratings of people only)."""
    words = [word.lower() for word in args]
    request: dict[str, Any] = {"type": "leaderboard", "family": DEFAULT_FAMILY}
    if "people" in words:
        words.remove("people")
        request["people_only"] = True
    if len(words) > 1:
        return None
    if words:
        request["family"] = words[0]
    return request


def read_stats(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    """``stats [NAME [PRESET]]``: one's own statistics, or NAME's, or NAME's at one preset
    (or family)."""
    if len(args) > 2:
        return None
    return {"type": "stats", "name": args[0] if args else None,
            "preset": args[1].lower() if len(args) > 1 else None}
