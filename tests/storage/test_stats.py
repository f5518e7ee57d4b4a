"""Statistics (issue 26): ``stats`` over real sockets equals a recount made here, in the test,
by replaying the stored records of seeded games; the backfill of games stored before the
statistics existed gives the same figures; and what ``stats`` refuses."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path
from typing import Any

from noddy.engine import judge_skunk
from noddy.protocol.stats_view import stats_lines
from noddy.server.model.table_options import table_rules
from noddy.server.storage import MIGRATIONS, Storage
from tests.server.harness import Client, play_out, running_server
from tests.server.results import like

from .helpers import Driver


async def _play_both(clients: list[Client], seed: int, claim_at_random: bool = False) -> None:
    rngs = [random.Random(seed * 10 + i) for i in range(len(clients))]
    await asyncio.gather(*[play_out(c, r, timeout=60, claim_at_random=claim_at_random)
                           for c, r in zip(clients, rngs)])


async def _again(clients: list[Client]) -> None:
    for client in clients:
        await client.request({"type": "ready"})


async def _seeded_games(port: int) -> tuple[Client, Client]:
    """ann and ben play: two Cribbage games to 61 head to head, Noddy against computers,
    Cribbage in partnerships with computers, three-handed Cribbage and five-card Cribbage
    counted by hand (claims at random, so some are refused and some mugged)."""
    ann, ben = await Client.connect(port), await Client.connect(port)
    for client, name in ((ann, "ann"), (ben, "ben")):  # only registered people are rated
        await client.hello(name)
        assert (await client.request({"type": "register", "password": "a secret"}))["type"] == "registered"
    table = (await ann.request({"type": "create_table", "preset": "cribbage", "options": {"target": 61}}))["table"]["id"]
    await ben.request({"type": "sit", "table": table})
    await _again([ann, ben])
    await _play_both([ann, ben], 1)
    await _again([ann, ben])
    await _play_both([ann, ben], 2)
    for client in (ann, ben):
        await client.request({"type": "leave"})
    await ann.request({"type": "create_table", "preset": "noddy"})
    await ann.request({"type": "add_computer", "level": "greedy"})
    await ann.request({"type": "ready"})
    await _play_both([ann], 3)
    await ann.request({"type": "leave"})
    table = (await ann.request({"type": "create_table", "preset": "cribbage", "players": 4,
                                "partnerships": True, "options": {"target": 61}}))["table"]["id"]
    await ben.request({"type": "sit", "table": table, "seat": 1})
    await ann.request({"type": "add_computer", "seat": 2, "level": "random"})
    await ann.request({"type": "add_computer", "seat": 3, "level": "greedy"})
    await ann.request({"type": "ready"})
    await ben.request({"type": "ready"})
    await _play_both([ann, ben], 4)
    for client in (ann, ben):
        await client.request({"type": "leave"})
    table = (await ben.request({"type": "create_table", "preset": "cribbage", "players": 3,
                                "options": {"target": 61}}))["table"]["id"]
    await ann.request({"type": "sit", "table": table, "seat": 2})
    await ben.request({"type": "add_computer", "level": "greedy"})
    await ben.request({"type": "ready"})
    await ann.request({"type": "ready"})
    await _play_both([ann, ben], 5)
    for client in (ann, ben):
        await client.request({"type": "leave"})
    await ann.request({"type": "create_table", "preset": "five-card-cribbage", "options": {"counting": "manual"}})
    await ann.request({"type": "add_computer", "level": "random"})
    await ann.request({"type": "ready"})
    await _play_both([ann], 6, claim_at_random=True)
    return ann, ben


# == the recount: written apart from the server's, from the stored records ==================

def _recount(records: list[dict[str, Any]], name: str) -> dict[str, Any]:
    """Every figure of ``stats`` for ``name``, by walking each stored game's events."""
    per: dict[str, dict[str, Any]] = {}
    for record in sorted(records, key=lambda r: r["id"]):
        rules = table_rules(record["preset"], record["players"], record["partnerships"], record["options"])
        mine = [s["seat"] for s in record["seats"] if s["kind"] == "human" and s["name"] == name]
        if not mine:
            continue
        (seat,) = mine
        events = list(record["opening"]) + [e for step in record["steps"] for e in step["events"]]
        entry = per.setdefault(record["preset"], {
            "preset": record["preset"], "family": record["family"], "games": 0, "wins": 0, "deals": 0,
            "cribs": 0, "pegging": 0, "hand": 0, "crib": 0, "best": None, "given": 0, "given2": 0,
            "taken": 0, "taken2": 0})
        result = record["result"]
        entry["games"] += 1
        won = seat in result["winning_seats"]
        entry["wins"] += won
        deals = [e for e in events if e["kind"] == "deal_started"]
        entry["deals"] += len(deals)
        if record["preset"] in ("cribbage", "five-card-cribbage"):
            entry["cribs"] += sum(1 for e in deals if e["dealer"] == seat)
        turn_up, whose = None, None
        for event in events:
            if event["kind"] == "turned_up":
                turn_up = event["card"]
            if event["kind"] == "counting":
                whose = event["reason"]
            if event.get("seat") != seat:
                continue
            if event["kind"] == "scored":
                reason = whose if event["reason"] == "claim" else event["reason"]
                if reason in ("play", "show", "crib"):
                    entry[{"play": "pegging", "show": "hand", "crib": "crib"}[reason]] += event["points"]
            shown = None
            if event["kind"] == "scored" and event["reason"] == "show":
                shown = event["points"]
            elif event["kind"] == "counted" and event["reason"] == "show":
                shown = event["worth"]
            if shown is not None and (entry["best"] is None or shown > entry["best"]["points"]):
                entry["best"] = {"cards": [*event["cards"], turn_up], "points": shown, "game": record["id"]}
        if won and result["skunk"] != "none":
            entry["given"] += 1
            entry["given2"] += result["skunk"] == "double"
        if not won and result["skunk"] != "none":
            side = seat % 2 if record["partnerships"] else seat
            level = judge_skunk([result["scores"][result["winner"]], result["scores"][side]], 0,
                                rules.target, rules.skunk_margins)
            entry["taken"] += level != "none"
            entry["taken2"] += level == "double"
    out = []
    for preset in sorted(per):
        e = per[preset]
        out.append({
            "preset": preset, "family": e["family"], "games": e["games"], "wins": e["wins"],
            "win_rate": round(e["wins"] / e["games"], 3), "deals": e["deals"], "cribs": e["cribs"],
            "points": {"pegging": e["pegging"], "hand": e["hand"], "crib": e["crib"]},
            "per_deal": {"pegging": round(e["pegging"] / e["deals"], 2), "hand": round(e["hand"] / e["deals"], 2),
                         "crib": round(e["crib"] / e["cribs"], 2) if e["cribs"] else None},
            "best_hand": e["best"], "skunks_given": e["given"], "double_skunks_given": e["given2"],
            "skunks_taken": e["taken"], "double_skunks_taken": e["taken2"]})
    return {"presets": out}


def _elo_history(records: list[dict[str, Any]], name: str) -> dict[str, list[dict[str, Any]]]:
    """The rating after each rated game, by doing the Elo arithmetic of PROTOCOL.md again:
    two sides (two players, or partnerships) of registered people (a seat with an account) or
    computers, K = 32, from 1500, a side's rating the mean."""
    ratings: dict[tuple[str, str, str], float] = {}
    history: dict[str, list[dict[str, Any]]] = {}
    for record in sorted(records, key=lambda r: r["id"]):
        if record["players"] != 2 and not record["partnerships"]:
            continue
        if any(s["kind"] != "computer" and s.get("account") is None for s in record["seats"]):
            continue  # a guest sat in it
        family = record["family"]
        who = {s["seat"]: (s["kind"], s["level"] if s["kind"] == "computer" else s["name"]) for s in record["seats"]}
        sides = [[who[s] for s in range(record["players"]) if s % 2 == t] for t in (0, 1)]
        if set(sides[0]) & set(sides[1]):
            continue
        mean = [sum(ratings.get((family, *i), 1500.0) for i in side) / len(side) for side in sides]
        winner = record["result"]["winner"]
        for t, side in enumerate(sides):
            expected = 1 / (1 + 10 ** ((mean[1 - t] - mean[t]) / 400))
            change = 32 * ((t == winner) - expected)
            for identity in side:
                ratings[(family, *identity)] = ratings.get((family, *identity), 1500.0) + change
                if identity == ("human", name):
                    history.setdefault(family, []).append({
                        "game": record["id"], "at": record["finished_at"],
                        "rating": round(ratings[(family, *identity)], 1)})
    return history


# == the tests ===============================================================================

async def test_stats_equal_a_recount_from_the_stored_records(tmp_path: Path) -> None:
    db = tmp_path / "noddy.sqlite3"
    async with running_server(db=str(db)) as server:
        ann, ben = await _seeded_games(server.port)
        listed = (await ann.request({"type": "list_games", "limit": 100}))["games"]
        assert len(listed) == 6
        records = [(await ann.request({"type": "get_game", "game": g["id"]}))["record"] for g in listed]
        for name, client in (("ann", ann), ("ben", ben)):
            stats = await client.request({"type": "stats"})
            assert stats["name"] == name and stats["preset"] is None
            recount = _recount(records, name)
            assert {"presets": like(stats["presets"], recount["presets"])} == recount
            elo = _elo_history(records, name)
            assert stats["ratings"] == [{"family": f, "history": elo[f]} for f in ("noddy", "cribbage") if f in elo]
        # Someone else's, and one family's: the same figures, filtered.
        cribbage = await ann.request({"type": "stats", "name": "ben", "preset": "cribbage"})
        recount = [p for p in _recount(records, "ben")["presets"] if p["family"] == "cribbage"]
        assert like(cribbage["presets"], recount) == recount
        assert [r["family"] for r in cribbage["ratings"]] == ["cribbage"]
        one = await ann.request({"type": "stats", "preset": "noddy"})
        assert [p["preset"] for p in one["presets"]] == ["noddy"] and one["presets"][0]["games"] == 1
        ratings = {r["name"]: r["rating"] for r in
                   (await ann.request({"type": "leaderboard", "family": "cribbage"}))["players"]}
        assert round(stats["ratings"][-1]["history"][-1]["rating"]) == ratings["ben"]
        # Something was counted in every column: the figures were not trivially equal.
        everything = _recount(records, "ann")["presets"]
        assert {p["preset"] for p in everything} == {"cribbage", "noddy", "five-card-cribbage"}
        assert all(p["points"]["pegging"] and p["points"]["hand"] for p in everything)
        assert sum(p["points"]["crib"] for p in everything) > 0
        for client in (ann, ben):
            await client.close()


async def test_stats_refuse_an_unknown_preset_and_answer_a_stranger_with_nothing() -> None:
    async with running_server() as server:
        ann = await Client.connect(server.port)
        await ann.hello("ann")
        refused = await ann.request({"type": "stats", "preset": "bridge"})
        assert refused["type"] == "error" and refused["code"] == "unknown_preset" and refused["field"] == "preset"
        assert await ann.request({"type": "stats", "name": "nobody"}) == {
            "type": "stats", "name": "nobody", "preset": None, "presets": [], "ratings": [], "id": 3}
        await ann.close()


def _play_games(d: Driver) -> list[int]:
    ann, ben = d.connect("ann"), d.connect("ben")
    for conn in (ann, ben):  # only registered people are rated
        d.register(conn)
    d.versus_computer(ann, "cribbage", "greedy", options={"target": 61})
    d.play(ann, random.Random(1))
    d.versus_computer(ben, "noddy", "random")
    d.play(ben, random.Random(2))
    return [ann, ben]


def test_games_stored_before_the_statistics_are_summed_up_once_at_open(tmp_path: Path) -> None:
    # The same games played twice: one database kept statistics from the start; the other was
    # at schema 5 (accounts, no statistics) and is opened by this server, which sums its games up.
    new, old = tmp_path / "new.sqlite3", tmp_path / "old.sqlite3"
    d = Driver(Storage(new))
    ann, _ = _play_games(d)
    expected = d.send(ann, {"type": "stats"})
    assert d.send(d.connect("cat"), {"type": "stats", "name": "ann"})["presets"] == expected["presets"]
    d.storage.close()
    d = Driver(Storage(old, migrations=MIGRATIONS[:5]))
    _play_games(d)
    d.storage.close()
    d = Driver(Storage(old))  # ann's tables are restored with her seats held: cat asks
    got = d.send(d.connect("cat"), {"type": "stats", "name": "ann"})
    assert got["presets"] == expected["presets"] and got["presets"][0]["games"] == 1
    # The ratings of the time were never stored: the backfill gives no rating history.
    assert expected["ratings"] and got["ratings"] == []
    count = d.storage.db.execute("SELECT count(*) FROM game_stats").fetchone()[0]
    d.storage.close()
    d = Driver(Storage(old))  # once: nothing is summed up again
    assert d.storage.db.execute("SELECT count(*) FROM game_stats").fetchone()[0] == count == 4
    d.storage.close()


async def test_stats_by_text_over_a_socket() -> None:
    async with running_server() as server:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port, limit=1 << 20)

        async def line() -> str:
            return (await asyncio.wait_for(reader.readline(), 10)).decode()

        await line()
        writer.write(b"name Ada\nregister a-secret a-secret\nstats\n")  # registered: her game is rated
        while not (text := await line()).startswith("No finished games"):
            pass
        assert text == "No finished games for Ada yet.\n"
        writer.write(b"new noddy target=15\nbot 2 random\nready\n")
        for _ in range(2000):
            text = await line()
            if text.startswith("To play again"):
                break
            match = re.match(r"Your turn \(count \d+\): (play \w\w|go)", text)
            if match:
                writer.write(match.group(1).encode() + b"\n")
        writer.write(b"stats\nstats Ada bridge\n")
        while not (text := await line()).startswith("Statistics of Ada"):
            pass
        ben = await Client.connect(server.port)
        await ben.hello("ben")
        expected = stats_lines(await ben.request({"type": "stats", "name": "Ada"}))
        got = [text.rstrip("\n")] + [(await line()).rstrip("\n") for _ in range(len(expected) - 1)]
        assert got == expected
        assert got[2] == "preset              games  wins   win%    peg   hand   crib    given  taken"
        assert got[3].startswith("noddy                   1     ")
        assert re.fullmatch(r"noddy rating 1[45]\d\d \(after 1 rated game\):", got[-2])  # (issue 33)
        assert re.fullmatch(r"  [▁▂▃▄▅▆▇█]", got[-1])  # one rated game: one block
        assert [await line() for _ in range(3)] == [
            "Error (unknown_preset): no preset or family 'bridge': a preset (noddy,\n",
            "  noddy-ducoeur, noddy-holme, noddy-modern, five-card-cribbage, cribbage) or a\n",
            "  family (noddy, cribbage)\n"]
        writer.close()
        await ben.close()


def test_someone_elses_stats_leave_out_games_at_private_tables(tmp_path: Path) -> None:
    d = Driver(Storage(tmp_path / "noddy.sqlite3"))
    ann = d.connect("ann")
    d.register(ann)  # a private game is its accounts' (and only registered people are rated)
    d.versus_computer(ann, "noddy", "random", private=True, password="pw")
    d.play(ann, random.Random(4))
    d.send(ann, {"type": "leave"})
    d.versus_computer(ann, "noddy", "random")
    d.play(ann, random.Random(5))
    own = d.send(ann, {"type": "stats"})
    assert [(p["preset"], p["games"]) for p in own["presets"]] == [("noddy", 2)]
    seen = d.send(d.connect("cat"), {"type": "stats", "name": "ann"})
    assert [(p["preset"], p["games"]) for p in seen["presets"]] == [("noddy", 1)]
    public = d.send(d.connect("dan"), {"type": "list_games", "name": "ann"})["games"]
    assert [g["private"] for g in public] == [False]
    game = public[0]["id"]
    deals = sum(e["kind"] == "deal_started" for e in d.storage.game_record(game)["opening"]
                + [e for s in d.storage.game_record(game)["steps"] for e in s["events"]])
    assert seen["presets"][0]["deals"] == deals
    assert len(seen["ratings"][0]["history"]) == 1 and len(own["ratings"][0]["history"]) == 2
    d.storage.close()


def test_a_guests_own_stats_leave_out_games_at_private_tables(tmp_path: Path) -> None:
    # A guest's name may be someone else's tomorrow: like its records, a private table's game
    # is not counted in a guest's own statistics; and the games played as a guest are no
    # account's, so registering the name does not make them its (issue 31: an account's
    # figures are its own games only).
    d = Driver(Storage(tmp_path / "noddy.sqlite3"))
    bob = d.connect("bob")
    d.versus_computer(bob, "noddy", "random", private=True, password="pw")
    d.play(bob, random.Random(6))
    assert d.send(bob, {"type": "stats"})["presets"] == []
    d.register(bob)
    assert d.send(bob, {"type": "stats"})["presets"] == []
    d.storage.close()


def test_unregister_clears_the_rating_history_with_the_ratings(tmp_path: Path) -> None:
    # The name's ratings were the account's: whoever registers it later must not see them;
    # nor its figures, which are the account's too (issue 31): the guest "ann" has none.
    d = Driver(Storage(tmp_path / "noddy.sqlite3"))
    ann = d.connect("ann")
    d.register(ann)
    d.versus_computer(ann, "noddy", "random")
    d.play(ann, random.Random(7))
    before = d.send(ann, {"type": "stats"})
    assert [len(r["history"]) for r in before["ratings"]] == [1]
    assert d.send(ann, {"type": "unregister", "password": "a secret"})["type"] == "unregistered"
    after = d.send(ann, {"type": "stats"})
    assert before["presets"] and after["ratings"] == [] and after["presets"] == []
    d.storage.close()
