"""How long ``stats`` takes for a player with many stored games (issue 26: well under 100 ms
for thousands), and what summing up a game costs when it finishes.

A database file is made with the server's own schema, and ``game_stats`` rows are written
into it directly: ``--games`` games (10,000 by default) of one player ("ada") against others
across three presets, with rated games' ratings, among ``--others`` rows of other players.
Then it prints the median and 95th percentile of

* storage's read (``Storage.read("stats")``: the SQL the database thread runs), for all
  presets and for one family, and
* the whole request over a socket to a real server on that file (``{"type":"stats",
  "name":"ada"}`` until its reply: reading, the database thread, encoding, the line back),
  beside a ``ping``'s round trip on the same socket (what any request costs on this machine);

and the time to sum up one finished game of Cribbage to 121 (reading its actions,
replaying it, the rows) -- the work the database thread adds to each game's last move.

    python bench/stats.py                 # 10,000 games
    python bench/stats.py --games 50000 --runs 50
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from noddy.server import NoddyServer, ServerConfig  # noqa: E402
from noddy.server.storage import Storage  # noqa: E402
from noddy.server.storage.game_stats import COLUMNS, seat_summaries, write_summaries  # noqa: E402

PRESETS = (("cribbage", "cribbage"), ("five-card-cribbage", "cribbage"), ("noddy", "noddy"))


def fill(path: Path, games: int, others: int, seed: int) -> None:
    """``games`` rows of ada (and as many of her opponents) and ``others`` more rows."""
    rng = random.Random(seed)
    storage = Storage(path)
    rows = []
    rating = {"noddy": 1500.0, "cribbage": 1500.0}
    for game in range(1, games + others // 2 + 1):
        preset, family = rng.choice(PRESETS)
        names = ("ada", f"p{rng.randrange(200)}") if game <= games else (f"p{rng.randrange(200)}", f"q{game % 97}")
        winner = rng.randrange(2)
        for seat, name in enumerate(names):
            won = seat == winner
            deals = rng.randint(4, 12)
            cards = json.dumps(["5H", "5C", "5S", "JD", "5D"][: rng.randint(4, 5)])
            if name == "ada":
                rating[family] += 16 if won else -16
            rows.append((game, seat, "human", name, preset, family, 0, 1.7e9 + game, int(won), deals,
                         deals // 2, rng.randint(0, 40), rng.randint(0, 80), rng.randint(0, 40),
                         rng.randint(0, 29), cards, rng.choice(("none", "skunk", "double")) if won else "none",
                         "none", rating[family] if name == "ada" else 1500.0, 0))  # 0: no account
    assert len(rows[0]) == len(COLUMNS)
    storage.db.execute("BEGIN")
    # Each game's row too (the statistics' rows refer to it), without its actions.
    storage.db.executemany(
        "INSERT INTO games (id, table_id, number, preset, family, players, partnerships, options, seats, "
        "seed, status, started_at, finished_at, result, opening) VALUES (?, ?, 1, ?, ?, 2, 0, '{}', '[]', "
        "?, 'finished', ?, ?, '{}', 'null')",
        [(row[0], row[0], row[4], row[5], row[0], row[7], row[7]) for row in rows if row[1] == 0])
    write_summaries(storage.db, rows)
    storage.db.execute("COMMIT")
    storage.close()


def timed(fn, runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        out.append((time.perf_counter() - start) * 1000)
    return out


def report(what: str, samples: list[float]) -> None:
    samples = sorted(samples)
    p95 = samples[min(len(samples) - 1, int(len(samples) * 0.95))]
    print(f"{what:<52} median {statistics.median(samples):7.2f} ms   p95 {p95:7.2f} ms   ({len(samples)} runs)")


async def over_a_socket(path: Path, runs: int, kind: str = "stats") -> list[float]:
    config = ServerConfig(host="127.0.0.1", port=0, db=str(path), rate=1e6, burst=10**6,
                          query_rate_per_address=1e6, query_burst_per_address=10**6)
    async with NoddyServer(config) as server:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port, limit=1 << 22)
        await reader.readline()
        writer.write(b'{"type":"hello","name":"bench","version":1,"id":0}\n')
        await reader.readline()
        samples = []
        for n in range(1, runs + 1):
            start = time.perf_counter()
            request = {"type": "stats", "name": "ada"} if kind == "stats" else {"type": "ping"}
            writer.write(json.dumps({**request, "id": n}).encode() + b"\n")
            while True:
                reply = json.loads(await reader.readline())
                if reply.get("id") == n:
                    break
            samples.append((time.perf_counter() - start) * 1000)
            assert kind != "stats" or sum(p["games"] for p in reply["presets"]) > 0, reply
        writer.close()
        return samples


def summing_up_a_game(runs: int) -> list[float]:
    """One Cribbage game to 121 between two computers, stored, then summed up ``runs`` times."""
    from noddy.bots import get_player
    from noddy.engine import Game, configure
    from noddy.server.storage.records import ActionApplied, GameBegun, GameFinished

    game = Game(configure("cribbage", 2), 2, seed=7)
    players = [get_player("greedy", seed=s) for s in (1, 2)]
    storage = Storage(":memory:")
    seats = [{"seat": s, "name": f"p{s}", "kind": "human", "level": None} for s in (0, 1)]
    records: list = [GameBegun(1, 1, 1, "cribbage", "cribbage", 2, False, {}, seats, 7, 1.7e9, [])]
    n = 0
    while not game.is_over:
        seat = game.awaiting[0]
        action = players[seat].choose(game.observation(seat), game.rules)
        game.apply(action)
        n += 1
        records.append(ActionApplied(1, n, action.to_dict(), [], 1))
    records.append(GameFinished(1, 1.7e9, game.outcome.to_dict(), (), 1))
    storage.write(records)
    return timed(lambda: seat_summaries(storage.game_record(1)), runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--others", type=int, default=40_000, help="rows of other players")
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "noddy.sqlite3"
        start = time.perf_counter()
        fill(path, args.games, args.others, args.seed)
        print(f"{args.games} games of ada and {args.others} rows of others written in "
              f"{time.perf_counter() - start:.1f} s")
        storage = Storage(path)
        report("storage read, every preset", timed(
            lambda: storage.read("stats", {"name": "ada", "preset": None, "private": True}), args.runs))
        report("storage read, the cribbage family", timed(
            lambda: storage.read("stats", {"name": "ada", "preset": "cribbage", "private": True}), args.runs))
        storage.close()
        report("stats request over a socket (round trip)", asyncio.run(over_a_socket(path, args.runs)))
        report("ping over a socket, for comparison", asyncio.run(over_a_socket(path, args.runs, "ping")))
    report("summing up a finished cribbage game (replay + rows)", summing_up_a_game(min(args.runs, 50)))


if __name__ == "__main__":
    main()
