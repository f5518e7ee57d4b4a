"""How long the coach takes: milliseconds to rank all 15 discards, and to rank a play.

Not a test: it prints figures.  For ``--hands`` seeded six-card Cribbage hands it times
:func:`noddy.bots.coach.rank_discards` (the batched show over the 46 turn-ups) against the
same ranking with each kept hand's points averaged by calling the engine's ``score_show``
46 times per discard (690 itemised shows a hand), checks the two agree, and times
:func:`~noddy.bots.coach.rank_plays` at every play decision of those deals.

    python bench/coach.py               # 50 hands
    python bench/coach.py --hands 200
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Callable, Sequence

from noddy.bots.coach import CRIB_SAMPLES, rank_discards, rank_plays
from noddy.bots.crib_values import crib_value
from noddy.bots.pegging import team_of, unseen_cards
from noddy.engine import Discard, Game, Observation, Rules, score_show


def _naive_discards(view: Observation, rules: Rules) -> list[tuple[float, tuple]]:
    """rank_discards' totals with score_show called for every turn-up (the slow way)."""
    assert view.hand is not None and view.seat is not None and view.dealer is not None
    turn_ups = unseen_cards(view)
    sign = 1.0 if team_of(view, view.dealer) == team_of(view, view.seat) else -1.0
    out = []
    for action in view.legal_actions:
        assert isinstance(action, Discard)
        kept = tuple(sorted(c for c in view.hand if c not in action.cards))
        hand = sum(score_show(kept, t, rules).total for t in turn_ups) / len(turn_ups)
        crib = sign * crib_value(action.cards, rules, view.players, CRIB_SAMPLES)
        out.append((hand + crib, action.cards))
    out.sort(key=lambda x: -x[0])
    return out


def _ms(call: Callable[[], object], repeat: int = 3) -> float:
    """The best of ``repeat`` timings of ``call``, in milliseconds."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - started)
    return best * 1000


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=50, help="six-card hands (default 50)")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)
    batched: list[float] = []
    naive: list[float] = []
    plays: list[float] = []
    for i in range(args.hands):
        game = Game("cribbage", seed=args.seed + i)
        seat = game.awaiting[0]
        view = game.observation(seat)
        rules = game.rules
        fast = rank_discards(view, rules)  # warm the crib table look-ups
        slow = _naive_discards(view, rules)
        assert len(fast) == len(slow) == 15
        assert all(abs(a.total - b[0]) < 1e-9 for a, b in zip(fast, slow))
        batched.append(_ms(lambda: rank_discards(view, rules)))
        naive.append(_ms(lambda: _naive_discards(view, rules), repeat=1))
        # Play the deal out (first legal actions), timing every play decision with a choice.
        while game.deal == 1 and not game.is_over:
            mover = game.awaiting[0]
            if game.phase == "play" and len(game.legal_actions(mover)) > 1:
                seen = game.observation(mover)
                plays.append(_ms(lambda: rank_plays(seen, rules)))
            game.apply(game.legal_actions(mover)[0])
    print(f"coach, cribbage, {args.hands} six-card hands (seed {args.seed}); ms, median / max")
    print(f"  rank all 15 discards, batched show      {statistics.median(batched):7.2f} / "
          f"{max(batched):7.2f}")
    print(f"  rank all 15 discards, 46 x score_show   {statistics.median(naive):7.2f} / "
          f"{max(naive):7.2f}   ({statistics.median(naive) / statistics.median(batched):.0f}x)")
    print(f"  rank_plays ({len(plays)} decisions)            {statistics.median(plays):7.2f} / "
          f"{max(plays):7.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
