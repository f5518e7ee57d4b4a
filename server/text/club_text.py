"""Club nights in text mode (issue 35): the commands a person types at a terminal for them,
read into the requests the core declares (``events``, ``event``, ``join_event``,
``withdraw_event``, ``announce_event``, ``direct_event``), and the replies and pushes those
bring (``club_events``, ``club_event``, ``event_news``, ``event_table``) as lines.

Apart from :mod:`.commands` and :mod:`.render` because a club night is a world of its own
(a forgiving one-line ``announce``, a cross-table) and those modules are about the rest;
:mod:`.commands` declares the commands with the readers here, and :mod:`.render` hands the
club messages to :func:`club_text`.

The standings are a table that fits the reader's width (80 columns unless they said
otherwise): a name longer than its column is cut with ``~`` rather than the line wrapped,
since a wrapped row of a table no longer reads as a row.

>>> read_announce("announce", "swiss 3 cribbage games 2 rated title Tuesday club".split(), "")
{'type': 'announce_event', 'format': 'swiss', 'rounds': 3, 'preset': 'cribbage', 'games': 2, 'rated': True, 'title': 'Tuesday club'}
>>> read_direct("direct", ["1", "pause", "30"], "1 pause 30")
{'type': 'direct_event', 'event': 1, 'command': 'round_pause', 'seconds': 30.0}
"""

from __future__ import annotations

import math
import time
from typing import Any

from noddy.engine import PRESETS
from noddy.protocol import ProtocolError
from noddy.protocol.i18n import N_, Phrase, _, ngettext, pgettext

#: The words that name a format in ``announce``, and the format they stand for.
FORMATS = {"swiss": "swiss", "robin": "round-robin", "round-robin": "round-robin", "roundrobin": "round-robin",
           "rr": "round-robin"}
#: The director's commands as typed after ``direct N`` (``pause SECONDS`` is ``round_pause``).
DIRECTIONS = ("start", "pause", "resume", "end", "remove")
#: The fewest columns a name keeps in the standings before the line is let run over the
#: width: a name cut shorter than this no longer says who it is.
MIN_NAME_COLUMN = 8
#: How many of a board's games are told one by one on its line (more are counted).
GAMES_TOLD = 4

ANNOUNCE_USAGE = N_("announce swiss ROUNDS [PRESET] [games N] [single] [start MINUTES] [rated] "
                     "[password PW] [title WORDS], or announce robin and the same words")
DIRECT_USAGE = N_("direct N start|pause|resume|end, direct N remove NAME, or direct N pause SECONDS")

#: ``help`` entries: the list's line, and what ``help events`` / ``help announce`` / ``help
#: direct`` tell (their English broken into lines by ``\n``: see :mod:`.help`).
BRIEF = (N_("events | event N | enter N"), N_("club nights: the list | one | enter (help events)"))
EVENTS_HELP = (N_("events | event N | enter N [PASSWORD] | withdraw N"),
               N_("club nights (tournaments the server runs): the list | one: its entrants,\n"
                  "the boards of its round (watch TABLE) and the standings | enter it (a\n"
                  "private one with its password) | withdraw (a pairing not played is\n"
                  "forfeited). When your round begins you are seated at your table\n"
                  "and the games deal themselves. A registered name announces one\n"
                  "(help announce) and directs it (help direct)."))
ANNOUNCE_HELP = (N_("announce swiss ROUNDS [PRESET] ... | announce robin [PRESET] ..."),
                 N_("announce a club night you direct (PRESET: cribbage unless you say);\n"
                    "after it, in any order: games N (games a pairing, 2 at first),\n"
                    "single (each board its own deals, not duplicate), start MINUTES\n"
                    "(else it starts when you say: direct N start), rated, password PW\n"
                    "(a private club), wait SECONDS (to come to one's table), pause\n"
                    "SECONDS (between rounds), opt=value (the table's options), and last\n"
                    "title WORDS. E.g. announce swiss 3 cribbage games 2 title Tuesday club"))
DIRECT_HELP = (N_("direct N start|pause|resume|end | direct N remove NAME | direct N pause S"),
               N_("the director's controls: start the club night | pause it (no new\n"
                  "round, no forfeits) | resume | end it early | remove an entrant |\n"
                  "set the pause between rounds to S seconds"))


def _number(word: str, what: str) -> int:
    try:
        return int(word.lstrip("#"))
    except ValueError:
        raise ProtocolError("bad_field", f"{what} must be a number, not {word!r}", field=what) from None


def _seconds(word: str, what: str) -> float:
    try:
        return float(word)
    except ValueError:
        raise ProtocolError("bad_field", f"{what} must be a number of seconds, not {word!r}", field=what) from None


def read_events(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    return None if args else {"type": "events"}


def read_event(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    return {"type": "event", "event": _number(args[0], "event")} if len(args) == 1 else None


def read_enter(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    if len(args) not in (1, 2):
        return None
    request: dict[str, Any] = {"type": "join_event", "event": _number(args[0], "event")}
    return request if len(args) == 1 else {**request, "password": args[1]}


def read_withdraw(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    return {"type": "withdraw_event", "event": _number(args[0], "event")} if len(args) == 1 else None


def read_direct(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    """``direct N start|pause|resume|end``, ``direct N remove NAME`` (a name may hold
    spaces: the rest of the line), ``direct N pause SECONDS``."""
    if len(args) < 2 or args[1].lower() not in DIRECTIONS:
        return None
    request: dict[str, Any] = {"type": "direct_event", "event": _number(args[0], "event"),
                               "command": args[1].lower()}
    if request["command"] == "remove":
        name = rest.split(None, 2)[2] if len(args) > 2 else ""
        return {**request, "name": name.strip()} if name.strip() else None
    if request["command"] == "pause" and len(args) == 3:
        return {**request, "command": "round_pause", "seconds": _seconds(args[2], "seconds")}
    return request if len(args) == 2 else None


def _announce_words(args: list[str]) -> tuple[list[str], str | None]:
    """The words of an ``announce`` before ``title``, and the title (None: none given)."""
    for index, word in enumerate(args):
        if word.lower() == "title":
            return args[:index], " ".join(args[index + 1:]) or None
    return args, None


def read_announce(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    """The forgiving one-line ``announce`` (see :data:`ANNOUNCE_HELP`): a format word, a
    Swiss's number of rounds, a preset and the keywords in any order, the title last.  A
    word it does not know is named in the error, with what it takes."""
    words, title = _announce_words(args)
    if not args:
        return None
    request: dict[str, Any] = {"type": "announce_event"}
    options: dict[str, Any] = {}
    index = 0

    def value(what: str) -> str:
        nonlocal index
        index += 1
        if index >= len(words):
            raise ProtocolError("missing_field", f"{words[index - 1]} needs a value after it: write "
                                f"{what}; type help announce", field=what.split()[0])
        return words[index]

    while index < len(words):
        word, lowered = words[index], words[index].lower()
        if lowered in FORMATS and "format" not in request:
            request["format"] = FORMATS[lowered]
        elif lowered.isdigit() and request.get("format") == "swiss" and "rounds" not in request:
            request["rounds"] = int(lowered)
        elif lowered in PRESETS and "preset" not in request:
            request["preset"] = lowered
        elif lowered == "games":
            request["games"] = _number(value("games N"), "games")
        elif lowered == "single":
            request["duplicate"] = False
        elif lowered == "duplicate":
            request["duplicate"] = True
        elif lowered == "rated":
            request["rated"] = True
        elif lowered == "start":
            request["starts_in"] = 60.0 * _seconds(value("start MINUTES"), "start")
        elif lowered == "password":
            request["password"] = value("password PW")
        elif lowered == "wait":
            request["forfeit_wait"] = _seconds(value("wait SECONDS"), "wait")
        elif lowered == "pause":
            request["round_pause"] = _seconds(value("pause SECONDS"), "pause")
        elif "=" in word and not word.startswith("="):
            key, _, text = word.partition("=")
            options[key] = _option(text)
        else:
            raise ProtocolError("bad_field", f"announce does not know {word!r}: " + _what_announce_takes(request))
        index += 1
    if "format" not in request:
        raise ProtocolError("missing_field", "say the format first: announce swiss ROUNDS ... or announce "
                            "robin ...; type help announce", field="format")
    if request["format"] == "swiss" and "rounds" not in request:
        raise ProtocolError("missing_field", "a swiss needs its number of rounds: announce swiss 3 ...",
                            field="rounds")
    if options:
        request["options"] = options
    request["title"] = title or _default_title(request)
    return request


def _option(text: str) -> Any:
    lowered = text.lower()
    if lowered in ("true", "yes", "on", "false", "no", "off"):
        return lowered in ("true", "yes", "on")
    return int(text) if text.isdigit() else text


def _what_announce_takes(request: dict[str, Any]) -> str:
    if "format" not in request:
        return "it begins with the format, swiss ROUNDS or robin; type help announce"
    return (f"after the format it takes a preset ({', '.join(PRESETS)}), games N, single, start MINUTES, "
            "rated, password PW, wait SECONDS, pause SECONDS, opt=value, and last title WORDS")


def _default_title(request: dict[str, Any]) -> str:
    """A title for an event announced without one: what it is."""
    preset = request.get("preset", "cribbage")
    if request["format"] == "swiss":
        return f"Swiss of {request['rounds']} {'round' if request['rounds'] == 1 else 'rounds'}, {preset}"
    return f"Round robin, {preset}"


# -- what the person reads ------------------------------------------------------------------

#: The mark the text adapter puts on a ``game_over`` sent to a person at a club night's
#: board (:func:`~.adapter.at_club_board`), and what follows it there instead of "To play
#: again, each player types ready".
AT_CLUB_BOARD = "at_club_board"
NEXT_AT_A_BOARD = "At a club night's board the next game is dealt by itself; after the last, the table closes."

#: The club-night messages rendered here.
CLUB_MESSAGES = frozenset({"club_events", "club_event", "event_news", "event_table"})


def club_text(message: dict[str, Any], width: int) -> str:
    """A club night's reply or push as lines (not yet wrapped: :mod:`.render` wraps them)."""
    kind = message["type"]
    if kind == "club_events":
        return events_text(message["events"])
    if kind == "club_event":
        return event_text(message["event"], width)
    if kind == "event_news":
        return news_text(message)
    return table_text(message)


def _format_words(event: dict[str, Any]) -> str:
    if event["format"] == "swiss":
        return f"swiss of {event['rounds']} {'round' if event['rounds'] == 1 else 'rounds'}"
    return "round robin"


def _round_words(event: dict[str, Any]) -> str:
    total = "?" if event["rounds"] is None else event["rounds"]
    return f"round {event['round']}/{total}"


def _starts(summary: dict[str, Any]) -> str:
    if summary.get("starts_at") is not None:
        return time.strftime("starts %H:%M UTC", time.gmtime(summary["starts_at"]))
    return "starts when the director says"


def events_text(events: list[dict[str, Any]]) -> str:
    """The ``events`` list: a line an event."""
    if not events:
        return "No club nights. A registered name announces one: type help announce."
    lines = ["Club nights (event N shows one, enter N enters it):"]
    for e in events:
        state = e["state"] + (f", {_starts(e)}" if e["state"] == "announced" else f", {_round_words(e)}")
        flags = "".join(f", {flag}" for flag, on in (("rated", e["rated"]), ("private", e["private"])) if on)
        lines.append(f"  {e['id']}. {e['title']}: {_format_words(e)}, {e['preset']}, {e['games']} "
                     f"{'game' if e['games'] == 1 else 'games'} a pairing{flags}; {state}; "
                     f"{e['entrants']} {'entrant' if e['entrants'] == 1 else 'entrants'}; "
                     f"director {e['director']}")
    return "\n".join(lines)


def _definition(event: dict[str, Any]) -> str:
    options = "".join(f" {key}={value}" for key, value in event["options"].items())
    deals = "on duplicate deals" if event["duplicate"] else "each board its own deals"
    flags = "".join(f", {flag}" for flag, on in (("rated", event["rated"]), ("private", event["private"])) if on)
    return (f"A {_format_words(event)}, {event['preset']}{options}, {event['games']} "
            f"{'game' if event['games'] == 1 else 'games'} a pairing, {deals}{flags}; "
            f"{event['forfeit_wait']:g} s to come to one's table, {event['round_pause']:g} s between rounds.")


def _state(event: dict[str, Any]) -> str:
    state, number = event["state"], event["id"]
    if state == "announced":
        when = ("when the director says (direct {0} start)".format(number) if event["starts_in"] is None
                else f"in {_duration(event['starts_in'])}")
        return f"Announced: it starts {when}; enter {number} to play."
    if state in ("finished", "ended"):
        return f"{state.capitalize()} after {_round_words(event)}: {event['reason']}."
    line = f"{state.capitalize()}: {_round_words(event)}"
    if event["next_round_in"] is not None:
        line += f"; the next round begins in {_duration(event['next_round_in'])}"
    return line + "."


def _duration(seconds: float) -> str:
    """A wait as people say it: whole seconds, or minutes past two, rounded up (the server's
    clock has fractions; "54.4 seconds" reads like a stopwatch)."""
    if seconds > 120:
        return f"{math.ceil(seconds / 60)} minutes"
    whole = max(1, math.ceil(seconds))
    return f"{whole} second{'s' * (whole != 1)}"


def _entrants(event: dict[str, Any]) -> str:
    names = []
    for entrant in event["entrants"]:
        marks = [mark for mark in ("bot" if entrant["kind"] == "bot" else "",
                                   "" if entrant["status"] == "entered" else entrant["status"]) if mark]
        names.append(entrant["name"] + (f" ({', '.join(marks)})" if marks else ""))
    active = sum(entrant["status"] == "entered" for entrant in event["entrants"])
    return f"Entrants ({active}): " + (", ".join(names) if names else "none yet")


def _board_line(board: dict[str, Any]) -> str:
    """A board of the round: its table (so ``watch T`` is one command away while it plays),
    who plays whom, how far it is and each game's result (with ``game G`` to replay it)."""
    table = board["table"]
    if table is None:
        where = "no table yet"
    elif board["status"] in ("done", "void"):  # its table is closed: its games are replayed instead
        where = f"table {table}"
    else:
        where = f"table {table} (watch {table})"
    line = f"  board {board['board']}, {where}: {board['a']} v {board['b']}, {board['status']}"
    results = []
    for game in board["games"]:
        if game["forfeit"] is not None:
            results.append(f"{game['winner']} by forfeit")
        else:
            high, low = sorted((game["a_score"], game["b_score"]), reverse=True)
            skunk = "" if game["skunk"] == "none" else f", {game['skunk'].replace('_', ' ')}"
            results.append(f"{game['winner']} {high}-{low}{skunk}")
        if game.get("id") is not None:
            results[-1] += f" (game {game['id']})"
    if results:
        told = results[:GAMES_TOLD] + ([f"{len(results) - GAMES_TOLD} more"] if len(results) > GAMES_TOLD else [])
        line += "; won: " + ", ".join(told)
    if board["forfeit"] is not None:
        line += f"; forfeited by {', '.join(board['forfeit_by'])} ({board['forfeit']})"
    return line


def _current_round(event: dict[str, Any]) -> list[str]:
    if not event["rounds_played"]:
        return []
    current = event["rounds_played"][-1]
    lines = [f"Round {current['round']}{' (over)' if current['over'] else ''}:"]
    lines += [_board_line(board) for board in current["boards"]]
    if current["bye"] is not None:
        lines.append(f"  bye: {current['bye']}")
    return lines


def _grid(rows: list[dict[str, Any]]) -> list[list[str]]:
    """Each row's games won-lost against each entrant, in rank order (``x`` itself, ``.``
    not met), as the offline runner's cross-table (:func:`noddy.bots.crosstable.cross_table`)
    writes its cells."""
    cells = []
    for row in rows:
        line = []
        for other in rows:
            won, met = row["against"].get(other["name"], [0, 0])
            line.append("x" if other is row else f"{won}-{met - won}" if met else ".")
        cells.append(line)
    return cells


def standings_lines(standings: dict[str, Any], width: int) -> list[str]:
    """The standings as a table within ``width`` columns (see the module docstring): rank,
    name, each pairing's games won-lost against each entrant where the whole of it fits (the
    cross-table proper), games, wins, skunk wins, ACC points, spread, and the rating estimate
    with its 95 % interval as of the last round finished (``-`` before one has); a bot, a
    withdrawn or removed entrant is marked last."""
    rows = standings["rows"]
    rated = standings["rated_rounds"] > 0
    ratings = [f"{row['rating']:.0f}±{(row['high'] - row['low']) / 2:.0f}" if rated else "-" for row in rows]
    notes = [", ".join(mark for mark in ("bot" if row["kind"] == "bot" else "",
                                         "" if row["status"] == "entered" else row["status"]) if mark)
             for row in rows]
    rating_width = max([len("rating")] + [len(text) for text in ratings])
    note_width = max([0] + [len(note) + 1 for note in notes])
    rest = f" {'games':>5} {'wins':>4} {'skunk':>5} {'points':>6} {'spread':>6} {'rating':<{rating_width}}"
    rank_width = len(str(len(rows))) + 1
    fixed = rank_width + 1 + len(rest) + note_width
    longest = max([len("name")] + [len(row["name"]) for row in rows])
    cells = _grid(rows)
    cell_width = max([3] + [len(cell) for line in cells for cell in line])
    if longest + fixed + len(rows) * (cell_width + 1) > width:  # the grid goes first, then names are cut
        cells, cell_width = [[] for _ in rows], 0
    head = "".join(f" {number:>{cell_width}}" for number in range(1, len(cells[0]) + 1)) if cells else ""
    name_width = min(longest, max(MIN_NAME_COLUMN, width - fixed))
    when = f"after round {standings['rated_rounds']}" if standings["rated_rounds"] else "no round over yet"
    lines = [f"Standings, {when} (points: 2 a win, 3 a skunk win; ties: spread):",
             f"{'#':>{rank_width}} {'name':<{name_width}}{head}{rest}".rstrip()]
    for row, rating, note, line_cells in zip(rows, ratings, notes, cells):
        name = row["name"] if len(row["name"]) <= name_width else row["name"][:name_width - 1] + "~"
        grid = "".join(f" {cell:>{cell_width}}" for cell in line_cells)
        line = (f"{row['rank']:>{rank_width}} {name:<{name_width}}{grid} {row['games']:>5} {row['wins']:>4} "
                f"{row['skunk_wins']:>5} {row['points']:>6} {row['spread']:>+6} {rating:<{rating_width}}")
        lines.append((line + (f" {note}" if note else "")).rstrip())
    return lines


def event_text(event: dict[str, Any], width: int) -> str:
    """``event N``: the event whole (see the module docstring)."""
    lines = [f"Event {event['id']}: {event['title']}, directed by {event['director']}.", _definition(event),
             _state(event), _entrants(event)]
    lines += _current_round(event)
    if event["standings"]["rows"]:
        lines += standings_lines(event["standings"], width)
    return "\n".join(lines)


#: What follows some news, for the person who reads it at a terminal: what to type next.
_NEXT = {"announced": " Entrants type enter {0}; direct {0} start starts it.",
         "finished": " Type event {0} for the final standings.",
         "ended": " Type event {0} for the standings."}


def news_text(message: dict[str, Any]) -> str:
    """An ``event_news`` push: the event's number, then the news as the server words it."""
    return f"Club night {message['event']}: {message['text']}." + _NEXT.get(message["kind"], "").format(
        message["event"])


def table_text(message: dict[str, Any]) -> str:
    """An ``event_table`` push: where the reader plays this round, and that the server
    seats them there (at once from the lobby or watching; from another table when they
    leave it) and deals the games itself."""
    games = message["games"]
    return (f"Club night {message['event']}, round {message['round']}: your table is {message['table']}, "
            f"seat {message['seat'] + 1}, against {message['opponent']} ({games} "
            f"{'game' if games == 1 else 'games'}). You are seated there now (from another table: "
            "once you leave it); each game begins by itself.")
