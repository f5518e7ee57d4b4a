"""``noddy-server``: parse the command line, run the server until Ctrl-C or SIGTERM, exit 0.

``noddy-server --export-game ID`` instead writes one stored game as JSON lines and exits.
Exit status: 0, 1 if the address cannot be had, 2 if the database cannot be used (or the
game to export does not exist).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import os
import signal
import sys
from typing import Any, Coroutine
from pathlib import Path

from noddy.protocol import DEFAULT_PORT

from .config import ServerConfig
from .network import NoddyServer
from .records import to_jsonl
from .storage import MEMORY, Storage, StorageError, default_db_path


def build_parser() -> argparse.ArgumentParser:
    defaults = ServerConfig()
    parser = argparse.ArgumentParser(
        prog="noddy-server",
        description="Serve Noddy and Cribbage tables on the network (JSON lines over TCP; "
                    "see docs/PROTOCOL.md).  A person can also play with `nc HOST PORT`.")
    parser.add_argument("--host", default=defaults.host,
                        help=f"address to listen on (default {defaults.host}: every interface)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT,
                        help=f"TCP port (default {DEFAULT_PORT}; 0 picks a free port and prints it)")
    parser.add_argument("--log-level", default="INFO",
                        choices=["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"],
                        help="how much to log to stderr (default INFO)")
    parser.add_argument("--grace", type=float, default=defaults.grace_period, metavar="SECONDS",
                        help=f"how long a disconnected player's seat is held for a resume "
                             f"(default {defaults.grace_period:g})")
    parser.add_argument("--ping-interval", type=float, default=defaults.ping_interval, metavar="SECONDS",
                        help=f"ping a silent JSON client after this long (default {defaults.ping_interval:g})")
    parser.add_argument("--idle-timeout", type=float, default=defaults.idle_timeout, metavar="SECONDS",
                        help=f"drop a JSON client silent this long (default {defaults.idle_timeout:g})")
    parser.add_argument("--rate", type=float, default=defaults.rate,
                        help=f"requests a second each connection may sustain (default {defaults.rate:g})")
    parser.add_argument("--burst", type=int, default=defaults.burst,
                        help=f"requests a connection may send at once (default {defaults.burst})")
    parser.add_argument("--max-connections-per-address", type=int,
                        default=defaults.max_connections_per_address, metavar="N",
                        help=f"connections one address may hold open (default "
                             f"{defaults.max_connections_per_address}; 0: no limit)")
    parser.add_argument("--max-tables-per-connection", type=int,
                        default=defaults.max_tables_per_connection, metavar="N",
                        help=f"open tables one connection may have created (default "
                             f"{defaults.max_tables_per_connection}; 0: no limit)")
    parser.add_argument("--max-tables-per-address", type=int,
                        default=defaults.max_tables_per_address, metavar="N",
                        help=f"open tables one address may have created, over all its connections "
                             f"(default {defaults.max_tables_per_address}; 0: no limit)")
    parser.add_argument("--seed", type=int, default=None,
                        help="make every deal and computer player reproducible (for testing only: "
                             "anyone who knows the seed knows the cards)")
    parser.add_argument("--db", default=str(default_db_path()), metavar="PATH",
                        help="the SQLite file that keeps tables, finished games and ratings across "
                             "restarts, created on first start (default: %(default)s; "
                             f"{MEMORY} keeps nothing)")
    parser.add_argument("--export-game", type=int, default=None, metavar="ID",
                        help="write finished game ID from the database as JSON lines to standard "
                             "output, then exit (see docs/PROTOCOL.md, Records)")
    return parser


def config_from_args(args: argparse.Namespace) -> ServerConfig:
    return ServerConfig(host=args.host, port=args.port, seed=args.seed, grace_period=args.grace,
                        ping_interval=args.ping_interval, idle_timeout=args.idle_timeout,
                        rate=args.rate, burst=args.burst,
                        max_connections_per_address=args.max_connections_per_address,
                        max_tables_per_connection=args.max_tables_per_connection,
                        max_tables_per_address=args.max_tables_per_address, db=args.db)


def export_game(path: str, game_id: int) -> int:
    """Print finished game ``game_id`` of the database at ``path`` as JSON lines."""
    if path != MEMORY and not Path(path).is_file():
        raise StorageError(f"there is no database at {path}")
    storage = Storage(path)
    try:
        record = storage.finished_game(game_id)
    finally:
        storage.close()
    if record is None:
        raise StorageError(f"the database {path} has no finished game {game_id}")
    for line in to_jsonl(record):
        print(line)
    return 0


async def serve(config: ServerConfig) -> int:
    """Run until SIGINT or SIGTERM, then shut down cleanly."""
    server = NoddyServer(config)
    await server.start()
    _tune_garbage_collector()
    print(f"noddy-server listening on {config.host}:{server.port}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)
        await server.shutdown()
    return 0


def _tune_garbage_collector() -> None:
    """Make the cyclic garbage collector run less often, and never over what start-up made.

    Serving a request makes dozens of short-lived dicts and lists (messages, events, records)
    that reference counting frees; at the default threshold (700 new objects) the collector
    ran every few requests, and each full collection walked every object the server held.
    Collections are rarer with a higher threshold, and objects alive after start-up (the
    restored tables, the modules) are moved out of their way.  Cycles are still collected.
    """
    gc.freeze()
    gc.set_threshold(GC_THRESHOLD, 20, 20)


#: Allocations of container objects (net) between two young-generation collections; with
#: 700 (the default), 20,000 and 100,000, bench/server.py measured 135, 131 and 141 µs of
#: server CPU per round trip (after the freeze, which gave most of the gain: ~160 before).
GC_THRESHOLD = 20_000


def _run(main_coroutine: Coroutine[Any, Any, int]) -> int:
    """Run the server; with NODDY_PROFILE=PATH in the environment, under cProfile, writing
    the profile to PATH on exit (how bench/server.py finds the hot path)."""
    path = os.environ.get("NODDY_PROFILE")
    if not path:
        return asyncio.run(main_coroutine)
    import cProfile

    profiler = cProfile.Profile()
    profiler.enable()
    try:
        return asyncio.run(main_coroutine)
    finally:
        profiler.disable()
        profiler.dump_stats(path)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=args.log_level, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        if args.export_game is not None:
            return export_game(args.db, args.export_game)
        return _run(serve(config_from_args(args)))
    except StorageError as exc:
        logging.getLogger("noddy.server").error("%s", exc)
        return 2
    except OSError as exc:
        logging.getLogger("noddy.server").error("cannot listen on %s:%s: %s", args.host, args.port, exc)
        return 1


if __name__ == "__main__":
    sys.exit(main())
