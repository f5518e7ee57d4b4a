"""Plain netcat: text commands in, readable lines out, a whole game against a computer."""

from __future__ import annotations

import asyncio
import json
import re

from noddy.server.text_mode import parse_command

from .harness import running_server


def test_commands_map_onto_requests() -> None:
    assert parse_command("tables") == {"type": "list_tables"}
    assert parse_command("new noddy") == {"type": "create_table", "preset": "noddy", "options": {}}
    assert parse_command("new cribbage 4 pairs target=61 password=pw timer=30") == {
        "type": "create_table", "preset": "cribbage", "players": 4, "partnerships": True,
        "options": {"target": 61}, "private": True, "password": "pw", "turn_timer": 30}
    assert parse_command("sit 2") == {"type": "sit", "seat": 2}
    assert parse_command("sit 1 2 pw") == {"type": "sit", "table": 1, "seat": 2, "password": "pw"}
    assert parse_command("join 3") == {"type": "sit", "table": 3, "seat": None, "password": None}
    assert parse_command("play 5H") == {"type": "action", "action": "play", "card": "5H"}
    assert parse_command("go") == {"type": "action", "action": "go"}
    assert parse_command("discard 5H KS") == {"type": "action", "action": "discard", "cards": ["5H", "KS"]}
    assert parse_command("say hello there") == {"type": "chat", "text": "hello there", "to": None}
    assert parse_command("bot 1 random") == {"type": "add_computer", "seat": 1, "level": "random"}
    assert parse_command("watch 2") == {"type": "spectate", "table": 2, "password": None}
    assert parse_command("look") == {"type": "snapshot"}
    assert parse_command("quit") == {"type": "bye"}
    assert parse_command("help") is None


async def test_a_person_plays_a_whole_game_by_text() -> None:
    async with running_server() as server:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)

        async def line() -> str:
            return (await asyncio.wait_for(reader.readline(), 10)).decode()

        greeting = json.loads(await line())
        assert greeting["help"].startswith("Type help and press Enter")
        writer.write(b"name Ada\n")
        assert (await line()).startswith("Welcome, Ada! Your resume token is ")
        await line()
        writer.write(b"new noddy\n")
        assert await line() == "Table 1 noddy 2p [waiting] 0: Ada | 1: empty\n"
        writer.write(b"bot 1 random\n")
        assert await line() == "Table 1 noddy 2p [waiting] 0: Ada | 1: random computer (computer)\n"
        writer.write(b"say good luck\n")
        assert await line() == "OK.\n"
        assert await line() == "[table 1] Ada: good luck\n"
        writer.write(b"ready\n")
        assert await line() == "Table 1 noddy 2p [playing] 0: Ada | 1: random computer (computer)\n"
        seen: list[str] = []
        for _ in range(2000):
            text = await line()
            seen.append(text)
            if text.startswith("Game over"):
                break
            match = re.match(r"Your turn \(count \d+\): (play \w\w|go)", text)
            if match:
                writer.write(match.group(1).encode() + b"\n")
        assert seen[-1].startswith("Game over: seat ")
        assert any(t.startswith("Your cards: ") for t in seen)
        assert any(t.startswith("Seat 1 plays ") for t in seen)
        assert not any(t.startswith("Error") for t in seen)
        game = server.core.tables[1].game
        assert seen[-1] == (f"Game over: seat {game.winner} wins. "
                            f"Scores: {' '.join(map(str, game.scores))}\n")
        writer.write(b"quit\n")
        rest = await asyncio.wait_for(reader.read(), 10)
        assert rest.decode().endswith("Goodbye (goodbye).\n")
        writer.close()
