"""Ordering: each connection's messages in the order the core gave them, while others wait.

The network layer holds a core call's messages back until its storage records are written
(:mod:`noddy.server.net.network`, ``_pending``), and an account request's reply until the
hashing worker (:mod:`noddy.server.net.hashing`) has checked its password.  Neither may hold
up anyone else: a call that wrote nothing sends at once to every connection that has nothing
waiting (a ``pong`` never waits for another connection's read or write), and what a
connection is sent while its own password check runs is *parked* until that request's reply
has gone.  This module keeps the two counts that decide it: the instructions held per
connection, and the parked messages per connection.

:class:`Ordering` is a mixin of :class:`~noddy.server.net.network.NoddyServer`, as the other
parts of the network layer are: these methods sit on the path of every message between the
storage gating and the links.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core import Out, PasswordResult, PasswordWork, ServerCore
from .hashing import PasswordWorker

if TYPE_CHECKING:
    from ..core import Effects
    from ..text import TextAdapter


class Ordering:
    """The per-connection order of :class:`~noddy.server.net.network.NoddyServer`'s
    messages; see the module docstring."""

    core: ServerCore | None
    _text: "TextAdapter"

    if TYPE_CHECKING:
        def _carry_out(self, outs: list[Out]) -> None: ...
        def _apply(self, effects: "Effects", marked: bool = False, run_bots: bool = True) -> None: ...

    def _init_ordering(self) -> None:
        """The counts, empty, and the hashing worker; called once by the server's constructor."""
        #: Instructions held in ``_pending`` per connection: a call that waits for no write
        #: sends at once to every connection with nothing held (see ``_overtake``).
        self._held: dict[int, int] = {}
        #: Account passwords are checked and hashed here, apart from storage and the loop.
        self._hasher = PasswordWorker()
        #: What the core sent a connection while its account request was with the hashing
        #: worker: written after that request's reply, in order (see ``_password_done``).
        self._parked: dict[int, list[Out]] = {}

    def _hold(self, outs: list[Out]) -> None:
        """``outs`` wait in ``_pending``: their connections have something held."""
        held = self._held
        for out in outs:
            held[out.conn] = held.get(out.conn, 0) + 1

    def _release(self, step: Any) -> None:
        """``step`` left ``_pending``: its connections hold that much less."""
        held = self._held
        conns = [out.conn for out in step.outs]
        if step.query is not None:
            conns.append(step.query.conn)
        for conn in conns:
            left = held.get(conn, 0) - 1
            if left > 0:
                held[conn] = left
            else:
                held.pop(conn, None)

    def _overtake(self, outs: list[Out]) -> list[Out]:
        """A call that wrote nothing, while other calls wait for storage: what it sends to a
        connection with nothing held goes out now (a ``pong`` never waits for another
        connection's write or read); what it sends to one with something held waits behind
        that, so each connection still gets its messages in the order the core gave them.
        Returns what must wait."""
        held = self._held
        later = [out for out in outs if out.conn in held]
        if len(later) < len(outs):
            self._carry_out([out for out in outs if out.conn not in held] if later else outs)
        return later

    def _password_done(self, work: PasswordWork, result: PasswordResult | None) -> None:
        """The hashing worker is done with ``work``: the core answers it.  What the core sent
        the connection meanwhile follows the answer (or the storage write the answer asks
        for), as it would have had the check been instant: a text-mode person who typed
        ``register PW`` and then ``stats`` reads the two replies in that order."""
        assert self.core is not None
        parked = self._parked.pop(work.conn, [])
        if self.core.closed:
            return
        effects = self.core.password_done(work, result)
        if self._text.people:
            self._text.outgoing(effects.out)
        effects.out += parked
        self._apply(effects, marked=True)
