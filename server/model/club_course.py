"""The course of a club night's rounds: pairing each round, its tables and games, its
forfeits, and its end -- the half of :class:`~noddy.server.model.club.Event` the tables and
the clock drive (``table_opened``, ``player_arrived``, ``game_finished``,
``game_forfeited``, ``tick``).

Kept apart from the entrants' and the director's calls (:mod:`noddy.server.model.club`,
whose docstring is the theory of operation) because this is the part that runs by itself
once the event has started; both halves change the one :class:`Event`'s state.
"""

from __future__ import annotations

from typing import Any, Mapping

from noddy.bots.crosstable import GameRow
from noddy.bots.ratings import Rating
from noddy.bots.schedule import round_robin
from noddy.protocol.i18n import Phrase

from .club_standings import board_seeds, next_pairings, standings_view
from .table_rating import joined
from .club_types import (FORFEIT_NO_SHOW, FORFEIT_REMOVED, FORFEIT_WITHDREW, MIN_ENTRANTS, Announce,
                         Board, ClubError, CloseTable, DealGame, Effect, Entrant, EventDefinition,
                         EventOver, OpenTables, Pairing, PairingForfeited, Round, RoundOver)

Effects = list[Effect]


class EventCourse:
    """The rounds' half of :class:`~noddy.server.model.club.Event` (see the module doc)."""

    definition: EventDefinition
    state: str
    entrants: dict[str, Entrant]
    rounds: list[Round]
    schedule: list[list[list[str]]]
    field: list[str]
    next_round_at: float | None
    paused_at: float | None
    reason: str | None
    final: dict[str, Any] | None
    #: The rating estimates last worked out (once a round), and what from: not state, but
    #: what :func:`~noddy.server.model.club_standings.standings_view` remembers.
    ratings_memo: tuple[tuple[int, tuple[str, ...]], dict[str, Rating]] | None

    # -- reading ------------------------------------------------------------------------------

    @property
    def total_rounds(self) -> int | None:
        """How many rounds it has (a round robin's is known once it starts)."""
        if self.definition.format == "swiss":
            return self.definition.rounds
        return len(self.schedule) if self.state != "announced" else None

    @property
    def over(self) -> bool:
        return self.state in ("finished", "ended")

    @property
    def current_round(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    def active_names(self) -> list[str]:
        return [name for name, entrant in self.entrants.items() if entrant.active]

    # -- the tables ---------------------------------------------------------------------------

    def table_opened(self, now: float, round: int, board: int, table: int) -> Effects:
        """The server opened ``table`` for a pairing: its no-show clock starts."""
        pairing = self._pairing(round, board)
        if pairing.over and pairing.table is None:  # forfeited meanwhile: the table is not needed
            return [CloseTable(round, board, table, pairing.forfeit or "ended")]
        if pairing.status != "pending":
            raise ClubError("wrong-state", Phrase("round {round} board {board} has its table already",
                                                  round=round, board=board))
        pairing.status, pairing.table = "seating", table
        pairing.deadline = self._clock(now) + self.definition.forfeit_wait
        return []

    def player_arrived(self, now: float, round: int, board: int, name: str) -> Effects:
        """``name`` sat down at their pairing's table; once both have, game 0 is dealt."""
        pairing = self._pairing(round, board)
        if name not in (pairing.a, pairing.b):
            raise ClubError("no-such-pairing", Phrase("{name} does not play round {round} board {board}",
                                                      name=name, round=round, board=board))
        if pairing.status != "seating" or name in pairing.arrived:
            return []  # back at a table already playing, or forfeited meanwhile: nothing to do
        pairing.arrived.append(name)
        if len(pairing.arrived) < 2:
            return []
        pairing.status, pairing.deadline = "playing", None
        return [self._deal(pairing)]

    def game_finished(self, now: float, round: int, board: int, game: int, winner: str,
                      scores: Mapping[str, int], skunk: str = "none") -> Effects:
        """Game ``game`` of a pairing ended: ``winner``, each player's final score by name
        (``{a: 121, b: 97}``), the skunk the engine judged (:data:`noddy.engine.SKUNKS`)."""
        pairing = self._playing(round, board, game)
        if set(scores) != {pairing.a, pairing.b}:
            raise ClubError("bad-result", Phrase("round {round} board {board} is {a} v {b}, not {given}",
                                                 round=round, board=board, a=pairing.a, b=pairing.b,
                                                 given=" v ".join(sorted(scores))))
        try:
            row = GameRow(round, pairing.a, pairing.b, game, pairing.seeds[game], winner,
                          int(scores[pairing.a]), int(scores[pairing.b]), skunk)
        except ValueError as exc:
            raise ClubError("bad-result", str(exc)) from None
        return self._after_game(now, pairing, row)

    def game_forfeited(self, now: float, round: int, board: int, game: int, by: str,
                       reason: str) -> Effects:
        """Game ``game`` of a pairing was lost by ``by`` without being played out."""
        pairing = self._playing(round, board, game)
        if by not in (pairing.a, pairing.b):
            raise ClubError("bad-result", Phrase("{name} does not play round {round} board {board}",
                                                 name=by, round=round, board=board))
        winner = pairing.b if by == pairing.a else pairing.a
        row = GameRow(round, pairing.a, pairing.b, game, pairing.seeds[game], winner, 0, 0,
                      forfeit=reason, forfeit_by=by)
        return self._after_game(now, pairing, row)

    def tick(self, now: float) -> Effects:
        """Whatever the clock makes happen by ``now``: the start, no-show forfeits, the next round."""
        if self.state == "announced":
            starts_at = self.definition.starts_at
            if starts_at is None or now < starts_at:
                return []
            if len(self.active_names()) < MIN_ENTRANTS:
                return self._finish("ended", Phrase("fewer than {least} entrants at the start", least=MIN_ENTRANTS))
            return self._start(now)
        if self.state != "running":
            return []
        effects: Effects = []
        current = self.current_round
        if current is not None and current.finished_at is None:
            for pairing in current.pairings:
                if pairing.status == "seating" and pairing.deadline is not None and now >= pairing.deadline:
                    missing = [name for name in (pairing.a, pairing.b) if name not in pairing.arrived]
                    effects += self._forfeit_rest(pairing, missing, FORFEIT_NO_SHOW)
            if current.over:
                effects += self._end_round(now)
        if self.state == "running" and self.next_round_at is not None and now >= self.next_round_at:
            effects += self._begin_round(now)
        return effects
    # -- the inside ---------------------------------------------------------------------------

    def _clock(self, now: float) -> float:
        """The event's clock: it stands still while paused (see :meth:`resume`)."""
        return self.paused_at if self.paused_at is not None else now

    def _pairings(self) -> list[Pairing]:
        current = self.current_round
        return list(current.pairings) if current is not None else []

    def _pairing(self, round: int, board: int) -> Pairing:
        if not 1 <= round <= len(self.rounds) or not 1 <= board <= len(self.rounds[round - 1].pairings):
            raise ClubError("no-such-pairing", Phrase("there is no round {round} board {board}", round=round,
                                                      board=board))
        return self.rounds[round - 1].pairings[board - 1]

    def _playing(self, round: int, board: int, game: int) -> Pairing:
        pairing = self._pairing(round, board)
        if pairing.status != "playing":
            raise ClubError("wrong-state", Phrase("round {round} board {board} is {status}", round=round,
                                                  board=board, status=pairing.status))
        if game != len(pairing.games):
            raise ClubError("bad-result", Phrase("round {round} board {board} is playing game {playing}, not "
                                                 "{game}", round=round, board=board, playing=len(pairing.games),
                                                 game=game))
        return pairing

    def _deal(self, pairing: Pairing) -> DealGame:
        game = len(pairing.games)
        assert pairing.table is not None
        return DealGame(pairing.round, pairing.board, pairing.table, game, pairing.seeds[game],
                        pairing.seats(game))

    def _start(self, now: float) -> Effects:
        self.state = "running"
        self.field = self.active_names()
        if self.definition.format == "round-robin":
            self.schedule = [[list(pair) for pair in pairs] for pairs in round_robin(self.field)]
        return [Announce("started", Phrase("{title} has begun with {entrants} entrants", title=self.definition.title,
                                           entrants=len(self.field)),
                         tuple(self.field)), *self._begin_round(now)]

    def _begin_round(self, now: float) -> Effects:
        number = len(self.rounds) + 1
        self.next_round_at = None
        if len(self.active_names()) < MIN_ENTRANTS:  # they withdrew in the pause
            return self._finish("finished", Phrase("fewer than {least} entrants are left", least=MIN_ENTRANTS))
        pairs, bye = next_pairings(self, number)
        if bye is not None and not self.entrants[bye].active:
            bye = None
        pairings = [Pairing(number, board, a, b, board_seeds(self.definition, number, board))
                    for board, (a, b) in enumerate(pairs, start=1)]
        this = Round(number, pairings, bye, now)
        self.rounds.append(this)
        effects: Effects = []
        for pairing in pairings:
            gone = [name for name in (pairing.a, pairing.b) if not self.entrants[name].active]
            if len(gone) == 2:
                pairing.status = "void"
            elif gone:
                reason = FORFEIT_REMOVED if self.entrants[gone[0]].status == "removed" else FORFEIT_WITHDREW
                effects += self._forfeit_rest(pairing, gone, reason)
        boards = tuple(Board(p.board, p.a, p.b, tuple(p.seeds)) for p in pairings if p.status == "pending")
        text = joined([Phrase("board {board}: {a} v {b}", board=b.board, a=b.a, b=b.b) for b in boards], how=";") \
            if boards else ""
        opening: Effects = [Announce("round", Phrase("round {round}: {boards}", round=number, boards=text),
                                     tuple(name for b in boards for name in (b.a, b.b)))]
        if boards:
            opening.append(OpenTables(number, boards, bye, self.definition.preset, dict(self.definition.options)))
        if bye is not None:
            opening.append(Announce("bye", Phrase("{name} sits out round {round} (a bye)", name=bye, round=number),
                                    (bye,)))
        effects = opening + effects
        if this.over:
            effects += self._end_round(now)
        return effects

    def _after_game(self, now: float, pairing: Pairing, row: GameRow) -> Effects:
        pairing.games.append(row)
        if len(pairing.games) < self.definition.games_per_pairing:
            return [self._deal(pairing)]
        pairing.status = "done"
        current = self.current_round
        return self._end_round(now) if current is not None and current.over else []

    def _forfeit_rest(self, pairing: Pairing, by: list[str], reason: str) -> Effects:
        """``by`` (one name or both) forfeit the pairing's games still to play."""
        if len(by) == 1:
            winner = pairing.b if by[0] == pairing.a else pairing.a
            for game in range(len(pairing.games), self.definition.games_per_pairing):
                pairing.games.append(GameRow(pairing.round, pairing.a, pairing.b, game, pairing.seeds[game],
                                             winner, 0, 0, forfeit=reason, forfeit_by=by[0]))
        pairing.status, pairing.deadline = "done", None
        pairing.forfeit, pairing.forfeit_by = reason, list(by)
        effects: Effects = []
        if pairing.table is not None:
            effects.append(CloseTable(pairing.round, pairing.board, pairing.table, reason))
        effects += [PairingForfeited(pairing.round, pairing.board, tuple(by), reason),
                    Announce("forfeit", Phrase("round {round} board {board}: {who} forfeit ({reason})",
                                               singular="round {round} board {board}: {who} forfeits ({reason})",
                                               plural="round {round} board {board}: {who} forfeit ({reason})",
                                               count=len(by), round=pairing.round, board=pairing.board,
                                               who=joined(list(by)), reason=reason), tuple(by))]
        return effects

    def _end_round(self, now: float) -> Effects:
        current = self.current_round
        assert current is not None
        current.finished_at = now
        total = self.total_rounds or 0
        if current.number >= total:
            return [RoundOver(current.number, None), *self._finish("finished", Phrase("every round is played"))]
        if len(self.active_names()) < MIN_ENTRANTS:
            return [RoundOver(current.number, None),
                    *self._finish("finished", Phrase("fewer than {least} entrants are left", least=MIN_ENTRANTS))]
        self.next_round_at = self._clock(now) + self.definition.round_pause
        effects: Effects = [RoundOver(current.number, self.next_round_at),
                            Announce("round-over", Phrase("round {round} is over; round {next} begins in "
                                                          "{pause:g} seconds", round=current.number,
                                                          next=current.number + 1,
                                                          pause=self.definition.round_pause))]
        if self.state == "running" and self.next_round_at <= now:
            effects += self._begin_round(now)
        return effects

    def _finish(self, state: str, reason: Phrase) -> Effects:
        self.state, self.reason, self.next_round_at, self.paused_at = state, reason, None, None
        self.final = standings_view(self)
        return [EventOver(state, reason), Announce(state, Phrase("{title} is over: {reason}",
                                                                 title=self.definition.title, reason=reason))]
