"""Who has muted whom (FIBS ``gag``): a room of state that every part pushing one person's
words to another reads.

Owns: for each listener, the names they muted (by the name's skeleton, so a lookalike of a
muted name is muted too; see :func:`~noddy.protocol.names.skeleton`).  A listener is known
by their session's resume token: a mute lasts as long as the session (a resumed session keeps
it), and goes with it.  Chat (lobby, table, watchers'), tells, invitations and challenges
from a muted name are dropped silently: the sender is not told, as FIBS does, so muting
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
        #: Listener's resume token -> muted name's skeleton -> the name as they wrote it.
        self._by_listener: dict[str, dict[str, str]] = {}

    def hears(self, listener: Session, speaker: Session | str) -> bool:
        """Whether ``listener`` lets ``speaker``'s (a session's or a name's) words reach them."""
        muted = self._by_listener.get(listener.token)
        if not muted:
            return True
        name = speaker if isinstance(speaker, str) else speaker.name
        return skeleton(name) not in muted

    def mute(self, listener: Session, name: str) -> bool:
        """Mute ``name`` for ``listener``; False if they muted as many as allowed already."""
        muted = self._by_listener.setdefault(listener.token, {})
        if skeleton(name) not in muted and len(muted) >= MAX_MUTED:
            return False
        muted[skeleton(name)] = name
        return True

    def unmute(self, listener: Session, name: str) -> bool:
        """Hear ``name`` again; False if it was not muted."""
        muted = self._by_listener.get(listener.token, {})
        return muted.pop(skeleton(name), None) is not None

    def muted(self, listener: Session) -> list[str]:
        """The names ``listener`` muted, in the order they muted them."""
        return list(self._by_listener.get(listener.token, {}).values())

    def forget(self, listener: Session) -> None:
        """``listener``'s session is over: their mutes go with it."""
        self._by_listener.pop(listener.token, None)
