"""People talking to one person: ``tell`` (a private message, FIBS-style), and ``mute``,
``unmute`` and ``muted`` (FIBS ``gag``).

A tell goes to one person by name (any case, or a lookalike, as for names in use), wherever
they are: in the lobby, seated or watching.  The sender's reply (its echo, ``"echo": true``) and
the recipient's push are the same ``tell`` message, so a client shows both the same way,
and the recipient sees who it is from.  A tell to a name its recipient muted is dropped silently: the sender's reply is
as if it had been delivered.  Its text is cleaned like chat's, and tells share chat's limits
per address (each reaches a person).

A tell to a registered name whose owner is not connected (gone, or away with their seat
held) waits for their next login: storage keeps it (:mod:`noddy.server.storage.tells`), the
sender's echo says ``"waiting": true``, and whoever logs in to the account (or takes its
session back) is pushed the waiting tells, oldest first, with ``sent_at``.  A guest keeps
nothing, so a tell to an absent guest is refused (``no_such_player``).

What waits for one person is bounded without letting strangers shut out their friends
(issue 31): a tell from a name they muted is never kept (its sender's echo is as if it
were; an account's mutes are stored, so storage checks them too, even after a restart, and
hands them back with the waiting tells at login); only an account may leave one (``not_registered`` for a guest, who can take any free
name, so neither a bound per sender nor a mute would hold them); one account may leave at
most :data:`TELLS_PER_SENDER` for one person (``too_many_waiting``); and when
:data:`WAITING_PER_ACCOUNT` wait in all, the newest still finds room: the oldest tell of
whoever has the most waiting gives way (:func:`noddy.server.storage.tells._make_room`).

Owns: the tells' limit per address.  The muted names themselves are :mod:`.mutes`' (which
chat, challenges and invitations read too); this part only changes them on request.

Collaborators (passed in): the connections (whose tells storage handed over), the sessions
(who is online, by name), the accounts (which names are registered) and the mutes.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Callable

from noddy.protocol import ProtocolError
from noddy.protocol.i18n import Phrase
from noddy.protocol.names import normal_name, skeleton
from noddy.protocol.text import clean_text
from noddy.protocol.errors import retry_after

from ..config import ServerConfig
from ..model.ratelimit import AddressBuckets
from ..model.session import Connection
from ..model.table import Session
from .instructions import Query
from .mutes import MAX_MUTED
from .places import session_of

if TYPE_CHECKING:
    from .accounts import Accounts
    from .connections import Connections
    from .mutes import Mutes
    from .outbox import Outbox
    from .sessions import Sessions

log = logging.getLogger("noddy.server")

#: Tells that may wait for one account's login at once, from everyone: a bound on what
#: strangers can make the server keep for one person.  When it is reached a new tell still
#: finds room (an older one gives way, see the module docstring), so nobody is shut out.
WAITING_PER_ACCOUNT = 20
#: Tells one account may leave waiting for one person (then ``too_many_waiting``): enough to
#: say what one has to say and to correct it; more is a conversation, which waits until they
#: are online.  It also makes a flood cost a stranger many accounts, not one.
TELLS_PER_SENDER = 3


class Talk:
    """``tell``, ``mute``, ``unmute`` and ``muted``; see the module docstring."""

    def __init__(self, config: ServerConfig, clock: Callable[[], float], wall_clock: Callable[[], float],
                 outbox: Outbox, connections: Connections, sessions: Sessions, accounts: Accounts,
                 mutes: Mutes) -> None:
        self._clock = clock
        self._wall_clock = wall_clock
        self._outbox = outbox
        self._connections = connections
        self._sessions = sessions
        self._accounts = accounts
        self._mutes = mutes
        #: Tells per address, with chat's limits: each pushes a message to a person.
        self._buckets = AddressBuckets(config.chat_rate_per_address, config.chat_burst_per_address)

    def handlers(self) -> dict[str, Callable[[Connection, dict[str, Any], Any], None]]:
        return {"tell": self.tell, "mute": self.mute, "unmute": self.unmute, "muted": self.muted}

    def tell(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        me = session_of(conn)
        target = self._online(f["name"])
        if target is me:
            raise ProtocolError("bad_field", Phrase("you cannot tell yourself"), field="name")
        if target is None or target.conn is None:
            self._leave(conn, me, target, f, rid)
            return
        self._charge(conn)
        message = {"type": "tell", "from": me.name, "to": target.name, "text": clean_text(f["text"]),
                   "waiting": False, "echo": False}
        self._outbox.reply(conn, rid, {**message, "echo": True})
        if self._mutes.hears(target, me):
            self._outbox.send(target.conn, message)

    def _leave(self, conn: Connection, me: Session, target: Session | None, f: dict[str, Any],
               rid: Any) -> None:
        """A tell to someone not connected: kept for their account's next login."""
        account = self._accounts.registered_as(f["name"])
        if account is None or (target is not None and target.account is None):
            if target is not None:
                raise ProtocolError("no_such_player", Phrase(
                    "{name!r} is away and has no account: a tell waits only for a registered name (who "
                    "lists who is online)", name=target.name), field="name")
            raise ProtocolError("no_such_player", Phrase(
                "{name!r} is not online, and has no account: a tell waits only for a registered name "
                "(who lists who is online)", name=clean_text(f["name"])), field="name")
        if account[0] == me.account:
            raise ProtocolError("bad_field", Phrase("you cannot tell yourself"), field="name")
        if me.account is None:  # a guest: any free name is theirs, so no bound would hold them
            raise ProtocolError("not_registered", Phrase(
                "{name} is not online, and only a registered name may leave a tell to wait for their "
                "login: register yours first", name=account[1]), field="name")
        self._charge(conn)
        text = clean_text(f["text"])
        echo = {"type": "tell", "from": me.name, "to": account[1], "text": text, "waiting": True, "echo": True}
        if not self._mutes.hears(account[0], me):  # muted: dropped, and the sender is not told
            self._outbox.reply(conn, rid, echo)
            return
        self._outbox.query(Query(conn.id, rid, "leave_tell", {
            "account": account[0], "from": me.name, "sender": me.account, "sender_key": skeleton(me.name),
            "text": text, "sent_at": self._wall_clock(), "per_sender": TELLS_PER_SENDER,
            "limit": WAITING_PER_ACCOUNT, "echo": echo}))

    def deliver(self, session: Session) -> None:
        """``session`` logged in to its account (or took it back): hand it what waits."""
        if session.account is not None and session.conn is not None:
            self._outbox.query(Query(session.conn, None, "take_tells", {"account": session.account}))

    def answer(self, query: Query, result: Any, failed: bool = False) -> None:
        """Storage kept a tell (``leave_tell``), or handed over an account's with its mutes
        (``take_tells``), or kept a change of mutes (``keep_mute``, ``drop_mute``)."""
        if query.kind in ("keep_mute", "drop_mute"):
            if failed:  # known here still; lost only if the server restarts before it is kept
                log.warning("account %s: a change of mutes was not stored", query.args["account"])
            return
        conn = self._connections.get(query.conn)
        if conn is None or conn.session is None:
            return
        if query.kind == "take_tells":
            session = conn.session
            if not failed and isinstance(result, dict) and session.account == query.args["account"]:
                self._mutes.remember(session.account, result["muted"])
            for told in result["tells"] if not failed and isinstance(result, dict) else []:
                if self._mutes.hears(session, told["from"]):
                    self._outbox.send(conn.id, {"type": "tell", "from": told["from"], "to": session.name,
                                                "text": told["text"], "waiting": True, "echo": False,
                                                "sent_at": told["sent_at"]})
            return
        if failed or not isinstance(result, dict):
            self._outbox.error(conn, ProtocolError("storage_unavailable", Phrase(
                "the server could not keep the tell; try again later")), query.request_id)
        elif result.get("full"):
            echo = query.args["echo"]
            self._outbox.error(conn, ProtocolError("too_many_waiting", Phrase(
                "you have {most} tells waiting for {name} already; tell them more once they are online",
                most=TELLS_PER_SENDER, name=echo["to"]), field="name"), query.request_id)
        else:  # kept; or muted by the stored mutes (dropped, and the sender is not told)
            self._outbox.reply(conn, query.request_id, query.args["echo"])

    def mute(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        me = session_of(conn)
        name = normal_name(f["name"])
        if skeleton(name) == skeleton(me.name):
            raise ProtocolError("bad_field", Phrase("you cannot mute yourself"), field="name")
        if not self._mutes.mute(me, name):
            raise ProtocolError("too_many_muted", Phrase("you have muted {most} names, the most allowed; "
                                                         "unmute one first", most=MAX_MUTED), field="name")
        log.info("%s mutes %s", me.name, name)
        self._keep(conn, me, "keep_mute", name)
        self.muted(conn, f, rid)

    def unmute(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        me = session_of(conn)
        if not self._mutes.unmute(me, f["name"]):
            raise ProtocolError("not_muted", Phrase("you have not muted {name!r}", name=clean_text(f["name"])),
                                field="name")
        self._keep(conn, me, "drop_mute", f["name"])
        self.muted(conn, f, rid)

    def _keep(self, conn: Connection, me: Session, kind: str, name: str) -> None:
        """An account's mute changed: storage keeps it (a guest's last only as their session)."""
        if me.account is not None:
            self._outbox.query(Query(conn.id, None, kind, {"account": me.account, "key": skeleton(name),
                                                           "name": name, "limit": MAX_MUTED}))

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
            raise ProtocolError("rate_limited", Phrase("too many tells from your address; wait {wait:.2f} s",
                                                       wait=retry_after(wait)), retry_after=retry_after(wait))
