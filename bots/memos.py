"""The memos the computer players keep across decisions and tables, bounded in total.

A search meets the same piles again and again, within a decision and across decisions and
tables, so the bots remember what a pile pegs (:mod:`noddy.bots.pegging`) and which replies
peg on it (:mod:`noddy.bots.opponent_model`).  Both are kept in a :class:`MemoFamily`:

- one memo per set of *scoring parameters* (what a pile pegs depends on nothing else), not
  per :class:`~noddy.engine.Rules`: a table's target or counting by hand changes nothing a
  memo holds, so every table of a preset shares one memo whatever its target.  Keyed by the
  whole Rules, anyone creating tables with targets 15 to 500 made a new memo of up to
  200,000 entries (~27 MB) per target, never freed (issue 27, item 15);
- the entries of all of a family's memos together stay under the family's ``total``: when a
  memo reaches ``each`` it is emptied (as before), and when the family passes ``total`` its
  largest memos are emptied until it is under again.  A memo object is never replaced, only
  emptied, so whoever holds one (a :class:`~noddy.bots.pegging.PlayRules`, a search) keeps
  the one the family counts.

The count of entries added is kept by :meth:`MemoFamily.put` and the total looked at every
``check_every`` of them (a few dict lengths), so a lookup that hits costs nothing extra and a
miss one call.  Computer players think in worker threads: a race can only miscount a few
additions, and every check counts the memos' real lengths again.
"""

from __future__ import annotations

from typing import Any, Hashable


class MemoFamily:
    """Memos of one kind, one per key (a set of scoring parameters), bounded in total."""

    __slots__ = ("name", "each", "total", "check_every", "_memos", "_unchecked")

    def __init__(self, name: str, each: int, total: int, check_every: int = 1024) -> None:
        if not 0 < each <= total:
            raise ValueError(f"a memo's bound ({each}) must be positive and within the total ({total})")
        self.name = name
        self.each = each
        self.total = total
        self.check_every = check_every
        self._memos: dict[Hashable, dict[Any, Any]] = {}
        self._unchecked = 0

    def memo(self, key: Hashable) -> dict[Any, Any]:
        """The memo of ``key``: the same dict for equal keys, for the life of the process.
        Read it directly; add to it only through :meth:`put`."""
        memo = self._memos.get(key)
        if memo is None:
            memo = self._memos.setdefault(key, {})
        return memo

    def put(self, memo: dict[Any, Any], key: Any, value: Any) -> None:
        """Remember ``value`` for ``key`` in ``memo`` (one of this family's), within the bounds."""
        if len(memo) >= self.each:
            memo.clear()
        memo[key] = value
        self._unchecked += 1
        if self._unchecked >= self.check_every:
            self.bound()

    def entries(self) -> int:
        """How many entries the family's memos hold together."""
        return sum(len(memo) for memo in list(self._memos.values()))

    def bound(self) -> None:
        """Empty the largest memos until the family holds at most ``total - check_every``
        entries (so at most ``total`` before the next check)."""
        self._unchecked = 0
        memos = list(self._memos.values())
        held = sum(map(len, memos))
        room = max(0, self.total - self.check_every)
        for memo in sorted(memos, key=len, reverse=True):
            if held <= room:
                break
            held -= len(memo)
            memo.clear()

    def clear(self) -> None:
        """Empty every memo of the family (nothing is lost but time)."""
        for memo in list(self._memos.values()):
            memo.clear()
        self._unchecked = 0
