"""The Python example bot, made to crash once: in the middle of its game number ``CRASH_IN``
(counted from 1) at its first start, a marker file is written and the process dies with
status 5; started again (the marker exists), it plays like the example bot.

    python crashing_bot.py MARKER CRASH_IN HOST:PORT --table T --seat S --name N
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples" / "bots" / "python"))
import noddy_bot  # noqa: E402  (the example, from its folder)

MARKER, CRASH_IN = Path(sys.argv[1]), int(sys.argv[2])
games_begun = 0
original_choose, original_play_game = noddy_bot.choose, noddy_bot.play_game


def choose(legal: list[dict[str, Any]], known: dict[str, Any]) -> dict[str, Any]:
    if games_begun == CRASH_IN and not MARKER.exists():
        MARKER.write_text("crashed\n")
        os._exit(5)
    return original_choose(legal, known)


def play_game(conn: noddy_bot.Connection, seat: int) -> bool | None:
    global games_begun
    games_begun += 1
    return original_play_game(conn, seat)


noddy_bot.choose, noddy_bot.play_game = choose, play_game
sys.exit(noddy_bot.main(sys.argv[3:]))
