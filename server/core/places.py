"""Where a request's sender is: their session, their table, their seat -- or the error that
says they are not there.  Shared by every part that handles requests made at a table."""

from __future__ import annotations

from noddy.protocol import ProtocolError
from noddy.protocol.i18n import Phrase

from ..model.session import Connection
from ..model.table import Session, Table


def session_of(conn: Connection) -> Session:
    """The session of a connection that has said hello (the dispatcher made sure)."""
    assert conn.session is not None
    return conn.session


def my_table(session: Session) -> Table:
    """The table ``session`` is at, or ``not_at_table``."""
    if session.table is None:
        raise ProtocolError("not_at_table", Phrase("you are not at a table"))
    return session.table


def my_seat(session: Session) -> tuple[Table, int]:
    """The table and seat ``session`` sits in, or ``not_at_table`` / ``not_seated``."""
    table = my_table(session)
    if session.seat is None:
        raise ProtocolError("not_seated", Phrase("you are watching table {table}, not seated at it",
                                                 table=table.id))
    return table, session.seat
