"""Expert's model of the opponent (two players): greedy's choice reproduced exactly, what
the opponent's earlier plays say about its hand, and the search over sampled deals."""

from __future__ import annotations

import random
from dataclasses import replace

from noddy.bots import ExpertPlayer, GreedyPlayer
from noddy.bots.expert import MODEL_SLIP, WIN, greedy_pick, history_weight
from noddy.bots.pegging import PlayRules
from noddy.bots.worlds import Worlds
from noddy.engine import Card, Game, Play, configure, parse_cards

from .helpers import play_view


def _cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def test_greedy_pick_is_greedys_choice() -> None:
    """On positions from real games of every two-player preset, greedy_pick (given what
    that seat can see) plays the rank greedy plays."""
    rng = random.Random(1)
    checked = 0
    for preset in ("noddy-modern", "noddy", "noddy-holme", "five-card-cribbage", "cribbage"):
        rules = configure(preset)
        fast = PlayRules(rules)
        for _ in range(8):
            game = Game(preset, seed=rng.randrange(10**6))
            while not game.is_over and game.deal <= 3:
                seat = game.awaiting[0]
                view = game.observation(seat)
                if sum(isinstance(a, Play) for a in view.legal_actions) > 1:
                    blocked = set(view.hand) | {c for _, c in view.played} | {view.turn_up}
                    sizes = list(view.hand_sizes)
                    other = 1 - seat
                    replier = 1 if sizes[other] and other not in view.passed else 0
                    card, real = greedy_pick(fast, view.hand, view.pile, view.count, blocked,
                                             52 - len(blocked), replier, -1, {})
                    assert real
                    assert card.rank == GreedyPlayer().choose(view, rules).card.rank
                    checked += 1
                game.apply(GreedyPlayer().choose(view, game.rules))
    assert checked > 100


def test_the_true_hand_of_a_greedy_opponent_always_fits_the_history() -> None:
    rng = random.Random(2)
    for preset in ("noddy-modern", "cribbage", "noddy"):
        fast = PlayRules(configure(preset))
        for _ in range(10):
            game = Game(preset, seed=rng.randrange(10**6))
            while not game.is_over and game.deal <= 3:
                seat = game.awaiting[0]
                view = game.observation(seat)
                if game.phase == "play":
                    truth = tuple(game.observation(1 - seat).hand)
                    assert history_weight(view, fast, truth, {}) == 1.0
                game.apply(GreedyPlayer().choose(view, game.rules))


def test_a_seat_that_said_go_held_nothing_that_fitted() -> None:
    """noddy-modern: we led 7C, the opponent QH, we JD (27); it said go.  It cannot hold an
    ace (that fitted), it may hold a five: at 7, Q leaves 17 (a pair of queens back, -6/47)
    where 5 leaves 12 (a 3 for fifteen, a pair, a six for a run: -26/47), and A leaves 8
    (a seven for fifteen, a pair: -12/47), so greedy played the queen either way."""
    view = play_view("noddy-modern", "AS", "7C QH JD", seat=0, hand_sizes=(1, 1),
                     passed=(1,), dealer=1)
    view = replace(view, played=((0, Card.parse("7C")), (1, Card.parse("QH")),
                                 (0, Card.parse("JD"))))
    fast = PlayRules(configure("noddy-modern"))
    assert history_weight(view, fast, _cards("AC"), {}) == 0.0
    assert history_weight(view, fast, _cards("5C"), {}) == 1.0


def test_a_choice_greedy_would_not_make_is_less_likely() -> None:
    """noddy-modern: we led 5S.  Holding KH 9C 2D greedy takes the fifteen with KH (2 now,
    less about 6/47 for a pair of kings back) over 9C or 2D (nothing now, about -14/47).
    So if it answered KH, 9C 2D explain it fully; if it answered 2D, holding KH 9C it
    slipped once."""
    fast = PlayRules(configure("noddy-modern"))
    took = play_view("noddy-modern", "9S 3D", "5S KH", seat=0, hand_sizes=(2, 2), dealer=1)
    assert history_weight(took, fast, _cards("9C 2D"), {}) == 1.0
    slipped = play_view("noddy-modern", "9S 3D", "5S 2D", seat=0, hand_sizes=(2, 2), dealer=1)
    assert history_weight(slipped, fast, _cards("KH 9C"), {}) == MODEL_SLIP


def test_worlds_search_values_a_known_deal_exactly() -> None:
    """noddy-modern, we (non-dealer) lead holding 5S 9C, the opponent holds only TH.
    5S: TH makes 15 (2 to them), our 9C 24 and the last card (1): -1.  9C: TH makes 19,
    our 5S 24 and the last card: +1."""
    rules = configure("noddy-modern")
    fast = PlayRules(rules)
    view = play_view("noddy-modern", "5S 9C", seat=0, dealer=1, hand_sizes=(2, 1))
    search = Worlds(view, rules, fast)
    worlds = [(_cards("TH"), 1.0, 0, 0)]
    hand = tuple(view.hand)
    assert search.root(worlds, hand, (), 0, 0, Card.parse("5S")) == -1.0
    assert search.root(worlds, hand, (), 0, 0, Card.parse("9C")) == 1.0


def test_worlds_search_counts_the_show_in_order() -> None:
    """Same deal at 30-30: the non-dealer (us) shows first after the play, so any show
    point wins whatever the play did -- unless the opponent pegs to 31 in the play: 5S
    lets its ten make fifteen, so 5S loses and 9C wins."""
    rules = configure("noddy-modern")
    fast = PlayRules(rules)
    view = play_view("noddy-modern", "5S 9C", seat=0, dealer=1, hand_sizes=(2, 1),
                     scores=(30, 30))
    search = Worlds(view, rules, fast)
    worlds = [(_cards("TH"), 1.0, 5, 0)]
    hand = tuple(view.hand)
    assert search.root(worlds, hand, (), 0, 0, Card.parse("5S")) == -WIN
    assert search.root(worlds, hand, (), 0, 0, Card.parse("9C")) == WIN


def test_expert_answers_a_known_greedy_lead_in_modern() -> None:
    """Decisions stay legal and deterministic through the model search."""
    view = play_view("noddy-modern", "5S 9C TD", "6H", seat=1, dealer=1, hand_sizes=(2, 3))
    rules = configure("noddy-modern")
    a = ExpertPlayer(seed=3).choose(view, rules)
    assert a in view.legal_actions
    assert a == ExpertPlayer(seed=3).choose(view, rules)


def test_out_of_nodes_it_plays_greedys_card() -> None:
    """With no node budget at all the search gives way to greedy's own choice (the bound
    on the work of one decision, the same on every machine)."""
    rules = configure("noddy-modern")
    for hand, pile in (("5S 9C TD", "6H"), ("2D AD 3S", ""), ("KH 5C 2D", "5S")):
        view = play_view("noddy-modern", hand, pile, seat=1, dealer=1 if pile else 0,
                         hand_sizes=(3 - len(pile.split()), 3))
        expected = GreedyPlayer().choose(view, rules)
        got = ExpertPlayer(seed=4, max_nodes=0).choose(view, rules)
        assert got.card.rank == expected.card.rank


def test_replies_are_every_card_that_pegs_on_a_pile() -> None:
    """``pegging_replies`` (one card standing for the suits that cannot extend a flush) lists
    exactly the cards whose play on the pile pegs, with their points, on every preset."""
    from noddy.bots.opponent_model import pegging_replies
    from noddy.engine import FULL_DECK, PRESETS

    rng = random.Random(1)
    for name in PRESETS:
        fast = PlayRules(configure(name))
        for _ in range(300):
            pile: tuple = ()
            count = 0
            for card in rng.sample(FULL_DECK[:20] if rng.random() < 0.6 else FULL_DECK, 6):
                if count + card.value > 31:
                    break
                pile += (card,)
                count += card.value
            want = {}
            for reply in FULL_DECK:
                if reply.value <= 31 - count:
                    gained = fast.points_uncached(pile + (reply,), count + reply.value)
                    if gained:
                        want[reply] = gained
            assert dict(pegging_replies(fast, pile, count)) == want, (name, pile)
