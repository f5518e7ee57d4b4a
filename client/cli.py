"""``noddy-client HOST:PORT``: the command line of the terminal client.

This module parses the arguments and runs :class:`~noddy.client.app.ClientApp` against a
server that is already running.  Playing with no address (a private server inside the
process) needs the server package, which the client may not import; that composition lives
in :mod:`noddy.play`, the module the ``noddy-client`` console script points at, and which
reuses :func:`build_parser`, :func:`run_client` and :func:`play_at_address` from here.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import sys
from collections.abc import Callable
from typing import Any

from noddy.protocol import DEFAULT_PORT

from .model import request_field

#: The longest name a ``hello`` may give.
NAME_LIMIT = request_field("hello", "name").max_length


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="noddy-client",
        description="Play Noddy and Cribbage in a terminal.  With no address, a private server "
                    "starts inside the program and you play against a computer player.")
    parser.add_argument("address", nargs="?", help=f"HOST:PORT of a noddy-server (port {DEFAULT_PORT} "
                                                   "if left out)")
    parser.add_argument("--name", default=None, help="your name at the table (default: your login)")
    parser.add_argument("--preset", default="noddy",
                        help="with no address: the game to play (noddy, noddy-ducoeur, noddy-holme, "
                             "noddy-modern, five-card-cribbage, cribbage)")
    parser.add_argument("--players", type=int, default=2,
                        help="with no address: how many players (the others are computers)")
    parser.add_argument("--target", type=int, default=None, help="with no address: points to win")
    parser.add_argument("--level", default=None, help="with no address: the computer level "
                                                     "(random, greedy, expert)")
    return parser


def parse_address(text: str) -> tuple[str, int]:
    """``"host:port"``, ``"host"`` or ``":port"`` -> (host, port); IPv6 as ``[::1]:3131``.

    >>> parse_address("example.org:4000"), parse_address("example.org"), parse_address(":5")
    (('example.org', 4000), ('example.org', 3131), ('127.0.0.1', 5))
    >>> parse_address("[::1]:3131")
    ('::1', 3131)
    """
    text = text.strip()
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port = rest.lstrip(":")
    elif text.count(":") == 1:
        host, _, port = text.partition(":")
    else:
        host, port = text, ""
    if port and not port.isdigit():
        raise ValueError(f"not a port number: {port!r}")
    return host or "127.0.0.1", int(port) if port else DEFAULT_PORT


def default_name() -> str:
    try:
        return getpass.getuser()[:NAME_LIMIT] or "player"
    except Exception:
        return "player"


async def run_client(host: str, port: int, name: str,
                     on_app: Callable[[Any], None] | None = None, **options: Any) -> int:
    """Run the full-screen client until the player quits (``on_app`` is shown the
    application before it starts: tests drive it with keys)."""
    from .app import ClientApp

    app = ClientApp(host, port, name, **options)
    if on_app is not None:
        on_app(app)
    return await app.run()


def play_at_address(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Play at the server ``args.address`` names (a bad address is the parser's error)."""
    try:
        host, port = parse_address(args.address)
    except ValueError as exc:
        parser.error(str(exc))
    return asyncio.run(run_client(host, port, args.name or default_name()))


def main(argv: list[str] | None = None) -> int:
    """Entry point for a client that needs an address (see :mod:`noddy.play` for none)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.address is None:
        parser.error("give the server's HOST:PORT (the noddy-client command also plays "
                     "without one, against a private server)")
    try:
        return play_at_address(parser, args)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
