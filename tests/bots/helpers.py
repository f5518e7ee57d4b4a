"""Building observations by hand, for tests that pin a bot's choice in a made-up spot."""

from __future__ import annotations

from noddy.engine import Action, Card, Discard, Go, Observation, Play, configure, parse_cards
from itertools import combinations


def play_view(preset: str, hand: str, pile: str = "", *, turn_up: str = "KS",
              played_before: str = "", seat: int = 0, players: int = 2,
              hand_sizes: tuple[int, ...] | None = None, scores: tuple[int, ...] | None = None,
              dealer: int = 1, passed: tuple[int, ...] = ()) -> Observation:
    """Seat ``seat`` to play from ``hand`` on ``pile`` (the cards of this count, alternately
    played by the other seat and this one, ending with the other seat's card)."""
    cards = parse_cards(hand)
    pile_cards = parse_cards(pile)
    earlier = parse_cards(played_before)
    count = sum(c.value for c in pile_cards)
    other = (seat + 1) % players
    played: list[tuple[int, Card]] = []
    for i, card in enumerate(reversed(earlier + pile_cards)):
        played.append((other if i % 2 == 0 else seat, card))
    played.reverse()
    room = 31 - count
    legal: tuple[Action, ...] = tuple(Play(seat, c) for c in cards if c.value <= room) or (Go(seat),)
    rules = configure(preset, players)
    return Observation(
        seat=seat, preset=preset, players=players, partnerships=False, target=rules.target,
        phase="play", deal=1, dealer=dealer, hand=cards,
        hand_sizes=hand_sizes or tuple(len(cards) for _ in range(players)),
        crib_size=4 if rules.has_crib else 0, turn_up=Card.parse(turn_up), pile=pile_cards,
        count=count, played=tuple(played), passed=passed, discarded=(),
        scores=scores or (0,) * players, to_move=seat, legal_actions=legal,
    )


def discard_view(preset: str, hand: str, *, seat: int = 0, dealer: int = 0,
                 players: int = 2, scores: tuple[int, ...] | None = None) -> Observation:
    """Seat ``seat`` to lay away from a freshly dealt ``hand``."""
    cards = parse_cards(hand)
    rules = configure(preset, players)
    size = rules.discards(players)
    legal = tuple(Discard(seat, combo) for combo in combinations(sorted(cards), size))
    return Observation(
        seat=seat, preset=preset, players=players, partnerships=False, target=rules.target,
        phase="discard", deal=1, dealer=dealer, hand=cards,
        hand_sizes=(len(cards),) * players, crib_size=rules.pack_to_crib(players),
        turn_up=None, pile=(), count=0, played=(), passed=(), discarded=(),
        scores=scores or (0,) * players, to_move=seat, legal_actions=legal,
    )
