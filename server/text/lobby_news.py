"""The lobby's table news as a person at a bare terminal is told it: only what they can act on.

The lobby is pushed every change of every listed table (:mod:`noddy.server.core.lobby_push`):
a program keeps its own picture of the tables up to date with it, but a person on ``nc``
read ~10 lines while two others played (issue 33, item 11: ``Table 1 ... [playing] 1: ann |
2: ben (away); watching: dee``, then ``[finished] 1: empty | 2: empty``).  A person in the
lobby needs to hear of a table they could sit down at: one that opens (waiting, a seat free,
not private: an invitation to a private table comes as its own message), and that table's
closing if it closes before anyone filled it.  Every other change (a seat taken, a game
begun or over, a watcher) is left out; ``tables`` still lists everything on request.

:class:`LobbyNews` keeps, for one person, the tables they were told they can join (seeded by
the ``tables`` list they asked for), and reads each push into what they are told of it.
"""

from __future__ import annotations

from typing import Any

from ..core.instructions import Lines

#: A push that tells this person nothing (written as no bytes at all).
_NOTHING = Lines((), False)


def joinable(table: dict[str, Any]) -> bool:
    """Whether a person in the lobby may sit down at ``table`` by its number: it waits for
    players, has a free seat, is not private, and is not a club night's board (the server
    seats that board's two players itself and refuses anyone else)."""
    return (table["status"] == "waiting" and not table["private"] and None in table["seats"]
            and "event" not in table)


class LobbyNews:
    """One text-mode person's view of the lobby's news; see the module docstring."""

    def __init__(self) -> None:
        #: The tables this person was told (or listed) they can join, still open.
        self.open: set[int] = set()

    def listed(self, tables: list[dict[str, Any]]) -> None:
        """The person was sent the whole list (``tables``): what they know now."""
        self.open = {table["id"] for table in tables if joinable(table)}

    def read(self, push: Lines, shared: dict[Any, tuple[Lines, frozenset[int]]]) -> Lines:
        """What of ``push`` (one lobby push) this person is told: a table newly joinable
        (marked ``joinable``, which :func:`~.render.render` words as such), or the closing
        of one they were told of; anything else of the push is passed on as it is.

        ``shared`` holds what people who knew the same tables were told of the same push
        (the caller keeps it for one batch): they are given the same object, so the network
        layer still encodes a push once for all the text people told the same."""
        key = (id(push), frozenset(self.open))
        done = shared.get(key)
        if done is not None:
            self.open = set(done[1])
            return done[0]
        told_lines = self._read(push)
        shared[key] = (told_lines, frozenset(self.open))
        return told_lines

    def _read(self, push: Lines) -> Lines:
        told: list[dict[str, Any]] = []
        for message in push.messages:
            kind = message.get("type")
            if kind == "table":
                table = message["table"]
                if not joinable(table):
                    self.open.discard(table["id"])
                elif table["id"] not in self.open:
                    self.open.add(table["id"])
                    told.append({**message, "joinable": True})
            elif kind == "table_closed":
                if message["table"] in self.open:
                    self.open.discard(message["table"])
                    told.append(message)
            else:
                told.append(message)
        return Lines(tuple(told), False) if told else _NOTHING
