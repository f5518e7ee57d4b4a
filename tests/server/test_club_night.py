"""A club night over real sockets (issue 35): announced, entered by people and a bot, its
rounds paired, its boards' tables opened and their players seated, every game dealt on the
round's duplicate deals, and the final standings what the games' records say."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from ..protocol.test_schema import STRICT
from .club_play import PRESET, acc_points, core, person, play_board, records_of
from .harness import Client, play_out, running_server


async def test_a_swiss_of_two_rounds_on_duplicate_deals_with_people_and_a_bot() -> None:
    now = [1000.0]
    async with running_server(core=core(now)) as server:
        ann = await person(server.port, "ann", "127.0.0.2")
        assert (await ann.request({"type": "register", "password": "sesame"}))["type"] == "registered"
        reply = await ann.request({"type": "announce_event", "title": "Tuesday club", "format": "swiss",
                                   "rounds": 2, "games": 2, "round_pause": 0, **PRESET})
        assert reply["type"] == "club_event"
        event = reply["event"]
        assert (event["id"], event["state"], event["rounds"], event["duplicate"], event["games"]) == (
            1, "announced", 2, True, 2)
        ben = await person(server.port, "ben", "127.0.0.3")
        cal = await person(server.port, "cal", "127.0.0.4")
        dot = await person(server.port, "dot", "127.0.0.5", bot=True)
        players = {"ann": ann, "ben": ben, "cal": cal, "dot": dot}
        for client in players.values():
            assert (await client.request({"type": "join_event", "event": 1}))["type"] == "ok"
        shown = (await ben.request({"type": "event", "event": 1}))["event"]
        assert [(e["name"], e["kind"]) for e in shown["entrants"]] == [
            ("ann", "person"), ("ben", "person"), ("cal", "person"), ("dot", "bot")]
        listed = (await cal.request({"type": "events"}))["events"]
        assert [(e["id"], e["title"], e["state"], e["entrants"], e["private"]) for e in listed] == [
            (1, "Tuesday club", "announced", 4, False)]
        assert (await ann.request({"type": "direct_event", "event": 1, "command": "start"}))["type"] == "ok"
        rngs = {name: random.Random(i) for i, name in enumerate(players)}
        for round_ in (1, 2):
            tables = {}
            for name, client in players.items():
                told = await client.recv_until(lambda m: m["type"] == "event_table" and m["round"] == round_)
                seated = await client.recv_until(lambda m: m["type"] == "table" and m.get("seat") is not None)
                assert seated["table"]["id"] == told["table"] and seated["table"]["event"] == {
                    "id": 1, "round": round_, "board": told["board"]}
                assert seated["table"]["unrated_reasons"][-1] == "unrated_event"  # announced unrated
                tables[name] = told
            assert {t["opponent"] for t in tables.values()} == set(players)
            played = await asyncio.gather(*(play_board(c, rngs[n]) for n, c in players.items()))
            assert played == [2, 2, 2, 2]
        await ann.recv_until(lambda m: m["type"] == "event_news" and m["kind"] == "finished")
        final = (await ann.request({"type": "event", "event": 1}))["event"]
        assert final["state"] == "finished"
        records = await records_of(ann, list(players))
        assert len(records) == 8
        boards = {(b["table"]): (number["round"], b["board"]) for number in final["rounds_played"]
                  for b in number["boards"]}
        assert [r["event"] for r in records.values()] == [
            {"id": 1, "title": "Tuesday club", "round": boards[r["table"]][0], "board": boards[r["table"]][1]}
            for r in records.values()]
        rows = (await ben.request({"type": "list_games", "name": "ben"}))["games"]
        assert {row["event"]["id"] for row in rows} == {1} and len(rows) == 4
        # Each board's games name their records' ids (one request away: get_game replays them).
        shown_ids = {b["table"]: [g["id"] for g in b["games"]] for number in final["rounds_played"]
                     for b in number["boards"]}
        assert shown_ids == {table: sorted(i for i, r in records.items() if r["table"] == table)
                             for table in shown_ids}
        assert {row["id"] for row in rows} == {i for ids in shown_ids.values() for i in ids
                                               if "ben" in {s["name"] for s in records[i]["seats"]}}
        # Duplicate deals: within a round, both boards' games are dealt the same seeds, each
        # deal played both ways (games 2k and 2k+1 share one).
        by_table: dict[int, list[dict]] = {}
        for record in records.values():
            by_table.setdefault(record["table"], []).append(record)
        rounds = final["rounds_played"]
        for number in rounds:
            seeds = [[r["seed"] for r in sorted(by_table[b["table"]], key=lambda r: r["id"])]
                     for b in number["boards"]]
            assert seeds[0] == seeds[1] and seeds[0][0] == seeds[0][1], seeds
        assert rounds[0]["boards"][0]["games"] != [] and rounds[0]["bye"] is None
        # The standings are what the records say.
        expected = acc_points(list(records.values()))
        rows = final["standings"]["rows"]
        assert {row["name"]: (row["points"], row["spread"]) for row in rows} == expected
        assert [row["games"] for row in rows] == [4, 4, 4, 4]
        # stats name the event and the place.
        stats = await ben.request({"type": "stats"})
        place = next(row["rank"] for row in rows if row["name"] == "ben")
        assert [(e["event"], e["title"], e["state"], e["place"], e["entrants"]) for e in stats["events"]] == [
            (1, "Tuesday club", "finished", place, 4)]
        for client in players.values():  # everything the club night sent fits the schema
            for message in client.received:
                STRICT.check(message)
            await client.close()


async def test_a_no_show_forfeits_a_bye_scores_and_the_director_pauses_resumes_and_removes() -> None:
    """Three entrants: round 1 pairs ben with cal, who has gone away, and gives dan the bye;
    cal forfeits when the no-show wait runs out (the injected clock); the pause between
    rounds stands still while the director pauses; cal removed, round 2 pairs ben with dan."""
    now = [1000.0]
    async with running_server(core=core(now)) as server:
        ann = await person(server.port, "ann", "127.0.0.2")
        assert (await ann.request({"type": "register", "password": "sesame"}))["type"] == "registered"
        await ann.request({"type": "announce_event", "title": "Odd field", "format": "swiss", "rounds": 2,
                           "games": 2, "forfeit_wait": 60, "round_pause": 30, **PRESET})
        ben = await person(server.port, "ben", "127.0.0.3")
        cal = await person(server.port, "cal", "127.0.0.4")
        dan = await person(server.port, "dan", "127.0.0.5")
        for client in (ben, cal, dan):
            assert (await client.request({"type": "join_event", "event": 1}))["type"] == "ok"
        await cal.close()
        assert (await ann.request({"type": "direct_event", "event": 1, "command": "start"}))["type"] == "ok"
        told = await ben.recv_until(lambda m: m["type"] == "event_table")
        assert {k: told[k] for k in ("round", "board", "seat", "opponent")} == {
            "round": 1, "board": 1, "seat": 0, "opponent": "cal"}
        bye = await dan.recv_until(lambda m: m["type"] == "event_news" and m["kind"] == "bye")
        assert bye["text"] == "dan sits out round 1 (a bye)"
        await ben.recv_until(lambda m: m["type"] == "table" and m.get("seat") == 0)
        now[0] += 61.0  # the no-show wait is over
        forfeit = await ben.recv_until(lambda m: m["type"] == "event_news" and m["kind"] == "forfeit")
        assert forfeit["text"] == "round 1 board 1: cal forfeits (no-show)"
        # (the table is closed as the forfeit happens -- told to ben at it, and again with the
        # lobby's news -- and the news follows once the event is saved)
        assert {(m["table"], m["reason"]) for m in ben.received if m["type"] == "table_closed"} == {
            (told["table"], "event_board")}
        over = await ann.recv_until(lambda m: m["type"] == "event_news" and m["kind"] == "round-over")
        assert over["text"] == "round 1 is over; round 2 begins in 30 seconds"
        assert (await ann.request({"type": "direct_event", "event": 1, "command": "pause"}))["type"] == "ok"
        now[0] += 100.0  # paused: the pause between rounds stands still
        shown = (await ann.request({"type": "event", "event": 1}))["event"]
        assert (shown["state"], shown["round"], shown["next_round_in"]) == ("paused", 1, 30.0)
        assert (await ann.request({"type": "direct_event", "event": 1, "command": "resume"}))["type"] == "ok"
        shown = (await ann.request({"type": "event", "event": 1}))["event"]
        assert (shown["state"], shown["round"], shown["next_round_in"]) == ("running", 1, 30.0)
        reply = await ann.request({"type": "direct_event", "event": 1, "command": "remove", "name": "cal"})
        assert reply["type"] == "ok"
        removed = await dan.recv_until(lambda m: m["type"] == "event_news" and m["kind"] == "removed")
        assert removed["text"] == "the director removed cal (Odd field)"
        now[0] += 30.0
        told = await dan.recv_until(lambda m: m["type"] == "event_table")
        assert (told["round"], told["opponent"]) == (2, "ben")
        await asyncio.gather(play_board(ben, random.Random(1)), play_board(dan, random.Random(2)))
        await ann.recv_until(lambda m: m["type"] == "event_news" and m["kind"] == "finished")
        final = (await ann.request({"type": "event", "event": 1}))["event"]
        rounds = final["rounds_played"]
        assert (rounds[0]["bye"], rounds[0]["boards"][0]["forfeit"], rounds[0]["boards"][0]["forfeit_by"]) == (
            "dan", "no-show", ["cal"])
        rows = {row["name"]: row for row in final["standings"]["rows"]}
        records = await records_of(ann, ["ben", "dan"])
        played = acc_points(list(records.values()))
        # ben: two games won by forfeit (2 points each, no spread) and round 2's games;
        # dan: the bye (a plain win of each of its two games) and round 2's games.
        assert (rows["ben"]["points"], rows["ben"]["spread"]) == (4 + played["ben"][0], played["ben"][1])
        assert (rows["dan"]["points"], rows["dan"]["spread"]) == (4 + played["dan"][0], played["dan"][1])
        assert (rows["dan"]["byes"], rows["cal"]["forfeits"], rows["cal"]["points"], rows["cal"]["status"]) == (
            1, 2, 0, "removed")
        for client in (ann, ben, dan):
            await client.close()


async def test_a_person_drops_mid_game_and_comes_back_and_a_restart_mid_round_brings_the_event_back(
        tmp_path: Path) -> None:
    """ben drops in the middle of game 1 (his seat is held) and comes back with his token;
    the server restarts in the middle of game 2 and comes back with the event where it was,
    its board's table and the seats as the event put them (B first in odd games)."""
    db = str(tmp_path / "noddy.sqlite3")
    now = [1000.0]
    async with running_server(core=core(now, db=db)) as server:
        ann = await person(server.port, "ann", "127.0.0.2")
        assert (await ann.request({"type": "register", "password": "sesame"}))["type"] == "registered"
        await ann.request({"type": "announce_event", "title": "Restart", "format": "swiss", "rounds": 1,
                           "games": 2, "round_pause": 0, **PRESET})
        ben = await person(server.port, "ben", "127.0.0.3")
        cal = await person(server.port, "cal", "127.0.0.4", bot=True)
        for client in (ben, cal):
            assert (await client.request({"type": "join_event", "event": 1}))["type"] == "ok"
        assert (await ann.request({"type": "direct_event", "event": 1, "command": "start"}))["type"] == "ok"
        told = await ben.recv_until(lambda m: m["type"] == "event_table")
        table = told["table"]
        await ben.recv_until(lambda m: m["type"] == "turn")  # game 1 is dealt: ben in seat 0
        token = ben.token
        await ben.close()
        away = await cal.recv_until(lambda m: m["type"] == "player_away")
        assert (away["table"], away["seat"], away["name"]) == (table, 0, "ben")
        ben = await Client.connect(server.port, "127.0.0.3")
        welcome = await ben.hello("ben", resume=token)
        assert (welcome["resumed"], welcome["table"], welcome["seat"]) == (True, table, 0)
        await cal.send({"type": "snapshot"})  # (its turn was read past, waiting for player_away)
        await asyncio.gather(play_out(ben, random.Random(1)), play_out(cal, random.Random(2)))
        # Game 2 is dealt at once, the seats swapped: cal first.
        turn = await cal.recv_until(lambda m: m["type"] == "table" and m["table"]["status"] == "playing")
        assert [s["name"] for s in turn["table"]["seats"]] == ["cal", "ben"]
        tokens = {"ben": ben.token, "cal": cal.token}
    async with running_server(core=core(now, db=db)) as server:
        ann = await person(server.port, "ann", "127.0.0.2", password="sesame")
        shown = (await ann.request({"type": "event", "event": 1}))["event"]
        board = shown["rounds_played"][0]["boards"][0]
        assert (shown["state"], shown["round"], board["table"], board["status"], len(board["games"])) == (
            "running", 1, table, "playing", 1)
        ben = await Client.connect(server.port, "127.0.0.3")
        cal = await Client.connect(server.port, "127.0.0.4")
        assert (await ben.hello("ben", resume=tokens["ben"]))["seat"] == 1
        welcome = await cal.hello("cal", resume=tokens["cal"], bot=True)
        assert (welcome["table"], welcome["seat"]) == (table, 0)
        summary = (await ben.request({"type": "snapshot"}))["table"]
        assert summary["event"] == {"id": 1, "round": 1, "board": 1}
        await cal.send({"type": "snapshot"})  # where the game stands, its turn (a client asks on coming back)
        await ben.send({"type": "snapshot"})
        played = await asyncio.gather(play_board(ben, random.Random(3)), play_board(cal, random.Random(4)))
        assert played == [1, 1]
        await ann.recv_until(lambda m: m["type"] == "event_news" and m["kind"] == "finished")
        final = (await ann.request({"type": "event", "event": 1}))["event"]
        records = await records_of(ann, ["ben", "cal"])
        assert [r["table"] for r in records.values()] == [table, table]
        rows = {row["name"]: (row["points"], row["spread"]) for row in final["standings"]["rows"]}
        assert rows == acc_points(list(records.values()))
        for client in (ann, ben, cal):
            await client.close()


async def test_an_entrant_not_connected_when_the_round_begins_is_seated_on_logging_in() -> None:
    now = [1000.0]
    async with running_server(core=core(now)) as server:
        ann = await person(server.port, "ann", "127.0.0.2")
        assert (await ann.request({"type": "register", "password": "sesame"}))["type"] == "registered"
        await ann.request({"type": "announce_event", "title": "Late", "format": "swiss", "rounds": 1,
                           "games": 2, "forfeit_wait": 60, **PRESET})
        ben = await person(server.port, "ben", "127.0.0.3")
        cal = await person(server.port, "cal", "127.0.0.4")
        for client in (ben, cal):
            assert (await client.request({"type": "join_event", "event": 1}))["type"] == "ok"
        await cal.close()
        assert (await ann.request({"type": "direct_event", "event": 1, "command": "start"}))["type"] == "ok"
        told = await ben.recv_until(lambda m: m["type"] == "event_table")
        now[0] += 59.0  # within the no-show wait
        cal = await person(server.port, "cal", "127.0.0.4")
        where = await cal.recv_until(lambda m: m["type"] == "event_table")
        assert where == {"type": "event_table", "event": 1, "round": 1, "board": 1, "table": told["table"],
                         "seat": 1, "opponent": "ben", "games": 2}
        seated = await cal.recv_until(lambda m: m["type"] == "table")
        assert (seated["table"]["id"], seated["seat"]) == (told["table"], 1)
        played = await asyncio.gather(play_board(ben, random.Random(5)), play_board(cal, random.Random(6)))
        assert played == [2, 2]
        final = (await ann.request({"type": "event", "event": 1}))["event"]
        assert (final["state"], [p["forfeit"] for p in final["rounds_played"][0]["boards"]]) == ("finished", [None])
        for client in (ann, ben, cal):
            await client.close()


async def test_a_held_seat_that_runs_out_forfeits_the_game_and_an_absent_player_the_next() -> None:
    """ben drops in game 1 and never comes back: when his grace period is over a computer
    stands in and plays the game out, which counts as ben's forfeit (abandoned); game 2
    waits forfeit_wait seconds for him, then is his forfeit too (no-show)."""
    now = [1000.0]
    async with running_server(core=core(now, grace_period=5.0)) as server:
        ann = await person(server.port, "ann", "127.0.0.2")
        assert (await ann.request({"type": "register", "password": "sesame"}))["type"] == "registered"
        await ann.request({"type": "announce_event", "title": "Gone", "format": "swiss", "rounds": 1,
                           "games": 2, "forfeit_wait": 60, **PRESET})
        ben = await person(server.port, "ben", "127.0.0.3")
        cal = await person(server.port, "cal", "127.0.0.4", bot=True)
        for client in (ben, cal):
            assert (await client.request({"type": "join_event", "event": 1}))["type"] == "ok"
        assert (await ann.request({"type": "direct_event", "event": 1, "command": "start"}))["type"] == "ok"
        await ben.recv_until(lambda m: m["type"] == "turn")
        await ben.close()
        await cal.recv_until(lambda m: m["type"] == "player_away")
        now[0] += 6.0  # the grace period is over: a computer stands in
        await cal.recv_until(lambda m: m["type"] == "stand_in")
        await cal.send({"type": "snapshot"})
        await play_out(cal, random.Random(7))
        now[0] += 61.0  # game 2 waited forfeit_wait for ben
        await ann.recv_until(lambda m: m["type"] == "event_news" and m["kind"] == "finished")
        final = (await ann.request({"type": "event", "event": 1}))["event"]
        games = final["rounds_played"][0]["boards"][0]["games"]
        assert [(g["game"], g["winner"], g["forfeit"]) for g in games] == [(0, "cal", "abandoned"),
                                                                            (1, "cal", "no-show")]
        rows = {row["name"]: (row["points"], row["forfeits"]) for row in final["standings"]["rows"]}
        assert rows == {"cal": (4, 0), "ben": (0, 2)}
        for client in (ann, cal):
            await client.close()


async def test_an_event_starts_by_itself_at_its_time_and_the_director_ends_it_early() -> None:
    now = [1000.0]
    async with running_server(core=core(now)) as server:
        ann = await person(server.port, "ann", "127.0.0.2")
        assert (await ann.request({"type": "register", "password": "sesame"}))["type"] == "registered"
        event = (await ann.request({"type": "announce_event", "title": "At nine", "format": "round-robin",
                                    "games": 2, "starts_in": 30, **PRESET}))["event"]
        assert (event["rounds"], event["starts_in"]) == (None, 30.0)
        ben = await person(server.port, "ben", "127.0.0.3")
        cal = await person(server.port, "cal", "127.0.0.4")
        for client in (ben, cal):
            assert (await client.request({"type": "join_event", "event": 1}))["type"] == "ok"
        now[0] += 30.0
        told = await ben.recv_until(lambda m: m["type"] == "event_table")
        assert (told["round"], told["opponent"]) == (1, "cal")
        await cal.recv_until(lambda m: m["type"] == "turn")  # both seated: game 1 is dealt
        assert (await ann.request({"type": "direct_event", "event": 1, "command": "end"}))["type"] == "ok"
        ended = await ben.recv_until(lambda m: m["type"] == "event_news" and m["kind"] == "ended")
        assert ended["text"] == "At nine is over: the director ended it early"
        assert {(m["table"], m["reason"]) for m in ben.received if m["type"] == "table_closed"} == {
            (told["table"], "event_board")}
        final = (await ann.request({"type": "event", "event": 1}))["event"]
        assert (final["state"], final["rounds"], final["rounds_played"][0]["boards"][0]["status"]) == (
            "ended", 1, "void")
        listed = (await ben.request({"type": "events"}))["events"]
        assert [(e["id"], e["state"]) for e in listed] == [(1, "ended")]
        await refused_end(ann)
        for client in (ann, ben, cal):
            await client.close()


async def refused_end(ann: Client) -> None:
    """An event over refuses the director's end: ``event_state``."""
    reply = await ann.request({"type": "direct_event", "event": 1, "command": "end"})
    assert (reply["type"], reply["code"]) == ("error", "event_state")
