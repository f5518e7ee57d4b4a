"""Who is on the other end: one connection as the core sees it.

A :class:`Connection` is one TCP connection (its mode, its rate limit, when it last spoke);
after ``hello`` it carries the player's :class:`~noddy.server.model.table.Session` (name, resume
token, table and seat).  The two are separate because a session survives its connection:
when the connection drops mid-game the session is *held* (``held_until``) and a new
connection that presents the token takes it over.  ``Session`` is defined with the table it
sits at (:mod:`noddy.server.model.table`), which names it in turn; it is re-exported here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .ratelimit import TokenBucket
from .table import Session

__all__ = ["Connection", "Session"]


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
    #: The peer's address group (its IP; an IPv6 address's /64; None when unknown), for the
    #: per-address limits (connections, chat, password checks...).
    address: str | None = None
    #: Ids of the tables this connection created (the open ones count against its limit).
    tables_created: set[int] = field(default_factory=set)
    #: Whether the session this connection says hello to wants its turns to carry ``state``
    #: (hello's ``turn_state``; kept here until the hello is finished).
    turn_state: bool = False
    #: Text mode: the name this connection chose last, refused (taken, or a wrong password)
    #: while it had none: a later command must not quietly make it a guest.
    refused_name: str | None = None
    #: The language its person reads (hello's ``language``, or the ``language`` request):
    #: the send path says its messages' text in it (see noddy.server.core.languages).
    language: str = "en"
