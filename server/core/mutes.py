"""Who has muted whom (FIBS ``gag``): a room of state that every part pushing one person's
words to another reads.

Owns: for each listener, the names they muted (by the name's skeleton, so a lookalike of a
muted name is muted too; see :func:`~noddy.protocol.names.skeleton`).  A guest is known by
their session's resume token: their mutes last as long as the session (a resumed session
keeps them).  A registered person is known by their account: their mutes are kept across
logins, and stored (:mod:`noddy.server.storage.tells` keeps them, :mod:`.talk` asks it to
as they change, and hands them back here at each login: :meth:`Mutes.remember`), so a tell
from a name they muted is never stored for their login, even after a restart.  Chat
(lobby, table, watchers'), tells, invitations and challenges from a muted name are dropped
silently: the sender is not told, as FIBS does, so muting
someone gives them nothing to push against.  ``mute``, ``unmute`` and ``muted`` are handled
by :mod:`.talk`; only this class changes the sets.
"""

from __future__ import annotations

from noddy.protocol.names import skeleton

from ..model.table import Session

#: The most names one person may mute (a bound on what a session holds).
MAX_MUTED = 100


class Mutes:
    """The muted names of each listener; see the module docstring."""

    def __init__(self) -> None:
        #: Listener (see :func:`_listener`) -> muted name's skeleton -> the name as they wrote it.
        self._by_listener: dict[str | int, dict[str, str]] = {}

    def hears(self, listener: Session | int, speaker: Session | str) -> bool:
        """Whether ``listener`` (a session, or an account's id) lets ``speaker``'s (a
        session's or a name's) words reach them."""
        muted = self._by_listener.get(_listener(listener))
        if not muted:
            return True
        name = speaker if isinstance(speaker, str) else speaker.name
        return skeleton(name) not in muted

    def mute(self, listener: Session, name: str) -> bool:
        """Mute ``name`` for ``listener``; False if they muted as many as allowed already."""
        muted = self._by_listener.setdefault(_listener(listener), {})
        if skeleton(name) not in muted and len(muted) >= MAX_MUTED:
            return False
        muted[skeleton(name)] = name
        return True

    def unmute(self, listener: Session, name: str) -> bool:
        """Hear ``name`` again; False if it was not muted."""
        muted = self._by_listener.get(_listener(listener), {})
        return muted.pop(skeleton(name), None) is not None

    def muted(self, listener: Session) -> list[str]:
        """The names ``listener`` muted, in the order they muted them."""
        return list(self._by_listener.get(_listener(listener), {}).values())

    def remember(self, account: int, names: list[str]) -> None:
        """The names ``account`` muted as storage kept them (at its login): added to those
        known here (after a restart, none are), up to :data:`MAX_MUTED`."""
        muted = self._by_listener.setdefault(account, {})
        for name in names:
            if skeleton(name) not in muted and len(muted) < MAX_MUTED:
                muted[skeleton(name)] = name

    def forget(self, listener: Session) -> None:
        """``listener``'s session is over: a guest's mutes go with it (an account keeps its)."""
        if listener.account is None:
            self._by_listener.pop(listener.token, None)


def _listener(listener: Session | int) -> str | int:
    """Whom mutes are kept for: an account (its id), or a guest's session (its token)."""
    if isinstance(listener, int):
        return listener
    return listener.token if listener.account is None else listener.account
