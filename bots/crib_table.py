"""The crib values of the presets, computed ahead of time and read from a data file.

:func:`noddy.bots.crib_values.crib_value` averages the show of a crib over thousands of
seeded draws, once per pattern of cards laid away.  For the presets those values are worked
out once, by ``python -m noddy.bots.make_crib_table``, and kept as plain data in
``bots/data/crib_table.json`` (shipped in the wheel as package data), so that no game pays
for them.  This module only reads that file: it imports nothing of the expert, and the
expert reads the table through it.  A test recomputes entries and compares.

In the file, a preset's entries are grouped by the number of players and by whether the
laid-away cards share a suit (``"same suit"``, which a single card always does, or
``"mixed suits"``); each entry is keyed by the laid-away ranks in the engine's letters,
lowest first (``"A5"``, ``"5J"``, ``"TT"``): ``"cribbage" > "2 players" > "mixed suits" >
"5J"`` is a five and a Jack of different suits laid into a two-player cribbage crib.  In
memory, :data:`CRIB_TABLE` keys each value by ``(preset, players, ranks, same suit, draws)``:

>>> CRIB_TABLE[("cribbage", 2, (5, 11), False, 3000)]
7.280666666666667
>>> pattern_text((5, 11)), pattern_ranks("5J")
('5J', (5, 11))
"""

from __future__ import annotations

import json
import os

#: The file the table is kept in, beside this module.
DATA_PATH = os.path.join(os.path.dirname(__file__), "data", "crib_table.json")

#: The ranks as the engine writes them (``Card.parse("TH")``): ace low, ten as ``T``.
RANK_LETTERS = "A23456789TJQK"

_RANK_OF = {letter: rank for rank, letter in enumerate(RANK_LETTERS, 1)}
_SUITED = {"same suit": True, "mixed suits": False}
_ABOUT = ("Crib values of the presets: the average show of a crib holding these laid-away "
          "ranks, over `draws` seeded draws of the rest of the crib and the turn-up. "
          "Written by `python -m noddy.bots.make_crib_table`; do not edit by hand.")

#: A key of the table: preset, players, laid-away ranks (sorted), same suit, draws.
Key = tuple[str, int, tuple[int, ...], bool, int]


def pattern_text(ranks: tuple[int, ...]) -> str:
    """The laid-away ranks as the file writes them: ``(1, 5)`` is ``"A5"``."""
    return "".join(RANK_LETTERS[rank - 1] for rank in ranks)


def pattern_ranks(text: str) -> tuple[int, ...]:
    """The ranks of a pattern as the file writes it: ``"A5"`` is ``(1, 5)``."""
    try:
        return tuple([_RANK_OF[letter] for letter in text])
    except KeyError as error:
        raise ValueError(f"not a rank letter in crib pattern {text!r}: {error.args[0]!r}") from None


def _players(text: str) -> int:
    number, _, word = text.partition(" ")
    if word != "players" or not number.isdigit():
        raise ValueError(f"not a number of players in the crib table: {text!r}")
    return int(number)


def load(text: str) -> dict[Key, float]:
    """The table held by the JSON ``text`` of the data file."""
    data = json.loads(text)
    draws = data["draws"]
    table: dict[Key, float] = {}
    for preset, by_players in data["presets"].items():
        for players, by_suits in by_players.items():
            for suits, values in by_suits.items():
                suited = _SUITED[suits]
                for pattern, value in values.items():
                    key = (preset, _players(players), pattern_ranks(pattern), suited, draws)
                    table[key] = value
    return table


def dump(table: dict[Key, float]) -> str:
    """The JSON text of the data file holding ``table`` (every key with the same draws),
    in the table's own order; floats are written exactly (``repr``), so :func:`load` gives
    back the same values."""
    draws = {key[4] for key in table}
    if len(draws) > 1:
        raise ValueError(f"one table holds one number of draws, not {sorted(draws)!r}")
    presets: dict[str, dict[str, dict[str, dict[str, float]]]] = {}
    for (preset, players, ranks, suited, _), value in table.items():
        suits = "same suit" if suited else "mixed suits"
        group = presets.setdefault(preset, {}).setdefault(f"{players} players", {})
        group.setdefault(suits, {})[pattern_text(ranks)] = value
    data = {"about": _ABOUT, "draws": draws.pop() if draws else 0, "presets": presets}
    return json.dumps(data, indent=1) + "\n"


def _read() -> dict[Key, float]:
    with open(DATA_PATH, encoding="utf-8") as file:
        return load(file.read())


#: Every precomputed crib value, read once when this module is first imported.
CRIB_TABLE: dict[Key, float] = _read()
