"""The club-night transcript in docs/PROTOCOL.md, replayed against a real server (issue 35)."""

from __future__ import annotations

import json

from noddy.server import NoddyServer

from ..protocol.test_schema import STRICT
from .club_transcript import read_club_transcript
from .transcript import CONFIG, DOC, replay


async def test_the_club_nights_transcript_replays_exactly() -> None:
    transcript = read_club_transcript(DOC.read_text())
    assert sum(line.startswith("> ") for line in transcript) == 10
    assert any('"type":"event_news"' in line for line in transcript)
    assert any('"code":"too_few_entrants"' in line for line in transcript)
    for line in transcript:  # every line fits the published schema (docs/schema.json)
        message = json.loads(line[2:])
        STRICT.check(message) if line.startswith("<") else STRICT.check_request(message)
    async with NoddyServer(CONFIG) as server:
        await replay(server.port, transcript)
