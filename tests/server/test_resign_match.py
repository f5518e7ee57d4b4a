"""``resign_match``: a seated person gives up the match going on, between its games, without
leaving the table (issue 32), over real sockets, from JSON and from text mode (``giveup``).

The match's games are played out by the same helpers as tests/server/test_matches.py (a
fixed server seed, seeded random moves), so each run is the same.
"""

from __future__ import annotations

from typing import Any

from noddy.engine import configure

from .harness import Client, running_server, text_connection, text_until
from .test_matches import _game, _ready_both


async def _a_match_game_played(port: int, to: int = 3) -> tuple[Client, Client, list[int]]:
    """ann (seat 0) and ben (seat 1) at table 1, a Noddy match to ``to`` (target 15), its
    first game played out; the match points after it."""
    ann, ben = await Client.connect(port), await Client.connect(port)
    await ann.hello("ann")
    await ben.hello("ben")
    await ann.request({"type": "create_table", "preset": "noddy", "options": {"target": 15, "match": to}})
    await ben.request({"type": "sit", "table": 1})
    await _ready_both(ann, ben)
    over = await _game(ann, ben, configure("noddy", 2, options={"target": 15}), lambda _: True, seed=3)
    points = [0, 0]
    points[over["winner"]] = 1  # no skunks in Noddy: a win is 1
    return ann, ben, points


def _match(table: dict[str, Any]) -> dict[str, Any]:
    return table["match"]


async def test_giving_up_a_match_between_games_keeps_the_seat_and_the_other_side_wins() -> None:
    async with running_server() as server:
        ann, ben, points = await _a_match_game_played(server.port)
        reply = await ben.request({"type": "resign_match"})
        assert reply["type"] == "table"
        assert _match(reply["table"]) == {"to": 3, "points": points, "game": 1, "id": 1, "winner": 0,
                                          "names": ["ann", "ben"], "resigned": 1}
        assert [seat["name"] for seat in reply["table"]["seats"]] == ["ann", "ben"]  # ben stays seated
        pushed = await ann.recv_until(lambda m: m["type"] == "table" and _match(m["table"])["winner"] is not None)
        assert _match(pushed["table"])["resigned"] == 1
        listed = (await ann.request({"type": "list_games"}))["games"]
        assert listed[0]["match"] == {"id": 1, "game": 1, "to": 3, "first_dealer": listed[0]["match"]["first_dealer"],
                                      "points": points, "winner": 0, "resigned": 1}
        again = await ben.request({"type": "resign_match"})
        assert (again["code"], again["message"]) == ("no_match", "no match is going on at table 1")
        # the next ready of both starts a new match, the same two seated
        await _ready_both(ann, ben)
        snapshot = await ann.request({"type": "snapshot"})
        match = _match(snapshot["table"])
        assert (match["points"], match["game"], match["winner"], "resigned" in match) == ([0, 0], 1, None, False)
        await ann.close()
        await ben.close()


async def test_resign_match_is_refused_mid_game_without_a_match_and_when_not_seated() -> None:
    async with running_server() as server:
        ann, ben = await Client.connect(server.port), await Client.connect(server.port)
        await ann.hello("ann")
        await ben.hello("ben")
        lobby = await ann.request({"type": "resign_match"})
        assert (lobby["code"], lobby["message"]) == ("not_at_table", "you are not at a table")
        await ann.request({"type": "create_table", "preset": "noddy", "options": {"target": 15}})
        single = await ann.request({"type": "resign_match"})
        assert (single["code"], single["message"]) == ("no_match", "no match is going on at table 1")
        await ann.request({"type": "configure_table", "options": {"target": 15, "match": 2}})
        await ben.request({"type": "spectate", "table": 1})
        watching = await ben.request({"type": "resign_match"})
        assert (watching["code"], watching["message"]) == ("not_seated", "you are watching table 1, not seated at it")
        await ben.request({"type": "sit", "table": 1})
        await _ready_both(ann, ben)
        playing = await ann.request({"type": "resign_match"})
        assert (playing["code"], playing["message"]) == (
            "game_in_progress", "a game is being played at table 1: finish it first (leave gives up the "
            "game and the match)")
        assert _match((await ann.request({"type": "snapshot"}))["table"])["winner"] is None
        await ann.close()
        await ben.close()


async def test_giveup_in_text_mode_gives_up_the_match() -> None:
    """ben plays the game over JSON, then comes back by nc with his resume token and types
    ``giveup``: the match line says who gave it up."""
    async with running_server() as server:
        ann, ben, points = await _a_match_game_played(server.port, to=2)
        token = ben.token
        await ben.close()
        await ann.recv_until(lambda m: m["type"] == "player_away")
        reader, writer = await text_connection(server.port)
        writer.write(f"resume {token}\n".encode())
        await text_until(reader, "Match to 2")
        writer.write(b"giveup\n")
        said = await text_until(reader, "Match to 2")
        assert said.rstrip("\n") == (f"Match to 2, game 1: ann {points[0]}, ben {points[1]}, ann wins the match "
                                     "(ben gave it up).")
        assert _match((await ann.request({"type": "snapshot"}))["table"])["resigned"] == 1
        writer.close()
        await ann.close()
