"""Netcat as a newcomer meets it (issue 12): seats counted from 1, names beside scores, one
short discard prompt, no stray ``OK.``, errors in a person's words, a name that can be
chosen until one sits down, the same name limit as JSON, and a watcher who can resume."""

from __future__ import annotations

import asyncio
import re

import pytest

from noddy.protocol import ProtocolError
from noddy.protocol.story import sort_cards
from noddy.server import ServerCore
from noddy.server import text as text_mode
from noddy.server.text import parse_command, render

from .harness import Client, running_server, text_connection, text_line
from .harness import test_config as config_for_tests

#: What a text reader at table 1 reads under its line while seat 2 is free.
#: The same with both seats free.
HINT_2 = ("Seats 1 and 2 are free. The game begins when every seat is taken and ready: type\n"
          "  bot for a computer player, or wait for someone to type join 1.\n")
HINT = ("Seat 2 is free. The game begins when every seat is taken and ready: type bot for\n"
        "  a computer player, or wait for someone to type join 1.\n")

DISCARD_2 = [{"action": "discard", "cards": [a, b]}
             for i, a in enumerate(["3C", "4H", "8C", "9S", "QH", "KD"])
             for b in ["3C", "4H", "8C", "9S", "QH", "KD"][i + 1:]]


def test_people_count_seats_from_1_in_commands() -> None:
    assert parse_command("sit 1") == {"type": "sit", "seat": 0}
    assert parse_command("sit 4 2 pw") == {"type": "sit", "table": 4, "seat": 1, "password": "pw"}
    assert parse_command("bot 2 random") == {"type": "add_computer", "seat": 1, "level": "random"}
    assert parse_command("unbot 3") == {"type": "remove_computer", "seat": 2}
    with pytest.raises(ProtocolError) as caught:
        parse_command("sit 0")
    assert (caught.value.code, caught.value.message) == (
        "no_such_seat", "seats are numbered from 1")


def test_people_count_seats_from_1_in_what_they_read() -> None:
    table = {"id": 1, "preset": "noddy", "players": 2, "partnerships": False, "options": {},
             "private": False, "status": "waiting", "spectators": [],
             "seats": [{"name": "Ada", "kind": "human", "ready": False, "connected": True}, None]}
    assert render({"type": "table", "table": table}) == \
        "Table 1 noddy 2p [waiting] 1: Ada | 2: empty\n"
    played = {"type": "event", "event": {"kind": "played", "seat": 1, "card": "5H", "count": 20}}
    assert render(played) == "Seat 2 plays 5H — twenty\n"
    away = {"type": "player_away", "table": 1, "seat": 0, "name": "Ada", "grace": 60.0}
    assert render(away) == "Ada (seat 1) lost the connection; the seat is held for 60 s.\n"


def test_scores_carry_names_and_ok_is_not_printed() -> None:
    names = ("Ada", "random computer")
    scored = {"type": "event", "event": {
        "kind": "scored", "seat": 1, "points": 2, "reason": "play", "announcement": "fifteen two",
        "cards": [], "scores": [8, 32]}}
    assert render(scored, names) == \
        "random computer: fifteen two. Scores: Ada 8, random computer 32\n"
    teams = {"type": "event", "event": {"kind": "deal_ended", "deal": 3, "scores": [40, 52]}}
    assert render(teams, ("ann", "ben", "cy", "dee")) == \
        "After deal 3: ann & cy 40, ben & dee 52.\n"
    assert render({"type": "ok"}) == ""


def test_the_discard_prompt_shows_the_hand_once_numbered() -> None:
    names = ("Ada", "random computer")
    first = {"type": "turn", "awaiting": [0, 1], "count": 0, "legal_actions": DISCARD_2}
    assert render(first, names) == (
        "Your discard: choose 2 cards for the crib from 1:3C 2:4H 3:8C 4:9S 5:QH 6:KD\n"
        "  (type discard 3C 4H, or discard 1 2).\n")
    # The computer has discarded: the person was already asked, and is not asked again.
    assert render({**first, "awaiting": [0]}, names) == ""
    one = {"type": "turn", "awaiting": [0, 1, 2], "count": 0,
           "legal_actions": [{"action": "discard", "cards": [card]} for card in ("5D", "8D", "JH")]}
    assert render(one, ("Ada", "b", "c")) == (
        "Your discard: choose 1 card for the crib from 1:5D 2:8D 3:JH (type discard 5D,\n"
        "  or discard 1).\n")
    # ``look`` shows it again, in full.
    snapshot = {"type": "snapshot", "table": {
        "id": 1, "preset": "cribbage", "players": 2, "partnerships": False, "options": {},
        "private": False, "status": "playing", "spectators": [],
        "seats": [{"name": "Ada", "kind": "human", "ready": True, "connected": True},
                  {"name": "random computer", "kind": "computer", "ready": True, "connected": True}]},
        "game": {"hand": ["4H", "9S", "KD", "3C", "8C", "QH"], "turn_up": None, "count": 0,
                 "pile": [], "scores": [0, 0]},
        "turn": {**first, "awaiting": [0]}}
    assert render(snapshot, names).endswith(render(first, names))


def test_errors_speak_to_the_person() -> None:
    error = {"type": "error", "code": "card_not_in_hand", "message": "seat 0 does not hold TH"}
    assert text_mode.person_error(error, 0) == {**error, "message": "you do not hold TH"}
    turn = {"type": "error", "code": "not_your_turn", "message": "it is seat 1's turn, not seat 0's"}
    assert text_mode.person_error(turn, 0)["message"] == "it is seat 2's turn, not yours"
    seats = {"type": "error", "code": "no_such_seat", "message": "table 1 has seats 0 to 2, not 5"}
    assert text_mode.person_error(seats, None)["message"] == "table 1 has seats 1 to 3, not 6"
    early = {"type": "error", "code": "wrong_phase", "message": "the play has not begun (phase: discard)"}
    assert text_mode.person_error(early, 0)["message"] == \
        "the play has not begun: lay away to the crib first (look shows how)"
    late = {"type": "error", "code": "wrong_phase", "message": "nothing is laid away to the crib now (phase: play)"}
    assert text_mode.person_error(late, 0)["message"] == \
        "nothing is laid away to the crib now: the play is on"


@pytest.mark.parametrize("line, written", [
    ("play", "play CARD, e.g. play 5H"),
    ("play 7S 4D", "play CARD, e.g. play 5H"),
    ("watch", "watch TABLE, or watch TABLE PASSWORD"),
    ("say", "say TEXT"),
    ("claim", "claim N, the points you count in the cards"),
    ("muggins 2 4", "muggins N, the points the cards hold"),
    ("game", "game ID, or game ID PASSWORD"),
    ("resume", "resume TOKEN"),
    ("name", "name NAME"),
    ("unbot", "unbot SEAT"),
    ("sit", "sit SEAT, or sit TABLE SEAT, or sit TABLE SEAT PASSWORD"),
    ("discard", "discard CARD CARD, or the numbers the prompt shows: discard 1 2"),
    ("look extra", "look, with nothing after it"),
    ("LS all", "ls, or ls people"),
    ("Ready now", "ready, with nothing after it"),
])
def test_a_known_command_with_the_wrong_words_says_how_it_is_written(line: str, written: str) -> None:
    """A newcomer who types ``play`` without a card was told "not a command: 'play'" (seen
    over nc in session 9): false, and no help.  A known command says how it is written."""
    with pytest.raises(ProtocolError) as caught:
        parse_command(line)
    assert caught.value.code == "bad_command"
    assert caught.value.message == f"write {written}; type help for all commands"


def test_only_a_word_that_is_no_command_is_unknown() -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_command("dance wildly")
    assert (caught.value.code, caught.value.message) == (
        "unknown_command", "not a command: 'dance wildly'; type help for the list")


def test_the_end_of_a_game_says_what_a_player_can_do_next() -> None:
    """Over nc a game ended on "Eve wins the game, 15 to 11!" and the table's line, and
    nothing said how to play again (seen in session 9): a newcomer was left at a finished
    table.  The winner's line is followed by what the players may type."""
    over = {"type": "event", "table": 3, "seq": 40,
            "event": {"kind": "game_over", "winner": 0, "winning_seats": [0], "scores": [15, 11]}}
    assert render(over, ("Eve", "random computer 2")) == (
        "Eve wins the game, 15 to 11!\n"
        "To play again, each player types ready; leave goes back to the lobby.\n")


def _waiting_table(seats: list) -> dict:
    return {"type": "table", "table": {
        "id": 6, "preset": "noddy", "players": len(seats), "partnerships": False, "options": {},
        "private": False, "rated": True, "turn_timer": None, "status": "waiting", "seats": seats,
        "spectators": [], "creator": "Cy", "games_played": 0}}


def test_a_player_waiting_at_a_table_with_a_free_seat_is_told_how_it_fills() -> None:
    """Over nc, Cy typed ready at a table for two and read "[waiting] 1: Cy (ready) |
    2: empty", and nothing more: a newcomer waits there for ever (seen in session 9).  Who
    sits at the table is told what fills the seat; the lobby's list is not."""
    cy = {"seat": 0, "name": "Cy", "kind": "human", "level": None, "ready": True, "connected": True}
    one_free = _waiting_table([cy, None])
    assert render(one_free, ("Cy", "")) == (
        "Table 6 noddy 2p (rated) [waiting] 1: Cy (ready) | 2: empty\n"
        "Seat 2 is free. The game begins when every seat is taken and ready: type bot for\n"
        "  a computer player, or wait for someone to type join 6.\n")
    two_free = _waiting_table([cy, None, None])
    assert render(two_free, ("Cy", "", "")).splitlines()[1].startswith("Seats 2 and 3 are free. ")
    assert render(one_free, ()) == "Table 6 noddy 2p (rated) [waiting] 1: Cy (ready) | 2: empty\n"  # the lobby
    full = _waiting_table([cy, {**cy, "seat": 1, "name": "Di", "ready": False}])
    assert render(full, ("Cy", "Di")) == "Table 6 noddy 2p (rated) [waiting] 1: Cy (ready) | 2: Di\n"


async def test_a_cribbage_deal_by_netcat() -> None:
    async with running_server(seed=7) as server:
        reader, writer = await text_connection(server.port)
        writer.write(b"name Ada\nnew cribbage\nbot 2 random\n")
        lines = [await text_line(reader) for _ in range(9)]
        assert "".join(lines[3:]) == ("Table 1 cribbage 2p (unrated: Ada is a guest) [waiting] 1: Ada (guest) |\n"
                                      "  2: empty\n" + HINT +
                                      "Table 1 cribbage 2p (unrated: Ada is a guest) [waiting] 1: Ada (guest) |\n"
                                      "  2: random computer 2 (computer)\n")
        writer.write(b"ready\n")
        seen: list[str] = []
        while not seen or not seen[-1].startswith("Your discard"):
            seen.append(await text_line(reader))
        hand = re.search(r"from ((?:\d:\w\w ?)+)", seen[-1]).group(1).split()
        writer.write(b"play AS\ndiscard 1 2\n")
        while not seen[-1].startswith("Turn-up: "):  # both have laid away
            seen.append(await text_line(reader))
        assert any(line.startswith("Error (wrong_phase): ") for line in seen)
        mine = [line for line in seen if line.startswith("You lay away ")]
        assert mine == [f"You lay away {' '.join(sort_cards([hand[0][2:], hand[1][2:]]))} "
                        "to the crib.\n"]
        assert "random computer 2 lays away 2 cards.\n" in seen
        assert sum(line.startswith("Your discard") for line in seen) == 1
        assert not any(line.startswith(("OK", "Your turn (count 0)")) for line in seen)
        writer.write(b"say hi\n")
        while (text := await text_line(reader)) != "[table 1] Ada: hi\n":
            assert not text.startswith("OK")
        writer.close()


async def test_a_person_may_choose_a_name_until_they_sit_down() -> None:
    async with running_server() as server:
        reader, writer = await text_connection(server.port)
        writer.write(b"tables\n")
        assert (await text_line(reader)).startswith("Welcome, guest-1! ")
        await text_line(reader), await text_line(reader)
        assert await text_line(reader) == "No tables yet. Type new noddy to start one.\n"
        writer.write(b"name Carl\n")
        assert (await text_line(reader)).startswith("Welcome, Carl! Your resume token is ")
        await text_line(reader), await text_line(reader)
        other = await Client.connect(server.port)
        await other.hello("Dora")
        writer.write(b"name dora\n")
        assert (await text_line(reader)).startswith("Error (name_taken): the name 'dora' ")
        await text_line(reader)
        writer.write(b"new noddy\nname Carla\n")
        assert await text_line(reader) == "Table 1 noddy 2p (unrated: Carl is a guest) [waiting] 1: Carl (guest) | 2: empty\n"
        assert await text_line(reader) + await text_line(reader) == HINT
        assert await text_line(reader) + await text_line(reader) == (
            "Error (already_hello): you sit at table 1 as Carl; stand up or leave to change\n"
            "  your name\n")
        writer.write(b"stand\nname Carla\n")
        assert await text_line(reader) == "Table 1 noddy 2p (rated) [waiting] 1: empty | 2: empty; watching: Carl\n"
        assert await text_line(reader) + await text_line(reader) == HINT_2
        assert (await text_line(reader)).startswith("Welcome, Carla! ")
        await text_line(reader), await text_line(reader)
        assert await text_line(reader) == "Table 1 noddy 2p (rated) [waiting] 1: empty | 2: empty; watching: Carla\n"
        assert await text_line(reader) + await text_line(reader) == HINT_2
        writer.close()
        await other.close()


async def test_a_long_name_is_refused_as_over_json() -> None:
    name = "x" * 40
    async with running_server() as server:
        client = await Client.connect(server.port)
        refused = await client.request({"type": "hello", "name": name, "version": 1})
        reader, writer = await text_connection(server.port)
        writer.write(f"name {name}\n".encode())
        assert await text_line(reader) == f"Error ({refused['code']}): {refused['message']}\n"
        assert refused["code"] != "ok"
        writer.close()
        await client.close()


async def test_a_watcher_can_resume() -> None:
    # The server's clock moves only when the test says: on the machine's clock, a resume a
    # moment late on a busy machine came after the 0.3 s grace period.
    now = [0.0]
    async with running_server(core=ServerCore(config_for_tests(grace_period=0.3), clock=lambda: now[0])) as server:
        ada = await Client.connect(server.port)
        await ada.hello("Ada")
        await ada.request({"type": "create_table", "preset": "noddy"})
        reader, writer = await text_connection(server.port)
        writer.write(b"name Dora\n")
        token = re.search(r"token is (\w+)", await text_line(reader)).group(1)
        await text_line(reader), await text_line(reader)
        writer.write(b"watch 1\n")
        await text_line(reader)
        assert await text_line(reader) == "  watching: Dora\n"
        writer.close()
        reader, writer = await text_connection(server.port)
        writer.write(f"resume {token}\n".encode())
        assert (await text_line(reader)).startswith("Welcome, Dora! You are back at table 1. ")
        writer.close()
        # Gone for longer than the grace period, the watcher leaves the table: once the server
        # has seen the connection go, the grace period passes.
        dora = next(s for s in server.core.sessions.values() if s.name == "Dora")
        for _ in range(500):
            if dora.conn is None:
                break
            await asyncio.sleep(0.01)
        assert dora.conn is None and dora.held_until is not None
        now[0] += 0.3
        await ada.recv_until(lambda m: m["type"] == "table" and m["table"]["spectators"] == [])
        await ada.close()


async def test_resume_after_a_first_command_that_made_a_guest() -> None:
    async with running_server() as server:
        reader, writer = await text_connection(server.port)
        writer.write(b"name Ann\nnew noddy\n")
        token = re.search(r"token is (\w+)", await text_line(reader)).group(1)
        await text_line(reader), await text_line(reader)
        assert (await text_line(reader)).startswith("Table 1 noddy 2p (unrated: Ann is a guest) [waiting] 1: Ann (guest)")
        writer.close()
        reader, writer = await text_connection(server.port)
        writer.write(b"tables\n")
        assert (await text_line(reader)).startswith("Welcome, guest-")
        await text_line(reader), await text_line(reader)
        assert "1: Ann (away, guest)" in await text_line(reader)
        assert await text_line(reader) == "  2: empty\n"
        writer.write(f"resume {token}\n".encode())
        assert (await text_line(reader)).startswith("Welcome, Ann! You are back at table 1. ")
        writer.write(b"resume 0123\n")
        await text_line(reader)  # "Type tables ..."
        while not (text := await text_line(reader)).startswith("Error"):
            pass
        assert text == ("Error (already_hello): you sit at table 1 as Ann; "
                        "stand up or leave first\n")
        writer.close()


async def test_watching_a_game_shows_the_table_once() -> None:
    async with running_server() as server:
        ada = await Client.connect(server.port)
        await ada.hello("Ada")
        await ada.request({"type": "create_table", "preset": "cribbage"})
        await ada.request({"type": "add_computer", "seat": 1})
        await ada.request({"type": "ready"})
        reader, writer = await text_connection(server.port)
        writer.write(b"name Dora\nwatch 1\n")
        await text_line(reader), await text_line(reader), await text_line(reader)
        assert await text_line(reader) == "Table 1 cribbage 2p (unrated: Ada is a guest) [playing] 1: Ada (guest) |\n"
        assert (await text_line(reader)).startswith("  2: ")
        assert (await text_line(reader)).startswith("Turn-up: -  Count: 0  Pile: -  Scores: Ada 0, ")
        writer.close()
        await ada.close()


async def test_help_fits_an_80_by_24_terminal_and_help_command_tells_one() -> None:
    # Issue 27, item 5: help was 33 lines, 11 of them wider than 80 columns, so its top
    # scrolled away and lines broke mid-word ("noddy-mod / ern").
    async with running_server() as server:
        reader, writer = await text_connection(server.port)
        writer.write(b"help\n")
        listing = [await text_line(reader) for _ in range(len(text_mode.HELP.splitlines()))]
        assert listing[0] == "Commands, one a line (help COMMAND tells more, e.g. help new):\n"
        assert len(listing) <= 23 and max(len(line.rstrip("\n")) for line in listing) <= 80
        assert listing[-1] == "  width N | help | quit       wrap at N columns | help COMMAND, e.g. help new\n"
        writer.write(b"help discard\n")
        assert [await text_line(reader) for _ in range(4)] == [
            "play CARD | go | discard CARD CARD\n",
            "    cards are rank+suit: A 2-9 T J Q K and C D H S, e.g. 5H TC;\n",
            "    discard also takes the numbers of the prompt: discard 1 2\n",
            "Written: discard CARD CARD, or the numbers the prompt shows: discard 1 2.\n"]
        writer.write(b"help dance\n")
        assert await text_line(reader) == "There is no command 'dance'; type help for the list.\n"
        writer.write(b"help new\n")
        new = [await text_line(reader) for _ in range(6)]
        assert new[2].startswith("Presets: noddy noddy-ducoeur noddy-holme noddy-modern")
        assert all(len(line.rstrip("\n")) <= 80 for line in new)
        writer.close()
