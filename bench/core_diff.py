"""A differential drive of two versions of the server core: the same seeded random requests
(JSON and typed text, good and bad, with ticks, disconnects and computer players) sent to the
core of this checkout and to the core of an older commit, every line each connection would
be sent, every close and every storage record compared.

Why: a restructuring of the core must change nothing on the wire.  This is the proof, run
whenever the core is moved about (``python3 bench/core_diff.py --against REV``).  Fields a
change adds on purpose are named with ``--ignore`` (dotted paths, e.g. ``welcome.table_options``)
and left out of both sides before comparing; the summary says how many lines matched.

Each version runs in its own process (``python -S``: no installed copy), from its own tree
(``git archive``; this checkout as it is), so neither can
see the other's modules.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The driver runs inside each tree's process: it must speak both the older core's API
# (lists, take_records, take_bot_jobs, origin, text read inside the core) and the newer one
# (Effects; text read by noddy.server.text's adapter).
DRIVER = r'''
import json, random, secrets, sys, dataclasses
seed, steps = int(sys.argv[1]), int(sys.argv[2])
rng_tokens = random.Random(seed * 7 + 1)
secrets.token_hex = lambda n=16: "%0*x" % (2 * n, rng_tokens.getrandbits(8 * n))
secrets.token_bytes = lambda n=16: bytes(rng_tokens.getrandbits(8) for _ in range(n))
from noddy.protocol import encode_line
from noddy.server import ServerConfig
from noddy.server.core import ServerCore, Send, Close, Query
try:
    from noddy.server.core.instructions import Lines
except ImportError:
    from noddy.server.instructions import Lines
try:
    from noddy.server.text import TextAdapter, render
    NEW = True
except ImportError:
    from noddy.server.text_mode import render
    NEW = False

now = [0.0]
core = ServerCore(ServerConfig(seed=seed, rate=50.0, burst=30, lobby_push_interval=0.5,
                               grace_period=5.0, ping_interval=20.0, idle_timeout=40.0),
                  clock=lambda: now[0], wall_clock=lambda: 1.7e9 + now[0])
adapter = TextAdapter(core) if NEW else None
out_lines = []
text_conns = set()

def emit(kind, *parts):
    out_lines.append(json.dumps([kind, *parts], sort_keys=True, default=str))

def carry(outs, records, jobs):
    for rec in records:
        emit("record", type(rec).__name__, dataclasses.asdict(rec) if dataclasses.is_dataclass(rec) else repr(rec))
    for out in outs:
        if isinstance(out, Send):
            messages = out.message.messages if isinstance(out.message, Lines) else (out.message,)
            for m in messages:
                if out.text:
                    emit("text", out.conn, render(m, out.names))
                else:
                    emit("json", out.conn, json.loads(encode_line(m)))
        elif isinstance(out, Close):
            emit("close", out.conn, out.reason)
        elif isinstance(out, Query):
            emit("query", out.conn, out.kind)
            result = [] if out.kind == "list_games" else None
            call(lambda: core.answer(out, result))
    # Turns written now: their timers run from now (a core that has them: see TurnTimer).
    timers = [out.timer for out in outs if getattr(out, "timer", None) is not None]
    if timers:
        core.turns_sent(timers)
    for job in jobs:
        call(lambda job=job: core.bot_moved(job, job.run()))

def call(fn, marked=False):
    result = fn()
    if NEW:
        if not marked:  # as the network layer does with every call but the adapter's own
            adapter.outgoing(result.out)
        carry(result.out, result.records, result.jobs)
    else:
        records = core.take_records()
        carry(result, records, core.take_bot_jobs())

rng = random.Random(seed)
conns = []
PRESETS = ["noddy", "cribbage", "five-card-cribbage", "noddy-modern"]
last_turn = {}

def connect(text):
    def go():
        conn, result = core.connect("10.0.0.%d" % rng.randrange(1, 4))
        conns.append(conn)
        if text:
            text_conns.add(conn)
        return result
    call(go)

def json_request(conn):
    table = rng.randrange(1, 5)
    turn = last_turn.get(conn)
    choices = [
        {"type": "hello", "name": rng.choice(["ann", "ben", "cy", "dee", "Ann", "greedy computer"]), "version": 1,
         "bot": rng.random() < 0.3},
        {"type": "list_tables"},
        {"type": "create_table", "preset": rng.choice(PRESETS), "players": rng.choice([2, 2, 3, 4]),
         "options": rng.choice([None, {"target": 15}, {"hints": True}, {"counting": "manual"}]),
         "private": rng.random() < 0.1, "password": "pw", "turn_timer": rng.choice([None, 2])},
        {"type": "sit", "table": table, "seat": rng.choice([None, 0, 1, 2])},
        {"type": "spectate", "table": table},
        {"type": "add_computer", "level": rng.choice(["random", "greedy", None])},
        {"type": "ready"}, {"type": "ready"}, {"type": "stand"}, {"type": "leave"},
        {"type": "chat", "text": "hi"}, {"type": "snapshot"}, {"type": "hint"},
        {"type": "review"}, {"type": "leaderboard"}, {"type": "get_game", "game": 1},
        {"type": "configure_table", "options": {"target": 31}},
        {"type": "action", "action": "go"}, {"type": "bogus"}, {"type": "sit", "table": "x"},
    ]
    if turn:
        for _ in range(4):
            choices.append({"type": "action", **rng.choice(turn)})
    message = rng.choice(choices)
    message["id"] = rng.randrange(100)
    return json.dumps(message).encode()

TEXT = ["tables", "new noddy", "new cribbage 3", "new noddy target=15", "join 1", "join 2", "sit 2",
        "watch 1", "bot", "bot 2 random", "ready", "ready", "look", "stand", "leave", "say hello",
        "shout hi", "name zed", "name Ann", "help", "play 5H", "go", "discard 1 2", "discard 1",
        "claim 3", "pass", "hint", "review", "games", "game 1", "leaderboard", "frobnicate", "play"]

def text_line(conn):
    turn = last_turn.get(conn)
    if turn and rng.random() < 0.5:
        a = rng.choice(turn)
        if a["action"] == "play":
            return ("play " + a["card"]).encode()
        if a["action"] == "discard":
            return ("discard " + " ".join(a["cards"])).encode()
        return a["action"].encode()
    return rng.choice(TEXT).encode()

def remember_turns():
    # The legal actions each connection was last told (for plausible moves).
    for line in out_lines[-400:]:
        kind, *rest = json.loads(line)
        if kind == "json" and isinstance(rest[1], dict):
            m = rest[1]
            if m.get("type") == "turn" and m.get("legal_actions"):
                last_turn[rest[0]] = m["legal_actions"]
            elif m.get("type") == "turn":
                last_turn.pop(rest[0], None)

for step in range(steps):
    r = rng.random()
    if r < 0.05 or not conns:
        connect(rng.random() < 0.4)
    elif r < 0.08:
        conn = rng.choice(conns)
        conns.remove(conn)
        if NEW:
            adapter.forget(conn)
        call(lambda: core.disconnect(conn))
    elif r < 0.16:
        now[0] += rng.choice([0.1, 0.6, 3.0, 30.0])
        call(core.tick)
    else:
        conn = rng.choice(conns)
        if conn in text_conns:
            line = text_line(conn)
            call(lambda: adapter.receive(conn, line) if NEW else core.receive(conn, line), marked=True)
        else:
            line = json_request(conn)
            call(lambda: core.receive(conn, line))
    if step % 20 == 0:
        remember_turns()
sys.stdout.write("\n".join(out_lines) + "\n")
'''


def package_tree(rev: str | None, where: Path) -> Path:
    """A directory to put on PYTHONPATH holding the ``noddy`` package as installed: this
    checkout's, or commit ``rev``'s (from ``git archive``).  bench/memory_soak.py uses it too."""
    source = ROOT
    if rev is not None:
        source = where / "src"
        source.mkdir(parents=True)
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(source)], input=archive, check=True)
    package = where / "pkg" / "noddy"
    package.mkdir(parents=True)
    for name in os.listdir(source / "noddy"):
        os.symlink(source / "noddy" / name, package / name)
    for name in ("engine", "protocol", "server", "client", "bots"):
        os.symlink(source / name, package / name)
    return where / "pkg"


def _run(path: Path, seed: int, steps: int) -> list[str]:
    env = {**os.environ, "PYTHONPATH": str(path)}
    done = subprocess.run([sys.executable, "-S", "-c", DRIVER, str(seed), str(steps)], env=env,
                          capture_output=True, text=True, cwd=tempfile.gettempdir())
    if done.returncode:
        raise SystemExit(f"the driver failed under {path}:\n{done.stderr[-3000:]}")
    return done.stdout.splitlines()


def _drop_ending(value: object, field: str = "ending") -> None:
    """Leave ``field`` out of every ``game_over`` event within ``value`` (records hold them)."""
    if isinstance(value, dict):
        if value.get("kind") == "game_over":
            value.pop(field, None)
        for inner in value.values():
            _drop_ending(inner, field)
    elif isinstance(value, list):
        for inner in value:
            _drop_ending(inner, field)


def _strip(line: str, ignore: list[str]) -> str:
    item = json.loads(line)
    for field in [path.partition(".")[2] for path in ignore if path.startswith("event.")]:
        _drop_ending(item, field)  # (a game_over's field, wherever one is: records hold them)
    if item[0] == "record" and "state.watchers" in ignore and isinstance(item[2], dict) \
            and isinstance(item[2].get("state"), dict):
        item[2]["state"].pop("watchers", None)
    if item[0] == "record" and isinstance(item[2], dict) and isinstance(item[2].get("result"), dict):
        for field in [path.partition(".")[2] for path in ignore if path.startswith("result.")]:
            item[2]["result"].pop(field, None)
    if item[0] == "json" and isinstance(item[2], dict):
        for path in ignore:
            kind, _, dotted = path.partition(".")
            message = item[2]
            if kind == "event" and message.get("type") == "event":
                message["event"].pop(dotted, None) if message["event"].get("kind") == "game_over" else None
            elif message.get("type") == kind:
                if dotted == "presets.options.description":
                    for preset in message.get("presets", []):
                        for option in preset["options"].values():
                            option.pop("description", None)
                else:  # a nested path (snapshot.turn.state) walks down to its last part
                    *parents, last = dotted.split(".")
                    for part in parents:
                        message = message.get(part) if isinstance(message, dict) else None
                    if isinstance(message, dict):
                        message.pop(last, None)
    return json.dumps(item, sort_keys=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", required=True, help="the older commit to compare with")
    parser.add_argument("--seeds", type=int, default=11)
    parser.add_argument("--steps", type=int, default=1500)
    parser.add_argument("--ignore", action="append", default=[],
                        help="a field added on purpose, as TYPE.FIELD (e.g. welcome.table_options, "
                             "event.ending or event.skunk for game_over's, result.ending or result.skunk for a "
                             "stored result's, state.watchers "
                             "for a stored table's)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        old = package_tree(args.against, Path(scratch) / "old")
        new = package_tree(None, Path(scratch) / "new")
        total = 0
        for seed in range(1, args.seeds + 1):
            before = [_strip(line, args.ignore) for line in _run(old, seed, args.steps)]
            after = [_strip(line, args.ignore) for line in _run(new, seed, args.steps)]
            total += len(before)
            if before != after:
                index = next((i for i, (a, b) in enumerate(zip(before, after)) if a != b),
                             min(len(before), len(after)))
                print(f"seed {seed}: differs at line {index} of {len(before)} / {len(after)}")
                print("  old:", before[index] if index < len(before) else "(end)")
                print("  new:", after[index] if index < len(after) else "(end)")
                raise SystemExit(1)
            kinds = {}
            for line in before:
                kinds[json.loads(line)[0]] = kinds.get(json.loads(line)[0], 0) + 1
            print(f"seed {seed}: {len(before)} lines equal ({', '.join(f'{k} {v}' for k, v in sorted(kinds.items()))})")
        print(f"all {args.seeds} seeds equal: {total} lines")


if __name__ == "__main__":
    main()
