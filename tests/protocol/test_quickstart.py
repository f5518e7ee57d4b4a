"""The "bot in about 30 lines" of docs/PROTOCOL.md ("Writing a bot") plays a whole game against a real server.

The block between the ``quickstart:start`` and ``quickstart:end`` markers is run as it is,
in a separate Python process (it needs nothing but the standard library), so the first
thing a bot author copies cannot go stale.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys

from tests.server.harness import running_server
from tests.server.transcript import DOC

#: The longest one game of Cribbage against a computer may take the quick-start bot.
GAME_TIMEOUT = 60.0


def quickstart_code() -> str:
    """The Python block between the markers."""
    body = DOC.read_text(encoding="utf-8").split("<!-- quickstart:start -->", 1)[1]
    body = body.split("<!-- quickstart:end -->", 1)[0]
    return body.split("```python\n", 1)[1].rsplit("```", 1)[0]


def test_the_quickstart_is_short_and_needs_only_the_standard_library() -> None:
    code = quickstart_code()
    assert len([line for line in code.splitlines() if line.strip()]) <= 32
    assert "noddy" not in code.replace('"quickbot"', "")


async def test_the_quickstart_bot_plays_a_whole_game() -> None:
    async with running_server() as server:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-I", "-c", quickstart_code(),
            env={**os.environ, "NODDY_HOST": "127.0.0.1", "NODDY_PORT": str(server.port)},
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        out, err = await asyncio.wait_for(process.communicate(), GAME_TIMEOUT)
        assert process.returncode == 0, err.decode()
        scores = json.loads(out)
        assert len(scores) == 2 and max(scores) >= 121
