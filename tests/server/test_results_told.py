"""The one who resigns, gives a match up, or whose seat was left is told the result (issue 33,
item 4), over real sockets: a ``game_result`` push after the ``leave`` reply, with the rating
change; after ``resign_match``; and on the welcome of a person coming back after their seat
was abandoned and the game ended without them.  Text mode prints the push's ``message``.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

from noddy.client.model import ViewModel
from noddy.server import ServerCore
from noddy.server.text import render
from noddy.server.text.wrapping import wrap

from .harness import Client, play_out, running_server, text_connection, text_line, text_until
from .harness import test_config as config_for_tests
from .test_matches import _ready_both, match_after_first_game
from .test_stand_ins import SECRET, registered_table, scores_now


def _told(message: dict[str, Any]) -> bool:
    return message["type"] == "game_result"


async def test_the_one_who_resigns_a_rated_game_is_told_the_result_and_the_rating_change() -> None:
    async with running_server() as server:
        ann, ben, table_id = await registered_table(server.port)
        await ben.recv_until(lambda m: m["type"] == "turn")
        game_id = (await ann.request({"type": "snapshot"}))["table"]["game_id"]
        assert (await ben.request({"type": "leave"}))["type"] == "ok"
        told = await ben.recv_until(_told)
        over = (await ann.recv_until(lambda m: m["type"] == "event" and m["event"]["kind"] == "game_over"))["event"]
        scores = scores_now(ann)
        assert (told["table"], told["game"], told["seat"], told["names"], told["why"]) == (
            table_id, game_id, 1, ["ann", "ben"], "resigned")
        assert told["result"] == over and told["match"] is None
        assert told["rating"] == {"family": "noddy", "before": 1500.0, "after": 1484.0}
        assert told["message"] == (f"You resigned: ann wins the game, {scores[0]} to {scores[1]} "
                                   "(rated: your noddy rating 1500 -> 1484).")
        assert render(told) == wrap(told["message"]) + "\n"  # text mode prints it, wrapped at 80
        model = ViewModel("ben")  # noddy-client's status line says it
        model.connection_up()
        for message in ben.received:
            model.handle(message)
        assert model.session.status == told["message"]
        # ann saw the game end at the table; she is told only her rating change, after it.
        mine = await ann.recv_until(_told)
        assert ann.received.index(mine) > ann.received.index(next(
            m for m in ann.received if m["type"] == "table" and m["table"]["status"] == "finished"))
        assert (mine["table"], mine["game"], mine["seat"], mine["names"], mine["why"]) == (
            table_id, game_id, 0, ["ann", "ben"], "finished")
        assert (mine["result"], mine["match"]) == (over, None)
        assert mine["rating"] == {"family": "noddy", "before": 1500.0, "after": 1516.0}
        assert mine["message"] == "Rated: your noddy rating 1500 -> 1516."
        model = ViewModel("ann")  # noddy-client's status line says it to the winner too
        model.connection_up()
        for message in ann.received:
            model.handle(message)
        assert model.session.status == "Rated: your noddy rating 1500 -> 1516."
        seq = max(m["seq"] for m in ann.received if m["type"] == "event") + 1  # the next game: news gone
        model.handle({"type": "event", "table": table_id, "seq": seq, "event": {
            "kind": "game_started", "preset": "noddy", "players": 2, "partnerships": False, "target": 31}})
        assert model.session.status == ""
        await ann.close()
        await ben.close()


async def test_in_text_mode_the_winner_of_a_rated_game_reads_their_rating_change() -> None:
    # Seen in tmux: the winner read only "That game was rated.", never their own change.
    async with running_server() as server:
        reader, writer = await text_connection(server.port)
        writer.write(b"width 1000\nname cy\nregister sesame sesame\nnew noddy\n")
        await text_until(reader, "Table 1")
        ben = await Client.connect(server.port)
        await ben.hello("ben")
        assert (await ben.request({"type": "register", "password": SECRET}))["type"] == "registered"
        await ben.request({"type": "sit", "table": 1})
        writer.write(b"ready\n")
        await ben.request({"type": "ready"})
        await ben.recv_until(lambda m: m["type"] == "turn")
        assert (await ben.request({"type": "leave"}))["type"] == "ok"
        assert await text_until(reader, "That game was") == "That game was rated.\n"
        assert await text_line(reader) == "Rated: your noddy rating 1500 -> 1516.\n"
        told = await ben.recv_until(_told)
        assert told["message"].endswith("(rated: your noddy rating 1500 -> 1484).")
        writer.close()
        await ben.close()


async def test_an_unrated_game_sends_those_at_the_table_no_rating_change() -> None:
    async with running_server() as server:
        ann, ben = await Client.connect(server.port), await Client.connect(server.port)
        await ann.hello("ann")  # guests: unrated
        await ben.hello("ben")
        await ann.request({"type": "create_table", "preset": "noddy"})
        await ben.request({"type": "sit", "table": 1})
        await _ready_both(ann, ben)
        await ben.recv_until(lambda m: m["type"] == "turn")
        assert (await ben.request({"type": "leave"}))["type"] == "ok"
        await ann.recv_until(lambda m: m["type"] == "table" and m["table"]["status"] == "finished")
        assert (await ann.request({"type": "ping"}))["type"] == "pong"  # anything sent is in by now
        assert not [m for m in ann.received if _told(m)]
        await ann.close()
        await ben.close()


async def test_a_match_given_up_is_told_to_the_one_who_gave_it_up() -> None:
    async with running_server() as server:
        ann, ben, points = await match_after_first_game(server.port, 3)
        assert (await ben.request({"type": "resign_match"}))["type"] == "table"
        told = next(m for m in ben.received if _told(m))
        assert (told["why"], told["result"], told["rating"]) == ("match_given_up", None, None)
        assert told["message"] == (f"You gave up the match: the match (first to 3): ann {points[0]}, "
                                   f"ben {points[1]}, ann wins it.")
        await ann.close()
        await ben.close()


async def test_leaving_between_games_of_a_match_is_told_as_giving_it_up() -> None:
    async with running_server() as server:
        ann, ben, points = await match_after_first_game(server.port, 3)
        assert (await ann.request({"type": "leave"}))["type"] == "ok"
        told = await ann.recv_until(_told)
        assert (told["why"], told["seat"], told["match"]["resigned"], told["match"]["winner"]) == (
            "match_given_up", 0, 0, 1)
        assert told["message"] == (f"You gave up the match: the match (first to 3): ann {points[0]}, "
                                   f"ben {points[1]}, ben wins it.")
        await ann.close()
        await ben.close()


async def test_in_text_mode_leaving_mid_game_prints_the_result() -> None:
    async with running_server() as server:
        reader, writer = await text_connection(server.port)
        writer.write(b"width 1000\nname cy\nnew noddy\n")  # (width: one line a message)
        await text_until(reader, "Table 1")
        ben = await Client.connect(server.port)
        await ben.hello("ben")
        await ben.request({"type": "sit", "table": 1})
        writer.write(b"ready\n")
        await ben.request({"type": "ready"})
        await ben.recv_until(lambda m: m["type"] == "turn")
        writer.write(b"leave\n")
        line = await text_until(reader, "You resigned")
        over = (await ben.recv_until(lambda m: m["type"] == "event" and m["event"]["kind"] == "game_over"))["event"]
        assert line == f"You resigned: ben wins the game, {over['scores'][1]} to {over['scores'][0]}.\n"
        writer.close()
        await ben.close()


async def test_a_person_back_after_their_seat_was_abandoned_is_told_the_result_on_welcome() -> None:
    now = [0.0]
    core = ServerCore(config_for_tests(grace_period=5.0, keep_away=100.0), clock=lambda: now[0])
    async with running_server(core=core) as server:
        ann, ben, table_id = await registered_table(server.port)
        await ann.recv_until(lambda m: m["type"] == "turn")
        await ben.close()
        await ann.recv_until(lambda m: m["type"] == "player_away")
        now[0] += 6.0
        await ann.recv_until(lambda m: m["type"] == "stand_in")
        scores_then = scores_now(ann)
        over = await play_out(ann, random.Random(4))
        assert (over["ending"], over["scores"]) == ("abandoned", scores_then)
        back = await Client.connect(server.port)
        welcome = await back.hello("ben", password=SECRET)
        assert (welcome["table"], welcome["seat"]) == (None, None)
        told = await back.recv_until(_told)
        assert (told["why"], told["seat"], told["rating"]) == ("abandoned", 1, {"family": "noddy", "before": 1500.0,
                                                                                 "after": 1484.0})
        assert told["message"] == (
            f"While you were away, your seat at table {table_id} was left and never taken back, which counts "
            f"as a resignation: ann wins the game at {scores_then[0]} to {scores_then[1]}, the score when "
            "you left (rated: your noddy rating 1500 -> 1484).")  # (not "6 to 6" as if ann won on it)
        # told once: the next login hears nothing of it
        await back.close()
        again = await Client.connect(server.port)
        await again.hello("ben", password=SECRET)
        await again.request({"type": "list_tables"})
        assert not [m for m in again.received if _told(m)]
        await asyncio.gather(ann.close(), again.close())
