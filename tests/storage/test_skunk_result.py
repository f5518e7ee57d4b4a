"""A skunk reaches every reader of a finished game from the engine's one outcome value: the
``game_over`` event the players were sent, the stored result ``list_games`` returns, the
record ``get_game`` returns, and the narration of that event (issue 26; RULES.md "Skunks
and matches").  A seeded cribbage game to 61, ann playing at random against ``greedy``."""

from __future__ import annotations

import random

from noddy.protocol.story import narrate
from noddy.server.storage import Storage

from ..server.results import outcome_events
from .helpers import Driver


def test_a_skunk_is_in_the_game_over_event_the_stored_result_and_the_narration() -> None:
    d = Driver(Storage(":memory:"), seed=0)
    ann = d.connect("ann")
    d.versus_computer(ann, "cribbage", "greedy", options={"target": 61})
    d.play(ann, random.Random(0))
    game = d.core.tables[1].game
    assert game is not None and game.outcome is not None
    over = [m["event"] for m in d.inbox[ann] if m["type"] == "event" and m["event"]["kind"] == "game_over"]
    assert outcome_events(over) == [{"kind": "game_over", "winner": 1, "winning_seats": [1], "scores": [24, 66],
                     "ending": "target", "skunk": "skunk"}]
    listed = d.send(ann, {"type": "list_games"})["games"]
    assert [g["result"] for g in listed] == [{k: v for k, v in over[0].items() if k != "kind"}]
    record = d.send(ann, {"type": "get_game", "game": listed[0]["id"]})
    assert record["type"] == "game_record" and record["record"]["result"] == listed[0]["result"]
    assert record["record"]["steps"][-1]["events"][-1] == over[0]
    names = [s["name"] for s in listed[0]["seats"]]
    assert narrate(over[0], names) == f"{names[1]} wins the game, 66 to 24, a skunk!"
