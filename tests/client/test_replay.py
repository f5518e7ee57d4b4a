"""Finished games in the client: the replay's step model over real records, the client's
reader with a whole long record, and My games / the replay / the leaderboard by keys.

The records come from a real server in the test (seeded), played out by computer players
or by a scripted client making random legal moves.  Every wait is bounded; nothing asserts
how long anything took.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest

from noddy.client.connection import Connection
from noddy.client.render import pegs_fragments, plain
from noddy.client.screens.lobby_layout import lobby_fragments
from noddy.client.screens.records import (GAMES, LEADERBOARD, REPLAY, RecordsView, game_line,
                                          hands_fragments, leaderboard_fragments, step_fragments)
from noddy.client.screens.replay import Replay
from noddy.client.model import LOBBY, ViewModel
from noddy.server import NoddyServer

from ..server.harness import Client, play_out, running_server
from .test_app import ENTER, play_until, running_client, server, wait_for  # noqa: F401

RIGHT, LEFT, UP, DOWN = "\x1b[C", "\x1b[D", "\x1b[A", "\x1b[B"
HOME, END, ESCAPE = "\x1b[H", "\x1b[F", "\x1b"


async def _record(preset: str, players: int, *, partnerships: bool = False, target: int | None = None,
                  human: bool = True) -> dict[str, Any]:
    """Play one game on a fresh seeded server and return its record (``get_game``)."""
    options = {} if target is None else {"target": target}
    async with running_server() as running:
        client = await Client.connect(running.port)
        await client.hello("Me")
        await client.request({"type": "create_table", "preset": preset, "players": players,
                              "partnerships": partnerships, "options": options,
                              "seat": 0 if human else None})
        for seat in range(1 if human else 0, players):
            await client.request({"type": "add_computer", "seat": seat, "level": "greedy"})
        if human:
            await client.request({"type": "ready"})
            await play_out(client, random.Random(3), timeout=60)
        else:
            await client.recv_until(lambda m: m.get("type") == "event"
                                    and m["event"]["kind"] == "game_over", timeout=60)
        reply = await client.request({"type": "get_game", "game": 1})
        assert reply["type"] == "game_record", reply
        await client.close()
        return reply["record"]


@pytest.fixture(scope="module")
def cribbage_record() -> dict[str, Any]:
    """A whole two-player Cribbage game to 121: Me (random legal moves) against greedy."""
    return asyncio.run(_record("cribbage", 2))


def _last_scores(events: list[dict[str, Any]], scores: list[int]) -> list[int]:
    for event in events:
        if "scores" in event:
            scores = list(event["scores"])
    return scores


def test_every_action_is_a_step_in_order_and_scores_follow_the_events(cribbage_record: dict) -> None:
    record = cribbage_record
    replay = Replay(record, me="Me")
    steps = record["steps"]
    assert [f.action for f in replay.frames if f.action is not None] == [s["action"] for s in steps]
    assert [f.index for f in replay.frames] == list(range(len(replay.frames)))
    # After each action (and whatever deal-in or show it also caused), the scores are those
    # the last of its events said.
    action_frames = [f.index for f in replay.frames if f.action is not None] + [len(replay.frames)]
    scores = _last_scores(record["opening"], [0, 0])
    assert replay.frames[0].scores == tuple(scores)
    for k, step in enumerate(steps):
        scores = _last_scores(step["events"], scores)
        assert replay.frames[action_frames[k + 1] - 1].scores == tuple(scores), k
    last = replay.frames[-1]
    assert list(last.scores) == record["result"]["scores"]
    assert last.winner == record["result"]["winner"]
    assert max(last.scores) >= 121 and replay.target == 121


def test_the_deal_in_the_pile_and_the_crib_as_they_were(cribbage_record: dict) -> None:
    record = cribbage_record
    replay = Replay(record, me="Me")
    first = replay.frames[0]
    dealt = {e["seat"]: e["cards"] for e in record["opening"] if e["kind"] == "cards_dealt"}
    assert first.action is None and first.deal == 1 and first.turn_up is None
    assert [set(hand) for hand in first.hands] == [set(dealt[0]), set(dealt[1])]
    assert first.headline.startswith("Deal 1: ") and first.pile == () and first.count == 0
    # The first card played: the pile holds it and the count is its value.
    k, step = next((k, s) for k, s in enumerate(record["steps"]) if s["action"]["action"] == "play")
    frame = next(f for f in replay.frames if f.action == step["action"])
    played = step["events"][0]
    assert frame.pile == ((played["seat"], played["card"]),) and frame.count == played["count"]
    assert frame.seat == played["seat"] and frame.headline.endswith(" plays " +
                                                                    frame.headline.split(" plays ")[1])
    assert frame.played == {played["card"]} and frame.phase == "play"
    # Both discards made: the crib and the kept hands are the ones revealed at the deal's end.
    revealed = next(e for s in record["steps"] for e in s["events"] if e["kind"] == "hands_revealed")
    assert sorted(frame.crib) == sorted(revealed["crib"])
    assert [set(hand) for hand in frame.hands] == [set(h) for h in revealed["hands"]]
    # The log up to a frame ends with that frame's last event.
    assert replay.log[frame.log_end - 1].text.endswith(f"— {_words(played['count'])}")


def _words(n: int) -> str:
    from noddy.client.model import number_words
    return number_words(n)


def test_next_and_previous_deal_and_home_and_end(cribbage_record: dict) -> None:
    replay = Replay(cribbage_record, me="Me")
    deals = sum(1 for s in [{"events": cribbage_record["opening"]}, *cribbage_record["steps"]]
                for e in s["events"] if e["kind"] == "deal_started")
    assert replay.deals == deals > 2
    replay.next_deal()
    start_of_2 = replay.position
    assert replay.frame.deal == 2 and replay.frame.action is None
    assert replay.frame.headline.startswith("Deal 2: ")
    assert replay.frames[start_of_2 - 1].deal == 1
    assert replay.frames[start_of_2 - 1].phase == "deal over"
    replay.step(3)
    replay.previous_deal()
    assert replay.position == start_of_2
    replay.previous_deal()
    assert replay.position == 0
    replay.step(-1)
    assert replay.position == 0
    replay.end()
    assert replay.position == len(replay.frames) - 1 and replay.frame.winner is not None
    replay.step(1)
    assert replay.position == len(replay.frames) - 1
    replay.next_deal()
    assert replay.position == len(replay.frames) - 1
    # The last lines are the live log's: the winner, then the summary of the game.
    told = [entry.text for entry in replay.visible_log()]
    won = next(i for i, text in enumerate(told) if "wins the game" in text)
    assert told[won].endswith("!") and told[won + 1].startswith("Summary after ")
    assert replay.visible_log() == replay.log
    replay.home()
    assert replay.position == 0 and replay.visible_log() == replay.log[:replay.frames[0].log_end]


def test_a_show_after_the_play_is_a_point_of_its_own(cribbage_record: dict) -> None:
    replay = Replay(cribbage_record, me="Me")
    counted = [f for f in replay.frames if f.headline.startswith("The hands are counted.")]
    assert counted and all(f.action is None for f in counted)
    for frame in counted:
        before = replay.frames[frame.index - 1]
        assert before.action is not None and before.phase == "play"
        assert frame.phase in ("deal over", "over")


def test_partnership_scores_are_per_team_and_a_long_record_fits_the_reader() -> None:
    """Four computers play Cribbage to 500 in partnerships; the record is read whole by the
    client's own reader (its line is far beyond the old 64 KiB limit)."""
    async def scenario() -> tuple[dict[str, Any], int]:
        async with running_server() as running:
            watcher = await Client.connect(running.port)
            await watcher.hello("Watcher")
            await watcher.request({"type": "create_table", "preset": "cribbage", "players": 4,
                                   "partnerships": True, "seat": None,
                                   "options": {"target": 500}})
            for seat in range(4):
                await watcher.request({"type": "add_computer", "seat": seat, "level": "greedy"})
            await watcher.recv_until(lambda m: m.get("type") == "event"
                                     and m["event"]["kind"] == "game_over", timeout=60)
            got: list[dict[str, Any]] = []
            connection: Connection

            def on_state(state: str, detail: str) -> None:
                if state == "up":
                    connection.send({"type": "hello", "name": "Reader", "version": 1})
                    connection.send({"type": "get_game", "game": 1, "id": 2})

            connection = Connection("127.0.0.1", running.port, got.append, on_state)
            task = asyncio.create_task(connection.run())
            await wait_for(lambda: any(m.get("type") == "game_record" for m in got), "the record")
            connection.stop()
            await asyncio.wait_for(task, 5)
            message = next(m for m in got if m.get("type") == "game_record")
            size = len(json.dumps(message, separators=(",", ":")))
            await watcher.close()
            return message["record"], size
    record, size = asyncio.run(scenario())
    assert size > 64 * 1024
    replay = Replay(record)
    assert replay.team_labels() == ["greedy computer 1 & greedy computer 3",
                                    "greedy computer 2 & greedy computer 4"]
    assert list(replay.frames[-1].scores) == record["result"]["scores"]
    assert len(replay.frames[-1].scores) == 2 and max(replay.frames[-1].scores) >= 500
    assert len(replay.frames[0].hands) == 4 and all(len(h) == 5 for h in replay.frames[0].hands)


def test_records_view_requests_and_screens() -> None:
    model = ViewModel("Me")
    model.session.screen = LOBBY
    model.session.welcomed = True
    view = RecordsView(model)
    view.open_games()
    assert model.session.screen == GAMES and view.games is None
    ask = model.session.take_outbox()[-1]
    assert ask | {"id": 0} == {"type": "list_games", "limit": 50, "id": 0}
    game = {"id": 7, "preset": "noddy", "players": 2, "partnerships": False, "finished_at": 0.0,
            "seats": [{"seat": 0, "name": "Me"}, {"seat": 1, "name": "random computer"}],
            "result": {"winner": 0, "winning_seats": [0], "scores": [31, 20]}}
    reply = {"type": "games", "name": "Me", "games": [game], "id": ask["id"]}
    model.handle(reply)
    view.handle(reply)
    assert view.games == [game]
    assert game_line(game, "Me").endswith("won   Me 31, random computer 20")
    resigned = {**game, "result": {"winner": 1, "winning_seats": [1], "scores": [3, 20],
                                   "ending": "resignation", "resigned": [0]}}
    assert game_line(resigned, "Me").endswith("lost  Me 3, random computer 20 (by resignation)")
    view.open_selected()
    ask = model.session.take_outbox()[-1]
    assert ask["type"] == "get_game" and ask["game"] == 7
    error = {"type": "error", "code": "no_such_game", "message": "there is no finished game 7",
             "id": ask["id"]}
    model.handle(error)
    view.handle(error)
    assert model.session.screen == GAMES and model.session.status == "there is no finished game 7"
    view.open_leaderboard()
    assert model.session.screen == LEADERBOARD
    assert model.session.take_outbox()[-1]["family"] == "noddy"
    view.other_family()
    assert model.session.take_outbox()[-1]["family"] == "cribbage"
    view.back()
    assert model.session.screen == LOBBY


async def test_finish_a_game_then_replay_it_from_my_games_by_keys(server: NoddyServer) -> None:  # noqa: F811
    async with running_client(server.port, quick_start={
            "preset": "noddy", "players": 2, "computers": 1, "options": {"target": 15}}) as (app, keys):
        model, records = app.model, app.records
        await wait_for(lambda: model.game.in_game, "the game to start")
        await play_until(model, keys, lambda: model.game.view.winner is not None)
        final = list(model.game.view.scores)
        keys.send_text("l")
        await wait_for(lambda: model.session.screen == LOBBY, "the lobby")
        keys.send_text("m")
        await wait_for(lambda: model.session.screen == GAMES and records.games, "my games")
        assert records.games is not None and len(records.games) == 1
        assert records.games[0]["result"]["scores"] == final
        keys.send_text(ENTER)
        await wait_for(lambda: model.session.screen == REPLAY and records.replay is not None, "the replay")
        replay = records.replay
        assert replay is not None and replay.position == 0
        keys.send_text(RIGHT + RIGHT)
        await wait_for(lambda: replay.position == 2, "two steps forward")
        keys.send_text(LEFT)
        await wait_for(lambda: replay.position == 1, "one step back")
        keys.send_text(END)
        await wait_for(lambda: replay.position == len(replay.frames) - 1, "the end")
        assert list(replay.frame.scores) == final
        board = plain(pegs_fragments(replay.pegs(), 80))
        for score in final:
            assert f"{score:>3}/15" in board
        keys.send_text(HOME)
        await wait_for(lambda: replay.position == 0, "the start")
        keys.send_text(DOWN)
        await wait_for(lambda: replay.frame.deal == 2 or replay.position == len(replay.frames) - 1,
                       "the next deal")
        keys.send_text(ESCAPE)
        await wait_for(lambda: model.session.screen == GAMES and records.replay is None, "back to my games")
        keys.send_text("b")
        # Me is a guest: the game was unrated, and the leaderboard says why it is empty.
        await wait_for(lambda: model.session.screen == LEADERBOARD and records.board is not None, "the leaderboard")
        assert records.board == []
        shown = plain(leaderboard_fragments(records))
        assert "Nobody has played a rated noddy game yet: only games between two sides" in shown
        assert "1 with a guest (no account) at the table." in " ".join(shown.split())
        keys.send_text(ESCAPE)
        await wait_for(lambda: model.session.screen == LOBBY, "the lobby again")


def test_the_lobby_shows_each_seated_players_rating() -> None:
    model = ViewModel("Me")
    seat = {"seat": 0, "name": "Ann", "kind": "human", "level": None, "ready": False,
            "connected": True, "rating": 1516}
    summary = {"id": 3, "preset": "cribbage", "players": 2, "partnerships": False, "options": {},
               "private": False, "turn_timer": None, "status": "waiting", "seats": [seat, None],
               "spectators": [], "creator": "Ann", "games_played": 0}
    assert model.lobby.table_line(summary) == "#3   cribbage           2p       waiting   Ann (1516), ·free·"
    del seat["rating"]       # an older server: no rating, nothing shown
    assert model.lobby.table_line(summary) == "#3   cribbage           2p       waiting   Ann, ·free·"


def test_a_lobby_row_too_long_for_the_screen_leaves_out_whole_parts_never_half_a_word() -> None:
    """At 80 columns a table of players away was cut mid-word ("guest-2 (1500)(aw", seen in
    tmux in session 9), and at 60 "cy (1500) (aw…" (issue 33, item 8): the rows give up
    their padding, then the ratings, all alike so their columns stay in line; a row still
    too long is cut between words, its last column left free."""
    model = ViewModel("Me")
    model.connection_up()
    model.handle({"type": "welcome", "name": "Me", "token": "x", "resumed": False, "presets": []})
    seats = [{"seat": i, "name": name, "kind": "human", "level": None, "ready": False,
              "connected": False, "rating": 1500} for i, name in enumerate(["Cy", "guest-2"])]
    away = {"id": 2, "preset": "cribbage", "players": 2, "partnerships": False, "options": {},
            "private": False, "turn_timer": None, "status": "playing", "seats": seats,
            "spectators": [], "creator": "Cy", "games_played": 1}
    short = {**away, "id": 3, "status": "waiting", "seats": [None, None]}
    model.handle({"type": "tables", "tables": [away, short]})
    assert model.lobby.table_line(away) == ("#2   cribbage           2p       playing   "
                                            "Cy (1500) (away), guest-2 (1500) (away)")
    assert plain(lobby_fragments(model, 80)).splitlines() == [
        " Tables",
        " ▶ #2 cribbage 2p playing  Cy (1500) (away), guest-2 (1500) (away)",
        "   #3 cribbage 2p waiting  ·free·, ·free·"]
    assert plain(lobby_fragments(model, 60)).splitlines()[1] == " ▶ #2 cribbage 2p playing  Cy (away), guest-2 (away)"
    assert plain(lobby_fragments(model, 50)).splitlines()[1] == " ▶ #2 cribbage 2p playing  Cy (away), guest-2 …"
    # A name wider than the room (a wide character takes two columns) goes whole.
    seats[1]["name"] = "牌" * 40
    assert plain(lobby_fragments(model, 70)).splitlines()[1] == " ▶ #2 cribbage 2p playing  Cy (away), …"


def test_the_replay_tells_four_computers_apart() -> None:
    """The replay's hands cut every name to 15 characters, so "greedy computer 2" and
    "greedy computer 4" both read "greedy computer" (seen in tmux in session 9).  A name too
    long for the column goes by its short form, as on the peg board: "greedy cpu 2"."""
    record = asyncio.run(_record("noddy", 4, partnerships=True, human=False))
    replay = Replay(record)
    rows = plain(hands_fragments(replay)).splitlines()
    assert [row[2:18].rstrip() for row in rows[:4]] == [f"greedy cpu {n}" for n in range(1, 5)]
    # The pile's marks likewise: four "G:" say nothing, so the seat numbers stand in for
    # the initials, as at the live table.
    replay.go_to(next(i for i, f in enumerate(replay.frames) if len(f.pile) >= 4))
    pile = plain(step_fragments(replay)).splitlines()[1].split("Pile ")[1]
    marks = [card.split(":")[0] for card in pile.split()]
    assert len(marks) >= 4 and set(marks) <= {"1", "2", "3", "4"}
    assert marks == [str(seat + 1) for seat, _ in replay.frame.pile[-12:]]
