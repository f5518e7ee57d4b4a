"""External bots in matches: how a ``cmd:`` bot is started, and the runner's own server.

A player named ``cmd:COMMAND`` on the ``noddy-match`` command line is a program (in any
language) that speaks docs/PROTOCOL.md; :mod:`noddy.bots.tables` plays its games at tables
of a server of the runner's own (:class:`LocalServer`), through the runner's connection
(:class:`Link`).

**How a bot is told where to sit.**  The command is split like a shell would
(:func:`shlex.split`).  If it contains any of the placeholders ``{host}``, ``{port}``,
``{address}`` (``host:port``), ``{table}``, ``{seat}`` or ``{name}``, they are filled in;
otherwise ``HOST:PORT --table T --seat S --name NAME`` is appended -- what the example bots
in ``examples/bots/`` take (:func:`bot_command`).

**The runner's server** is ``noddy-server`` in a child process of this interpreter, started
with ``-P`` so that no folder of the current directory can stand in for the installed
package, on 127.0.0.1 and a free port, keeping nothing (``--db :memory:``), and with the
limits a measurement must not meet lifted (:data:`SERVER_FLAGS`: no rate limit, no grace
period for a bot that went away, deals fixed by the runner).  If it does not start, the
error says why, with the end of its own output.
"""

from __future__ import annotations

import queue
import shlex
import socket
import subprocess
import sys
import tempfile
import threading
import time
from typing import IO, Any, Sequence

from noddy.protocol import PROTOCOL_VERSION, decode_line, encode_line

PREFIX = "cmd:"
PLACEHOLDERS = ("{host}", "{port}", "{address}", "{table}", "{seat}", "{name}")
#: How the runner starts a server: this interpreter, as a subprocess (``bots`` never imports
#: the server package), with ``-P``: the current directory is not put on the module path, so
#: a folder there named ``noddy`` (a checkout's parent) cannot shadow the installed package.
SERVER_COMMAND = [sys.executable, "-P", "-m", "noddy.server.cli"]
#: The runner's server's flags: a measurement must not meet the limits that protect a public
#: server (said in noddy-match's output).  ``--rate``/``--burst``: no flow control;
#: ``--grace 0``: a bot that went away (crashed) frees its seat and name at once, and its
#: table closes (``--keep-away 0``: even against a computer, with nobody else at the table);
#: ``--allow-deal-seeds``: the runner fixes every game's deal;
#: ``--computers-inline``: the built-in levels decide on the server's loop (no thread hop).
RATE_FLAGS = ["--rate", "100000", "--burst", "100000"]
SERVER_FLAGS = [*RATE_FLAGS, "--grace", "0", "--keep-away", "0", "--allow-deal-seeds", "--computers-inline",
                "--query-rate-per-address", "0",
                "--max-tables-per-connection", "0", "--max-tables-per-address", "0",
                "--db", ":memory:", "--log-level", "WARNING"]
#: What noddy-match and noddy-tournament print when a cmd: bot plays: a bot author reads
#: there why their bot met no ``rate_limited`` here, and what to lift on their own server.
RATE_NOTE = (f"cmd: bots play on the runner's own noddy-server, started with {' '.join(RATE_FLAGS)} "
             "(no rate limit: docs/PROTOCOL.md, Flow control)")


class ExternalBotError(RuntimeError):
    """A game with an external bot could not be played to its end."""


#: ``engine:COMMAND``: an engine (docs/PROTOCOL.md, "Engines (noddy-bot)") played through
#: the bridge, which is then the ``cmd:`` bot (:data:`BRIDGE_COMMAND` ``--engine COMMAND``).
ENGINE_PREFIX = "engine:"
#: The bridge, started as the example bots are: this interpreter, ``-P`` as for the server.
BRIDGE_COMMAND = [sys.executable, "-P", "-m", "noddy.bots.bridge"]


def is_external(spec: str) -> bool:
    """True for a ``cmd:COMMAND`` or ``engine:COMMAND`` player (both play over the protocol)."""
    return spec.startswith(PREFIX) or spec.startswith(ENGINE_PREFIX)


def program_argv(spec: str) -> list[str]:
    """The program a ``cmd:`` or ``engine:`` player names, split as a shell would
    (``engine:python e.py`` -> ``["python", "e.py"]``); ValueError if there is none."""
    prefix = ENGINE_PREFIX if spec.startswith(ENGINE_PREFIX) else PREFIX
    try:
        argv = shlex.split(spec[len(prefix):])
    except ValueError as error:
        raise ValueError(f"cannot read the command of {spec!r}: {error}") from None
    if not argv:
        raise ValueError(f"{spec!r} names no command; write {prefix}PROGRAM [ARGS...]")
    return argv


def parse_command(spec: str) -> list[str]:
    """The command that starts the bot: ``cmd:python bot.py --fast`` -> ``["python",
    "bot.py", "--fast"]``; ``engine:COMMAND`` -> the bridge with ``--engine COMMAND``."""
    argv = program_argv(spec)
    if spec.startswith(ENGINE_PREFIX):
        return [*BRIDGE_COMMAND, "--engine", shlex.join(argv)]
    return argv


def bot_command(argv: Sequence[str], host: str, port: int, table: int, seat: int,
                name: str) -> list[str]:
    """The command line that starts a bot for one seat (see the module doc)."""
    values = {"host": host, "port": port, "address": f"{host}:{port}", "table": table,
              "seat": seat, "name": name}
    if any(p in arg for arg in argv for p in PLACEHOLDERS):
        filled = []
        for arg in argv:
            for key, value in values.items():
                arg = arg.replace("{" + key + "}", str(value))
            filled.append(arg)
        return filled
    return [*argv, f"{host}:{port}", "--table", str(table), "--seat", str(seat), "--name", name]


class LocalServer:
    """A ``noddy-server`` child process on 127.0.0.1 and a free port (see the module doc)."""

    def __init__(self, seed: int, flags: Sequence[str] = SERVER_FLAGS,
                 startup_timeout: float = 30.0) -> None:
        self.log = tempfile.TemporaryFile("w+", encoding="utf-8")
        command = [*SERVER_COMMAND, "--host", "127.0.0.1", "--port", "0", "--seed", str(seed), *flags]
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                        stderr=self.log, text=True)
        stdout = self.process.stdout
        assert stdout is not None
        lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=lambda: lines.put(stdout.readline()), daemon=True).start()
        try:
            line = lines.get(timeout=startup_timeout)
        except queue.Empty:
            line = ""
        if not line.startswith("noddy-server listening on "):
            if line == "":  # its output ended: it is exiting, if not gone already
                try:
                    self.process.wait(5)
                except subprocess.TimeoutExpired:
                    pass
            if self.process.poll() is None:
                why = f"no word from it in {startup_timeout:g} s"
            else:
                why = f"it exited with status {self.process.wait()}"
            output = tail(self.log)
            self.stop()
            raise ExternalBotError(f"the match server did not start ({why}): "
                                   f"{shlex.join(command)} {output}")
        self.host, _, port = line.split()[-1].rpartition(":")
        self.port = int(port)

    def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL if it lingers)."""
        stop_process(self.process)
        self.log.close()


def stop_process(process: subprocess.Popen[Any], grace: float = 5.0) -> None:
    """Terminate ``process`` if it still runs, and reap it."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(grace)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    for stream in (process.stdout, process.stderr):
        if stream is not None:
            stream.close()


def tail(log: IO[str], limit: int = 2000) -> str:
    """The last ``limit`` characters of a log file, for an error message."""
    log.flush()
    log.seek(0)
    text = log.read()[-limit:].strip()
    return f"\n--- its output ---\n{text}" if text else "(no output)"


class Link:
    """The runner's own connection to its server: requests and their replies, and the
    messages pushed to it (pings are answered on the way)."""

    def __init__(self, host: str, port: int, name: str = "noddy-match") -> None:
        self.sock = socket.create_connection((host, port), timeout=10)
        self.sock.settimeout(0.2)  # short reads, so the bots can be checked in between
        self.buffer = b""
        self.next_id = 0
        self.read(deadline=time.monotonic() + 10)  # the greeting
        self.request({"type": "hello", "name": name, "version": PROTOCOL_VERSION, "bot": True})

    def close(self) -> None:
        self.sock.close()

    def read(self, deadline: float) -> dict[str, Any] | None:
        """The next message, or None if none came within a short wait (0.2 s); pings are
        answered.  Raises ExternalBotError after ``deadline`` or if the server hung up."""
        while b"\n" not in self.buffer:
            if time.monotonic() > deadline:
                raise ExternalBotError("timed out waiting for the server")
            try:
                data = self.sock.recv(65536)
            except socket.timeout:
                return None
            if not data:
                raise ExternalBotError("the server closed the connection")
            self.buffer += data
        line, _, self.buffer = self.buffer.partition(b"\n")
        message = decode_line(line)
        if message.get("type") == "ping":
            self.sock.sendall(encode_line({"type": "pong"}))
            return None
        return message

    def request(self, message: dict[str, Any], timeout: float = 10.0,
                pushed: list[dict[str, Any]] | None = None,
                allow: tuple[str, ...] = ()) -> dict[str, Any]:
        """Send a request, return its reply; the pushes before it are added to ``pushed``
        (or dropped).  An error reply raises ExternalBotError, unless its code is in
        ``allow`` (then it is returned)."""
        self.next_id += 1
        self.sock.sendall(encode_line({**message, "id": self.next_id}))
        deadline = time.monotonic() + timeout
        while True:
            reply = self.read(deadline)
            if reply is not None and reply.get("id") != self.next_id and pushed is not None:
                pushed.append(reply)
            elif reply is not None and reply.get("id") == self.next_id:
                if reply["type"] == "error" and reply["code"] not in allow:
                    raise ExternalBotError(f"{message['type']} refused: {reply['code']}: "
                                           f"{reply['message']}")
                return reply


def actions_of(actions: Sequence[dict[str, Any]]) -> list[list[Any]]:
    """The server's action dicts (a record's steps, a ``match_game``'s actions) as the match
    record's ``[seat, "play 5H"]`` pairs."""
    pairs = []
    for action in actions:
        words = [action["action"]]
        if action["action"] == "play":
            words.append(action["card"])
        elif action["action"] == "discard":
            words.extend(action["cards"])
        elif action["action"] in ("claim", "muggins"):
            words.append(str(action["points"]))
        pairs.append([action["seat"], " ".join(words)])
    return pairs
