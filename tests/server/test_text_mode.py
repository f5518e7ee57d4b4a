"""Plain netcat: text commands in, readable lines out, a whole game against a computer."""

from __future__ import annotations

import asyncio
import json
import re

from noddy.protocol.story import narrate
from noddy.server.text import parse_command, render

from .harness import running_server

#: The line that ends a game in text mode (the shared narration's ``game_over``).
GAME_OVER = re.compile(r".+ wins? the game, \d+ to [\d to]+!$")


def test_commands_map_onto_requests() -> None:
    assert parse_command("tables") == {"type": "list_tables"}
    assert parse_command("new noddy") == {"type": "create_table", "preset": "noddy", "options": {}}
    assert parse_command("new cribbage 4 pairs target=61 password=pw timer=30") == {
        "type": "create_table", "preset": "cribbage", "players": 4, "partnerships": True,
        "options": {"target": 61}, "private": True, "password": "pw", "turn_timer": 30}
    assert parse_command("sit 2") == {"type": "sit", "seat": 1}
    assert parse_command("sit 1 2 pw") == {"type": "sit", "table": 1, "seat": 1, "password": "pw"}
    assert parse_command("join 3") == {"type": "sit", "table": 3, "seat": None, "password": None}
    assert parse_command("play 5H") == {"type": "action", "action": "play", "card": "5H"}
    assert parse_command("go") == {"type": "action", "action": "go"}
    assert parse_command("discard 5H KS") == {"type": "action", "action": "discard", "cards": ["5H", "KS"]}
    assert parse_command("say hello there") == {"type": "chat", "text": "hello there", "to": None}
    assert parse_command("bot 2 random") == {"type": "add_computer", "seat": 1, "level": "random"}
    assert parse_command("watch 2") == {"type": "spectate", "table": 2, "password": None}
    assert parse_command("look") == {"type": "snapshot"}
    assert parse_command("quit") == {"type": "bye"}
    assert parse_command("help") is None


async def test_a_person_plays_a_whole_game_by_text() -> None:
    async with running_server() as server:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)

        async def line() -> str:
            return (await asyncio.wait_for(reader.readline(), 10)).decode()

        greeting = json.loads(await line())
        assert greeting["help"].startswith("Type help and press Enter")
        writer.write(b"name Ada\n")
        assert (await line()).startswith("Welcome, Ada! Your resume token is ")
        assert await line() == "Type tables to see the tables, new noddy to start one, help for all commands.\n"
        assert await line() == "You are a guest (unrated): register PASSWORD keeps your name.\n"
        writer.write(b"new noddy\n")
        assert await line() == "Table 1 noddy 2p (unrated: Ada is a guest) [waiting] 1: Ada (guest) | 2: empty\n"
        assert [await line() for _ in range(2)] == [
            "Seat 2 is free. The game begins when every seat is taken and ready: type bot for\n",
            "  a computer player, or wait for someone to type join 1.\n"]
        writer.write(b"bot 2 random\n")
        assert [await line() for _ in range(2)] == [
            "Table 1 noddy 2p (unrated: Ada is a guest) [waiting] 1: Ada (guest) | 2: random\n",
            "  computer 2 (computer)\n"]
        writer.write(b"say good luck\n")
        assert await line() == "[table 1] Ada: good luck\n"
        writer.write(b"ready\n")
        assert [await line() for _ in range(2)] == [
            "Table 1 noddy 2p (unrated: Ada is a guest) [playing] 1: Ada (guest) | 2: random\n",
            "  computer 2 (computer)\n"]
        seen: list[str] = []
        for _ in range(2000):
            text = await line()
            seen.append(text)
            if GAME_OVER.match(text):
                break
            match = re.match(r"Your turn \(count \d+\): (play \w\w|go)", text)
            if match:
                writer.write(match.group(1).encode() + b"\n")
        assert GAME_OVER.match(seen[-1])
        assert any(t.startswith("You hold ") for t in seen)
        assert any(t.startswith("random computer 2 plays ") for t in seen)
        assert any(t.startswith("Ada shows ") for t in seen)
        assert not any(t.startswith("Error") for t in seen)
        game = server.core.tables[1].game
        winner = ["Ada", "random computer 2"][game.winner]
        assert seen[-1] == (f"{winner} wins the game, {game.scores[game.winner]} "
                            f"to {game.scores[1 - game.winner]}!\n")
        writer.write(b"quit\n")
        rest = await asyncio.wait_for(reader.read(), 10)
        assert rest.decode().endswith("Goodbye.\n(If your terminal stays open, press Ctrl-C.)\n")
        writer.close()


def test_record_commands_map_onto_requests() -> None:
    assert parse_command("games") == {"type": "list_games", "name": None}
    assert parse_command("games bob") == {"type": "list_games", "name": "bob"}
    assert parse_command("game 7") == {"type": "get_game", "game": 7}
    assert parse_command("game #7") == {"type": "get_game", "game": 7}
    assert parse_command("leaderboard") == {"type": "leaderboard", "family": "noddy"}
    assert parse_command("leaderboard Cribbage") == {"type": "leaderboard", "family": "cribbage"}
    assert parse_command("ratings noddy") == {"type": "leaderboard", "family": "noddy"}


def test_records_render_as_readable_lines() -> None:
    seats = [{"seat": 0, "name": "ann", "kind": "human", "level": None},
             {"seat": 1, "name": "bob", "kind": "human", "level": None},
             {"seat": 2, "name": "cat", "kind": "human", "level": None},
             {"seat": 3, "name": "expert computer", "kind": "computer", "level": "expert"}]
    game = {"id": 4, "table": 2, "number": 1, "preset": "cribbage", "family": "cribbage",
            "players": 4, "partnerships": True, "options": {"target": 61}, "seats": seats,
            "seed": 1, "status": "finished", "started_at": 0.0, "finished_at": 3600.0,
            "result": {"winner": 1, "winning_seats": [1, 3], "scores": [50, 61]}}
    assert render({"type": "games", "name": "ann", "games": [game]}) == (
        "Games of ann, newest first (game ID shows one):\n"
        "Game 4: cribbage 4p pairs, 1970-01-01 01:00 UTC: ann & cat 50, bob & expert\n"
        "  computer 61; bob & expert computer win.\n")
    assert render({"type": "games", "name": "zed", "games": []}) == "No finished games for zed yet.\n"
    record = {**game, "players": 2, "partnerships": False, "seats": seats[:2],
              "result": {"winner": 0, "winning_seats": [0], "scores": [61, 7]},
              "opening": [
                  {"kind": "game_started", "preset": "cribbage", "players": 2, "partnerships": False,
                   "target": 61},
                  {"kind": "deal_started", "deal": 1, "dealer": 1},
                  {"kind": "cards_dealt", "seat": 0, "count": 3, "cards": ["AS", "2S", "3S"]},
                  {"kind": "cards_dealt", "seat": 1, "count": 3, "cards": ["4H", "5H", "6H"]}],
              "steps": [
                  {"action": {"action": "discard", "seat": 0, "cards": ["AS"]},
                   "events": [{"kind": "discarded", "seat": 0, "count": 1, "cards": ["AS"]}]},
                  {"action": {"action": "discard", "seat": 1, "cards": ["4H"]},
                   "events": [{"kind": "discarded", "seat": 1, "count": 1, "cards": ["4H"]},
                              {"kind": "turned_up", "card": "JC"},
                              {"kind": "scored", "seat": 1, "points": 7, "reason": "turn-up",
                               "scores": [0, 7]},
                              {"kind": "hands_revealed", "hands": [["2S", "3S"], ["5H", "6H"]],
                               "crib": ["AS", "4H"]},
                              {"kind": "deal_ended", "deal": 1, "scores": [0, 7]},
                              {"kind": "deal_started", "deal": 2, "dealer": 0},
                              {"kind": "cards_dealt", "seat": 1, "count": 3, "cards": ["KD", "QD", "JD"]},
                              {"kind": "cards_dealt", "seat": 0, "count": 3, "cards": ["5C", "5D", "5S"]}]},
                  {"action": {"action": "discard", "seat": 0, "cards": ["5C"]},
                   "events": [{"kind": "discarded", "seat": 0, "count": 1, "cards": ["5C"]},
                              {"kind": "scored", "seat": 0, "points": 61, "reason": "play",
                               "scores": [61, 7]},
                              {"kind": "game_over", "winner": 0, "winning_seats": [0],
                               "scores": [61, 7]}]}]}
    assert render({"type": "game_record", "record": record}).splitlines() == [
        "Game 4 (table 2): cribbage, 2 players, first to 61.",
        "Seats: 1 ann, 2 bob.",
        "Played 1970-01-01 00:00 UTC to 1970-01-01 01:00 UTC.",
        "Deal 1, seat 2 deals, turn-up JC. Hands: 1 2S 3S, 2 5H 6H; crib AS 4H. Scores: 0",
        "  7",
        "Deal 2, seat 1 deals, turn-up -. Hands: 1 5D 5S, 2 KD QD JD; crib 5C. Scores: 61",
        "  7",
        "Result: ann 61, bob 7; ann wins, after 2 deals and 3 actions.",
    ]
    board = {"type": "leaderboard", "family": "noddy", "players": [
        {"rank": 1, "kind": "computer", "name": "greedy", "rating": 1531, "games": 3, "wins": 2},
        {"rank": 2, "kind": "human", "name": "ada", "rating": 1516, "games": 1, "wins": 1}]}
    assert render(board) == ("Leaderboard (noddy):\n"
                             "  1. greedy (computer) 1531: 3 games, 2 wins\n"
                             "  2. ada 1516: 1 game, 1 win\n")
    assert render({"type": "leaderboard", "family": "cribbage", "players": []}) == \
        "Nobody has played a rated cribbage game yet.\n"


async def test_games_game_and_leaderboard_after_a_game_by_text() -> None:
    async with running_server() as server:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port, limit=1 << 20)

        async def line() -> str:
            text = (await asyncio.wait_for(reader.readline(), 10)).decode()
            return re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", "<time>", text)

        await line()
        # Registered, so that her game against the computer is rated.
        writer.write(b"name Ada\nregister sesame sesame\nnew noddy target=15\nbot 2 random\nready\n")
        for _ in range(2000):
            text = await line()
            if GAME_OVER.match(text):
                break
            match = re.match(r"Your turn \(count \d+\): (play \w\w|go)", text)
            if match:
                writer.write(match.group(1).encode() + b"\n")
        assert await line() == "To play again, each player types ready; leave goes back to the lobby.\n"
        assert (await line()).startswith("Table 1 noddy 2p (target=15, rated) [finished]")
        assert await line() == "  (computer)\n"
        assert await line() == "That game was rated.\n"
        assert await line() == "Rated: your noddy rating 1500 -> 1484.\n"  # (she lost)
        writer.write(b"games\n")
        assert [await line() for _ in range(3)] == [
            "Games of Ada, newest first (game ID shows one):\n",
            "Game 1: noddy 2p, <time>: Ada 2, random computer 2 15; random\n",
            "  computer 2 wins.\n"]
        writer.write(b"game 1\n")
        assert [await line() for _ in range(7)] == [
            "Game 1 (table 1): noddy, 2 players, first to 15.\n",
            "Seats: 1 Ada, 2 random computer 2 (computer, random).\n",
            "Played <time> to <time>.\n",
            "Deal 1, seat 1 deals, turn-up 4S. Hands: 1 8H 2C QH, 2 6H 5C QC. Scores: 0 12\n",
            "Deal 2, seat 2 deals, turn-up JH. Hands: 1 6H AC 2S, 2 2H 6D TH. Scores: 2 15\n",
            "Result: Ada 2, random computer 2 15; random computer 2 wins, after 2 deals and 5\n",
            "  actions.\n"]
        writer.write(b"leaderboard\nleaderboard cribbage\ngame 9\n")
        assert [await line() for _ in range(7)] == [
            "Leaderboard (noddy):\n",
            "  1. random (computer) 1516: 1 game, 1 win\n",
            "  2. Ada 1484: 1 game, 0 wins\n",
            "Nobody has played a rated cribbage game yet: only games between two sides (two\n",
            "  players, or partnerships) of registered people or computers, without the\n",
            "  coach, are rated.\n",
            "Error (no_such_game): there is no finished game 9\n"]
        writer.close()


def test_events_name_the_players_at_the_readers_table() -> None:
    names = ("ann", "ben", "cy", "")
    played = {"type": "event", "event": {"kind": "played", "seat": 1, "card": "5H", "count": 20}}
    over = {"type": "event", "event": {"kind": "game_over", "winner": 0, "winning_seats": [0, 2],
                                       "scores": [31, 12]}}
    waiting = {"type": "turn", "legal_actions": [], "awaiting": [3], "count": 0}
    assert render(played, names) == "ben plays 5H — twenty\n"
    assert render(played) == "Seat 2 plays 5H — twenty\n"
    assert render(over, names) == ("ann & cy win the game, 31 to 12!\n"
                                   "To play again, each player types ready; leave goes back to the lobby.\n")
    assert render(waiting, names) == "Waiting for seat 4.\n"


def test_events_are_told_by_the_shared_narration() -> None:
    """Text mode tells events in the words of :mod:`noddy.protocol.story` (the client's log
    and replay use the same); it adds the scores after a score, and tells the reader's own
    cards in the second person (only that seat is ever sent them)."""
    names = ("Ada", "Ben")

    def said(event: dict) -> str:
        return render({"type": "event", "event": event}, names)

    go = {"kind": "go", "seat": 1}
    assert said(go) == narrate(go, names) + "\n" == "Ben says go.\n"
    assert said({"kind": "cards_dealt", "seat": 0, "count": 3, "cards": ["TC", "5H", "AD"]}) == \
        "You hold AD 5H TC.\n"
    assert said({"kind": "cards_dealt", "seat": 1, "count": 3, "cards": None}) == \
        "Ben is dealt 3 cards.\n"
    assert said({"kind": "discarded", "seat": 0, "count": 2, "cards": ["KS", "2S"]}) == \
        "You lay away 2S KS to the crib.\n"
    assert said({"kind": "scored", "seat": 0, "points": 3, "reason": "first deal", "items": [],
                 "scores": [3, 0], "cards": None, "concealed": False,
                 "announcement": "first deal three"}) == \
        "Ada pegs 3 for the first deal. Scores: Ada 3, Ben 0\n"
    assert said({"kind": "hands_revealed", "hands": [["TC", "5H"], ["6S", "3C"]], "crib": None}) == \
        "Ada's hand 5H TC\nBen's hand 3C 6S\n"
    assert said({"kind": "juggled", "seat": 0}) == "{'kind': 'juggled', 'seat': 0}\n"


def test_a_review_in_text_says_the_difference_of_the_totals_it_prints() -> None:
    # Issue 27, item 7: the difference was of the unrounded totals, so it did not add up.
    note = {"deal": 1, "decision": "play", "chosen": {"card": "5C", "now": 0, "answer": 0.114, "total": -0.114},
            "best": {"card": "8H", "now": 0, "answer": 0.0, "total": 1.014}, "difference": 1.128}
    assert render({"type": "review", "game": 3, "seat": 0, "deal": 1, "notes": [note]}) == (
        "Review of deal 1:\n"
        "  deal 1: you chose play 5C: pegs 0, reply 0.11, total -0.11\n"
        "    better: play 8H: pegs 0, reply 0.00, total +1.01 (1.12 more)\n")
