"""Every event class's own ``to_dict`` gives what the generic base-class walk gives.

Each event class spells out its ``to_dict`` for speed (see :mod:`noddy.engine.events`); the
generic :meth:`Event.to_dict` is the specification.  Over complete seeded games of every
preset and seating, every event and every seat's view of it (and a spectator's) must give
the generic dict, key order included, since the order is the wire order.  Two classes had
their own wire form before the others: ``Scored`` sends its announcement in place of
``spoken``, and ``CutForDeal`` names the dealer before the cuts, each cut as a small object;
and ``GameOver`` carries the game's one :class:`~noddy.engine.Outcome`, whose own dict it sends.

The same games pin ``always_public``: an event that claims it hides nothing must be its own
view for every seat, and a class that redacts (overrides ``for_seat``) must override the
claim too.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from noddy.engine import Game, find_preset
from noddy.engine.events import EVENT_TYPES, CutForDeal, Event, GameOver, Scored

from .presets import ALL


def _setups() -> list[tuple[str, int, bool]]:
    """Every (preset, players, partnerships) the presets allow."""
    out = []
    for preset in ALL:
        described = find_preset(preset).describe()
        out += [(preset, players, False) for players in described["players"]]
        out += [(preset, players, True) for players in described["partnership_players"]]
    return out


def _expected(event: Event) -> dict[str, Any]:
    """The generic dict, in the form of the two classes whose wire form differs from it."""
    generic = Event.to_dict(event)
    if isinstance(event, Scored):
        del generic["spoken"]
        generic["announcement"] = event.announcement
    elif isinstance(event, CutForDeal):
        generic = {"kind": event.kind, "dealer": event.dealer,
                   "cuts": [{"seat": seat, "card": str(card)} for seat, card in event.cuts]}
    elif isinstance(event, GameOver):
        generic = {"kind": event.kind, **event.outcome.to_dict()}
    return generic


@pytest.mark.parametrize("preset, players, partnerships", _setups())
def test_each_class_to_dict_is_the_generic_one(preset: str, players: int, partnerships: bool) -> None:
    kinds = set()
    for seed in range(10):
        game = Game(preset, players, partnerships=partnerships, seed=seed)
        chooser = random.Random(seed)
        while not game.is_over:
            game.apply(chooser.choice(game.legal_actions(chooser.choice(game.awaiting))))
        for event in game.log:
            kinds.add(event.kind)
            for seat in (None, *range(players)):
                view = event.for_seat(seat)
                if event.always_public:
                    assert view is event, (event, seat)
                if view is None:  # a private event, not told to this seat
                    assert event.private and seat != getattr(event, "seat", None), (event, seat)
                    continue
                got, want = view.to_dict(), _expected(view)
                assert got == want and list(got) == list(want), (got, want)
    # Plenty of kinds occur in every setup; a game always starts, deals, plays and ends.
    assert {"game_started", "cut_for_deal", "cards_dealt", "played", "scored", "game_over"} <= kinds


@pytest.mark.parametrize("cls", EVENT_TYPES.values(), ids=list(EVENT_TYPES))
def test_a_class_that_redacts_overrides_always_public(cls: type[Event]) -> None:
    redacts = cls.for_seat is not Event.for_seat
    claims_public = vars(Event)["always_public"]
    assert (cls.always_public is not claims_public) is redacts
