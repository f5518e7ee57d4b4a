"""Engine speed: show totals scored per second and complete random games per second.

Bots call the engine millions of times, so these are the figures that matter to them:

* ``show_total`` (the fast path) and ``score_show`` (itemised) on random Noddy and Cribbage
  hands, in shows per second;
* complete two-player ``noddy`` games between uniformly random players, in games per second
  (every legal-move list built and every event produced, as a bot or the server would).

Run ``python bench/engine.py`` (``--seconds`` per figure, default 2).  One process, one core.
"""

from __future__ import annotations

import argparse
import random
import time

from noddy.engine import FULL_DECK, PRESETS, Game, score_show, show_total


def _hands(rng: random.Random, count: int, size: int) -> list[tuple[tuple, object]]:
    hands = []
    for _ in range(count):
        cards = rng.sample(FULL_DECK, size + 1)
        hands.append((tuple(cards[:size]), cards[size]))
    return hands


def _rate(func, seconds: float) -> tuple[float, int]:
    """Call ``func()`` (which returns how many things it did) until ``seconds`` pass."""
    done = 0
    start = time.perf_counter()
    while True:
        done += func()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed, done


def bench_shows(seconds: float) -> None:
    rng = random.Random(1)
    for preset, size in (("noddy", 3), ("cribbage", 4)):
        rules = PRESETS[preset]
        hands = _hands(rng, 20_000, size)

        def fast() -> int:
            for hand, turn in hands:
                show_total(hand, turn, rules)
            return len(hands)

        def itemised() -> int:
            for hand, turn in hands[:2000]:
                score_show(hand, turn, rules)
            return 2000

        fast()  # warm the rank cache, as a long-running bot would have it
        rate, _ = _rate(fast, seconds)
        print(f"show_total  {preset:9s} {size}-card hands: {rate:12,.0f} shows/s")
        rate, _ = _rate(itemised, seconds)
        print(f"score_show  {preset:9s} {size}-card hands: {rate:12,.0f} shows/s")


def bench_games(seconds: float) -> None:
    rng = random.Random(2)
    seed = iter(range(10**9))

    def one_game() -> int:
        game = Game("noddy", 2, seed=next(seed))
        choice = rng.choice
        while not game.is_over:
            game.apply(choice(game.legal_actions(game.to_move)))
        return 1

    rate, games = _rate(one_game, seconds)
    print(f"random 2-player noddy games: {rate:12,.0f} games/s ({games} games)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per figure")
    args = parser.parse_args()
    bench_shows(args.seconds)
    bench_games(args.seconds)


if __name__ == "__main__":
    main()
