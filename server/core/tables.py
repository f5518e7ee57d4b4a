"""The open tables: every table by id, the next id, and how a change to one is announced.

Owns: the open :class:`~noddy.server.model.table.Table` objects by id, the next table id,
and the ids of the tables created from each address (the open ones count against
``max_tables_per_address``).  Only this class opens or removes a table; what happens *at* a
table belongs to the part of the core that handles it (seating, gameplay, recovery), and each
of them announces a change through :meth:`changed`: the summary to the table's members at
once, the lobby's next push, and the table stored again when the call ends.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Iterator

from noddy.protocol import ProtocolError
from noddy.protocol.i18n import Phrase

from ..model.table import Table

if TYPE_CHECKING:
    from .lobby_board import LobbyBoard
    from .outbox import Outbox


class Tables(Mapping[int, Table]):
    """The open tables by id (read as a mapping; changed only through the methods below);
    see the module docstring."""

    def __init__(self, outbox: Outbox, board: LobbyBoard) -> None:
        self._outbox = outbox
        self._board = board
        self._open: dict[int, Table] = {}
        #: A table by id, or None: the dict's own lookup, bound (the hot paths ask it).
        self.get = self._open.get  # type: ignore[method-assign]
        self._next = 1
        self._by_address: dict[str, set[int]] = {}

    def __len__(self) -> int:
        return len(self._open)

    def __contains__(self, table_id: object) -> bool:
        return table_id in self._open

    def __iter__(self) -> Iterator[int]:
        return iter(self._open)

    def __getitem__(self, table_id: int) -> Table:
        return self._open[table_id]

    def ids(self) -> set[int]:
        return set(self._open)

    def sorted(self) -> list[Table]:
        return [table for _, table in sorted(self._open.items())]

    def by_id(self) -> dict[int, Table]:
        """The open tables by id (a copy: for the lobby's news)."""
        return dict(self._open)

    def find(self, table_id: int) -> Table:
        table = self._open.get(table_id)
        if table is None:
            raise ProtocolError("no_such_table", Phrase("there is no table {table}", table=table_id), field="table")
        return table

    def next_id(self) -> int:
        """The id the next new table gets (taken by :meth:`opened`)."""
        return self._next

    def at_least(self, next_id: int) -> None:
        """Ids below ``next_id`` were used before (a restore)."""
        self._next = max(self._next, next_id)

    def opened(self, table: Table, address: str | None = None) -> None:
        """A table is open (a new one from ``address``, or one restored or rebuilt)."""
        self._open[table.id] = table
        self._next = max(self._next, table.id + 1)
        if address is not None:
            self._by_address.setdefault(address, set()).add(table.id)

    def removed(self, table_id: int) -> None:
        self._open.pop(table_id, None)

    def open_from(self, address: str) -> set[int]:
        """The open tables created from ``address`` (closed ones are forgotten here)."""
        from_here = self._by_address.get(address, set()) & self._open.keys()
        self._by_address[address] = from_here
        return from_here

    def changed(self, table: Table, exclude: Any = None, summary: dict[str, Any] | None = None) -> None:
        """Push the table's summary to its members at once (not to ``exclude``: a request's
        own reply carries it), note it for the next lobby push, and have its state stored
        again at the end of this call.  ``summary``: the table's summary as it is now, if
        the caller has just made it (nobody changes a summary once made)."""
        outbox = self._outbox
        outbox.touched(table)
        outbox.to_table(table, {"type": "table", "table": table.summary() if summary is None else summary},
                        exclude)
        self._board.table_changed(table)
