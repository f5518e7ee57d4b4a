"""The club-night transcript in docs/PROTOCOL.md ("Club nights"): recorded from a real server
and replayed by tests/server/test_club_transcript.py, so the section cannot drift.

Run ``python -m tests.server.club_transcript`` to record a fresh one and write it into
docs/PROTOCOL.md between the ``club-transcript:start`` and ``club-transcript:end`` markers.
It reuses the main transcript's settings and replay (:mod:`tests.server.transcript`).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from noddy.protocol import encode_line
from noddy.server import NoddyServer

from .transcript import CONFIG, DOC, write_between

START = "<!-- club-transcript:start -->"
END = "<!-- club-transcript:end -->"

#: What the scripted client sends, in order; after each, the lines up to its reply are kept.
SCRIPT: list[dict[str, Any]] = [
    {"type": "hello", "name": "ann", "version": 1, "id": 1},
    {"type": "register", "password": "sesame", "id": 2},
    {"type": "announce_event", "title": "Tuesday club", "format": "swiss", "rounds": 3, "preset": "cribbage",
     "games": 2, "forfeit_wait": 120, "round_pause": 30, "id": 3},
    {"type": "join_event", "event": 1, "id": 4},
    {"type": "events", "id": 5},
    {"type": "direct_event", "event": 1, "command": "start", "id": 6},
    {"type": "join_event", "event": 1, "id": 7},
    {"type": "event", "event": 2, "id": 8},
    {"type": "withdraw_event", "event": 1, "id": 9},
    {"type": "bye", "id": 10},
]


async def record(port: int) -> list[str]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20)
    lines = []

    async def receive() -> dict[str, Any]:
        message = json.loads(await asyncio.wait_for(reader.readline(), 10))
        lines.append("< " + encode_line(message).decode().rstrip("\n"))
        return message

    await receive()  # the greeting
    for message in SCRIPT:
        writer.write(encode_line(message))
        await writer.drain()
        lines.append("> " + encode_line(message).decode().rstrip("\n"))
        while (await receive()).get("id") != message["id"]:
            pass
        if message["type"] != "bye":  # the news of a change follows its reply
            await asyncio.sleep(0.2)
            while True:
                try:
                    line = await asyncio.wait_for(reader.readline(), 0.2)
                except asyncio.TimeoutError:
                    break
                lines.append("< " + line.decode().rstrip("\n"))
    writer.close()
    return lines


def read_club_transcript(text: str) -> list[str]:
    body = text.split(START, 1)[1].split(END, 1)[0]
    return [line for line in body.splitlines() if line.startswith(("> ", "< "))]


async def _record_with_server() -> list[str]:
    async with NoddyServer(CONFIG) as server:
        return await record(server.port)


def write_doc() -> int:
    lines = asyncio.run(_record_with_server())
    write_between(START, END, lines)
    print(f"wrote {len(lines)} club transcript lines to {DOC}")
    return 0


if __name__ == "__main__":
    raise SystemExit(write_doc())
