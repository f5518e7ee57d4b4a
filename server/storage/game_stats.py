"""Statistics: one summary row per seat of each finished game, and the ``stats`` answer read
from those rows.

Why rows and not a replay per request: a player's figures (pegging, hand and crib points per
deal, the best hand, skunks) are in the events of their games, which are stored only as
actions (:mod:`noddy.server.storage.records`); replaying thousands of games for each ``stats``
request would take seconds.  So when a game finishes, storage counts its events once -- on
the database thread, in the transaction that records its result -- and writes a ``game_stats``
row per seat (:func:`seat_summaries`).  The events are the finished game's own, which the
server hands over with its result (``GameFinished.log``), not a replay of what was stored
(issue 34: that replay was half of storage's work in a match of quick games); a game finished
without them (a record made elsewhere) is replayed from the database as before.  Games
finished before the table existed are summed up once when the database is opened
(:func:`backfill`).  Each row is also added to its person's
running sums per preset (``stats_totals``), so ``stats`` reads those few sums, the best hand
per preset and the newest rating points, each by an index (:func:`read_stats`): the same
work for ten games as for ten thousand.

How each figure is counted (docs/PROTOCOL.md, ``stats``, says the same to a stranger):

* *pegging*: the seat's ``scored`` events of reason ``play`` (the turned-up Jack and the
  first deal's 3 points are in none of the three);
* *hand*: its own show (``show``; counting by hand, its ``claim`` for its show: what it
  pegged, not what the hand held);
* *crib*: its own crib, as dealer (``crib``, or the ``claim`` for it); muggins points taken
  from another's show are in none of the three;
* per deal: pegging and hand over every deal the seat was dealt into, crib over the deals
  it held the crib in (presets with a crib);
* the best hand: the show (hand + turn-up) that held the most (counted by hand: its true
  worth, once counted), the first such;
* a skunk *given*: the seat's side won with a skunk (the outcome's worst, see
  :mod:`noddy.engine.outcome`); *taken*: its side lost and its own score was below a skunk
  line (three-handed, each loser is judged on its own);
* the time played: the games' ``duration_s`` (from the first deal to the end; a game stored
  before durations were kept counts from its record's ``started_at`` to ``finished_at``),
  summed and per game.  Read from the games' records by the person's rows, so it is the
  one figure whose work grows with the games played (an index walk and a row per game);
* the rating: the seat's rating after the game, when the game was rated (``null`` for games
  summed up by the backfill: the ratings of the time were not stored).

A seat is credited to the person dealt into it for the whole game: a record does not say
when a person left and a computer took the seat over (see ``stats`` in PROTOCOL.md).

A person is their account, not their name (issue 31): each row names the account dealt into
its seat (``account``; 0: none -- a guest, a computer, a game from before accounts), and
``stats`` of a registered name reads that account's rows only, so whoever registers a name
given up starts with nothing of the first owner's (see :func:`read_stats`).  The rows are
kept, not deleted, at ``unregister``: they are the games' facts, which the records keep too.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from typing import Any, Iterable, Iterator, Mapping

from noddy.engine import Event, judge_skunk
from noddy.protocol import compact_json

from ..model.result import DURATION_DIGITS
from ..model.table_options import table_rules

log = logging.getLogger("noddy.server.storage")

#: The columns of a ``game_stats`` row, in the order :func:`seat_summaries` gives them.
COLUMNS = ("game_id", "seat", "kind", "name", "preset", "family", "private", "finished_at", "won",
           "deals", "cribs", "pegging", "hand", "crib", "best_points", "best_cards", "skunk_given",
           "skunk_taken", "rating", "account")

#: How many points of a family's rating history ``stats`` gives (the newest).
HISTORY_LIMIT = 200

_INSERT = (f"INSERT INTO game_stats ({', '.join(COLUMNS)}) "
           f"VALUES ({', '.join('?' * len(COLUMNS))}) ON CONFLICT DO NOTHING")

#: A game's row added to its person's sums for its preset (public and private apart).
_ADD_TO_TOTALS = (
    "INSERT INTO stats_totals (kind, name, account, preset, private, family, games, wins, deals, cribs, "
    "pegging, hand, crib, skunks_given, doubles_given, skunks_taken, doubles_taken) "
    "VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (kind, name, account, preset, private) DO UPDATE SET games = games + 1, "
    "wins = wins + excluded.wins, deals = deals + excluded.deals, cribs = cribs + excluded.cribs, "
    "pegging = pegging + excluded.pegging, hand = hand + excluded.hand, crib = crib + excluded.crib, "
    "skunks_given = skunks_given + excluded.skunks_given, "
    "doubles_given = doubles_given + excluded.doubles_given, "
    "skunks_taken = skunks_taken + excluded.skunks_taken, "
    "doubles_taken = doubles_taken + excluded.doubles_taken")


def seat_summaries(record: Mapping[str, Any], ratings: Mapping[tuple[str, str], float] | None = None,
                   log: Iterable[Event] | None = None) -> list[tuple[Any, ...]]:
    """The ``game_stats`` rows (one per seat, :data:`COLUMNS`) of a finished game's complete
    record (its events filled in); ``ratings``: each (kind, name)'s rating after the game.

    ``log``: the game's events as the engine made them (the finished game's ``Game.log``,
    which :class:`~noddy.server.storage.records.GameFinished` carries), read in place of the
    record's ``opening`` and ``steps`` (then not read: they may be None).  Why: the record's
    events are only to be had by replaying the game, a few milliseconds of the engine per
    game on the thread that writes every table's moves; the log is the very events that
    replay would make again (the engine is deterministic), already made."""
    events: Iterable[Mapping[str, Any]]
    if log is None:
        events = list(record["opening"])
        for step in record["steps"]:
            events.extend(step["events"])
    else:
        events = _counted_facts(log)
    rules = table_rules(record["preset"], record["players"], record["partnerships"], record["options"])
    seats = {s["seat"]: s for s in record["seats"]}
    players = record["players"]
    team = (lambda seat: seat % 2) if record["partnerships"] else (lambda seat: seat)
    deals = 0
    cribs = [0] * players
    pegging, hand, crib = [0] * players, [0] * players, [0] * players
    best: list[tuple[int, list[str]] | None] = [None] * players
    turn_up: str | None = None
    counting: str | None = None  # counted by hand: whose show is being claimed ("show"/"crib")
    for event in events:
        kind = event["kind"]
        if kind == "deal_started":
            deals += 1
            if rules.has_crib:
                cribs[event["dealer"]] += 1
        elif kind == "turned_up":
            turn_up = event["card"]
        elif kind == "counting":
            counting = event["reason"]
        elif kind == "scored":
            seat, reason, points = event["seat"], event["reason"], event["points"]
            if reason == "claim":
                reason = counting or "show"
            if reason == "play":
                pegging[seat] += points
            elif reason == "show":
                hand[seat] += points
                if event["cards"] is not None:
                    _better(best, seat, points, event["cards"], turn_up)
            elif reason == "crib":
                crib[seat] += points
        elif kind == "counted" and event["reason"] == "show":
            _better(best, event["seat"], event["worth"], event["cards"], turn_up)
    result = record["result"] or {}
    winning = set(result.get("winning_seats", ()))
    scores = result.get("scores", [])
    given = result.get("skunk", "none")
    rows = []
    for seat in range(players):
        who = seats.get(seat, {"kind": "human", "name": "?", "level": None})
        name = who["level"] if who["kind"] == "computer" else who["name"]
        won = seat in winning
        taken = "none"
        if not won and given != "none" and scores:
            side, winner = team(seat), result["winner"]
            taken = judge_skunk((scores[winner], scores[side]), 0, rules.target, rules.skunk_margins)
        top = best[seat]
        rows.append((record["id"], seat, who["kind"], name, record["preset"], record["family"],
                     int(bool(record.get("private"))), record["finished_at"], int(won), deals,
                     cribs[seat], pegging[seat], hand[seat], crib[seat],
                     None if top is None else top[0], None if top is None else compact_json(top[1]),
                     given if won else "none", taken,
                     None if ratings is None else ratings.get(("bot" if who.get("bot") else who["kind"], name)),
                     _account_of(who)))
    return rows


def _counted_facts(log: Iterable[Event]) -> Iterator[dict[str, Any]]:
    """The events of ``log`` that :func:`seat_summaries` counts, each as the part of its
    ``to_dict()`` that it reads (the same keys and values): the rest of a full ``to_dict``
    (a score's items and announcement) would be work for nothing.  Every other event is
    passed over, as the count passes over it."""
    any_event: Iterable[Any] = log  # each read by the fields of its kind's class
    for event in any_event:
        kind = event.kind
        if kind == "scored":
            cards = event.cards
            yield {"kind": kind, "seat": event.seat, "reason": event.reason, "points": event.points,
                   "cards": None if cards is None else [card.text for card in cards]}
        elif kind == "deal_started":
            yield {"kind": kind, "dealer": event.dealer}
        elif kind == "turned_up":
            yield {"kind": kind, "card": event.card.text}
        elif kind == "counting":
            yield {"kind": kind, "reason": event.reason}
        elif kind == "counted":
            yield {"kind": kind, "seat": event.seat, "reason": event.reason, "worth": event.worth,
                   "cards": [card.text for card in event.cards]}


def _account_of(seat: Mapping[str, Any]) -> int:
    """The account that sat in a stored seat: its id, or 0 for none (a guest, a computer, or
    a game stored before accounts), which no account has (their ids start at 1)."""
    account = seat.get("account") if seat.get("kind") == "human" else None
    return int(account) if isinstance(account, int) else 0


def _better(best: list[tuple[int, list[str]] | None], seat: int, points: int, cards: list[str],
            turn_up: str | None) -> None:
    """Keep ``cards`` (with the turn-up) as ``seat``'s best hand if they hold more."""
    current = best[seat]
    if current is None or points > current[0]:
        best[seat] = (points, [*cards, *([turn_up] if turn_up else [])])


def write_summaries(db: sqlite3.Connection, rows: Iterable[tuple[Any, ...]]) -> None:
    """Write ``game_stats`` rows and add each to its person's ``stats_totals`` -- once: a row
    already there (the same game and seat) is left as it is and not added again."""
    for row in rows:
        if db.execute(_INSERT, row).rowcount != 1:
            continue
        (_, _, kind, name, preset, family, private, _, won, deals, cribs, pegging, hand, crib,
         _, _, given, taken, _, account) = row
        db.execute(_ADD_TO_TOTALS, (kind, name, account, preset, private, family, won, deals, cribs, pegging,
                                    hand, crib, int(given != "none"), int(given == "double"),
                                    int(taken != "none"), int(taken == "double")))


def backfill(db: sqlite3.Connection, record_of: Any) -> int:
    """Sum up every finished game that has no ``game_stats`` rows yet (stored before the
    table existed), each by replaying it (``record_of(game_id)``: its complete record);
    returns how many.  A game that cannot be replayed is logged and left out."""
    missing = [game_id for (game_id,) in db.execute(
        "SELECT id FROM games AS g WHERE status = 'finished' AND result IS NOT NULL "
        "AND NOT EXISTS (SELECT 1 FROM game_stats AS s WHERE s.game_id = g.id) ORDER BY id")]
    if not missing:
        return 0
    log.info("summing up %d stored games for the statistics", len(missing))
    done = 0
    for game_id in missing:
        try:
            rows = seat_summaries(record_of(game_id))
        except (ValueError, KeyError, TypeError, IndexError) as exc:
            log.error("game %d: no statistics (%s)", game_id, exc)
            continue
        db.execute("BEGIN IMMEDIATE")
        try:
            write_summaries(db, rows)
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        done += 1
    return done


def read_stats(db: sqlite3.Connection, name: str, account: int, preset: str | None,
               private: bool) -> dict[str, Any]:
    """The ``stats`` answer's figures for the person ``name`` as the account ``account`` (0:
    the games played under that name without an account): one entry per preset played
    (``preset``: only that preset, or that family's), and the rating history per family.
    Without ``private``, games at private tables are left out (someone else is asking).

    Why the account and not the name alone: a name given up (``unregister``) may be registered
    again by someone else, who must start with none of the first owner's figures -- least of
    all the private ones (issue 31).  An account keeps one name for its life, so (name,
    account) is the account's rows, and a prefix of every index."""
    where = "kind = 'human' AND name = ? AND account = ?"
    args: list[Any] = [name, account]
    if preset is not None:
        where += " AND (preset = ? OR family = ?)"
        args += [preset, preset]
    if not private:
        where += " AND private = 0"
    presets = []
    for row in db.execute(
            f"SELECT preset, family, sum(games), sum(wins), sum(deals), sum(cribs), sum(pegging), "
            f"sum(hand), sum(crib), sum(skunks_given), sum(doubles_given), sum(skunks_taken), "
            f"sum(doubles_taken) FROM stats_totals WHERE {where} GROUP BY preset ORDER BY preset",
            args).fetchall():
        (name_of, family, games, wins, deals, cribs, pegging, hand, crib,
         skunks, doubles, skunked, doubled) = row
        # The preset's best hand: the most points, the earliest game of them (an index walk).
        top = db.execute(
            f"SELECT best_points, best_cards, game_id FROM game_stats WHERE {where} AND preset = ? "
            f"AND best_points IS NOT NULL ORDER BY best_points DESC, game_id LIMIT 1",
            [*args, name_of]).fetchone()
        seconds = db.execute(
            f"SELECT sum(coalesce(json_extract(result, '$.duration_s'), finished_at - started_at)) "
            f"FROM games WHERE id IN (SELECT game_id FROM game_stats WHERE {where} AND preset = ?)",
            [*args, name_of]).fetchone()[0] or 0.0
        presets.append({
            "preset": name_of, "family": family, "games": games, "wins": wins,
            "win_rate": round(wins / games, 3), "deals": deals, "cribs": cribs,
            "points": {"pegging": pegging, "hand": hand, "crib": crib},
            "per_deal": {"pegging": _average(pegging, deals), "hand": _average(hand, deals),
                         "crib": _average(crib, cribs)},
            "best_hand": None if top is None else {
                "cards": json.loads(top[1]), "points": top[0], "game": top[2]},
            "skunks_given": skunks, "double_skunks_given": doubles,
            "skunks_taken": skunked, "double_skunks_taken": doubled,
            "duration_s": {"total": round(seconds, DURATION_DIGITS),
                           "per_game": round(seconds / games, DURATION_DIGITS)},
        })
    ratings = []
    for family in ("noddy", "cribbage"):
        if preset is not None and preset != family and not any(p["family"] == family for p in presets):
            continue
        points = db.execute(
            f"SELECT game_id, finished_at, rating FROM game_stats WHERE {where} AND family = ? "
            f"AND rating IS NOT NULL ORDER BY game_id DESC LIMIT ?", [*args, family, HISTORY_LIMIT]).fetchall()
        if points:
            ratings.append({"family": family, "history": [
                {"game": game_id, "at": at, "rating": round(rating, 1)} for game_id, at, rating in reversed(points)]})
    return {"presets": presets, "ratings": ratings}


def _average(total: int, count: int) -> float | None:
    """Points per deal (or per crib), to two places; None when there was none."""
    return round(total / count, 2) if count else None
