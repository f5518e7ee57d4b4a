"""People talking to one person: ``tell`` (a private message, FIBS-style), and ``mute``,
``unmute`` and ``muted`` (FIBS ``gag``).

A tell goes to one person by name (any case, or a lookalike, as for names in use), wherever
they are: in the lobby, seated or watching.  The sender's reply (its echo, ``"echo": true``) and
the recipient's push are the same ``tell`` message, so a client shows both the same way,
and the recipient sees who it is from.  A tell to a name its recipient muted is dropped silently: the sender's reply is
as if it had been delivered.  Its text is cleaned like chat's, and tells share chat's limits
per address (each reaches a person).

Owns: the tells' limit per address.  The muted names themselves are :mod:`.mutes`' (which
chat, challenges and invitations read too); this part only changes them on request.

Collaborators (passed in): the sessions (who is online, by name) and the mutes.
"""

from __future__ import annotations

import logging
import math
from typing import TYPE_CHECKING, Any, Callable

from noddy.protocol import ProtocolError
from noddy.protocol.names import normal_name, skeleton
from noddy.protocol.text import clean_text

from ..config import ServerConfig
from ..model.ratelimit import AddressBuckets
from ..model.session import Connection
from ..model.table import Session
from .mutes import MAX_MUTED
from .places import session_of

if TYPE_CHECKING:
    from .mutes import Mutes
    from .outbox import Outbox
    from .sessions import Sessions

log = logging.getLogger("noddy.server")


class Talk:
    """``tell``, ``mute``, ``unmute`` and ``muted``; see the module docstring."""

    def __init__(self, config: ServerConfig, clock: Callable[[], float], outbox: Outbox,
                 sessions: Sessions, mutes: Mutes) -> None:
        self._clock = clock
        self._outbox = outbox
        self._sessions = sessions
        self._mutes = mutes
        #: Tells per address, with chat's limits: each pushes a message to a person.
        self._buckets = AddressBuckets(config.chat_rate_per_address, config.chat_burst_per_address)

    def handlers(self) -> dict[str, Callable[[Connection, dict[str, Any], Any], None]]:
        return {"tell": self.tell, "mute": self.mute, "unmute": self.unmute, "muted": self.muted}

    def tell(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        me = session_of(conn)
        target = self._online(f["name"])
        if target is None:
            raise ProtocolError("no_such_player", f"nobody called {clean_text(f['name'])!r} is online "
                                "(who lists who is)", field="name")
        if target is me:
            raise ProtocolError("bad_field", "you cannot tell yourself", field="name")
        self._charge(conn)
        message = {"type": "tell", "from": me.name, "to": target.name, "text": clean_text(f["text"]),
                   "waiting": False, "echo": False}
        self._outbox.reply(conn, rid, {**message, "echo": True})
        if self._mutes.hears(target, me):
            self._outbox.send(target.conn, message)

    def mute(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        me = session_of(conn)
        name = normal_name(f["name"])
        if skeleton(name) == skeleton(me.name):
            raise ProtocolError("bad_field", "you cannot mute yourself", field="name")
        if not self._mutes.mute(me, name):
            raise ProtocolError("too_many_muted", f"you have muted {MAX_MUTED} names, the most allowed; "
                                "unmute one first", field="name")
        log.info("%s mutes %s", me.name, name)
        self.muted(conn, f, rid)

    def unmute(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        me = session_of(conn)
        if not self._mutes.unmute(me, f["name"]):
            raise ProtocolError("not_muted", f"you have not muted {clean_text(f['name'])!r}", field="name")
        self.muted(conn, f, rid)

    def muted(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        self._outbox.reply(conn, rid, {"type": "muted", "names": self._mutes.muted(session_of(conn))})

    def _online(self, name: str) -> Session | None:
        """The person connected (or holding a seat) who goes by ``name`` or a lookalike."""
        wanted = skeleton(name)
        for session in self._sessions.all():
            if skeleton(session.name) == wanted and (session.conn is not None or session.held_until is not None):
                return session
        return None

    def _charge(self, conn: Connection) -> None:
        if conn.address is None:
            return
        wait = self._buckets.take(conn.address, self._clock())
        if wait > 0:
            raise ProtocolError("rate_limited", f"too many tells from your address; wait {wait:.2f} s",
                                retry_after=math.ceil(wait * 100) / 100)
