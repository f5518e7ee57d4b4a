"""One table, three languages (issue 36): each person reads the same game in their own.

RULES.md's worked example of counting by hand (the deal stacked as in
tests/server/test_counting_and_coach.py): Ben plays in German over JSON, a watcher follows in
English, and -- in text mode -- Ann plays in Spanish.  The shared messages are made once by
the core; the send path says them again for each reader, so a German reader's announcements
and errors are German while the watcher's stay English, from the very same events."""

from __future__ import annotations

import asyncio
import random

import pytest

from noddy.protocol.calls import announce
from noddy.protocol.i18n import speaking

from .harness import Client, play_out, running_server
from .test_counting_and_coach import (MANUAL, _claim_turn, _kind, _play_to_the_show, _seat_two,
                                      stacked)

__all__ = ["stacked"]  # the fixture, used by name


async def test_a_german_player_and_an_english_watcher_read_one_count_each_in_their_own(
        stacked: None) -> None:
    async with running_server() as server:
        ben, ann, table_id = await _seat_two(server.port, MANUAL)
        dot = await Client.connect(server.port)
        await dot.hello("Dot")
        await dot.request({"type": "spectate", "table": table_id})
        assert (await ben.request({"type": "language", "language": "de"}))["language"] == "de"
        await _play_to_the_show(ben, ann)
        await ann.request({"type": "action", "action": "claim", "points": 12})
        await ben.recv_until(lambda m: m["type"] == "turn" and m["legal_actions"][:1] == [
            {"action": "muggins", "min": 13, "max": 29}])
        refused = await ben.request({"type": "action", "action": "muggins", "points": 30})
        assert (refused["code"], refused["message"]) == (
            "bad_claim", "Muggins muss sagen, dass die Hand mehr als die angesagten 12 bringt "
            "(bis 29), nicht 30")
        await ben.request({"type": "action", "action": "muggins", "points": 16})
        german = (await ben.recv_until(_kind("counted")))["event"]
        english = (await dot.recv_until(_kind("counted")))["event"]
        assert german["items"] == english["items"]
        assert english["announcement"] == ("fifteen two, fifteen four, fifteen six, fifteen eight, "
                                           "a pair ten, a run of three thirteen, a run of three sixteen")
        assert german["announcement"] == ("fünfzehn zwei, fünfzehn vier, fünfzehn sechs, fünfzehn acht, "
                                          "ein Paar zehn, eine Sequenz von drei dreizehn, "
                                          "eine Sequenz von drei sechzehn")
        with speaking("de"):
            assert german["announcement"] == announce(english["items"])
        for client in (ann, ben, dot):
            await client.close()
