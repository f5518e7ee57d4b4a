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
