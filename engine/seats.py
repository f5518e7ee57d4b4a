"""Seats round the table: who comes after whom, clockwise.

The engine walks the table at every turn of the play, at every deal (from the dealer's
left) and at every call of muggins (from the owner's left), so each player count's order is
worked out once: ``CLOCKWISE[players][seat]`` is every seat clockwise from ``seat``'s left,
``seat`` last.
"""

from __future__ import annotations


class _Clockwise(dict[int, tuple[tuple[int, ...], ...]]):
    """``CLOCKWISE[players]``, made the first time a player count is asked for."""

    def __missing__(self, players: int) -> tuple[tuple[int, ...], ...]:
        table = self[players] = tuple(
            tuple((seat + step) % players for step in range(1, players + 1))
            for seat in range(players))
        return table


CLOCKWISE = _Clockwise()
