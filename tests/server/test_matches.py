"""Matches and skunks over real sockets (issue 26; ``../shared/RULES.md``, "Skunks and matches").

The games are cribbage counted by hand (``counting: "manual"``), which lets a test decide how
lopsided a game is without stacking the pack: ann counts every show exactly and calls muggins
on every short claim; ben claims what his policy says (his exact worth, or 0) and never calls.
The worth of a show is counted by the engine from what the snapshot shows of it (every card
of a show is on the table when it is counted).  Everything else is a seeded random choice,
and the server's seed is fixed, so each game is the same at every run.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any, Callable

from noddy.client.model import ViewModel
from noddy.client.screens.records import game_line
from noddy.client.screens.replay import Replay
from noddy.engine import configure, score_show
from noddy.protocol.story import narrate
from noddy.server.text import render

from .harness import Client, running_server
from .results import outcome

#: ben's policies: claim his show's worth while his score is below the number, else 0.
Policy = Callable[[int], bool]


async def _play(client: Client, rng: random.Random, rules: Any, exact: Policy, mugs: bool,
                timeout: float = 60.0) -> dict[str, Any]:
    """Play ``client``'s seat until the game is over; return the game_over event."""
    pending: int | None = None

    async def act(turn: dict[str, Any]) -> None:
        nonlocal pending
        legal = turn["legal_actions"]
        verb = legal[0]["action"]
        if verb in ("claim", "muggins"):
            snapshot = await client.request({"type": "snapshot"})
            game = snapshot["game"]
            counting = game["counting"]
            worth = score_show(counting["cards"], game["turn_up"], rules,
                               crib=counting["reason"] == "crib").total
            if verb == "claim":
                action = {"action": "claim", "points": worth if exact(game["scores"][game["seat"]]) else 0}
            elif mugs and counting["claimed"] < worth:
                action = {"action": "muggins", "points": worth}
            else:
                action = {"action": "pass"}
        else:
            action = dict(rng.choice(legal))
        client._next_id += 1
        pending = client._next_id
        await client.send({"type": "action", **action, "id": pending})

    async def loop() -> dict[str, Any]:
        nonlocal pending
        # Where the game stands (its opening may have been read already), then each message.
        turn = (await client.request({"type": "snapshot"})).get("turn")
        if turn and turn["legal_actions"]:
            await act(turn)
        while True:
            message = await client.recv()
            if message["type"] == "event" and message["event"]["kind"] == "game_over":
                return message["event"]
            if pending is not None and message.get("id") == pending:
                assert message["type"] == "ok", message
                pending = None
            if message["type"] == "turn" and pending is None and message["legal_actions"]:
                await act(message)

    return await asyncio.wait_for(loop(), timeout)


async def _game(ann: Client, ben: Client, rules: Any, ben_exact: Policy, seed: int) -> dict[str, Any]:
    """One game of the match: ann always exact and calling muggins, ben by ``ben_exact``."""
    over = await asyncio.gather(_play(ann, random.Random(seed), rules, lambda _: True, True),
                                _play(ben, random.Random(seed + 1), rules, ben_exact, False))
    assert over[0] == over[1]
    return over[0]


async def _ready_both(ann: Client, ben: Client) -> None:
    """Both say ready; the next game is dealt (its first turn is read: a snapshot tells it)."""
    await ann.request({"type": "ready"})
    await ben.request({"type": "ready"})
    await ann.recv_until(lambda m: m["type"] == "turn")


def _openings(client: Client, game_number: int) -> list[dict[str, Any]]:
    """The events of the ``game_number``-th game's deal-in ``client`` received (0: the last)."""
    games: list[list[dict[str, Any]]] = []
    for message in client.received:
        if message["type"] == "event":
            if message["event"]["kind"] == "game_started":
                games.append([])
            if games:
                games[-1].append(message["event"])
    return games[game_number - 1]  # (0: the last one)


async def test_a_match_to_3_won_by_a_skunk_the_loser_dealing_first_across_a_restart(tmp_path: Path) -> None:
    db = str(tmp_path / "noddy.sqlite3")
    options = {"target": 61, "counting": "manual", "match": 3}
    rules = configure("cribbage", 2, options={"target": 61, "counting": "manual"})
    async with running_server(db=db) as server:
        ann, ben = await Client.connect(server.port), await Client.connect(server.port)
        await ann.hello("ann")
        await ben.hello("ben")
        created = await ann.request({"type": "create_table", "preset": "cribbage", "options": options})
        assert created["table"]["match"] is None  # no game of it dealt yet
        await ben.request({"type": "sit", "table": 1})
        await _ready_both(ann, ben)
        # Game 1: ben counts exactly until he has 31 (no skunk), then claims 0.
        over = await _game(ann, ben, rules, lambda score: score < 31, seed=1)
        assert (over["winner"], over["skunk"]) == (0, "none") and 31 <= over["scores"][1] < 61
        table = await ann.recv_until(lambda m: m["type"] == "table" and m["table"]["status"] == "finished")
        assert table["table"]["match"] == {"to": 3, "points": [1, 0], "game": 1, "id": 1, "winner": None, "names": ["ann", "ben"]}
        assert [e["kind"] for e in _openings(ann, 1)][:2] == ["game_started", "cut_for_deal"]
        # Game 2 begins: ben lost, so ben deals first, without a cut.
        await _ready_both(ann, ben)
        opening = _openings(ann, 2)
        assert [e["kind"] for e in opening][:2] == ["game_started", "deal_started"]
        assert opening[1]["dealer"] == 1
        snapshot = await ann.request({"type": "snapshot"})
        assert snapshot["table"]["match"] == {"to": 3, "points": [1, 0], "game": 2, "id": 1, "winner": None, "names": ["ann", "ben"]}
        assert snapshot["game"]["dealer"] == 1
        ann_token, ben_token = ann.token, ben.token
        await ann.close()
        await ben.close()
    # The server goes down mid-match (game 2 just dealt) and a new one starts on the same file.
    async with running_server(db=db) as server:
        ann, ben = await Client.connect(server.port), await Client.connect(server.port)
        assert (await ann.hello("ann", resume=ann_token))["table"] == 1
        assert (await ben.hello("ben", resume=ben_token))["table"] == 1
        snapshot = await ann.request({"type": "snapshot"})
        assert snapshot["table"]["match"] == {"to": 3, "points": [1, 0], "game": 2, "id": 1, "winner": None, "names": ["ann", "ben"]}
        assert snapshot["game"]["dealer"] == 1
        # Watching by text: look shows the running match.
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        text_lines: list[str] = []

        async def text(command: str | None, until: Callable[[str], bool]) -> list[str]:
            if command is not None:
                writer.write(command.encode() + b"\n")
            got: list[str] = []
            while True:
                line = (await asyncio.wait_for(reader.readline(), 10)).decode().rstrip("\n")
                got.append(line)
                text_lines.append(line)
                if until(line):
                    return got
        await reader.readline()  # the greeting
        await text("width 1000", lambda line: line.startswith("Lines are wrapped"))  # one line a message
        await text("name cy", lambda line: line.startswith("Type tables"))
        await text("watch 1", lambda line: "Scores:" in line)  # the table, then where the game is
        looked = await text("look", lambda line: "Scores:" in line)
        assert looked[-3].startswith("Table 1 cribbage 2p (target=61 counting=manual match=3")
        assert looked[-2] == "Match to 3, game 2: ann 1, ben 0."
        # Game 2: ben claims 0 throughout: a skunk (below 31), 2 match points, ann has 3.
        over = await _game(ann, ben, rules, lambda score: False, seed=2)
        assert (over["winner"], over["skunk"]) == (0, "skunk") and over["scores"][1] < 31
        table = await ann.recv_until(lambda m: m["type"] == "table" and m["table"]["status"] == "finished")
        assert table["table"]["match"] == {"to": 3, "points": [3, 0], "game": 2, "id": 1, "winner": 0, "names": ["ann", "ben"]}
        # The watcher by text was told the skunk and the match's end.
        skunk_line = f"ann wins the game, {over['scores'][0]} to {over['scores'][1]}, a skunk!"
        await text(None, lambda line: line == skunk_line)
        said = await text("look", lambda line: line.startswith("Match to 3"))
        assert said[-1] == "Match to 3, game 2: ann 3, ben 0, ann wins the match."
        # The records: each game says which match and which game of it; the last, the result.
        listed = (await ann.request({"type": "list_games"}))["games"]
        assert [(g["id"], g["result"]["skunk"], g["match"]) for g in listed] == [
            (2, "skunk", {"id": 1, "game": 2, "to": 3, "first_dealer": 1, "points": [3, 0], "winner": 0}),
            (1, "none", {"id": 1, "game": 1, "to": 3, "first_dealer": listed[1]["match"]["first_dealer"],
                         "points": [1, 0], "winner": None})]
        record = (await ben.request({"type": "get_game", "game": 2}))["record"]
        assert record["match"] == listed[0]["match"] and outcome(record["result"]) == {
            "winner": 0, "winning_seats": [0], "scores": over["scores"], "ending": "target", "skunk": "skunk"}
        # The client: My games, and the replay's narration.
        assert game_line(listed[0], "ben").endswith(
            f"lost  ann {over['scores'][0]}, ben {over['scores'][1]}, skunk · match 3-0 lost")
        assert game_line(listed[1], "ann").endswith(" · match 1-0")
        assert [line.text for line in Replay(record, me="ben").log if "wins the game" in line.text] == [
            f"ann wins the game, {over['scores'][0]} to {over['scores'][1]}, a skunk!"]
        games = [line for line in await text("games ann", lambda line: line.startswith("Game 1:"))
                 if line.startswith("Game ")]
        assert games[0].endswith(f"ann {over['scores'][0]}, ben {over['scores'][1]}; ann wins, a skunk; "
                                 f"match #1 (first to 3) after game 2: ann 3, ben 0, ann wins the match.")
        assert games[1].endswith("; ann wins; match #1 (first to 3) after game 1: ann 1, ben 0.")
        # Statistics replay each stored game (the second dealt by ben, no cut): both counted.
        stats = (await ann.request({"type": "stats", "preset": "cribbage"}))["presets"][0]
        assert (stats["games"], stats["wins"], stats["skunks_given"]) == (2, 2, 1)
        # The next ready starts a new match, cut for again.
        await _ready_both(ann, ben)
        snapshot = await ann.request({"type": "snapshot"})
        assert snapshot["table"]["match"] == {"to": 3, "points": [0, 0], "game": 1, "id": 3, "winner": None, "names": ["ann", "ben"]}
        assert [e["kind"] for e in _openings(ann, 0)][1] == "cut_for_deal"
        writer.close()
        await ann.close()
        await ben.close()


def test_a_record_narrates_its_skunk() -> None:
    """The replay and the client tell a stored game with the shared narration: its game_over
    says the skunk (as the live table did)."""
    names = ["ann", "ben"]
    told = narrate({"kind": "game_over", "winner": 0, "winning_seats": [0], "scores": [121, 58],
                    "ending": "target", "skunk": "double"}, names, None)
    assert told == "ann wins the game, 121 to 58, a double skunk!"
    assert render({"type": "event", "event": {"kind": "game_over", "winner": 1, "winning_seats": [1],
                                              "scores": [80, 121], "ending": "target", "skunk": "skunk"}},
                  names).splitlines()[0] == "ben wins the game, 121 to 80, a skunk!"


async def test_skunk_and_double_skunk_at_121_shown_in_every_place() -> None:
    """A double skunk (ben claims 0 throughout: below 61) and a skunk (ben counts until he has
    61, then claims 0: below 91) in a game to 121, each told alike by the game-over message,
    the narration (text mode, the client's log, the replay), the stored record, list_games,
    text mode's games and the client's My games."""

    rules = configure("cribbage", 2, options={"counting": "manual"})
    async with running_server() as server:
        ann, ben = await Client.connect(server.port), await Client.connect(server.port)
        await ann.hello("ann")
        await ben.hello("ben")
        await ann.request({"type": "create_table", "preset": "cribbage", "options": {"counting": "manual"}})
        await ben.request({"type": "sit", "table": 1})
        await _ready_both(ann, ben)
        double = await _game(ann, ben, rules, lambda score: False, seed=5)
        assert (double["winner"], double["skunk"]) == (0, "double") and double["scores"][1] < 61
        await _ready_both(ann, ben)
        skunk = await _game(ann, ben, rules, lambda score: score < 61, seed=6)
        assert (skunk["winner"], skunk["skunk"]) == (0, "skunk") and 61 <= skunk["scores"][1] < 91
        said = {game_id: f"ann wins the game, {over['scores'][0]} to {over['scores'][1]}, {words}!"
                for game_id, over, words in ((1, double, "a double skunk"), (2, skunk, "a skunk"))}
        # The client's log (the live narration), folding what ann was sent.
        model = ViewModel("ann")
        model.connection_up()
        told: list[str] = []
        for message in ann.received:
            model.handle(message)
            if message["type"] == "event" and message["event"]["kind"] == "game_over":
                told += [line.text for line in model.game.log if "wins the game" in line.text][-1:]
        assert told == [said[1], said[2]]
        listed = (await ben.request({"type": "list_games"}))["games"]
        assert [(g["id"], g["result"]["skunk"], g["match"]) for g in listed] == [(2, "skunk", None),
                                                                                 (1, "double", None)]
        for game in listed:
            over = double if game["id"] == 1 else skunk
            words = "double skunk" if game["id"] == 1 else "skunk"
            assert game_line(game, "ben").endswith(
                f"lost  ann {over['scores'][0]}, ben {over['scores'][1]}, {words}")
            record = (await ben.request({"type": "get_game", "game": game["id"]}))["record"]
            assert record["result"]["skunk"] == game["result"]["skunk"]
            replay = Replay(record, me="ben")
            assert [line.text for line in replay.log if "wins the game" in line.text] == [said[game["id"]]]
        # Text mode: the game over as narrated, and games.
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        await reader.readline()
        writer.write(b"width 1000\nname cy\ngames ann\n")  # (width: one line a message)
        lines: list[str] = []
        while not lines or not lines[-1].startswith("Game 1:"):
            lines.append((await asyncio.wait_for(reader.readline(), 10)).decode().rstrip("\n"))
        assert lines[-2].endswith(f"ann {skunk['scores'][0]}, ben {skunk['scores'][1]}; ann wins, a skunk.")
        assert lines[-1].endswith(f"ann {double['scores'][0]}, ben {double['scores'][1]}; ann wins, a double skunk.")
        assert render({"type": "event", "event": double}, ["ann", "ben"]).splitlines()[0] == said[1]
        writer.close()
        await ann.close()
        await ben.close()


async def test_leaving_between_games_gives_up_the_match_and_a_lost_connection_does_not() -> None:
    async with running_server() as server:
        ann, ben = await Client.connect(server.port), await Client.connect(server.port)
        await ann.hello("ann")
        await ben.hello("ben")
        await ann.request({"type": "create_table", "preset": "noddy", "options": {"target": 15, "match": 3}})
        await ben.request({"type": "sit", "table": 1})
        await _ready_both(ann, ben)
        rules = configure("noddy", 2, options={"target": 15})
        over = await _game(ann, ben, rules, lambda _: True, seed=3)
        points = [0, 0]
        points[over["winner"]] = 1  # no skunks in Noddy: a win is 1
        # ann's connection drops between games: her seat is held, the match goes on.
        token = ann.token
        await ann.close()
        away = await ben.recv_until(lambda m: m["type"] == "player_away")
        assert away["name"] == "ann"
        ann = await Client.connect(server.port)
        assert (await ann.hello("ann", resume=token))["table"] == 1
        snapshot = await ben.request({"type": "snapshot"})
        assert snapshot["table"]["match"] == {"to": 3, "points": points, "game": 1, "id": 1, "winner": None, "names": ["ann", "ben"]}
        # ben leaves: he gives the match up, and ann wins it as it stands.
        await ben.request({"type": "leave"})
        listed = (await ben.request({"type": "list_games"}))["games"]
        assert listed[0]["match"] == {"id": 1, "game": 1, "to": 3, "first_dealer": listed[0]["match"]["first_dealer"],
                                      "points": points, "winner": 0, "resigned": 1}


async def test_leaving_mid_game_resigns_the_game_for_1_and_gives_up_the_match() -> None:
    async with running_server() as server:
        ann, ben = await Client.connect(server.port), await Client.connect(server.port)
        await ann.hello("ann")
        await ben.hello("ben")
        await ann.request({"type": "create_table", "preset": "cribbage", "options": {"match": 5}})
        await ben.request({"type": "sit", "table": 1})
        await _ready_both(ann, ben)
        await ben.request({"type": "leave"})
        over = (await ann.recv_until(lambda m: m["type"] == "event" and m["event"]["kind"] == "game_over"))["event"]
        assert (over["winner"], over["ending"], over["skunk"]) == (0, "resignation", "none")
        table = await ann.recv_until(lambda m: m["type"] == "table" and m["table"]["match"]["winner"] is not None)
        assert table["table"]["match"] == {"to": 5, "points": [1, 0], "game": 1, "id": 1, "winner": 0, "names": ["ann", "ben"],
                                           "resigned": 1}
        listed = (await ann.request({"type": "list_games"}))["games"]
        assert listed[0]["match"] == {"id": 1, "game": 1, "to": 5, "first_dealer": listed[0]["match"]["first_dealer"],
                                      "points": [1, 0], "winner": 0, "resigned": 1}


async def test_a_match_line_names_who_played_it_after_a_player_left() -> None:
    """Seen in tmux (issue 26's acceptance): ann left a won match and ben's nc read
    ``Match to 2, game 3: ben 2, seat 2 1, ben wins the match.`` -- the empty seat stood in
    for her name.  The match names who played it, whoever sits now, and who gave it up."""
    async with running_server() as server:
        ann, ben = await Client.connect(server.port), await Client.connect(server.port)
        await ann.hello("ann")
        await ben.hello("ben")
        await ann.request({"type": "create_table", "preset": "noddy", "options": {"target": 15, "match": 2}})
        await ben.request({"type": "sit", "table": 1})
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)

        async def text(command: str | None, until: Callable[[str], bool]) -> str:
            if command is not None:
                writer.write(command.encode() + b"\n")
            while True:
                line = (await asyncio.wait_for(reader.readline(), 10)).decode().rstrip("\n")
                if until(line):
                    return line
        await reader.readline()  # the greeting
        await text("width 1000", lambda line: line.startswith("Lines are wrapped"))  # one line a message
        await text("name cy", lambda line: line.startswith("Type tables"))
        await text("watch 1", lambda line: line.startswith("Table 1 noddy"))
        await _ready_both(ann, ben)
        over = await _game(ann, ben, configure("noddy", 2, options={"target": 15}), lambda _: True, seed=5)
        points = [0, 0]
        points[over["winner"]] = 1
        await text(None, lambda line: line == f"Match to 2, game 1: ann {points[0]}, ben {points[1]}.")
        await ann.request({"type": "leave"})  # between games: ann gives the match up
        said = await text(None, lambda line: line.startswith("Match to 2"))
        # ... and why ben wins it whatever the score (ann 1, ben 0 read as a wrong result).
        assert said == f"Match to 2, game 1: ann {points[0]}, ben {points[1]}, ben wins the match (ann gave it up)."
        assert (await ben.request({"type": "snapshot"}))["table"]["match"]["resigned"] == 0
        writer.close()
        await ann.close()
        await ben.close()


async def match_after_first_game(port: int, to: int) -> tuple[Client, Client, list[int]]:
    """ann (seat 0) and ben (seat 1) at table 1, a Noddy match to ``to`` (target 15), its first
    game played out: the two and the match points after it (1 for the game's winner)."""
    ann, ben = await Client.connect(port), await Client.connect(port)
    await ann.hello("ann")
    await ben.hello("ben")
    await ann.request({"type": "create_table", "preset": "noddy", "options": {"target": 15, "match": to}})
    await ben.request({"type": "sit", "table": 1})
    await _ready_both(ann, ben)
    over = await _game(ann, ben, configure("noddy", 2, options={"target": 15}), lambda _: True, seed=3)
    points = [0, 0]
    points[over["winner"]] = 1
    return ann, ben, points
