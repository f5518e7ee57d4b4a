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
from collections import Counter
from functools import lru_cache
from itertools import combinations
from typing import Any, Iterator

RANKS = "A23456789TJQK"
VALUES = {rank: min(order + 1, 10) for order, rank in enumerate(RANKS)}  # ace 1 ... ten-cards 10
ORDER = {rank: order for order, rank in enumerate(RANKS)}  # ace 0 ... king 12, for runs


DECK = [rank + suit for rank in RANKS for suit in "CDHS"]
CRIB_PRESETS = ("cribbage", "five-card-cribbage")  # the dealer owns a crib; Noddy has none
# The old Noddy presets score a twenty-five and a flush in the play, and a run of three 2.
OLD_NODDY = ("noddy", "noddy-ducoeur", "noddy-holme")


def value(card: str) -> int:
    """What a card counts: ace 1, number cards their number, T J Q K ten."""
    return VALUES[card[0]]


def is_run(cards: list[str]) -> bool:
    """Three or more cards of consecutive ranks, in any order."""
    ranks = sorted(ORDER[card[0]] for card in cards)
    return len(cards) > 2 and ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def worth(cards: list[str]) -> int:
    """What these cards would show without a turn-up: fifteens, pairs and runs (flushes and
    the knave are left out: a rough guess is enough to keep the better cards)."""
    # Only the ranks count, so the answer is remembered per set of ranks (a hand of six has
    # fifteen discards to weigh, and hands repeat): the ranks stand in for the cards.
    return worth_of_ranks("".join(sorted(card[0] for card in cards)))


@lru_cache(maxsize=None)  # at most a few thousand sets of up to six ranks
def worth_of_ranks(cards: str) -> int:
    """:func:`worth` of cards given by their ranks alone (``"55JJ"``)."""
    points = 2 * sum(1 for k in range(2, len(cards) + 1) for subset in combinations(cards, k)
                     if sum(map(value, subset)) == 15)
    points += 2 * sum(1 for a, b in combinations(cards, 2) if a[0] == b[0])
    for length in range(len(cards), 2, -1):  # the longest runs, each counted (double runs)
        runs = sum(1 for subset in combinations(cards, length) if is_run(list(subset)))
        if runs:
            return points + length * runs
    return points


def play_points(preset: str, pile: list[str], count: int) -> int:
    """What the last card of ``pile`` scores at once: fifteen, twenty-five (old Noddy),
    thirty-one, pairs with the cards just before it, runs, and flushes (old Noddy)."""
    # Remembered per pile: the reply to every card is weighed at every play, so the same
    # piles come again and again.
    return pile_points(preset in OLD_NODDY, pile_key(preset, pile), count)


def pile_key(preset: str, pile: list[str]) -> tuple[str, ...] | str:
    """What a pile's points depend on, which they are remembered by: its ranks (``"T5"``),
    or at old Noddy, which scores flushes in the play, its cards."""
    return tuple(pile) if preset in OLD_NODDY else "".join(card[0] for card in pile)


@lru_cache(maxsize=100_000)  # a few MB at most
def pile_points(old: bool, pile: tuple[str, ...] | str, count: int) -> int:
    """:func:`play_points` of a pile given by its :func:`pile_key`."""
    points = 2 if count in (15, 31) or (count == 25 and old) else 0
    same = 1
    while same < len(pile) and pile[-1 - same][0] == pile[-1][0]:
        same += 1
    points += {2: 2, 3: 6, 4: 12}.get(same, 0)
    run, ranks = 0, set()  # the longest run at the end: its ranks all differ and are adjacent
    for n in range(1, len(pile) + 1):
        rank = RANKS.index(pile[-n][0])
        if rank in ranks:
            break
        ranks.add(rank)
        if n >= 3 and max(ranks) - min(ranks) == n - 1:
            run = n
    points += run - 1 if old and run == 3 else run
    if not old:  # (and the pile is of ranks alone)
        return points
    flush = 1
    while flush < len(pile) and pile[-1 - flush][1] == pile[-1][1]:
        flush += 1
    return points + flush if flush >= 3 else points


#: What a reply could be (:func:`reply_kinds`): (what it adds to a pile's key, what it
#: counts, how many unseen cards it stands for) for each kind of card; how many are unseen.
Replies = tuple[list[tuple[Any, int, int]], int]


def reply_kinds(known: dict[str, Any]) -> Replies:
    """The cards we cannot see, as the replies to try: each rank once, weighed by how many
    unseen cards have it (about 3 times faster than each card), but at old Noddy, where
    suits make flushes, each card."""
    seen = set(known["hand"]) | set(known["played"]) | {known["turn_up"]}
    unseen = [card for card in DECK if card not in seen]
    old = known["preset"] in OLD_NODDY
    kinds = Counter(card if old else card[0] for card in unseen)
    return [((kind,) if old else kind, value(kind), times) for kind, times in kinds.items()], len(unseen)


def action_value(known: dict[str, Any], action: dict[str, Any],
                 replies: Replies | None = None) -> float:
    """How good an action looks.  A discard: the show of the cards kept, plus (our crib) or
    minus (theirs) half what the laid-away cards make.  A play: what it pegs now, minus
    what the next player could expect to peg in reply, averaged over the cards we cannot
    see -- which is what keeps it from leaving the count on 5 or 21 (or 15 at Noddy, where
    a ten makes twenty-five) -- and, between equals, the higher card (low ones squeeze in
    near 31).  ``replies``: :func:`reply_kinds` of ``known``, if worked out already."""
    if action["action"] == "discard":
        kept = [card for card in known["hand"] if card not in action["cards"]]
        crib = 1 if known["crib"] == known["seat"] else -1
        return worth(kept) + crib * worth(action["cards"]) / 2
    if action["action"] != "play":
        return 0.0
    old = known["preset"] in OLD_NODDY
    pile = pile_key(known["preset"], known["pile"] + [action["card"]])
    count = known["count"] + value(action["card"])
    reply = 0.0
    # Nobody replies if every other seat has no cards left or has said go in this count.
    others = [s for s, n in enumerate(known["hand_sizes"])
              if n and s != known["seat"] and s not in known["passed"]]
    if count < 31 and others:
        kinds, unseen = replies or reply_kinds(known)
        reply = sum(times * pile_points(old, pile + kind, count + points)
                    for kind, points, times in kinds if count + points <= 31) / unseen
    return pile_points(old, pile, count) - reply + value(action["card"]) / 100


def choose(legal: list[dict[str, Any]], known: dict[str, Any]) -> dict[str, Any]:
    """Pick one of the legal actions the server offered: the best by :func:`action_value`.
    At a table that counts shows by hand (``counting: "manual"``) a claim comes as a range:
    this small bot does not count, so it claims 0 (always accepted) and lets every claim
    stand (``pass``)."""
    if legal[0]["action"] == "claim":
        return {"action": "claim", "points": legal[0]["min"]}
    if any(a["action"] == "pass" for a in legal):
        return {"action": "pass"}
    replies = reply_kinds(known) if legal[0]["action"] == "play" else None  # the same for each
    return max(legal, key=lambda action: action_value(known, action, replies))


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
    # What this seat knows (see action_value): its hand, the cards of the current count
    # (pile) and of the whole deal (played), the turn-up, the crib's owner, the count.
    known: dict[str, Any] = {"seat": seat, "preset": "noddy", "hand": [], "pile": [],
                             "played": [], "turn_up": None, "crib": None, "count": 0,
                             "hand_sizes": [], "passed": [], "players": 2}
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
            if event["kind"] == "game_started":
                known["preset"], known["players"] = event["preset"], event["players"]
            elif event["kind"] == "deal_started":
                known.update(hand=[], pile=[], played=[], turn_up=None,
                             crib=event["dealer"] if known["preset"] in CRIB_PRESETS else None)
                known["hand_sizes"], known["passed"] = [0] * known["players"], []
            elif event["kind"] == "count_reset":
                known["pile"], known["passed"] = [], []
            elif event["kind"] == "go":
                known["passed"].append(event["seat"])
            elif event["kind"] == "cards_dealt":
                known["hand_sizes"][event["seat"]] = event["count"]
                if event["seat"] == seat:
                    known["hand"] = list(event["cards"])
            elif event["kind"] == "discarded" and event["seat"] is not None:
                known["hand_sizes"][event["seat"]] -= event["count"]
                if event["seat"] == seat:
                    known["hand"] = [c for c in known["hand"] if c not in event["cards"]]
            elif event["kind"] == "turned_up":
                known["turn_up"] = event["card"]
            elif event["kind"] == "played":
                known["pile"].append(event["card"])
                known["played"].append(event["card"])
                known["hand_sizes"][event["seat"]] -= 1
                if event["card"] in known["hand"]:
                    known["hand"].remove(event["card"])
            elif event["kind"] == "game_over":
                won = seat in event["winning_seats"]
                print(f"game over: {'won' if won else 'lost'} in seat {seat}, "
                      f"scores {event['scores']}", flush=True)
                return won
        elif kind == "turn":
            # While our action is unanswered a turn may be stale: wait for the reply.
            if pending is None and message["legal_actions"]:
                options, known["count"] = message["legal_actions"], message["count"]
                pending = send_action(conn, choose(options, known))
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
                pending = send_action(conn, choose(options, known))
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
