"""``noddy-server``: parse the command line, run the server until Ctrl-C or SIGTERM, exit 0.

``noddy-server --export-game ID`` instead writes one stored game as JSON lines and exits;
``noddy-server reset-password NAME`` gives an account a new password
(:mod:`noddy.server.reset_password`).
Exit status: 0, 1 if the address cannot be had, 2 if the database cannot be used (or the
game to export does not exist), and 2 for a command line that makes no sense (a port outside
0-65535, a negative grace...: argparse's usage error, never a traceback).
"""

from __future__ import annotations

import argparse
import asyncio
import ctypes
import gc
import logging
import math
import os
import signal
import ssl
import sys
from typing import Any, Callable, Coroutine, Mapping
from pathlib import Path

import noddy
from noddy.protocol import DEFAULT_PORT
from noddy.protocol.i18n import DEFAULT_LANGUAGE, language_of, speaking

from .config import ServerConfig
from .lan import EVERY_INTERFACE, join_lines, lan_addresses
from .net.network import NoddyServer
from .reset_password import reset_password
from .storage.records import to_jsonl
from .storage import MEMORY, Storage, StorageError, default_db_path


def _port(text: str) -> int:
    """A TCP port (0: any free one); anything else is a usage error, not a traceback at bind."""
    port = _whole(text)
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a TCP port is 0 to 65535, not {text}")
    return port


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None


def _at_least(lowest: float, whole: bool = False, strictly: bool = False) -> Callable[[str], float]:
    """An argparse type: a number ``>= lowest`` (``> lowest`` if ``strictly``; an int if
    ``whole``).  A negative grace or a zero rate would start a server that makes no sense
    (every seat lost at once, every request refused), so they are refused at the command
    line, as usage errors (exit 2)."""
    def check(text: str) -> float:
        if whole:
            value: float = _whole(text)
        else:
            try:
                value = float(text)
            except ValueError:
                raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if math.isnan(value) or value < lowest or (strictly and value == lowest):
            wanted = f"more than {lowest:g}" if strictly else f"{lowest:g} or more"
            raise argparse.ArgumentTypeError(f"must be {wanted}, not {text}")
        return value
    return check


_POSITIVE = _at_least(0, strictly=True)
_NOT_NEGATIVE = _at_least(0)
_COUNT = _at_least(0, whole=True)


def build_parser() -> argparse.ArgumentParser:
    defaults = ServerConfig()
    parser = argparse.ArgumentParser(
        prog="noddy-server",
        description="Serve Noddy and Cribbage tables on the network (JSON lines over TCP; "
                    "see docs/PROTOCOL.md).  A person can also play with `nc HOST PORT`.",
        epilog="noddy-server reset-password NAME [--db PATH] gives a registered name a new "
               "password, with the server stopped (see reset-password --help).")
    parser.add_argument("--version", action="version", version=f"%(prog)s {noddy.__version__}")
    parser.add_argument("--host", default=defaults.host,
                        help=f"address to listen on (default {defaults.host}: every interface)")
    parser.add_argument("--port", type=_port, default=DEFAULT_PORT,
                        help=f"TCP port (default {DEFAULT_PORT}; 0 picks a free port and prints it)")
    parser.add_argument("--log-level", default="INFO", type=str.upper,
                        choices=["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"],
                        help="how much to log to stderr, in any case (default INFO)")
    parser.add_argument("--grace", type=_NOT_NEGATIVE, default=defaults.grace_period, metavar="SECONDS",
                        help=f"how long a disconnected player's seat is held for a resume "
                             f"(default {defaults.grace_period:g})")
    parser.add_argument("--keep-away", type=_NOT_NEGATIVE, default=defaults.keep_away, metavar="SECONDS",
                        help=f"how much longer, after the grace period, a game whose people are all "
                             f"away waits for them (default {defaults.keep_away:g}; 0: it does not)")
    parser.add_argument("--seat-silence", type=_NOT_NEGATIVE, default=defaults.seat_silence, metavar="SECONDS",
                        help=f"how long a connected person whose turn it is may say nothing before the "
                             f"others may call in a computer for them (default {defaults.seat_silence:g}; "
                             f"0: never; a table's option seat_silence overrides it)")
    parser.add_argument("--ping-interval", type=_POSITIVE, default=defaults.ping_interval, metavar="SECONDS",
                        help=f"ping a silent JSON client after this long (default {defaults.ping_interval:g})")
    parser.add_argument("--idle-timeout", type=_POSITIVE, default=defaults.idle_timeout, metavar="SECONDS",
                        help=f"drop a connection that says nothing at all this long after connecting "
                             f"(default {defaults.idle_timeout:g}); once it has spoken, silence never closes it")
    parser.add_argument("--keepalive-idle", type=_NOT_NEGATIVE, default=defaults.keepalive_idle, metavar="SECONDS",
                        help=f"TCP keepalive: probe a silent peer after this long, to find one that "
                             f"vanished (default {defaults.keepalive_idle:g}; 0: off)")
    parser.add_argument("--keepalive-interval", type=_POSITIVE, default=defaults.keepalive_interval,
                        metavar="SECONDS", help=f"TCP keepalive: seconds between probes "
                                                f"(default {defaults.keepalive_interval:g})")
    parser.add_argument("--keepalive-count", type=_at_least(1, whole=True), default=defaults.keepalive_count,
                        metavar="N", help=f"TCP keepalive: unanswered probes before the peer is "
                                          f"taken for gone (default {defaults.keepalive_count})")
    parser.add_argument("--rate", type=_POSITIVE, default=defaults.rate,
                        help=f"requests a second each connection may sustain (default {defaults.rate:g})")
    parser.add_argument("--burst", type=_at_least(1, whole=True), default=defaults.burst,
                        help=f"requests a connection may send at once (default {defaults.burst})")
    parser.add_argument("--max-connections-per-address", type=_COUNT,
                        default=defaults.max_connections_per_address, metavar="N",
                        help=f"connections one address may hold open (default "
                             f"{defaults.max_connections_per_address}; 0: no limit)")
    parser.add_argument("--max-tables-per-connection", type=_COUNT,
                        default=defaults.max_tables_per_connection, metavar="N",
                        help=f"open tables one connection may have created (default "
                             f"{defaults.max_tables_per_connection}; 0: no limit)")
    parser.add_argument("--max-tables-per-address", type=_COUNT,
                        default=defaults.max_tables_per_address, metavar="N",
                        help=f"open tables one address may have created, over all its connections "
                             f"(default {defaults.max_tables_per_address}; 0: no limit)")
    parser.add_argument("--send-buffer-bytes", type=int, default=defaults.send_buffer_bytes, metavar="N",
                        help=f"bytes the server may hold unsent for one connection before it drops it as "
                             f"not reading (default {defaults.send_buffer_bytes}; 0: no limit)")
    parser.add_argument("--query-cost", type=int, default=defaults.query_cost, metavar="N",
                        help=f"requests' worth of the rate limit that get_game, list_games and "
                             f"leaderboard take (default {defaults.query_cost})")
    parser.add_argument("--query-rate-per-address", type=float, default=defaults.query_rate_per_address,
                        metavar="RATE",
                        help=f"get_game, list_games and leaderboard requests a second one address may "
                             f"sustain (default {defaults.query_rate_per_address:g}; 0: no limit)")
    parser.add_argument("--record-cache-bytes", type=_COUNT, default=defaults.record_cache_bytes, metavar="N",
                        help=f"memory for finished games' records kept for get_game "
                             f"(default {defaults.record_cache_bytes}; 0: none)")
    parser.add_argument("--lobby-push-interval", type=_NOT_NEGATIVE, default=defaults.lobby_push_interval,
                        metavar="SECONDS",
                        help=f"push the lobby its table news at most this often, each table in its "
                             f"latest state (default {defaults.lobby_push_interval:g})")
    parser.add_argument("--seed", type=int, default=None,
                        help="make every deal and computer player reproducible (for testing only: "
                             "anyone who knows the seed knows the cards)")
    parser.add_argument("--tls-cert", metavar="PEM",
                        help="also listen with TLS (on --tls-port), with this certificate (chain); "
                             "see docs/PROTOCOL.md, Encryption, for a self-signed one")
    parser.add_argument("--tls-key", metavar="PEM",
                        help="the certificate's private key (if not in the --tls-cert file)")
    parser.add_argument("--tls-port", type=_port, default=3132, metavar="PORT",
                        help="the TLS port (default 3132; 0 picks a free port and prints it)")
    parser.add_argument("--tls-handshake-timeout", type=_POSITIVE, default=defaults.tls_handshake_timeout,
                        metavar="SECONDS",
                        help=f"close a TLS connection whose handshake is not done this long after it "
                             f"connected (default {defaults.tls_handshake_timeout:g})")
    parser.add_argument("--max-tls-handshakes", type=_COUNT, default=defaults.max_tls_handshakes, metavar="N",
                        help=f"TLS handshakes in progress at once from all addresses; more are closed at "
                             f"once (default {defaults.max_tls_handshakes}; 0: no limit; never more than a "
                             f"quarter of ulimit -n)")
    parser.add_argument("--max-tls-handshakes-per-address", type=_COUNT,
                        default=defaults.max_tls_handshakes_per_address, metavar="N",
                        help=f"TLS handshakes in progress at once from one address; more are closed at "
                             f"once (default {defaults.max_tls_handshakes_per_address}; 0: no limit)")
    parser.add_argument("--allow-deal-seeds", action="store_true",
                        help="let create_table fix its games' deals with deal_seeds (unrated "
                             "tables; what noddy-match uses on its own servers: whoever chooses "
                             "a seed chooses the cards, so never on a server people play on)")
    parser.add_argument("--director", action="append", default=[], metavar="NAME",
                        help="a registered name that may announce club nights (repeatable); "
                             "without it any registered person may")
    parser.add_argument("--computers-inline", action="store_true",
                        help="computer players decide on the event loop, not in a worker thread "
                             "(cheaper for a match runner's few tables; a slow decision holds "
                             "everyone up)")
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
                        keep_away=args.keep_away, seat_silence=args.seat_silence,
                        ping_interval=args.ping_interval, idle_timeout=args.idle_timeout,
                        keepalive_idle=args.keepalive_idle, keepalive_interval=args.keepalive_interval,
                        keepalive_count=args.keepalive_count,
                        rate=args.rate, burst=args.burst,
                        max_connections_per_address=args.max_connections_per_address,
                        max_tables_per_connection=args.max_tables_per_connection,
                        max_tables_per_address=args.max_tables_per_address,
                        send_buffer_bytes=args.send_buffer_bytes, query_cost=args.query_cost,
                        query_rate_per_address=args.query_rate_per_address,
                        record_cache_bytes=args.record_cache_bytes,
                        lobby_push_interval=args.lobby_push_interval, db=args.db,
                        allow_deal_seeds=args.allow_deal_seeds,
                        directors=tuple(args.director),
                        computers_inline=args.computers_inline,
                        tls_cert=args.tls_cert, tls_key=args.tls_key, tls_port=args.tls_port,
                        tls_handshake_timeout=args.tls_handshake_timeout,
                        max_tls_handshakes=args.max_tls_handshakes,
                        max_tls_handshakes_per_address=args.max_tls_handshakes_per_address)


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
    # A file grown past the process's size limit must be a failed write that storage reports
    # and the tables survive (see ServerCore.unstored), not a signal that kills the server.
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    server = NoddyServer(config)
    await server.start()
    _tune_garbage_collector()
    # The host's first screen, on stderr with the log (but for --log-level warning and up):
    # the exact lines friends type to join (before the line on stdout, which
    # scripts wait for).
    if logging.getLogger("noddy.server").isEnabledFor(logging.INFO):
        addresses = lan_addresses() if config.host in EVERY_INTERFACE else []
        with speaking(host_language(os.environ)):  # in the host's language; the log stays English
            lines = join_lines(config.host, server.port, addresses, server.tls_port)
        print("\n".join(lines), file=sys.stderr, flush=True)
    # The one line on stdout, for scripts and people alike (the port, when --port 0 chose it).
    print(f"noddy-server listening on {config.host}:{server.port}", flush=True)
    if server.tls_port is not None:  # a second line only then: scripts read the first
        print(f"noddy-server listening with TLS on {config.host}:{server.tls_port}", flush=True)
    logging.getLogger("noddy.server").info("keeping tables and games in %s", config.db or MEMORY)
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


def host_language(environ: Mapping[str, str]) -> str:
    """The language of the person who started the server, from the locale as POSIX reads it
    (``LC_ALL``, then ``LC_MESSAGES``, then ``LANG``; the first one set decides): the first
    screen is theirs.  English when it names none Noddy speaks."""
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if environ.get(variable):
            return language_of(environ[variable]) or DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


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


#: Allocations of container objects (net) between two young-generation collections.  With
#: 700 (the default), 20,000 and 100,000, bench/server.py at 50 tables measured 135, 131 and
#: 141 µs of server CPU per round trip (after the freeze, which gave most of the gain: ~160
#: before).  It must stay above what one turn of the loop holds at once: at 1,000 tables a
#: turn carries hundreds of requests whose messages wait for the storage commit together,
#: and at 20,000 the collector ran 27 times in 13 s of server CPU, walking them while they
#: were still alive (0.39 s, 3 % of the server); at 200,000 it ran once (0.04 s).  Cyclic
#: garbage still goes at the next collection, after at most this many objects.
GC_THRESHOLD = 200_000


#: glibc's mallopt parameter for the most malloc arenas (malloc.h), and the number the server
#: asks for unless the host has set MALLOC_ARENA_MAX itself.
M_ARENA_MAX = -8
MALLOC_ARENAS = 2


def _fewer_malloc_arenas() -> None:
    """Ask glibc's malloc for at most :data:`MALLOC_ARENAS` arenas (elsewhere: nothing).

    Computer players think in worker threads, and glibc gives each thread that allocates
    an arena of its own (up to eight per core), whose freed space it seldom hands back: in
    ``bench/memory_soak.py`` the server's memory kept creeping up after its caches had
    stopped growing (78, 91, 96, 98 MB at 100-game steps), and with two arenas it held
    (75, 85, 75, 85 MB).  The threads take turns under the GIL anyway, so sharing arenas
    costs them nothing measurable."""
    if "MALLOC_ARENA_MAX" in os.environ:
        return
    try:
        ctypes.CDLL(None).mallopt(M_ARENA_MAX, MALLOC_ARENAS)
    except (OSError, AttributeError):  # not glibc (macOS, musl...): its own allocator's way
        pass


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
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["reset-password"]:
        logging.basicConfig(level="INFO", stream=sys.stderr, format="noddy-server: %(message)s")
        return reset_password(argv[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.tls_key and not args.tls_cert:
        parser.error("--tls-key needs --tls-cert")
    if args.tls_cert:
        try:  # a missing or mismatched file is a usage error, not a failure to listen
            ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(args.tls_cert, args.tls_key)
        except (OSError, ValueError) as exc:
            parser.error(f"--tls-cert/--tls-key: {exc}")
    logging.basicConfig(level=args.log_level, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        if args.export_game is not None:
            return export_game(args.db, args.export_game)
        _fewer_malloc_arenas()
        return _run(serve(config_from_args(args)))
    except StorageError as exc:
        logging.getLogger("noddy.server").error("%s", exc)
        return 2
    except OSError as exc:
        logging.getLogger("noddy.server").error("cannot listen on %s:%s: %s", args.host, args.port, exc)
        return 1


if __name__ == "__main__":
    sys.exit(main())
