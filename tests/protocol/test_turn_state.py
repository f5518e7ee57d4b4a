"""A turn carries its state: the seat that must decide is told its hand, the pile, the count,
the scores, the dealer and the turn-up in the ``turn`` itself, equal to what folding every
event gives -- and nobody else is told anything more than before."""

from __future__ import annotations

import random

import pytest

from noddy.protocol.table_view import TableView
from tests.server.harness import Client, play_out, running_server


def _check_states(received: list[dict], seat: int, has_crib: bool) -> int:
    """Fold ``received`` as ``seat``; each turn with legal actions must carry ``state`` equal
    to the fold so far, each without must carry none.  Returns how many states were seen."""
    view = TableView(seat=seat)
    states = 0
    for message in received:
        if message["type"] == "turn":
            if not message["legal_actions"]:
                assert "state" not in message, message
            else:
                state = message["state"]
                states += 1
                assert state["seat"] == seat and seat in message["awaiting"]
                assert sorted(state["hand"]) == sorted(view.hand)
                assert state["pile"] == [card for _, card in view.pile]
                assert state["count"] == view.count == message["count"]
                assert state["dealer"] == view.dealer
                assert state["crib_owner"] == (view.dealer if has_crib else None)
                assert state["turn_up"] == view.turn_up
                assert state["scores"] == view.scores
                assert state["phase"] in ("discard", "play", "claim", "muggins")
                assert len(state["hand_sizes"]) == view.players
        view.apply(message)
    return states


@pytest.mark.parametrize("preset, options", [("noddy", {}), ("cribbage", {"counting": "manual"})])
async def test_the_deciding_seat_is_told_its_state_and_a_spectator_is_not(preset: str, options: dict) -> None:
    async with running_server() as server:
        ann, sam = await Client.connect(server.port), await Client.connect(server.port)
        await ann.hello("ann", turn_state=True)
        await sam.hello("sam", turn_state=True)
        table = (await ann.request({"type": "create_table", "preset": preset, "options": options}))["table"]
        await ann.request({"type": "add_computer", "seat": 1})
        await sam.request({"type": "spectate", "table": table["id"]})
        await ann.request({"type": "ready"})
        await play_out(ann, random.Random(7), claim_at_random=True)
        await ann.request({"type": "snapshot"})
        await sam.request({"type": "snapshot"})
        assert _check_states(ann.received, 0, has_crib=preset == "cribbage") > 10
        watched = [m for m in sam.received if m["type"] == "turn"]
        watched += [m["turn"] for m in sam.received if m["type"] == "snapshot" and "turn" in m]
        assert watched and all("state" not in turn and turn["legal_actions"] == [] for turn in watched)
        await ann.close()
        await sam.close()


async def test_a_turn_carries_state_only_for_a_session_that_asked_for_it() -> None:
    """State costs the server a seat's view per decision: a client that folds the events (the
    full-screen client, nc) does not ask, and gets the turn as before."""
    async with running_server() as server:
        ann = await Client.connect(server.port)
        await ann.hello("ann")
        await ann.request({"type": "create_table", "preset": "noddy"})
        await ann.request({"type": "add_computer", "seat": 1})
        await ann.request({"type": "ready"})
        turn = await ann.recv_until(lambda m: m["type"] == "turn" and 0 in m["awaiting"])
        assert turn["legal_actions"] and "state" not in turn
        await ann.close()
