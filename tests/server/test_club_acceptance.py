"""The finishing test of club nights (issue 35, "Done when"), over real sockets: a Swiss of
three rounds on duplicate deals with five people -- three JSON clients and two on text
connections, as on ``nc`` -- and three bots (JSON clients that said ``bot: true``; the
server enters no computers of its own), with

* a no-show: eve enters and goes away; round 1 pairs her with dan, and when the injected
  clock passes ``forfeit_wait`` she forfeits both games of the pairing;
* the director removes her, so the field of seven gives a bye in rounds 2 and 3;
* a person on a text connection drops in the middle of a round-2 game (the seat is held)
  and comes back with ``resume TOKEN``;
* round 2's bye watches a board to its end;
* the server restarts in the middle of round 3 (every board's first game played, the
  second in its first deal, the crib laid away), on a database in a temporary file, and
  the event comes back with its tables and seats: everyone resumes, the round is played out;

and then the final cross-table (the ``event`` reply's standings: games, wins, skunk wins,
points, spread of each entrant, and the order) checked against the games' records
(``list_games`` / ``get_game`` with their ``event``), worked out again here from the
records, the forfeit and the byes -- not read from the server's standings.

Five-card Cribbage to 61 keeps it short (a game is some seventy actions of random legal
play) while a skunk is possible (below 31).
"""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path
from typing import Any, Awaitable, Callable

from .club_play import acc_points, core, person, play_board, records_of
from .harness import Client, play_out, running_server, text_connection, text_line

TITLE = "Friday club"
#: Who enters, in this order (round 1 pairs them two by two: ann v robo1, ..., dan v eve).
ENTRY = ("ann", "robo1", "ben", "robo2", "cal", "robo3", "dan", "eve")
TEXT_PEOPLE = ("ben", "cal")
BOTS = ("robo1", "robo2", "robo3")
NO_SHOW = "eve"
GAMES = 2
FORFEIT_WAIT, ROUND_PAUSE = 60.0, 30.0
#: Each entrant's loopback address (a test's stand-in for its own host).
SOURCES = {name: f"127.0.0.{10 + i}" for i, name in enumerate(ENTRY)}
#: Storage queries one address may make at once: the director reads every game's record
#: (a ``list_games`` an entrant and a ``get_game`` a game), more than the default burst.
QUERY_BURST = 100
#: A game's last line in text mode, a skunk or not ("ben wins the game, 65 to 30, a skunk!").
GAME_OVER = re.compile(r".+ wins? the game, \d+ to [\d to]+(, a (double )?skunk)?!$")
#: How long a wait for the server to notice a closed connection may take (polls of 10 ms).
AWAY_POLLS = 500


class JsonEntrant:
    """A person's or a bot's JSON client that plays its boards with random legal moves."""

    def __init__(self, name: str, client: Client, seed: int) -> None:
        self.name, self.client, self.rng = name, client, random.Random(seed)
        self.bot = name in BOTS

    @classmethod
    async def connect(cls, port: int, name: str, seed: int) -> "JsonEntrant":
        return cls(name, await person(port, name, SOURCES[name], bot=name in BOTS), seed)

    async def enter(self) -> None:
        assert (await self.client.request({"type": "join_event", "event": 1}))["type"] == "ok"

    async def seated(self, round_: int) -> dict[str, Any]:
        """Where the round seats this entrant (``event_table``: it is seated there at once)."""
        told = await self.client.recv_until(lambda m: m["type"] == "event_table" and m["round"] == round_)
        return {key: told[key] for key in ("round", "board", "table", "seat", "opponent")}

    async def play_board(self) -> int:
        return await play_board(self.client, self.rng)

    async def play_game(self) -> None:
        await play_out(self.client, self.rng)

    async def lay_away(self) -> None:
        """Play on until the deal's turn-up (both have laid away to the crib), then stop."""
        await play_out(self.client, self.rng, stop_after=lambda m: m["type"] == "event" and
                       m["event"]["kind"] == "turned_up")

    async def watch(self, table: int) -> None:
        reply = await self.client.request({"type": "spectate", "table": table})
        assert (reply["type"], reply["table"]["id"], reply["table"]["event"]["board"]) == ("table", table, 1), reply

    async def watched(self, table: int) -> None:
        """The watched board's game went on to its end, and its table closed."""
        closed = await self.client.recv_until(lambda m: m["type"] == "table_closed")
        assert (closed["table"], closed["reason"]) == (table, "event_board")
        assert any(m["type"] == "event" and m["event"]["kind"] == "game_over" for m in self.client.received)

    async def come_back(self, port: int) -> dict[str, Any]:
        """A new connection that takes back the session with its resume token: the welcome."""
        token = self.client.token
        await self.client.close()
        self.client = await Client.connect(port, SOURCES[self.name])
        welcome = await self.client.hello(self.name, resume=token, bot=self.bot)
        assert welcome["resumed"] is True, welcome
        return welcome

    async def close(self) -> None:
        await self.client.close()


class TextEntrant:
    """A person on a text connection at width 1000 (a message is a line), who answers every
    turn with a legal move chosen at random from those the line offers."""

    TURN = re.compile(r"Your turn \(count \d+\): (.+)$")
    DISCARD = re.compile(r"Your discard: .*\(type (discard [2-9TJQKA][SHDC] [2-9TJQKA][SHDC]), or")

    def __init__(self, name: str, seed: int) -> None:
        self.name, self.rng = name, random.Random(seed)
        self.lines: list[str] = []
        self.token = ""
        self.table: int | None = None
        self.reader: asyncio.StreamReader
        self.writer: asyncio.StreamWriter

    async def connect(self, port: int, first: str, table: int | None = None) -> None:
        """Connect and say ``first`` (``name NAME`` or ``resume TOKEN``); keeps the token."""
        self.reader, self.writer = await text_connection(port)
        self.say(f"width 1000\n{first}")
        assert await self.line() == "Lines are wrapped at 1000 columns now."
        back = "" if table is None else f" You are back at table {table}."
        welcome = await self.until("Welcome")
        match = re.fullmatch(rf"Welcome, {self.name}!{back} Your resume token is (\S+)\.", welcome)
        assert match, welcome
        self.token = match.group(1)

    def say(self, text: str) -> None:
        self.writer.write(text.encode() + b"\n")

    async def line(self) -> str:
        raw = await text_line(self.reader)
        if not raw:
            raise EOFError(f"the server closed {self.name}'s connection")
        line = raw.rstrip("\n")
        self.lines.append(line)
        return line

    async def until(self, start: str) -> str:
        while not (line := await self.line()).startswith(start):
            pass
        return line

    async def enter(self) -> None:
        self.say("enter 1")
        assert await self.until("Club night 1:") == f"Club night 1: {self.name} entered {TITLE}."

    async def seated(self, round_: int) -> dict[str, Any]:
        line = await self.until(f"Club night 1, round {round_}: your table is")
        match = re.match(rf"Club night 1, round {round_}: your table is (\d+), seat (\d), against (\S+) "
                         rf"\({GAMES} games\)\. You are seated there now", line)
        assert match, line
        self.table = int(match.group(1))
        return {"round": round_, "table": self.table, "seat": int(match.group(2)) - 1, "opponent": match.group(3)}

    async def play(self, stop: Callable[[str], bool], answer: bool = True) -> int:
        """Answer each turn until a line ``stop`` is true of; the games seen over."""
        games = 0
        while not stop(line := await self.line()):
            games += bool(GAME_OVER.match(line))
            if not answer:
                continue
            if turn := self.TURN.match(line):
                self.say(self.rng.choice(turn.group(1).split(" | ")))
            elif discard := self.DISCARD.match(line):
                self.say(discard.group(1))
        return games + bool(GAME_OVER.match(line))

    async def play_board(self) -> int:
        games = await self.play(lambda line: line.startswith(f"Table {self.table} is closed: the club night's "
                                                             "board is over"))
        self.table = None
        return games

    async def play_game(self) -> None:
        await self.play(lambda line: bool(GAME_OVER.match(line)))

    async def lay_away(self) -> None:
        await self.play(lambda line: line.startswith("Turn-up: "))

    async def drop_and_come_back(self, port: int, noticed: Callable[[], Awaitable[None]]) -> int:
        """Drop at the first turn of the board's first game, come back once the server has
        noticed, and play the board out: the games played."""
        await self.play(lambda line: bool(self.TURN.match(line) or self.DISCARD.match(line)), answer=False)
        self.writer.close()
        await noticed()
        await self.come_back(port)
        return await self.play_board()

    async def watch(self, table: int) -> None:
        self.say(f"watch {table}")
        assert (await self.until(f"Table {table} ")).startswith(f"Table {table} five-card-cribbage 2p")

    async def watched(self, table: int) -> None:
        """The watched board's game went on to its end, and its table closed."""
        await self.play(lambda line: bool(GAME_OVER.match(line)), answer=False)
        await self.until(f"Table {table} is closed: the club night's board is over")

    async def come_back(self, port: int) -> None:
        """A new connection that says ``resume TOKEN``: welcomed back at the table."""
        self.writer.close()
        await self.connect(port, f"resume {self.token}", self.table)

    async def close(self) -> None:
        self.writer.close()

    def errors(self) -> list[str]:
        return [line for line in self.lines if line.startswith("Error")]


Entrant = JsonEntrant | TextEntrant


async def news(client: Client, kind: str, start: str = "") -> dict[str, Any]:
    """The ``event_news`` of ``kind`` whose text begins with ``start``, already read or the next."""
    def wanted(message: dict[str, Any]) -> bool:
        return message["type"] == "event_news" and message["kind"] == kind and message["text"].startswith(start)
    return next((m for m in client.received if wanted(m)), None) or await client.recv_until(wanted)


async def round_begun(director: Client, number: int) -> tuple[set[str], str | None, list[int]]:
    """Round ``number`` has begun (its news): who plays a board in it, who has the bye, and
    the boards' tables."""
    await news(director, "round", f"round {number}:")
    shown = (await director.request({"type": "event", "event": 1}))["event"]
    this = shown["rounds_played"][number - 1]
    return ({name for b in this["boards"] for name in (b["a"], b["b"])}, this["bye"],
            [b["table"] for b in this["boards"]])


class Evening:
    """The club night as the test follows it: the injected clock, the director's client,
    the entrants, and every ``event_table`` an entrant read (with its name)."""

    def __init__(self, now: list[float]) -> None:
        self.now = now
        self.director: Client
        self.entrants: dict[str, Entrant] = {}
        self.told: list[dict[str, Any]] = []
        self.byes: list[str] = []

    async def seat(self, number: int, names: set[str]) -> dict[str, Entrant]:
        """Those of ``names`` who play round ``number``, once each has been told where."""
        playing = {name: e for name, e in self.entrants.items() if name in names}
        seats = await asyncio.gather(*(e.seated(number) for e in playing.values()))
        self.told += [{**seat, "name": name} for name, seat in zip(playing, seats)]
        return playing

    async def announce_and_enter(self, port: int) -> None:
        self.director = director = await person(port, "tom", "127.0.0.9")
        assert (await director.request({"type": "register", "password": "sesame"}))["type"] == "registered"
        reply = await director.request({"type": "announce_event", "title": TITLE, "format": "swiss", "rounds": 3,
                                        "preset": "five-card-cribbage", "games": GAMES,
                                        "forfeit_wait": FORFEIT_WAIT, "round_pause": ROUND_PAUSE})
        assert (reply["event"]["id"], reply["event"]["duplicate"]) == (1, True)
        for seed, name in enumerate(ENTRY):
            if name in TEXT_PEOPLE:
                self.entrants[name] = TextEntrant(name, seed)
                await self.entrants[name].connect(port, f"name {name}")
            else:
                self.entrants[name] = await JsonEntrant.connect(port, name, seed)
            await self.entrants[name].enter()
        await self.entrants.pop(NO_SHOW).close()  # eve never comes to her table
        shown = (await director.request({"type": "event", "event": 1}))["event"]
        assert [(e["name"], e["kind"]) for e in shown["entrants"]] == [
            (name, "bot" if name in BOTS else "person") for name in ENTRY]

    async def round_one(self) -> None:
        """Four boards; dan's opponent never comes and forfeits when the wait is over; the
        director removes her in the pause after the round."""
        director = self.director
        assert (await director.request({"type": "direct_event", "event": 1, "command": "start"}))["type"] == "ok"
        playing = await self.seat(1, set(ENTRY))
        assert [(s["name"], s["opponent"]) for s in self.told if s["name"] in ("ann", "ben", "cal", "dan")] == [
            ("ann", "robo1"), ("ben", "robo2"), ("cal", "robo3"), ("dan", "eve")]
        self.now[0] += FORFEIT_WAIT + 1
        played = await asyncio.gather(*(e.play_board() for e in playing.values()))
        assert dict(zip(playing, played)) == {name: 0 if name == "dan" else GAMES for name in playing}
        assert (await news(director, "forfeit"))["text"] == "round 1 board 4: eve forfeits (no-show)"
        await news(director, "round-over", "round 1 is over")
        reply = await director.request({"type": "direct_event", "event": 1, "command": "remove", "name": NO_SHOW})
        assert reply["type"] == "ok"
        self.now[0] += ROUND_PAUSE

    async def round_two(self, port: int) -> None:
        """Seven left, so a bye; a person on a text connection drops in the middle of a
        game, the seat held, and comes back with their resume token."""
        director = self.director
        names, bye, tables = await round_begun(director, 2)
        assert bye is not None and names | {bye} == set(self.entrants)
        self.byes.append(bye)
        watcher = self.entrants[bye]  # sits out, and watches board 1
        await watcher.watch(tables[0])
        dropper = next(name for name in TEXT_PEOPLE if name in names)

        async def noticed() -> None:
            """The server has seen the dropper's connection close: their seat shows away."""
            for _ in range(AWAY_POLLS):
                reply = await director.request({"type": "list_tables"})
                if any(seat is not None and seat["name"] == dropper and not seat["connected"]
                       for table in reply["tables"] for seat in table["seats"]):
                    return
                await asyncio.sleep(0.01)
            raise AssertionError(f"the server never noticed {dropper} go")

        async def play(name: str, entrant: Entrant) -> int:
            if name == dropper:
                assert isinstance(entrant, TextEntrant)
                return await entrant.drop_and_come_back(port, noticed)
            return await entrant.play_board()

        playing = await self.seat(2, names)
        assert await asyncio.gather(*(play(name, e) for name, e in playing.items())) == [GAMES] * 6
        (seat,) = [s for s in self.told if (s["round"], s["name"]) == (2, dropper)]
        opponent = self.entrants[seat["opponent"]]
        seat_news = ("player_away", "player_back")
        heard = ([(m["type"], m["name"]) for m in opponent.client.received if m["type"] in seat_news]
                 if isinstance(opponent, JsonEntrant) else
                 [line for line in opponent.lines if line.startswith(f"{dropper} (seat")])
        assert len(heard) == 2, heard  # the seat was held, and taken back
        await watcher.watched(tables[0])
        over = await news(director, "round-over", "round 2 is over")
        assert over["text"] == "round 2 is over; round 3 begins in 30 seconds"
        self.now[0] += ROUND_PAUSE

    async def round_three_until_the_restart(self) -> dict[str, Entrant]:
        """Every board plays its first game and the second as far as its first turn-up (both
        players laid away to the crib; the play is to begin); the server then stops."""
        names, bye, _ = await round_begun(self.director, 3)
        assert bye not in (None, *self.byes)
        self.byes.append(bye)
        playing = await self.seat(3, names)
        await asyncio.gather(*(e.play_game() for e in playing.values()))
        await asyncio.gather(*(e.lay_away() for e in playing.values()))
        await news(self.director, "bye", f"{bye} sits out round 3")
        told = [m["text"] for m in self.director.received if m["type"] == "event_news" and m["kind"] == "bye"]
        assert told == [f"{self.byes[0]} sits out round 2 (a bye)", f"{bye} sits out round 3 (a bye)"]
        await self.director.close()
        return playing

    async def round_three_after_the_restart(self, port: int, playing: dict[str, Entrant]) -> None:
        """The event is back where it was, its boards at the same tables with their seats
        as the event put them (game 2: B first); everyone takes their seat back and plays on."""
        self.director = director = await person(port, "tom", "127.0.0.9", password="sesame")
        shown = (await director.request({"type": "event", "event": 1}))["event"]
        restored = shown["rounds_played"][2]["boards"]
        assert (shown["state"], shown["round"]) == ("running", 3)
        assert [(b["status"], len(b["games"])) for b in restored] == [("playing", 1)] * 3
        assert {b["table"] for b in restored} == {s["table"] for s in self.told if s["round"] == 3}
        for name, entrant in playing.items():  # (the bye, in the lobby, has no seat to take back)
            welcome = await entrant.come_back(port)
            (seat,) = [s for s in self.told if (s["round"], s["name"]) == (3, name)]
            if welcome is not None:
                assert (welcome["table"], welcome["seat"]) == (seat["table"], 1 - seat["seat"])
        assert await asyncio.gather(*(e.play_board() for e in playing.values())) == [1] * 6
        finished = await news(director, "finished")
        assert finished["text"] == f"{TITLE} is over: every round is played"


async def test_a_swiss_of_people_and_bots_to_its_final_cross_table(tmp_path: Path) -> None:
    db = str(tmp_path / "club.sqlite3")
    evening = Evening([1000.0])
    async with running_server(core=core(evening.now, db=db, query_burst_per_address=QUERY_BURST)) as server:
        await evening.announce_and_enter(server.port)
        await evening.round_one()
        await evening.round_two(server.port)
        playing = await evening.round_three_until_the_restart()
    for entrant in playing.values():
        if isinstance(entrant, TextEntrant):
            assert await entrant.until(f"Table {entrant.table} is ") == (
                f"Table {entrant.table} is put away: the server is shutting down; the table is kept and will "
                "be back when it starts again.")
    async with running_server(core=core(evening.now, db=db, query_burst_per_address=QUERY_BURST)) as server:
        await evening.round_three_after_the_restart(server.port, playing)
        director = evening.director
        final = (await director.request({"type": "event", "event": 1}))["event"]
        records = await records_of(director, list(ENTRY))
        _check_records(records, evening.told)
        expected = _cross_table(list(records.values()), evening.byes)
        rows = final["standings"]["rows"]
        assert {row["name"]: {key: row[key] for key in expected[row["name"]]} for row in rows} == expected
        order = sorted(ENTRY, key=lambda n: (-expected[n]["points"], -expected[n]["spread"], ENTRY.index(n)))
        assert [(row["rank"], row["name"]) for row in rows] == list(enumerate(order, start=1))
        assert {row["name"]: (row["byes"], row["forfeits"], row["status"]) for row in rows
                if row["name"] in ("eve", *evening.byes)} == {
            "eve": (0, GAMES, "removed"), **{name: (1, 0, "entered") for name in evening.byes}}
        # A person at a terminal reads the same cross-table.
        reader = next(e for e in playing.values() if isinstance(e, TextEntrant))
        await reader.until(f"Club night 1: {TITLE} is over")
        reader.say("event 1")
        await reader.until("Standings, after round 3")
        assert (await reader.line()).split()[:2] == ["#", "name"]
        read = [(await reader.line()).split() for _ in ENTRY]
        assert {cells[1]: dict(zip(("games", "wins", "skunk_wins", "points", "spread"), map(int, cells[10:15])))
                for cells in read} == expected
        # Records and statistics name the event.
        rows = (await director.request({"type": "list_games", "name": "dan"}))["games"]
        assert [row["event"]["id"] for row in rows] == [1] * 4
        for name in ("dan", "robo1", "eve"):
            stats = await director.request({"type": "stats", "name": name})
            place = next(row["rank"] for row in final["standings"]["rows"] if row["name"] == name)
            assert [(e["event"], e["state"], e["place"], e["entrants"]) for e in stats["events"]] == [
                (1, "finished", place, 8)]
        for entrant in evening.entrants.values():
            if isinstance(entrant, TextEntrant):
                assert entrant.errors() == [], entrant.errors()
                # A board's table is the event's: nobody else sits there, so the lobby's news
                # never offers it ("Table 5 has a free seat (type join 5)" would be refused).
                assert [line for line in entrant.lines if "has a free seat" in line] == []
            await entrant.close()
        await director.close()
    # The final table is kept with the event: after another restart it reads the same.
    async with running_server(core=core(evening.now, db=db)) as server:
        director = await person(server.port, "tom", "127.0.0.9", password="sesame")
        kept = await director.request({"type": "event", "event": 1})
        assert (kept["type"], kept["event"]["state"], kept["event"]["standings"]) == (
            "club_event", "finished", final["standings"])
        listed = (await director.request({"type": "events"}))["events"]
        assert [(e["id"], e["state"], e["round"], e["rounds"]) for e in listed] == [(1, "finished", 3, 3)]
        await director.close()


def _check_records(records: dict[int, dict[str, Any]], told: list[dict[str, Any]]) -> None:
    """Each game's record names the event, round and board its players were told (a JSON
    client's ``event_table`` says the board), at that table, with those two players; every
    board played its games on the round's duplicate deal (the same seeds at every board of
    a round, each deal played both ways); board 4 of round 1, forfeited, has no game."""
    boards: dict[int, dict[str, Any]] = {}
    for seat in told:
        board = boards.setdefault(seat["table"], {"round": seat["round"], "names": set()})
        board["names"] |= {seat["name"], seat["opponent"]}
        if "board" in seat:
            board["board"] = seat["board"]
    by_table: dict[int, list[dict[str, Any]]] = {}
    for record in sorted(records.values(), key=lambda r: r["id"]):
        by_table.setdefault(record["table"], []).append(record)
        board = boards[record["table"]]
        assert {s["name"] for s in record["seats"]} == board["names"]
        event = record["event"]
        assert (event["id"], event["title"], event["round"]) == (1, TITLE, board["round"])
        assert event["board"] == board.get("board", event["board"])
    assert [len(games) for games in by_table.values()] == [GAMES] * 9  # three boards a round played
    for number in (1, 2, 3):
        deals = {tuple(r["seed"] for r in games) for games in by_table.values() if games[0]["event"]["round"] == number}
        (deal,) = deals
        assert deal[0] == deal[1]
    assert {r["event"]["board"] for r in records.values() if r["event"]["round"] == 1} == {1, 2, 3}


def _cross_table(records: list[dict[str, Any]], byes: list[str]) -> dict[str, dict[str, int]]:
    """Each entrant's games, wins, skunk wins, ACC points (2 a win, 3 a skunk win, each bye
    a plain win of each game) and spread, from the games' records, eve's no-show (a win for
    dan of each game, margin 0) and the byes."""
    expected = {name: {"games": 0, "wins": 0, "skunk_wins": 0, "points": 0, "spread": 0} for name in ENTRY}
    for name, (points, spread) in acc_points(records).items():
        expected[name]["points"], expected[name]["spread"] = points, spread
    for record in records:
        names = [seat["name"] for seat in sorted(record["seats"], key=lambda s: s["seat"])]
        winner = names[record["result"]["winner"]]
        for name in names:
            expected[name]["games"] += 1
        expected[winner]["wins"] += 1
        expected[winner]["skunk_wins"] += record["result"].get("skunk", "none") != "none"
    for _ in range(GAMES):
        expected["dan"]["games"] += 1
        expected["eve"]["games"] += 1
        expected["dan"]["wins"] += 1
        expected["dan"]["points"] += 2
    for name in byes:
        expected[name]["points"] += 2 * GAMES
    return expected
