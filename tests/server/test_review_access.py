"""A live ``review`` follows the same access rule as the game's record, and replays the game
under the rules it was played with (issue 27, items 12 and 13, found by an outside audit).

Item 12, as reproduced: A creates a private cribbage table (counting by hand, hints on,
password "secret"); B sits in seat 1; they play a game.  A makes the table public and B
leaves.  N, who never knew "secret", sits in seat 1 and asks ``review {"deal": 1}``: N was
sent B's whole hand and crib discards, although ``get_game`` of that game is ``no_such_game``
to N.  Item 13: after ``configure_table`` between games a live review replayed the deals
under the new options ("the game is over" for a lower target, a card from a deal that never
happened for noddy-modern's ``four_card``).
"""

from __future__ import annotations

import asyncio
import random

from noddy.bots.coach import review
from noddy.engine import Game

from .harness import Client, play_out, running_server


async def _private_game_played(port: int, preset: str = "cribbage", **options: object) -> tuple[Client, Client, int]:
    """A's private table (password "secret", hints on), B in seat 1, one game played out."""
    a, b = await Client.connect(port), await Client.connect(port)
    await a.hello("A")
    await b.hello("B")
    created = await a.request({"type": "create_table", "preset": preset, "private": True, "password": "secret",
                               "options": {"hints": True, "target": 31, **options}})
    table = created["table"]["id"]
    assert (await b.request({"type": "sit", "table": table, "seat": 1, "password": "secret"}))["seat"] == 1
    await a.request({"type": "ready"})
    await b.request({"type": "ready"})
    await asyncio.gather(play_out(a, random.Random(1)), play_out(b, random.Random(2)))
    return a, b, table


async def test_a_newcomer_in_a_departed_players_seat_is_not_shown_their_hands() -> None:
    async with running_server() as server:
        a, b, table = await _private_game_played(server.port, counting="manual")
        game_id = server.core.tables[table].live.game_id
        assert (await a.request({"type": "configure_table", "private": False}))["type"] == "table"
        assert (await b.request({"type": "leave"}))["type"] == "ok"
        n = await Client.connect(server.port)
        await n.hello("N")
        assert (await n.request({"type": "sit", "table": table, "seat": 1}))["seat"] == 1
        refused = await n.request({"type": "review", "deal": 1})
        assert (refused["type"], refused["code"]) == ("error", "no_such_game")
        assert refused["message"] == f"you did not sit in seat 1 of game {game_id}; there is no game of yours to review"
        record = await n.request({"type": "get_game", "game": game_id})
        assert (record["type"], record["code"]) == ("error", "no_such_game")
        # A, who sat in seat 0 throughout, still reviews their own deals.
        own = await a.request({"type": "review", "deal": 1})
        assert (own["type"], own["seat"], own["deal"]) == ("review", 0, 1)
        for client in (a, b, n):
            await client.close()


async def test_a_live_review_replays_the_game_under_the_rules_it_was_played_with() -> None:
    async with running_server() as server:
        a, b, table = await _private_game_played(server.port, preset="noddy-modern")
        live = server.core.tables[table]
        played_rules, taken = live.game.rules, list(live.live.taken)
        assert (await a.request({"type": "configure_table",
                                 "options": {"hints": True, "target": 15, "four_card": True}}))["type"] == "table"
        reply = await a.request({"type": "review", "deal": 1})
        start = Game(played_rules, 2, seed=live.game.seed)
        notes = [note.to_dict() for note in review(start, taken, 0, deal=1, margin=1.0)]
        assert (reply["type"], reply["seat"], reply["deal"], reply["notes"]) == ("review", 0, 1, notes)
        await a.close()
        await b.close()
