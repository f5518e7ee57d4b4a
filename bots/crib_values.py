"""What a crib is worth to the expert: the average show of a crib holding the cards laid away.

Laying away is valued by the kept hand's show (exact over every turn-up) plus or minus the
crib's; the crib's depends on cards nobody has seen yet, so :func:`crib_value` estimates it
by seeded draws, once per *pattern* (the laid-away ranks and whether they share a suit).
For the presets the values were computed ahead of time and are read from
:mod:`noddy.bots.crib_table`; :mod:`noddy.bots.make_crib_table` recomputes that table with
:func:`estimate_crib`, importing this module (never the other way round).
"""

from __future__ import annotations

import dataclasses
import random

from noddy.engine import FULL_DECK, PRESETS, Card, Rules, show_total

from .crib_table import CRIB_TABLE
from .memos import MemoFamily

#: The draws a crib value is averaged over, unless a caller asks for another number.
CRIB_SAMPLES = 3000

#: The values estimated in this process, for rules and draws the table does not hold, by the
#: rules' crib scoring (:func:`_crib_scoring`: tables of every target share them), 20,000 in all.
_CRIB_VALUES = MemoFamily("crib values", each=20_000, total=20_000, check_every=64)

#: The card each laid-away rank stands for when a crib is valued: every card of one suit if
#: they share one, else clubs then diamonds (then hearts, spades).  The value depends only on
#: the pattern, so a fixed representative makes it independent of which deal met it first.
_CANON_SUITS = "CDHS"


def crib_value(laid: tuple[Card, ...], rules: Rules, players: int, samples: int) -> float:
    """The average show of a crib holding ``laid``, the rest of it and the turn-up drawn at
    random from the other cards.

    It depends on the laid-away ranks, whether they share a suit and which Jack could be
    "his nob", not on the rest of the hand, so it is estimated once per pattern (for one
    fixed representative of the pattern, with a fixed seed, ``samples`` draws) and cached
    for the life of the process: precise, deterministic, and free after the first deals.
    For the presets' own scoring (any target) the values are read from
    :mod:`noddy.bots.crib_table`, computed the same way ahead of time, so not even the
    first deals of a process pay for them.
    """
    ranks = tuple(sorted(card.rank for card in laid))
    suited = len({card.suit for card in laid}) == 1
    table_key = (_table_name(rules), players, ranks, suited, samples)
    value = CRIB_TABLE.get(table_key)
    if value is not None:
        return value
    memo = _CRIB_VALUES.memo(_crib_scoring(rules))
    key = (players, ranks, suited, samples)
    value = memo.get(key)
    if value is None:
        value = estimate_crib(rules, players, ranks, suited, samples)
        _CRIB_VALUES.put(memo, key, value)
    return value


def clear_crib_values() -> None:
    """Forget the values estimated in this process (a benchmark counts the first ones)."""
    _CRIB_VALUES.clear()


def estimate_crib(rules: Rules, players: int, ranks: tuple[int, ...], suited: bool,
                  samples: int) -> float:
    """:func:`crib_value` computed: ``samples`` seeded draws for the pattern's representative."""
    laid = tuple(Card(rank, "C" if suited else _CANON_SUITS[i]) for i, rank in enumerate(ranks))
    others = rules.discards(players) * players + rules.pack_to_crib(players) - len(laid)
    rest = [card for card in FULL_DECK if card not in laid]
    rng = random.Random(f"crib|{rules.name}|{(players, ranks, suited, samples)}")
    total = 0
    for _ in range(samples):
        draw = rng.sample(rest, others + 1)
        total += show_total(laid + tuple(draw[:others]), draw[others], rules, crib=True)
    return total / samples


def _crib_scoring(rules: Rules) -> Rules:
    """``rules`` with what does not change a crib's worth (see :func:`_table_name`) set alike."""
    return dataclasses.replace(rules, target=0, option_values=(), counting_by_hand=False,
                               turned_jack_points=0)


def _table_name(rules: Rules) -> str | None:
    """The preset whose crib table holds ``rules``' crib values: its own name if it scores
    exactly like that preset (the target and the record of options aside), else None."""
    preset = PRESETS.get(rules.name)
    if preset is None:
        return None
    # Neither the target, nor counting by hand, nor a turned-up Jack's points changes what
    # a crib holds.
    if rules == preset or dataclasses.replace(
            rules, target=preset.target, option_values=preset.option_values,
            counting_by_hand=preset.counting_by_hand,
            turned_jack_points=preset.turned_jack_points) == preset:
        return rules.name
    return None
