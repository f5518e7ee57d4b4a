"""A club night's standings as plain data, and who plays whom in its next round.

Both are read from the event's own record (its entrants, and each round's pairings with
their :class:`~noddy.bots.crosstable.GameRow`\\ s) through the offline tournament's code, so
a club night is scored and paired exactly as ``noddy-tournament`` scores and pairs:
:func:`noddy.bots.crosstable.standings` (ACC points -- 2 a win, 3 a skunk win -- then spread),
:func:`noddy.bots.schedule.swiss_round` and :func:`~noddy.bots.schedule.round_robin`,
:func:`noddy.bots.ratings.bradley_terry` for the rating estimate.

**Byes.**  The ACC's rules say nothing of a bye in a qualifying round (its published rules
give byes only in playoff brackets, where a bye is a free pass to the next round).  A club
night scores a bye as the pairing won plainly: :data:`WIN_POINTS` for each game the pairing
would have played, no game, no win and no spread (no cards were played, so nothing is
known of the margin).  Why: a player sits out only because the field is odd, through no
fault of theirs, and a Swiss gives the bye to the lowest-ranked player who has not had one,
who would otherwise fall further behind for it; clubs that pair an odd field commonly give
the bye the value of a won game, as a chess Swiss gives it a won game's point.

**Deals.**  :func:`board_seeds`: with duplicate deals every board of a round has the same
seeds -- the round's match seed through :func:`noddy.bots.results.game_seeds`, so games
``2k`` and ``2k + 1`` share a deal and the pairing plays it both ways -- and otherwise each
board has its own match seed and each game its own deal.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from noddy.bots.crosstable import WIN_POINTS, GameRow, Standing, standings, wins_matrix
from noddy.bots.ratings import Rating, bradley_terry
from noddy.bots.results import deal_seed, game_seeds
from noddy.bots.schedule import swiss_round

from .club_types import Entrant, EventDefinition, Round


class Event(Protocol):
    """What is read here of a :class:`~noddy.server.model.club.Event` (named by its parts
    so that this module imports none of the state machine's)."""

    definition: EventDefinition
    state: str
    entrants: dict[str, Entrant]
    rounds: list[Round]
    schedule: list[list[list[str]]]
    field: list[str]
    ratings_memo: tuple[tuple[int, tuple[str, ...]], dict[str, Rating]] | None

    @property
    def total_rounds(self) -> int | None: ...


def round_seed(event_seed: int, number: int) -> int:
    """The match seed of round ``number`` of the event on ``event_seed`` (53 bits)."""
    return random.Random(f"noddy-club:{event_seed}:{number}").getrandbits(53)


def board_seeds(definition: EventDefinition, number: int, board: int) -> list[int]:
    """The deal seed of each game of board ``board`` of round ``number`` (see the module doc)."""
    games = definition.games_per_pairing
    if definition.duplicate:
        return game_seeds(round_seed(definition.seed, number), games)
    match = random.Random(f"noddy-club:{definition.seed}:{number}:{board}").getrandbits(53)
    return [deal_seed(match, 2 * game) for game in range(games)]


def bye_points(definition: EventDefinition) -> int:
    """What a bye scores: a plain win for each game the pairing would have played."""
    return WIN_POINTS * definition.games_per_pairing


def game_rows(event: Event) -> list[GameRow]:
    """Every game of the event with a result or a forfeit, round by round, board by board."""
    return [row for number in event.rounds for pairing in number.pairings for row in pairing.games]


def table(event: Event) -> list[Standing]:
    """Every entrant's standing (withdrawn and removed ones too), best first."""
    names = list(event.entrants)
    byes = [number.bye for number in event.rounds if number.bye is not None]
    ranked = standings(game_rows(event), names, byes, bye_points(event.definition))
    by_name = {standing.name: standing for standing in ranked}
    games = event.definition.games_per_pairing
    for number in event.rounds:
        for pairing in number.pairings:
            if len(pairing.forfeit_by) == 2:  # a double no-show: no rows, both forfeit
                for name in pairing.forfeit_by:
                    by_name[name].forfeits += games - len(pairing.games)
    return ranked


def next_pairings(event: Event, number: int) -> tuple[list[tuple[str, str]], str | None]:
    """Who plays whom in round ``number``, and who sits it out.  A round robin follows the
    schedule made at the start (a pairing with someone who has left is forfeited by the
    caller); a Swiss pairs the entrants still in, ranked by the standings (the first round
    in the order they entered), never a repeat while another pairing is possible."""
    if event.definition.format == "round-robin":
        pairs = [(a, b) for a, b in event.schedule[number - 1]]
        seated = {name for pair in pairs for name in pair}
        sitting = [name for name in event.field if name not in seated]
        return pairs, (sitting[0] if sitting else None)
    active = [name for name, entrant in event.entrants.items() if entrant.active]
    if number == 1:
        ranked = active
    else:
        ranked = [s.name for s in table(event) if event.entrants[s.name].active]
    met = {frozenset((p.a, p.b)) for past in event.rounds for p in past.pairings}
    byes = [past.bye for past in event.rounds if past.bye is not None]
    return swiss_round(ranked, met, byes)


def _ratings(event: Event) -> dict[str, Rating]:
    """Each entrant's rating estimate from the games played (not forfeits) in the rounds
    finished so far, worked out once a round: the estimate costs about 0.2 s of CPU for a
    full field of 64 after a few rounds (``bench/club.py``), too much for the server's event
    loop after every game; the points and spread beside it are live."""
    finished = [number for number in event.rounds if number.finished_at is not None]
    key = (len(finished), tuple(event.entrants))
    if event.ratings_memo is None or event.ratings_memo[0] != key:
        played = [row for number in finished for pairing in number.pairings for row in pairing.games
                  if row.forfeit is None]
        event.ratings_memo = (key, bradley_terry(list(event.entrants), wins_matrix(played)))
    return event.ratings_memo[1]


def standings_view(event: Event) -> dict[str, Any]:
    """The live cross-table as plain data: per entrant (best first) its rank, kind, entry
    status, games, wins, skunk wins, byes, forfeits, ACC points, spread, its rating estimate
    with the 95 % interval (as of the last round finished, ``rated_rounds``; games played
    only: a forfeit says nothing of play), and its games won and played against each
    opponent met."""
    ranked = table(event)
    ratings = _ratings(event)
    rows = []
    for rank, standing in enumerate(ranked, start=1):
        entrant, rating = event.entrants[standing.name], ratings[standing.name]
        rows.append({
            "rank": rank, "name": standing.name, "kind": entrant.kind, "status": entrant.status,
            "games": standing.games, "wins": standing.wins, "skunk_wins": standing.skunk_wins,
            "byes": standing.byes, "forfeits": standing.forfeits, "points": standing.points,
            "spread": standing.spread, "rating": round(rating.rating, 1),
            "low": round(rating.low, 1), "high": round(rating.high, 1),
            "against": {other: [standing.beat.get(other, 0), met]
                        for other, met in sorted(standing.met.items())}})
    return {"event": event.definition.id, "title": event.definition.title, "state": event.state,
            "round": len(event.rounds), "rounds": event.total_rounds,
            "rated_rounds": sum(number.finished_at is not None for number in event.rounds), "rows": rows}
