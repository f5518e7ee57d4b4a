"""docs/RULES.md's "Club nights" worked example is what the club-night code makes of it: its
games are read from the page's table and played through an event (the byes and the
withdrawal as its sentences say), the pairings the event makes must be the table's, and the
standings it gives must be the page's."""

from __future__ import annotations

import pathlib
import re

from noddy.server.model.club_types import OpenTables

from .club_helpers import entered, only, open_tables, play, seat

RULES = pathlib.Path(__file__).resolve().parents[2] / "docs" / "RULES.md"
RESULT = re.compile(r"(?P<winner>\w+) 121 to (?P<lost>\d+)(?:, a (?P<skunk>double skunk|skunk))?$")
NO_SHOW = re.compile(r"(?P<winner>\w+), (?P<absent>\w+) did not come$")


def _section() -> str:
    text = RULES.read_text()
    return text[text.index("\n## Club nights\n"):].split("\n## ")[1]


def _table(section: str, header: str) -> list[list[str]]:
    lines = section[section.index(header):].splitlines()
    rows = []
    for line in lines[2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def test_the_worked_example_is_what_the_club_night_code_gives() -> None:
    section = _section()
    names = re.search(r"; (\w+), (\w+), (\w+), (\w+) and (\w+)\s+enter\s+in\s+that\s+order", section)
    assert names is not None
    games = _table(section, "| round | A | B | game 1 | game 2 |")
    byes = {int(number): name for name, number in re.findall(r"(\w+)\s+sits\s+out\s+round\s+(\d+)\.", section)}
    withdrawals = {int(number): name for name, number in re.findall(r"(\w+)\s+withdraws\s+after\s+round\s+(\d+)\.",
                                                                          section)}
    rounds = max(int(row[0]) for row in games)
    assert "A Swiss of two rounds at `cribbage`, two games a pairing on duplicate" in section and rounds == 2
    assert (byes, withdrawals) == ({1: "Eve"}, {1: "Dan"})  # (the sentences are read, wherever lines break)
    event = entered(list(names.groups()), preset="cribbage", rounds=rounds, games_per_pairing=2, duplicate=True,
                    forfeit_wait=60.0, round_pause=30.0)
    now = 0.0
    effects = event.start(now, "dir")
    for number in range(1, rounds + 1):
        (opening,) = only(effects, OpenTables)
        mine = [row for row in games if int(row[0]) == number]
        assert [(b.a, b.b) for b in opening.boards] == [(row[1], row[2]) for row in mine]
        assert opening.bye == byes.get(number)
        open_tables(event, now, effects, 10 * number)
        for board, (_, a, b, *cells) in enumerate(mine, start=1):
            absent = [m["absent"] for m in map(NO_SHOW.match, cells) if m]
            if absent:
                seat(event, now, number, board, [name for name in (a, b) if name not in absent])
                continue
            results = []
            for cell in cells:
                found = RESULT.match(cell)
                assert found is not None, cell
                skunk = {"skunk": "skunk", "double skunk": "double"}.get(found["skunk"] or "", "none")
                results.append((found["winner"], 121, int(found["lost"]), skunk))
            play(event, now + 10.0, number, board, results)
        now += 60.0
        effects = event.tick(now)  # the no-shows forfeit; the round ends
        if number in withdrawals:
            event.withdraw(now, withdrawals[number])
        now += 30.0
        effects += event.tick(now)  # the next round begins
    assert event.state == "finished"
    page = _table(section, "| place | player | games | wins | skunk wins | byes | points | spread |")
    code = [[str(row["rank"]), row["name"], str(row["games"]), str(row["wins"]), str(row["skunk_wins"]),
             str(row["byes"]), str(row["points"]), f"{row['spread']:+d}" if row["spread"] else "0"]
            for row in event.standings()["rows"]]
    assert page == code
