"""The example transcript in docs/PROTOCOL.md: how it is recorded, read back and replayed.

Run ``python -m tests.server.transcript`` to record a fresh one from a real server and write
it into docs/PROTOCOL.md (between the ``transcript:start`` and ``transcript:end`` markers);
``tests/server/test_transcript.py`` replays the document's transcript against a server with
the same settings and fails if a single message differs, so the documentation cannot drift.
"""

from __future__ import annotations

import asyncio
import json
import pathlib
from typing import Any

from noddy.protocol import encode_line
from noddy.server import NoddyServer, ServerConfig

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "PROTOCOL.md"
START = "<!-- transcript:start -->"
END = "<!-- transcript:end -->"
#: The server settings of the transcript: defaults, but a fixed seed and a free port.
CONFIG = ServerConfig(host="127.0.0.1", port=0, seed=31)
#: A card that the scripted client offers once to show an error; replaced if it holds it.
BAD_CARDS = ("KS", "KH")


def normalise(message: dict[str, Any]) -> dict[str, Any]:
    """Everything a replay must reproduce: all of it except the random resume token and how
    long the game took (``game_over``'s ``duration_s``: seconds on the real clock, which no
    replay reproduces; the recorded value stands in the document as an example)."""
    if "token" in message:
        message = {**message, "token": "<token>"}
    event = message.get("event")
    if isinstance(event, dict) and event.get("kind") == "game_over" and "duration_s" in event:
        message = {**message, "event": {**event, "duration_s": "<seconds>"}}
    return message


async def record(port: int) -> list[str]:
    """Play the scripted client against a computer player; return the transcript lines."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20)
    lines: list[str] = []

    async def receive() -> dict[str, Any]:
        raw = await asyncio.wait_for(reader.readline(), 10)
        lines.append("< " + raw.decode().rstrip("\n"))
        return json.loads(raw)

    async def send(message: dict[str, Any]) -> None:
        data = encode_line(message)
        lines.append("> " + data.decode().rstrip("\n"))
        writer.write(data)
        await writer.drain()

    async def until(predicate: Any) -> dict[str, Any]:
        while True:
            message = await receive()
            if predicate(message):
                return message

    await receive()  # the greeting
    await send({"type": "hello", "id": 1, "name": "ada", "bot": True, "version": 1, "turn_state": True})
    await until(lambda m: m.get("id") == 1)
    await send({"type": "list_tables", "id": 2})
    await until(lambda m: m.get("id") == 2)
    await send({"type": "create_table", "id": 3, "preset": "noddy", "players": 2})
    await until(lambda m: m.get("id") == 3)
    await send({"type": "add_computer", "id": 4, "seat": 1, "level": "random"})
    await until(lambda m: m.get("id") == 4)
    await send({"type": "chat", "id": 5, "text": "good luck"})
    await until(lambda m: m["type"] == "chat")
    await send({"type": "ready", "id": 6})
    next_id, shown_error = 7, False
    while True:
        message = await until(lambda m: (m["type"] == "turn" and m["legal_actions"])
                              or (m["type"] == "table" and m["table"]["status"] == "finished"))
        if message["type"] == "table":
            break
        if not shown_error:
            hand = {a["card"] for a in message["legal_actions"] if a["action"] == "play"}
            bad = next(card for card in BAD_CARDS if card not in hand)
            await send({"type": "action", "id": next_id, "action": "play", "card": bad})
            await until(lambda m: m.get("id") == next_id)
            next_id, shown_error = next_id + 1, True
        await send({"type": "action", "id": next_id, **message["legal_actions"][0]})
        await until(lambda m: m.get("id") == next_id)
        next_id += 1
    await send({"type": "ping", "id": next_id})
    await until(lambda m: m.get("id") == next_id)
    await send({"type": "bye", "id": next_id + 1})
    await until(lambda m: m.get("id") == next_id + 1)
    assert await reader.read() == b""
    writer.close()
    return lines


def read_transcript(text: str) -> list[str]:
    """The ``>`` and ``<`` lines between the markers of PROTOCOL.md."""
    body = text.split(START, 1)[1].split(END, 1)[0]
    return [line for line in body.splitlines() if line.startswith(("> ", "< "))]


async def replay(port: int, transcript: list[str]) -> None:
    """Send every ``>`` line; every ``<`` line must be the next message received."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20)
    try:
        for number, line in enumerate(transcript, start=1):
            direction, payload = line[:1], line[2:]
            if direction == ">":
                writer.write(payload.encode() + b"\n")
                await writer.drain()
                continue
            raw = await asyncio.wait_for(reader.readline(), 10)
            assert raw, f"transcript line {number}: the server closed the connection"
            got, want = normalise(json.loads(raw)), normalise(json.loads(payload))
            assert got == want, f"transcript line {number}:\n want {want}\n  got {got}"
        assert await asyncio.wait_for(reader.read(), 10) == b""
    finally:
        writer.close()


async def _record_with_server() -> list[str]:
    async with NoddyServer(CONFIG) as server:
        return await record(server.port)


def write_between(start: str, end: str, lines: list[str]) -> None:
    """Put ``lines`` into docs/PROTOCOL.md as a text block between the markers ``start``
    and ``end`` (each transcript of the page has its own pair)."""
    text = DOC.read_text()
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    DOC.write_text(head + start + "\n```text\n" + "\n".join(lines) + "\n```\n" + end + tail)


def write_doc() -> int:
    lines = asyncio.run(_record_with_server())
    write_between(START, END, lines)
    print(f"wrote {len(lines)} transcript lines to {DOC}")
    return 0


if __name__ == "__main__":
    raise SystemExit(write_doc())
