"""Table option ``max_spectators`` (issue 32): the most people who may watch a table at once,
declared with its kind and range like the server's other table options, and checked in the
one place a person becomes a watcher, so every way in (``spectate``, ``stand``,
``create_table`` to watch, an invitation accepted mid-game) meets the same limit.
Over real sockets.
"""

from __future__ import annotations

from typing import Any

import pytest

from noddy.server.model.table_options import advertised_options, rules_options

from .harness import Client, running_server


async def _online(port: int, name: str) -> Client:
    client = await Client.connect(port)
    await client.hello(name)
    return client


def _refusal(reply: dict[str, Any]) -> tuple[str, str]:
    assert reply["type"] == "error", reply
    return reply["code"], reply["message"]


async def test_a_full_table_refuses_one_watcher_more_whichever_way_they_come() -> None:
    async with running_server() as server:
        ann, ben, cy, dee = [await _online(server.port, name) for name in ("ann", "ben", "cy", "dee")]
        made = await ann.request({"type": "create_table", "preset": "noddy", "options": {"max_spectators": 1}})
        assert made["table"]["options"] == {"max_spectators": 1}
        assert (await cy.request({"type": "spectate", "table": 1}))["type"] == "table"
        full = ("too_many_watchers", "table 1 allows 1 watcher at once (max_spectators), and has 1")
        assert _refusal(await dee.request({"type": "spectate", "table": 1})) == full
        assert _refusal(await ann.request({"type": "stand"})) == full  # standing up is watching too
        # a watcher who sits down makes room; one who stands up takes it again
        assert (await cy.request({"type": "sit", "table": 1}))["seat"] == 1
        assert (await dee.request({"type": "spectate", "table": 1}))["type"] == "table"
        assert _refusal(await cy.request({"type": "stand"})) == full
        assert _refusal(await ben.request({"type": "spectate", "table": 1})) == full
        tables = (await ben.request({"type": "list_tables"}))["tables"]
        assert [(t["id"], [s["name"] for s in t["seats"]], t["spectators"]) for t in tables] == [
            (1, ["ann", "cy"], ["dee"])]
        for client in (ann, ben, cy, dee):
            await client.close()


async def test_create_table_to_watch_is_refused_before_the_table_opens() -> None:
    async with running_server() as server:
        ann = await _online(server.port, "ann")
        refused = await ann.request({"type": "create_table", "seat": None, "options": {"max_spectators": 0}})
        assert _refusal(refused) == ("too_many_watchers",
                                     "table 1 allows 0 watchers at once (max_spectators), and has 0")
        assert (await ann.request({"type": "list_tables"}))["tables"] == []
        made = await ann.request({"type": "create_table", "seat": 0, "options": {"max_spectators": 0}})
        assert (made["table"]["id"], made["seat"]) == (1, 0)  # the refused one took no id
        await ann.close()


async def test_an_invitation_to_watch_a_full_table_is_refused_and_stays_open() -> None:
    async with running_server() as server:
        ann, ben, cy = [await _online(server.port, name) for name in ("ann", "ben", "cy")]
        await ann.request({"type": "create_table", "preset": "noddy", "options": {"max_spectators": 0}})
        await ben.request({"type": "sit", "table": 1})
        await ann.request({"type": "ready"})
        assert (await ben.request({"type": "ready"}))["table"]["status"] == "playing"
        invitation = (await ann.request({"type": "invite", "name": "cy"}))["challenge"]
        refused = await cy.request({"type": "accept", "challenge": invitation["id"]})
        assert _refusal(refused) == ("too_many_watchers",
                                     "table 1 allows 0 watchers at once (max_spectators), and has 0")
        assert _refusal(await cy.request({"type": "snapshot"}))[0] == "not_at_table"
        # not used up by the refusal: it is still open, cy may still answer it
        assert (await cy.request({"type": "decline", "challenge": invitation["id"]}))["type"] == "ok"
        for client in (ann, ben, cy):
            await client.close()


@pytest.mark.parametrize("value", [-1, 1001, 2.5, "3", True])
async def test_a_bad_max_spectators_is_an_invalid_option_and_opens_nothing(value: Any) -> None:
    async with running_server() as server:
        ann = await _online(server.port, "ann")
        refused = await ann.request({"type": "create_table", "options": {"max_spectators": value}})
        assert _refusal(refused) == ("invalid_option", f"option 'max_spectators' must be a whole number "
                                     f"from 0 to 1000, not {value!r}")
        assert (await ann.request({"type": "list_tables"}))["tables"] == []
        await ann.close()


def test_the_option_is_declared_and_advertised_with_its_range() -> None:
    assert advertised_options()["max_spectators"] == {
        "type": "int", "min": 0, "max": 1000, "default": None, "in": "options",
        "description": "the most people who may watch the table at once (null: no limit; 0: nobody may watch)"}
    # rules_options reads the declarations: every server option is taken out, none named by hand
    server_own = {name: spec["default"] for name, spec in advertised_options().items() if spec["in"] == "options"}
    assert rules_options({**server_own, "target": 61}) == {"target": 61}
