"""The expert's model of a two-player opponent: it plays as ``greedy`` does, mostly.

:func:`greedy_pick` is exactly the card :mod:`noddy.bots.greedy` would play (points now
less the replies it gives away), made fast for search: the replies that peg on a pile are
worked out once per pile (:func:`pegging_replies`, cached in :data:`REPLIES`).
:func:`history_weight` says how well a drawn hand for the opponent explains the play so
far: zero if the rules rule it out, and :data:`MODEL_SLIP` for each choice greedy would not
have made.  :mod:`noddy.bots.worlds` searches with the model; :mod:`noddy.bots.expert`
weights its drawn deals by it.
"""

from __future__ import annotations

from typing import Sequence

from noddy.engine import FULL_DECK, Card, Observation

from .memos import MemoFamily
from .pegging import PlayRules

#: How much less likely a sampled deal is for each earlier choice of the opponent that the
#: greedy model would not have made (the model is a guess, not a certainty).
MODEL_SLIP = 0.05

#: The four cards of each rank (index 0 empty), for the replies to a pile.
_BY_RANK = [[card for card in FULL_DECK if card.rank == rank] for rank in range(14)]


def reply_key(flush: bool, pile: tuple[Card, ...]) -> tuple[int, ...]:
    """The key of ``pile``'s replies: its cards' indexes, or only its ranks if the play scores
    no flushes (ints: quick to hash, and no work for the garbage collector)."""
    if flush:
        return tuple([card.index for card in pile])
    return tuple([card.rank for card in pile])


#: Every (card, points) pair a reply has been found to make, one object each: a pile's
#: replies are made of these, so a remembered pile costs a pointer per reply rather than a
#: tuple of its own (at most 52 cards times the few points a play can make).
_PAIRS: dict[tuple[Card, int], tuple[Card, int]] = {}


def pegging_replies(fast: PlayRules, pile: tuple[Card, ...],
                    count: int) -> tuple[tuple[Card, int], ...]:
    """Every card that would peg something played on ``pile``, with its points."""
    found: list[tuple[Card, int]] = []
    pairs = _PAIRS
    room = 31 - count
    points = fast.points_uncached  # the replies are remembered whole, per pile
    if fast.flush:
        # A reply's suit matters only if it is the suit of the pile's last card (a flush
        # runs on from it): one card of each rank in that suit, one standing for the others.
        suit = pile[-1].suit
        for rank in range(1, 14):
            same = _BY_RANK[rank]
            if same[0].value > room:
                continue
            other = same[1] if same[0].suit == suit else same[0]
            gained_other = points(pile + (other,), count + other.value)
            for reply in same:
                if reply.suit == suit:
                    gained = points(pile + (reply,), count + reply.value)
                else:
                    gained = gained_other
                if gained:
                    pair = (reply, gained)
                    found.append(pairs.setdefault(pair, pair))
        return tuple(found)
    for rank in range(1, 14):  # without flushes, the suit of a reply changes nothing
        same = _BY_RANK[rank]
        if same[0].value <= room:
            gained = points(pile + (same[0],), count + same[0].value)
            if gained:
                for reply in same:
                    pair = (reply, gained)
                    found.append(pairs.setdefault(pair, pair))
    return tuple(found)


#: The replies that peg on each pile seen (a pile's replies never change), keyed by the pile's
#: ranks when the play scores no flushes (suits change nothing then); one memo per set of
#: the play's scoring parameters (``REPLIES.memo(fast.scoring)``), 20,000 entries each and
#: 40,000 in all (see :mod:`noddy.bots.memos`).
REPLIES = MemoFamily("pegging replies", each=20_000, total=40_000, check_every=256)


def greedy_pick(fast: PlayRules, hand: Sequence[Card], pile: tuple[Card, ...], count: int,
                blocked: set[Card], unseen: int, replier: int, reply_sign: int,
                replies: dict[tuple[int, ...], tuple[tuple[Card, int], ...]]) -> tuple[Card, bool]:
    """The card :mod:`~noddy.bots.greedy` plays from ``hand``, and whether it was a real
    choice (two or more cards with different keys).

    Exactly :func:`~noddy.bots.greedy.play_value`: points now plus ``reply_sign`` times the
    replier's expected points, averaged over the ``unseen`` cards the player cannot see (the
    cards not in ``blocked``); ``replier`` is ``0`` when nobody else would play next.  Ties
    go to the higher card.  ``replies`` caches, per pile, the cards that would peg on it.
    """
    room = 31 - count
    points = fast.points
    best_key: tuple[float, int, int] | None = None
    best = hand[0]
    keys = 0
    for card in hand:
        if card.value > room:
            continue
        keys += 1
        new_pile = pile + (card,)
        new_count = count + card.value
        value: float = points(new_pile, new_count)
        if new_count != 31 and unseen and replier:
            key = reply_key(fast.flush, new_pile)
            found = replies.get(key)
            if found is None:
                found = pegging_replies(fast, new_pile, new_count)
                REPLIES.put(replies, key, found)
            total = 0
            for reply, gained in found:
                if reply not in blocked:
                    total += gained
            value = value + reply_sign * (total / unseen)
        key = (value, card.value, card.rank)
        if best_key is None or key > best_key:
            best_key = key
            best = card
    return best, keys > 1


def history_weight(view: Observation, fast: PlayRules, opp_hand: tuple[Card, ...],
                   replies: dict[tuple[int, ...], tuple[tuple[Card, int], ...]]) -> float:
    """How likely this deal's play so far is if the opponent (two players) holds
    ``opp_hand`` now: 0 if the rules rule it out (it said go holding a card that fitted, or
    played on when it had to say go), else :data:`MODEL_SLIP` to the power of the choices it
    made that greedy would not have made."""
    assert view.seat is not None and view.hand is not None and view.dealer is not None
    me = view.seat
    opp = 1 - me
    hands: list[list[Card]] = [[], []]
    hands[me] = list(view.hand) + [c for s, c in view.played if s == me]
    hands[opp] = list(opp_hand) + [c for s, c in view.played if s == opp]
    turn_up = view.turn_up
    pile: tuple[Card, ...] = ()
    count = 0
    passed = 0
    gone: set[Card] = set()
    weight = 1.0
    to_move: int | None = (view.dealer + 1) % 2
    last: int | None = None

    def advance(after: int) -> int | None:
        nonlocal pile, count, passed
        while True:
            for seat in (1 - after, after):
                if hands[seat] and not (passed >> seat) & 1:
                    return seat
            if not fast.restarts or not (hands[0] or hands[1]) or last is None:
                return None
            pile, count, passed = (), 0, 0
            after = last

    for seat, card in view.played:
        while to_move != seat or card.value > 31 - count:
            if to_move is None:
                return 0.0
            room = 31 - count
            if any(c.value <= room for c in hands[to_move]):
                return 0.0  # it would have had to play
            passed |= 1 << to_move
            to_move = advance(to_move)
        if seat == opp and len(hands[opp]) > 1:
            blocked = gone | set(hands[opp])
            if turn_up is not None:
                blocked.add(turn_up)
            replier = 1 if hands[me] and not (passed >> me) & 1 else 0
            choice, real = greedy_pick(fast, hands[opp], pile, count, blocked, 52 - len(blocked),
                                       replier, -1, replies)
            if real and choice.rank != card.rank:
                weight *= MODEL_SLIP
        hands[seat].remove(card)
        gone.add(card)
        pile = pile + (card,)
        count += card.value
        last = seat
        if count == 31:
            pile, count, passed = (), 0, 0
            if not fast.restarts:
                to_move = None
                continue
            to_move = advance(seat)
            # advance() above found the next seat from a fresh count only if hands remain
        else:
            to_move = advance(seat)
    # Now it is this seat's turn: any seat passed over to reach it must have had to go.
    while to_move is not None and to_move != me:
        room = 31 - count
        if any(c.value <= room for c in hands[to_move]):
            return 0.0
        passed |= 1 << to_move
        to_move = advance(to_move)
    return weight
