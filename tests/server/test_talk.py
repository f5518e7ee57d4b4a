"""People talking (issue 26) over real sockets: tells, invitations (to a private table, no
password), mute, the watchers' chat apart from the players', and the lobby's last chat lines
for whoever enters it; in JSON and in text mode."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from .harness import Client, play_out, running_server, text_connection, text_until

#: Every kind of push that carries one person's words (or offer) to another.
TALK = ("chat", "tell", "challenged", "challenge_over", "chat_history")
CHATTY = {"chat_rate_per_address": 1000.0, "chat_burst_per_address": 1000}


async def _online(port: int, name: str) -> Client:
    client = await Client.connect(port)
    await client.hello(name)
    return client


def _pushes(client: Client, kind: str) -> list[dict[str, Any]]:
    """The pushes (no id) of ``kind`` that ``client`` has received so far."""
    return [m for m in client.received if m["type"] == kind and "id" not in m]


async def _barrier(sender: Client, reader: Client, text: str) -> None:
    """``sender`` tells ``reader`` ``text`` and ``reader`` reads up to it: whatever the server
    sent ``reader`` before has been read by then (a connection's messages keep their order)."""
    await sender.request({"type": "tell", "name": reader_name(reader), "text": text})
    await reader.recv_until(lambda m: m["type"] == "tell" and m["text"] == text)


async def _register(client: Client, password: str = "correct horse") -> None:
    assert (await client.request({"type": "register", "password": password}))["type"] == "registered"


def reader_name(client: Client) -> str:
    return next(m["name"] for m in client.received if m["type"] == "welcome")


async def test_a_tell_reaches_one_person_wherever_they_are_and_is_echoed_to_its_sender() -> None:
    async with running_server() as server:
        ann, ben, cat = [await _online(server.port, name) for name in ("ann", "ben", "cat")]
        await ben.request({"type": "create_table", "preset": "noddy"})
        echo = await ann.request({"type": "tell", "name": "BEN", "text": "fancy\x1b[2J a game?"})
        assert echo == {"type": "tell", "from": "ann", "to": "ben", "text": "fancy\ufffd[2J a game?",
                        "waiting": False, "echo": True, "id": echo["id"]}
        told = await ben.recv_until(lambda m: m["type"] == "tell")
        assert told == {"type": "tell", "from": "ann", "to": "ben", "text": "fancy\ufffd[2J a game?",
                        "waiting": False, "echo": False}
        answer = await ben.request({"type": "tell", "name": "ann", "text": "after this one"})
        assert (answer["from"], answer["to"], answer["echo"]) == ("ben", "ann", True)
        assert (await ann.recv_until(lambda m: m["type"] == "tell"))["text"] == "after this one"
        await _barrier(ann, cat, "and you?")
        assert [m["text"] for m in _pushes(cat, "tell")] == ["and you?"]  # nobody else's tells
        refused = await ann.request({"type": "tell", "name": "ann", "text": "me"})
        assert (refused["type"], refused["code"]) == ("error", "bad_field")
        refused = await ann.request({"type": "tell", "name": "dan", "text": "hi"})
        assert (refused["code"], refused["message"]) == (
            "no_such_player", "'dan' is not online, and has no account: a tell waits only for a "
            "registered name (who lists who is online)")
        for client in (ann, ben, cat):
            await client.close()


async def test_an_invitation_lets_its_invitee_and_no_one_else_into_a_private_table() -> None:
    async with running_server() as server:
        ann, ben, cat = [await _online(server.port, name) for name in ("ann", "ben", "cat")]
        await ann.request({"type": "create_table", "preset": "noddy", "private": True, "password": "pw"})
        assert (await ben.request({"type": "sit", "table": 1}))["code"] == "wrong_password"
        sent = await ann.request({"type": "invite", "name": "ben", "text": "come\x07 in"})
        invitation = sent["challenge"]
        assert sent["type"] == "challenge"
        assert {k: v for k, v in invitation.items() if k != "expires_in"} == {
            "id": 1, "from": "ann", "from_bot": False, "to": "ben", "to_bot": False, "preset": "noddy",
            "options": {}, "text": "come\ufffd in", "table": 1, "private": True}
        pushed = await ben.recv_until(lambda m: m["type"] == "challenged")
        assert pushed["challenge"]["table"] == 1 and pushed["challenge"]["id"] == 1
        # Not a pass for anyone else: cat cannot take the invitation, nor sit without the password.
        assert (await cat.request({"type": "accept", "challenge": 1}))["code"] == "no_such_challenge"
        assert (await cat.request({"type": "sit", "table": 1}))["code"] == "wrong_password"
        seated = await ben.request({"type": "accept", "challenge": 1})
        assert (seated["type"], seated["seat"], seated["table"]["id"]) == ("table", 1, 1)
        assert [s["name"] for s in seated["table"]["seats"]] == ["ann", "ben"]
        over = await ann.recv_until(lambda m: m["type"] == "challenge_over")
        assert (over["reason"], over["message"]) == ("accepted", "ben accepted invitation 1")
        # Taken once: it is over.
        await ben.request({"type": "leave"})
        assert (await ben.request({"type": "accept", "challenge": 1}))["code"] == "no_such_challenge"
        assert (await ben.request({"type": "sit", "table": 1}))["code"] == "wrong_password"
        # An invitation ends when its inviter leaves the table.
        await ann.request({"type": "invite", "name": "cat"})
        await cat.recv_until(lambda m: m["type"] == "challenged")
        await ann.request({"type": "leave"})
        over = await cat.recv_until(lambda m: m["type"] == "challenge_over")
        assert (over["challenge"], over["reason"]) == (2, "withdrawn")
        assert (await cat.request({"type": "accept", "challenge": 2}))["code"] == "no_such_challenge"
        # Only from a table, and only to someone in the lobby.
        assert (await cat.request({"type": "invite", "name": "ann"}))["code"] == "not_at_table"
        for client in (ann, ben, cat):
            await client.close()


async def test_an_invitation_to_a_full_table_has_its_invitee_watch() -> None:
    async with running_server() as server:
        ann, ben, wes = [await _online(server.port, name) for name in ("ann", "ben", "wes")]
        await ann.request({"type": "create_table", "preset": "noddy"})
        await ben.request({"type": "sit", "table": 1})
        assert (await wes.request({"type": "invite", "name": "ann"}))["code"] == "not_at_table"
        await ben.request({"type": "invite", "name": "wes"})
        invited = await wes.recv_until(lambda m: m["type"] == "challenged")
        watching = await wes.request({"type": "accept", "challenge": invited["challenge"]["id"]})
        assert (watching["seat"], watching["table"]["spectators"]) == (None, ["wes"])
        for client in (ann, ben, wes):
            await client.close()


async def test_a_muted_name_reaches_nobody_who_muted_it_and_its_sender_is_not_told() -> None:
    async with running_server(**CHATTY) as server:
        ann, ben, dan = [await _online(server.port, name) for name in ("ann", "ben", "dan")]
        assert await ann.request({"type": "mute", "name": "DAN"}) == {"type": "muted", "names": ["DAN"], "id": 1 + 1}
        assert (await ann.request({"type": "mute", "name": "ann"}))["code"] == "bad_field"
        # Everything dan sends is answered as usual...
        assert (await dan.request({"type": "chat", "text": "hi all", "to": "lobby"}))["type"] == "ok"
        assert (await dan.request({"type": "tell", "name": "ann", "text": "hi ann"}))["echo"] is True
        assert (await dan.request({"type": "challenge", "name": "ann"}))["type"] == "challenge"
        await dan.request({"type": "create_table"})
        assert (await dan.request({"type": "invite", "name": "ann"}))["type"] == "challenge"
        # ... and ben hears it, but ann hears none of it.
        await ben.recv_until(lambda m: m["type"] == "chat" and m["from"] == "dan")
        await _barrier(ben, ann, "still there?")
        assert [(m["type"], m.get("from")) for m in ann.received if m["type"] in TALK] == [("tell", "ben")]
        assert (await ann.request({"type": "muted"}))["names"] == ["DAN"]
        # The lobby's history leaves dan out for ann too.
        await ann.request({"type": "create_table"})
        await ann.request({"type": "leave"})
        await _barrier(ben, ann, "back?")
        assert _pushes(ann, "chat_history") == []
        assert (await ann.request({"type": "unmute", "name": "dan"}))["names"] == []
        await dan.request({"type": "tell", "name": "ann", "text": "now?"})
        assert (await ann.recv_until(lambda m: m["type"] == "tell"))["text"] == "now?"
        for client in (ann, ben, dan):
            await client.close()


async def test_the_watchers_chat_reaches_the_players_only_after_the_game() -> None:
    async with running_server() as server:
        ann, ben, wes, val = [await _online(server.port, name) for name in ("ann", "ben", "wes", "val")]
        await ann.request({"type": "mute", "name": "val"})
        await ann.request({"type": "create_table", "preset": "noddy", "options": {"target": 31}})
        await ben.request({"type": "sit", "table": 1})
        for watcher in (wes, val):
            await watcher.request({"type": "spectate", "table": 1})
        await ann.request({"type": "ready"})
        await ben.request({"type": "ready"})
        await wes.recv_until(lambda m: m["type"] == "table" and m["table"]["status"] == "playing")
        assert (await wes.request({"type": "chat", "text": "she should keep the five", "to": "watchers"}))["type"] == "ok"
        whisper = {"type": "chat", "to": "watchers", "table": 1, "from": "wes", "seat": None,
                   "text": "she should keep the five"}
        assert await val.recv_until(lambda m: m["type"] == "chat") == whisper
        await val.request({"type": "chat", "text": "agreed", "to": "watchers"})  # ann muted val
        val_said = {**whisper, "from": "val", "text": "agreed"}
        await wes.request({"type": "chat", "text": "good game, both", "to": "table"})
        results = await asyncio.gather(play_out(ann, random.Random(1), timeout=60),
                                       play_out(ben, random.Random(2), timeout=60))
        assert results[0]["kind"] == "game_over"
        for player, heard in ((ann, [whisper]), (ben, [whisper, val_said])):
            history = await player.recv_until(lambda m: m["type"] == "chat_history")
            assert history == {"type": "chat_history", "lines": heard}
            # During the game the players heard the table chat (kibitzing), not the watchers'.
            assert [m["text"] for m in player.received if m["type"] == "chat"] == ["good game, both"]
        # Between games the watchers' chat reaches everyone at the table.
        await wes.request({"type": "chat", "text": "rematch?", "to": "watchers"})
        assert (await ann.recv_until(lambda m: m["type"] == "chat"))["text"] == "rematch?"
        for client in (ann, ben, wes, val):
            await client.close()


async def test_whoever_enters_the_lobby_is_given_its_last_twenty_chat_lines() -> None:
    async with running_server(**CHATTY) as server:
        ann = await _online(server.port, "ann")
        cat = await Client.connect(server.port)
        await cat.request({"type": "hello", "name": "cat", "version": 1})
        assert _pushes(cat, "chat_history") == []  # the lobby has said nothing yet
        await cat.request({"type": "create_table"})
        for number in range(1, 22):
            await ann.request({"type": "chat", "text": f"line {number}", "to": "lobby"})
        await cat.request({"type": "chat", "text": "at my table"})  # not the lobby's
        ben = await Client.connect(server.port)
        await ben.hello("ben")
        history = await ben.recv_until(lambda m: m["type"] == "chat_history")
        assert [(line["from"], line["text"]) for line in history["lines"]] == [
            ("ann", f"line {number}") for number in range(2, 22)]
        await cat.request({"type": "leave"})
        again = await cat.recv_until(lambda m: m["type"] == "chat_history")
        assert again == history
        for client in (ann, ben, cat):
            await client.close()


async def test_tell_invite_mute_whisper_and_the_lobby_history_by_text() -> None:
    async with running_server() as server:
        ben = await _online(server.port, "ben")
        await ben.request({"type": "chat", "text": "anyone for noddy?", "to": "lobby"})
        reader, writer = await text_connection(server.port)
        writer.write(b"width 1000\nname Ada\n")  # (width: one line a message)
        await text_until(reader, "Type tables")
        assert await text_until(reader, "Said") == "Said in the lobby lately:\n"
        assert await text_until(reader, "  ") == "  [lobby] ben: anyone for noddy?\n"
        await ben.request({"type": "tell", "name": "ada", "text": "a private game?"})
        assert await text_until(reader, "ben") == "ben tells you: a private game?  (tell ben ... to answer)\n"
        writer.write(b"tell ben  yes, please\n")
        assert await text_until(reader, "You") == "You tell ben: yes, please\n"
        assert (await ben.recv_until(lambda m: m["type"] == "tell"))["text"] == "yes, please"
        await ben.request({"type": "create_table", "preset": "noddy", "private": True, "password": "pw"})
        await ben.request({"type": "invite", "name": "Ada"})
        assert await text_until(reader, "ben") == (
            "ben invites you to table 1 (noddy, private). Type accept 1 or decline 1 (within 120 s).\n")
        writer.write(b"accept 1\n")
        # (the lobby's news of the table, with seat 2 empty, may come first)
        seated = ("Table 1 noddy 2p (private, unrated: ben and Ada are guests) [waiting] "
                  "1: ben (guest) | 2: Ada (guest)")
        assert await text_until(reader, seated) == seated + "\n"
        writer.write(b"whisper hi\n")
        assert await text_until(reader, "Error") == (
            "Error (not_watching): you sit at table 1: the watchers' chat is for those who watch\n")
        writer.write(b"mute ben\n")
        assert await text_until(reader, "You have") == "You have muted: ben.\n"
        writer.write(b"unmute ben\nmuted\n")
        assert await text_until(reader, "You have") == "You have muted nobody.\n"
        writer.close()
        await ben.close()


async def test_a_tell_to_an_absent_account_waits_for_its_login_even_over_a_restart(tmp_path: Any) -> None:
    db = str(tmp_path / "noddy.db")
    async with running_server(db=db, **CHATTY) as server:
        ann = await _online(server.port, "ann")
        assert (await ann.request({"type": "register", "password": "correct horse"}))["type"] == "registered"
        await ann.request({"type": "bye"})
        ben, dan = await _online(server.port, "ben"), await _online(server.port, "dan")
        await _register(ben)
        await dan.request({"type": "bye"})
        echo = await ben.request({"type": "tell", "name": "ANN", "text": "fancy\x1b a game tonight?"})
        assert echo == {"type": "tell", "from": "ben", "to": "ann", "text": "fancy\ufffd a game tonight?",
                        "waiting": True, "echo": True, "id": echo["id"]}
        for number in range(2, 4):
            assert (await ben.request({"type": "tell", "name": "ann", "text": f"tell {number}"}))["waiting"]
        full = await ben.request({"type": "tell", "name": "ann", "text": "one too many"})
        assert (full["code"], full["message"], full["field"]) == (
            "too_many_waiting", "you have 3 tells waiting for ann already; tell them more once they are online",
            "name")
        guest = await ben.request({"type": "tell", "name": "dan", "text": "hi"})
        assert (guest["code"], guest["message"]) == (
            "no_such_player", "'dan' is not online, and has no account: a tell waits only for a registered "
            "name (who lists who is online)")
        await ben.close()
    async with running_server(db=db) as server:  # a restart: the tells were kept
        ann = await Client.connect(server.port)
        await ann.hello("ann", password="correct horse")
        told = [await ann.recv_until(lambda m: m["type"] == "tell") for _ in range(3)]
        assert [(m["from"], m["text"], m["waiting"], m["echo"]) for m in told] == [
            ("ben", "fancy\ufffd a game tonight?", True, False)] + [
            ("ben", f"tell {number}", True, False) for number in range(2, 4)]
        assert all(isinstance(m["sent_at"], float) for m in told)
        await ann.request({"type": "bye"})
        again = await Client.connect(server.port)
        await again.hello("ann", password="correct horse")
        await again.request({"type": "muted"})  # (the tells, if any, would have come before this reply)
        assert _pushes(again, "tell") == []  # delivered once: nothing waits any more
        await again.close()


async def test_a_tell_waiting_for_an_account_is_muted_by_it_and_read_by_text(tmp_path: Any) -> None:
    async with running_server(db=str(tmp_path / "noddy.db")) as server:
        ann = await _online(server.port, "ann")
        await ann.request({"type": "register", "password": "owlfeathers"})
        await ann.request({"type": "mute", "name": "dan"})
        await ann.request({"type": "bye"})
        ben, dan = await _online(server.port, "ben"), await _online(server.port, "dan")
        await _register(dan)
        assert (await dan.request({"type": "tell", "name": "ann", "text": "let me in"}))["waiting"] is True
        reader, writer = await text_connection(server.port)
        writer.write(b"name Cy\nregister cy-secret cy-secret\n")  # a guest leaves no tell for someone away
        await text_until(reader, "Cy is registered")
        writer.write(b"tell ann see you tomorrow\n")
        assert await text_until(reader, "You tell") == (
            "You tell ann: see you tomorrow (they are away: it waits for their next login)\n")
        writer.write(b"login ann owlfeathers\n")
        assert await text_until(reader, "Cy") == (
            "Cy told you while you were away: see you tomorrow  (tell Cy ... to answer)\n")
        writer.write(b"muted\n")
        assert await text_until(reader, "You have") == "You have muted: dan.\n"  # kept for the account
        writer.close()
        for client in (ben, dan):
            await client.close()
