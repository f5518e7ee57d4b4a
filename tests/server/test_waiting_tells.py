"""What strangers may leave waiting for someone's login, over real sockets (issue 31): a muted
name leaves nothing (even after a restart: an account's mutes are stored), one account
leaves at most three tells for one person, a guest leaves none, and however full an inbox
is, a friend's tell still finds room (the oldest tell of whoever has the most waiting gives
way)."""

from __future__ import annotations

from typing import Any

from .harness import Client, running_server

SECRET = "correct horse"
CHATTY = {"chat_rate_per_address": 1000.0, "chat_burst_per_address": 1000}


async def _account(port: int, name: str, source: str | None = None) -> Client:
    """``name`` connected (from the loopback address ``source``), with the name registered."""
    client = await Client.connect(port, source)
    await client.hello(name)
    assert (await client.request({"type": "register", "password": SECRET}))["type"] == "registered"
    return client


async def _away(port: int, name: str) -> None:
    """``name`` registers and leaves: tells to them wait for their next login."""
    client = await _account(port, name)
    await client.request({"type": "bye"})
    await client.close()


async def _tell(client: Client, name: str, text: str) -> dict[str, Any]:
    return await client.request({"type": "tell", "name": name, "text": text})


async def _waiting_at_login(port: int, name: str, friend: Client) -> list[tuple[str, str]]:
    """``name`` logs in: the tells waiting for them, as (from, text), in the order pushed.
    Those come in one batch; once the first has come, ``friend``'s tell to the online person
    comes after the last of them."""
    client = await Client.connect(port)
    await client.hello(name, password=SECRET)
    await client.recv_until(lambda m: m["type"] == "tell" and m["waiting"])
    assert (await _tell(friend, name, "barrier"))["waiting"] is False
    await client.recv_until(lambda m: m["type"] == "tell" and m["text"] == "barrier")
    await client.close()
    return [(m["from"], m["text"]) for m in client.received if m["type"] == "tell" and m["waiting"]]


async def test_a_muted_name_leaves_nothing_and_an_account_at_most_three_tells_for_one_person(
        tmp_path: Any) -> None:
    async with running_server(db=str(tmp_path / "noddy.db"), **CHATTY) as server:
        ann = await _account(server.port, "ann")
        await ann.request({"type": "mute", "name": "spam"})
        await ann.request({"type": "bye"})
        spam, eve, ben = [await _account(server.port, name) for name in ("spam", "eve", "ben")]
        for number in range(25):  # each echoed as if it waited; none is kept
            echo = await _tell(spam, "ann", f"buy {number}")
            assert (echo["type"], echo["waiting"]) == ("tell", True)
        for number in range(3):
            assert (await _tell(eve, "ann", f"eve {number}"))["waiting"] is True
        refused = await _tell(eve, "ann", "eve 3")
        assert (refused["type"], refused["code"], refused["message"], refused["field"]) == (
            "error", "too_many_waiting",
            "you have 3 tells waiting for ann already; tell them more once they are online", "name")
        assert (await _tell(ben, "ann", "fancy a game?"))["waiting"] is True
        assert await _waiting_at_login(server.port, "ann", ben) == [
            ("eve", "eve 0"), ("eve", "eve 1"), ("eve", "eve 2"), ("ben", "fancy a game?")]
        for client in (spam, eve, ben):
            await client.close()


async def test_an_accounts_mutes_are_kept_over_a_restart_and_keep_muted_tells_out(tmp_path: Any) -> None:
    db = str(tmp_path / "noddy.db")
    async with running_server(db=db, **CHATTY) as server:
        ann = await _account(server.port, "ann")
        for name in ("SPAM", "dan", "eve"):  # "SPAM": a lookalike of "spam" is the same name
            await ann.request({"type": "mute", "name": name})
        assert (await ann.request({"type": "unmute", "name": "DAN"}))["names"] == ["SPAM", "eve"]
        await ann.request({"type": "bye"})
        for name in ("spam", "ben"):
            await _away(server.port, name)
    async with running_server(db=db, **CHATTY) as server:  # a restart: nothing is in memory
        spam, ben = await Client.connect(server.port), await Client.connect(server.port)
        for client, name in ((spam, "spam"), (ben, "ben")):
            await client.hello(name, password=SECRET)
        for number in range(5):  # none kept: not even the per-sender bound is reached
            assert (await _tell(spam, "ann", f"buy {number}"))["waiting"] is True
        assert (await _tell(ben, "ann", "fancy a game?"))["waiting"] is True
        assert await _waiting_at_login(server.port, "ann", ben) == [("ben", "fancy a game?")]
        again = await Client.connect(server.port)
        await again.hello("ann", password=SECRET)
        assert (await again.request({"type": "muted"}))["names"] == ["SPAM", "eve"]
        for client in (spam, ben, again):
            await client.close()


async def test_a_friends_tell_finds_room_when_strangers_have_filled_the_inbox(tmp_path: Any) -> None:
    async with running_server(db=str(tmp_path / "noddy.db"), **CHATTY) as server:
        await _away(server.port, "ann")
        # Each from an address of their own (one address makes 5 accounts a day at most).
        strangers = [await _account(server.port, f"stranger{n}", f"127.0.3.{n}") for n in range(1, 8)]
        for n, stranger in enumerate(strangers, start=1):  # 21 tells: more than the 20 kept
            for number in range(3):
                assert (await _tell(stranger, "ann", f"s{n} {number}"))["waiting"] is True
        ben = await _account(server.port, "ben")
        assert (await _tell(ben, "ann", "fancy a game?"))["waiting"] is True
        # The 21st tell took the place of stranger1's oldest, ben's that of stranger2's (then
        # the first of those with the most waiting): 20 wait, ben's among them.
        assert await _waiting_at_login(server.port, "ann", ben) == [
            (f"stranger{n}", f"s{n} {number}") for n in range(1, 8) for number in range(3)
            if (n, number) not in ((1, 0), (2, 0))] + [("ben", "fancy a game?")]
        for client in (*strangers, ben):
            await client.close()


async def test_a_guest_leaves_no_tell_for_someone_away_but_tells_people_online(tmp_path: Any) -> None:
    async with running_server(db=str(tmp_path / "noddy.db"), **CHATTY) as server:
        await _away(server.port, "ann")
        gus = await Client.connect(server.port)
        await gus.hello("gus")
        refused = await _tell(gus, "ANN", "hello?")
        assert (refused["type"], refused["code"], refused["message"], refused["field"]) == (
            "error", "not_registered", "ann is not online, and only a registered name may leave a tell "
            "to wait for their login: register yours first", "name")
        ben = await _account(server.port, "ben")
        told = await _tell(gus, "ben", "hello!")
        assert (told["to"], told["waiting"]) == ("ben", False)
        await ben.recv_until(lambda m: m["type"] == "tell" and m["text"] == "hello!")
        for client in (gus, ben):
            await client.close()
