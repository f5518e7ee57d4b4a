"""Club nights in text mode (issue 35): the commands a person types on nc, over real sockets
-- announced by a registered name, entered by two nc people and a JSON bot, started by the
director, each nc person told their table and playing their game there by text, and ``event
N`` showing the standings exactly as the game's record says -- and the errors' exact lines,
the one-line ``announce`` read forgivingly, the standings table within 80 columns."""

from __future__ import annotations

import asyncio
import re

import pytest

from noddy.protocol import ProtocolError
from noddy.server.text import parse_command, render
from noddy.server.text.club_text import NEXT_AT_A_BOARD
from noddy.server.text.help import HELP, help_for

from .club_helpers import entered, open_tables, play
from .club_play import acc_points, core, person, records_of
from .harness import running_server, text_connection, text_line, text_until
from .test_text_mode import GAME_OVER

#: What the test types to announce: a Swiss of one round of Noddy to 15, one game
#: a pairing (so each board's own deal: ``single``), private.
ANNOUNCE = "announce swiss 1 noddy target=15 games 1 single password club title Tuesday club"


def test_club_commands_map_onto_requests() -> None:
    assert parse_command("events") == {"type": "events"}
    assert parse_command("event 3") == {"type": "event", "event": 3}
    assert parse_command("event #3") == {"type": "event", "event": 3}
    assert parse_command("enter 2") == {"type": "join_event", "event": 2}
    assert parse_command("enter 2 club") == {"type": "join_event", "event": 2, "password": "club"}
    assert parse_command("withdraw 2") == {"type": "withdraw_event", "event": 2}
    assert parse_command(ANNOUNCE) == {
        "type": "announce_event", "format": "swiss", "rounds": 1, "preset": "noddy", "options": {"target": 15},
        "games": 1, "duplicate": False, "password": "club", "title": "Tuesday club"}
    # Forgiving: the words in any order, the preset and the title may be left out.
    assert parse_command("announce rated cribbage swiss 3 start 10 wait 120 pause 30") == {
        "type": "announce_event", "rated": True, "preset": "cribbage", "format": "swiss", "rounds": 3,
        "starts_in": 600.0, "forfeit_wait": 120.0, "round_pause": 30.0, "title": "Swiss of 3 rounds, cribbage"}
    assert parse_command("announce robin noddy-holme") == {
        "type": "announce_event", "format": "round-robin", "preset": "noddy-holme",
        "title": "Round robin, noddy-holme"}
    assert parse_command("direct 1 start") == {"type": "direct_event", "event": 1, "command": "start"}
    assert parse_command("direct 1 pause") == {"type": "direct_event", "event": 1, "command": "pause"}
    assert parse_command("direct 1 pause 45") == {"type": "direct_event", "event": 1, "command": "round_pause",
                                                  "seconds": 45.0}
    assert parse_command("direct 1 remove Old Tom") == {"type": "direct_event", "event": 1, "command": "remove",
                                                        "name": "Old Tom"}


@pytest.mark.parametrize("line, code, message", [
    ("announce swiss cribbage", "missing_field", "a swiss needs its number of rounds: announce swiss 3 ..."),
    ("announce cribbage games 2", "missing_field",
     "say the format first: announce swiss ROUNDS ... or announce robin ...; type help announce"),
    ("announce swiss 3 cribbage ratd", "bad_field",
     "announce does not know 'ratd': after the format it takes a preset (noddy, noddy-ducoeur, noddy-holme, "
     "noddy-modern, five-card-cribbage, cribbage), games N, single, start MINUTES, rated, password PW, wait "
     "SECONDS, pause SECONDS, opt=value, and last title WORDS"),
    ("announce dance", "bad_field",
     "announce does not know 'dance': it begins with the format, swiss ROUNDS or robin; type help announce"),
    ("announce swiss 3 games two", "bad_field", "games must be a number, not 'two'"),
    ("announce swiss 3 password", "missing_field",
     "password needs a value after it: write password PW; type help announce"),
    ("event one", "bad_field", "event must be a number, not 'one'"),
    ("event", "bad_command", "write event N; type help for all commands"),
    ("direct 1 dance", "bad_command", "write direct N start|pause|resume|end, direct N remove NAME, or "
     "direct N pause SECONDS; type help for all commands"),
    ("direct 1 pause soon", "bad_field", "seconds must be a number of seconds, not 'soon'"),
])
def test_a_club_command_written_wrong_says_what_was_wrong(line: str, code: str, message: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_command(line)
    assert (caught.value.code, caught.value.message) == (code, message)


def test_the_help_has_a_club_nights_line_and_pages() -> None:
    assert "  events | event N | enter N  club nights: the list | one | enter (help events)" in HELP.splitlines()
    assert help_for("enter").splitlines()[:2] == [
        "events | event N | enter N [PASSWORD] | withdraw N",
        "    club nights (tournaments the server runs): the list | one: its entrants,"]
    assert help_for("announce").splitlines()[0] == (
        "announce swiss ROUNDS [PRESET] ... | announce robin [PRESET] ...")
    assert help_for("direct").splitlines()[0] == (
        "direct N start|pause|resume|end | direct N remove NAME | direct N pause S")


def _club_event(names: list[str], bots: list[str], withdrawn: tuple[str, ...] = ()) -> dict:
    """An ``event`` reply as the core gives it, from the model's own standings after a round
    (``names`` in entry order; the first two play board 1, ...)."""
    event = entered(names, bots, games_per_pairing=2, duplicate=True)
    effects = event.start(10.0, "dir")
    tables = open_tables(event, 10.0, effects, 5)
    for board in tables:
        pairing = event.rounds[0].pairings[board - 1]
        play(event, 11.0, 1, board, [(pairing.a, 121, 80, "skunk"), (pairing.b, 121, 110, "none")])
    for name in withdrawn:
        event.withdraw(12.0, name)
    return {"type": "club_event", "id": 1, "event": {
        "id": 1, "title": "Tuesday club", "director": "dir", "format": "swiss", "preset": "cribbage", "options": {},
        "state": event.state, "round": 1, "rounds": 3,
        "entrants": [{"name": e.name, "kind": e.kind, "status": e.status, "joined_round": 1}
                     for e in event.entrants.values()],
        "private": False, "duplicate": True, "rated": False, "games": 2, "starts_in": None,
        "forfeit_wait": 300.0, "round_pause": 60.0, "next_round_in": 60.0, "reason": None,
        "rounds_played": [], "standings": event.standings()}}


def test_the_standings_fit_80_columns_and_never_wrap() -> None:
    """Names as long as a name may be (32 characters) beside a withdrawn bot are cut with
    ``~`` in a column that leaves each row within 80 columns: a row is never wrapped."""
    names = ["Bartholomew Featherstonehaugh-Sm", "ann", "Maximiliana Wolkenstein-Graubun", "dot"]
    lines = render(_club_event(names, ["dot"], ("dot",)), (), 80).splitlines()
    table = lines[lines.index(next(line for line in lines if line.startswith("Standings"))) + 1:]
    assert max(len(line) for line in lines) <= 80
    assert table == [
        " # name                   games wins skunk points spread rating",
        " 1 Bartholomew Featherst~     2    1     1      3    +30 1500±403",
        " 2 Maximiliana Wolkenste~     2    1     1      3    +30 1500±403",
        " 3 ann                        2    1     0      2    -30 1500±403",
        " 4 dot                        2    1     0      2    -30 1500±403 bot, withdrawn"]
    # Read at 1000 columns, the names are whole, and the games won-lost against each
    # entrant (in rank order) fit beside them: the cross-table proper.
    wide = render(_club_event(names, ["dot"], ("dot",)), (), 1000).splitlines()
    assert wide[-5:] == [
        " # name                               1   2   3   4 games wins skunk points spread rating",
        " 1 Bartholomew Featherstonehaugh-Sm   x   . 1-1   .     2    1     1      3    +30 1500±403",
        " 2 Maximiliana Wolkenstein-Graubun    .   x   . 1-1     2    1     1      3    +30 1500±403",
        " 3 ann                              1-1   .   x   .     2    1     0      2    -30 1500±403",
        " 4 dot                                . 1-1   .   x     2    1     0      2    -30 1500±403 bot, withdrawn"]


async def _text_person(port: int, first: str, name: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A text connection at width 1000 (one line a message) that said ``first`` (``name NAME``
    or ``login NAME PW``), read up to its welcome's help line."""
    reader, writer = await text_connection(port)
    writer.write(f"width 1000\n{first}\n".encode())
    assert await text_line(reader) == "Lines are wrapped at 1000 columns now.\n"
    await text_until(reader, f"Welcome, {name}!")
    await text_until(reader, "Type tables to see the tables")
    if first.startswith("name "):
        assert await text_line(reader) == "You are a guest (unrated): register PASSWORD keeps your name.\n"
    return reader, writer


async def _play_by_text(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> list[str]:
    """Answer every turn with its first play (or go) until the club night is over; the lines read."""
    seen: list[str] = []
    while not (line := await text_line(reader)).startswith("Club night 1: Tuesday club is over"):
        seen.append(line)
        match = re.match(r"Your turn \(count \d+\): (play \w\w|go)", line)
        if match:
            writer.write(match.group(1).encode() + b"\n")
    return seen + [line]


async def test_a_club_night_entered_and_played_in_text_mode() -> None:
    now = [1000.0]
    async with running_server(core=core(now)) as server:
        account = await person(server.port, "ann", "127.0.0.2")
        assert (await account.request({"type": "register", "password": "sesame"}))["type"] == "registered"
        await account.close()
        ann_r, ann_w = await _text_person(server.port, "login ann sesame", "ann")
        ann_w.write(f"{ANNOUNCE}\n".encode())
        assert await text_line(ann_r) == "Event 1: Tuesday club, directed by ann.\n"
        assert await text_line(ann_r) == ("A swiss of 1 round, noddy target=15, 1 game a pairing, each board its "
                                          "own deals, private; 300 s to come to one's table, 60 s between rounds.\n")
        assert await text_line(ann_r) == ("Announced: it starts when the director says (direct 1 start); "
                                          "enter 1 to play.\n")
        assert await text_line(ann_r) == "Entrants (0): none yet\n"
        assert await text_line(ann_r) == ("Club night 1: Tuesday club: a swiss directed by ann, starting when the "
                                          "director starts it. Entrants type enter 1; direct 1 start starts it.\n")
        ben_r, ben_w = await _text_person(server.port, "name ben", "ben")
        cal_r, cal_w = await _text_person(server.port, "name cal", "cal")
        ben_w.write(b"enter 9\nenter 1\nenter 1 bad\nenter 1 club\n")
        assert await text_until(ben_r, "Error") == "Error (no_such_event): there is no club night 9\n"
        assert await text_line(ben_r) == "Error (bad_password): Tuesday club is private: its password is missing\n"
        assert await text_line(ben_r) == "Error (bad_password): Tuesday club is private: its password is wrong\n"
        assert await text_line(ben_r) == "Club night 1: ben entered Tuesday club.\n"
        cal_w.write(b"enter 1 club\n")
        assert await text_line(cal_r) == "Club night 1: cal entered Tuesday club.\n"
        dot = await person(server.port, "dot", "127.0.0.5", bot=True)
        assert (await dot.request({"type": "join_event", "event": 1, "password": "club"}))["type"] == "ok"
        ben_w.write(b"direct 1 start\n")
        assert await text_until(ben_r, "Error") == "Error (not_director): only the director, ann, may do that\n"
        ann_w.write(b"events\n")
        assert await text_until(ann_r, "Club nights") == "Club nights (event N shows one, enter N enters it):\n"
        assert await text_line(ann_r) == ("  1. Tuesday club: swiss of 1 round, noddy, 1 game a pairing, private; "
                                          "announced, starts when the director says; 3 entrants; director ann\n")
        ann_w.write(b"direct 1 start\n")
        for reader, seat, opponent in ((ben_r, 1, "cal"), (cal_r, 2, "ben")):
            told = await text_until(reader, "Club night 1, round 1:")
            assert told == (f"Club night 1, round 1: your table is 1, seat {seat}, against {opponent} (1 game). "
                            "You are seated there now (from another table: once you leave it); each game "
                            "begins by itself.\n")
        ben_seen, cal_seen = await asyncio.gather(_play_by_text(ben_r, ben_w), _play_by_text(cal_r, cal_w))
        for seen in (ben_seen, cal_seen):
            assert any(line.startswith("You hold ") for line in seen)
            assert not any(line.startswith("Error") for line in seen), seen
            assert "Club night 1: dot sits out round 1 (a bye).\n" in seen
            # the game over at a club night's board: no "each player types ready" after it
            over = next(i for i, line in enumerate(seen) if GAME_OVER.match(line))
            assert seen[over + 1] == NEXT_AT_A_BOARD + "\n"
            assert not any(line.startswith("To play again") for line in seen)
        records = await records_of(dot, ["ben", "cal"])
        ((game_id, record),) = records.items()
        points = acc_points([record])
        winner = max(points, key=lambda name: points[name][0])
        loser = ({"ben", "cal"} - {winner}).pop()
        scores = sorted(record["result"]["scores"], reverse=True)
        assert record["event"]["id"] == 1
        await text_until(ann_r, "Club night 1: Tuesday club is over")
        ann_w.write(b"event 1\n")
        lines = [await text_until(ann_r, "Event 1: Tuesday club")] + [await text_line(ann_r) for _ in range(11)]
        assert lines[2:] == [
            "Finished after round 1/1: every round is played.\n",
            "Entrants (3): ben, cal, dot (bot)\n",
            "Round 1 (over):\n",
            # the board is over, its table closed: its game is replayed (game G), not watched
            f"  board 1, table 1: ben v cal, done; won: {winner} {scores[0]}-{scores[1]}"
            + ("" if record["result"].get("skunk", "none") == "none" else f", {record['result']['skunk']}")
            + f" (game {game_id})\n",
            "  bye: dot\n",
            "Standings, after round 1 (points: 2 a win, 3 a skunk win; ties: spread):\n",
            " # name   1   2   3 games wins skunk points spread rating\n",
            f" 1 {winner}    x   . 1-0     1    1     0      {points[winner][0]} {points[winner][1]:>+6} 1631±440\n",
            " 2 dot    .   x   .     0    0     0      2     +0 1500±570 bot\n",
            f" 3 {loser}  0-1   .   x     1    0     0      0 {points[loser][1]:>+6} 1369±440\n"]
        # At 80 columns (the width a terminal has unless its person says otherwise) the
        # cross-table is the same: no row is wrapped.
        ann_w.write(b"width 80\nevent 1\n")
        await text_until(ann_r, "Standings, after round 1")
        assert [await text_line(ann_r) for _ in range(4)] == lines[-4:]
        for writer in (ann_w, ben_w, cal_w):
            writer.close()
        await dot.close()


async def test_withdraw_and_the_directors_controls_by_text() -> None:
    now = [1000.0]
    async with running_server(core=core(now)) as server:
        account = await person(server.port, "ann", "127.0.0.2")
        assert (await account.request({"type": "register", "password": "sesame"}))["type"] == "registered"
        await account.close()
        ann_r, ann_w = await _text_person(server.port, "login ann sesame", "ann")
        ann_w.write(b"announce robin noddy\n")
        assert await text_line(ann_r) == "Event 1: Round robin, noddy, directed by ann.\n"
        ben_r, ben_w = await _text_person(server.port, "name ben", "ben")
        ben_w.write(b"withdraw 1\nenter 1\nwithdraw 1\n")
        assert await text_line(ben_r) == "Error (not_entered): ben has not entered Round robin, noddy\n"
        assert await text_line(ben_r) == "Club night 1: ben entered Round robin, noddy.\n"
        assert await text_line(ben_r) == "Club night 1: ben withdrew (Round robin, noddy).\n"
        ann_w.write(b"direct 1 start\n")
        assert await text_until(ann_r, "Error") == "Error (too_few_entrants): an event starts with 2 entrants or more\n"
        ann_w.write(b"direct 1 pause 45\n")
        assert await text_until(ann_r, "Club night 1: the pause") == (
            "Club night 1: the pause between rounds is now 45 seconds.\n")
        ann_w.write(b"direct 1 end\n")
        assert await text_until(ann_r, "Club night 1: Round robin") == (
            "Club night 1: Round robin, noddy is over: the director ended it early. Type event 1 for the "
            "standings.\n")
        for writer in (ann_w, ben_w):
            writer.close()


@pytest.mark.parametrize("seconds, words", [(54.4, "55 seconds"), (1.0, "1 second"), (0.2, "1 second"),
                                            (60.0, "60 seconds"), (150.0, "3 minutes")])
def test_a_wait_is_said_in_whole_seconds(seconds: float, words: str) -> None:
    """Seen in a tmux club night over nc: 'the next round begins in 54.4 seconds'."""
    from noddy.server.text.club_text import _duration
    assert _duration(seconds) == words
