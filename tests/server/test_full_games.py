"""Complete games of every preset and player count between scripted network clients, with
spectators, and the hidden-information audit of every message each connection received."""

from __future__ import annotations

import asyncio
import random

import pytest

from noddy.engine import PRESETS, Scored

from .audit import Entitlement, audit
from .harness import Client, play_out, running_server
from .results import outcome

CONFIGS = [(name, n, False) for name, rules in PRESETS.items() for n in rules.solo_counts] + \
          [(name, n, True) for name, rules in PRESETS.items() for n in rules.partnership_counts]


def test_every_preset_has_a_config() -> None:
    assert {name for name, _, _ in CONFIGS} == set(PRESETS)
    assert ("cribbage", 3, False) in CONFIGS and ("noddy", 4, True) in CONFIGS


@pytest.mark.parametrize("seed", [11, 12, 13, 14, 15])
@pytest.mark.parametrize("preset,players,partnerships", CONFIGS,
                         ids=[f"{p}-{n}{'p' if t else ''}" for p, n, t in CONFIGS])
async def test_complete_game_with_spectators(preset: str, players: int, partnerships: bool,
                                             seed: int) -> None:
    async with running_server(seed=seed) as server:
        lobby = await Client.connect(server.port)
        await lobby.hello("lobby watcher")
        clients = [await Client.connect(server.port) for _ in range(players)]
        for i, client in enumerate(clients):
            await client.hello(f"p{i}", bot=True)
        created = await clients[0].request({"type": "create_table", "preset": preset,
                                            "players": players, "partnerships": partnerships})
        assert created["type"] == "table"
        table_id = created["table"]["id"]
        for i, client in enumerate(clients[1:], start=1):
            reply = await client.request({"type": "sit", "table": table_id, "seat": i})
            assert reply["table"]["seats"][i]["name"] == f"p{i}"
        watcher = await Client.connect(server.port)
        await watcher.hello("watcher")
        assert (await watcher.request({"type": "spectate", "table": table_id}))["type"] == "table"
        for client in clients:
            reply = await client.request({"type": "ready"})
        assert reply["table"]["status"] == "playing"
        table = server.core.tables[table_id]

        late = await Client.connect(server.port)
        await late.hello("late watcher")
        tasks = [play_out(c, random.Random(seed * 100 + i)) for i, c in enumerate(clients)]
        tasks.append(play_out(watcher, random.Random(0)))
        results = await asyncio.gather(*tasks, late.request({"type": "spectate", "table": table_id}))
        await late.recv_until(lambda m: m["type"] == "snapshot")

        game = table.game
        assert game is not None and game.is_over
        expected = {"kind": "game_over", "winner": game.winner,
                    "winning_seats": list(game.winning_seats), "scores": list(game.scores),
                    "ending": "target", "skunk": game.outcome.skunk}
        assert [outcome(r) for r in results[:-1]] == [expected] * (players + 1)
        assert max(game.scores) >= game.rules.target
        assert game.scores[game.winner] == max(game.scores)

        # Every member saw the whole stream, numbered 1, 2, 3... without a gap, and the
        # points in the scored events add up to the final scores.
        true_seqs = [seq for seq, _ in table.log]
        assert true_seqs == list(range(1, len(true_seqs) + 1))
        for client in clients + [watcher]:
            seqs = [m["seq"] for m in client.received if m["type"] == "event"]
            assert seqs == true_seqs
            totals = [0] * len(game.scores)
            for m in client.received:
                if m["type"] == "event" and m["event"]["kind"] == "scored":
                    team = m["event"]["seat"] % 2 if partnerships else m["event"]["seat"]
                    totals[team] += m["event"]["points"]
            assert totals == list(game.scores)
        assert sum(1 for _, e in table.log if isinstance(e, Scored)) > 0

        entitlement = Entitlement(table.log, players)
        checked = 0
        for seat, client in enumerate(clients):
            checked += audit(client.received, [seat] * len(client.received), entitlement, table_id)
        for spectator in (watcher, late):
            checked += audit(spectator.received, [None] * len(spectator.received), entitlement, table_id)
        assert checked > 0
        # Someone in the lobby hears about the table (seats, status: its latest state, pushed
        # within a lobby_push_interval) and never sees a card.
        await lobby.recv_until(lambda m: m["type"] == "table" and m["table"]["status"] == "finished")
        pushes = [m for m in lobby.received if m["type"] == "table"]
        assert pushes[-1]["table"]["status"] == "finished"
        assert audit(lobby.received, [None] * len(lobby.received), entitlement, table_id) == 0
        for client in clients + [watcher, late, lobby]:
            await client.close()
