"""A skunk and a double skunk in one match (issue 33's note), over real sockets: the
narration says each, the match scores 4 for the double and 2 for the skunk (6: the match
won), the records keep the match points after each game, and the statistics count both.

Cribbage to 91, counted by hand (a skunk below 61, a double below 31), as in
tests/server/test_matches.py: ann counts exactly and calls muggins; ben claims what his
policy says.  The seeds are fixed, so each run is the same.
"""

from __future__ import annotations

import asyncio

from noddy.engine import configure
from noddy.server.text import render

from .harness import Client, running_server, text_connection, text_until
from .test_matches import _game, _ready_both

OPTIONS = {"target": 91, "counting": "manual", "match": 6}


async def test_a_double_skunk_then_a_skunk_win_a_match_to_6() -> None:
    rules = configure("cribbage", 2, options={"target": 91, "counting": "manual"})
    async with running_server() as server:
        ann, ben = await Client.connect(server.port), await Client.connect(server.port)
        await ann.hello("ann")
        await ben.hello("ben")
        await ann.request({"type": "create_table", "preset": "cribbage", "options": OPTIONS})
        await ben.request({"type": "sit", "table": 1})
        await _ready_both(ann, ben)
        double = await _game(ann, ben, rules, lambda score: False, seed=5)  # ben claims nothing
        assert (double["winner"], double["skunk"]) == (0, "double") and double["scores"][1] < 31
        table = await ann.recv_until(lambda m: m["type"] == "table" and m["table"]["status"] == "finished")
        assert (table["table"]["match"]["points"], table["table"]["match"]["winner"]) == ([4, 0], None)
        await _ready_both(ann, ben)
        skunk = await _game(ann, ben, rules, lambda score: score < 31, seed=6)  # exact until 31
        assert (skunk["winner"], skunk["skunk"]) == (0, "skunk") and 31 <= skunk["scores"][1] < 61
        table = await ann.recv_until(lambda m: m["type"] == "table" and m["table"]["status"] == "finished")
        assert (table["table"]["match"]["points"], table["table"]["match"]["winner"]) == ([6, 0], 0)
        # The narration, as text mode and the clients tell each game's end.
        names = ["ann", "ben"]
        for over, words in ((double, "a double skunk"), (skunk, "a skunk")):
            line = render({"type": "event", "event": over}, names).splitlines()[0]
            assert line == f"ann wins the game, {over['scores'][0]} to {over['scores'][1]}, {words}!"
        # The records: the match points after each game.
        listed = (await ben.request({"type": "list_games"}))["games"]
        assert [(g["result"]["skunk"], g["match"]["points"], g["match"]["winner"]) for g in listed] == [
            ("skunk", [6, 0], 0), ("double", [4, 0], None)]
        # The statistics: two games won with a skunk, one of them a double (docs/PROTOCOL.md,
        # Statistics: doubles are counted among the skunks), given by ann, taken by ben.
        mine = (await ann.request({"type": "stats", "preset": "cribbage"}))["presets"][0]
        theirs = (await ben.request({"type": "stats", "preset": "cribbage"}))["presets"][0]
        assert (mine["wins"], mine["skunks_given"], mine["double_skunks_given"]) == (2, 2, 1)
        assert (theirs["skunks_taken"], theirs["double_skunks_taken"]) == (2, 1)
        # Text mode's games: each game's match line.
        reader, writer = await text_connection(server.port)
        writer.write(b"width 1000\nname cy\ngames ann\n")  # (width: one line a message)
        first = await text_until(reader, "Game 2:")
        second = await text_until(reader, "Game 1:")
        assert first.rstrip("\n").endswith(
            f"ann {skunk['scores'][0]}, ben {skunk['scores'][1]}; ann wins, a skunk; "
            "match #1 (first to 6) after game 2: ann 6, ben 0, ann wins the match.")
        assert second.rstrip("\n").endswith(
            f"ann {double['scores'][0]}, ben {double['scores'][1]}; ann wins, a double skunk; "
            "match #1 (first to 6) after game 1: ann 4, ben 0.")
        writer.close()
        await asyncio.gather(ann.close(), ben.close())
