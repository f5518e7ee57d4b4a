"""Driving a club night (:class:`noddy.server.model.club.Event`) in memory, as the server's
adapter will: open the tables it asks for, seat the players, report each game's result.

The clock is a number the test passes; nothing here reads the time.
"""

from __future__ import annotations

from typing import Any, Sequence

from noddy.server.model.club import Event, EventDefinition
from noddy.server.model.club_types import DealGame, Effect, OpenTables

#: One game's result as a test writes it: the winner, its score, the loser's, the skunk.
Result = tuple[str, int, int, str]


def definition(**changes: Any) -> EventDefinition:
    """A Swiss of 3 rounds of 2 games a pairing on duplicate deals, unless changed."""
    values: dict[str, Any] = {"id": 1, "title": "Tuesday club", "director": "dir", "format": "swiss",
                              "preset": "cribbage", "rounds": 3, "games_per_pairing": 2,
                              "duplicate": True, "forfeit_wait": 60.0, "round_pause": 30.0, "seed": 7}
    values.update(changes)
    return EventDefinition(**values)


def entered(names: Sequence[str], bots: Sequence[str] = (), **changes: Any) -> Event:
    """An announced event with ``names`` entered in order (``bots`` among them are bots)."""
    event, _ = Event.announce(definition(**changes), 0.0)
    for i, name in enumerate(names):
        event.join(1.0 + i, name, "bot" if name in bots else "person")
    return event


def only(effects: Sequence[Effect], kind: type) -> list[Any]:
    return [effect for effect in effects if isinstance(effect, kind)]


def open_tables(event: Event, now: float, effects: Sequence[Effect], first_table: int) -> dict[int, int]:
    """Open every table the effects ask for, numbered from ``first_table``: board -> table."""
    (opening,) = only(effects, OpenTables)
    tables = {}
    for i, board in enumerate(opening.boards):
        assert event.table_opened(now, opening.round, board.board, first_table + i) == []
        tables[board.board] = first_table + i
    return tables


def pairs(effects: Sequence[Effect]) -> tuple[list[tuple[int, str, str]], str | None]:
    (opening,) = only(effects, OpenTables)
    return [(b.board, b.a, b.b) for b in opening.boards], opening.bye


def seat(event: Event, now: float, round_: int, board: int, names: Sequence[str]) -> list[Effect]:
    effects: list[Effect] = []
    for name in names:
        effects += event.player_arrived(now, round_, board, name)
    return effects


def play(event: Event, now: float, round_: int, board: int, results: Sequence[Result]) -> list[Effect]:
    """Seat both players and play the pairing's games to ``results``; checks each deal asked
    for is the next game, with A first in even games; returns the last game's effects."""
    pairing = event.rounds[round_ - 1].pairings[board - 1]
    deal = seat(event, now, round_, board, [pairing.a, pairing.b])
    effects: list[Effect] = []
    for game, (winner, won, lost, skunk) in enumerate(results):
        assert only(deal, DealGame) == [DealGame(round_, board, pairing.table or 0, game,
                                                 pairing.seeds[game], pairing.seats(game))]
        loser = pairing.b if winner == pairing.a else pairing.a
        effects = event.game_finished(now, round_, board, game, winner, {winner: won, loser: lost}, skunk)
        deal = effects
    return effects


def points(event: Event) -> list[tuple[str, int, int]]:
    """The standings as (name, ACC points, spread), best first."""
    return [(row["name"], row["points"], row["spread"]) for row in event.standings()["rows"]]
