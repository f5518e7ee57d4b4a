"""``noddy-client``: play at a server, or with no address start a private one and play.

This is the composition root that joins the two sides the layers keep apart: the client
package may not import the server, so starting a server inside the process for a one-command
game happens here.  With an address it only runs the client.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from typing import Any

from noddy.client.cli import (
    build_parser,
    choose_language,
    default_name,
    play_at_address,
    run_client,
    solo_table_options,
    terminal_problem,
)
from noddy.protocol.i18n import _


async def play_local(name: str, preset: str, players: int, *, target: int | None = None,
                     level: str | None = None, table_options: dict[str, Any] | None = None,
                     **client_options: Any) -> int:
    """Start a server on 127.0.0.1 (a free port) inside this process, seat the player
    against computer players, play until the player quits, then shut the server down."""
    from noddy.server import NoddyServer, ServerConfig

    # The server logs to the standard logging system; a full-screen client must not print.
    # The logger is silenced while the game lasts only, and given back as it was.
    server_log = logging.getLogger("noddy.server")
    quiet, propagated = logging.NullHandler(), server_log.propagate
    server_log.addHandler(quiet)
    server_log.propagate = False
    try:
        config = ServerConfig(host="127.0.0.1", port=0, default_level=level or "")
        server = NoddyServer(config)
        await server.start()
        quick: dict[str, Any] = {"preset": preset, "players": players, "computers": players - 1}
        options = dict(table_options or {}) | ({} if target is None else {"target": target})
        if options:
            quick["options"] = options
        try:
            return await run_client("127.0.0.1", server.port, name, quick_start=quick,
                                    address_label="private server", **client_options)
        finally:
            await server.shutdown()
    finally:
        server_log.removeHandler(quiet)
        server_log.propagate = propagated


def check_local_options(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse a private game the server would refuse, as a usage error (exit 2) before any
    screen opens: the preset, the player count (alone or in partnerships, as the quick
    start picks), the options and the computer level are checked by the same rules the
    server applies."""
    from noddy.bots import LEVELS
    from noddy.engine import RulesError, configure, find_preset

    if not 2 <= args.players <= 4:
        parser.error(_("--players must be 2, 3 or 4"))
    if args.level is not None and args.level not in LEVELS:
        parser.error(_("no computer level {level!r}; the levels are: {levels}").format(
            level=args.level, levels=', '.join(LEVELS)))
    options = {name: value for name, value in solo_table_options(args).items() if name != "hints"}
    options |= {} if args.target is None else {"target": args.target}
    try:
        rules = find_preset(args.preset)
        partnerships = (args.players not in rules.solo_counts
                        and args.players in rules.partnership_counts)
        configure(args.preset, args.players, partnerships=partnerships, options=options)
    except RulesError as exc:
        parser.error(str(exc))


def main(argv: list[str] | None = None) -> int:
    choose_language(argv)  # (first: the parser's help is said in it)
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.address is None:
            args.preset = "noddy" if args.preset is None else args.preset
            args.players = 2 if args.players is None else args.players
            if args.tls_ca is not None:
                parser.error("--tls-ca is for a tls://HOST:PORT address")
            check_local_options(parser, args)
            problem = terminal_problem()
            if problem is not None:
                sys.stderr.write(problem)
                return 2
            return asyncio.run(play_local(args.name or default_name(), args.preset, args.players,
                                          target=args.target, level=args.level,
                                          table_options=solo_table_options(args)))
        return play_at_address(parser, args)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
