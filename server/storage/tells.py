"""Tells waiting for an account's next login, and the account's mutes that keep some of them
out, as storage keeps them (issues 26 and 31).

A ``tell`` to a registered name whose owner is not connected is kept here until they log
in (FIBS keeps such messages the same way).  Two storage *queries* of the core
(:class:`~noddy.server.core.Query` kinds in :data:`TELL_QUERIES`), run where storage work
runs:

* ``leave_tell`` -- keep one from the account ``sender`` (``sender_key``: its name's
  skeleton), unless the person muted that name (answers ``{"muted": True}``: nothing kept)
  or that sender has ``per_sender`` tells waiting for them already (``{"full": True}``);
  when the person has ``limit`` tells waiting in all, one of them gives way (see
  :func:`_make_room`), so a newcomer always finds room and the whole stays bounded.
  Answers ``{"kept": True}``;
* ``take_tells`` -- the account's waiting tells, oldest first, deleted as they are handed
  over, and the names it muted, in the order muted: ``{"tells": [{"from": name, "text":
  text, "sent_at": seconds since the epoch}, ...], "muted": [name, ...]}``;
* ``keep_mute`` / ``drop_mute`` -- the account muted the name ``name`` (its skeleton
  ``key``; at most ``limit`` kept) / heard it again; answers None.  The server keeps an account's mutes in memory
  too (:mod:`noddy.server.core.mutes`); these rows are what it knows of them after a
  restart, so that a muted stranger's tells are not stored while the person is away.

And :func:`forget_account`, what giving an account up (``unregister``) deletes of its tells.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Any, Callable

#: The query kinds answered here (see :meth:`StorageTells.tell_query`).
TELL_QUERIES = frozenset({"leave_tell", "take_tells", "keep_mute", "drop_mute"})


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
                if self.db.execute("SELECT 1 FROM mutes WHERE account = ? AND key = ?",
                                   (account, args["sender_key"])).fetchone() is not None:
                    return {"muted": True}
                mine = self.db.execute("SELECT COUNT(*) FROM tells WHERE account = ? AND sender_account IS ?",
                                       (account, args["sender"])).fetchone()[0]
                if mine >= args["per_sender"]:
                    return {"full": True}
                _make_room(self.db, account, args["limit"] - 1)
                self.db.execute("INSERT INTO tells (account, sender, text, sent_at, sender_account) "
                                "VALUES (?, ?, ?, ?, ?)",
                                (account, args["from"], args["text"], args["sent_at"], args["sender"]))
                return {"kept": True}
            return self._transaction(keep)
        if kind == "take_tells":
            def take() -> dict[str, Any]:
                rows = self.db.execute("SELECT id, sender, text, sent_at FROM tells WHERE account = ? "
                                       "ORDER BY id", (account,)).fetchall()
                if rows:
                    self.db.execute("DELETE FROM tells WHERE account = ? AND id <= ?", (account, rows[-1][0]))
                muted = self.db.execute("SELECT name FROM mutes WHERE account = ? ORDER BY id", (account,))
                return {"tells": [{"from": row[1], "text": row[2], "sent_at": row[3]} for row in rows],
                        "muted": [row[0] for row in muted.fetchall()]}
            return self._transaction(take)
        if kind == "keep_mute":
            def mute() -> None:
                muted = self.db.execute("SELECT COUNT(*) FROM mutes WHERE account = ?", (account,)).fetchone()[0]
                if muted < args["limit"]:  # (memory holds as many: a muted name beyond is not kept)
                    self.db.execute("INSERT INTO mutes (account, key, name) VALUES (?, ?, ?) "
                                    "ON CONFLICT (account, key) DO UPDATE SET name = excluded.name",
                                    (account, args["key"], args["name"]))
                else:
                    self.db.execute("UPDATE mutes SET name = ? WHERE account = ? AND key = ?",
                                    (args["name"], account, args["key"]))
            self._transaction(mute)
            return None
        if kind == "drop_mute":
            self._transaction(lambda: self.db.execute(
                "DELETE FROM mutes WHERE account = ? AND key = ?", (account, args["key"])))
            return None
        raise ValueError(f"unknown tells query {kind!r}")


def _make_room(db: sqlite3.Connection, account: int, keep: int) -> None:
    """Leave at most ``keep`` tells waiting for ``account``: while there are more, the oldest
    tell of the sender with the most waiting gives way (of several such senders, the one
    whose oldest tell is the oldest).

    Why this rule: a person's inbox must always have room for whoever they have not muted,
    and yet stay bounded.  Refusing the newcomer (as a full inbox did) lets a few strangers
    shut out a friend; dropping the oldest tell of all lets a flood push out a friend's one
    tell.  Taking from the sender with the most waiting costs the flooders first: one who
    sent a single tell loses it only once every sender is down to one tell each."""
    while True:
        count = db.execute("SELECT COUNT(*) FROM tells WHERE account = ?", (account,)).fetchone()[0]
        if count <= keep:
            return
        oldest = db.execute(
            "SELECT min(id) FROM tells WHERE account = ? GROUP BY sender_account "
            "ORDER BY count(*) DESC, min(id) LIMIT 1", (account,)).fetchone()[0]
        db.execute("DELETE FROM tells WHERE id = ?", (oldest,))


def forget_account(db: sqlite3.Connection, account: int) -> None:
    """An account is given up (``unregister``; called inside its transaction): the tells
    waiting for it, which nobody can log in to read any more, the tells it left for others,
    which would reach them under a name that may soon be someone else's (issue 31), and its
    mutes."""
    db.execute("DELETE FROM tells WHERE account = ? OR sender_account = ?", (account, account))
    db.execute("DELETE FROM mutes WHERE account = ?", (account,))
