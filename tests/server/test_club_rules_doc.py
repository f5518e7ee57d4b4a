"""docs/RULES.md's "Club nights" worked example is what the club-night code makes of it: its
games are read from the page's table and played through an event (the byes and the
withdrawal as its sentences say), the pairings the event makes must be the table's, and the
standings it gives must be the page's.  The German and Spanish pages (RULES.de.md,
RULES.es.md) tell the same evening in their words (:data:`PAGES`), checked the same way."""

from __future__ import annotations

import pathlib
import re
from dataclasses import dataclass

import pytest

from noddy.server.model.club_types import OpenTables

from .club_helpers import entered, only, open_tables, play, seat

DOCS = pathlib.Path(__file__).resolve().parents[2] / "docs"


@dataclass(frozen=True)
class ClubWords:
    """How one language's page tells the worked example: its section, the sentences naming
    the entrants, the bye and the withdrawal (each a pattern of (names...) or (name,
    round)), its two tables' headers, how a result and a no-show are written, and its
    words for a skunk and a double skunk."""

    page: str
    heading: str
    event: str              # the sentence saying what event it is (line breaks read as spaces)
    entrants: str
    bye: str
    withdrawal: str
    games: str
    standings: str
    result: re.Pattern[str]
    no_show: re.Pattern[str]
    skunks: dict[str, str]  # the page's word -> the event's


PAGES = {
    "en": ClubWords(
        "RULES.md", "Club nights", "A Swiss of two rounds at `cribbage`, two games a pairing on duplicate",
        r"; (\w+), (\w+), (\w+), (\w+) and (\w+)\s+enter\s+in\s+that\s+order",
        r"(\w+)\s+sits\s+out\s+round\s+(\d+)\.", r"(\w+)\s+withdraws\s+after\s+round\s+(\d+)\.",
        "| round | A | B | game 1 | game 2 |",
        "| place | player | games | wins | skunk wins | byes | points | spread |",
        re.compile(r"(?P<winner>\w+) 121 to (?P<lost>\d+)(?:, a (?P<skunk>double skunk|skunk))?$"),
        re.compile(r"(?P<winner>\w+), (?P<absent>\w+) did not come$"),
        {"skunk": "skunk", "double skunk": "double"}),
    "de": ClubWords(
        "RULES.de.md", "Clubabende",
        "Ein Schweizer System über zwei Runden in `cribbage`, zwei Partien pro Paarung mit Duplicate-Runden",
        r"; (\w+), (\w+), (\w+), (\w+) und (\w+)\s+melden\s+sich\s+in\s+dieser\s+Reihenfolge\s+an",
        r"(\w+)\s+setzt\s+in\s+Runde\s+(\d+)\s+aus\.", r"(\w+)\s+zieht\s+sich\s+nach\s+Runde\s+(\d+)\s+zurück\.",
        "| Runde | A | B | Partie 1 | Partie 2 |",
        "| Platz | Spieler | Partien | Siege | Schneider-Siege | Freilose | Punkte | Spread |",
        re.compile(r"(?P<winner>\w+) 121 zu (?P<lost>\d+)(?:, (?P<skunk>doppelt Schneider|Schneider))?$"),
        re.compile(r"(?P<winner>\w+), (?P<absent>\w+) kam nicht$"),
        {"Schneider": "skunk", "doppelt Schneider": "double"}),
    "es": ClubWords(
        "RULES.es.md", "Noches de club",
        "Un suizo de dos rondas en `cribbage`, dos partidas por emparejamiento con manos duplicadas",
        r"se\s+inscriben\s+(\w+), (\w+), (\w+), (\w+)\s+y\s+(\w+),\s+en\s+ese\s+orden",
        r"(\w+)\s+descansa\s+en\s+la\s+ronda\s+(\d+)\.", r"(\w+)\s+se\s+retira\s+tras\s+la\s+ronda\s+(\d+)\.",
        "| ronda | A | B | partida 1 | partida 2 |",
        "| puesto | jugador | partidas | victorias | victorias con zapatero | descansos | puntos | diferencia |",
        re.compile(r"(?P<winner>\w+) 121 a (?P<lost>\d+)(?:, (?P<skunk>doble zapatero|zapatero))?$"),
        re.compile(r"(?P<winner>\w+), (?P<absent>\w+) no se presentó$"),
        {"zapatero": "skunk", "doble zapatero": "double"}),
}


def _section(words: ClubWords) -> str:
    text = (DOCS / words.page).read_text()
    return text[text.index(f"\n## {words.heading}\n"):].split("\n## ")[1]


def _table(section: str, header: str) -> list[list[str]]:
    lines = section[section.index(header):].splitlines()
    rows = []
    for line in lines[2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


@pytest.mark.parametrize("language", PAGES)
def test_the_worked_example_is_what_the_club_night_code_gives(language: str) -> None:
    words = PAGES[language]
    section = _section(words)
    names = re.search(words.entrants, section)
    assert names is not None
    games = _table(section, words.games)
    byes = {int(number): name for name, number in re.findall(words.bye, section)}
    withdrawals = {int(number): name for name, number in re.findall(words.withdrawal, section)}
    rounds = max(int(row[0]) for row in games)
    assert words.event in " ".join(section.split()) and rounds == 2
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
            absent = [m["absent"] for m in map(words.no_show.match, cells) if m]
            if absent:
                seat(event, now, number, board, [name for name in (a, b) if name not in absent])
                continue
            results = []
            for cell in cells:
                found = words.result.match(cell)
                assert found is not None, cell
                skunk = words.skunks.get(found["skunk"] or "", "none")
                results.append((found["winner"], 121, int(found["lost"]), skunk))
            play(event, now + 10.0, number, board, results)
        now += 60.0
        effects = event.tick(now)  # the no-shows forfeit; the round ends
        if number in withdrawals:
            event.withdraw(now, withdrawals[number])
        now += 30.0
        effects += event.tick(now)  # the next round begins
    assert event.state == "finished"
    page = _table(section, words.standings)
    code = [[str(row["rank"]), row["name"], str(row["games"]), str(row["wins"]), str(row["skunk_wins"]),
             str(row["byes"]), str(row["points"]), f"{row['spread']:+d}" if row["spread"] else "0"]
            for row in event.standings()["rows"]]
    assert page == code
