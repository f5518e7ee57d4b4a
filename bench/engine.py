"""Engine speed: show totals scored per second and complete random games per second.

Bots call the engine millions of times, so these are the figures that matter to them:

* ``show_total`` (the fast path) and ``score_show`` (itemised) on random Noddy and Cribbage
  hands, in shows per second;
* ``legal_actions`` while laying away in cribbage (15 discards a call), in µs per call;
* complete two-player ``noddy`` and ``cribbage`` games between uniformly random players, in
  games per second (every legal-move list built and every event produced, as a bot or the
  server would; in cribbage, building the 15 discards of each deal is part of it).

Run ``python bench/engine.py`` (``--seconds`` of CPU per figure, default 2; ``--games-only``).
One process, one core.
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
    """Call ``func()`` (which returns how many things it did) until ``seconds`` of this
    process's CPU time pass: a rate per CPU second, steadier than wall time on a shared
    machine."""
    done = 0
    start = time.process_time()
    while True:
        done += func()
        elapsed = time.process_time() - start
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


def bench_discards() -> None:
    """``legal_actions`` while laying away in cribbage: 15 discards built per call."""
    games = [Game("cribbage", 2, seed=seed) for seed in range(200)]
    repeats = []
    for _ in range(5):
        start = time.process_time()
        for _ in range(20):
            for game in games:
                game.legal_actions(0)
                game.legal_actions(1)
        repeats.append((time.process_time() - start) / (20 * 200 * 2) * 1e6)
    repeats.sort()
    print(f"cribbage laying-away legal_actions: {repeats[2]:8.1f} µs/call (median of 5; "
          f"best {repeats[0]:.1f})")


def bench_games(seconds: float, presets: tuple[str, ...] = ("noddy", "cribbage")) -> None:
    for preset in presets:
        rng = random.Random(2)
        seed = iter(range(10**9))

        def one_game() -> int:
            game = Game(preset, 2, seed=next(seed))
            choice = rng.choice
            while not game.is_over:
                seat = game.awaiting[0]
                game.apply(choice(game.legal_actions(seat)))
            return 1

        rate, games = _rate(one_game, seconds)
        print(f"random 2-player {preset} games: {rate:12,.0f} games/s ({games} games)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per figure")
    parser.add_argument("--games-only", action="store_true", help="only the random games")
    args = parser.parse_args()
    if not args.games_only:
        bench_shows(args.seconds)
    bench_discards()
    bench_games(args.seconds)


if __name__ == "__main__":
    main()
