"""The bridge's connection to the server: requests by id, pushes kept in order, pings
answered, and a dropped connection taken up again (:mod:`noddy.bots.bridge`).

**Theory of operation.**  :meth:`Link.messages` yields every message the server sends, in
order -- first any that arrived while :meth:`Link.request` was waiting for its own reply, so
no event is lost between a ``ready`` and the game it starts.  When the connection drops,
:meth:`Link.messages` reconnects (:data:`RECONNECT_TRIES` times, :data:`RECONNECT_DELAY`
apart) and says ``hello`` with the resume token -- or, once the token is no longer good, the
name's password -- and yields ``{"type": "resumed"}``; the server's ``snapshot`` of the table
follows, from which the game goes on.
"""

from __future__ import annotations

import collections
import logging
import socket
import time
from typing import Any, Iterator

from noddy.protocol import PROTOCOL_VERSION, decode_line, encode_line

log = logging.getLogger(__name__)

#: The server pings a silent connection every 30 s and drops it after 90: two minutes with
#: no line at all means the connection is gone.
READ_TIMEOUT = 120.0
#: Tries to take up a dropped connection, and the seconds between them: the server holds a
#: seat 60 s by default (its grace period), so ten tries three seconds apart span it.
RECONNECT_TRIES = 10
RECONNECT_DELAY = 3.0


class Refused(RuntimeError):
    """The server answered a request with an error (other than ``rate_limited``)."""

    def __init__(self, request: str, reply: dict[str, Any]) -> None:
        super().__init__(f"{request} refused: {reply['code']}: {reply['message']}")
        self.code = reply["code"]


class Link:
    """One session with the server, kept across dropped connections."""

    def __init__(self, host: str, port: int, name: str, password: str | None = None) -> None:
        self.host, self.port, self.name, self.password = host, port, name, password
        self.token: str | None = None
        self.table: int | None = None  # the table we sit at
        self.closed = False            # our table has closed (its table_closed came)
        self.next_id = 0
        self.backlog: collections.deque[dict[str, Any]] = collections.deque()
        self._connect(resume=False)

    def _connect(self, resume: bool) -> None:
        self.sock = socket.create_connection((self.host, self.port), timeout=READ_TIMEOUT)
        self.reader = self.sock.makefile("rb")
        self._read()  # the greeting
        hello: dict[str, Any] = {"type": "hello", "name": self.name, "version": PROTOCOL_VERSION,
                                 "bot": True}
        if resume and self.token:
            hello["resume"] = self.token
        elif self.password:
            hello["password"] = self.password
        try:
            welcome = self._request_here(hello)
        except Refused as error:
            if not (resume and error.code == "bad_token" and self.password):
                raise
            hello.pop("resume")  # the seat's grace is over: log in by the password instead
            welcome = self._request_here({**hello, "password": self.password})
        self.token, self.name = welcome["token"], welcome["name"]

    def _read(self) -> dict[str, Any]:
        line = self.reader.readline()
        if not line:
            raise ConnectionError("the server closed the connection")
        return decode_line(line)

    def send(self, message: dict[str, Any]) -> int:
        """Send ``message`` with a new ``id``; that id.

        A connection that fails as we write is not an error here: the next read finds it
        closed too, and :meth:`messages` takes it up again, where the server's snapshot says
        whether the message arrived (a bridge answering a turn as the network drops must not
        die of it)."""
        self.next_id += 1
        self._write(encode_line({**message, "id": self.next_id}))
        return self.next_id

    def _write(self, data: bytes) -> None:
        try:
            self.sock.sendall(data)
        except OSError as error:
            log.info("writing failed (%s): the next read takes the connection up again", error)

    def _request_here(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send and read until the reply on this connection (pushes go to the backlog)."""
        while True:
            rid = self.send(message)
            while True:
                reply = self._read()
                if reply.get("id") == rid:
                    break
                if reply["type"] == "ping":
                    self._write(b'{"type":"pong"}\n')
                elif reply["type"] == "table_closed" and reply["table"] == self.table:
                    self.closed = True
                    self.backlog.append(reply)
                else:
                    self.backlog.append(reply)
            if reply["type"] != "error":
                return reply
            if reply["code"] != "rate_limited":
                raise Refused(message["type"], reply)
            time.sleep(reply["retry_after"])  # nothing happened: try again

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send a request and return its reply; raise :class:`Refused` on an error."""
        return self._request_here(message)

    def register(self) -> None:
        """Register the name with the password, unless it is registered already."""
        try:
            self.request({"type": "register", "password": self.password})
        except Refused as error:
            if error.code != "already_registered":
                raise

    def wait(self, seconds: float) -> None:
        time.sleep(seconds)

    def messages(self) -> Iterator[dict[str, Any]]:
        """Every message, in order; a dropped connection is taken up again on the way."""
        while True:
            while self.backlog:
                yield self.backlog.popleft()
            try:
                message = self._read()
            except (OSError, ConnectionError, ValueError) as error:
                self._reconnect(error)
                yield {"type": "resumed"}
                continue
            if message["type"] == "ping":
                self._write(b'{"type":"pong"}\n')
                continue
            yield message

    def _reconnect(self, error: Exception) -> None:
        log.warning("connection lost (%s): taking it up again", error)
        self.sock.close()
        for attempt in range(RECONNECT_TRIES):
            try:
                self._connect(resume=True)
                return
            except (OSError, ConnectionError) as again:
                log.warning("reconnecting failed (%s); try %d of %d", again, attempt + 1,
                            RECONNECT_TRIES)
                time.sleep(RECONNECT_DELAY)
        raise ConnectionError(f"the connection was lost and could not be taken up again: {error}")

    def say_bye(self) -> None:
        """Say goodbye and read until the answer (or the close): the name is free then."""
        try:
            rid = self.send({"type": "bye"})
            while self._read().get("id") != rid:
                pass
        except (OSError, ConnectionError, ValueError):
            pass
        self.sock.close()

