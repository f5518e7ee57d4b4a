"""Hostile input that must not hurt anyone else (issue 11), each over real sockets.

* lone surrogates (valid JSON that cannot be encoded back) are refused at the door with
  ``bad_text`` naming the field, so they never reach another connection;
* names are printable, NFKC-normalised, and refused when they only *look* like one in use
  or like a computer player's; chat is cleaned of terminal controls for JSON and text readers;
* chat and password guesses are limited per address, not only per connection;
* a silent text-mode connection is neither pinged nor dropped (a person may wait);
* integers out of range are ``bad_field`` before they reach storage.
"""

from __future__ import annotations

import asyncio
import doctest
import importlib
import json
from typing import Any

import pytest

from noddy.protocol import REQUESTS
from noddy.server import ServerCore

from ..server.harness import Client, running_server
from ..server.harness import test_config as config_for_tests
from .helpers import BIG, connect, watch_errors


async def raw_request(client: Client, line: bytes) -> dict[str, Any]:
    """Send one raw line; return the next reply that is not a push of a table change."""
    await client.send_raw(line + b"\n")
    return await client.recv_until(lambda m: m["type"] not in ("table", "chat"))


async def text_connection(port: int, local: str | None = None) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer = await asyncio.open_connection(
        "127.0.0.1", port, limit=BIG, local_addr=None if local is None else (local, 0))
    assert json.loads(await reader.readline())["type"] == "greeting"
    return reader, writer


async def text_line(reader: asyncio.StreamReader, timeout: float = 5.0) -> bytes:
    return await asyncio.wait_for(reader.readline(), timeout)


async def chat_line(reader: asyncio.StreamReader) -> bytes:
    """The next chat line a text connection reads (after any acknowledgement of its own, and
    the lobby's last lines, which a newcomer is given)."""
    while not (line := await text_line(reader)).startswith(b"["):
        assert line in (b"OK.\n", b"\n") or line.startswith((b"Said in the lobby lately:", b"  [")), line
    return line


# == 1. lone surrogates =====================================================================
SURROGATE_LINES: list[tuple[bytes, Any, str]] = [
    # (line, the id the error must carry, the field it must name)
    (b'{"type":"chat","id":1,"text":"\\ud800","to":"lobby"}', 1, "text"),
    (b'{"type":"chat","id":2,"text":"a\\uDFFFb","to":"lobby"}', 2, "text"),
    (b'{"type":"chat","id":3,"text":"\\udc00\\ud800","to":"lobby"}', 3, "text"),  # pair in the wrong order
    (b'{"type":"create_table","id":4,"private":true,"password":"\\ud83d"}', 4, "password"),
    (b'{"type":"list_games","id":5,"name":"\\udead"}', 5, "name"),
    (b'{"type":"action","id":6,"action":"discard","cards":["AS","\\ud800"]}', 6, "cards"),
    (b'{"type":"create_table","id":7,"options":{"\\ud800":1}}', 7, "options"),
    (b'{"type":"create_table","id":8,"preset":"\\ud800"}', 8, "preset"),
    (b'{"type":"ping","id":9,"extra":["\\ud800"]}', 9, "extra"),
    (b'{"type":"ping","id":"\\ud800"}', None, "id"),
]


async def test_lone_surrogates_are_refused_at_the_door_and_nobody_else_is_hurt() -> None:
    with watch_errors() as watch:
        async with running_server() as server:
            ann = await connect(server.port)
            await ann.hello("ann")                     # an innocent listener in the lobby
            eve = await connect(server.port)
            reply = await raw_request(eve, b'{"type":"hello","id":"h","name":"\\ud800ve","version":1}')
            assert (reply["type"], reply["code"], reply["id"], reply["field"]) == ("error", "bad_text", "h", "name")
            await eve.hello("eve")
            for line, rid, field in SURROGATE_LINES:
                reply = await raw_request(eve, line)
                assert (reply["type"], reply["code"], reply["id"], reply["field"]) == \
                    ("error", "bad_text", rid, field), (line, reply)
            # a valid pair (an emoji) is text like any other
            reply = await raw_request(eve, b'{"type":"chat","id":20,"text":"\\ud83d\\ude00","to":"lobby"}')
            assert reply == {"type": "ok", "id": 20}
            # nothing reached ann but the one good chat, and both still work
            assert (await ann.request({"type": "ping"}))["type"] == "pong"
            assert [m["text"] for m in ann.received if m["type"] == "chat"] == ["\U0001F600"]
            assert (await ann.request({"type": "list_tables"}))["tables"] == []
            assert (await eve.request({"type": "ping"}))["type"] == "pong"
            for client in (ann, eve):
                await client.close()
        watch.assert_clean()


# == 2. names and chat ======================================================================
async def test_names_are_printable_normalised_and_not_lookalikes() -> None:
    async with running_server() as server:
        ann = await connect(server.port)
        await ann.hello("Ann")
        eve = await connect(server.port)
        refusals = [
            ("\x1b[2Jeve", "bad_name"), ("eve\nann: hi", "bad_name"), ("ev\u202ee", "bad_name"),
            ("e\u200bve", "bad_name"), ("\u2066eve", "bad_name"), ("eve\x9b", "bad_name"),
            ("\u3164", "bad_name"), ("\ufeff", "bad_name"), ("ﷺ" * 2, "bad_name"),  # 36 after NFKC
            ("ann", "name_taken"), ("ANN", "name_taken"), ("\u0430nn", "name_taken"),  # Cyrillic a
            ("\u0391nn", "name_taken"), ("Ａｎｎ", "name_taken"), ("a\u0301nn", "name_taken"),
            ("random computer", "name_taken"), ("Greedy  Computer", "name_taken"),
            ("\u0435xp\u0435rt c\u043emputer", "name_taken"), ("expert computer", "name_taken"),
        ]
        for name, code in refusals:
            reply = await eve.request({"type": "hello", "name": name, "version": 1})
            assert (reply["type"], reply.get("code"), reply.get("field")) == ("error", code, "name"), (name, reply)
        welcome = await eve.hello("Ｅｖｅ\u3000 ｌｙｎ")  # full width letters and space
        assert welcome["name"] == "Eve lyn"
        other = await connect(server.port)
        reply = await other.request({"type": "hello", "name": "eve lyn", "version": 1})
        assert (reply["code"], reply["field"]) == ("name_taken", "name")
        reply = await other.request({"type": "hello", "name": "\u0435ve lyn", "version": 1})
        assert reply["code"] == "name_taken"
        await other.hello("eve lynn")  # a different name entirely
        # text mode: the name command gets the same checks
        reader, writer = await text_connection(server.port)
        writer.write(b"name \x1b]52;c;ZXZpbA==\x07mallory\n")
        assert (await text_line(reader)).startswith(b"Error (bad_name): ")
        assert (await text_line(reader)).startswith(b"  ")  # (the error goes on on a second line)
        writer.write(b"name random computer\n")
        assert (await text_line(reader)).startswith(b"Error (name_taken): ")
        writer.close()
        for client in (ann, eve, other):
            await client.close()


DIRTY_CHAT = "hi\x1b[2J\nann: FAKE\r\t\u202eevil\x9b31m\x7f\x00end\u2028x"
CLEAN_CHAT = "hi\ufffd[2J ann: FAKE  \ufffdevil\ufffd31m\ufffd\ufffdend x"


async def test_chat_is_cleaned_of_terminal_controls_for_json_and_text_readers() -> None:
    async with running_server() as server:
        ann = await connect(server.port)
        await ann.hello("ann")
        reader, writer = await text_connection(server.port)
        writer.write(b"name bob\n")
        assert (await text_line(reader)).startswith(b"Welcome, bob!")
        await text_line(reader)  # the second line of the welcome
        assert await text_line(reader) == b"You are a guest (unrated): register PASSWORD keeps your name.\n"
        eve = await connect(server.port)
        await eve.hello("eve")
        reply = await eve.request({"type": "chat", "text": DIRTY_CHAT, "to": "lobby"})
        assert reply["type"] == "ok"
        pushed = await ann.recv_until(lambda m: m["type"] == "chat")
        assert pushed["text"] == CLEAN_CHAT
        assert await chat_line(reader) == f"[lobby] eve: {CLEAN_CHAT}\n".encode()
        # the chat of a text-mode sender is cleaned the same way
        writer.write("say a\u202eb\x1bc\n".encode())
        assert await chat_line(reader) == "[lobby] bob: a\ufffdb\ufffdc\n".encode()
        assert (await ann.recv_until(lambda m: m["type"] == "chat"))["text"] == "a\ufffdb\ufffdc"
        writer.close()
        for client in (ann, eve):
            await client.close()


# == 3. per address =========================================================================
async def test_chat_is_limited_per_address_over_all_its_connections() -> None:
    # The clock stands still: on the machine's clock, chat sent 2 s apart on a busy machine
    # would have earned a token back.
    core = ServerCore(config_for_tests(chat_rate_per_address=0.5, chat_burst_per_address=4), clock=lambda: 0.0)
    async with running_server(core=core) as server:
        listener = await connect(server.port)
        await listener.hello("listener")
        spammers = [await connect(server.port) for _ in range(3)]
        for i, spammer in enumerate(spammers):
            await spammer.hello(f"spam{i}")
        replies = []
        for spammer in spammers * 2:  # each connection sends two: far under its own rate
            replies.append(await spammer.request({"type": "chat", "text": "buy now", "to": "lobby"}))
        assert [r["type"] for r in replies] == ["ok"] * 4 + ["error"] * 2
        assert {r["code"] for r in replies[4:]} == {"rate_limited"}
        assert [r["retry_after"] for r in replies[4:]] == [2.0, 2.0]  # a token comes back in 1 / 0.5 s
        assert (await listener.request({"type": "ping"}))["type"] == "pong"
        assert len([m for m in listener.received if m["type"] == "chat"]) == 4
        # another address is not held back by this one's spam
        reader, writer = await text_connection(server.port, local="127.0.0.2")
        writer.write(b"shout hello\n")
        assert (await text_line(reader)).startswith(b"Welcome, guest-1!")
        await text_line(reader)  # the second line of the welcome
        assert await text_line(reader) == b"You are a guest (unrated): register PASSWORD keeps your name.\n"
        assert await chat_line(reader) == b"[lobby] guest-1: hello\n"
        writer.close()
        for client in (listener, *spammers):
            await client.close()


async def test_wrong_passwords_lock_the_address_out_for_a_while() -> None:
    async with running_server(password_attempts=3, password_window=60.0, password_lockout=0.4) as server:
        owner = await connect(server.port)
        await owner.hello("owner")
        created = await owner.request({"type": "create_table", "private": True, "password": "s3cret"})
        table = created["table"]["id"]
        guessers = [await connect(server.port) for _ in range(2)]
        for i, guesser in enumerate(guessers):
            await guesser.hello(f"guesser{i}")
        codes = []
        for guess, guesser in zip(["a", "b", "c"], [guessers[0], guessers[1], guessers[0]]):
            codes.append((await guesser.request({"type": "sit", "table": table, "password": guess}))["code"])
        assert codes == ["wrong_password"] * 3
        # the right password too is refused now, from any connection of the address, sit or watch
        for request in ({"type": "sit", "table": table, "password": "s3cret"},
                        {"type": "spectate", "table": table, "password": "s3cret"}):
            reply = await guessers[1].request(request)
            assert (reply["code"], reply["field"]) == ("too_many_attempts", "password")
            assert 0 < reply["retry_after"] <= 0.41
        # another address may still try (and get in)
        other = Client(*await asyncio.open_connection("127.0.0.1", server.port, local_addr=("127.0.0.2", 0)))
        await other.recv()
        await other.hello("other")
        assert (await other.request({"type": "spectate", "table": table, "password": "s3cret"}))["type"] == "table"
        await asyncio.sleep(reply["retry_after"])
        reply = await guessers[0].request({"type": "sit", "table": table, "password": "s3cret"})
        assert reply["type"] == "table", reply
        for client in (owner, other, *guessers):
            await client.close()


async def test_a_silent_text_mode_connection_is_neither_pinged_nor_dropped() -> None:
    """A person at a terminal cannot answer pings and may wait as long as they like."""
    async with running_server(ping_interval=0.2, idle_timeout=0.5) as server:
        reader, writer = await text_connection(server.port)
        writer.write(b"tables\n")
        assert (await text_line(reader)).startswith(b"Welcome, guest-1!")
        await asyncio.sleep(1.5)
        writer.write(b"ping\n")
        seen = b""
        while seen != b"pong\n":
            seen = await text_line(reader)
            assert b"Are you there" not in seen and b"Goodbye" not in seen, seen
        assert server.core is not None and len(server.core.connections) == 1
        writer.close()


# == 4. integers out of range ===============================================================
@pytest.mark.parametrize("request_, field", [
    ({"type": "get_game", "game": 2**63}, "game"),
    ({"type": "get_game", "game": -1}, "game"),
    ({"type": "get_game", "game": 2**53}, "game"),
    ({"type": "sit", "table": 2**63}, "table"),
    ({"type": "spectate", "table": 0}, "table"),
    ({"type": "sit", "table": 1, "seat": -1}, "seat"),
    ({"type": "remove_computer", "seat": 10**30}, "seat"),
    ({"type": "create_table", "players": 10**6}, "players"),
    ({"type": "list_games", "limit": 10**20}, "limit"),
])
async def test_numbers_out_of_range_are_bad_field(request_: dict[str, Any], field: str) -> None:
    with watch_errors() as watch:
        async with running_server() as server:
            client = await connect(server.port)
            await client.hello("ann")
            reply = await client.request(request_)
            assert (reply["type"], reply["code"], reply["field"]) == ("error", "bad_field", field), reply
            await client.close()
        watch.assert_clean()


def test_every_int_field_of_the_schema_is_bounded() -> None:
    unbounded = [(kind, spec.name) for kind, specs in REQUESTS.items() for spec in specs
                 if spec.kind == "int" and (spec.minimum is None or spec.maximum is None)]
    assert unbounded == []


@pytest.mark.parametrize("module", ["noddy.protocol.names", "noddy.protocol.text", "noddy.server.model.ratelimit"])
def test_docstring_examples(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0 and result.attempted > 0
