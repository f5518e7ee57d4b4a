"""External bots in matches: programs that play over the server protocol.

A player named ``cmd:COMMAND`` on the ``noddy-match`` command line is a program (in any
language) that speaks docs/PROTOCOL.md.  Each game of such a match is played on a real
server:

1. a fresh ``noddy-server`` subprocess on 127.0.0.1, port 0, with ``--seed`` set to the
   game's seed (both games of a pair share it, so they are dealt the same cards) and
   ``--db :memory:`` (nothing is written to disk);
2. the runner connects as a spectator, creates the table (``"seat": null``) and fills the
   seats of built-in levels with ``add_computer``;
3. it starts each external bot's command with where to sit, and the bots sit, say
   ``ready`` and play;
4. it watches until ``game_over``, fetches the game's full record with ``list_games`` and
   ``get_game``, waits for the bots to exit, and stops the server.

**How a bot is told where to sit.**  The command is split like a shell would
(:func:`shlex.split`).  If it contains any of the placeholders ``{host}``, ``{port}``,
``{address}`` (``host:port``), ``{table}``, ``{seat}`` or ``{name}``, they are filled in;
otherwise ``HOST:PORT --table T --seat S --name NAME`` is appended -- what the example bots
in ``examples/bots/`` take.  The bot must sit in that seat under that name (names are
unique on a server), say ``ready``, play the game to its end and exit.

Reproducibility: the server's ``--seed`` fixes the deals and its computer players, so a
match of deterministic bots plays the same games again; a bot's own randomness is its own
business, and with several external bots at one Cribbage table the order in which their
simultaneous discards arrive may differ between runs (the games do not).  Every record
replays exactly through the engine either way.
Thinking times are not measured for external bots (the network is in the way).
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
#: the server package).
SERVER_COMMAND = [sys.executable, "-m", "noddy.server.cli"]


class ExternalBotError(RuntimeError):
    """A game with an external bot could not be played to its end."""


def is_external(spec: str) -> bool:
    """True for a ``cmd:COMMAND`` player."""
    return spec.startswith(PREFIX)


def parse_command(spec: str) -> list[str]:
    """``cmd:python bot.py --fast`` -> ``["python", "bot.py", "--fast"]`` (ValueError if empty)."""
    try:
        argv = shlex.split(spec[len(PREFIX):])
    except ValueError as error:
        raise ValueError(f"cannot read the command of {spec!r}: {error}") from None
    if not argv:
        raise ValueError(f"{spec!r} names no command; write cmd:PROGRAM [ARGS...]")
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
    """A ``noddy-server`` subprocess on 127.0.0.1 and a free port, for one game."""

    def __init__(self, seed: int, startup_timeout: float = 15.0) -> None:
        self.log = tempfile.TemporaryFile("w+", encoding="utf-8")
        self.process = subprocess.Popen(
            [*SERVER_COMMAND, "--host", "127.0.0.1", "--port", "0", "--seed", str(seed),
             "--db", ":memory:", "--rate", "100000", "--burst", "100000",
             "--log-level", "WARNING"],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=self.log, text=True)
        assert self.process.stdout is not None
        lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=lambda: lines.put(self.process.stdout.readline()),  # type: ignore[union-attr]
                         daemon=True).start()
        try:
            line = lines.get(timeout=startup_timeout)
        except queue.Empty:
            line = ""
        if not line.startswith("noddy-server listening on "):
            self.stop()
            raise ExternalBotError(f"the server did not start: {line.strip()!r} "
                                   f"{tail(self.log)}")
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


class Watcher:
    """The runner's own connection: a spectator that creates the table and reads the game."""

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
        """The next message, or None if none came within a short wait; pings answered."""
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

    def request(self, message: dict[str, Any], timeout: float = 10.0) -> dict[str, Any]:
        """Send a request, return its reply (pushes before it are dropped)."""
        self.next_id += 1
        self.sock.sendall(encode_line({**message, "id": self.next_id}))
        deadline = time.monotonic() + timeout
        while True:
            reply = self.read(deadline)
            if reply is not None and reply.get("id") == self.next_id:
                if reply["type"] == "error":
                    raise ExternalBotError(f"{message['type']} refused: {reply['code']}: "
                                           f"{reply['message']}")
                return reply


def play_on_server(preset: str, players: int, partnerships: bool, options: dict[str, Any],
                   seed: int, seats: Sequence[str], timeout: float = 300.0) -> dict[str, Any]:
    """Play one game with ``seats[i]`` (a level or a ``cmd:`` spec) in seat i; see the module
    doc.  Return the server's full record of it (``get_game``), result included."""
    server = LocalServer(seed)
    bots: list[tuple[str, subprocess.Popen[Any], IO[str]]] = []
    watcher: Watcher | None = None
    try:
        watcher = Watcher(server.host, server.port)
        table = watcher.request({"type": "create_table", "preset": preset, "players": players,
                                 "partnerships": partnerships, "options": options,
                                 "seat": None})["table"]["id"]
        for seat, spec in enumerate(seats):
            if not is_external(spec):
                watcher.request({"type": "add_computer", "seat": seat, "level": spec})
        for seat, spec in enumerate(seats):
            if is_external(spec):
                command = bot_command(parse_command(spec), server.host, server.port, table,
                                      seat, f"bot-seat-{seat}")
                log = tempfile.TemporaryFile("w+", encoding="utf-8")
                try:
                    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log,
                                               stderr=subprocess.STDOUT, text=True)
                except OSError as error:
                    log.close()
                    raise ExternalBotError(f"cannot start the bot {shlex.join(command)}: "
                                           f"{error}") from None
                bots.append((shlex.join(command), process, log))
        summary = _watch(watcher, table, bots, time.monotonic() + timeout)
        # The game's id: from the finished games of someone who sat in it.
        player = next(s["name"] for s in summary["seats"] if s and s["kind"] == "human")
        found = watcher.request({"type": "list_games", "name": player, "limit": 100})["games"]
        game_id = next((g["id"] for g in found if g["table"] == table), None)
        if game_id is None:
            raise ExternalBotError(f"the server has no record of the game at table {table}")
        record = watcher.request({"type": "get_game", "game": game_id})["record"]
        watcher.request({"type": "bye"})
        for command, process, log in bots:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                print(f"noddy-match: warning: the bot did not exit after the game: {command}",
                      file=sys.stderr)
            else:
                if process.returncode != 0:
                    print(f"noddy-match: warning: the bot exited with status "
                          f"{process.returncode} after the game: {command} {tail(log)}",
                          file=sys.stderr)
        return record
    finally:
        if watcher is not None:
            watcher.close()
        for _, process, log in bots:
            stop_process(process)
            log.close()
        server.stop()


def _watch(watcher: Watcher, table: int, bots: list[tuple[str, subprocess.Popen[Any], IO[str]]],
           deadline: float) -> dict[str, Any]:
    """Read the table's messages until ``game_over``; fail early if a bot dies first.
    Return the table's latest summary."""
    summary: dict[str, Any] = {}
    while True:
        try:
            message = watcher.read(deadline)
        except ExternalBotError as error:
            raise ExternalBotError(f"{error} (the game did not end: did every bot sit in "
                                   f"its seat and say ready?)") from None
        if message is None:
            for command, process, log in bots:
                if process.poll() is not None:
                    raise ExternalBotError(f"the bot exited with status {process.returncode} "
                                           f"before the game ended: {command} {tail(log)}")
            continue
        if message["type"] == "table" and message["table"]["id"] == table:
            summary = message["table"]
        elif message["type"] == "event" and message["event"]["kind"] == "game_over":
            return summary


def actions_of(record: dict[str, Any]) -> list[list[Any]]:
    """A server record's steps as the match record's ``[seat, "play 5H"]`` pairs."""
    actions = []
    for step in record["steps"]:
        action = step["action"]
        words = [action["action"]]
        if action["action"] == "play":
            words.append(action["card"])
        elif action["action"] == "discard":
            words.extend(action["cards"])
        actions.append([action["seat"], " ".join(words)])
    return actions

