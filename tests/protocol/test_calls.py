"""The game's own words (:mod:`noddy.protocol.calls`): a score called in each language.

In English the protocol's call must be the engine's, byte for byte: seeded games of every
preset and way of playing (counting by hand, the hitter that counts thirty-one, four-card
Noddy, Holme's picture cards) are played out with random legal moves, and every
announcement any seat or a spectator is sent is said again from its items.  In German and
Spanish the calls of hands from the issue and the seeds are pinned exactly.
"""

from __future__ import annotations

import random
from typing import Any, Iterator

import pytest

from noddy.engine import PRESETS, Game
from noddy.engine.score_items import number_words as engine_number_words
from noddy.protocol.calls import (announce, card_name, english_number, german_number,
                                  said_event, spanish_number)
from noddy.protocol.i18n import speaking

#: Games played per way of playing (enough that every kind of score turns up: the test
#: below checks that it did).
SEEDS = range(4)


def _options(rules: Any) -> list[dict[str, Any]]:
    """The tables worth calling scores at under ``rules``: as it comes, counted by hand
    where it may be, and with each extra option switched on."""
    out: list[dict[str, Any]] = [{}]
    if rules.manual_counting_allowed:
        out.append({"counting": "manual"})
    if "hitter_counts_thirty_one" in rules.extra_options:
        out.append({"hitter_counts_thirty_one": True})
    if "four_card" in rules.extra_options:
        out.append({"four_card": True})
    return out


def _games() -> Iterator[Game]:
    for name, rules in PRESETS.items():
        ways = [(n, False) for n in rules.solo_counts] + [(n, True) for n in rules.partnership_counts]
        for players, partners in ways:
            for options in _options(rules):
                for seed in SEEDS:
                    yield Game(name, players, partnerships=partners, options=options, seed=seed)


def _play_out(game: Game, rng: random.Random) -> None:
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions(game.awaiting[-1])))


def _announced(game: Game) -> Iterator[dict[str, Any]]:
    """Every event with an announcement, as each seat and a spectator are sent it."""
    for event in game.log:
        for seat in [*range(game.players), None]:
            seen = event.for_seat(seat)
            if seen is not None:
                data = seen.to_dict()
                if "announcement" in data:
                    yield data


def test_english_calls_equal_the_engines_in_every_preset() -> None:
    kinds: set[str] = set()
    checked = 0
    for number, game in enumerate(_games()):
        _play_out(game, random.Random(number))
        for event in _announced(game):
            concealed = event.get("concealed", False) and event.get("cards") is None
            assert announce(event["items"], 0, concealed) == event["announcement"], event
            message = {"type": "event", "table": 1, "seq": 1, "event": event}
            assert said_event(message, "en") is message
            kinds.update(item["kind"] for item in event["items"])
            checked += 1
    assert checked > 1000
    # Every name the presets give a score was called (and so checked) at least once.
    assert kinds >= {"fifteen", "pair", "pair royal", "run", "flush", "twenty-five", "thirty-one",
                     "hitter", "go", "last card", "knave noddy", "his heels", "his nob",
                     "picture card", "claim", "muggins", "first deal"}, kinds


def test_english_numbers_are_the_engines() -> None:
    assert [english_number(n) for n in range(-5, 1000)] == [engine_number_words(n)
                                                             for n in range(-5, 1000)]
