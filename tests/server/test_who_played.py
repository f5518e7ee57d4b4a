"""A stand-in does not rewrite history (issue 33, item 6), over real sockets on the core's
injected clock: who played each card is who sat there when it was played -- in the live
view (the pile's names, the dealer), in the snapshot of a person back at the seat (its
events retold with who made them), and in the replay of the stored record.
"""

from __future__ import annotations

import asyncio
import random

from noddy.client.cards import card_label
from noddy.client.screens.replay import Replay
from noddy.protocol.story import TableView
from noddy.server import ServerCore

from .harness import Client, play_out, running_server
from .harness import test_config as config_for_tests
from .test_stand_ins import registered_table

GRACE = 5.0
COMPUTER = "greedy computer 2"


def _played_by(client: Client, seat: int) -> bool:
    return lambda m: m["type"] == "event" and m["event"]["kind"] == "played" and m["event"]["seat"] == seat


async def test_ben_keeps_his_cards_and_the_computer_its_own_live_on_return_and_in_the_replay() -> None:
    now = [0.0]
    core = ServerCore(config_for_tests(grace_period=GRACE), clock=lambda: now[0])
    async with running_server(core=core) as server:
        ann, ben, table_id = await registered_table(server.port)
        rng_ann, rng_ben = random.Random(7), random.Random(8)

        # Both play until ben has played a card of the current count and it is ann's turn.
        async def until_bens_card() -> dict:
            pending = {ann: None, ben: None}
            rngs = {ann: rng_ann, ben: rng_ben}
            while True:
                for client in (ann, ben):
                    await client.send({"type": "snapshot"})
                    snap = await client.recv_until(lambda m: m["type"] == "snapshot")
                    game = snap["game"]
                    pile = game["pile"]
                    if client is ann and pile and game["played"][-1]["seat"] == 1 and game["to_move"] == 0:
                        return snap
                    turn = snap.get("turn")
                    if turn and turn["legal_actions"]:
                        action = dict(rngs[client].choice(turn["legal_actions"]))
                        if "min" in action:
                            action["points"] = action.pop("min")
                            action.pop("max")
                        await client.request({"type": "action", **action})
        snap = await until_bens_card()
        bens_card = snap["game"]["played"][-1]["card"]
        token = ben.token
        await ben.close()
        await ann.recv_until(lambda m: m["type"] == "player_away")
        now[0] += GRACE + 1
        await ann.recv_until(lambda m: m["type"] == "stand_in")
        await ann.recv_until(lambda m: m["type"] == "table")
        # ann plays on until the computer has played a card in the same count.
        view = TableView(seat=0)
        for message in ann.received:
            view.apply(message)
        dealer = view.dealer_name
        assert view.names[1] == COMPUTER and dealer in ("ann", "ben")
        assert view.pile_names()[[c for _, c in view.pile].index(bens_card)] == "ben"
        await ann.send({"type": "snapshot"})  # where the game stands: ann's turn
        await play_out(ann, rng_ann, stop_after=_played_by(ann, 1))
        view = TableView(seat=0)
        for message in ann.received:
            view.apply(message)
        names = view.pile_names()
        assert names[-1] == COMPUTER and "ben" in names, (view.pile, names)
        assert view.dealer_name == dealer  # who dealt the deal, not who sits there now
        computers_card = view.pile[-1][1]
        # ben comes back: his snapshot retells the computer's card as the computer's.
        back = await Client.connect(server.port)
        await back.hello("ben", resume=token)
        snapshot = await back.recv_until(lambda m: m["type"] == "snapshot")
        assert snapshot["dealt"] == ["ann", "ben"]
        assert [(c["seat"], c["name"]) for c in snapshot["seat_changes"]] == [(1, COMPUTER), (1, "ben")]
        told = [line.text() for line in TableView(seat=1).apply(snapshot)]
        assert f"{COMPUTER} plays {computers_card}" in " ".join(told), told
        assert not any(line.startswith(f"ben plays {computers_card}") for line in told), told
        assert any(line.startswith(f"ben plays {bens_card}") for line in told), told
        # The game is played out; the replay tells each card by who played it.
        await back.send({"type": "snapshot"})
        await ann.send({"type": "snapshot"})
        await asyncio.gather(play_out(ann, rng_ann), play_out(back, rng_ben))
        game_id = (await ann.request({"type": "snapshot"}))["table"]["game_id"]
        record = (await ann.request({"type": "get_game", "game": game_id}))["record"]
        replay = " ".join(line.text for line in Replay(record, me="ben").log)
        theirs, his = card_label(computers_card), card_label(bens_card)
        assert f"{COMPUTER} plays {theirs}" in replay and f"ben plays {theirs}" not in replay, replay
        assert f"ben plays {his}" in replay, replay
        await ann.close()
        await back.close()
