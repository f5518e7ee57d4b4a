"""The lobby: who says hello under which name, what they are welcomed with, chat and bye.

Owns: ``sessions`` (players by resume token) and ``_names`` (sessions by the skeleton of
their name, so a lookalike name is refused), ``_chat_buckets`` (chat per address), and the
requests ``hello`` (a new name, or a resume token taking back a held session), ``list_tables``,
``chat`` and ``bye``, with text mode's ``name``/``resume`` once a name is given.

Touches: a session's ``conn`` when it is resumed (and then :meth:`CoreState._in_lobby`),
``_lost_tables`` of :mod:`~noddy.server.core.recovery` (told once to whoever resumes), a table's
spectators when a watcher changes name, and :mod:`~noddy.server.core.seating`'s ``_leave`` on
bye.  The lobby index itself lives in :mod:`~noddy.server.core.core_state`.
"""

from __future__ import annotations

import logging
import math
from typing import Any

from noddy.bots import LEVELS
from noddy.engine import PRESETS
from noddy.protocol import PROTOCOL_VERSION, SUPPORTED_VERSIONS, ProtocolError
from noddy.protocol.names import normal_name, skeleton
from noddy.protocol.text import clean_text

from .core_state import SERVER_NAME, CoreState
from ..model.ratings import FAMILIES, Rated
from .seating import COMPUTER_SKELETONS
from ..model.session import Connection
from ..model.table import Session

log = logging.getLogger("noddy.server")


class Lobby(CoreState):
    """Hello, names, the welcome, chat and bye; see the module docstring."""

    def _add_session(self, session: Session) -> None:
        """A new session: in ``sessions`` and in the indexes of names and of the lobby."""
        self.sessions[session.token] = session
        self._names.setdefault(skeleton(session.name), []).append(session)
        self._in_lobby(session)

    def _welcome(self, session: Session, resumed: bool) -> dict[str, Any]:
        config = self.config
        return {
            "type": "welcome", "version": PROTOCOL_VERSION, "server": SERVER_NAME,
            "name": session.name, "token": session.token, "resumed": resumed,
            "table": None if session.table is None else session.table.id, "seat": session.seat,
            "presets": [rules.describe() for rules in PRESETS.values()],
            "levels": list(LEVELS), "default_level": config.computer_level,
            "ratings": {family: round(self.ratings.rating(family, Rated("human", session.name)))
                        for family in FAMILIES},
            "limits": {"max_line": config.max_line, "grace_period": config.grace_period,
                       "ping_interval": config.ping_interval, "idle_timeout": config.idle_timeout,
                       "rate": config.rate, "burst": config.burst},
        }

    def _on_hello(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        if conn.session is not None:
            raise ProtocolError("already_hello", "this connection has already said hello")
        if f["version"] not in SUPPORTED_VERSIONS:
            raise ProtocolError("unsupported_version",
                                f"protocol version {f['version']} is not spoken here",
                                field="version", supported=list(SUPPORTED_VERSIONS))
        if f["resume"] is not None:
            session = self.sessions.get(f["resume"])
            if session is None:
                raise ProtocolError("bad_token", "no seat is held for that resume token", field="resume")
            old = self.connections.get(session.conn) if session.conn is not None else None
            if old is not None:
                self._send(old.id, {"type": "bye", "reason": "resumed on another connection"})
                old.session = None
                self._close(old, "replaced")
            session.conn = conn.id
            self._in_lobby(session)
            session.held_until = None
            conn.session = session
            self._schedule_conn(conn)  # now it may be pinged
            log.info("connection %d resumed %r", conn.id, session)
            self._reply(conn, rid, self._welcome(session, resumed=True))
            lost = self._lost_tables.pop(session.token, None)
            if lost is not None:  # its table could not be restored (see _table_lost)
                self._send(conn.id, lost)
            table = session.table
            if table is not None:
                if session.seat is not None:
                    self._to_table(table, {"type": "player_back", "table": table.id,
                                           "seat": session.seat, "name": session.name}, exclude=session)
                    self._table_changed(table, exclude=session)
                self._send(conn.id, table.snapshot(session.seat, self.clock()))
            return
        name = normal_name(f["name"])  # printable, NFKC: the form everyone is shown
        if skeleton(name) in COMPUTER_SKELETONS:
            raise ProtocolError("name_taken", f"the name {name!r} is (or looks like) a computer "
                                "player's; choose another", field="name")
        if self._name_in_use(name):
            raise ProtocolError("name_taken", f"the name {name!r} (or one that looks the same) is in "
                                "use by someone connected (or holding a seat); choose another",
                                field="name")
        session = Session(name, f["bot"], conn.id)
        self._add_session(session)
        conn.session = session
        self._schedule_conn(conn)  # now it may be pinged
        log.info("connection %d is %s%s", conn.id, session.name, " (bot)" if session.bot else "")
        self._reply(conn, rid, self._welcome(session, resumed=False))

    def _name_in_use(self, name: str) -> bool:
        """Whether a connected person, or one whose seat is held, goes by ``name`` or by a name
        that looks the same (any case, width or accents, Cyrillic or Greek lookalikes: the
        names' :func:`~noddy.protocol.names.skeleton` is the same)."""
        wanted = skeleton(name)
        same = self._names.get(wanted)
        if not same:
            return False
        same[:] = [s for s in same if self.sessions.get(s.token) is s]  # forget sessions gone
        if not same:
            del self._names[wanted]
        return any(s.conn is not None or s.held_until is not None for s in same)

    def _hello_again_in_text(self, conn: Connection, request: dict[str, Any]) -> None:
        """``name NAME`` or ``resume TOKEN`` from a text connection that already has a name
        (a guest's, given on its first command, or one chosen before): until they sit down a
        person may choose another name, or take back a held seat.  Either goes through the
        very hello a JSON client sends, so it meets the same rules; the session is a new one
        (a new resume token, or the resumed one).  A watcher keeps watching under a new name;
        one who resumes a session leaves the table they were watching."""
        old = conn.session
        assert old is not None
        table = old.table
        resuming = request.get("resume") is not None
        if old.seat is not None and table is not None:
            raise ProtocolError("already_hello", f"you sit at table {table.id} as {old.name}; "
                                + ("stand up or leave first" if resuming
                                   else "stand up or leave to change your name"), field="name")
        conn.session = None
        self.sessions.pop(old.token, None)  # frees the old name for the check
        self._dispatch(conn, request)
        if conn.session is None:  # refused: the old name stays
            self._add_session(old)
            conn.session = old
            return
        new = conn.session
        log.info("connection %d: %s is now %s", conn.id, old.name, new.name)
        if table is not None and resuming:
            self._remove_spectator(table, old)
        elif table is not None:
            table.spectators[table.spectators.index(old)] = new
            new.table = table
            if table.creator is old:
                table.creator = new
            old.table = None
            self._in_lobby(old)
            self._table_changed(table)

    def _on_list_tables(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        tables = [table.summary() for _, table in sorted(self.tables.items())]
        self._reply(conn, rid, {"type": "tables", "tables": tables})

    def _on_chat(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        """Chat, cleaned of terminal controls once here so JSON and text readers get the same
        text, and limited per address as well as per connection (see PROTOCOL.md, Chat)."""
        session = self._session(conn)
        to = f["to"] or ("table" if session.table is not None else "lobby")
        table = self._my_table(session) if to == "table" else None
        if conn.address is not None:
            wait = self._chat_buckets.take(conn.address, self.clock())
            if wait > 0:
                raise ProtocolError("rate_limited", f"too much chat from your address; wait {wait:.2f} s",
                                    retry_after=math.ceil(wait * 100) / 100)
        message = {"type": "chat", "to": to, "table": None if table is None else table.id,
                   "from": session.name, "seat": session.seat if table is not None else None,
                   "text": clean_text(f["text"])}
        self._reply(conn, rid, {"type": "ok"})
        if table is not None:
            self._to_table(table, message)
        else:
            self._to_lobby(message, exclude=session)
            self._send(conn.id, message)

    def _on_bye(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        session = self._session(conn)
        session.conn, conn.session = None, None
        self.sessions.pop(session.token, None)
        if session.table is not None:
            self._leave(session.table, session)
        self._reply(conn, rid, {"type": "bye", "reason": "goodbye"})
        self._close(conn, "bye")
