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
show into decisions: for each hand from the dealer's left, then the crib, its owner claims
(phase ``claim``), then each opponent in turn from the owner's left may call muggins or pass
(phase ``muggins``; partners never call).  The engine knows each show's worth all along but
tells it only in the ``counted`` event that closes the muggins step.  ``legal_actions`` for
a claim is every claim from 0 to 29, whatever the show holds; one above the worth is refused
once (a ``claim_refused`` event that only the claimer may see) and a second one stands as a
claim of 0 (:mod:`.by_hand`).  :meth:`Game.default_action` is what a silent seat does when a
turn timer runs out there: claim 0, or pass.

Points are pegged the moment they are made (:meth:`Game._peg`); the first seat or team to
reach the target wins at once and nothing after that is scored.  A seat that holds cards
but cannot play says go (an explicit action); seats with no cards left are passed over.

Scores are kept per seat, or per team when ``partnerships`` (team 0 is seats 0 and 2).
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any, Mapping

from .actions import Abandon, Action, Claim, Discard, Go, Muggins, Pass, Play, Resign, TakeBack, go_of, plays_of
from .cards import INDEX, JACK, SORT_KEY, Card, draw
from .errors import (
    CardNotInHandError,
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
    WouldPassThirtyOneError,
)
from .events import (
    CardsDealt,
    CountReset,
    CutForDeal,
    DealEnded,
    DealStarted,
    Discarded,
    Event,
    GameStarted,
    HandsRevealed,
    Played,
    SaidGo,
    Scored,
    TurnedUp,
)
from .outcome import Outcome
from . import by_hand, leaving
from .by_hand import ShowCount
from .checks import check_count_turn, check_discard, check_go, check_turn
from .phases import CLAIM, DISCARD, MUGGINS, OVER, PLAY
from .rules import Rules, configure
from .scoring import POINTS, ScoreItem, play_items, show_items
from .views import Observation, ShowToCount, copy_game, observe

__all__ = ["CLAIM", "DISCARD", "MUGGINS", "OVER", "PLAY", "Game", "Observation", "ShowToCount"]


_CLOCKWISE: dict[int, tuple[tuple[int, ...], ...]] = {}
_PLAYED: dict[tuple[int, int, int], Played] = {}


def _clockwise(players: int) -> tuple[tuple[int, ...], ...]:
    """``_clockwise(players)[seat]``: every seat clockwise from ``seat``'s left, ``seat``
    last.  Made once per player count: the engine walks the table at every turn."""
    table = _CLOCKWISE.get(players)
    if table is None:
        table = _CLOCKWISE[players] = tuple(
            tuple((seat + step) % players for step in range(1, players + 1))
            for seat in range(players))
    return table


class Game:
    """One game of a preset; see the module docstring for how to drive it.

    >>> game = Game("noddy", seed=7)
    >>> game.to_move in (0, 1), game.phase
    (True, 'play')
    """

    def __init__(
        self,
        preset: str | Rules = "noddy",
        players: int = 2,
        *,
        partnerships: bool = False,
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
    ) -> None:
        self.rules: Rules = configure(preset, players, partnerships=partnerships, options=options)
        self.players = players
        self.partnerships = partnerships
        if seed is None:  # 53 bits: a game record's seed must survive any JSON reader
            seed = random.SystemRandom().randrange(2**53)
        self.seed = seed
        self._rng = random.Random(seed)
        self._clockwise = _clockwise(players)
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
        self._pending_discards: list[int] = []
        self._laid_away: list[tuple[Card, ...]] = [() for _ in range(players)]
        self._shows: list[tuple[int, int]] = []
        self._to_count: list[tuple[int, str]] = []  # counting by hand: shows still to count
        self._counting: ShowCount | None = None
        self.to_move: int | None = None
        self.scores: list[int] = [0] * (2 if partnerships else players)
        self.winner: int | None = None
        self.result: Outcome | None = None
        #: Seats whose person resigned or abandoned them: (how, the scores then); see leaving.py.
        self.gone: dict[int, tuple[str, tuple[int, ...]]] = {}
        self.log: list[Event] = []
        events: list[Event] = [GameStarted(self.rules.name, players, partnerships, self.rules.target)]
        self._cut_for_deal(events)
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
            return tuple(self._pending_discards)
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
            if seat not in self._pending_discards:
                return []
            size = self.rules.discards(self.players)
            # combinations() of a sorted hand come out sorted: skip Discard's own sort.
            hand = sorted(self.hands[seat], key=SORT_KEY)
            return Discard._each_sorted(seat, combinations(hand, size))
        if seat != self.to_move:
            return []
        if phase != PLAY:  # counting by hand (the play's turns skip this test)
            counted = by_hand.legal_actions(self, seat)
            if counted is not None:
                return counted
        room = 31 - self.count
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
            raise GameOverError("the game is over")
        if not isinstance(action, Action):
            raise IllegalActionError(f"not an action: {action!r}")
        seat = action.seat
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise NotYourTurnError(f"there is no seat {seat!r} in a {self.players}-player game")
        events: list[Event] = []
        if isinstance(action, Play):  # the commonest action first
            self._check_play(action)
            self._play(action, events)
        elif isinstance(action, Discard):
            check_discard(self, action)
            self._discard(action, events)
        elif isinstance(action, Go):
            check_go(self, action)
            self._go(seat, events)
        elif isinstance(action, Claim):
            check_count_turn(self, action, CLAIM)
            by_hand.claim(self, action, events)
        elif isinstance(action, Muggins):
            check_count_turn(self, action, MUGGINS)
            by_hand.muggins(self, action, events)
        elif isinstance(action, Pass):
            check_count_turn(self, action, MUGGINS)
            by_hand.pass_(self, seat, events)
        elif isinstance(action, (Resign, Abandon, TakeBack)):
            leaving.apply(self, action, events)
        else:
            raise IllegalActionError(f"not an action: {action!r}")
        self.log.extend(events)
        return events

    def _check_play(self, action: Play) -> None:
        if self.phase != PLAY or action.seat != self.to_move:  # (the checks run only to fail)
            check_turn(self, action)
        card = action.card
        if card not in self.hands[action.seat]:
            raise CardNotInHandError(f"seat {action.seat} does not hold {card}")
        if self.count + card.value > 31:
            raise WouldPassThirtyOneError(
                f"{card} would take the count from {self.count} "
                f"to {self.count + card.value}, past 31"
            )

    # -- scoring --------------------------------------------------------------------------
    def _peg(self, events: list[Event], seat: int, items: tuple[ScoreItem, ...], reason: str,
             cards: tuple[Card, ...] | None = None, concealed: bool = False) -> bool:
        """Peg ``items`` for ``seat``; True (and the game over) if that reaches the target."""
        points = sum(map(POINTS, items))
        team = seat % 2 if self.partnerships else seat  # self.team_of(seat), inlined
        self.scores[team] += points
        events.append(Scored(seat, points, reason, items, tuple(self.scores), cards, concealed))
        if self.scores[team] >= self.rules.target:
            leaving.end_at_target(self, team, events)
            return True
        return False

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
        return list(self._clockwise[self.dealer])

    def _start_deal(self, events: list[Event]) -> None:
        rules = self.rules
        assert self.dealer is not None
        self.deal += 1
        events.append(DealStarted(self.deal, self.dealer))
        order = self._seats_from_left()
        if self.deal == 1 and rules.first_deal_bonus:
            item = ScoreItem("first deal", rules.first_deal_bonus)
            if self._peg(events, order[0], (item,), "first deal"):
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
        self._laid_away = [()] * players
        self._shows = []
        for seat in order:
            events.append(CardsDealt(seat, size, tuple(hands[seat])))
        for _ in range(from_pack):
            self.crib.append(deck[position])
            events.append(Discarded(None, 1, (deck[position],)))
            position += 1
        self._starter = deck[position]
        if rules.discards(self.players):
            self.phase = DISCARD
            self._pending_discards = order
            self.to_move = order[0]
        else:
            self._turn_up(events)

    def _discard(self, action: Discard, events: list[Event]) -> None:
        seat = action.seat
        hand = self.hands[seat]
        for card in action.cards:
            hand.remove(card)
            self.crib.append(card)
        self._laid_away[seat] = action.cards
        events.append(Discarded(seat, len(action.cards), action.cards))
        self._pending_discards = [s for s in self._pending_discards if s != seat]
        if self._pending_discards:
            self.to_move = self._pending_discards[0]
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
            if self._peg(events, seat, (item,), "turn-up"):
                return
        if rules.show_before_play and self._show(events):
            return
        self.phase = PLAY
        self._next_turn(events, self.dealer)

    def _show(self, events: list[Event]) -> bool:
        """Every hand in turn from the dealer's left, then the crib.  True if someone won."""
        rules = self.rules
        concealed = rules.show_before_play
        turn_up = self.turn_up
        assert turn_up is not None
        for seat in self._seats_from_left():
            kept = self.kept[seat]
            items = show_items(kept, turn_up, rules)
            self._shows.append((seat, sum(map(POINTS, items))))
            if self._peg(events, seat, items, "show", kept, concealed):
                return True
        if rules.has_crib:
            assert self.dealer is not None
            crib = tuple(sorted(self.crib, key=SORT_KEY))
            items = show_items(crib, turn_up, rules, crib=True)
            self._shows.append((self.dealer, sum(map(POINTS, items))))
            if self._peg(events, self.dealer, items, "crib", crib):
                return True
        return False

    def _play(self, action: Play, events: list[Event]) -> None:
        seat, card = action.seat, action.card
        self.hands[seat].remove(card)
        pile = self.pile
        pile.append(card)
        self.count = count = self.count + card.value
        self.played.append((seat, card))
        # Played events are immutable values, few (seat by card by count) and one for every
        # card played: each is made once and shared, like the legal actions.
        played = _PLAYED.get((seat, card.index, count))
        if played is None:
            played = _PLAYED[(seat, card.index, count)] = Played(seat, card, count)
        events.append(played)
        items = play_items(tuple(pile), count, self.rules)
        if items and self._peg(events, seat, items, "play"):
            return
        if count == 31:
            self._end_count(events, last_card_point=False)
        else:
            self._next_turn(events, seat)

    def _go(self, seat: int, events: list[Event]) -> None:
        self.passed.add(seat)
        events.append(SaidGo(seat))
        self._next_turn(events, seat)

    def _next_turn(self, events: list[Event], after: int) -> None:
        """Hand the turn to the next seat clockwise after ``after`` that holds cards and has
        not said go; if there is none, the count is over."""
        hands, passed = self.hands, self.passed
        for seat in self._clockwise[after]:
            if hands[seat] and seat not in passed:
                self.to_move = seat
                return
        self._end_count(events, last_card_point=True)

    def _end_count(self, events: list[Event], *, last_card_point: bool) -> None:
        """Nobody can play on: the last card's point, then a new count or the play's end."""
        rules = self.rules
        last = self.played[-1][0] if self.played else None  # who played the last card
        if last_card_point and last is not None and rules.last_card_points:
            item = ScoreItem(rules.last_card_name, rules.last_card_points, (self.pile[-1],))
            if self._peg(events, last, (item,), "play"):
                return
        if rules.play_restarts and any(self.hands):
            self.pile = []
            self.count = 0
            self.passed = set()
            events.append(CountReset())
            assert last is not None
            self._next_turn(events, last)
            return
        self._end_play(events)

    def _end_play(self, events: list[Event]) -> None:
        self.to_move = None
        if not self.rules.show_before_play:
            if self.rules.counting_by_hand:
                self._to_count = [(seat, "show") for seat in self._seats_from_left()]
                if self.rules.has_crib:
                    assert self.dealer is not None
                    self._to_count.append((self.dealer, "crib"))
                by_hand.next_count(self, events)
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
        return observe(self, seat)

    def copy(self, *, with_log: bool = False) -> "Game":
        """An independent copy, cheap enough for bots that search (the log is left behind
        unless ``with_log``): see :func:`~noddy.engine.views.copy_game`."""
        return copy_game(self, with_log)

    def __repr__(self) -> str:
        return (f"<Game {self.rules.name} players={self.players} seed={self.seed} "
                f"deal={self.deal} phase={self.phase} scores={self.scores}>")
