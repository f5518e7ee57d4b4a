"""Reception: every line and request that comes in, rate-limited, read and handed to its handler.

Owns: what the last request handled was (``origin``: the network layer gives it back to
``unstored`` if that call's records cannot be written) and the table of request handlers
(one per request type of :data:`noddy.protocol.REQUESTS`, made by the core from its parts'
``handlers()``; a type without a handler, or a handler without a type, stops the core from
being built at all), and handles ``connect``, ``receive``, ``receive_request`` (a request a
person typed, already read by the text adapter at the edge), ``line_too_long``,
``disconnect`` and the keepalive part of ``tick``, with the requests ``ping``, ``pong`` and
``language`` (the connection's own: see :mod:`.languages`).
Every other request a person makes is reported (``heard``) before it is handled: it ends
their silence at a table (:mod:`.silence`); a ``ping`` or ``pong`` is the connection's.

Collaborators (passed in): the connections, the sessions' lobby (guests' names, a text-mode
person's second hello), the held seats (a lost connection's place is held), recovery (requests
declared ``changes_table`` are refused at a paused table) and ``heard`` (the stand-ins' part: a request
ends its person's silence, and gives back a seat a computer played for that silence).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Callable

from noddy.engine import NoddyError
from noddy.engine.errors import EngineText
from noddy.protocol import PROTOCOL_VERSION, REQUESTS, ProtocolError, decode_line
from noddy.protocol.errors import ERROR_CODES
from noddy.protocol.request_table import BEFORE_HELLO, CHANGES_TABLE, NOT_HEARD
from noddy.protocol.requests import read_request, request_id_of
from noddy.protocol.errors import retry_after
from noddy.protocol.i18n import DEFAULT_LANGUAGE, Phrase

from ..config import ServerConfig
from ..model.session import Connection
from .languages import lang_commands, language_reply, languages, spoken
from .names import SERVER_NAME

if TYPE_CHECKING:
    from .connections import Connections
    from .held_seats import HeldSeats
    from .lobby import Lobby
    from .outages import PausedTables
    from .outbox import Outbox
    from .recovery import Recovery

log = logging.getLogger("noddy.server")

Handler = Callable[[Connection, dict[str, Any], Any], None]


class Reception:
    """Lines and requests in, handlers called; see the module docstring."""

    def __init__(self, config: ServerConfig, clock: Callable[[], float], outbox: Outbox,
                 connections: Connections, lobby: Lobby, held: HeldSeats, recovery: Recovery,
                 paused: PausedTables, handlers: dict[str, Handler],
                 heard: Callable[[Connection], None] | None = None,
                 registered_as: Callable[[str], tuple[int, str] | None] | None = None) -> None:
        handlers = {**handlers, "ping": self.ping, "pong": self.pong, "language": self.language}
        missing = sorted(REQUESTS.keys() - handlers.keys())
        unknown = sorted(handlers.keys() - REQUESTS.keys())
        if missing or unknown:
            raise TypeError(f"request types without a handler: {missing}; handlers without a "
                            f"request type: {unknown}")
        self._config = config
        self._clock = clock
        self._outbox = outbox
        self._connections = connections
        self._lobby = lobby
        self._held = held
        self._recovery = recovery
        self._paused = paused
        self._handlers = handlers
        self._heard = heard
        #: The registered name a name is (or looks the same as), for a refused name's hint.
        self._registered_as = registered_as
        self.origin: tuple[int, Any] | None = None

    def handled(self) -> dict[str, Handler]:
        """The handler of each request type (a copy)."""
        return dict(self._handlers)

    def connect(self, address: str | None) -> int:
        """A new connection from ``address`` (an IP; None: unknown, never limited)."""
        now = self._clock()
        conn, open_here = self._connections.open(address, now)
        if address is not None and self._connections.over_limit(open_here):
            log.warning("connection %d refused: %s already has %d connections open",
                        conn.id, address, open_here)
            self._connections.set_mode(conn, text=False)
            self._outbox.error(conn, ProtocolError(
                "too_many_connections",
                Phrase("your address already has {open} connections open (the limit); closing",
                       open=open_here)), None)
            self._outbox.close(conn, "too many connections")
            return conn.id
        self._connections.schedule(conn)
        log.info("connection %d opened", conn.id)
        self._outbox.send(conn.id, {
            "type": "greeting", "server": SERVER_NAME, "version": PROTOCOL_VERSION,
            "help": Phrase("Type help and press Enter to play by text; programs send a JSON hello "
                           "(see docs/PROTOCOL.md). {languages}", languages=lang_commands(DEFAULT_LANGUAGE)),
            "languages": languages(),
        })
        return conn.id

    def _admit(self, conn_id: int, text: bool, line: bytes | None,
               request: dict[str, Any] | ProtocolError | None = None) -> Connection | None:
        """A line came in on ``conn_id`` (``line``: a JSON line, whose id a refusal echoes;
        ``request``: a typed line as the text adapter read it): the connection is heard, its
        mode fixed by its first line, and its rate charged.  None if it is gone, or if the
        line is refused.  A ``bye`` is never refused for the rate: a client that says
        goodbye and closes must not leave its name and seat held (issue 25)."""
        self.origin = None
        conn = self._connections.get(conn_id)
        if conn is None or conn.closing:
            return None
        now = self._clock()
        connections = self._connections
        connections.heard(conn, now)
        if conn.text is None:
            connections.set_mode(conn, text)
        wait = conn.bucket.take(now)
        if wait > 0 and not _says_bye(line, request):
            request_id = None if conn.text or line is None else _quiet_id(line)
            if conn.bucket.strikes > self._config.flood_strikes:
                refusal = ProtocolError("flood", Phrase("too many requests; closing the connection"))
                self._outbox.error(conn, refusal, request_id)
                self._outbox.close(conn, "flood")
            else:
                self._outbox.error(conn, ProtocolError(
                    "rate_limited", Phrase("too many requests; wait {wait:.2f} s", wait=retry_after(wait)),
                    retry_after=retry_after(wait)), request_id)  # never too soon
            return None
        return conn

    def receive(self, conn_id: int, line: bytes) -> None:
        """One line of JSON (or, before the first line decided, of anything) from a connection."""
        stripped = line.strip()
        if not stripped:
            self.origin = None
            return
        conn = self._admit(conn_id, not stripped.startswith(b"{"), stripped)
        if conn is None:
            return
        try:
            message = decode_line(stripped)
        except ProtocolError as exc:
            self._outbox.error(conn, exc, None)
        else:
            # The line is valid UTF-8 (decode_line checked): without a \\u escape in it,
            # it cannot hold a lone surrogate (see validate_request).
            self.dispatch(conn, message, b"\\u" in stripped)

    def receive_request(self, conn_id: int, request: dict[str, Any] | ProtocolError | None,
                        finish: Callable[[dict[str, Any]], dict[str, Any]] | None = None) -> bool:
        """A line a person typed, read by the text adapter: the request it stands for, the
        error reading it gave, or None (a line that asks nothing of the core: ``help``).
        ``finish`` completes the request once its sender has a name (a guest's is given here
        first), or raises the ProtocolError that refuses it: the adapter's reading of what
        depends on the game (``discard 1 2``).  True if the line was admitted (not
        rate-limited, and the connection is open)."""
        conn = self._admit(conn_id, True, None, request)
        if conn is None:
            return False
        if isinstance(request, ProtocolError):
            self._outbox.error(conn, request, None)
            return True
        if request is None:
            return True
        try:
            if conn.session is None and request["type"] == "bye":
                # ``quit`` always works: before any name, after a refused one, or while a
                # password is checked; it makes no guest first (issue 33, items 1 and 10).
                self._outbox.send(conn.id, {"type": "bye", "reason": "goodbye"})
                self._outbox.close(conn, "bye")
                return True
            if conn.session is None and request["type"] not in ("hello", "language"):
                self._unnamed(conn)  # (``lang de`` comes first for many: no guest is made for it)
            if request["type"] == "hello" and conn.session is not None:
                self._lobby.hello_again(conn, request, self.dispatch)
            else:
                self.dispatch(conn, request if finish is None else finish(request))
                if request["type"] == "hello" and conn.session is None and not self._lobby.logging_in(conn):
                    conn.refused_name = request.get("name") if request.get("resume") is None else "(resume)"
        except ProtocolError as exc:
            self._outbox.error(conn, exc, None)
        return True

    def _unnamed(self, conn: Connection) -> None:
        """A person who has no name yet typed a command that needs one: they become a guest,
        unless the name they chose was refused or is being checked -- then they are told what
        to do, never quietly made ``guest-N`` (see PROTOCOL.md, "Text mode")."""
        if self._lobby.logging_in(conn):
            raise ProtocolError("name_required", Phrase("your password is being checked; wait for the welcome"))
        refused = conn.refused_name
        if refused == "(resume)":
            raise ProtocolError("name_required", Phrase("your resume token was refused, so you have no name "
                                                        "yet: type name NAME (or login NAME PASSWORD) first"))
        if refused is not None:
            # Login is suggested only with a registered name, spelt as registered: after
            # ``name c y`` it is ``login cy PASSWORD`` (issue 33, item 1).
            found = self._registered_as(refused) if self._registered_as is not None else None
            if found is None:
                raise ProtocolError("name_required", Phrase(
                    "the name {name!r} was refused, so you have no name yet: type name NAME with another "
                    "name first", name=refused))
            raise ProtocolError("name_required", Phrase(
                "the name {name!r} was refused, so you have no name yet: type name NAME with another "
                "name (or login {registered} PASSWORD if {registered} is your registered name) first",
                name=refused, registered=found[1]))
        self.dispatch(conn, {"type": "hello", "name": self._lobby.guest_name(), "version": PROTOCOL_VERSION})

    def dispatch(self, conn: Connection, message: dict[str, Any], escapes: bool = True) -> None:
        try:
            kind, fields, request_id = read_request(message, escapes)
        except ProtocolError as exc:
            request_id = request_id_of(message)
            self.origin = (conn.id, request_id)
            self._outbox.error(conn, exc, request_id)
            return
        self.origin = (conn.id, request_id)
        try:
            # The gates are each request's declaration's (noddy.protocol.request_table).
            if conn.session is None and kind not in BEFORE_HELLO:
                raise ProtocolError("hello_required", Phrase("say hello before {kind}", kind=kind))
            if self._paused and kind in CHANGES_TABLE:
                self._recovery.refuse_if_paused(conn, kind, fields)
            if self._heard is not None and conn.session is not None and kind not in NOT_HEARD:
                self._heard(conn)
            self._handlers[kind](conn, fields, request_id)
        except ProtocolError as exc:
            self._outbox.error(conn, exc, request_id)
        except NoddyError as exc:
            self._outbox.error(conn, engine_refusal(exc), request_id)

    def line_too_long(self, conn_id: int) -> None:
        conn = self._connections.get(conn_id)
        if conn is not None and not conn.closing:
            self._outbox.error(conn, ProtocolError(
                "line_too_long", Phrase("a line may hold at most {most} bytes; closing",
                                        most=self._config.max_line)), None)
            self._outbox.close(conn, "line too long")

    def disconnect(self, conn_id: int) -> None:
        """The connection is gone (closed by either side); hold its seat if it had one."""
        conn = self._connections.closed(conn_id)
        if conn is None:
            return
        log.info("connection %d closed", conn_id)
        session = conn.session
        if session is None or session.conn != conn_id:
            return
        self._held.connection_lost(session)

    def tick(self, now: float) -> None:
        """Look at each connection whose keepalive is due: ping it, or drop it if it has no
        name and said nothing for ``idle_timeout``."""
        for conn in self._connections.due(now):
            if conn.closing:
                continue
            self._keepalive(conn, now)
            if not conn.closing:
                self._connections.schedule(conn, now)

    def _keepalive(self, conn: Connection, now: float) -> None:
        """Drop a connection with no name that has said nothing for ``idle_timeout`` (a
        socket opened and never used, stopped in the middle of its first line, or a person
        whose name was refused and who typed nothing since); ping a silent JSON client once.

        Silence after the first line never closes a connection: a person at a table, in the
        lobby or watching may wait as long as they like, and a netcat user cannot answer a
        ping.  A peer that vanished is found by TCP keepalive (``keepalive_idle``), which
        the kernel runs on every accepted socket; its connection then ends as any other."""
        idle = now - conn.last_seen
        config = self._config
        if conn.session is None:
            # A hello waiting for its password check has spoken: never dropped as silent.
            if idle >= config.idle_timeout and not self._lobby.logging_in(conn):
                log.info("connection %d said nothing for %.0f s without a name; dropping it", conn.id, idle)
                # Until its first line its mode is not known: the goodbye goes as JSON, like
                # the greeting.  After lines (a refused name), it says so (issue 33, item 1).
                if conn.text is None:
                    reason = Phrase("nothing said for {wait:g} s after connecting; closing the connection",
                                    wait=config.idle_timeout)
                elif conn.text:
                    reason = Phrase("still no name {wait:g} s after your last line; closing the connection",
                                    wait=config.idle_timeout)
                else:
                    reason = Phrase("no hello {wait:g} s after the last line; closing the connection",
                                    wait=config.idle_timeout)
                self._outbox.send(conn.id, {"type": "bye", "reason": reason})
                self._outbox.close(conn, "idle")
        elif not conn.text and idle >= config.ping_interval and not conn.pinged:
            self._connections.pinged(conn)
            self._outbox.send(conn.id, {"type": "ping"})

    def ping(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        self._outbox.reply(conn, rid, {"type": "pong"})

    def pong(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        """An answer to the server's ping: receiving it already refreshed ``last_seen``."""

    def language(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        """This connection reads another language from now on (its reply is said in it)."""
        if f["language"] is not None:
            self._connections.set_language(conn, spoken(f["language"]))
        self._outbox.reply(conn, rid, language_reply(conn.language))


def engine_refusal(exc: NoddyError) -> ProtocolError:
    """The engine's refusal as the error its sender gets: the engine's own code (a code the
    protocol does not know is ``illegal_action``), its English message said again in each
    reader's language from the template and parameters the engine keeps apart."""
    code = exc.code if exc.code in ERROR_CODES else "illegal_action"
    return ProtocolError(code, engine_phrase(exc.template, exc.params))


def engine_phrase(template: str, params: dict[str, Any]) -> Phrase:
    """The engine's English ``template`` and ``params`` as a :class:`Phrase`; a parameter that
    is words itself (an :class:`EngineText`) becomes a Phrase in turn."""
    return Phrase(template, **{key: engine_phrase(value.template, value.params)
                               if isinstance(value, EngineText) else value
                               for key, value in params.items()})


def _says_bye(line: bytes | None, request: dict[str, Any] | ProtocolError | None) -> bool:
    """Whether a line over the rate limit is a ``bye`` (read only on that rare path)."""
    if isinstance(request, dict):
        return request.get("type") == "bye"
    if line is None or b"bye" not in line:
        return False
    try:
        message = decode_line(line)
    except ProtocolError:
        return False
    return message.get("type") == "bye"


def _quiet_id(line: bytes) -> Any:
    """The id of a request that is refused before it is read properly (rate limiting)."""
    try:
        return request_id_of(decode_line(line))
    except ProtocolError:
        return None
