"""The transcript in docs/PROTOCOL.md, replayed against a real server: the document cannot drift."""

from __future__ import annotations

from noddy.server import NoddyServer

from .transcript import CONFIG, DOC, read_transcript, replay


async def test_protocol_md_transcript_replays_exactly() -> None:
    transcript = read_transcript(DOC.read_text())
    sent = [line for line in transcript if line.startswith("> ")]
    assert len(sent) > 10 and transcript[-1].startswith('< {"type":"bye"')
    assert any('"kind":"game_over"' in line for line in transcript)
    async with NoddyServer(CONFIG) as server:
        await replay(server.port, transcript)
