"""The lobby: who says hello under which name, what they are welcomed with, chat and bye.

Owns: the guests' counter (a text-mode person who types a command before choosing a name is
``guest-N``), the chat limit per address and the hellos waiting for a registered name's
password to be checked, and handles the requests ``hello`` (a new name, a registered name
with its password -- which also takes back the account's held seat -- or a resume token
taking back a held session), ``list_tables``, ``chat`` (the lobby's, a table's, or its
watchers') and ``bye``, with a text-mode person's second hello (``name``/``login``/``resume``
before they sit down).  Whoever says hello is given the lobby's last chat lines
(:meth:`LobbyBoard.greet`), and nobody is sent chat from a name they muted.

Collaborators (passed in): the sessions and names (:mod:`.sessions`), the lobby's board
(:mod:`.lobby_board`), the open connections and tables, the rating book (for the welcome),
the tables that could not be restored (told once to whoever resumes), seating (a watcher
who changes name keeps watching), leaving (a bye leaves the table; a watcher who resumed
another session gives up the old place) and the accounts (which names
are registered; wrong passwords counted per address).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Callable

from noddy.bots import LEVELS
from noddy.engine import PRESETS
from noddy.protocol import PROTOCOL_VERSION, SUPPORTED_VERSIONS, ProtocolError
from noddy.protocol.i18n import Phrase
from noddy.protocol.names import normal_name, skeleton
from noddy.protocol.text import clean_text
from noddy.protocol.errors import retry_after
from noddy.protocol.i18n import DEFAULT_LANGUAGE

from ..config import ServerConfig
from ..model.ratelimit import AddressBuckets
from ..model.ratings import FAMILIES, Rated, RatingBook
from ..model.session import Connection
from ..model.table import PLAYING, WATCHERS_CHAT_KEPT, Session
from ..model.table_options import advertised_options, unlisted
from .turn_timers import turn_timer
from .instructions import PasswordResult, PasswordWork
from .languages import languages, spoken
from .names import COMPUTER_SKELETONS, SERVER_NAME
from .places import my_table, session_of as _session

if TYPE_CHECKING:
    from .results import Results
    from .accounts import Accounts
    from .connections import Connections
    from .leaving import Leaving
    from .lobby_board import LobbyBoard
    from .mutes import Mutes
    from .outages import LostTables
    from .outbox import Outbox
    from .seating import Seating
    from .sessions import Sessions
    from .talk import Talk
    from .tables import Tables

log = logging.getLogger("noddy.server")


class Lobby:
    """Hello, names, the welcome, chat and bye; see the module docstring."""

    def __init__(self, config: ServerConfig, clock: Callable[[], float], outbox: Outbox,
                 connections: Connections, sessions: Sessions, board: LobbyBoard, tables: Tables,
                 ratings: RatingBook, lost: LostTables, seating: Seating, leaving: Leaving,
                 accounts: Accounts, mutes: Mutes, talk: Talk, results: Results) -> None:
        self._config = config
        self._clock = clock
        self._outbox = outbox
        self._connections = connections
        self._sessions = sessions
        self._board = board
        self._tables = tables
        self._ratings = ratings
        self._lost = lost
        self._seating = seating
        self._leaving = leaving
        self._accounts = accounts
        self._mutes = mutes
        self._talk = talk
        self._results = results
        self._guests = 0
        #: Connections whose hello with a registered name waits for its password check: the
        #: session they had (a text-mode rename) or None, whether a bot, and the name.
        self._logging_in: dict[int, tuple[Session | None, bool, str]] = {}
        #: Chat per address over all its connections.
        self._chat_buckets = AddressBuckets(config.chat_rate_per_address, config.chat_burst_per_address)

    def handlers(self) -> dict[str, Callable[[Connection, dict[str, Any], Any], None]]:
        return {"hello": self.hello, "list_tables": self.list_tables, "chat": self.chat, "bye": self.bye}

    def add_session(self, session: Session) -> None:
        """A new session: in the sessions and names, and (if it is there) in the lobby.  A
        session restored from storage is its name's account's, if the name is registered
        (nobody else can have held a registered name's seat)."""
        if session.account is None:
            session.account = self._accounts.account_of(session.name)
        self._sessions.add(session)
        self._board.arrived(session)

    def logging_in(self, conn: Connection) -> bool:
        """Whether ``conn``'s hello waits for its password to be checked."""
        return conn.id in self._logging_in

    def welcome(self, session: Session, resumed: bool) -> dict[str, Any]:
        config = self._config
        return {
            "type": "welcome", "version": PROTOCOL_VERSION, "server": SERVER_NAME,
            "name": session.name, "token": session.token, "resumed": resumed,
            "registered": session.account is not None,
            "table": None if session.table is None else session.table.id, "seat": session.seat,
            "presets": [rules.describe() for rules in PRESETS.values()],
            "table_options": advertised_options(),
            "levels": list(LEVELS), "default_level": config.computer_level,
            "ratings": {family: round(self._ratings.rating(family, Rated("bot" if session.bot else "human",
                                                                         session.name)))
                        for family in FAMILIES},
            "limits": {"max_line": config.max_line, "grace_period": config.grace_period,
                       "ping_interval": config.ping_interval, "idle_timeout": config.idle_timeout,
                       "rate": config.rate, "burst": config.burst, "seat_silence": config.seat_silence,
                       "keep_away": config.keep_away},
            "language": self._language_of(session), "languages": languages(),
        }

    def _language_of(self, session: Session) -> str:
        conn = self._connections.get(session.conn)
        return DEFAULT_LANGUAGE if conn is None else conn.language

    def hello(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        outbox = self._outbox
        if conn.session is not None:
            raise ProtocolError("already_hello", Phrase("this connection has already said hello"))
        if f["version"] not in SUPPORTED_VERSIONS:
            raise ProtocolError("unsupported_version",
                                Phrase("protocol version {version} is not spoken here", version=f["version"]),
                                field="version", supported=list(SUPPORTED_VERSIONS))
        if conn.id in self._logging_in:
            raise ProtocolError("already_hello", Phrase("this connection's hello is waiting for its password "
                                                     "to be checked"))
        conn.turn_state = f["turn_state"]
        if f["language"] is not None:  # (first: what follows, a refusal too, is said in it)
            self._connections.set_language(conn, spoken(f["language"]))
        if f["resume"] is not None:
            session = self._sessions.get(f["resume"])
            if session is None:
                raise ProtocolError("bad_token", Phrase("no seat is held for that resume token"), field="resume")
            self._resume(conn, session, rid)
            return
        name = normal_name(f["name"])  # printable, NFKC: the form everyone is shown
        if skeleton(name) in COMPUTER_SKELETONS:
            raise ProtocolError("name_taken", Phrase("the name {name!r} is (or looks like) a computer "
                                                "player's; choose another", name=name), field="name")
        registered = self._accounts.registered_as(name)
        if registered is not None:
            self._log_in(conn, registered[1], f, rid, None)
            return
        if f["password"] is not None:  # a login: never quietly a guest of a mistyped name
            raise ProtocolError("not_registered", Phrase(
                "no account is registered as {name!r}: say hello without a password to play as a guest "
                "(in text mode: name NAME; after login the password is the last word)", name=name),
                field="name")
        if self._sessions.name_in_use(name):
            raise ProtocolError("name_taken", Phrase("the name {name!r} (or one that looks the same) is in "
                                                "use by someone connected (or holding a seat); choose "
                                                "another", name=name), field="name")
        self._new_session(conn, name, f["bot"], None, rid)

    def _log_in(self, conn: Connection, name: str, f: dict[str, Any], rid: Any, old: Session | None) -> None:
        """A hello with the registered ``name``: the hashing worker checks the password off the
        event loop (:meth:`Accounts.check_login`), and :meth:`logged_in` finishes the hello."""
        if f["password"] is None:
            raise ProtocolError("password_required", Phrase("{name!r} is a registered name: give its password "
                                                       "(in text mode: login {name} PASSWORD), or choose "
                                                       "another name", name=name), field="password")
        self._accounts.check_login(conn, name, f["password"], rid)
        self._logging_in[conn.id] = (old, f["bot"], name)

    def logged_in(self, work: PasswordWork, checked: PasswordResult | None) -> None:
        """The worker checked a hello's password (see :meth:`_log_in`): the hello is finished,
        taking back the account's held seat if it has one, or refused (``bad_password``)."""
        result = self._accounts.login_result(work, checked)
        old, bot, name = self._logging_in.pop(work.conn, (None, False, ""))
        conn = self._connections.get(work.conn)
        if conn is None or conn.closing:
            return
        # The wait was the server's: a refused connection's time to say more starts now.
        self._connections.heard(conn, self._clock())
        rid = work.request_id
        try:
            if result.get("failed"):
                raise ProtocolError("storage_unavailable",
                                    Phrase("the server could not check the password; try again"))
            if result.get("account") is None:
                raise ProtocolError("bad_password", Phrase("that is not the name's password (each check counts "
                                                   "against the name and your address)"), field="password")
            if old is not None:
                if conn.session is not old or (old.seat is not None and old.table is not None):
                    raise ProtocolError("already_hello", Phrase("you sat down meanwhile; stand up or leave first"),
                                        field="name")
                self._sessions.forget(old)  # frees the old name
            held = self._sessions.holder(result["name"])
            if held is not None and held.account != result["account"]:
                raise ProtocolError("name_taken", Phrase("the name {name!r} is in use by a guest who held it "
                                                    "before it was registered", name=result["name"]),
                                    field="name")
            conn.session = None
            if held is not None:
                self._resume(conn, held, rid)
            else:
                self._new_session(conn, result["name"], bot, result["account"], rid)
        except ProtocolError as exc:
            if old is not None and conn.session is old and not self._sessions.is_current(old):
                self.add_session(old)
            if conn.session is None and conn.text:
                conn.refused_name = name
            self._outbox.error(conn, exc, rid)
            return
        if old is not None and old.table is not None:
            self._renamed(conn, old, held is not None)

    def _resume(self, conn: Connection, session: Session, rid: Any) -> None:
        """``conn`` takes over ``session`` (a resume token, or the account's login): a seat a
        computer stands in for is the person's again (issue 24: 'the moment they return')."""
        outbox = self._outbox
        old = self._connections.get(session.conn) if session.conn is not None else None
        if old is not None:
            outbox.send(old.id, {"type": "bye", "reason": "resumed on another connection"})
            old.session = None
            outbox.close(old, "replaced")
        session.conn = conn.id
        session.turn_state = conn.turn_state
        self._board.arrived(session)
        session.held_until = None
        conn.session, conn.refused_name = session, None
        self._connections.schedule(conn)  # now it may be pinged
        log.info("connection %d resumed %s (%s)", conn.id, session.name,  # seats as people count them
                 "in the lobby" if session.table is None else
                 f"table {session.table.id}, " + ("watching" if session.seat is None else f"seat {session.seat + 1}"))
        outbox.reply(conn, rid, self.welcome(session, resumed=True))
        lost = self._lost.take(session.token)
        if lost is not None:  # its table could not be restored (see Recovery.table_lost)
            outbox.send(conn.id, lost)
        table = session.table
        if table is not None:
            if session.seat is not None:
                self._seating.take_back(session)  # from a computer standing in, if one is
                outbox.to_table(table, {"type": "player_back", "table": table.id,
                                        "seat": session.seat, "name": session.name}, exclude=session)
                self._tables.changed(table, exclude=session)
            snapshot = table.snapshot(session.seat, self._clock())
            outbox.send(conn.id, snapshot, turn_timer(table, session.seat, conn.id, snapshot.get("turn")))
        else:
            self._board.greet(session)
        self._talk.deliver(session)  # the tells that waited for the account
        self._results.deliver(session)  # a result decided while they were away

    def _new_session(self, conn: Connection, name: str, bot: bool, account: int | None, rid: Any) -> None:
        outbox = self._outbox
        session = Session(name, bot, conn.id, account=account, turn_state=conn.turn_state)
        self.add_session(session)
        conn.session, conn.refused_name = session, None
        self._connections.schedule(conn)  # now it may be pinged
        log.info("connection %d is %s%s", conn.id, session.name, " (bot)" if session.bot else "")
        outbox.reply(conn, rid, self.welcome(session, resumed=False))
        self._board.greet(session)
        self._talk.deliver(session)  # the tells that waited for the account
        self._results.deliver(session)  # a result decided while they were away

    def guest_name(self) -> str:
        """A free ``guest-N`` name, for a text-mode person who has not chosen one (not one
        somebody registered, either)."""
        self._guests += 1
        while (self._sessions.name_in_use(f"guest-{self._guests}")
               or self._accounts.registered_as(f"guest-{self._guests}") is not None):
            self._guests += 1
        return f"guest-{self._guests}"

    def hello_again(self, conn: Connection, request: dict[str, Any],
                    dispatch: Callable[[Connection, dict[str, Any]], None]) -> None:
        """``name NAME`` or ``resume TOKEN`` from a text connection that already has a name
        (a guest's, given on its first command, or one chosen before): until they sit down a
        person may choose another name, or take back a held seat.  Either goes through the
        very hello a JSON client sends (``dispatch``), so it meets the same rules; the session
        is a new one (a new resume token, or the resumed one).  A watcher keeps watching under
        a new name; one who resumes a session leaves the table they were watching."""
        old = conn.session
        assert old is not None
        table = old.table
        resuming = request.get("resume") is not None
        if old.seat is not None and table is not None:
            raise ProtocolError("already_hello", Phrase("you sit at table {table} as {name}; stand up or leave "
                                                     "first", table=table.id, name=old.name) if resuming
                                else Phrase("you sit at table {table} as {name}; stand up or leave to "
                                            "change your name", table=table.id, name=old.name), field="name")
        conn.session = None
        self._sessions.forget(old)  # frees the old name for the check
        dispatch(conn, request)
        if conn.id in self._logging_in:  # a registered name: the old one stays until it is checked
            self._logging_in[conn.id] = (old, *self._logging_in[conn.id][1:])
            self.add_session(old)
            conn.session = old
            return
        if conn.session is None:  # refused: the old name stays
            self.add_session(old)
            conn.session = old
            return
        if table is not None:
            self._renamed(conn, old, resuming)

    def _renamed(self, conn: Connection, old: Session, resuming: bool) -> None:
        """``conn``'s person, who was ``old`` while watching a table, now has a new session:
        as a new name they keep watching; having resumed another session they leave it."""
        new, table = conn.session, old.table
        assert new is not None and table is not None
        log.info("connection %d: %s is now %s", conn.id, old.name, new.name)
        if resuming:
            self._leaving.remove_spectator(table, old)
        else:
            self._seating.rename_watcher(table, old, new)

    def list_tables(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        # people_only: the tables where no program (a hello with "bot": true) sits.
        session = conn.session
        tables = [table.summary() for table in self._tables.sorted()
                  if not (f["people_only"] and any(s.bot for s in table.humans()))
                  and (not unlisted(table.options) or any(s is session for s, _ in table.members()))]
        self._outbox.reply(conn, rid, {"type": "tables", "tables": tables})

    def chat(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        """Chat, cleaned of terminal controls once here so JSON and text readers get the same
        text, and limited per address as well as per connection (see PROTOCOL.md, Chat).
        Nobody is sent a line from a name they muted.  The watchers' chat (``to``
        ``watchers``) reaches only the watchers while a game is being played, and is given to
        its players when it ends; between games everyone at the table hears it."""
        session = _session(conn)
        to = f["to"] or ("table" if session.table is not None else "lobby")
        table = my_table(session) if to != "lobby" else None
        if to == "watchers" and session.seat is not None:
            assert table is not None
            raise ProtocolError("not_watching", Phrase("you sit at table {table}: the watchers' chat is "
                                                  "for those who watch", table=table.id), field="to")
        if conn.address is not None:
            wait = self._chat_buckets.take(conn.address, self._clock())
            if wait > 0:
                raise ProtocolError("rate_limited", Phrase("too much chat from your address; wait {wait:.2f} s",
                                                    wait=retry_after(wait)),
                                    retry_after=retry_after(wait))
        message = {"type": "chat", "to": to, "table": None if table is None else table.id,
                   "from": session.name, "seat": session.seat if table is not None else None,
                   "text": clean_text(f["text"])}
        self._outbox.reply(conn, rid, {"type": "ok"})
        if table is None:
            self._board.tell(message, exclude=session)
            self._outbox.send(conn.id, message)
            return
        playing = to == "watchers" and table.status == PLAYING
        if playing:
            del table.watchers_chat[:len(table.watchers_chat) - WATCHERS_CHAT_KEPT + 1]
            deaf = frozenset(s for s, seat in table.members() if seat is not None
                             and not self._mutes.hears(s, session))
            table.watchers_chat.append((message, deaf))
        for member, seat in table.members():
            if member is session or (self._mutes.hears(member, session) and not (playing and seat is not None)):
                self._outbox.send(member.conn, message)

    def bye(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        session = _session(conn)
        session.conn, conn.session = None, None
        self._sessions.forget(session)
        self._mutes.forget(session)
        if session.table is not None:
            self._leaving.leave(session.table, session)
        self._outbox.reply(conn, rid, {"type": "bye", "reason": "goodbye"})
        self._outbox.close(conn, "bye")

