"""A club night's seats between games (issue 35): a pairing plays its deal both ways, A in
seat 0 in even games and B in odd ones, so the server moves both players between games --
and must tell them (a ``table`` push with their new ``seat``) before the next game's first
message, or a client that draws the table from its seat shows its own hand as the other's
and cannot play (seen in the tmux demo: noddy-client's second game showed "(no cards)")."""

from __future__ import annotations

import asyncio
import random

from .club_play import PRESET, core, person
from .harness import Client, play_out, running_server


def seat_told_before_the_game(client: Client, start: int) -> list[int]:
    """The seats told (``table`` pushes with ``seat``) from message ``start`` up to the next
    game's first event."""
    seats = []
    for message in client.received[start:]:
        if message["type"] == "event":
            break
        if message["type"] == "table" and message.get("seat") is not None:
            seats.append(message["seat"])
    return seats


async def test_each_player_is_told_their_new_seat_before_the_second_game() -> None:
    now = [1000.0]
    async with running_server(core=core(now)) as server:
        ann = await person(server.port, "ann", "127.0.0.2")
        assert (await ann.request({"type": "register", "password": "sesame"}))["type"] == "registered"
        reply = await ann.request({"type": "announce_event", "title": "Pairs", "format": "swiss",
                                   "rounds": 1, "games": 2, "round_pause": 0, **PRESET})
        assert reply["type"] == "club_event"
        ben = await person(server.port, "ben", "127.0.0.3")
        for client in (ann, ben):
            assert (await client.request({"type": "join_event", "event": 1}))["type"] == "ok"
        assert (await ann.request({"type": "direct_event", "event": 1, "command": "start"}))["type"] == "ok"
        first = {}
        for name, client in (("ann", ann), ("ben", ben)):
            told = await client.recv_until(lambda m: m["type"] == "event_table")
            first[name] = told["seat"]
        assert sorted(first.values()) == [0, 1]
        await asyncio.gather(play_out(ann, random.Random(3)), play_out(ben, random.Random(4)))
        marks = {"ann": len(ann.received), "ben": len(ben.received)}
        # The second game: wait for its first event at each, then read what came before it.
        for client in (ann, ben):
            await client.recv_until(lambda m: m["type"] == "event")
        assert seat_told_before_the_game(ann, marks["ann"]) == [1 - first["ann"]]
        assert seat_told_before_the_game(ben, marks["ben"]) == [1 - first["ben"]]
