"""``noddy-tournament``: the command line of :mod:`noddy.bots.tournament`.

Reads the players and settings, refuses what cannot be played with a usage error before any
game starts, runs the tournament with a progress line on a terminal, and prints the
cross-table.  An interruption (Ctrl-C) keeps every finished game in the ``--out`` file and
says how to resume.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import sys
import time
from typing import Sequence

from noddy.engine import PRESETS, Game

from . import arguments, external
from .base import LEVELS
from .match import Progress
from .pairing import check_player
from .schedule import round_robin, swiss_rounds
from .tournament import (FORMATS, ROUND_ROBIN_UP_TO, Records, ResultsFile, Settings, Tournament,
                         entrant_names, read_rows, summary_lines)


def _even(text: str) -> int:
    value = arguments.whole(text, 2)
    if value % 2:
        raise argparse.ArgumentTypeError(f"games go in duplicate pairs: give an even number, not {text}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="noddy-tournament",
        description="Play a round robin (or Swiss rounds) among computer players on duplicate "
                    "deals and print the cross-table, standings and ratings.",
        epilog="Players: " + ", ".join(LEVELS) + ", or cmd:COMMAND (a program that speaks the "
               "server protocol, as for noddy-match); NAME=PLAYER names one.  Every pairing "
               "plays the same deals, in pairs with the seats swapped.",
    )
    parser.add_argument("--version", action="version",
                        version=f"%(prog)s {importlib.metadata.version('noddy')}")
    parser.add_argument("entrants", nargs="+", metavar="PLAYER",
                        help="a built-in level, cmd:COMMAND, or NAME=either (two or more)")
    parser.add_argument("--preset", default="noddy", choices=sorted(PRESETS))
    parser.add_argument("--seats", "--players", dest="seats", type=arguments.at_least(2),
                        default=2, help="seats at each table (default 2)")
    parser.add_argument("--partnerships", action="store_true",
                        help="4 seats as two teams, partners opposite")
    parser.add_argument("--option", "-o", action="append", type=arguments.option, default=[],
                        metavar="NAME=VALUE", help="a table option, e.g. target=61 (repeatable)")
    parser.add_argument("--target", type=arguments.at_least(0), help="shorthand for --option target=N")
    parser.add_argument("--games", "-n", type=_even, default=2,
                        help="games a pairing, an even number (default 2: one duplicate deal)")
    parser.add_argument("--seed", type=arguments.at_least(0), default=1,
                        help="tournament seed: the same seed deals the same cards (default 1)")
    kind = parser.add_mutually_exclusive_group()
    kind.add_argument("--swiss", type=arguments.at_least(1), metavar="ROUNDS",
                      help=f"Swiss rounds (default for more than {ROUND_ROBIN_UP_TO} players)")
    kind.add_argument("--round-robin", action="store_true",
                      help=f"a round robin however many players (default up to {ROUND_ROBIN_UP_TO})")
    parser.add_argument("--out", metavar="FILE", help="write every game's result to FILE as it ends")
    parser.add_argument("--format", choices=FORMATS,
                        help="of --out: csv or jsonl (default: by FILE's extension, else jsonl)")
    parser.add_argument("--resume", metavar="FILE",
                        help="an interrupted tournament's --out file: play only the games it "
                             "lacks and add them to it")
    parser.add_argument("--record", metavar="PATH",
                        help="append every game's replayable record (JSON lines) to PATH, or "
                             "with PATH a folder (or ending in /), one file a pairing")
    parser.add_argument("--jobs", "-j", type=arguments.at_least(1), default=1,
                        help="games played at once within a pairing (default 1)")
    parser.add_argument("--timeout", type=arguments.seconds, default=300.0, metavar="SECONDS",
                        help="the longest a game with a cmd: player may take (default 300)")
    return parser


def _format_of(path: str, given: str | None) -> str:
    """The results file's format: what it holds already, else ``given``, else its extension."""
    if os.path.exists(path) and os.path.getsize(path):
        with open(path, encoding="utf-8") as stream:
            return "jsonl" if stream.read(64).lstrip().startswith("{") else "csv"
    if given:
        return given
    return "csv" if path.lower().endswith(".csv") else "jsonl"


def _settings(args: argparse.Namespace, parser: argparse.ArgumentParser) -> Settings:
    options = dict(args.option)
    if args.target is not None:
        options["target"] = args.target
    try:
        Game(args.preset, args.seats, partnerships=args.partnerships, options=options, seed=0)
    except ValueError as error:
        parser.error(str(error))
    return Settings(args.preset, args.seats, args.partnerships, options, args.games, args.seed,
                    args.jobs, args.timeout)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the tournament the command line describes and print its cross-table."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        entrants = entrant_names(args.entrants)
        for _, spec in entrants:
            check_player(spec)
    except ValueError as error:
        parser.error(str(error))
    if len(entrants) < 2:
        parser.error("a tournament needs two players or more")
    settings = _settings(args, parser)
    if args.resume and args.out and os.path.abspath(args.out) != os.path.abspath(args.resume):
        parser.error("--resume FILE goes on writing FILE: leave out --out, or give the same file")
    done = []
    if args.resume:
        try:
            done = read_rows(args.resume)
        except OSError as error:
            parser.error(f"cannot read {args.resume}: {error.strerror}")
        except ValueError as error:
            parser.error(str(error))
    path = args.resume or args.out
    names = [name for name, _ in entrants]
    swiss = args.swiss if args.swiss is not None else (
        None if args.round_robin or len(names) <= ROUND_ROBIN_UP_TO else swiss_rounds(len(names)))
    try:
        out = ResultsFile(path, _format_of(path, args.format), append=bool(args.resume)) if path else None
        records = Records(args.record, append=bool(args.resume))
    except OSError as error:
        parser.error(f"cannot write {error.filename}: {error.strerror}")
    pairings = (swiss * (len(names) // 2) if swiss is not None
                else sum(len(r) for r in round_robin(names)))
    progress = Progress(pairings * settings.games - len(done), sys.stderr)
    tournament = Tournament(entrants, settings, swiss, done, out, records, progress)
    try:
        tournament.check_resumed()
    except ValueError as error:
        parser.error(f"{args.resume}: {error}")
    _print_header(settings, entrants, swiss)
    started = time.perf_counter()
    try:
        rows = tournament.run()
    except ValueError as error:
        progress.close()
        print(f"noddy-tournament: {args.resume}: {error}", file=sys.stderr)
        return 2
    except external.ExternalBotError as error:
        progress.close()
        print(f"noddy-tournament: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        progress.close()
        where = f"; resume with --resume {path}" if path else " (give --out FILE to keep them)"
        print(f"noddy-tournament: interrupted after {progress.done} new games{where}",
              file=sys.stderr)
        return 130
    finally:
        if out is not None:
            out.close()
        records.close()
    progress.close()
    seconds = time.perf_counter() - started
    for line in summary_lines(rows, names, tournament.byes):
        print(line)
    print(f"{len(rows)} games ({len(rows) - len(done)} played now) in {seconds:.1f} s")
    if path:
        print(f"results written to {path}")
    if args.record:
        print(f"records written to {args.record}")
    return 0


def _print_header(settings: Settings, entrants: list[tuple[str, str]], swiss: int | None) -> None:
    table = f"{settings.players} players" + (" in partnerships" if settings.partnerships else "")
    opts = "".join(f", {k}={v}" for k, v in sorted(settings.options.items()))
    kind = f"Swiss, {swiss} rounds" if swiss is not None else "round robin"
    print(f"{settings.preset}, {table}{opts}: {kind} of {len(entrants)} players")
    print(f"{settings.games} games a pairing on the same deals, seed {settings.seed}")
    for name, spec in entrants:
        if name != spec:
            print(f"  {name} = {spec}")
    if any(external.is_external(spec) for _, spec in entrants):
        print(external.RATE_NOTE)


if __name__ == "__main__":
    sys.exit(main())
