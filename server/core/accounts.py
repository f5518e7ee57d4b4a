"""Accounts: which names are registered, and the requests that register a name, change its
password and give it up.

A registered name is reserved for good: ``hello`` with it needs its password or a resume
token of its session (:mod:`.lobby` asks :meth:`Accounts.registered_as`, and checks the
password through storage).  Everyone else is a *guest*: their name works at once, as it
always did, but nothing of it is kept for them -- their games are unrated, and a guest who
comes back under the same name is someone new (see docs/PROTOCOL.md, "Accounts").

Owns: the registered names (by the skeleton of the name, so a lookalike is the same account;
never the password hashes, which only storage keeps), and the connections whose account
request is being worked out.  Handles ``register``, ``change_password`` and ``unregister``.
Each of them hashes or checks a password (scrypt, tens of milliseconds), so it is a storage
:class:`~.instructions.Query` run off the event loop (:mod:`noddy.server.storage.accounts`),
answered in :meth:`Accounts.answer`.  Wrong passwords count per address in the table
passwords' :class:`~noddy.server.model.ratelimit.PasswordGuard`.

Collaborators (passed in): the clock, the outbox, the open connections, the tables (a
table's summary says who is a guest, and whether its games are rated), the rating book
(the ratings of an account given up go with it) and the password guard.
"""

from __future__ import annotations

import logging
import math
from typing import TYPE_CHECKING, Any, Callable, Iterable

from noddy.protocol import ProtocolError
from noddy.protocol.names import skeleton
from noddy.protocol.requests import MIN_ACCOUNT_PASSWORD

from ..model.ratelimit import AddressBuckets, PasswordGuard
from ..model.ratings import RatingBook
from ..model.session import Connection, Session
from .instructions import Query
from .places import session_of

if TYPE_CHECKING:
    from .connections import Connections
    from .outbox import Outbox
    from .tables import Tables

log = logging.getLogger("noddy.server")

#: Password checks and hashes one address may ask for (logins, register, change_password,
#: unregister, over all its connections): a burst of 20, then one a second.  Each costs the
#: database thread ~50 ms of scrypt, so a right password given over and over must not keep
#: that thread (and every table's writes behind it) busy; a LAN behind one address still
#: logs twenty people in at once.
CHECKS_BURST, CHECKS_PER_SECOND = 20, 1.0


class Accounts:
    """Registered names and the account requests; see the module docstring."""

    def __init__(self, clock: Callable[[], float], outbox: Outbox, connections: Connections,
                 tables: Tables, ratings: RatingBook, guard: PasswordGuard) -> None:
        self._clock = clock
        self._outbox = outbox
        self._connections = connections
        self._tables = tables
        self._ratings = ratings
        self._guard = guard
        #: Password checks per address (see :data:`CHECKS_PER_SECOND`).
        self._checks = AddressBuckets(CHECKS_PER_SECOND, CHECKS_BURST)
        #: Registered names: skeleton of the name -> (account id, the name as registered).
        self._by_key: dict[str, tuple[int, str]] = {}
        #: Connections whose register/change_password/unregister storage is working out,
        #: with the session that asked (one such request at a time per connection).
        self._working: dict[int, Session] = {}

    def handlers(self) -> dict[str, Callable[[Connection, dict[str, Any], Any], None]]:
        return {"register": self.register, "change_password": self.change_password,
                "unregister": self.unregister}

    def load(self, rows: Iterable[tuple[int, str, str]]) -> None:
        """The accounts storage keeps, as (id, key, name), at start."""
        self._by_key = {key: (account, name) for account, key, name in rows}

    def registered_as(self, name: str) -> tuple[int, str] | None:
        """The account (id, registered name) that ``name`` is, or looks the same as; None:
        a guest's name."""
        return self._by_key.get(skeleton(name))

    def account_of(self, name: str) -> int | None:
        """The id of the account registered under exactly ``name`` (None: none is)."""
        found = self._by_key.get(skeleton(name))
        return found[0] if found is not None and found[1] == name else None

    def check_guard(self, conn: Connection) -> None:
        """Refuse (``too_many_attempts``) an address locked out for wrong passwords, or
        (``rate_limited``) one that has asked for too many password checks lately; else the
        check about to be made is counted."""
        if conn.address is None:
            return
        now = self._clock()
        wait = self._guard.locked_for(conn.address, now)
        if wait > 0:
            raise ProtocolError("too_many_attempts", f"too many wrong passwords from your address; "
                                f"wait {wait:.2f} s", field="password", retry_after=math.ceil(wait * 100) / 100)
        wait = self._checks.take(conn.address, now)
        if wait > 0:
            raise ProtocolError("rate_limited", f"too many password checks from your address; wait "
                                f"{wait:.2f} s", retry_after=math.ceil(wait * 100) / 100)

    def wrong_password(self, conn: Connection) -> None:
        """``conn`` gave a wrong account password: it counts against its address."""
        if conn.address is not None:
            self._guard.failed(conn.address, self._clock())

    # -- the requests -----------------------------------------------------------------------
    def register(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        session = self._idle(conn)
        if session.account is not None or self.registered_as(session.name) is not None:
            raise ProtocolError("already_registered", f"the name {session.name!r} is registered already"
                                + (" (it is yours)" if session.account is not None else ""))
        _long_enough(f["password"], "password")
        self.check_guard(conn)
        self._ask(conn, session, Query(conn.id, rid, "register", {
            "key": skeleton(session.name), "name": session.name, "password": f["password"]}))

    def change_password(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        session = self._registered(conn)
        self.check_guard(conn)
        _long_enough(f["new"], "new")
        self._ask(conn, session, Query(conn.id, rid, "change_password", {
            "key": skeleton(session.name), "account": session.account, "password": f["old"], "new": f["new"]}))

    def unregister(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        session = self._registered(conn)
        self.check_guard(conn)
        self._ask(conn, session, Query(conn.id, rid, "unregister", {
            "key": skeleton(session.name), "account": session.account, "password": f["password"]}))

    def _idle(self, conn: Connection) -> Session:
        session = session_of(conn)
        if conn.id in self._working:
            raise ProtocolError("rate_limited", "your last account request is still being worked out; "
                                "wait for its reply", retry_after=0.1)
        return session

    def _registered(self, conn: Connection) -> Session:
        session = self._idle(conn)
        if session.account is None:
            raise ProtocolError("not_registered", f"{session.name!r} is a guest's name (no account): "
                                "register it first")
        return session

    def _ask(self, conn: Connection, session: Session, query: Query) -> None:
        self._working[conn.id] = session
        self._outbox.query(query)

    def answer(self, query: Query, result: Any, failed: bool = False) -> None:
        """Storage has worked out an account request (see :mod:`noddy.server.storage.accounts`)."""
        session = self._working.pop(query.conn, None)
        conn = self._connections.get(query.conn)
        if conn is None or conn.closing or session is None:
            return
        rid, args = query.request_id, query.args
        if failed:
            self._outbox.error(conn, ProtocolError("storage_unavailable", "the server could not save or "
                                                   "read the account; try again"), rid)
        elif query.kind == "register":
            if result.get("taken"):
                self._outbox.error(conn, ProtocolError(
                    "already_registered", f"the name {args['name']!r} is registered already"), rid)
                return
            self._by_key[args["key"]] = (result["account"], result["name"])
            log.info("connection %d registered the name %r (account %d)", conn.id, result["name"], result["account"])
            self._set_account(session, result["account"])
            self._outbox.reply(conn, rid, {"type": "registered", "name": result["name"]})
        elif result.get("missing"):
            self._set_account(session, None)
            self._outbox.error(conn, ProtocolError("not_registered", f"{session.name!r} has no account "
                                                   "any more"), rid)
        elif result.get("account") is None:
            self.wrong_password(conn)
            self._outbox.error(conn, ProtocolError("bad_password", "that is not the account's password",
                                                   field="password" if query.kind == "unregister" else "old"), rid)
        elif query.kind == "change_password":
            log.info("connection %d: %r changed the account's password", conn.id, session.name)
            self._outbox.reply(conn, rid, {"type": "password_changed", "name": session.name})
        else:  # unregister
            self._by_key.pop(args["key"], None)
            self._ratings.forget_person(result["name"])
            log.info("connection %d: %r gave up the account", conn.id, result["name"])
            self._set_account(session, None)
            self._outbox.reply(conn, rid, {"type": "unregistered", "name": result["name"]})

    def _set_account(self, session: Session, account: int | None) -> None:
        """``session`` now is (or no longer is) an account's: a table it is at says so."""
        session.account = account
        if session.table is not None:
            self._tables.changed(session.table)


def _long_enough(password: str, field: str) -> None:
    if len(password.strip()) < MIN_ACCOUNT_PASSWORD:
        raise ProtocolError("bad_field", f"an account's password needs at least {MIN_ACCOUNT_PASSWORD} "
                            "characters (not counting spaces at either end)", field=field)
