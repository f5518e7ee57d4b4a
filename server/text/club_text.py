"""Club nights in text mode (issue 35): the commands a person types at a terminal for them,
read into the requests the core declares (``events``, ``event``, ``join_event``,
``withdraw_event``, ``announce_event``, ``direct_event``), and the replies and pushes those
bring (``club_events``, ``club_event``, ``event_news``, ``event_table``) as lines.

Apart from :mod:`.commands` and :mod:`.render` because a club night is a world of its own
(a forgiving one-line ``announce``, a cross-table) and those modules are about the rest;
:mod:`.commands` declares the commands with the readers here, and :mod:`.render` hands the
club messages to :func:`club_text`.

The standings are a table that fits the reader's width (:mod:`.club_standings`).

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
from noddy.protocol.i18n import N_, Phrase, _, ngettext, pgettext, say

from .club_standings import mark_word, standings_lines
from .words import not_a_number

#: The words that name a format in ``announce``, and the format they stand for.
FORMATS = {"swiss": "swiss", "robin": "round-robin", "round-robin": "round-robin", "roundrobin": "round-robin",
           "rr": "round-robin"}
#: The director's commands as typed after ``direct N`` (``pause SECONDS`` is ``round_pause``).
DIRECTIONS = ("start", "pause", "resume", "end", "remove")
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


#: "WHAT must be a number of seconds", whole, for each word of ``announce`` and ``direct`` that
#: takes one (see :data:`~.words.NOT_A_NUMBER`).
NOT_SECONDS = {"seconds": N_("seconds must be a number of seconds, not {word!r}"),
               "start": N_("start must be a number of seconds, not {word!r}"),
               "wait": N_("wait must be a number of seconds, not {word!r}"),
               "pause": N_("pause must be a number of seconds, not {word!r}")}


def _number(word: str, what: str) -> int:
    try:
        return int(word.lstrip("#"))
    except ValueError:
        raise ProtocolError("bad_field", not_a_number(what, word), field=what) from None


def _seconds(word: str, what: str) -> float:
    try:
        return float(word)
    except ValueError:
        template = NOT_SECONDS.get(what)
        raise ProtocolError("bad_field", Phrase(template, word=word) if template else
                            Phrase("{what} must be a number of seconds, not {word!r}", what=what, word=word),
                            field=what) from None


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
            raise ProtocolError("missing_field", Phrase("{word} needs a value after it: write {what}; type "
                                                        "help announce", word=words[index - 1], what=what),
                                field=what.split()[0])
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
            request["games"] = _number(value(Phrase("games N")), "games")
        elif lowered == "single":
            request["duplicate"] = False
        elif lowered == "duplicate":
            request["duplicate"] = True
        elif lowered == "rated":
            request["rated"] = True
        elif lowered == "start":
            request["starts_in"] = 60.0 * _seconds(value(Phrase("start MINUTES")), "start")
        elif lowered == "password":
            request["password"] = value(Phrase("password PW"))
        elif lowered == "wait":
            request["forfeit_wait"] = _seconds(value(Phrase("wait SECONDS")), "wait")
        elif lowered == "pause":
            request["round_pause"] = _seconds(value(Phrase("pause SECONDS")), "pause")
        elif "=" in word and not word.startswith("="):
            key, _, text = word.partition("=")
            options[key] = _option(text)
        else:
            raise ProtocolError("bad_field", Phrase("announce does not know {word!r}: {takes}", word=word,
                                                    takes=_what_announce_takes(request)))
        index += 1
    if "format" not in request:
        raise ProtocolError("missing_field", Phrase("say the format first: announce swiss ROUNDS ... or "
                                                    "announce robin ...; type help announce"), field="format")
    if request["format"] == "swiss" and "rounds" not in request:
        raise ProtocolError("missing_field", Phrase("a swiss needs its number of rounds: announce swiss 3 ..."),
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


def _what_announce_takes(request: dict[str, Any]) -> Phrase:
    if "format" not in request:
        return Phrase("it begins with the format, swiss ROUNDS or robin; type help announce")
    return Phrase("after the format it takes a preset ({presets}), games N, single, start MINUTES, rated, "
                  "password PW, wait SECONDS, pause SECONDS, opt=value, and last title WORDS",
                  presets=", ".join(PRESETS))


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
NEXT_AT_A_BOARD = N_("At a club night's board the next game is dealt by itself; after the last, the table closes.")

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
        return ngettext("swiss of {n} round", "swiss of {n} rounds", event["rounds"]).format(n=event["rounds"])
    return _("round robin")


def _round_words(event: dict[str, Any]) -> str:
    total = "?" if event["rounds"] is None else event["rounds"]
    return _("round {round}/{total}").format(round=event["round"], total=total)


def _starts(summary: dict[str, Any]) -> str:
    if summary.get("starts_at") is not None:
        return _("starts {time} UTC").format(time=time.strftime("%H:%M", time.gmtime(summary["starts_at"])))
    return _("starts when the director says")


def _state_word(state: str) -> str:
    """An event's state (a code word of the protocol) in the reader's language."""
    words = {"announced": pgettext("club night", "announced"), "running": pgettext("club night", "running"),
             "paused": pgettext("club night", "paused"), "finished": pgettext("club night", "finished"),
             "ended": pgettext("club night", "ended")}
    return words.get(state, state)


def _flags(event: dict[str, Any]) -> str:
    """``, rated, private`` as far as they hold."""
    return "".join(f", {flag}" for flag, on in ((pgettext("club night", "rated"), event["rated"]),
                                                (pgettext("club night", "private"), event["private"])) if on)


def events_text(events: list[dict[str, Any]]) -> str:
    """The ``events`` list: a line an event."""
    if not events:
        return _("No club nights. A registered name announces one: type help announce.")
    lines = [_("Club nights (event N shows one, enter N enters it):")]
    for e in events:
        state = _state_word(e["state"]) + ", " + (_starts(e) if e["state"] == "announced" else _round_words(e))
        games = ngettext("{n} game a pairing", "{n} games a pairing", e["games"]).format(n=e["games"])
        entrants = ngettext("{n} entrant", "{n} entrants", e["entrants"]).format(n=e["entrants"])
        lines.append("  " + _("{id}. {title}: {format}, {preset}, {games}{flags}; {state}; {entrants}; "
                              "director {director}").format(
            id=e["id"], title=e["title"], format=_format_words(e), preset=e["preset"], games=games,
            flags=_flags(e), state=state, entrants=entrants, director=e["director"]))
    return "\n".join(lines)


def _definition(event: dict[str, Any]) -> str:
    options = "".join(f" {key}={value}" for key, value in event["options"].items())
    deals = _("on duplicate deals") if event["duplicate"] else _("each board its own deals")
    games = ngettext("{n} game a pairing", "{n} games a pairing", event["games"]).format(n=event["games"])
    return _("A {format}, {preset}{options}, {games}, {deals}{flags}; {wait:g} s to come to one's table, "
             "{pause:g} s between rounds.").format(
        format=_format_words(event), preset=event["preset"], options=options, games=games, deals=deals,
        flags=_flags(event), wait=event["forfeit_wait"], pause=event["round_pause"])


def _state(event: dict[str, Any]) -> str:
    state, number = event["state"], event["id"]
    if state == "announced":
        when = (_("when the director says (direct {event} start)").format(event=number)
                if event["starts_in"] is None else
                _("in {duration}").format(duration=_duration(event["starts_in"])))
        return _("Announced: it starts {when}; enter {event} to play.").format(when=when, event=number)
    if state in ("finished", "ended"):
        after = (_("Finished after {round}: {reason}.") if state == "finished" else
                 _("Ended after {round}: {reason}."))
        return after.format(round=_round_words(event), reason=say(event["reason"]))
    line = _state_word(state).capitalize() + ": " + _round_words(event)
    if event["next_round_in"] is not None:
        line += _("; the next round begins in {duration}").format(duration=_duration(event["next_round_in"]))
    return line + "."


def _duration(seconds: float) -> str:
    """A wait as people say it: whole seconds, or minutes past two, rounded up (the server's
    clock has fractions; "54.4 seconds" reads like a stopwatch)."""
    if seconds > 120:
        minutes = math.ceil(seconds / 60)
        return ngettext("{n} minute", "{n} minutes", minutes).format(n=minutes)
    whole = max(1, math.ceil(seconds))
    return ngettext("{n} second", "{n} seconds", whole).format(n=whole)


def _entrants(event: dict[str, Any]) -> str:
    names = []
    for entrant in event["entrants"]:
        marks = [mark_word(mark) for mark in ("bot" if entrant["kind"] == "bot" else "",
                                               "" if entrant["status"] == "entered" else entrant["status"])
                 if mark]
        names.append(entrant["name"] + (f" ({', '.join(marks)})" if marks else ""))
    active = sum(entrant["status"] == "entered" for entrant in event["entrants"])
    return _("Entrants ({n}): {names}").format(n=active, names=", ".join(names) if names else _("none yet"))


def _board_line(board: dict[str, Any]) -> str:
    """A board of the round: its table (so ``watch T`` is one command away while it plays),
    who plays whom, how far it is and each game's result (with ``game G`` to replay it)."""
    table = board["table"]
    if table is None:
        where = _("no table yet")
    elif board["status"] in ("done", "void"):  # its table is closed: its games are replayed instead
        where = _("table {table}").format(table=table)
    else:
        where = _("table {table} (watch {table})").format(table=table)
    line = "  " + _("board {board}, {where}: {a} v {b}, {status}").format(
        board=board["board"], where=where, a=board["a"], b=board["b"], status=_board_status(board["status"]))
    results = []
    for game in board["games"]:
        if game["forfeit"] is not None:
            results.append(_("{winner} by forfeit").format(winner=game["winner"]))
        else:
            high, low = sorted((game["a_score"], game["b_score"]), reverse=True)
            skunk = "" if game["skunk"] == "none" else ", " + _skunk_word(game["skunk"])
            results.append(f"{game['winner']} {high}-{low}{skunk}")
        if game.get("id") is not None:
            results[-1] += " " + _("(game {game})").format(game=game["id"])
    if results:
        more = len(results) - GAMES_TOLD
        told = results[:GAMES_TOLD] + ([_("{n} more").format(n=more)] if more > 0 else [])
        line += _("; won: {games}").format(games=", ".join(told))
    if board["forfeit"] is not None:
        line += _("; forfeited by {names} ({why})").format(names=", ".join(board["forfeit_by"]),
                                                           why=_forfeit_word(board["forfeit"]))
    return line


def _board_status(status: str) -> str:
    """A board's status (a code word of the protocol) in the reader's language."""
    words = {"pending": pgettext("board", "pending"), "seating": pgettext("board", "seating"),
             "playing": pgettext("board", "playing"), "done": pgettext("board", "done"),
             "void": pgettext("board", "void")}
    return words.get(status, status)


def _skunk_word(skunk: str) -> str:
    words = {"skunk": pgettext("won game", "skunk"), "double": pgettext("won game", "double")}
    return words.get(skunk, skunk.replace("_", " "))


def _forfeit_word(why: str) -> str:
    words = {"no-show": pgettext("forfeit", "no-show"), "withdrew": pgettext("forfeit", "withdrew"),
             "removed": pgettext("forfeit", "removed")}
    return words.get(why, why)


def _current_round(event: dict[str, Any]) -> list[str]:
    if not event["rounds_played"]:
        return []
    current = event["rounds_played"][-1]
    lines = [(_("Round {round} (over):") if current["over"] else _("Round {round}:")).format(round=current["round"])]
    lines += [_board_line(board) for board in current["boards"]]
    if current["bye"] is not None:
        lines.append("  " + _("bye: {name}").format(name=current["bye"]))
    return lines


def event_text(event: dict[str, Any], width: int) -> str:
    """``event N``: the event whole (see the module docstring)."""
    lines = [_("Event {event}: {title}, directed by {director}.").format(
        event=event["id"], title=event["title"], director=event["director"]), _definition(event),
             _state(event), _entrants(event)]
    lines += _current_round(event)
    if event["standings"]["rows"]:
        lines += standings_lines(event["standings"], width)
    return "\n".join(lines)


#: What follows some news, for the person who reads it at a terminal: what to type next.
_NEXT = {"announced": N_("Entrants type enter {event}; direct {event} start starts it."),
         "finished": N_("Type event {event} for the final standings."),
         "ended": N_("Type event {event} for the standings.")}


def news_text(message: dict[str, Any]) -> str:
    """An ``event_news`` push: the event's number, then the news as the server words it."""
    then = _NEXT.get(message["kind"])
    return (_("Club night {event}: {news}.").format(event=message["event"], news=say(message["text"]))
            + ("" if then is None else " " + _(then).format(event=message["event"])))


def table_text(message: dict[str, Any]) -> str:
    """An ``event_table`` push: where the reader plays this round, and that the server
    seats them there (at once from the lobby or watching; from another table when they
    leave it) and deals the games itself."""
    games = message["games"]
    return (ngettext("Club night {event}, round {round}: your table is {table}, seat {seat}, against "
                     "{opponent} ({n} game).", "Club night {event}, round {round}: your table is {table}, "
                     "seat {seat}, against {opponent} ({n} games).", games).format(
                event=message["event"], round=message["round"], table=message["table"], seat=message["seat"] + 1,
                opponent=message["opponent"], n=games)
            + " " + _("You are seated there now (from another table: once you leave it); each game begins "
                      "by itself."))
