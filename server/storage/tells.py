"""Tells waiting for an account's next login, as storage keeps them (issue 26).

A ``tell`` to a registered name whose owner is not connected is kept here until they log
in (FIBS keeps such messages the same way).  Two storage *queries* of the core
(:class:`~noddy.server.core.Query` kinds in :data:`TELL_QUERIES`), run where storage work
runs:

* ``leave_tell`` -- keep one, unless the account has ``limit`` waiting already: answers
  ``{"kept": True}`` or ``{"full": True}`` (the bound per recipient, so nobody can fill the
  disk with tells to an absent player);
* ``take_tells`` -- the account's waiting tells, oldest first, deleted as they are handed
  over: ``[{"from": name, "text": text, "sent_at": seconds since the epoch}, ...]``.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Any, Callable

#: The query kinds answered here (see :meth:`StorageTells.tell_query`).
TELL_QUERIES = frozenset({"leave_tell", "take_tells"})


class StorageTells:
    """The waiting tells' half of :class:`~noddy.server.storage.Storage`, on its one connection."""

    db: sqlite3.Connection

    if TYPE_CHECKING:
        def _transaction(self, body: Callable[[], Any]) -> Any: ...

    def tell_query(self, kind: str, args: dict[str, Any]) -> Any:
        """Answer one tells query (see the module docstring)."""
        account = args["account"]
        if kind == "leave_tell":
            def keep() -> dict[str, Any]:
                waiting = self.db.execute("SELECT COUNT(*) FROM tells WHERE account = ?", (account,)).fetchone()[0]
                if waiting >= args["limit"]:
                    return {"full": True}
                self.db.execute("INSERT INTO tells (account, sender, text, sent_at) VALUES (?, ?, ?, ?)",
                                (account, args["from"], args["text"], args["sent_at"]))
                return {"kept": True}
            return self._transaction(keep)
        if kind == "take_tells":
            def take() -> list[dict[str, Any]]:
                rows = self.db.execute("SELECT id, sender, text, sent_at FROM tells WHERE account = ? "
                                       "ORDER BY id", (account,)).fetchall()
                if rows:
                    self.db.execute("DELETE FROM tells WHERE account = ? AND id <= ?", (account, rows[-1][0]))
                return [{"from": row[1], "text": row[2], "sent_at": row[3]} for row in rows]
            return self._transaction(take)
        raise ValueError(f"unknown tells query {kind!r}")
