"""Accounts: which names are registered, the password checks they need, and the requests that
register a name, change its password and give it up.

A registered name is reserved for good: ``hello`` with it needs its password or a resume
token of its session (:mod:`.lobby` asks :meth:`Accounts.registered_as`, then
:meth:`Accounts.check_login`).  Everyone else is a *guest*: their name works at once, as it
always did, but nothing of it is kept for them -- their games are unrated, and a guest who
comes back under the same name is someone new (see docs/PROTOCOL.md, "Accounts").

Where the work goes: checking or hashing a password is scrypt, ~50 ms of a core, so it is a
:class:`~.instructions.PasswordWork` that the network layer runs on its small hashing worker
-- never on the event loop, and never in storage's queue, where it once held every game's
writes (and every message behind them) while a guesser kept it busy.  The worker's queue is
bounded: past :attr:`ServerConfig.password_queue` checks in progress a request is answered
``busy`` at once.  Only what must be written goes to storage afterwards, as a quick
:class:`~.instructions.Query` with the hash already made (``register``, ``change_password``,
``unregister``).  The hashes are kept here too, loaded at start, so a login needs no storage
at all.

Who may ask (all counted when a request arrives, not when its check returns): the password
checks per address (a token bucket), the guesses per name and the names per address
(:class:`~noddy.server.model.guesses.LoginLimits`: an address the owner logged in from is
exempt, so someone else's guessing never locks the owner out), and the accounts made per
address per day (:class:`~noddy.server.model.guesses.Registrations`).

Owns: the registered names (by the skeleton of the name, so a lookalike is the same
account) with their stored hashes, the limits above, the password checks in progress and the
connections whose account request is being worked out.

Collaborators (passed in): the config, the clock, the outbox, the open connections, the
tables (a table's summary says who is a guest, and whether its games are rated) and the
rating book (the ratings of an account given up go with it).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable

from noddy.protocol import ProtocolError
from noddy.protocol.names import apart_key, skeleton
from noddy.protocol.requests import MIN_ACCOUNT_PASSWORD
from noddy.protocol.errors import retry_after
from noddy.protocol.i18n import Phrase

from ..config import ServerConfig
from ..model.guesses import LoginLimits, Registrations
from ..model.passwords import ACCOUNT_N
from ..model.ratelimit import AddressBuckets
from ..model.ratings import RatingBook
from ..model.session import Connection, Session
from .instructions import PasswordResult, PasswordWork, Query
from .places import session_of

if TYPE_CHECKING:
    from .connections import Connections
    from .outbox import Outbox
    from .tables import Tables

log = logging.getLogger("noddy.server")

#: Seconds one password check takes the hashing worker, about (scrypt at ACCOUNT_N): how
#: long a ``busy`` request is asked to wait per check ahead of it.
CHECK_SECONDS = 0.05
#: A day, the window of :attr:`ServerConfig.accounts_per_address_per_day`.
DAY = 86_400.0


@dataclass(slots=True)
class Registered:
    """One account as the core knows it: its id, the name as registered, the stored hash."""

    account: int
    name: str
    stored: str


class Accounts:
    """Registered names, their password checks and the account requests; see the module
    docstring."""

    def __init__(self, config: ServerConfig, clock: Callable[[], float], outbox: Outbox,
                 connections: Connections, tables: Tables, ratings: RatingBook) -> None:
        self._config = config
        self._clock = clock
        self._outbox = outbox
        self._connections = connections
        self._tables = tables
        self._ratings = ratings
        #: Scrypt's cost for new hashes (tests may lower it).
        self.cost = ACCOUNT_N
        #: Password checks per address (any kind, right or wrong).
        self._checks = AddressBuckets(config.password_checks_per_second, config.password_checks_burst)
        self._limits = LoginLimits(config.login_checks_per_name, config.login_names_per_address,
                                   config.login_window)
        self._made = Registrations(config.accounts_per_address_per_day, DAY)
        #: Registered names: skeleton of the name -> the account.
        self._by_key: dict[str, Registered] = {}
        #: Keys being registered (their hash is being made): nobody else may take them meanwhile.
        self._reserved: set[str] = set()
        #: Password works handed to the worker and not yet back.
        self._in_flight = 0
        #: Connections whose register/change_password/unregister is being worked out, with the
        #: session that asked (one such request at a time per connection).
        self._working: dict[int, Session] = {}

    def handlers(self) -> dict[str, Callable[[Connection, dict[str, Any], Any], None]]:
        return {"register": self.register, "change_password": self.change_password,
                "unregister": self.unregister}

    def load(self, rows: Iterable[tuple[int, str, str, str]]) -> None:
        """The accounts storage keeps, as (id, key, name, stored hash), at start."""
        self._by_key = {key: Registered(account, name, stored) for account, key, name, stored in rows}

    def _find(self, name: str) -> tuple[str, Registered] | None:
        """The key and account that ``name`` is: one set apart under its exact spelling (two
        accounts an older skeleton kept apart: see storage's schema version 10), else the
        one whose skeleton it has."""
        for key in (apart_key(name), skeleton(name)):
            found = self._by_key.get(key)
            if found is not None:
                return key, found
        return None

    def registered_as(self, name: str) -> tuple[int, str] | None:
        """The account (id, registered name) that ``name`` is, or looks the same as; None:
        a guest's name."""
        found = self._find(name)
        return None if found is None else (found[1].account, found[1].name)

    def account_of(self, name: str) -> int | None:
        """The id of the account registered under exactly ``name`` (None: none is)."""
        found = self._find(name)
        return found[1].account if found is not None and found[1].name == name else None

    @property
    def checks_in_progress(self) -> int:
        """Password works handed to the hashing worker and not yet back."""
        return self._in_flight

    # -- logins (for the lobby) ---------------------------------------------------------------
    def check_login(self, conn: Connection, name: str, password: str, rid: Any) -> None:
        """Have ``password`` checked for the registered ``name`` (raises what refuses it: the
        limits of the module docstring); the lobby is given the result through
        :meth:`login_result`."""
        found_key = self._find(name)
        assert found_key is not None, "the lobby asks only for a registered name"
        key, found = found_key
        now = self._clock()
        known = self._limits.known(conn.address, key)
        # The guessing limits first: their waits are long, so a guesser told to wait stops
        # asking (and its refusals cost the least); a check they count but the queue or the
        # address's rate refuses is given back.
        wait, limit = self._limits.admit(conn.address, key, now)
        if limit == "name":
            raise ProtocolError("too_many_attempts", Phrase(
                "too many password checks for {name!r} lately from addresses it was not logged in from; "
                "wait {wait} s (or log in from an address you used before, or resume with your token)",
                name=found.name, wait=_seconds(wait)), field="password", retry_after=_retry(wait))
        if limit:
            raise ProtocolError("too_many_attempts", Phrase(
                "your address has had the passwords of too many names checked lately ({most}); wait "
                "{wait} s", most=self._config.login_names_per_address, wait=_seconds(wait)),
                field="password", retry_after=_retry(wait))
        try:
            self._admit(conn, now, known)
        except ProtocolError:
            self._limits.refund(conn.address, key)
            raise
        self._start(PasswordWork(conn.id, rid, "login", key, password=password, stored=found.stored))

    def login_result(self, work: PasswordWork, result: PasswordResult | None) -> dict[str, Any]:
        """A login's check came back (None: it failed): the answer as the lobby reads it,
        ``{"account": id, "name": name}``, ``{"account": None}`` (a wrong password) or
        ``{"missing": True}`` (the account was given up meanwhile); ``{"failed": True}``."""
        self._in_flight -= 1
        conn = self._connections.get(work.conn)
        address = conn.address if conn is not None else None
        if result is None:
            return {"failed": True}
        self._limits.settled(address, work.key, result.right, self._clock())
        found = self._by_key.get(work.key)
        if found is None or found.stored != work.stored:
            # Given up, or its password changed, while the check ran: check the new one.
            return {"missing": True} if found is None else {"account": None}
        if not result.right:
            return {"account": None}
        return {"account": found.account, "name": found.name}

    # -- the requests -----------------------------------------------------------------------
    def register(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        session = self._idle(conn)
        key = skeleton(session.name)
        if session.account is not None or self._find(session.name) is not None or key in self._reserved:
            raise ProtocolError("already_registered", _registered_already(
                session.name, yours=session.account is not None))
        _long_enough(f["password"], "password")
        now = self._clock()
        self._admit(conn, now, known=False)
        wait = self._made.admit(conn.address, now)
        if wait > 0:
            raise ProtocolError("too_many_accounts", Phrase(
                "your address has made as many accounts today as allowed ({most}); wait {wait} s",
                most=self._config.accounts_per_address_per_day, wait=_seconds(wait)),
                retry_after=_retry(wait))
        self._reserved.add(key)
        self._working[conn.id] = session
        self._start(PasswordWork(conn.id, rid, "register", key, new=f["password"], cost=self.cost))

    def change_password(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        session, key, found = self._registered(conn)
        _long_enough(f["new"], "new")
        self._admit(conn, self._clock(), known=True)
        self._working[conn.id] = session
        self._start(PasswordWork(conn.id, rid, "change_password", key, password=f["old"],
                                 stored=found.stored, new=f["new"], cost=self.cost))

    def unregister(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        session, key, found = self._registered(conn)
        self._admit(conn, self._clock(), known=True)
        self._working[conn.id] = session
        self._start(PasswordWork(conn.id, rid, "unregister", key, password=f["password"], stored=found.stored))

    def _idle(self, conn: Connection) -> Session:
        session = session_of(conn)
        if conn.id in self._working:
            raise ProtocolError("rate_limited", Phrase("your last account request is still being worked "
                                                       "out; wait for its reply"), retry_after=0.1)
        return session

    def _registered(self, conn: Connection) -> tuple[Session, str, Registered]:
        session = self._idle(conn)
        found = self._find(session.name)
        if session.account is None or found is None or found[1].account != session.account:
            raise ProtocolError("not_registered", Phrase("{name!r} is a guest's name (no account): "
                                                         "register it first", name=session.name))
        return session, found[0], found[1]

    def _admit(self, conn: Connection, now: float, known: bool) -> None:
        """Refuse a password check that the address's checks (``rate_limited``) or the
        worker's queue (``busy``) have no room for; else it is counted.  An address the
        account knows may use as much of the queue again: a guesser filling it cannot keep
        the owner out."""
        if conn.address is not None:
            wait = self._checks.take(conn.address, now)
            if wait > 0:
                raise ProtocolError("rate_limited", Phrase("too many password checks from your address; "
                                                           "wait {wait} s", wait=_seconds(wait)),
                                    retry_after=_retry(wait))
        limit = self._config.password_queue
        if limit and self._in_flight >= (2 * limit if known else limit):
            wait = self._in_flight * CHECK_SECONDS
            raise ProtocolError("busy", Phrase("the server is busy checking other passwords; try again in "
                                               "{wait} s", wait=_seconds(wait)), retry_after=_retry(wait))

    def _start(self, work: PasswordWork) -> None:
        self._in_flight += 1
        self._outbox.password(work)

    def password_done(self, work: PasswordWork, result: PasswordResult | None) -> None:
        """The worker checked or hashed for an account request (None: it failed): a wrong
        password is refused; else storage is asked to write what the request changes."""
        self._in_flight -= 1
        session = self._working.get(work.conn)
        conn = self._connections.get(work.conn)
        if result is None or not result.right or conn is None or conn.closing or session is None:
            self._working.pop(work.conn, None)
            if work.kind == "register":
                self._reserved.discard(work.key)
                self._made.failed(conn.address if conn is not None else None)
            if conn is None or conn.closing or session is None:
                return
            if result is None:
                self._outbox.error(conn, _unavailable(), work.request_id)
            else:
                self._outbox.error(conn, ProtocolError("bad_password", Phrase("that is not the account's password"),
                                                       field="password" if work.kind == "unregister" else "old"),
                                   work.request_id)
            return
        found = self._by_key.get(work.key)
        if work.kind == "register":
            args: dict[str, Any] = {"key": work.key, "name": session.name, "stored": result.hashed}
        elif found is None or found.stored != work.stored:  # given up or changed meanwhile
            self._working.pop(work.conn, None)
            self._outbox.error(conn, ProtocolError("not_registered", _no_account(session.name))
                               if found is None else
                               ProtocolError("bad_password", Phrase("the account's password changed meanwhile"),
                                             field="password" if work.kind == "unregister" else "old"),
                               work.request_id)
            return
        else:
            args = {"key": work.key, "account": found.account, "stored": result.hashed}
        self._outbox.query(Query(conn.id, work.request_id, work.kind, args))

    def answer(self, query: Query, result: Any, failed: bool = False) -> None:
        """Storage has written an account request (see :mod:`noddy.server.storage.accounts`)."""
        session = self._working.pop(query.conn, None)
        args = query.args
        if query.kind == "register":
            self._reserved.discard(args["key"])
        conn = self._connections.get(query.conn)
        if query.kind == "register" and not failed and not result.get("taken"):
            # Written: the account exists whether or not its maker is still there.
            self._by_key[args["key"]] = Registered(result["account"], result["name"], args["stored"])
            self._limits.logged_in(conn.address if conn is not None else None, args["key"], self._clock())
        elif query.kind == "change_password" and not failed and not result.get("missing"):
            found = self._by_key.get(args["key"])
            if found is not None:
                found.stored = args["stored"]
        elif query.kind == "unregister" and not failed and not result.get("missing"):
            self._by_key.pop(args["key"], None)
            self._limits.forget(args["key"])
            self._ratings.forget_person(result["name"])
        if conn is None or conn.closing or session is None:
            return
        rid = query.request_id
        if failed:
            if query.kind == "register":
                self._made.failed(conn.address)
            self._outbox.error(conn, _unavailable(), rid)
        elif query.kind == "register":
            if result.get("taken"):
                self._made.failed(conn.address)
                self._outbox.error(conn, ProtocolError(
                    "already_registered", _registered_already(args["name"], yours=False)), rid)
                return
            log.info("connection %d registered the name %r (account %d)", conn.id, result["name"], result["account"])
            self._set_account(session, result["account"])
            self._outbox.reply(conn, rid, {"type": "registered", "name": result["name"]})
        elif result.get("missing"):
            self._set_account(session, None)
            self._outbox.error(conn, ProtocolError("not_registered", _no_account(session.name)), rid)
        elif query.kind == "change_password":
            log.info("connection %d: %r changed the account's password", conn.id, session.name)
            self._outbox.reply(conn, rid, {"type": "password_changed", "name": session.name})
        else:  # unregister
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
        raise ProtocolError("bad_field", Phrase("an account's password needs at least {least} characters "
                                                "(not counting spaces at either end)",
                                                least=MIN_ACCOUNT_PASSWORD), field=field)


def _registered_already(name: str, *, yours: bool) -> Phrase:
    if yours:
        return Phrase("the name {name!r} is registered already (it is yours)", name=name)
    return Phrase("the name {name!r} is registered already", name=name)


def _no_account(name: str) -> Phrase:
    return Phrase("{name!r} has no account any more", name=name)


def _unavailable() -> ProtocolError:
    return ProtocolError("storage_unavailable",
                         Phrase("the server could not save or read the account; try again"))


def _seconds(wait: float) -> str:
    return f"{_retry(wait):.2f}"


def _retry(wait: float) -> float:
    """``retry_after`` for a wait: never less than the wait (rounded up to 1/100 s)."""
    return retry_after(wait)
