"""``noddy-bot``: the bridge that lets an engine play on a Noddy server.

::

    noddy-bot HOST:PORT --engine "python examples/bots/python/engine.py"            # vs a computer
    noddy-bot HOST:PORT --engine "python engine.py" --accept-challenges --games 0   # wait in the lobby
    noddy-bot HOST:PORT --engine "python engine.py" --seek cribbage --name mybot --password pw
    noddy-bot HOST:PORT --table 3 --seat 1 --name mybot --engine "python engine.py"  # noddy-match's way

The bridge speaks docs/PROTOCOL.md so that the engine need not: it connects, says ``hello``
(logging in with ``--password``, registering the name first with ``--register``), then
creates a table against a computer, sits where it is told (``--table``/``--seat``, the
convention ``noddy-match`` starts a ``cmd:`` bot with), accepts challenges or seeks games,
and plays game after game.  For every decision it writes one JSON line to the engine's
standard input and reads its choice from the engine's standard output
(:mod:`noddy.bots.engine_line`; the page for engine authors is docs/PROTOCOL.md, "Engines
(noddy-bot)").  A dropped connection is taken up again with the resume token (or the
password), the game going on from the server's ``snapshot``.

``noddy-match`` and ``noddy-tournament`` take an engine as a player, ``engine:COMMAND``: it
is run as ``cmd:`` this bridge with ``--engine COMMAND`` (:func:`noddy.bots.external.parse_command`).
It prints one line a game, as the example bots do, and exits 0 (1 on an error it could not
get past, the reason on standard error).
"""

from __future__ import annotations

import argparse
import logging
import shlex
import sys
from typing import Any, Sequence

from .bridge_link import Link, Refused
from .engine_line import Engine, EngineError, SeatState


def play_game(link: Link, engine: Engine, seat: int, challenged: bool = False) -> bool | None:
    """Play one game from the ``ready`` already sent to its end; True if this seat won, None
    if the table closed first (a match table whose games are played) or, at a challenge's
    table, the opponent left before it began."""
    state = SeatState(seat)
    pending: dict[str, Any] | None = None  # the action awaiting its reply: id, action, offer
    begun = False
    for message in link.messages():
        kind = message["type"]
        begun = begun or kind in ("event", "turn")
        if kind == "resumed":  # the connection dropped and was taken up again
            pending = None
        elif kind == "snapshot" and message.get("game") is not None:
            state.load(message["game"])
            if message.get("turn"):
                pending = _act(link, engine, state, message["turn"], pending)
        elif kind == "table_closed" and message["table"] == link.table:
            if not begun:
                link.closed = True
                return None
            raise ConnectionError(f"the table closed: {message.get('reason')}")
        elif kind == "event":
            event = message["event"]
            state.apply(event)
            if event["kind"] == "game_over":
                won = seat in event["winning_seats"]
                print(f"game over: {'won' if won else 'lost'} in seat {seat}, "
                      f"scores {event['scores']}", flush=True)
                return won
        elif kind == "turn":
            pending = _act(link, engine, state, message, pending)
        elif pending is not None and message.get("id") == pending["id"]:
            sent, offer, turn, pending = pending["action"], pending["offer"], pending["turn"], None
            if kind == "error" and message["code"] == "rate_limited":
                link.wait(message["retry_after"])  # nothing happened: send it again
                pending = {**_send(link, sent), "offer": offer, "turn": turn}
            elif kind == "error":
                # Nothing changed and no new turn follows: ask again without that action.
                print(f"action refused: {message['code']}: {message['message']}", file=sys.stderr)
                offer = [a for a in offer
                         if a != sent and not ("min" in a and a["action"] == sent.get("action"))]
                if not offer:
                    raise EngineError("every legal action was refused")
                pending = _act(link, engine, state, turn, None, offer)
        elif (challenged and kind == "table" and message["table"]["status"] == "waiting"
              and None in message["table"]["seats"]):
            print("the opponent left before the game began", flush=True)
            return None
        elif kind in ("shutdown", "bye"):
            raise ConnectionError(f"{kind}: {message.get('reason') or message.get('message')}")
    raise AssertionError("unreachable")


def _send(link: Link, action: dict[str, Any]) -> dict[str, Any]:
    return {"id": link.send({"type": "action", **action}), "action": action}


def _act(link: Link, engine: Engine, state: SeatState, turn: dict[str, Any],
         pending: dict[str, Any] | None,
         offer: list[dict[str, Any]] | None = None) -> dict[str, Any] | None:
    """Ask the engine about ``turn`` and send its choice, unless an action of ours is still
    awaiting its reply (a turn that came meanwhile may be stale) or nothing is offered."""
    offer = offer if offer is not None else turn["legal_actions"]
    if pending is not None or not offer:
        return pending
    action = engine.choose(state.decision(turn, offer))
    return {**_send(link, action), "offer": offer, "turn": turn}


def wait_for_games(link: Link, engine: Engine, games: int, seek: str | None) -> int:
    """In the lobby: accept every challenge (or ``seek`` a game of that preset), play it and
    come back, ``games`` times (0: for ever).  The games won."""
    wins = played = 0
    print("waiting in the lobby for challenges" if seek is None else f"seeking {seek}", flush=True)
    while games == 0 or played < games:
        if seek is not None:
            link.request({"type": "seek", "preset": seek, "ready": True})
            placed = next(m for m in link.messages() if m["type"] == "table" and "seat" in m)
            seat, table = placed["seat"], placed["table"]["id"]
            print(f"seek met: table {table} in seat {seat}", flush=True)
        else:
            challenge = next(m["challenge"] for m in link.messages() if m["type"] == "challenged")
            try:
                reply = link.request({"type": "accept", "challenge": challenge["id"], "ready": True})
            except Refused as error:  # the challenger went meanwhile: wait for the next
                print(f"noddy-bot: {error}", file=sys.stderr)
                continue
            seat, table = reply["seat"], reply["table"]["id"]
            print(f"accepted challenge {challenge['id']} from {challenge['from']}: "
                  f"table {table} in seat {seat}", flush=True)
        link.table, link.closed = table, False
        result = play_game(link, engine, seat, challenged=True)
        if not link.closed:
            link.request({"type": "leave"})
        link.table = None
        if result is not None:
            played += 1
            wins += result
    return wins


def at_table(link: Link, engine: Engine, args: argparse.Namespace) -> tuple[int, int]:
    """Create a table against a computer, or sit at ``--table``; play its games.  The games
    won and played."""
    if args.table is None:
        reply = link.request({"type": "create_table", "preset": args.preset, "players": 2})
        link.table = reply["table"]["id"]
        computer: dict[str, Any] = {"type": "add_computer", "seat": 1}
        if args.level:
            computer["level"] = args.level
        link.request(computer)
        seat = 0
    else:
        link.table = args.table
        reply = link.request({"type": "sit", "table": args.table, "seat": args.seat,
                              "password": args.table_password})
        seat = reply.get("seat", args.seat)
        if seat is None:
            seat = next(s["seat"] for s in reply["table"]["seats"] if s and s["name"] == link.name)
    print(f"playing at table {reply['table']['id']} in seat {seat}", flush=True)
    games = args.games if args.games is not None or args.table is not None else 1
    wins = played = 0
    while games is None or games == 0 or played < games:
        link.request({"type": "ready"})
        won = None if link.closed else play_game(link, engine, seat)
        if won is None:  # the table closed: its games are all played
            break
        wins, played = wins + won, played + 1
    return wins, played


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="noddy-bot",
        description="Play on a Noddy server with an engine: a program that reads one JSON "
                    "decision a line and answers with its choice (docs/PROTOCOL.md, Engines).")
    parser.add_argument("address", help="the server, HOST:PORT")
    parser.add_argument("--engine", required=True, metavar="COMMAND",
                        help="the engine program and its arguments, as one string")
    parser.add_argument("--name", default="enginebot", help="the name to play under")
    parser.add_argument("--password", help="the name's password (a registered name)")
    parser.add_argument("--register", action="store_true",
                        help="register the name with --password if it is not yet")
    parser.add_argument("--table", type=int, help="sit at this table instead of creating one")
    parser.add_argument("--seat", type=int, help="the seat to take (default: the first free)")
    parser.add_argument("--table-password", help="the table's password, if it is private")
    parser.add_argument("--preset", default="noddy", help="the preset of a new table")
    parser.add_argument("--level", help="the computer opponent's level at a new table")
    parser.add_argument("--games", type=int,
                        help="games to play (default: 1 at a table of our own or in the lobby; "
                             "with --table, until the table closes; 0: no end)")
    lobby = parser.add_mutually_exclusive_group()
    lobby.add_argument("--accept-challenges", action="store_true",
                       help="wait in the lobby and play every challenge")
    lobby.add_argument("--seek", metavar="PRESET", help="seek games of PRESET in the lobby")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Connect, play as the command line says, say goodbye; the exit status."""
    args = build_parser().parse_args(argv)
    if args.register and not args.password:
        build_parser().error("--register needs --password")
    logging.basicConfig(level=logging.WARNING, format="noddy-bot: %(message)s")
    host, _, port = args.address.rpartition(":")
    engine: Engine | None = None
    try:
        engine = Engine(shlex.split(args.engine))
        link = Link(host or "127.0.0.1", int(port), args.name, args.password)
        if args.register:
            link.register()
        if args.accept_challenges or args.seek:
            games = 1 if args.games is None else args.games
            wins = wait_for_games(link, engine, games, args.seek)
            print(f"won {wins} of {games} games", flush=True)
        else:
            wins, played = at_table(link, engine, args)
            if played > 1:
                print(f"won {wins} of {played} games", flush=True)
        link.say_bye()
        return 0
    except (OSError, ConnectionError, Refused, EngineError, ValueError) as error:
        print(f"noddy-bot: {error}", file=sys.stderr)
        return 1
    finally:
        if engine is not None:
            engine.close()


if __name__ == "__main__":
    sys.exit(main())
