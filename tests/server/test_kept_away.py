"""A person alone at a table against computer players keeps their game when they stay away
longer than the grace period (issue 24, found in acceptance testing): with nobody else at
the table there is no one to stand in for, so the game waits, paused, and the seat, the
resume token and the account's login stay valid for ``keep_away`` seconds; after that the
table closes as before (the seat abandoned).  Over real sockets, with small durations."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from .harness import Client, play_out, running_server

SECRET = "correct horse"


async def alone_against_a_computer(port: int, password: str | None = None, **create: Any) -> tuple[Client, int]:
    """ann (registered when ``password`` is given) at a fresh noddy table against a computer,
    the game dealt and waiting for ann's first turn."""
    ann = await Client.connect(port)
    await ann.hello("ann")
    if password is not None:
        assert (await ann.request({"type": "register", "password": password}))["type"] == "registered"
    table_id = (await ann.request({"type": "create_table", "preset": "noddy", **create}))["table"]["id"]
    assert (await ann.request({"type": "add_computer", "level": "random"}))["type"] == "table"
    await ann.request({"type": "ready"})
    # ann's own turn (a turn that awaits the computer would let it move after the caller's
    # snapshot, which the test of a still game once met)
    await ann.recv_until(lambda m: m["type"] == "turn" and 0 in m["awaiting"])
    return ann, table_id


async def test_alone_at_a_table_back_by_resume_token_after_the_grace_period_finishes_the_game() -> None:
    async with running_server(grace_period=0.2, keep_away=60.0) as server:
        ann, table_id = await alone_against_a_computer(server.port)
        await ann.close()
        await asyncio.sleep(1.0)  # five grace periods: the old server closed the table here
        assert server.core is not None and table_id in server.core.tables
        back = await Client.connect(server.port)
        welcome = await back.hello("ann", resume=ann.token)
        assert (welcome["resumed"], welcome["table"], welcome["seat"]) == (True, table_id, 0)
        seats = server.core.tables[table_id].seats
        assert (seats[0].name, seats[0].stand_in) == ("ann", False)  # nobody stood in: it waited
        await back.send({"type": "snapshot"})
        over = await play_out(back, random.Random(7))
        assert over["ending"] == "target" and "abandoned" not in over, over
        await back.close()


async def test_alone_at_a_table_back_by_logging_in_after_the_grace_period_finishes_the_game() -> None:
    async with running_server(grace_period=0.2, keep_away=60.0) as server:
        ann, table_id = await alone_against_a_computer(server.port, password=SECRET)
        await ann.close()
        await asyncio.sleep(1.0)
        back = await Client.connect(server.port)
        welcome = await back.hello("ann", password=SECRET)  # no resume token: the account's login
        assert (welcome["resumed"], welcome["table"], welcome["seat"]) == (True, table_id, 0)
        await back.send({"type": "snapshot"})
        over = await play_out(back, random.Random(8))
        assert over["ending"] == "target" and "abandoned" not in over, over
        await back.close()


async def test_alone_at_a_table_the_table_closes_after_the_keep_away_time() -> None:
    async with running_server(grace_period=0.2, keep_away=0.5) as server:
        cy = await Client.connect(server.port)
        await cy.hello("cy")  # in the lobby, hearing the table news
        ann, table_id = await alone_against_a_computer(server.port)
        await ann.close()
        closed = await cy.recv_until(lambda m: m["type"] == "table_closed" and m["table"] == table_id)
        assert closed["reason"] == "empty"
        back = await Client.connect(server.port)
        refused = await back.request({"type": "hello", "name": "ann", "version": 1, "resume": ann.token})
        assert refused["code"] == "bad_token"
        for client in (cy, back):
            await client.close()


async def test_alone_at_a_table_with_a_turn_timer_nothing_moves_while_nobody_is_there() -> None:
    async with running_server(grace_period=0.2, keep_away=60.0) as server:
        ann, table_id = await alone_against_a_computer(server.port, turn_timer=1)
        before = await ann.request({"type": "snapshot"})
        await ann.close()
        await asyncio.sleep(2.0)  # past the grace period and the turn timer both
        back = await Client.connect(server.port)
        welcome = await back.hello("ann", resume=ann.token)
        assert (welcome["resumed"], welcome["table"], welcome["seat"]) == (True, table_id, 0)
        after = await back.recv_until(lambda m: m["type"] == "snapshot")
        # nobody played for ann, and the computer did not play on: the game waited
        assert (after["seq"], after["game"]) == (before["seq"], before["game"])
        await back.send({"type": "snapshot"})
        over = await play_out(back, random.Random(9))
        assert over["ending"] == "target" and "abandoned" not in over, over
        await back.close()


async def test_alone_at_a_table_the_game_waits_across_a_restart(tmp_path: Path) -> None:
    db = str(tmp_path / "noddy.sqlite3")
    async with running_server(db=db, grace_period=0.2, keep_away=60.0) as server:
        ann, table_id = await alone_against_a_computer(server.port)
        await ann.close()
        await asyncio.sleep(0.6)  # kept past the grace period when the server goes down
        assert server.core is not None and table_id in server.core.tables
    async with running_server(db=db, grace_period=0.2, keep_away=60.0) as server:
        await asyncio.sleep(0.6)  # a fresh grace period after the start, then kept again
        back = await Client.connect(server.port)
        welcome = await back.hello("ann", resume=ann.token)
        assert (welcome["resumed"], welcome["table"], welcome["seat"]) == (True, table_id, 0)
        await back.send({"type": "snapshot"})
        over = await play_out(back, random.Random(10))
        assert over["ending"] == "target" and "abandoned" not in over, over
        await back.close()
