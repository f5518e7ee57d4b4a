"""``noddy-server``: parse the command line, run the server until Ctrl-C or SIGTERM, exit 0."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys
from typing import Any, Coroutine

from noddy.protocol import DEFAULT_PORT

from .config import ServerConfig
from .network import NoddyServer


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
    parser.add_argument("--seed", type=int, default=None,
                        help="make every deal and computer player reproducible (for testing only: "
                             "anyone who knows the seed knows the cards)")
    return parser


def config_from_args(args: argparse.Namespace) -> ServerConfig:
    return ServerConfig(host=args.host, port=args.port, seed=args.seed, grace_period=args.grace,
                        ping_interval=args.ping_interval, idle_timeout=args.idle_timeout,
                        rate=args.rate, burst=args.burst,
                        max_connections_per_address=args.max_connections_per_address,
                        max_tables_per_connection=args.max_tables_per_connection)


async def serve(config: ServerConfig) -> int:
    """Run until SIGINT or SIGTERM, then shut down cleanly."""
    server = NoddyServer(config)
    await server.start()
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
        return _run(serve(config_from_args(args)))
    except OSError as exc:
        logging.getLogger("noddy.server").error("cannot listen on %s:%s: %s", args.host, args.port, exc)
        return 1


if __name__ == "__main__":
    sys.exit(main())
