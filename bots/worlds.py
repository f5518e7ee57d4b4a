"""The expert's two-player search: the rest of the play over many drawn deals at once.

With two players the expert draws deals of the unseen cards, keeps those the opponent's
play so far makes likely (:mod:`noddy.bots.opponent_model`), and searches the rest of the
play over all of them together with :class:`Worlds`: one card for every deal it cannot tell
apart at its own turns, greedy's card in each deal at the opponent's.  The search is
bounded by work, not time: it visits at most :data:`MAX_NODES` of this seat's turns, then
raises :class:`OutOfNodes` and the player falls back on greedy's card.
"""

from __future__ import annotations

from noddy.engine import Card, Observation, Rules, show_total

from .opponent_model import REPLIES, pegging_replies, reply_key
from .pegging import PlayRules
from .search import WIN, distinct_moves

#: The most turns of this seat the two-player search visits in one decision (a bound by
#: work, not time, so a decision is the same on every machine); past it, greedy's card.
MAX_NODES = 20_000

#: A drawn deal for :class:`Worlds`: the opponent's hand, its weight, and the points the
#: opponent's show and the crib will make after the play (0 when there is none).
World = tuple[tuple[Card, ...], float, int, int]


class OutOfNodes(Exception):
    """The search of one decision used up its node budget."""


class Worlds:
    """Expectimax of the rest of a two-player play over a set of sampled deals at once.

    The state everybody sees (pile, count, goes, points pegged, this seat's hand) is shared;
    only the opponent's hand differs between the deals.  At this seat's turn one card is
    chosen for *all* the deals still possible (it cannot know which one is true: no
    "strategy fusion"); at the opponent's turn, in each deal it plays the card greedy would
    play there, and the deals split by the card seen (or the go), each group searched on
    its own -- which is also what this seat learns from the card.  A deal's value is its
    weight times: the points pegged by this seat minus the opponent's, or +/-:data:`WIN`
    if a side reaches the target in the play or in the show that follows it.
    """

    def __init__(self, view: Observation, rules: Rules, fast: PlayRules) -> None:
        assert view.seat is not None and view.dealer is not None and view.hand is not None
        self.fast = fast
        self.me = view.seat
        self.opp = 1 - view.seat
        self.base = view.scores
        self.target = view.target
        self.flush = fast.flush
        self.restarts = fast.restarts
        self.dead = {card for _, card in view.played}
        if view.turn_up is not None:
            self.dead.add(view.turn_up)
        #: The replies that peg on each pile: the memo every search of these scoring rules shares.
        self.replies: dict[tuple[int, ...], tuple[tuple[Card, int], ...]] = REPLIES.memo(fast.scoring)
        # After the play (show-after-play presets): the non-dealer shows first.
        self.me_first = (view.dealer + 1) % 2 == self.me
        self.my_show = 0
        self.has_show = fast.show_after_play and view.turn_up is not None
        if self.has_show:
            kept = tuple(view.hand) + tuple(c for s, c in view.played if s == self.me)
            self.my_show = show_total(kept, view.turn_up, rules)
        self.my_crib = view.dealer == self.me
        self.budget = MAX_NODES  # this seat's turns the search may still visit

    # -- the search ----------------------------------------------------------------------
    def root(self, worlds: list[World], hand: tuple[Card, ...], pile: tuple[Card, ...],
             count: int, passed: int, card: Card) -> float:
        return self._play(self.me, card, worlds, hand, pile, count, passed, (), (0, 0))

    def _play(self, seat: int, card: Card, worlds: list[World], hand: tuple[Card, ...],
              pile: tuple[Card, ...], count: int, passed: int, gone: tuple[Card, ...],
              gains: tuple[int, int]) -> float:
        if seat == self.me:
            hand = tuple(c for c in hand if c is not card)
        pile = pile + (card,)
        count += card.value
        gone = gone + (card,)
        points = self.fast.points(pile, count)
        if points:
            if seat == self.me:
                gains = (gains[0] + points, gains[1])
            else:
                gains = (gains[0], gains[1] + points)
            if self.base[seat] + gains[seat != self.me] >= self.target:
                return self._won(seat, worlds)
        if count == 31:
            return self._end_count(seat, False, worlds, hand, pile, count, passed, gone, gains)
        return self._turn(seat, seat, worlds, hand, pile, count, passed, gone, gains)

    def _won(self, seat: int, worlds: list[World]) -> float:
        weight = sum(w[1] for w in worlds)
        return weight * WIN if seat == self.me else -weight * WIN

    def _turn(self, after: int, last: int | None, worlds: list[World], hand: tuple[Card, ...],
              pile: tuple[Card, ...], count: int, passed: int, gone: tuple[Card, ...],
              gains: tuple[int, int]) -> float:
        first = 1 - after
        opp_cards = len(worlds[0][0])
        for seat in (first, after):
            if (hand if seat == self.me else opp_cards) and not (passed >> seat) & 1:
                if seat == self.me:
                    return self._my_move(last, worlds, hand, pile, count, passed, gone, gains)
                return self._opp_move(last, worlds, hand, pile, count, passed, gone, gains)
        return self._end_count(last, True, worlds, hand, pile, count, passed, gone, gains)

    def _my_move(self, last: int | None, worlds: list[World], hand: tuple[Card, ...],
                 pile: tuple[Card, ...], count: int, passed: int, gone: tuple[Card, ...],
                 gains: tuple[int, int]) -> float:
        self.budget -= 1
        if self.budget < 0:
            raise OutOfNodes
        choices = distinct_moves(hand, count, self.flush)
        if not choices:
            return self._turn(self.me, last, worlds, hand, pile, count, passed | (1 << self.me),
                              gone, gains)
        return max(self._play(self.me, card, worlds, hand, pile, count, passed, gone, gains)
                   for card in choices)

    def _opp_move(self, last: int | None, worlds: list[World], hand: tuple[Card, ...],
                  pile: tuple[Card, ...], count: int, passed: int, gone: tuple[Card, ...],
                  gains: tuple[int, int]) -> float:
        room = 31 - count
        opp = self.opp
        # Greedy's replier after its card: this seat if it can still be asked, else nobody.
        replier = 1 if hand and not (passed >> self.me) & 1 else 0
        seen = self.dead.union(gone)  # what every deal's opponent has seen played
        groups: dict[Card | None, list[World]] = {}
        # greedy_pick for every deal at once: a card's points now and the replies it gives
        # away (less those the deal's opponent holds) are worked out once per node.
        candidates: dict[Card, tuple[int, int, dict[Card, int] | None]] = {}
        seen_count = len(seen)
        for world in worlds:
            opp_hand = world[0]
            if any(c.value <= room for c in opp_hand):
                if len(opp_hand) == 1:
                    card = opp_hand[0]
                else:
                    card = self._greedy_card(opp_hand, pile, count, seen, replier,
                                             52 - seen_count - len(opp_hand), candidates)
                groups.setdefault(card, []).append(
                    (tuple(c for c in opp_hand if c is not card), world[1], world[2], world[3]))
            else:
                groups.setdefault(None, []).append(world)
        total = 0.0
        for card, group in groups.items():
            if card is None:
                total += self._turn(opp, last, group, hand, pile, count, passed | (1 << opp),
                                    gone, gains)
            else:
                total += self._play(opp, card, group, hand, pile, count, passed, gone, gains)
        return total

    def _greedy_card(self, opp_hand: tuple[Card, ...], pile: tuple[Card, ...], count: int,
                     seen: set[Card], replier: int, unseen: int,
                     candidates: dict[Card, tuple[int, int, dict[Card, int] | None]]) -> Card:
        """Exactly ``greedy_pick(fast, opp_hand, pile, count, seen | opp_hand, unseen,
        replier, -1, replies)[0]`` (``unseen`` is ``52 - len(seen | opp_hand)``), with each
        card's share of the work kept in ``candidates`` for the other deals of the node."""
        room = 31 - count
        best_key: tuple[float, int, int] | None = None
        best = opp_hand[0]
        for card in opp_hand:
            if card.value > room:
                continue
            entry = candidates.get(card)
            if entry is None:
                entry = self._candidate(pile, count, card, seen, replier, unseen)
                candidates[card] = entry
            now, total, by_card = entry
            value: float = now
            if by_card is not None:
                for held in opp_hand:
                    gained = by_card.get(held)
                    if gained:
                        total -= gained
                value = value - total / unseen
            key = (value, card.value, card.rank)
            if best_key is None or key > best_key:
                best_key = key
                best = card
        return best

    def _candidate(self, pile: tuple[Card, ...], count: int, card: Card, seen: set[Card],
                   replier: int, unseen: int) -> tuple[int, int, dict[Card, int] | None]:
        """``card`` played on ``pile``: the points it pegs, and (if a reply is asked for) the
        points of the replies nobody has seen played, in total and by card."""
        new_pile = pile + (card,)
        new_count = count + card.value
        now = self.fast.points(new_pile, new_count)
        if new_count == 31 or not unseen or not replier:
            return now, 0, None
        replies = self.replies
        key = reply_key(self.flush, new_pile)
        found = replies.get(key)
        if found is None:
            found = pegging_replies(self.fast, new_pile, new_count)
            REPLIES.put(replies, key, found)
        by_card = {reply: gained for reply, gained in found if reply not in seen}
        return now, sum(by_card.values()), by_card

    def _end_count(self, last: int | None, last_card: bool, worlds: list[World],
                   hand: tuple[Card, ...], pile: tuple[Card, ...], count: int, passed: int,
                   gone: tuple[Card, ...], gains: tuple[int, int]) -> float:
        fast = self.fast
        if last_card and last is not None and fast.last_card:
            mine = last == self.me
            point = fast.last_card
            gains = (gains[0] + point, gains[1]) if mine else (gains[0], gains[1] + point)
            if self.base[last] + gains[not mine] >= self.target:
                return self._won(last, worlds)
        if fast.restarts and (hand or worlds[0][0]):
            assert last is not None
            return self._turn(last, last, worlds, hand, (), 0, 0, gone, gains)
        return self._finished(worlds, gains)

    def _finished(self, worlds: list[World], gains: tuple[int, int]) -> float:
        mine = self.base[self.me] + gains[0]
        theirs = self.base[self.opp] + gains[1]
        diff = gains[0] - gains[1]
        if not self.has_show:
            return diff * sum(w[1] for w in worlds)
        target = self.target
        total = 0.0
        for _, weight, their_show, crib in worlds:
            m = mine
            t = theirs
            if self.me_first:
                m += self.my_show
                if m >= target:
                    total += weight * WIN
                    continue
                t += their_show
                if t >= target:
                    total -= weight * WIN
                    continue
                t += crib
                if t >= target:
                    total -= weight * WIN
                    continue
            else:
                t += their_show
                if t >= target:
                    total -= weight * WIN
                    continue
                m += self.my_show + crib
                if m >= target:
                    total += weight * WIN
                    continue
            total += weight * diff
        return total
