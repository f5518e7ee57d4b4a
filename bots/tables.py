"""``cmd:`` bots in a match: game after game at tables of the runner's own servers.

A match with a ``cmd:`` player is cut into *table plans*: the games of one seating (even
games, A first; odd games, B first: :func:`~noddy.bots.results.seat_labels`), at most
:data:`GAMES_PER_TABLE` of them, in order.  ``jobs`` workers (threads of this process) each
start one server (:class:`~noddy.bots.external.LocalServer`) and play plans from a shared
queue, one table at a time:

1. the runner creates the table with ``deal_seeds``, every game's seed from the match seed
   and the game's index (the server takes them as it was started with
   ``--allow-deal-seeds``), and puts a computer player of each built-in level in its seats;
2. it starts each ``cmd:`` seat's program once, with where to sit and the name to say
   (:func:`bot_names`), and waits until every such seat is taken -- the names the bots said
   ``hello`` with are the names the results carry -- then leaves the table;
3. the bots play game after game there: after each ``game_over`` they say ``ready`` again,
   and the server sends the runner a ``match_game`` (seed, seats, result, actions, each
   seat's thinking time as the server saw it); after the last game their ``ready`` closes
   the table and they exit (the convention of docs/PROTOCOL.md, "Bots and matches").

A bot that exits before the table's games are played is started again at a new table for
the games left.  If a game was being played -- or if it never finished one there -- that
game is forfeited, for the reason: ``crash`` (it exited with a failure status or a
signal), ``protocol error`` (it exited 0 without finishing, or never took its seat), or
``timeout`` (no game ended within ``timeout`` seconds: it is stopped).  The match goes on.
"""

from __future__ import annotations

import queue
import re
import shlex
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Callable, Sequence

from noddy.engine import Outcome

from . import external
from .results import GameResult, deal_seed, finished, forfeited, seat_labels

#: The most games one table plays (its ``deal_seeds`` must fit in one request line).
GAMES_PER_TABLE = 300
#: Seconds a bot may take to exit after its table has closed, before it is stopped.
EXIT_GRACE = 10.0


@dataclass
class TablePlan:
    """Games of one seating to play at one table, in order."""

    parity: int
    indices: list[int]


def table_plans(indices: Sequence[int], jobs: int) -> list[TablePlan]:
    """The match's games cut into plans: per seating, at least ``jobs`` of them (so every
    worker has one) and at most :data:`GAMES_PER_TABLE` games each; seatings alternate.

    >>> [(p.parity, p.indices) for p in table_plans(range(6), 4)]
    [(0, [0, 2]), (1, [1, 3]), (0, [4]), (1, [5])]
    """
    by_parity = [[i for i in indices if i % 2 == parity] for parity in (0, 1)]
    per_side = []
    for games in by_parity:
        parts = max(1, min(len(games), max(jobs // 2 + jobs % 2, -(-len(games) // GAMES_PER_TABLE))))
        size = -(-len(games) // parts) if games else 0
        per_side.append([games[i:i + size] for i in range(0, len(games), size)] if size else [])
    plans = []
    for k in range(max(map(len, per_side))):
        for parity in (0, 1):
            if k < len(per_side[parity]):
                plans.append(TablePlan(parity, per_side[parity][k]))
    return plans


def _base_name(spec: str) -> str:
    """A short name for a ``cmd:`` bot, from its program: its first argument that looks
    like a script's file name, else the command.

    >>> _base_name("cmd:python examples/bots/python/noddy_bot.py --games 1")
    'noddy_bot'
    >>> _base_name("cmd:sh -c 'echo x >> x.log; exec $0' node bot.js"), _base_name("cmd:./mybot")
    ('bot', 'mybot')
    """
    argv = external.program_argv(spec)
    scripts = [w for w in argv[1:] if Path(w).suffix and not w.startswith("-")
               and not any(c in w for c in "{ ;")]
    program = Path(scripts[0] if scripts else argv[0]).stem
    return re.sub(r"[^A-Za-z0-9_-]", "", program)[:20] or "bot"


def bot_names(specs: dict[str, str], labels: Sequence[str]) -> dict[int, str]:
    """The name each ``cmd:`` seat is asked to say ``hello`` with: its program's name, with
    ``-a``/``-b`` when both sides run the same program and the seat when a side holds two."""
    bases = {label: _base_name(spec) for label, spec in specs.items() if external.is_external(spec)}
    same = len(set(bases.values())) < len(bases)
    names = {}
    for seat, label in enumerate(labels):
        if label in bases:
            name = bases[label] + (f"-{label.lower()}" if same else "")
            if labels.count(label) > 1:
                name += f"-{seat}"
            names[seat] = name
    return names


@dataclass
class Bot:
    """One ``cmd:`` program in one seat, with its output kept for error messages."""

    seat: int
    label: str
    command: list[str]
    process: subprocess.Popen[Any]
    log: IO[str]

    def reason(self) -> str:
        """Why the exited program forfeits: a failure status is a crash, 0 a protocol error."""
        return "protocol error" if self.process.returncode == 0 else "crash"

    def describe(self) -> str:
        return (f"exited with status {self.process.returncode}: {shlex.join(self.command)} "
                f"{external.tail(self.log, 600)}")


@dataclass
class Attempt:
    """One table of a plan: what came of it."""

    results: list[GameResult] = field(default_factory=list)
    #: The forfeit that ended it early, if any, and how many games it had started.
    failure: GameResult | None = None
    games_played: int = 0


class Worker:
    """One server and the tables played there, one at a time (see the module doc)."""

    def __init__(self, specs: dict[str, str], preset: str, players: int, partnerships: bool,
                 options: dict[str, Any], seed: int, timeout: float,
                 report: Callable[[GameResult], None], warn: Callable[[str], None]) -> None:
        self.specs, self.preset, self.players = specs, preset, players
        self.partnerships, self.options, self.seed = partnerships, options, seed
        self.timeout, self.report, self.warn = timeout, report, warn
        self.server = external.LocalServer(seed)
        self.link = external.Link(self.server.host, self.server.port)

    def close(self) -> None:
        self.link.close()
        self.server.stop()

    def play(self, plan: TablePlan) -> None:
        """Every game of ``plan``: at one table, or at more if a bot has to be started again."""
        left = list(plan.indices)
        while left:
            attempt = self._table(plan.parity, left)  # its results reported as they came
            done = len(attempt.results)
            if attempt.failure is not None:
                self.report(attempt.failure)
                done += 1
            left = left[done:]

    def _table(self, parity: int, indices: list[int]) -> Attempt:
        labels = seat_labels(parity, self.players)
        seeds = [deal_seed(self.seed, index) for index in indices]
        pushed: list[dict[str, Any]] = []
        table = self.link.request({
            "type": "create_table", "preset": self.preset, "players": self.players,
            "partnerships": self.partnerships, "options": self.options, "seat": None,
            "deal_seeds": seeds}, pushed=pushed)["table"]["id"]
        names = bot_names(self.specs, labels)
        for seat, label in enumerate(labels):
            if seat not in names:
                self.link.request({"type": "add_computer", "seat": seat, "level": self.specs[label]},
                                  pushed=pushed)
        bots = [self._start(seat, labels[seat], table, name) for seat, name in names.items()]
        try:
            return self._run(table, labels, indices, seeds, bots, pushed)
        finally:
            self._finish(bots)

    def _start(self, seat: int, label: str, table: int, name: str) -> Bot:
        command = external.bot_command(external.parse_command(self.specs[label]),
                                       self.server.host, self.server.port, table, seat, name)
        log = tempfile.TemporaryFile("w+", encoding="utf-8")
        try:
            process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log,
                                       stderr=subprocess.STDOUT, text=True)
        except OSError as error:
            log.close()
            raise external.ExternalBotError(f"cannot start the bot {shlex.join(command)}: "
                                            f"{error}") from None
        return Bot(seat, label, command, process, log)

    def _run(self, table: int, labels: list[str], indices: list[int], seeds: list[int],
             bots: list[Bot], pushed: list[dict[str, Any]]) -> Attempt:
        attempt = Attempt()
        hello: dict[int, str] = {}
        seated = False
        culprit: Bot | None = None  # the bot that went first, when one did
        deadline = time.monotonic() + self.timeout
        while True:
            message = pushed.pop(0) if pushed else self.link.read(float("inf"))
            if message is None:
                gone = culprit or next((bot for bot in bots if bot.process.poll() is not None), None)
                if time.monotonic() > deadline and len(attempt.results) < len(indices):
                    for bot in bots:
                        external.stop_process(bot.process)
                    if not seated:  # the table closes when nobody is left at it
                        self._leave(pushed)
                    return self._failed(attempt, table, labels, indices, seeds, hello, bots[0],
                                        "timeout", f"no game ended within {self.timeout:g} s"
                                        if seated else f"did not take seat {bots[0].seat} "
                                        f"within {self.timeout:g} s", pushed=pushed)
                if gone is not None and seated and culprit is None:
                    # Its table closes when nobody is left at it: stop the other bots.
                    culprit = gone
                    for bot in bots:
                        external.stop_process(bot.process)
                elif gone is not None and not seated:
                    # It cannot sit any more: the table is ours to close (we are still at it).
                    self._leave(pushed)
                    return self._failed(attempt, table, labels, indices, seeds, hello, gone,
                                        gone.reason(), "before taking its seat, " + gone.describe(),
                                        pushed=pushed)
                continue
            kind = message.get("type")
            if kind == "table" and message["table"]["id"] == table and not seated:
                seats = message["table"]["seats"]
                if all(seats[bot.seat] is not None and seats[bot.seat]["kind"] == "human"
                       for bot in bots):
                    hello = {bot.seat: seats[bot.seat]["name"] for bot in bots}
                    seated = True
                    self._leave(pushed)
            elif kind == "match_game" and message["table"] == table:
                number = message["game"]
                self._finished(attempt, self._result(message, labels, indices[number - 1], hello))
                deadline = time.monotonic() + self.timeout
            elif kind == "table_closed" and message["table"] == table:
                attempt.games_played = message.get("games_played", len(attempt.results))
                if len(attempt.results) == len(indices):
                    return attempt
                gone = culprit or next((bot for bot in bots if bot.process.poll() is not None), bots[0])
                if gone.process.poll() is None:  # closed, though the bot is still there
                    external.stop_process(gone.process)
                return self._failed(attempt, table, labels, indices, seeds, hello, gone,
                                    gone.reason(), gone.describe(), closed=True)

    def _leave(self, pushed: list[dict[str, Any]]) -> None:
        """Leave the table we watch (a table whose games all went by before we could has
        closed already: ``not_at_table`` is as good)."""
        self.link.request({"type": "leave"}, pushed=pushed, allow=("not_at_table",))

    def _finished(self, attempt: Attempt, result: GameResult) -> None:
        attempt.results.append(result)
        self.report(result)

    def _result(self, message: dict[str, Any], labels: list[str], index: int,
                hello: dict[int, str]) -> GameResult:
        think: dict[str, list[float]] = {"A": [], "B": []}
        for seat, times in enumerate(message["think"]):
            think[labels[seat]].extend(times)
        specs = [self.specs[label] for label in labels]
        record = {"preset": self.preset, "players": self.players,
                  "partnerships": self.partnerships, "options": self.options,
                  "seed": message["seed"], "seats": specs,
                  "actions": external.actions_of(message["actions"])}
        seats = [hello.get(seat, spec) for seat, spec in enumerate(specs)]
        return finished(index, record, labels, seats, self.partnerships,
                        Outcome.from_dict(message["result"]), think)

    def _failed(self, attempt: Attempt, table: int, labels: list[str], indices: list[int],
                seeds: list[int], hello: dict[int, str], bot: Bot, reason: str,
                detail: str, closed: bool = False,
                pushed: list[dict[str, Any]] | None = None) -> Attempt:
        """The table ended early because of ``bot``: wait until it is closed, then forfeit
        the game being played (or, if none was, the next: the bot is not up to it)."""
        closing = time.monotonic() + 10.0
        while not closed and time.monotonic() < closing:
            try:
                message = pushed.pop(0) if pushed else self.link.read(closing)
            except external.ExternalBotError:
                break
            if message is None:
                continue
            if message.get("type") == "match_game" and message["table"] == table:
                number = message["game"]
                self._finished(attempt, self._result(message, labels, indices[number - 1], hello))
            elif message.get("type") == "table_closed" and message["table"] == table:
                attempt.games_played = message.get("games_played", 0)
                break
        done = len(attempt.results)
        if done == len(indices):
            return attempt
        in_play = attempt.games_played > done
        if in_play or done == 0 or reason == "timeout":
            index = indices[done]
            seats = [hello.get(seat, self.specs[label]) for seat, label in enumerate(labels)]
            self.warn(f"game {index + 1}: {bot.label} forfeits ({reason}): {detail}")
            attempt.failure = forfeited(index, seeds[done], labels, seats, bot.label, reason, detail)
        return attempt

    def _finish(self, bots: list[Bot]) -> None:
        """Let the bots exit by themselves (their table is closed), else stop them."""
        until = time.monotonic() + EXIT_GRACE
        for bot in bots:
            try:
                bot.process.wait(max(0.0, until - time.monotonic()))
            except subprocess.TimeoutExpired:
                self.warn(f"the bot did not exit when its table closed: {shlex.join(bot.command)}")
            external.stop_process(bot.process)
            bot.log.close()


def play_on_servers(a: str, b: str, preset: str, players: int, partnerships: bool,
                    options: dict[str, Any], seed: int, indices: Sequence[int], *, jobs: int = 1,
                    timeout: float = 300.0,
                    progress: Callable[[GameResult], None] | None = None,
                    warn: Callable[[str], None] | None = None) -> list[GameResult]:
    """Games ``indices`` of the match between ``a`` and ``b`` (one at least a ``cmd:`` bot),
    on ``jobs`` servers at once; see the module doc.  Results in game order."""
    plans: queue.Queue[TablePlan] = queue.Queue()
    for plan in table_plans(indices, jobs):
        plans.put(plan)
    results: dict[int, GameResult] = {}
    errors: list[BaseException] = []
    lock = threading.Lock()

    def say(text: str) -> None:
        with lock:
            (warn or (lambda line: print(f"noddy-match: {line}", file=sys.stderr)))(text)

    def report(result: GameResult) -> None:
        with lock:
            results[result.index] = result
            if progress is not None:
                progress(result)

    def work() -> None:
        try:
            worker = Worker({"A": a, "B": b}, preset, players, partnerships, options, seed,
                            timeout, report, say)
        except BaseException as error:  # the server did not start: the match cannot be
            errors.append(error)
            return
        try:
            while not errors:
                try:
                    plan = plans.get_nowait()
                except queue.Empty:
                    return
                worker.play(plan)
        except BaseException as error:
            errors.append(error)
        finally:
            worker.close()

    threads = [threading.Thread(target=work, daemon=True) for _ in range(max(1, min(jobs, plans.qsize())))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return [results[index] for index in indices]
