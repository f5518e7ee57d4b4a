"""What storage trouble leaves behind: paused tables, and tables that could not be restored.

Owns: the *paused* tables (their records could not be written: each with when next to ask
storage about it, whether a ``repair_table`` query is out for it now, and whether it has
been rolled back to what is stored) and the ``table_closed`` message owed to each person
whose table could not be restored after a restart (told once, when they come back).
:mod:`~noddy.server.core.recovery` changes both; every other part only asks.
"""

from __future__ import annotations

from typing import Any, Iterator


class PausedTables:
    """Tables that take no action until storage takes their records again."""

    def __init__(self) -> None:
        #: Paused table id -> when next to look at it.
        self._due: dict[int, float] = {}
        self._repairing: set[int] = set()
        self._rolled_back: set[int] = set()

    def __bool__(self) -> bool:
        return bool(self._due)

    def __contains__(self, table_id: object) -> bool:
        return table_id in self._due

    def next_due(self) -> float | None:
        """When the first paused table with no query out is due a look, if any is (few are
        ever paused: a look over them all is cheap)."""
        return min((due for table_id, due in self._due.items() if table_id not in self._repairing), default=None)

    def due(self, now: float) -> Iterator[tuple[int, bool]]:
        """The paused tables due a look by ``now`` with no query out: ``(id, rolled back)``."""
        for table_id, due in self._due.items():
            if due <= now and table_id not in self._repairing:
                yield table_id, table_id in self._rolled_back

    def pause(self, table_id: int, now: float) -> bool:
        """Pause a table (True if it was not paused already)."""
        if table_id in self._due:
            return False
        self._due[table_id] = now
        self._rolled_back.discard(table_id)
        return True

    def asking(self, table_id: int) -> None:
        self._repairing.add(table_id)

    def answered(self, table_id: int) -> None:
        self._repairing.discard(table_id)

    def later(self, table_id: int, when: float, rolled_back: bool = False) -> None:
        self._due[table_id] = when
        if rolled_back:
            self._rolled_back.add(table_id)

    def resume(self, table_id: int) -> None:
        self._due.pop(table_id, None)
        self._rolled_back.discard(table_id)


class LostTables:
    """``table_closed`` for whoever comes back to a table that could not be restored."""

    def __init__(self) -> None:
        self._by_token: dict[str, dict[str, Any]] = {}

    def add(self, token: str, message: dict[str, Any]) -> None:
        self._by_token[token] = message

    def take(self, token: str) -> dict[str, Any] | None:
        return self._by_token.pop(token, None)
