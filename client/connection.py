"""The client's side of a TCP connection: JSON lines in and out, kept alive and re-made.

:class:`Connection` owns the socket and nothing else.  ``run()`` connects, reads lines and
hands each decoded message to ``on_message``; when the connection drops it tells
``on_state`` and tries again with a growing pause (0.2 s up to 5 s), for as long as the
client runs (:meth:`Connection.retry_now` cuts a pause short).  Why a server cannot be
reached is said in words (:func:`why_unreachable`), never as a Python exception.  What to say on a new connection (the ``hello`` with the resume token) is the
view model's business, so the player's seat comes back without the player doing anything.

It answers the server's ``ping`` itself, and pings a silent server so that a dead one is
noticed: after ``silence`` seconds without a line it sends a ping, and after a second such
period it gives the connection up and reconnects.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import ssl
from collections.abc import Callable
from typing import Any

from noddy.protocol import ProtocolError, decode_line, encode_line
from noddy.protocol.i18n import _

#: The longest line the client reads.  The server's 8192-byte limit is on what it is sent;
#: what it sends is not limited, and a game record (``get_game``) of a long Cribbage game
#: is one line of tens of kilobytes, so this is generous: a line longer than it ends the
#: connection (and the client reconnects).
READ_LIMIT = 16 * 1024 * 1024

#: Pauses between reconnection attempts, in seconds (the last is repeated).
BACKOFF: tuple[float, ...] = (0.2, 0.5, 1.0, 2.0, 3.0, 5.0)

UP = "up"
LOST = "lost"
FAILED = "failed"


def why_unreachable(exc: OSError) -> str:
    """Why a connection could not be made, in words a person can act on."""
    text = str(exc)
    if isinstance(exc, ssl.SSLCertVerificationError):
        return _("its TLS certificate is not trusted ({why}; give the certificate "
                 "or its CA with --tls-ca)").format(why=exc.verify_message)
    if isinstance(exc, ssl.SSLError):
        return _("the TLS handshake failed ({why}; is that the server's TLS port?)").format(why=exc.reason or text)
    if isinstance(exc, ConnectionRefusedError) or (exc.errno is None and "Connect call failed" in text):
        return _("nothing is listening there (connection refused)")
    if isinstance(exc, socket.gaierror):
        return _("no such host (the name does not resolve)")
    if isinstance(exc, TimeoutError):
        return _("no answer (timed out)")
    if exc.errno is not None:
        return os.strerror(exc.errno).lower()
    return text or exc.__class__.__name__


class Connection:
    """One logical connection to a server, re-made as often as needed; see the module doc."""

    def __init__(
        self,
        host: str,
        port: int,
        on_message: Callable[[dict[str, Any]], None],
        on_state: Callable[[str, str], None],
        *,
        silence: float = 45.0,
        backoff: tuple[float, ...] = BACKOFF,
        tls: ssl.SSLContext | None = None,
    ) -> None:
        self.host = host
        self.port = port
        #: Encrypt the connection with this context (a ``tls://`` address), or None.
        self.tls = tls
        self.on_message = on_message
        self.on_state = on_state
        self.silence = silence
        self.backoff = backoff
        self._writer: asyncio.StreamWriter | None = None
        self._stopped = asyncio.Event()
        self._retry = asyncio.Event()
        self.attempts = 0
        self.connections_made = 0

    @property
    def connected(self) -> bool:
        return self._writer is not None and not self._writer.is_closing()

    def send(self, message: dict[str, Any]) -> bool:
        """Write one message; False when there is no connection (the model resyncs later)."""
        if not self.connected:
            return False
        assert self._writer is not None
        try:
            self._writer.write(encode_line(message))
        except (ConnectionError, OSError, RuntimeError):
            return False
        return True

    def stop(self) -> None:
        """Stop reconnecting and close the socket; ``run()`` then returns."""
        self._stopped.set()
        if self._writer is not None:
            self._writer.close()

    def retry_now(self) -> None:
        """Cut the pause before the next attempt short (the player pressed r)."""
        self._retry.set()

    def drop(self) -> None:
        """Close the current socket (the run loop reconnects): for tests and a stuck server."""
        if self._writer is not None:
            self._writer.transport.abort()

    async def flush(self, timeout: float = 1.0) -> None:
        if self.connected:
            assert self._writer is not None
            with contextlib.suppress(Exception):
                async with asyncio.timeout(timeout):
                    await self._writer.drain()

    async def run(self) -> None:
        """Connect, read until the connection ends, and reconnect, until :meth:`stop`."""
        failures = 0
        while not self._stopped.is_set():
            self.attempts += 1
            try:
                reader, writer = await asyncio.open_connection(self.host, self.port,
                                                               limit=READ_LIMIT, ssl=self.tls)
            except OSError as exc:
                pause = self.backoff[min(failures, len(self.backoff) - 1)]
                failures += 1
                self.on_state(FAILED, _("cannot reach {address}: {why}; trying again in {pause:g} s").format(
                    address=f"{self.host}:{self.port}", why=why_unreachable(exc), pause=pause))
                await self._pause(pause, interruptible=True)
                continue
            failures = 0
            self._writer = writer
            self.connections_made += 1
            self.on_state(UP, "")
            reason = await self._read(reader)
            self._writer = None
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()
            if self._stopped.is_set():
                break
            self.on_state(LOST, reason)
            await self._pause(self.backoff[0])

    async def _pause(self, seconds: float, interruptible: bool = False) -> None:
        """Wait ``seconds``, less if the connection is stopped (or, ``interruptible``,
        :meth:`retry_now` is called)."""
        self._retry.clear()
        # asyncio.timeout, not wait_for: on Python 3.11 wait_for can swallow a cancellation
        # that arrives as the awaited thing completes, and the application could not exit.
        waits = [asyncio.ensure_future(self._stopped.wait())]
        if interruptible:
            waits.append(asyncio.ensure_future(self._retry.wait()))
        try:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(seconds):
                    await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for wait in waits:
                wait.cancel()

    async def _read(self, reader: asyncio.StreamReader) -> str:
        """Read lines until the connection ends; returns why it ended, in words."""
        quiet_periods = 0
        while not self._stopped.is_set():
            try:
                async with asyncio.timeout(self.silence):
                    line = await reader.readline()
            except TimeoutError:
                quiet_periods += 1
                if quiet_periods >= 2:
                    return _("the server stopped answering")
                self.send({"type": "ping"})
                continue
            except (ConnectionError, OSError) as exc:
                return _("the connection broke ({error})").format(error=exc.__class__.__name__)
            except ValueError:
                return _("the server sent a line that is too long")
            quiet_periods = 0
            if not line:
                return _("the server closed the connection")
            if not line.strip():
                continue
            try:
                message = decode_line(line)
            except ProtocolError:
                continue
            if message.get("type") == "ping":
                self.send({"type": "pong"})
                continue
            self.on_message(message)
        return "stopped"
