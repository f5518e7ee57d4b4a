"""Who is on the other end: a connection's state, and the player identity that outlives it.

A :class:`Connection` is one TCP connection as the core sees it (its mode, its rate limit,
when it last spoke).  A :class:`Session` is the player behind it after ``hello``: name,
resume token, table and seat.  The two are separate because a session survives its
connection: when the connection drops mid-game the session is *held* (``held_until``) and a
new connection that presents the token takes it over.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .ratelimit import TokenBucket

if TYPE_CHECKING:
    from .table import Table


@dataclass(eq=False)
class Session:
    """A player who has said hello; ``conn`` is None while the player is disconnected."""

    name: str
    bot: bool
    conn: int | None
    token: str = field(default_factory=lambda: secrets.token_hex(16))
    table: "Table | None" = None
    seat: int | None = None
    held_until: float | None = None
    #: The core's index of sessions that may be in the lobby (see ``__setattr__``).
    lobby: "dict[Session, None] | None" = field(default=None, repr=False)

    def __setattr__(self, name: str, value: object) -> None:
        # Whenever a session may have come into the lobby (connected, at no table) it is put
        # in the core's lobby index, so a lobby push need not scan every session; the core
        # drops sessions that have left the lobby from the index lazily, as it pushes.
        object.__setattr__(self, name, value)
        if name in ("table", "conn", "lobby"):
            lobby = self.__dict__.get("lobby")
            if lobby is not None and self.__dict__.get("table") is None and self.__dict__.get("conn") is not None:
                lobby[self] = None

    def __repr__(self) -> str:
        where = "" if self.table is None else f" table={self.table.id} seat={self.seat}"
        return f"<Session {self.name!r} conn={self.conn}{where}>"


@dataclass(eq=False)
class Connection:
    """One connection: ``text`` is None until its first line decides JSON or text mode."""

    id: int
    bucket: TokenBucket
    last_seen: float
    text: bool | None = None
    session: Session | None = None
    pinged: bool = False
    closing: bool = False
    #: The peer's IP address (None when unknown), for the per-address connection limit.
    address: str | None = None
    #: Ids of the tables this connection created (the open ones count against its limit).
    tables_created: set[int] = field(default_factory=set)
