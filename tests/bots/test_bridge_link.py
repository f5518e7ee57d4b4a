"""The bridge's connection (noddy.bots.bridge_link.Link): a connection that drops while the
bridge is sending -- an action written into a socket the network has just reset -- is taken
up again like one that drops while reading, instead of ending the bridge with a traceback.

Seen from outside: under load, tests/examples/test_engines.py's dropped-connection test now
and then ended with the bridge's ``BrokenPipeError`` / ``ConnectionResetError``, when the drop
came as it answered a turn."""

from __future__ import annotations

import json
import select
import socket
import struct
import threading
from typing import Any

from noddy.bots.bridge_link import Link


class ScriptedServer:
    """Greets each connection and welcomes its hello; keeps every hello it read.  The first
    connection it can reset (close with RST), as a network failing does."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.hellos: list[dict[str, Any]] = []
        self.connections: list[socket.socket] = []
        self.welcomed = threading.Semaphore(0)
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        for number in (1, 2):
            conn, _ = self.listener.accept()
            self.connections.append(conn)
            conn.sendall(b'{"type":"greeting","server":"scripted","version":1}\n')
            hello = json.loads(conn.makefile("rb").readline())
            self.hellos.append(hello)
            conn.sendall(json.dumps({"type": "welcome", "id": hello["id"], "name": hello["name"],
                                     "token": f"token-{number}"}).encode() + b"\n")
            self.welcomed.release()

    def reset_first(self) -> None:
        first = self.connections[0]
        first.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        first.close()

    def close(self) -> None:
        for conn in self.connections:
            conn.close()
        self.listener.close()


def test_a_connection_reset_while_sending_is_taken_up_again_with_the_resume_token() -> None:
    server = ScriptedServer()
    try:
        link = Link("127.0.0.1", server.port, "dropped")
        assert server.welcomed.acquire(timeout=5)
        server.reset_first()
        # The reset has reached the bridge's socket when it reads as ready (an error pending).
        assert select.select([link.sock], [], [], 5)[0]
        sent = link.send({"type": "action", "action": "go"})  # into the reset connection
        assert sent == 2  # the hello was 1: the action had its id, though it could not go out
        assert next(link.messages()) == {"type": "resumed"}
        assert server.welcomed.acquire(timeout=5)
        assert [hello.get("resume") for hello in server.hellos] == [None, "token-1"]
        assert link.token == "token-2"
    finally:
        server.close()
