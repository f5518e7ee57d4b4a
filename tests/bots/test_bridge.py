"""The bridge's engine line (noddy.bots.engine_line): a seat's state folded from events or
read from a snapshot gives the same decision, and an engine's answer is read strictly."""

from __future__ import annotations

import doctest
from typing import Any

import pytest

from noddy.bots import engine_line
from noddy.bots.engine_line import EngineError, SeatState, read_choice

EVENTS: list[dict[str, Any]] = [
    {"kind": "game_started", "preset": "cribbage", "players": 2, "partnerships": False, "target": 121},
    {"kind": "cut_for_deal", "cuts": [], "dealer": 1},
    {"kind": "deal_started", "deal": 1, "dealer": 1},
    {"kind": "cards_dealt", "seat": 0, "count": 6, "cards": ["5D", "KD", "5H", "8C", "9H", "KH"]},
    {"kind": "cards_dealt", "seat": 1, "count": 6, "cards": None},
    {"kind": "discarded", "seat": 1, "count": 2, "cards": None},
    {"kind": "discarded", "seat": 0, "count": 2, "cards": ["8C", "9H"]},
    {"kind": "turned_up", "card": "JS"},
    {"kind": "played", "seat": 0, "card": "KD", "count": 10},
    {"kind": "played", "seat": 1, "card": "5C", "count": 15},
    {"kind": "scored", "seat": 1, "points": 2, "reason": "play", "items": [], "scores": [0, 2]},
]
TURN = {"type": "turn", "table": 1, "seq": 11, "to_move": 0, "awaiting": [0], "count": 15,
        "legal_actions": [{"action": "play", "card": "5D"}, {"action": "play", "card": "5H"},
                          {"action": "play", "card": "KH"}], "time_left": None}
EXPECTED = {"type": "decide", "preset": "cribbage", "players": 2, "partnerships": False,
            "target": 121, "seat": 0, "dealer": 1, "crib": 1, "hand": ["5D", "5H", "KH"],
            "laid_away": ["8C", "9H"], "turn_up": "JS", "pile": ["KD", "5C"], "count": 15,
            "played": [{"seat": 0, "card": "KD"}, {"seat": 1, "card": "5C"}], "passed": [],
            "hand_sizes": [3, 3], "scores": [0, 2], "legal": TURN["legal_actions"]}


def test_the_module_examples_hold() -> None:
    assert doctest.testmod(engine_line).failed == 0


def test_events_fold_into_the_decision_line() -> None:
    state = SeatState(0)
    for event in EVENTS:
        state.apply(event)
    assert state.decision(TURN) == EXPECTED


def test_a_snapshot_gives_the_same_line_as_the_events() -> None:
    game = {"seat": 0, "preset": "cribbage", "players": 2, "partnerships": False, "target": 121,
            "phase": "play", "deal": 1, "dealer": 1, "hand": ["5D", "5H", "KH"],
            "hand_sizes": [3, 3], "crib_size": 4, "turn_up": "JS", "pile": ["KD", "5C"],
            "count": 15, "played": [{"seat": 0, "card": "KD"}, {"seat": 1, "card": "5C"}],
            "passed": [], "discarded": [], "scores": [0, 2], "to_move": 0,
            "legal_actions": TURN["legal_actions"], "winner": None, "laid_away": ["8C", "9H"],
            "shows": []}
    state = SeatState(0)
    state.load(game)
    assert state.decision(TURN) == EXPECTED


def test_a_new_count_and_a_new_deal_empty_the_pile_and_a_noddy_seat_has_no_crib() -> None:
    state = SeatState(1)
    state.apply({"kind": "game_started", "preset": "noddy", "players": 2, "partnerships": False,
                 "target": 31})
    state.apply({"kind": "deal_started", "deal": 1, "dealer": 0})
    state.apply({"kind": "played", "seat": 1, "card": "9S", "count": 9})
    state.apply({"kind": "go", "seat": 0})
    assert (state.passed, state.hand_sizes) == ([0], [0, 0])
    state.apply({"kind": "count_reset"})
    line = state.decision({"count": 0, "legal_actions": [{"action": "go"}]})
    assert (line["crib"], line["pile"], line["played"]) == (None, [], [{"seat": 1, "card": "9S"}])
    state.apply({"kind": "deal_started", "deal": 2, "dealer": 1})
    assert (state.pile, state.played, state.dealer) == ([], [], 1)


@pytest.mark.parametrize("answer, message", [
    ("3", "the engine chose action 3, but only 0..1 were offered"),
    ("play KD", "the engine answered 'play KD': not JSON"),
    ('{"action": "play", "card": "QS"}',
     'the engine answered \'{"action": "play", "card": "QS"}\': not one of the legal actions'),
    ("true", "the engine answered 'true': not one of the legal actions"),
])
def test_an_answer_that_is_not_a_legal_action_is_refused(answer: str, message: str) -> None:
    legal = [{"action": "play", "card": "5H"}, {"action": "play", "card": "KD"}]
    with pytest.raises(EngineError) as caught:
        read_choice(answer + "\n", legal)
    assert str(caught.value) == message


def test_a_claim_outside_its_range_is_refused() -> None:
    with pytest.raises(EngineError):
        read_choice('{"action": "claim", "points": 30}', [{"action": "claim", "min": 0, "max": 29}])


def test_an_engine_player_is_the_bridge_running_it_and_is_named_by_its_program() -> None:
    import sys

    from noddy.bots import external, tables
    from noddy.bots.tournament import entrant_names

    spec = "engine:python engines/e.py --deep"
    assert external.is_external(spec)
    assert external.parse_command(spec) == [sys.executable, "-P", "-m", "noddy.bots.bridge",
                                            "--engine", "python engines/e.py --deep"]
    assert tables._base_name(spec) == "e"
    assert entrant_names([spec, "greedy"]) == [("e.py", spec), ("greedy", "greedy")]
    with pytest.raises(ValueError) as caught:
        external.parse_command("engine:")
    assert str(caught.value) == "'engine:' names no command; write engine:PROGRAM [ARGS...]"


def test_the_decision_line_in_the_protocol_doc_is_what_the_bridge_writes() -> None:
    import json
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "PROTOCOL.md").read_text(encoding="utf-8")
    start = doc.index('{"type":"decide"')
    assert json.loads(doc[start:doc.index("\n", start)]) == EXPECTED
