"""A match table's plan: the deals the match runner fixed, and the thinking times it is told.

``noddy-match`` (bots/tables.py) plays game after game of a duplicate match at one table
of its own server.  It creates the table with ``deal_seeds`` -- one seed per game, so that
a game is dealt the same cards whatever the players, built-in or over the protocol -- which
a server takes only when started with ``--allow-deal-seeds`` (whoever chooses the seed
chooses the cards: never on a server people play rated games on).  Such a table is unrated,
its seeds are never shown to its members, and it closes when the last seed's game is over
and its players say ``ready`` again.

After each game the runner (the table's creator, wherever it is) is sent one
``match_game`` message: the game's seed, seats, result and actions, and each seat's
thinking time per decision as the server saw it -- from the moment its turn was sent to the
moment its action was read -- for people and computer players alike.  Only decisions with
a choice of actions are timed (a forced ``go`` says nothing of a bot's speed).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

@dataclass(eq=False)
class MatchPlan:
    """The seeds of a match table's games, who asked for them, and the current game's
    thinking times (see the module docstring)."""

    seeds: tuple[int, ...]
    #: The runner's :class:`~noddy.server.model.table.Session` (the creator's at creation:
    #: the table's owner may change later).  Typed loosely: table.py imports this module.
    runner: Any
    #: When each awaiting seat's turn was sent (the first time, for the turn it is on).
    turn_sent: dict[int, float] = field(default_factory=dict)
    #: Seats whose current turn offers more than one action (the timed decisions).
    choosing: set[int] = field(default_factory=set)
    #: Each seat's thinking times in the current game, in seconds.
    think: dict[int, list[float]] = field(default_factory=dict)

    def seed_of(self, game_number: int) -> int:
        """The seed of the table's ``game_number``-th game (from 1)."""
        return self.seeds[game_number - 1]

    def done(self, games_played: int) -> bool:
        """Whether every planned game has been dealt."""
        return games_played >= len(self.seeds)

    def new_game(self) -> None:
        self.turn_sent.clear()
        self.choosing.clear()
        self.think.clear()

    def turn_sent_to(self, seat: int, now: float, choices: int) -> None:
        """``seat`` is sent a turn with ``choices`` legal actions (timed from its first)."""
        if seat not in self.turn_sent:
            self.turn_sent[seat] = now
            if choices > 1:
                self.choosing.add(seat)

    def acted(self, seat: int, now: float) -> None:
        """``seat``'s action was read: its thinking time, if it had a choice, is kept."""
        sent = self.turn_sent.pop(seat, None)
        if sent is not None and seat in self.choosing:
            self.choosing.discard(seat)
            self.think.setdefault(seat, []).append(round(now - sent, 6))

    def report(self, table_id: int, game_number: int, seed: int, seats: list[dict[str, Any]],
               result: dict[str, Any], actions: list[dict[str, Any]],
               players: int) -> dict[str, Any]:
        """The ``match_game`` message for the runner."""
        return {"type": "match_game", "table": table_id, "game": game_number,
                "games": len(self.seeds), "seed": seed, "seats": seats, "result": result,
                "actions": actions, "think": [self.think.get(seat, []) for seat in range(players)]}
