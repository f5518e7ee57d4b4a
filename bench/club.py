"""What a club night's bookkeeping costs the server (issue 35): a full field
(:data:`~noddy.server.model.club_types.MAX_ENTRANTS`) through a Swiss of
:data:`~noddy.server.model.club_types.MAX_ROUNDS` rounds, in memory, results drawn at random.

Prints, per round: the time to pair it and open it (the last result of the round before
does it, with no pause), the slowest single game's result (``game_finished``), the
standings asked for once the round is over (its rating estimate worked out afresh: once a
round) and asked again (remembered), and to store the event whole as JSON (``to_dict``,
``json.dumps``) with its size -- every one of these runs on the server's event loop or its
storage thread.

    python bench/club.py
    python bench/club.py --entrants 16 --rounds 5
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Callable

from noddy.server.model.club import Event, EventDefinition
from noddy.server.model.club_types import MAX_ENTRANTS, MAX_ROUNDS, OpenTables


def timed(call: Callable[[], object]) -> tuple[float, object]:
    start = time.perf_counter()
    result = call()
    return (time.perf_counter() - start) * 1e3, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--entrants", type=int, default=MAX_ENTRANTS, help="field size (default: %(default)s)")
    parser.add_argument("--rounds", type=int, default=MAX_ROUNDS, help="Swiss rounds (default: %(default)s)")
    args = parser.parse_args()
    rng = random.Random(1)
    definition = EventDefinition(1, "bench", "dir", "swiss", "cribbage", rounds=args.rounds,
                                 games_per_pairing=2, forfeit_wait=60.0, round_pause=0.0, seed=1)
    event, _ = Event.announce(definition, 0.0)
    for i in range(args.entrants):
        event.join(0.0, f"player{i:02d}", "bot")
    now = 0.0
    ms, effects = timed(lambda: event.start(now, "dir"))
    print(f"{args.entrants} entrants, {args.rounds} rounds, 2 games a pairing; times in ms")
    print(f"{'round':>5} {'pair+open':>9} {'result':>7} {'standings':>9} {'again':>7} {'store':>7} {'bytes':>8}")
    table = 0
    for number in range(1, args.rounds + 1):
        pair_ms = ms
        (opening,) = [e for e in effects if isinstance(e, OpenTables)]  # type: ignore[union-attr]
        for board in opening.boards:
            table += 1
            event.table_opened(now, number, board.board, table)
            event.player_arrived(now, number, board.board, board.a)
            event.player_arrived(now, number, board.board, board.b)
        result_ms = 0.0
        for board in opening.boards:
            for game in range(2):
                winner, loser = (board.a, board.b) if rng.random() < 0.5 else (board.b, board.a)
                last = board.board == opening.boards[-1].board and game == 1
                spent, effects = timed(lambda: event.game_finished(
                    now, number, board.board, game, winner, {winner: 121, loser: rng.randrange(50, 120)}))
                if not last:
                    result_ms = max(result_ms, spent)
                else:
                    ms = spent  # the last result of a round also pairs and opens the next
        standings_ms, _ = timed(event.standings)
        again_ms, _ = timed(event.standings)
        store_ms, text = timed(lambda: json.dumps(event.to_dict()))
        print(f"{number:>5} {pair_ms:>9.2f} {result_ms:>7.3f} {standings_ms:>9.1f} {again_ms:>7.2f} "
              f"{store_ms:>7.2f} {len(str(text)):>8}")


if __name__ == "__main__":
    main()
