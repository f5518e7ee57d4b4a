"""The game as a sans-IO state machine.

Theory of operation
===================

A :class:`Game` holds one whole game: seats, scores, the dealer, the cards of the current
deal and whose decision it is.  Nothing in it reads a clock, a socket or a global random
generator: chance comes only from ``random.Random(seed)``, so the same preset, options,
player count and seed replay the same game event for event.

The caller asks two questions and makes one call:

* ``to_move`` / ``awaiting``: who must decide now (``None`` / ``()`` once the game is over).
  While the crib is laid away every seat that still owes cards may act, in any order;
  ``to_move`` is then the first of them from the dealer's left.  In the play one seat
  acts at a time.
* ``legal_actions(seat)``: exactly the actions ``apply`` will accept from that seat.
* ``apply(action)``: either raises a precise :class:`~noddy.engine.errors.IllegalActionError`
  subclass and changes nothing (every check runs before any state is touched), or performs
  the action and then runs the game forward through everything that needs no decision --
  scoring the play, resetting the count, the show, the end of the deal, the next deal's
  cut, deal and turn-up -- until a seat must decide again or someone has won.  It returns
  the events of all that, in order.  The constructor runs the opening the same way; its
  events, like every later one, are in ``log``.

A deal moves through these phases (the rules object decides which are used)::

    deal -> discard (crib presets) -> turn-up -> [show, Noddy presets] -> play
         -> [show and crib, Cribbage presets] -> deal over -> next deal

Counting by hand (``counting: "manual"``, only where the show follows the play) turns the
show into decisions, phases ``claim`` and ``muggins`` (:mod:`.by_hand`).
:meth:`Game.default_action` is what a silent seat does when a turn timer runs out there:
claim 0, or pass.

Who owns what.  This module holds the game's course from deal to deal -- the cut, the deal,
laying away, the turn-up, the end of the play and of the deal -- and the one mutating call.
The play itself is :mod:`.play`; pegging, and the game's end at the target,
:mod:`.pegging`; the show, :mod:`.shows`; counting by hand, :mod:`.by_hand`; people who leave,
:mod:`.leaving`; the checks before any change, :mod:`.checks`; a seat's view, :mod:`.views`.
The steps with state of their own keep it in small objects the game holds, each changed only
by its own module: who still lays away (:class:`~.laying_away.LayingAway`), the shows counted
so far in show order (:class:`~.shows.ShowRecord`) and the counting-by-hand step
(:class:`~.by_hand.CountingByHand`).  The game hands those objects to the helpers, which see
the game itself as a :class:`~.game_state.GameState` (its public attributes): none imports
this module, and none reads the game's private attributes.

Points are pegged the moment they are made; the first seat or team to reach the target wins
at once and nothing after that is scored.

Scores are kept per seat, or per team when ``partnerships`` (team 0 is seats 0 and 2).
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any, Mapping

from .actions import (Abandon, Action, Claim, Discard, Go, Muggins, Pass, Play, Resign, TakeBack,
                      go_of, plays_of, sorted_discards)
from .cards import INDEX, JACK, SORT_KEY, Card, draw
from .errors import N_, GameOverError, IllegalActionError, NotYourTurnError
from .events import (
    CardsDealt,
    CutForDeal,
    DealEnded,
    DealStarted,
    Discarded,
    Event,
    GameStarted,
    HandsRevealed,
    TurnedUp,
)
from . import by_hand, leaving
from .by_hand import CountingByHand
from .checks import check_count_turn, check_discard, check_go, check_play
from .laying_away import LayingAway
from .outcome import Outcome
from .pegging import peg
from .phases import CLAIM, DISCARD, MUGGINS, OVER, PLAY
from .play import next_turn, play_card, say_go
from .rules import Rules, configure
from .score_items import ScoreItem
from .seats import CLOCKWISE
from .shows import ShowRecord, count_shows, show_order
from .views import Observation, ShowToCount, observe

__all__ = ["CLAIM", "DISCARD", "MUGGINS", "OVER", "PLAY", "Game", "Observation", "ShowToCount"]


class Game:
    """One game of a preset; see the module docstring for how to drive it.

    >>> game = Game("noddy", seed=7)
    >>> game.to_move in (0, 1), game.phase
    (True, 'play')

    ``first_dealer`` deals the first deal without a cut (a match's later games: the loser of
    the last game deals first); None, the players cut for it.
    """

    def __init__(
        self,
        preset: str | Rules = "noddy",
        players: int = 2,
        *,
        partnerships: bool = False,
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        first_dealer: int | None = None,
    ) -> None:
        if first_dealer is not None and not 0 <= first_dealer < players:
            raise ValueError(f"the first dealer is a seat from 0 to {players - 1}, not {first_dealer!r}")
        self.rules: Rules = configure(preset, players, partnerships=partnerships, options=options)
        self.players = players
        self.partnerships = partnerships
        if seed is None:  # 53 bits: a game record's seed must survive any JSON reader
            seed = random.SystemRandom().randrange(2**53)
        self.seed = seed
        self._rng = random.Random(seed)
        self.phase = DISCARD
        self.deal = 0
        self.dealer: int | None = None
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        self.kept: list[tuple[Card, ...]] = [() for _ in range(players)]
        self.crib: list[Card] = []
        self.turn_up: Card | None = None
        self._starter: Card | None = None  # the card the turn-up will be
        self.pile: list[Card] = []
        self.count = 0
        self.played: list[tuple[int, Card]] = []
        self.passed: set[int] = set()
        self._laying_away = LayingAway(players)
        self._shows = ShowRecord()
        self._by_hand = CountingByHand()
        self.to_move: int | None = None
        self.scores: list[int] = [0] * (2 if partnerships else players)
        self.winner: int | None = None
        self.result: Outcome | None = None
        #: Seats whose person resigned or abandoned them: (how, the scores then); see leaving.py.
        self.gone: dict[int, tuple[str, tuple[int, ...]]] = {}
        self.log: list[Event] = []
        events: list[Event] = [GameStarted(self.rules.name, players, partnerships, self.rules.target)]
        if first_dealer is None:
            self._cut_for_deal(events)
        else:  # a match's later game: its last loser deals, no cut
            self.dealer = first_dealer
        self._start_deal(events)
        self.log.extend(events)

    # -- questions ------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def awaiting(self) -> tuple[int, ...]:
        """Every seat that may act now (several while the crib is laid away)."""
        if self.phase == DISCARD:
            return tuple(self._laying_away.pending)
        return () if self.to_move is None else (self.to_move,)

    def team_of(self, seat: int) -> int:
        """The index into ``scores`` that ``seat``'s points go to."""
        return seat % 2 if self.partnerships else seat

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended (None while it is on): the one value every result reads."""
        return self.result

    @property
    def winning_seats(self) -> tuple[int, ...]:
        if self.winner is None:
            return ()
        return tuple(s for s in range(self.players) if self.team_of(s) == self.winner)

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Exactly the actions :meth:`apply` accepts from ``seat`` (default: ``to_move``)."""
        if seat is None:
            seat = self.to_move
        if seat is None or self.winner is not None:  # (self.is_over, without the call)
            return []
        phase = self.phase
        if phase == DISCARD:
            if seat not in self._laying_away.pending:
                return []
            size = self.rules.discards(self.players)
            # combinations() of a sorted hand come out sorted: skip Discard's own sort.
            hand = sorted(self.hands[seat], key=SORT_KEY)
            return sorted_discards(seat, combinations(hand, size))
        if seat != self.to_move:
            return []
        if phase != PLAY:  # counting by hand (the play's turns skip this test)
            counted = self._by_hand.legal_actions(phase, seat)
            if counted is not None:
                return counted
        room = 31 - self.count  # the play (the commonest case, so inline: see play.py)
        table = plays_of(seat)
        hand = self.hands[seat]
        if room >= 10:  # no card is worth more: all of them (most turns), without a loop
            plays: list[Action] = list(map(table.__getitem__, map(INDEX, hand)))
        else:
            plays = [table[card.index] for card in hand if card.value <= room]
        return plays or [go_of(seat)]

    # -- the one mutating call ------------------------------------------------------------
    def apply(self, action: Action) -> list[Event]:
        """Perform ``action``; see the module docstring.  Raises and changes nothing if illegal."""
        if self.winner is not None:  # self.is_over, without the property call
            raise GameOverError(N_("the game is over"))
        if not isinstance(action, Action):
            raise IllegalActionError(N_("not an action: {action!r}"), action=action)
        seat = action.seat
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise NotYourTurnError(N_("there is no seat {seat!r} in a {players}-player game"), seat=seat,
                                   players=self.players)
        events: list[Event] = []
        if isinstance(action, Play):  # the commonest action first
            check_play(self, action)
            if play_card(self, action, events):
                self._end_play(events)
        elif isinstance(action, Discard):
            check_discard(self, self._laying_away, action)
            self._discard(action, events)
        elif isinstance(action, Go):
            check_go(self, action)
            if say_go(self, seat, events):
                self._end_play(events)
        elif isinstance(action, Claim):
            check_count_turn(self, self._by_hand, action, CLAIM)
            if self._by_hand.claim(self, self._shows, action, events):
                self._end_deal(events)
        elif isinstance(action, Muggins):
            check_count_turn(self, self._by_hand, action, MUGGINS)
            if self._by_hand.muggins(self, action, events):
                self._end_deal(events)
        elif isinstance(action, Pass):
            check_count_turn(self, self._by_hand, action, MUGGINS)
            if self._by_hand.pass_(self, seat, events):
                self._end_deal(events)
        elif isinstance(action, (Resign, Abandon, TakeBack)):
            leaving.apply(self, action, events)
            if self.winner is not None:  # the last side standing: nobody lays away any more
                self._laying_away.clear()
        else:
            raise IllegalActionError(N_("not an action: {action!r}"), action=action)
        self.log.extend(events)
        return events

    # -- the course of a deal -------------------------------------------------------------
    def _cut_for_deal(self, events: list[Event]) -> None:
        contenders = list(range(self.players))
        while True:
            cuts = tuple(zip(contenders, draw(self._rng, len(contenders))))
            low = min(card.rank for _, card in cuts)
            lowest = [seat for seat, card in cuts if card.rank == low]
            if len(lowest) == 1:
                self.dealer = lowest[0]
                events.append(CutForDeal(cuts, lowest[0]))
                return
            events.append(CutForDeal(cuts, None))
            contenders = lowest

    def _seats_from_left(self) -> list[int]:
        """Every seat clockwise from the dealer's left, the dealer last."""
        assert self.dealer is not None
        return list(CLOCKWISE[self.players][self.dealer])

    def _start_deal(self, events: list[Event]) -> None:
        rules = self.rules
        assert self.dealer is not None
        self.deal += 1
        events.append(DealStarted(self.deal, self.dealer))
        order = self._seats_from_left()
        if self.deal == 1 and rules.first_deal_bonus:
            item = ScoreItem("first deal", rules.first_deal_bonus)
            if peg(self, events, order[0], (item,), "first deal"):
                return
        size = rules.hand_size(self.players)
        from_pack = rules.pack_to_crib(self.players)
        players = self.players
        deck = draw(self._rng, size * players + from_pack + 1)
        hands: list[list[Card]] = [[] for _ in range(players)]
        # One card at a time round the table from the dealer's left: the k-th seat in
        # ``order`` gets every ``players``-th card of the first ``size * players``.
        for k, seat in enumerate(order):
            hands[seat] = deck[k:size * players:players]
        position = size * players
        self.hands = hands
        self.crib = []
        self.pile = []
        self.count = 0
        self.played = []
        self.passed = set()
        self.turn_up = None
        self._laying_away.new_deal(players)
        self._shows.clear()
        for seat in order:
            events.append(CardsDealt(seat, size, tuple(hands[seat])))
        for _ in range(from_pack):
            self.crib.append(deck[position])
            events.append(Discarded(None, 1, (deck[position],)))
            position += 1
        self._starter = deck[position]
        if rules.discards(self.players):
            self.phase = DISCARD
            self._laying_away.begin(order)
            self.to_move = order[0]
        else:
            self._turn_up(events)

    def _discard(self, action: Discard, events: list[Event]) -> None:
        seat = action.seat
        hand = self.hands[seat]
        for card in action.cards:
            hand.remove(card)
            self.crib.append(card)
        events.append(Discarded(seat, len(action.cards), action.cards))
        owing = self._laying_away.lay_away(seat, action.cards)
        if owing is not None:
            self.to_move = owing
            return
        self._turn_up(events)

    def _turn_up(self, events: list[Event]) -> None:
        """The hands are final (any crib laid away): keep them for the show, turn up."""
        self.kept = [tuple(hand) for hand in self.hands]
        rules = self.rules
        assert self.dealer is not None
        card = self._starter
        assert card is not None
        self.turn_up = card
        events.append(TurnedUp(card))
        if card.rank == JACK and rules.turned_jack_points:
            seat = self.dealer if rules.turned_jack_to_dealer else (self.dealer + 1) % self.players
            item = ScoreItem(rules.turned_jack_name, rules.turned_jack_points, (card,))
            if peg(self, events, seat, (item,), "turn-up"):
                return
        if rules.show_before_play and self._show(events):
            return
        self.phase = PLAY
        if next_turn(self, self.dealer, events):
            self._end_play(events)

    def _show(self, events: list[Event]) -> bool:
        """Every hand in turn from the dealer's left, then the crib.  True if someone won."""
        assert self.dealer is not None
        order = show_order(self._seats_from_left(), self.dealer, self.rules.has_crib)
        return count_shows(self, self._shows, order, events)

    def _end_play(self, events: list[Event]) -> None:
        self.to_move = None
        if not self.rules.show_before_play:
            if self.rules.counting_by_hand:
                assert self.dealer is not None
                order = show_order(self._seats_from_left(), self.dealer, self.rules.has_crib)
                if self._by_hand.begin(self, order, events):
                    self._end_deal(events)
                return
            if self._show(events):
                return
        self._end_deal(events)

    def default_action(self, seat: int) -> Action | None:
        """What ``seat`` does when its turn timer runs out (see :func:`by_hand.default_action`)."""
        return by_hand.default_action(self, seat)

    def _end_deal(self, events: list[Event]) -> None:
        self.phase = PLAY  # between deals, until _start_deal says otherwise
        self.to_move = None
        crib = tuple(sorted(self.crib, key=SORT_KEY)) if self.rules.has_crib else None
        events.append(HandsRevealed(tuple(self.kept), crib))
        events.append(DealEnded(self.deal, tuple(self.scores)))
        assert self.dealer is not None
        self.dealer = (self.dealer + 1) % self.players
        self._start_deal(events)

    # -- views and copies -----------------------------------------------------------------
    def observation(self, seat: int | None) -> Observation:
        """What ``seat`` may see now (``None``: a spectator): never another seat's cards."""
        return observe(self, seat, self._laying_away, self._shows, self._by_hand)

    def copy(self, *, with_log: bool = False) -> Game:
        """An independent copy, cheap enough for bots that search (the log is left behind
        unless ``with_log``): every attribute shared, then each that changes in place copied."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other._rng = random.Random()
        other._rng.setstate(self._rng.getstate())
        other.hands = [list(hand) for hand in self.hands]
        other.kept = list(self.kept)
        other.crib = list(self.crib)
        other.pile = list(self.pile)
        other.played = list(self.played)
        other.passed = set(self.passed)
        other._laying_away = self._laying_away.copy()
        other._shows = self._shows.copy()
        other._by_hand = self._by_hand.copy()
        other.scores = list(self.scores)
        other.gone = dict(self.gone)
        other.log = list(self.log) if with_log else []
        return other

    def __repr__(self) -> str:
        return (f"<Game {self.rules.name} players={self.players} seed={self.seed} "
                f"deal={self.deal} phase={self.phase} scores={self.scores}>")
