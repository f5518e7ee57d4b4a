"""Complete games between random players, for every preset and player count, with the
game's invariants checked after every action: 400 games per two-player set-up and 200 per
other one by default (about 12 s in all); ``NODDY_SOAK_GAMES=2000`` (or more) plays that many
per two-player set-up and half as many per other, for a longer soak.

What is checked, as the rules state it:
- the running count never passes 31 and is the sum of the pile;
- every dealt card is in exactly one place (a hand, the crib, the played cards, the turn-up);
- scores only grow, and each scored event adds exactly its points to one side;
- shows go clockwise from the dealer's left, the dealer last, then the crib;
- the first side to reach the target wins at once: nothing follows the game-over event, and
  exactly one side stands at or past the target;
- every legal action is accepted, and an illegal one raises and changes nothing.
"""

from __future__ import annotations

import os
import random

import pytest

from noddy.engine import (
    FULL_DECK, CardsDealt, CountReset, DealStarted, Discard, Game, GameOver, Go, IllegalActionError, Play,
    Played, Scored, score_play,
)

#: Games per two-player set-up (see the module docstring).
SOAK_GAMES = int(os.environ.get("NODDY_SOAK_GAMES", "400"))

CONFIGS = [
    ("noddy", 2, False), ("noddy", 4, True),
    ("noddy-ducoeur", 2, False), ("noddy-ducoeur", 4, True),
    ("noddy-holme", 2, False), ("noddy-holme", 4, True),
    ("noddy-modern", 2, False), ("noddy-modern", 3, False), ("noddy-modern", 4, False),
    ("noddy-modern", 4, True),
    ("five-card-cribbage", 2, False),
    ("cribbage", 2, False), ("cribbage", 3, False), ("cribbage", 4, True),
]


def _snapshot(game: Game) -> tuple:
    return (game.phase, game.to_move, game.awaiting, tuple(map(tuple, game.hands)),
            tuple(game.crib), tuple(game.pile), game.count, tuple(game.played),
            tuple(sorted(game.passed)), tuple(game.scores), len(game.log), game.turn_up)


def _check_state(game: Game) -> None:
    assert 0 <= game.count <= 31
    assert game.count == sum(card.value for card in game.pile)
    places = [c for hand in game.hands for c in hand] + game.crib + [c for _, c in game.played]
    if game.turn_up is not None:
        places.append(game.turn_up)
    assert len(places) == len(set(places))
    dealt = game.rules.hand_size(game.players) * game.players + game.rules.pack_to_crib(game.players)
    assert len(places) == dealt + (game.turn_up is not None)


def _check_log(game: Game) -> None:
    rules = game.rules
    scores = [0] * len(game.scores)
    show_seats: list[int] = []
    dealer = None
    pile: list = []
    for index, event in enumerate(game.log):
        previous = game.log[index - 1]
        # A card that scores is followed at once by its score, item for item.
        card_score = score_play(pile, rules).items if isinstance(previous, Played) else ()
        if card_score:
            assert isinstance(event, Scored) and event.reason == "play"
            assert event.items == card_score
        if isinstance(event, DealStarted):
            dealer, show_seats, pile = event.dealer, [], []
        elif isinstance(event, CountReset):
            pile = []
        elif isinstance(event, Played):
            pile.append(event.card)
            assert event.count == sum(c.value for c in pile) <= 31
        elif isinstance(event, CardsDealt):
            assert event.count == rules.hand_size(game.players) == len(event.cards)
        elif isinstance(event, Scored):
            team = game.team_of(event.seat)
            scores[team] += event.points
            assert event.points == sum(i.points for i in event.items) >= 0
            assert list(event.scores) == scores
            if event.reason == "play" and not card_score:
                # Nobody could play on: the last card's point goes to whoever played it.
                assert [(i.kind, i.points) for i in event.items] == [
                    (rules.last_card_name, rules.last_card_points)]
                assert event.seat == next(e.seat for e in reversed(game.log[:index])
                                          if isinstance(e, Played))
            if event.reason in ("show", "crib"):
                show_seats.append(event.seat if event.reason == "show" else -1)
                expected = [(dealer + i) % game.players for i in range(1, game.players + 1)]
                if rules.has_crib:
                    expected.append(-1)
                assert show_seats == expected[: len(show_seats)]
        elif isinstance(event, GameOver):
            assert index == len(game.log) - 1
            assert scores[event.winner] >= rules.target
            assert [s for s in scores if s >= rules.target] == [scores[event.winner]]


def _illegal_candidates(game: Game, seat: int, rng: random.Random) -> list:
    card = rng.choice(FULL_DECK)
    others = [s for s in range(game.players) if s != seat]
    return [Play(seat, card), Go(seat), Discard(seat, (card,)), Play(rng.choice(others), card),
            Go(rng.choice(others))]


@pytest.mark.parametrize("preset, players, partnerships", CONFIGS,
                         ids=[f"{p}-{n}{'p' if t else ''}" for p, n, t in CONFIGS])
def test_random_games_keep_every_invariant(preset: str, players: int, partnerships: bool) -> None:
    rng = random.Random(f"{preset}{players}{partnerships}")
    games = SOAK_GAMES if players == 2 else SOAK_GAMES // 2
    for seed in range(games):
        game = Game(preset, players, partnerships=partnerships, seed=seed)
        last_scores = list(game.scores)
        while not game.is_over:
            seat = rng.choice(game.awaiting)
            legal = game.legal_actions(seat)
            assert legal, "a seat that may act always has a legal action"
            if rng.random() < 0.05:
                for bad in _illegal_candidates(game, seat, rng):
                    if bad in game.legal_actions(bad.seat):
                        continue
                    before = _snapshot(game)
                    with pytest.raises(IllegalActionError):
                        game.apply(bad)
                    assert _snapshot(game) == before
            action = rng.choice(legal)
            events = game.apply(action)
            assert all(a >= b for a, b in zip(game.scores, last_scores))
            last_scores = list(game.scores)
            _check_state(game)
        assert game.to_move is None and game.awaiting == () and game.legal_actions() == []
        _check_log(game)
