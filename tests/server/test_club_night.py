"""A club night over real sockets (issue 35): announced, entered by people and a bot, its
rounds paired, its boards' tables opened and their players seated, every game dealt on the
round's duplicate deals, and the final standings what the games' records say."""

from __future__ import annotations

import asyncio
import random

from .club_play import PRESET, acc_points, core, news, person, play_board, records_of
from .harness import running_server


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
                tables[name] = told
            assert {t["opponent"] for t in tables.values()} == set(players)
            played = await asyncio.gather(*(play_board(c, rngs[n]) for n, c in players.items()))
            assert played == [2, 2, 2, 2]
        await ann.recv_until(lambda m: m["type"] == "event_news" and m["kind"] == "finished")
        final = (await ann.request({"type": "event", "event": 1}))["event"]
        assert final["state"] == "finished"
        records = await records_of(ann, list(players))
        assert len(records) == 8
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
        for client in players.values():
            await client.close()
