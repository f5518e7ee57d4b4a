"""Account passwords against a hostile guest (issue 31): checks counted when they arrive, per
name over every address and per address over names; the owner never locked out by someone
else's guessing; the hashing worker's bounded queue; accounts per address per day; a login
waiting for its check never dropped as silent; and neither password checks nor another
connection's storage read holding up anyone else's messages.

Other hosts are loopback source addresses (127.0.0.2, ...): every one of them is this
machine.  Where time matters the core runs on a fake clock."""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

import pytest

from noddy.server import ServerConfig, ServerCore
from noddy.server.core.instructions import Effects, PasswordWork, Send
from noddy.server.model.passwords import hash_password
from noddy.server.storage import database

from .harness import Client, running_server, stuck_hashing, test_config as config_for_tests

SECRET = "correct horse"


async def _registered(port: int, name: str, source: str | None = None) -> None:
    """``name`` registered (with :data:`SECRET`) from ``source``, then gone."""
    client = await Client.connect(port, source)
    await client.hello(name)
    assert (await client.request({"type": "register", "password": SECRET}))["type"] == "registered"
    await client.request({"type": "bye"})
    await client.close()


async def _login(port: int, name: str, password: str, source: str | None = None) -> dict[str, Any]:
    client = await Client.connect(port, source)
    reply = await client.request({"type": "hello", "name": name, "version": 1, "password": password})
    await client.close()
    return reply


async def test_parallel_guesses_at_one_name_from_many_addresses_are_counted_as_they_arrive() -> None:
    """Forty wrong passwords at once, on forty connections from four addresses: the name's
    limit (10 a quarter of an hour) is taken as they arrive, so exactly ten are checked."""
    async with running_server(password_queue=0) as server:
        await _registered(server.port, "ann")
        clients = [await Client.connect(server.port, f"127.0.0.{2 + i % 4}") for i in range(40)]
        hello = {"type": "hello", "name": "ann", "version": 1}
        replies = await asyncio.gather(*(c.request({**hello, "password": f"guess {i}"})
                                         for i, c in enumerate(clients)))
        codes = [reply["code"] for reply in replies]
        assert codes.count("bad_password") == 10
        assert codes.count("too_many_attempts") == 30
        refused = next(reply for reply in replies if reply["code"] == "too_many_attempts")
        assert refused["message"].startswith("too many password checks for 'ann' lately from addresses it "
                                             "was not logged in from; wait ")
        assert refused["field"] == "password" and 899 < refused["retry_after"] <= 900
        # The owner, at the address she registered from, is not held to the name's limit;
        # nor is someone at a guesser's address logging in to their own name.
        assert (await _login(server.port, "ann", SECRET))["type"] == "welcome"
        for client in clients:
            await client.close()


async def test_a_person_behind_the_guessers_address_logs_in_to_their_own_name() -> None:
    async with running_server(password_queue=0) as server:
        await _registered(server.port, "ann")
        await _registered(server.port, "bob", source="127.0.0.9")
        for i in range(12):
            await _login(server.port, "ann", f"guess {i}", source="127.0.0.9")
        assert (await _login(server.port, "ann", SECRET, source="127.0.0.9"))["code"] == "too_many_attempts"
        welcome = await _login(server.port, "bob", SECRET, source="127.0.0.9")
        assert (welcome["type"], welcome["name"]) == ("welcome", "bob")


async def test_spraying_one_password_over_many_names_is_limited_per_address() -> None:
    async with running_server(password_queue=0, login_names_per_address=3) as server:
        for name in ("ann", "bob", "cy", "dee"):
            await _registered(server.port, name)
        sprayer = "127.0.0.7"
        for name in ("ann", "bob", "cy"):
            assert (await _login(server.port, name, "password1", sprayer))["code"] == "bad_password"
        # Another guess at a name already tried is still that name's to count.
        assert (await _login(server.port, "bob", "password2", sprayer))["code"] == "bad_password"
        refused = await _login(server.port, "dee", "password1", sprayer)
        assert refused["code"] == "too_many_attempts"
        assert refused["message"].startswith("your address has had the passwords of too many names checked "
                                             "lately (3); wait ")
        assert (await _login(server.port, "dee", SECRET))["type"] == "welcome"  # dee, at home


async def test_a_right_password_gives_its_check_back() -> None:
    """The owner logging in from new addresses never wears the name's limit down."""
    async with running_server(password_queue=0, login_checks_per_name=2) as server:
        await _registered(server.port, "ann")
        for i in range(4):
            reply = await _login(server.port, "ann", SECRET, f"127.0.1.{i + 1}")
            assert reply["type"] == "welcome", reply
        assert (await _login(server.port, "ann", "nope", "127.0.2.1"))["code"] == "bad_password"
        assert (await _login(server.port, "ann", "nope", "127.0.2.2"))["code"] == "bad_password"
        assert (await _login(server.port, "ann", "nope", "127.0.2.3"))["code"] == "too_many_attempts"


async def test_password_checks_are_limited_per_address() -> None:
    """Each check is ~50 ms of scrypt: even right passwords, given over and over, are limited
    per address (a burst, then one a second).  The clock is the test's: no refill meanwhile."""
    now = [1000.0]
    config = config_for_tests(password_checks_burst=3)
    async with running_server(core=ServerCore(config, clock=lambda: now[0])) as server:
        ann = await Client.connect(server.port)
        await ann.hello("ann")
        assert (await ann.request({"type": "register", "password": SECRET}))["type"] == "registered"  # 1
        await ann.request({"type": "bye"})
        hello = {"type": "hello", "name": "ann", "version": 1, "password": SECRET}
        for _ in range(2):  # 2 and 3
            again = await Client.connect(server.port)
            assert (await again.request(hello))["type"] == "welcome"
            await again.request({"type": "bye"})
        again = await Client.connect(server.port)
        refused = await again.request(hello)
        assert (refused["code"], refused["retry_after"]) == ("rate_limited", 1.0)
        assert refused["message"] == "too many password checks from your address; wait 1.00 s"
        now[0] += 1.0
        assert (await again.request(hello))["type"] == "welcome"
        await again.close()


async def test_accounts_made_from_one_address_are_limited_per_day() -> None:
    now = [0.0]
    config = config_for_tests(accounts_per_address_per_day=2)
    async with running_server(core=ServerCore(config, clock=lambda: now[0])) as server:
        await _registered(server.port, "ann")
        await _registered(server.port, "bob")
        cy = await Client.connect(server.port)
        await cy.hello("cy")
        refused = await cy.request({"type": "register", "password": SECRET})
        assert (refused["code"], refused["retry_after"]) == ("too_many_accounts", 86400.0)
        assert refused["message"] == ("your address has made as many accounts today as allowed (2); "
                                      "wait 86400.00 s")
        elsewhere = await Client.connect(server.port, "127.0.0.3")
        await elsewhere.hello("dee")
        assert (await elsewhere.request({"type": "register", "password": SECRET}))["type"] == "registered"
        now[0] += 86400.0
        assert (await cy.request({"type": "register", "password": SECRET}))["type"] == "registered"
        await cy.close()
        await elsewhere.close()


# -- the core alone: the worker's queue, and a login that waits ---------------------------------
class _Core:
    """The core with a fake clock and ``ann`` registered; password work is kept, to be
    answered when the test says."""

    def __init__(self, **config: Any) -> None:
        self.now = 0.0
        self.core = ServerCore(ServerConfig(seed=3, **config), clock=lambda: self.now)
        self.core.accounts.load([(1, "ann", "ann", hash_password(SECRET, n=16))])
        self.inbox: dict[int, list[dict[str, Any]]] = {}
        self.closed: set[int] = set()
        self.work: list[PasswordWork] = []

    def take(self, effects: Effects) -> None:
        for out in effects.out:
            if isinstance(out, Send):
                self.inbox.setdefault(out.conn, []).append(out.message)  # type: ignore[arg-type]
            else:
                self.closed.add(out.conn)
        self.work += effects.passwords

    def connect(self, address: str = "10.0.0.1") -> int:
        conn, effects = self.core.connect(address)
        self.take(effects)
        return conn

    def send(self, conn: int, message: dict[str, Any]) -> None:
        self.take(self.core.receive(conn, json.dumps(message).encode() + b"\n"))

    def last(self, conn: int) -> dict[str, Any]:
        return self.inbox[conn][-1]

    def finish(self, work: PasswordWork) -> None:
        self.work.remove(work)
        self.take(self.core.password_done(work, work.run()))


def test_past_the_queue_a_login_is_answered_busy_at_once_but_the_owners_address_has_room() -> None:
    h = _Core(password_queue=2)
    hello = {"type": "hello", "name": "ann", "version": 1, "password": "a guess", "id": 1}
    guessers = [h.connect(f"10.0.1.{i}") for i in range(3)]
    for conn in guessers:
        h.send(conn, hello)
    assert len(h.work) == 2
    busy = h.last(guessers[2])
    assert (busy["code"], busy["retry_after"], busy["id"]) == ("busy", 0.1, 1)
    assert busy["message"] == "the server is busy checking other passwords; try again in 0.10 s"
    # ann logged in from 10.0.0.1 before: that address may use the queue's room again.
    owner = h.connect("10.0.0.1")
    h.core.accounts._limits.logged_in("10.0.0.1", "ann", 0.0)
    h.send(owner, {**hello, "password": SECRET})
    assert len(h.work) == 3
    for work in list(h.work):
        h.finish(work)
    assert h.last(owner)["type"] == "welcome"
    assert [h.last(conn)["code"] for conn in guessers] == ["bad_password", "bad_password", "busy"]
    assert h.core.accounts.checks_in_progress == 0


def test_a_login_waiting_for_its_check_is_not_dropped_as_silent() -> None:
    h = _Core(idle_timeout=2.0)
    conn = h.connect()
    h.send(conn, {"type": "hello", "name": "ann", "version": 1, "password": SECRET, "id": 7})
    h.now += 30.0
    h.take(h.core.tick())
    assert conn not in h.closed
    h.finish(h.work[0])
    assert (h.last(conn)["type"], h.last(conn)["id"]) == ("welcome", 7)


def test_a_refused_login_has_its_full_idle_time_from_the_refusal() -> None:
    h = _Core(idle_timeout=2.0)
    conn = h.connect()
    h.send(conn, {"type": "hello", "name": "ann", "version": 1, "password": "wrong", "id": 7})
    h.now += 30.0
    h.finish(h.work[0])
    assert h.last(conn)["code"] == "bad_password"
    h.now += 1.5
    h.take(h.core.tick())
    assert conn not in h.closed
    h.now += 1.0
    h.take(h.core.tick())
    assert conn in h.closed


# -- nobody waits behind someone else's slow work -----------------------------------------------
async def test_a_game_goes_on_while_a_password_is_being_checked(monkeypatch: Any) -> None:
    """The hashing worker is stuck on a check: the table's requests, which write to storage,
    and a ping are answered meanwhile."""
    release = stuck_hashing(monkeypatch)
    async with running_server() as server:
        ann = await Client.connect(server.port)
        await ann.hello("ann")
        pending = asyncio.ensure_future(ann.request({"type": "register", "password": SECRET}))
        bob = await Client.connect(server.port)
        await bob.hello("bob")
        created = await bob.request({"type": "create_table"})
        assert created["type"] == "table"
        assert (await bob.request({"type": "ping"}))["type"] == "pong"
        assert not pending.done()
        release.set()
        assert (await pending)["type"] == "registered"
        await ann.close()
        await bob.close()


async def test_a_pong_does_not_wait_for_another_connections_storage_read(tmp_path: Any, monkeypatch: Any) -> None:
    release = threading.Event()
    real_read = database.Storage.read

    def slow_read(storage: Any, kind: str, args: dict[str, Any]) -> Any:
        if kind == "list_games":
            release.wait(10.0)
        return real_read(storage, kind, args)
    monkeypatch.setattr(database.Storage, "read", slow_read)
    async with running_server(db=str(tmp_path / "noddy.db")) as server:
        reader_ = await Client.connect(server.port)
        await reader_.hello("ann")
        games = asyncio.ensure_future(reader_.request({"type": "list_games"}))
        bob = await Client.connect(server.port)
        await bob.hello("bob")
        assert (await bob.request({"type": "ping"}))["type"] == "pong"
        assert not games.done()
        release.set()
        assert (await games)["type"] == "games"
        await reader_.close()
        await bob.close()


async def test_what_follows_an_account_request_is_sent_after_its_reply() -> None:
    """Requests sent together get their replies in order, though the first one's password
    is hashed elsewhere meanwhile (a text-mode person reads them as they typed them)."""
    async with running_server() as server:
        ann = await Client.connect(server.port)
        await ann.hello("ann")
        await ann.send_raw(b'{"type": "register", "password": "correct horse", "id": 1}\n'
                           b'{"type": "ping", "id": 2}\n{"type": "list_tables", "id": 3}\n')
        replies = [await ann.recv() for _ in range(3)]
        assert [(m["type"], m["id"]) for m in replies] == [("registered", 1), ("pong", 2), ("tables", 3)]
        await ann.close()


@pytest.mark.parametrize("address, group", [
    ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"), ("2001:db8:1:2:bbbb::9", "2001:db8:1:2::/64"),
    ("2001:db8:1:3::1", "2001:db8:1:3::/64"), ("::ffff:10.0.0.7", "10.0.0.7"), ("10.0.0.7", "10.0.0.7"),
])
def test_an_ipv6_host_is_its_64_for_every_per_address_limit(address: str, group: str) -> None:
    h = _Core()
    conn = h.connect(address)
    assert h.core.connections[conn].address == group


def test_the_limiters_stay_bounded_under_a_crowd_of_addresses() -> None:
    from noddy.server.model import guesses

    limits = guesses.LoginLimits(per_name=10, names_per_address=10, window=900.0)
    for i in range(guesses.MAX_TRACKED + 500):
        limits.admit(f"10.{i // 65536}.{i // 256 % 256}.{i % 256}", f"name{i}", float(i))
        limits.settled(f"10.{i // 65536}.{i // 256 % 256}.{i % 256}", "ann", True, float(i))
    assert limits.sizes() == (guesses.MAX_TRACKED, guesses.MAX_TRACKED, 1)
    assert len(limits._known["ann"]) == guesses.KNOWN_ADDRESSES


def test_a_check_refused_as_busy_is_given_back_to_the_names_count() -> None:
    h = _Core(password_queue=1, login_checks_per_name=2)
    hello = {"type": "hello", "name": "ann", "version": 1, "password": "a guess", "id": 1}
    first, second, third, fourth = (h.connect(f"10.0.2.{i}") for i in range(4))
    h.send(first, hello)
    h.send(second, hello)
    assert h.last(second)["code"] == "busy"
    h.finish(h.work[0])
    h.send(third, hello)
    h.finish(h.work[0])
    assert [h.last(conn)["code"] for conn in (first, third)] == ["bad_password", "bad_password"]
    h.send(fourth, hello)
    assert h.last(fourth)["code"] == "too_many_attempts"
