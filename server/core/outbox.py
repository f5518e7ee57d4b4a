"""The outbox: what one call of the core has to say, gathered until the call returns.

Owns: the instructions of the call so far (``Send``, ``Close``, ``Query``; ``PasswordWork``
apart, as it waits for nothing), its storage
records, the tables it changed (stored again when the call ends) and the tables that may
owe a computer player's move (handed to :mod:`~noddy.server.core.gameplay` when the call
ends).  Every part of the core says what it has to say through these methods and nothing
else; :meth:`~noddy.server.core.facade.ServerCore` takes the lot once per entry point as
one :class:`~noddy.server.core.instructions.Effects`.

Reads (never changes) the open connections, to skip those that are gone or closing and to
mark what goes to a text-mode connection (which the network layer renders as lines) and in
which language its person reads it.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from noddy.protocol import ProtocolError

from ..storage.records import TableSaved
from .instructions import Close, Out, PasswordWork, Send, TurnTimer

if TYPE_CHECKING:
    from ..model.session import Connection
    from ..model.table import Session, Table
    from ..storage.records import Record
    from .connections import Connections

log = logging.getLogger("noddy.server")


class Outbox:
    """The instructions and records of the current call; see the module docstring."""

    def __init__(self, connections: Connections) -> None:
        self._connections = connections
        self._out: list[Out] = []
        #: Queue one instruction (the list's own append, bound: the hot path's cheapest call).
        self.put = self._out.append
        self._records: list[Record] = []
        #: Queue a storage record: written before anything of this call is sent (the list's
        #: own append, bound, as ``put``).
        self.record = self._records.append
        #: Tables whose stored state must be written again at the end of this call.
        self._dirty: dict[int, Table] = {}
        #: Tables to look at for computer players' moves (changed since last looked at).
        self._bot_check: set[int] = set()
        #: Account passwords to check or hash on the hashing worker (see PasswordWork).
        self._passwords: list[PasswordWork] = []

    # -- messages ---------------------------------------------------------------------------
    def text_of(self, conn_id: int | None) -> bool | None:
        """Whether a :class:`Send` to ``conn_id`` goes to a text-mode connection (the text
        adapter, at the edge, renders it with the seats' names), or None if the connection
        is not open.  A caller sending several messages to one connection asks once."""
        conn = self._connections.get(conn_id)
        if conn is None or conn.closing:
            return None
        return conn.text is True

    def send(self, conn_id: int | None, message: dict[str, Any], timer: TurnTimer | None = None) -> None:
        """Send ``message`` to ``conn_id`` if it is open (``timer``: see :class:`TurnTimer`)."""
        text = self.text_of(conn_id)
        if text is not None:
            assert conn_id is not None
            self._out.append(Send(conn_id, message, text, (), timer))

    def reply(self, conn: Connection, request_id: Any, message: dict[str, Any],
              timer: TurnTimer | None = None) -> None:
        if request_id is not None:
            message = {**message, "id": request_id}
        self.send(conn.id, message, timer)

    def error(self, conn: Connection, exc: ProtocolError, request_id: Any) -> None:
        log.debug("connection %d: %s: %s", conn.id, exc.code, exc.message)
        self.send(conn.id, exc.to_message(request_id))

    def close(self, conn: Connection, reason: str) -> None:
        self._connections.closing(conn)
        self._out.append(Close(conn.id, reason))

    def to_table(self, table: Table, message: dict[str, Any], exclude: Session | None = None) -> None:
        for session, _seat in table.members():
            if session is not exclude:
                self.send(session.conn, message)

    def query(self, query: Out) -> None:
        """A reply that needs stored data: the network layer reads it, then calls ``answer``."""
        self._out.append(query)

    def password(self, work: PasswordWork) -> None:
        """An account password to check or hash off the event loop, apart from storage."""
        self._passwords.append(work)

    def take_passwords(self) -> Sequence[PasswordWork]:
        """The password work of this call (usually none: an empty tuple, no new list)."""
        if not self._passwords:
            return ()
        work, self._passwords = self._passwords, []
        return work

    def _languages(self, out: list[Out]) -> None:
        """Mark each Send of ``out`` with its connection's language, the one place a Send is
        given it (:meth:`send`'s and those a part of the core put itself, a game's batches or
        the lobby's news, carry English until here).  Only called while some connection
        reads another language, so a server of English readers pays nothing for it."""
        get = self._connections.get
        for item in out:
            if item.__class__ is Send:
                conn = get(item.conn)  # type: ignore[union-attr]
                if conn is not None:
                    item.language = conn.language  # type: ignore[union-attr]

    # -- records and changed tables -----------------------------------------------------------
    def touched(self, table: Table) -> None:
        """``table`` changed: store it again at the end of the call, and look whether a
        computer player there owes a move."""
        self._dirty[table.id] = table
        self._bot_check.add(table.id)

    def saved_again(self, table: Table) -> None:
        """Store ``table`` again at the end of the call (its seats or game changed)."""
        self._dirty[table.id] = table

    def changed_ids(self) -> Iterable[int]:
        """The ids of the tables changed so far in this call (a view: read, never kept)."""
        return self._dirty.keys()

    def may_move(self, table_id: int) -> None:
        """A computer player at the table may owe the next move."""
        self._bot_check.add(table_id)

    def forget_changes(self) -> None:
        """Nothing changed that needs storing (a restore: storage has it all already)."""
        self._dirty.clear()

    def take_bot_check(self) -> set[int] | None:
        """The tables to look at for computer players' moves (None: none changed, the usual
        case after a request at a table of people, which then costs no new set)."""
        check = self._bot_check
        if not check:
            return None
        self._bot_check = set()
        return check

    def take(self, closed: bool, stored_state: Any) -> tuple[list[Out], list[Record]]:
        """The call's instructions and records, emptying the outbox.  ``stored_state(table)``
        gives what storage keeps of a changed table, or None not to store it (closed, or
        paused); once the core is ``closed`` (shut down) nothing more is stored."""
        if closed:
            self._records.clear()  # (the list ``record`` appends to stays the same)
        elif self._dirty:
            for table in self._dirty.values():
                state = stored_state(table)
                if state is not None:
                    self._records.append(TableSaved(table.id, state))
        self._dirty.clear()
        out, self._out = self._out, []
        if self._connections.not_english:
            self._languages(out)
        self.put = self._out.append
        records, self._records = self._records, []
        self.record = self._records.append
        return out, records
