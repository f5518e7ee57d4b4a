"""The server's log counts seats as people see them, from 1 (issue 33, item 15): the log
said ``dee joins table 12 by invitation (seat 1)`` while dee's client showed seat 2."""

from __future__ import annotations

import logging

import pytest

from .harness import Client, running_server


async def test_an_invitation_and_a_resignation_are_logged_with_the_seats_people_see(
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="noddy.server")
    async with running_server() as server:
        fay, dee, ben = [await Client.connect(server.port) for _ in range(3)]
        for client, name in ((fay, "fay"), (dee, "dee"), (ben, "ben")):
            await client.hello(name)
        await fay.request({"type": "create_table", "preset": "noddy"})
        invitation = (await fay.request({"type": "invite", "name": "dee"}))["challenge"]
        seated = await dee.request({"type": "accept", "challenge": invitation["id"]})
        assert seated["seat"] == 1  # the client shows seat 2
        await fay.request({"type": "ready"})
        await dee.request({"type": "ready"})
        await dee.recv_until(lambda m: m["type"] == "turn")
        await dee.request({"type": "leave"})
        await fay.recv_until(lambda m: m["type"] == "event" and m["event"]["kind"] == "game_over")
        said = [r.getMessage() for r in caplog.records if r.name == "noddy.server"]
        assert "dee joins table 1 by invitation (seat 2)" in said, said
        assert "dee resigned seat 2 at table 1" in said, said
        for client in (fay, dee, ben):
            await client.close()


async def test_a_won_game_and_a_resumed_connection_are_logged_by_name_and_seat_from_1(
        caplog: pytest.LogCaptureFixture) -> None:
    # Seen in the log: "table 6: game 1 won by 1, scores [0, 15]" (a side counted from 0) and
    # "connection 5 resumed <Session 'ben' conn=5 table=2 seat=1>" (a repr, seat from 0).
    caplog.set_level(logging.INFO, logger="noddy.server")
    async with running_server() as server:
        ann, ben = [await Client.connect(server.port) for _ in range(2)]
        await ann.hello("ann")
        await ben.hello("ben")
        await ann.request({"type": "create_table", "preset": "noddy"})
        await ben.request({"type": "sit", "table": 1})
        await ann.recv_until(lambda m: m["type"] == "table" and m["table"]["seats"][1] is not None)
        token = ben.token
        await ben.close()
        await ann.recv_until(lambda m: m["type"] == "player_away")
        back = await Client.connect(server.port)
        welcome = await back.request({"type": "hello", "version": 1, "resume": token})
        assert (welcome["type"], welcome["resumed"], welcome["seat"]) == ("welcome", True, 1)
        await ann.request({"type": "ready"})
        await back.request({"type": "ready"})
        await ann.recv_until(lambda m: m["type"] == "turn")
        await ann.request({"type": "leave"})  # ben wins by her resignation
        over = (await back.recv_until(lambda m: m["type"] == "event" and m["event"]["kind"] == "game_over"))
        await back.recv_until(lambda m: m["type"] == "table" and m["table"]["status"] == "finished")
        scores = over["event"]["scores"]
        said = [r.getMessage() for r in caplog.records if r.name == "noddy.server"]
        resumed = [line for line in said if " resumed " in line]
        assert resumed and resumed[0].endswith(" resumed ben (table 1, seat 2)"), said
        assert f"table 1: game 1 won by ben (seat 2), scores {scores[0]} to {scores[1]}" in said, said
        for client in (ann, back):
            await client.close()
