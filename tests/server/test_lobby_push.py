"""The lobby's table news, gathered: at most one push an interval, each table in its latest
state, encoded once and written to each lobby connection in one write (see
server/lobby_push.py and PROTOCOL.md, Lobby and tables).  The core is driven with a fake
clock; the network test runs a real server on 127.0.0.1 with its ticks called by hand."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from noddy.engine import PRESETS
from noddy.server import NoddyServer, Send, ServerConfig, ServerCore
from noddy.server.net import sending
from noddy.server.core.instructions import Effects, Lines
from noddy.server.net.link import _Link
from noddy.server.core.lobby_push import LobbyNews
from noddy.server.model.table import Table

from .harness import Client
from .harness import test_config as config_for_tests

INTERVAL = 0.25


class Harness:
    """A core on a fake clock; every instruction is kept per connection, as it came."""

    def __init__(self, **config: Any) -> None:
        self.now = 0.0
        self.core = ServerCore(ServerConfig(seed=7, lobby_push_interval=INTERVAL, **config),
                               clock=lambda: self.now)
        self.inbox: dict[int, list[dict[str, Any] | Lines]] = {}

    def take(self, effects: Effects) -> list[Any]:
        for out in effects.out:
            if isinstance(out, Send):
                self.inbox.setdefault(out.conn, []).append(out.message)
        return effects.out

    def connect(self, name: str) -> int:
        conn, outs = self.core.connect()
        self.take(outs)
        self.send(conn, {"type": "hello", "name": name, "version": 1})
        self.inbox[conn].clear()
        return conn

    def send(self, conn: int, message: dict[str, Any]) -> dict[str, Any]:
        self.take(self.core.receive(conn, json.dumps(message).encode() + b"\n"))
        return self.inbox[conn][-1]  # type: ignore[return-value]

    def tick(self, seconds: float) -> list[Any]:
        self.now += seconds
        return self.take(self.core.tick())

    def summary(self, table_id: int) -> dict[str, Any]:
        return {"type": "table", "table": self.core.tables[table_id].summary()}


def test_many_changes_in_one_interval_are_one_push_of_each_tables_latest_state() -> None:
    h = Harness()
    lee = h.connect("lee")
    ann, ben, cy = h.connect("ann"), h.connect("ben"), h.connect("cy")
    h.send(ann, {"type": "create_table", "preset": "noddy"})
    h.send(ben, {"type": "sit", "table": 1})
    h.send(ann, {"type": "ready"})
    h.send(cy, {"type": "create_table", "preset": "cribbage", "players": 3})
    assert h.inbox[lee] == []  # nothing at once
    h.tick(0.1)  # the first news after a quiet spell goes at the next tick
    assert h.inbox[lee] == [Lines((h.summary(1), h.summary(2)))]
    first = h.summary(1)
    h.send(ben, {"type": "ready"})  # the game starts: table 1 changes again, twice
    h.send(cy, {"type": "add_computer", "seat": 1})
    h.tick(0.1)  # 0.2: not yet an interval since the last push at 0.1
    assert len(h.inbox[lee]) == 1
    h.tick(0.1)  # 0.3
    assert len(h.inbox[lee]) == 1
    h.tick(0.1)  # 0.4: due
    assert h.inbox[lee][1] == Lines((h.summary(1), h.summary(2)))
    assert h.summary(1) != first and h.summary(1)["table"]["status"] == "playing"
    h.tick(1.0)  # nothing changed: nothing pushed
    assert len(h.inbox[lee]) == 2


def test_a_push_carries_the_state_at_the_push_never_an_older_one() -> None:
    h = Harness()
    lee, ann = h.connect("lee"), h.connect("ann")
    h.send(ann, {"type": "create_table", "preset": "noddy"})
    h.tick(0.1)
    h.send(ann, {"type": "add_computer", "seat": 1, "level": "random"})
    listed = h.send(lee, {"type": "list_tables"})  # between two pushes: the whole picture
    h.send(ann, {"type": "ready"})  # the game starts after lee's list
    h.tick(0.3)
    [was] = listed["tables"]
    assert (was["status"], was["seats"][1]["kind"], was["seats"][0]["ready"]) == ("waiting", "computer", False)
    assert h.inbox[lee][-1] == Lines((h.summary(1),))  # as it is now, newer than the list
    assert h.summary(1)["table"]["status"] == "playing"


def test_a_table_member_hears_at_once_and_the_requester_by_its_reply() -> None:
    h = Harness()
    lee, ann, ben = h.connect("lee"), h.connect("ann"), h.connect("ben")
    h.send(ann, {"type": "create_table", "preset": "noddy"})
    reply = h.send(ben, {"type": "sit", "table": 1, "id": 5})
    assert reply == {**h.summary(1), "seat": 1, "id": 5}
    assert h.inbox[ben] == [reply]
    assert h.inbox[ann][-1] == h.summary(1)  # the same call's instructions: at once
    assert h.inbox[lee] == []
    h.tick(0.1)
    assert h.inbox[lee] == [Lines((h.summary(1),))]
    assert h.inbox[ann][-1] == h.summary(1) and len(h.inbox[ben]) == 1  # no lobby push at a table


@pytest.mark.parametrize("seen_open", [True, False])
def test_a_closed_table_is_pushed_as_closed(seen_open: bool) -> None:
    h = Harness()
    lee, ann = h.connect("lee"), h.connect("ann")
    h.send(ann, {"type": "create_table", "preset": "noddy"})
    if seen_open:
        h.tick(0.1)
        assert h.inbox[lee] == [Lines((h.summary(1),))]
    h.send(ann, {"type": "configure_table", "options": {"target": 61}})
    h.send(ann, {"type": "leave"})
    assert h.core.tables == {}
    closed = {"type": "table_closed", "table": 1, "reason": "empty", "message": "everyone has left"}
    h.tick(0.3)
    assert h.inbox[lee][-1] == Lines((closed,))
    # ann is back in the lobby: she hears of the close by the lobby push too, as before
    assert h.inbox[ann][-2:] == [{"type": "ok"}, Lines((closed,))]
    assert len(h.inbox[lee]) == (2 if seen_open else 1)


def test_lobby_chat_still_goes_at_once() -> None:
    h = Harness()
    lee, ann = h.connect("lee"), h.connect("ann")
    h.send(ann, {"type": "chat", "text": "hi"})
    assert h.inbox[lee] == [{"type": "chat", "to": "lobby", "table": None, "from": "ann", "seat": None,
                             "text": "hi"}]


def test_a_table_rebuilt_under_its_id_is_pushed_as_rebuilt() -> None:
    """After a failed write the core rebuilds a table from storage under the same id (see
    Recovery._repaired): the push must carry the rebuilt table, not skip it."""
    news = LobbyNews(INTERVAL)
    rules = PRESETS["noddy"]
    old = Table(1, rules, "noddy", 2, False, {}, games_played=2)
    rebuilt = Table(1, rules, "noddy", 2, False, {}, games_played=1)
    news.changed(old)
    news.changed(rebuilt)
    assert len(news) == 1
    assert news.take(0.0, {1: rebuilt}) == Lines(({"type": "table", "table": rebuilt.summary()},))
    assert rebuilt.summary()["games_played"] == 1 and len(news) == 0


@pytest.mark.parametrize("lobby_size", [3, 40])
def test_one_push_is_one_shared_object_whatever_the_lobby_size(lobby_size: int) -> None:
    h = Harness()
    lobby = [h.connect(f"lee{i}") for i in range(lobby_size)]
    players = [h.connect(f"p{i}") for i in range(10)]
    for p in players[:5]:
        h.send(p, {"type": "create_table", "preset": "noddy"})
    for table_id, p in enumerate(players[5:], start=1):
        h.send(p, {"type": "sit", "table": table_id})
    outs = h.tick(0.1)
    pushes = [out for out in outs if isinstance(out, Send) and isinstance(out.message, Lines)]
    assert sorted(out.conn for out in pushes) == sorted(lobby)  # one each, players at tables none
    assert len({id(out.message) for out in pushes}) == 1
    assert pushes[0].message == Lines(tuple(h.summary(t) for t in range(1, 6)))


def test_an_interval_of_0_pushes_at_every_tick_with_news() -> None:
    h = Harness()
    h.core = ServerCore(ServerConfig(seed=7, lobby_push_interval=0.0), clock=lambda: h.now)
    lee, ann = h.connect("lee"), h.connect("ann")
    h.send(ann, {"type": "create_table", "preset": "noddy"})
    created = h.summary(1)
    h.tick(0.1)
    h.send(ann, {"type": "add_computer", "seat": 1})
    h.tick(0.1)
    h.tick(0.1)
    assert h.inbox[lee] == [Lines((created,)), Lines((h.summary(1),))] and created != h.summary(1)


# -- over sockets: encoded once, one write per lobby connection ---------------------------------
@pytest.mark.parametrize("json_clients,text_clients,encodes", [(2, 0, 1), (20, 0, 1), (20, 2, 2)])
async def test_a_push_is_encoded_once_and_written_once_per_lobby_connection(
        monkeypatch: pytest.MonkeyPatch, json_clients: int, text_clients: int, encodes: int) -> None:
    encoded: list[Lines] = []
    writes: dict[int, int] = {}
    encode_lines, flush = NoddyServer._encode_news, _Link.flush

    def counting_encode(self: NoddyServer, lines: Lines, text: bool, names: tuple[str, ...],
                        width: int | None, *language: str) -> bytes:
        encoded.append(lines)
        return encode_lines(self, lines, text, names, width, *language)

    def counting_flush(self: _Link) -> None:
        if self.buffer:
            writes[self.conn] = writes.get(self.conn, 0) + 1
        flush(self)

    monkeypatch.setattr(NoddyServer, "_encode_news", counting_encode)
    monkeypatch.setattr(_Link, "flush", counting_flush)
    monkeypatch.setattr(sending, "WRITES_PER_TURN", 4)  # the rest in the next turns of the loop
    config = config_for_tests(lobby_push_interval=INTERVAL)
    server = NoddyServer(config, core=ServerCore(config, clock=lambda: 0.0))
    await server.start()
    assert server._ticker is not None and server.core is not None
    server._ticker.cancel()  # the test ticks by hand
    try:
        lobby = [await Client.connect(server.port) for _ in range(json_clients)]
        for i, client in enumerate(lobby):
            await client.hello(f"lee{i}")
        texts = [await Client.connect(server.port) for _ in range(text_clients)]
        for i, client in enumerate(texts):
            await client.send_raw(f"name tex{i}\n".encode())
            assert (await client.reader.readline()).startswith(f"Welcome, tex{i}!".encode())
            await client.reader.readline()
            await client.reader.readline()  # (a guest: how to keep the name)
        ann, ben = await Client.connect(server.port), await Client.connect(server.port)
        await ann.hello("ann")
        await ben.hello("ben")
        await ann.request({"type": "create_table", "preset": "noddy"})  # table 1 changes 3 times
        await ben.request({"type": "sit", "table": 1})
        await ann.request({"type": "ready"})
        cy = await Client.connect(server.port)  # comes to the lobby after the changes
        await cy.hello("cy")
        writes.clear()
        assert encoded == []
        server._apply(server.core.tick())
        # Once for JSON, and once for text: the text people are told only of tables they can
        # join (issue 33), one push object for all who knew the same tables.
        assert len(encoded) == encodes and len({id(lines) for lines in encoded}) == encodes
        lobby_conns = [*range(1, json_clients + text_clients + 1), json_clients + text_clients + 3]
        assert len(writes) == min(4, len(lobby_conns))  # the first 4 now, the others later...
        server._carry_out([Send(lobby_conns[-1], {"type": "pong"})])  # ...in order with what follows
        # The later writes go WRITES_PER_TURN a turn of the event loop: wait for the turns, not
        # for a time (a sleep of 0.05 s could end first on a busy machine).
        for _ in range(len(lobby_conns)):
            await asyncio.sleep(0)
        # one write to each lobby connection (cy's is numbered after ann's and ben's), none
        # to the players at table 1; cy's push, if it waited, went in one write with the pong
        deferred = len(lobby_conns) > 4
        assert writes == {conn: 1 for conn in lobby_conns} | {lobby_conns[-1]: 1 if deferred else 2}
        pushes = [await client.recv() for client in lobby + [cy]]
        assert await cy.recv() == {"type": "pong"}
        listed = await lobby[0].request({"type": "list_tables"})
        assert pushes == [{"type": "table", "table": listed["tables"][0]}] * (json_clients + 1)
        for client in texts:  # table 1 is full: no word of it
            await client.send_raw(b"ping\n")
            assert await client.reader.readline() == b"pong\n"
        for client in lobby + texts + [ann, ben, cy]:
            await client.close()
    finally:
        await server.shutdown()
