"""Names the core gives: the server's own, and each computer player's (which no person may take)."""

from __future__ import annotations

import noddy
from noddy.bots import LEVELS
from noddy.protocol.names import skeleton
from noddy.protocol.requests import MAX_PLAYERS

SERVER_NAME = f"noddy-server/{noddy.__version__}"


def computer_name(level: str, seat: int | None = None) -> str:
    """The name a computer player of ``level`` sits under in ``seat`` (no person may take it).

    Each seat's computer has its own name, ``greedy computer 2`` for seat 1 (the number the
    screens give the seat), so that three of them at one table are three names in "Lay away 1
    for greedy computer 3's crib" or "greedy computer 2 wins"; the seat makes it stable
    across a restore, which builds the computer again for the same seat.  ``seat=None`` is
    the bare ``greedy computer``, refused for people all the same.
    """
    return f"{level} computer" if seat is None else f"{level} computer {seat + 1}"


#: The skeletons of every computer player's name: a person's name that looks like one of them
#: is refused (see :func:`~noddy.protocol.names.skeleton`).
COMPUTER_SKELETONS = frozenset(skeleton(computer_name(level, seat)) for level in LEVELS
                               for seat in (None, *range(MAX_PLAYERS)))
