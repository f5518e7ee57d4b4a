"""Quitting between two games of a match is not resigning it (issue 33, item 2), over real
sockets on the core's injected clock: the seat is held as for a game in progress (the grace
period, then ``keep_away`` more, the table told), the person back with the resume token
plays the match's next game, also across a restart; only ``leave`` or ``resign_match`` gives
a match away.  A seat never taken back is freed and the match left unfinished, not given up.

The match's games are Noddy to 15 played by the helpers of tests/server/test_matches.py (a
fixed server seed, seeded random moves), so each run is the same.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from noddy.server import ServerCore

from .harness import Client, running_server
from .harness import test_config as config_for_tests
from .test_matches import _ready_both, match_after_first_game

GRACE = 5.0
KEEP_AWAY = 100.0


def _core(now: list[float], **changes: Any) -> ServerCore:
    """A core whose clock only the test moves."""
    return ServerCore(config_for_tests(grace_period=GRACE, keep_away=KEEP_AWAY, **changes), clock=lambda: now[0])


def _held_or_given_up(message: dict[str, Any]) -> bool:
    """ann's seat held for keep_away more, or (the old way) the match given up."""
    if message["type"] == "player_away":
        return message["grace"] == KEEP_AWAY
    return message["type"] == "table" and (message["table"]["match"] or {}).get("winner") is not None


async def _back_and_next_game(port: int, token: str | None, ben: Client, points: list[int]) -> Client:
    """ann comes back with her token: at her seat, the match as it was; both ready deals its
    game 2."""
    ann = await Client.connect(port)
    welcome = await ann.hello("ann", resume=token)
    assert (welcome["resumed"], welcome["table"], welcome["seat"]) == (True, 1, 0)
    match = (await ann.request({"type": "snapshot"}))["table"]["match"]
    assert match == {"to": 2, "points": points, "game": 1, "id": 1, "winner": None, "names": ["ann", "ben"]}
    await _ready_both(ann, ben)
    match = (await ben.request({"type": "snapshot"}))["table"]["match"]
    assert (match["game"], match["points"], match["winner"]) == (2, points, None)
    return ann


async def test_quitting_between_games_of_a_match_holds_the_seat_past_the_grace_period() -> None:
    now = [0.0]
    async with running_server(core=_core(now)) as server:
        ann, ben, points = await match_after_first_game(server.port, 2)
        token = ann.token
        await ann.close()  # the client's q between games
        away = await ben.recv_until(lambda m: m["type"] == "player_away")
        assert away == {"type": "player_away", "table": 1, "seat": 0, "name": "ann", "grace": GRACE}
        now[0] += GRACE + 1
        # The grace period is over: the seat is held for keep_away more, the match going on.
        held = await ben.recv_until(_held_or_given_up)
        assert held == {"type": "player_away", "table": 1, "seat": 0, "name": "ann", "grace": KEEP_AWAY}
        listed = (await ben.request({"type": "list_games"}))["games"]
        assert "resigned" not in listed[0]["match"] and listed[0]["match"]["winner"] is None
        ann = await _back_and_next_game(server.port, token, ben, points)
        await ann.close()
        await ben.close()


async def test_a_seat_never_taken_back_between_games_leaves_the_match_unfinished_not_given_up() -> None:
    now = [0.0]
    async with running_server(core=_core(now)) as server:
        ann, ben, points = await match_after_first_game(server.port, 2)
        await ann.close()
        await ben.recv_until(lambda m: m["type"] == "player_away")
        now[0] += GRACE + 1
        await ben.recv_until(lambda m: m["type"] == "player_away" and m["grace"] == KEEP_AWAY)
        now[0] += KEEP_AWAY + 1
        table = await ben.recv_until(lambda m: m["type"] == "table")
        assert table["table"]["seats"][0] is None
        assert table["table"]["match"] == {"to": 2, "points": points, "game": 1, "id": 1, "winner": None,
                                           "names": ["ann", "ben"]}
        listed = (await ben.request({"type": "list_games"}))["games"]
        assert listed[0]["match"]["winner"] is None and "resigned" not in listed[0]["match"]
        await ben.close()


async def test_a_match_held_between_games_across_a_restart(tmp_path: Path) -> None:
    db = str(tmp_path / "noddy.sqlite3")
    now = [0.0]
    async with running_server(core=_core(now, db=db)) as server:
        ann, ben, points = await match_after_first_game(server.port, 2)
        tokens = ann.token, ben.token
        await ann.close()
        await ben.close()
    # The server restarts between games; ben is back at once, ann after the grace period.
    now = [0.0]
    async with running_server(core=_core(now, db=db)) as server:
        ben = await Client.connect(server.port)
        assert (await ben.hello("ben", resume=tokens[1]))["table"] == 1
        now[0] += GRACE + 1
        held = await ben.recv_until(_held_or_given_up)
        assert held == {"type": "player_away", "table": 1, "seat": 0, "name": "ann", "grace": KEEP_AWAY}
        ann = await _back_and_next_game(server.port, tokens[0], ben, points)
        await ann.close()
        await ben.close()


async def test_the_welcome_says_how_long_a_seat_is_held_between_games_of_a_match() -> None:
    """A client's quit question between games says how long the seat and the match are held:
    the grace, then ``keep_away`` more, both in the welcome's limits."""
    async with running_server(grace_period=20, keep_away=120) as server:
        client = await Client.connect(server.port)
        welcome = await client.hello("ann")
        assert (welcome["limits"]["grace_period"], welcome["limits"]["keep_away"]) == (20, 120)
        await client.close()
