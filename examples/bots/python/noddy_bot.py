#!/usr/bin/env python3
"""A complete Noddy bot in one file, using only the Python standard library.

It speaks the protocol of docs/PROTOCOL.md (JSON lines over TCP) and nothing else:

    python noddy_bot.py 127.0.0.1:3131                    # new table against a computer
    python noddy_bot.py 127.0.0.1:3131 --table 4 --seat 1 # take seat 1 of table 4
    python noddy_bot.py 127.0.0.1:3131 --accept-challenges --games 0  # wait in the lobby

With no ``--table`` it creates a two-player table, puts a computer player in the other
seat, says it is ready and plays to the end of the game (``--games K``: K games).  With
``--table`` it sits in that table's seat and plays game after game, saying ``ready`` again
after each, until the table closes -- how ``noddy-match`` runs it (docs/PROTOCOL.md, "Bots
and matches") -- or ``--games`` are played.  With ``--accept-challenges`` it waits in the
lobby, accepts every challenge (ready at once), plays the game and goes back to the lobby to
wait for the next (``--games 0``: for ever).  It prints one line per game and exits 0.
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
import time
from typing import Any, Iterator

RANKS = "A23456789TJQK"


def value(card: str) -> int:
    """What a card counts: ace 1, number cards their number, T J Q K ten."""
    return min(RANKS.index(card[0]) + 1, 10)


def play_points(pile: list[str], card: str, count: int) -> int:
    """A rough guess at what playing ``card`` scores at once: fifteen or thirty-one,
    pairs with the cards just played, and runs.  (Each preset has its own table of
    points; this is only meant to tell a good card from a dull one.)"""
    points = 2 if count + value(card) in (15, 31) else 0
    cards = pile + [card]
    same = 1
    while same < len(cards) and cards[-1 - same][0] == card[0]:
        same += 1
    points += {2: 2, 3: 6, 4: 12}.get(same, 0)
    for length in range(len(cards), 2, -1):  # the longest run ending with this card
        ranks = sorted(RANKS.index(c[0]) for c in cards[-length:])
        if all(b - a == 1 for a, b in zip(ranks, ranks[1:])):
            points += length
            break
    return points


def choose(legal: list[dict[str, Any]], pile: list[str], count: int) -> dict[str, Any]:
    """Pick one of the legal actions the server offered: the play that scores most,
    else the lowest card; a discard or a go is taken as offered.  At a table that counts
    shows by hand (``counting: "manual"``) a claim comes as a range: this small bot does not
    count, so it claims 0 (always accepted) and lets every claim stand (``pass``)."""
    if legal[0]["action"] == "claim":
        return {"action": "claim", "points": legal[0]["min"]}
    if any(a["action"] == "pass" for a in legal):
        return {"action": "pass"}
    plays = [a for a in legal if a["action"] == "play"]
    if not plays:
        return legal[0]
    return max(plays, key=lambda a: (play_points(pile, a["card"], count), -value(a["card"])))


class Connection:
    """One TCP connection: send a request with a fresh id, read messages one per line."""

    def __init__(self, host: str, port: int) -> None:
        # The server pings a silent client every 30 s: two minutes without a line means
        # it is gone.
        self.sock = socket.create_connection((host, port), timeout=120)
        self.reader = self.sock.makefile("r", encoding="utf-8")
        self.next_id = 0
        self.table: int | None = None  # the table we sit at
        self.closed = False  # our table has closed (its table_closed came)

    def send(self, message: dict[str, Any]) -> int:
        """Send ``message`` with a new ``id`` and return that id."""
        self.next_id += 1
        message = {**message, "id": self.next_id}
        self.sock.sendall((json.dumps(message) + "\n").encode())
        return self.next_id

    def messages(self) -> Iterator[dict[str, Any]]:
        """Every message the server sends, in order; its pings are answered on the way."""
        for line in self.reader:
            message = json.loads(line)
            if message["type"] == "ping":
                self.sock.sendall(b'{"type":"pong"}\n')
                continue
            yield message
        raise ConnectionError("the server closed the connection")

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send a request and return its reply, skipping pushes; raise on an error."""
        rid = self.send(message)
        for reply in self.messages():
            # (In the lobby the server tells of every table that closes: only ours counts.)
            if reply["type"] == "table_closed" and reply["table"] == self.table:
                self.closed = True
            if reply.get("id") == rid:
                if reply["type"] == "error" and reply["code"] == "rate_limited":
                    time.sleep(reply["retry_after"])  # nothing happened: try again
                    return self.request(message)
                if reply["type"] == "error":
                    raise RuntimeError(f"{message['type']} refused: "
                                       f"{reply['code']}: {reply['message']}")
                return reply
        raise AssertionError("unreachable")


def send_action(conn: Connection, action: dict[str, Any]) -> dict[str, Any]:
    """Send one of the legal actions as an ``action`` request; return it with its id."""
    return {"id": conn.send({"type": "action", **action}), "action": action}


def play_game(conn: Connection, seat: int, challenged: bool = False) -> bool | None:
    """Play one game from the ``ready`` already sent to its end; True if we won, None if
    the table closed instead (a match table whose games are all played).
    ``challenged``: the table was full (a challenge's), so an empty seat before the game
    means the opponent left, and None is returned."""
    pile: list[str] = []                # the cards of the current count
    count = 0                           # the running count of the latest turn
    options: list[dict[str, Any]] = []  # the legal actions we were last offered
    pending: dict[str, Any] | None = None  # our action awaiting its reply, with its id
    begun = False  # whether the game has begun (an event or a turn came)

    for message in conn.messages():
        kind = message["type"]
        begun = begun or kind in ("event", "turn")
        if kind == "table_closed" and message["table"] == conn.table and not begun:
            conn.closed = True
            return None
        if kind == "event":
            event = message["event"]
            if event["kind"] in ("deal_started", "count_reset"):
                pile = []
            elif event["kind"] == "played":
                # A count equal to the card's own value means a fresh count began with it.
                fresh = event["count"] == value(event["card"])
                pile = [event["card"]] if fresh else pile + [event["card"]]
            elif event["kind"] == "game_over":
                won = seat in event["winning_seats"]
                print(f"game over: {'won' if won else 'lost'} in seat {seat}, "
                      f"scores {event['scores']}", flush=True)
                return won
        elif kind == "turn":
            # While our action is unanswered a turn may be stale: wait for the reply.
            if pending is None and message["legal_actions"]:
                options, count = message["legal_actions"], message["count"]
                pending = send_action(conn, choose(options, pile, count))
        elif pending is not None and message.get("id") == pending["id"]:
            sent, pending = pending["action"], None
            if kind == "error" and message["code"] == "rate_limited":
                # Too fast for the server: nothing happened, so wait and send it again.
                time.sleep(message["retry_after"])
                pending = send_action(conn, sent)
            elif kind == "error":
                # A refused action changes nothing and no new turn follows: choose again
                # from the same offer, leaving out the action that was refused.
                print(f"action refused: {message['code']}: {message['message']}", file=sys.stderr)
                options = [a for a in options if a != sent]
                if not options:
                    raise RuntimeError("every legal action was refused")
                pending = send_action(conn, choose(options, pile, count))
        elif (challenged and kind == "table" and message["table"]["status"] == "waiting"
              and None in message["table"]["seats"]):
            print("the opponent left before the game began", flush=True)
            return None
        elif kind in ("shutdown", "bye") or (kind == "table_closed" and message["table"] == conn.table):
            raise ConnectionError(f"{kind}: {message.get('reason') or message.get('message')}")
    raise AssertionError("unreachable")


def accept_challenges(conn: Connection, games: int) -> int:
    """Wait in the lobby for challenges and play each one accepted, ``games`` of them (0: no
    end); back in the lobby after each.  The number of games won."""
    wins = played = 0
    print("waiting in the lobby for challenges", flush=True)
    while games == 0 or played < games:
        challenge = next(m["challenge"] for m in conn.messages() if m["type"] == "challenged")
        try:
            reply = conn.request({"type": "accept", "challenge": challenge["id"], "ready": True})
        except RuntimeError as error:  # the challenger went meanwhile: wait for the next
            print(f"noddy_bot: {error}", file=sys.stderr)
            continue
        seat = reply["seat"]
        conn.table, conn.closed = reply["table"]["id"], False
        print(f"accepted challenge {challenge['id']} from {challenge['from']}: "
              f"table {reply['table']['id']} in seat {seat}", flush=True)
        result = play_game(conn, seat, challenged=True)
        if not conn.closed:
            conn.request({"type": "leave"})
        conn.table = None
        if result is not None:
            played += 1
            wins += result
    return wins


def say_bye(conn: Connection) -> None:
    """Say goodbye and read until the server's answer (or its close): the name is free then."""
    rid = conn.send({"type": "bye"})
    try:
        next(m for m in conn.messages() if m.get("id") == rid)
    except (ConnectionError, StopIteration):
        pass


def main(argv: list[str] | None = None) -> int:
    """Read the command line, sit down at a table and play; the exit status."""
    parser = argparse.ArgumentParser(description="A small Noddy bot (see README.md).")
    parser.add_argument("address", help="the server, HOST:PORT")
    parser.add_argument("--name", default="pybot", help="the name to play under (default pybot)")
    parser.add_argument("--table", type=int, help="join this table instead of creating one")
    parser.add_argument("--seat", type=int, help="the seat to take (default: the first free)")
    parser.add_argument("--password", help="the table's password, if it is private")
    parser.add_argument("--preset", default="noddy",
                        help="the preset of a new table (default noddy)")
    parser.add_argument("--level", help="the computer opponent's level at a new table")
    parser.add_argument("--games", type=int, help="games to play (default: 1 at a table of our "
                        "own or with --accept-challenges, 0 there: no end; with --table, until "
                        "the table closes)")
    parser.add_argument("--accept-challenges", action="store_true",
                        help="wait in the lobby and play every challenge (see PROTOCOL.md)")
    args = parser.parse_args(argv)
    host, _, port = args.address.rpartition(":")

    try:
        conn = Connection(host or "127.0.0.1", int(port))
        next(conn.messages())  # the greeting
        conn.request({"type": "hello", "name": args.name, "version": 1, "bot": True})
        if args.accept_challenges:
            games = 1 if args.games is None else args.games
            wins = accept_challenges(conn, games)
            print(f"won {wins} of {games} games", flush=True)
            say_bye(conn)
            return 0
        if args.table is None:
            reply = conn.request({"type": "create_table", "preset": args.preset, "players": 2})
            conn.table = reply["table"]["id"]
            computer = {"type": "add_computer", "seat": 1}
            if args.level:
                computer["level"] = args.level
            conn.request(computer)
            seat = 0
        else:
            conn.table = args.table
            reply = conn.request({"type": "sit", "table": args.table, "seat": args.seat,
                                  "password": args.password})
            seat = args.seat if args.seat is not None else next(
                s["seat"] for s in reply["table"]["seats"] if s and s["name"] == args.name)
        print(f"playing at table {reply['table']['id']} in seat {seat}", flush=True)
        games = args.games if args.games is not None or args.table is not None else 1
        wins = played = 0
        while games is None or played < games:
            conn.request({"type": "ready"})  # after a game: ready for the next one
            won = None if conn.closed else play_game(conn, seat)
            if won is None:  # the table closed: its games are all played
                break
            wins, played = wins + won, played + 1
        if played > 1:
            print(f"won {wins} of {played} games", flush=True)
        say_bye(conn)
        return 0
    except (OSError, ConnectionError, RuntimeError) as error:
        print(f"noddy_bot: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
