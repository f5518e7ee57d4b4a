"""The sessions: everyone who has said hello, by resume token, and the names in use.

Owns: the sessions by token, and the index of sessions by the skeleton of their name (so a
lookalike name is refused: see :func:`~noddy.protocol.names.skeleton`).  A session is added
when someone says hello (or a stored seat is restored) and forgotten when its person goes
for good; only this class does either.  Other parts ask :meth:`is_current` whether a session
they hold is still someone's (a forgotten one is not).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Iterator

from noddy.protocol.names import skeleton

from ..model.table import Session


class Sessions(Mapping[str, Session]):
    """Sessions by token (read as a mapping) and names in use; see the module docstring."""

    def __init__(self) -> None:
        self._by_token: dict[str, Session] = {}
        #: A session by token, or None: the dict's own lookup, bound.
        self.get = self._by_token.get  # type: ignore[method-assign]
        #: Sessions by the skeleton of their name (see :meth:`name_in_use`).
        self._names: dict[str, list[Session]] = {}

    def __len__(self) -> int:
        return len(self._by_token)

    def __contains__(self, token: object) -> bool:
        return token in self._by_token

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_token)

    def __getitem__(self, token: str) -> Session:
        return self._by_token[token]

    def all(self) -> list[Session]:
        return list(self._by_token.values())

    def is_current(self, session: Session) -> bool:
        """Whether ``session`` is still someone's (not forgotten, nor replaced)."""
        return self._by_token.get(session.token) is session

    def add(self, session: Session) -> None:
        old = self._by_token.get(session.token)
        self._by_token[session.token] = session
        if old is not None and old is not session:  # replaced: its name goes with it
            self._tidy(skeleton(old.name))
        self._names.setdefault(skeleton(session.name), []).append(session)

    def forget(self, session: Session) -> None:
        """``session``'s person has gone for good (or is choosing another name).  Its name
        goes too: the names were only tidied when the same name was asked about again, so
        every guest who ever came (a new name each, mostly) stayed here with their session,
        and with it what it held (issue 37)."""
        gone = self._by_token.pop(session.token, None)
        self._tidy(skeleton(session.name))
        if gone is not None and gone is not session:
            self._tidy(skeleton(gone.name))

    def _tidy(self, wanted: str) -> None:
        """Leave only current sessions under the name skeleton ``wanted`` (none: no entry)."""
        same = self._names.get(wanted)
        if same is None:
            return
        same[:] = [s for s in same if self._by_token.get(s.token) is s]
        if not same:
            del self._names[wanted]

    def holder(self, name: str) -> Session | None:
        """The session, connected or holding a seat (or one a computer stands in for, or the
        table waits for), that goes by ``name`` or a name that looks the same (see
        :meth:`name_in_use`), or None."""
        if not self.name_in_use(name):
            return None
        return next(s for s in self._names[skeleton(name)]
                    if s.conn is not None or s.held_until is not None or s.table is not None)

    def name_in_use(self, name: str) -> bool:
        """Whether a connected person, or one whose seat is held (or stood in for, or waited
        for: still at a table), goes by ``name`` or by a name
        that looks the same (any case, width or accents, Cyrillic or Greek lookalikes: the
        names' :func:`~noddy.protocol.names.skeleton` is the same)."""
        wanted = skeleton(name)
        self._tidy(wanted)  # forget sessions gone
        same = self._names.get(wanted)
        if not same:
            return False
        return any(s.conn is not None or s.held_until is not None or s.table is not None for s in same)
