"""Accounts as storage keeps them: registering a name, changing its password, giving the
account up, and the host's reset of a forgotten password.

Storage never hashes for the server: checking or hashing a password costs ~50 ms of scrypt,
and on the database thread it held every game's writes behind a guesser's checks.  The core
has the hashing worker do that (:class:`~noddy.server.core.PasswordWork`) and then asks for
the write with the hash already made: storage *queries* (:class:`~noddy.server.core.Query`
kinds in :data:`ACCOUNT_QUERIES`), each a quick statement or two.  The core keeps what it
needs to check a login (the names and their hashes, :attr:`StoredState.accounts`, read at
start), so a login touches no storage at all.

Each answer is a dict: ``{"account": id, "name": name}`` when the write was made,
``{"missing": True}`` when there is no such account (given up meanwhile), ``{"taken": True}``
when a name to register is registered already.
"""

from __future__ import annotations

import sqlite3
import time
from typing import TYPE_CHECKING, Any, Callable

from ..model.passwords import ACCOUNT_N, hash_password
from .tells import forget_account

#: The query kinds answered here (see :meth:`StorageAccounts.account`).
ACCOUNT_QUERIES = frozenset({"register", "change_password", "unregister"})


class StorageAccounts:
    """The accounts half of :class:`~noddy.server.storage.Storage`, on its one connection."""

    db: sqlite3.Connection
    keeps_stats: bool

    if TYPE_CHECKING:
        def _transaction(self, body: Callable[[], Any]) -> Any: ...

    def account(self, kind: str, args: dict[str, Any]) -> dict[str, Any]:
        """Answer one account query (see the module docstring); ``stored`` is the hash made."""
        if kind == "register":
            return self._register(args["key"], args["name"], args["stored"])
        row = self.db.execute("SELECT id, name FROM accounts WHERE id = ?", (args["account"],)).fetchone()
        if row is None:
            return {"missing": True}
        found = {"account": row["id"], "name": row["name"]}
        if kind == "change_password":
            self._transaction(lambda: self.db.execute(
                "UPDATE accounts SET password = ?, changed_at = ? WHERE id = ?",
                (args["stored"], time.time(), row["id"])))
        elif kind == "unregister":
            def give_up() -> None:
                self.db.execute("DELETE FROM accounts WHERE id = ?", (row["id"],))
                forget_account(self.db, row["id"])  # its tells (issue 31: see storage.tells)
                # The name's ratings were the account's: whoever registers it later starts afresh.
                self.db.execute("DELETE FROM ratings WHERE kind IN ('human', 'bot') AND name = ?", (row["name"],))
                if self.keeps_stats:  # and so was its rating history in the statistics
                    self.db.execute("UPDATE game_stats SET rating = NULL WHERE kind = 'human' AND name = ?",
                                    (row["name"],))
            self._transaction(give_up)
        else:
            raise ValueError(f"unknown account query {kind!r}")
        return found

    def _register(self, key: str, name: str, stored: str) -> dict[str, Any]:
        now = time.time()

        def insert() -> dict[str, Any]:
            if self.db.execute("SELECT 1 FROM accounts WHERE key = ?", (key,)).fetchone() is not None:
                return {"taken": True}
            cursor = self.db.execute(
                "INSERT INTO accounts (key, name, password, created_at, changed_at) VALUES (?, ?, ?, ?, ?)",
                (key, name, stored, now, now))
            return {"account": cursor.lastrowid, "name": name}
        result: dict[str, Any] = self._transaction(insert)
        return result

    def reset_password(self, key: str, password: str, cost: int = ACCOUNT_N) -> str | None:
        """The host's reset (``noddy-server reset-password``): the account's new password;
        returns the account's name, or None if no account has that name."""
        stored = hash_password(password, cost)
        row = self.db.execute("SELECT id, name FROM accounts WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        self._transaction(lambda: self.db.execute(
            "UPDATE accounts SET password = ?, changed_at = ? WHERE id = ?", (stored, time.time(), row["id"])))
        return str(row["name"])
