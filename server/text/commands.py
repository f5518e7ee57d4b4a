"""Text-mode commands: what a person types at a bare terminal, read into the request a JSON
client would send.

People count seats from 1, so text mode does too: ``sit 1`` is the JSON seat 0.  A known
command written wrong says how it is written (``bad_command``); anything else is
``unknown_command``.  :data:`HELP` lists them all.

>>> parse_command("play 5h")
{'type': 'action', 'action': 'play', 'card': '5h'}
>>> parse_command("new cribbage 4 pairs target=61")["options"]
{'target': 61}
"""

from __future__ import annotations

import textwrap
from typing import Any, Sequence

from noddy.engine import PRESETS
from noddy.protocol import PROTOCOL_VERSION, ProtocolError

HELP = """\
Commands (one a line):
  tables                      list the tables
  new PRESET [N] [pairs] [opt=value ...] [password=PW] [timer=SECONDS]
                              create a table for N players and sit in seat 1
{presets}
  join TABLE [PASSWORD]       sit in the first free seat of a table
  sit SEAT | sit TABLE SEAT [PASSWORD]
                              seats are numbered from 1
  watch TABLE [PASSWORD]      watch a table
  bot [SEAT] [LEVEL]          a computer player takes a seat
  unbot SEAT                  the computer player leaves the seat
  stand | leave               stand up (stay watching) | go back to the lobby
  ready | unready             the game starts when every seat is taken and ready
  play CARD | go | discard CARD CARD
                              cards are rank+suit: A 2-9 T J Q K and C D H S, e.g. 5H TC;
                              discard also takes the numbers of the prompt: discard 1 2
  claim N | muggins N | pass  counting by hand (new cribbage counting=manual): claim your
                              hand's points; say an opponent's hand holds N; let it stand
  hint | review [DEAL]        the coach (new ... hints=true): your choices ranked | the
                              decisions of a deal that fell short of the best
  say TEXT | shout TEXT       chat at your table (or the lobby) | chat in the lobby
  look                        show the table and your cards again
  games [NAME]                your (or NAME's) finished games, newest first
  game ID [PASSWORD]          one finished game: its players, deals and result
  leaderboard [noddy|cribbage]
                              the ratings of one family of games (noddy: default)
  name NAME                   choose your name (any time until you sit down)
  resume TOKEN                take back your seat, or your place as a watcher, after a
                              lost connection (any time until you sit down)
  ping | help | quit""".format(presets=textwrap.fill(
    "presets: " + " ".join(PRESETS) + "; e.g. new cribbage 4 pairs target=61",
    width=96, initial_indent=" " * 30, subsequent_indent=" " * 30, break_on_hyphens=False))


def _value(text: str) -> Any:
    lowered = text.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    try:
        return int(text)
    except ValueError:
        return text


def _int(word: str, what: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise ProtocolError("bad_field", f"{what} must be a number, not {word!r}", field=what) from None


def _seat(word: str) -> int:
    """A seat as people number them (from 1) -> the protocol's seat (from 0)."""
    seat = _int(word, "seat")
    if seat < 1:
        raise ProtocolError("no_such_seat", "seats are numbered from 1", field="seat")
    return seat - 1


def parse_command(line: str) -> dict[str, Any] | None:
    """The request a text line stands for; ``None`` for ``help``; ``unknown_command`` otherwise."""
    words = line.split()
    verb, args = words[0].lower(), words[1:]
    rest = line.strip()[len(words[0]):].strip()
    if verb in ("help", "?"):
        return None
    if verb == "name" and args:
        return {"type": "hello", "name": rest, "version": PROTOCOL_VERSION}
    if verb == "resume" and len(args) == 1:
        return {"type": "hello", "name": "guest", "version": PROTOCOL_VERSION, "resume": args[0]}
    if verb in ("tables", "list", "ls") and not args:
        return {"type": "list_tables"}
    if verb == "new":
        return _parse_new(args)
    if verb == "join" and 1 <= len(args) <= 2:
        return {"type": "sit", "table": _int(args[0], "table"), "seat": None,
                "password": args[1] if len(args) == 2 else None}
    if verb == "sit" and len(args) == 1:
        return {"type": "sit", "seat": _seat(args[0])}
    if verb == "sit" and 2 <= len(args) <= 3:
        return {"type": "sit", "table": _int(args[0], "table"), "seat": _seat(args[1]),
                "password": args[2] if len(args) == 3 else None}
    if verb == "watch" and 1 <= len(args) <= 2:
        return {"type": "spectate", "table": _int(args[0], "table"),
                "password": args[1] if len(args) == 2 else None}
    if verb == "bot" and len(args) <= 2:
        request: dict[str, Any] = {"type": "add_computer"}
        for word in args:
            if word.isdigit():
                request["seat"] = _seat(word)
            else:
                request["level"] = word
        return request
    if verb == "unbot" and len(args) == 1:
        return {"type": "remove_computer", "seat": _seat(args[0])}
    if verb in ("stand", "leave", "ping", "look") and not args:
        return {"type": {"look": "snapshot"}.get(verb, verb)}
    if verb in ("ready", "start") and not args:
        return {"type": "ready", "ready": True}
    if verb == "unready" and not args:
        return {"type": "ready", "ready": False}
    if verb == "play" and len(args) == 1:
        return {"type": "action", "action": "play", "card": args[0]}
    if verb == "go" and not args:
        return {"type": "action", "action": "go"}
    if verb == "discard" and args:
        return {"type": "action", "action": "discard", "cards": args}
    if verb in ("claim", "muggins") and len(args) == 1:
        return {"type": "action", "action": verb, "points": _int(args[0], "points")}
    if verb == "pass" and not args:
        return {"type": "action", "action": "pass"}
    if verb == "hint" and not args:
        return {"type": "hint"}
    if verb == "review" and len(args) <= 1:
        return {"type": "review", "deal": _int(args[0], "deal") if args else None}
    if verb in ("say", "shout") and rest:
        return {"type": "chat", "text": rest, "to": "lobby" if verb == "shout" else None}
    if verb == "games" and len(args) <= 1:
        return {"type": "list_games", "name": args[0] if args else None}
    if verb == "game" and len(args) in (1, 2):  # a private table's game: its password
        request = {"type": "get_game", "game": _int(args[0].lstrip("#"), "game")}
        return request if len(args) == 1 else {**request, "password": args[1]}
    if verb in ("leaderboard", "ratings") and len(args) <= 1:
        return {"type": "leaderboard", "family": args[0].lower() if args else "noddy"}
    if verb in ("quit", "exit", "bye") and not args:
        return {"type": "bye"}
    written = _written(verb)
    if written is not None:  # a known command with the wrong words after it: say how it goes
        raise ProtocolError("bad_command", f"write {written}; type help for all commands")
    raise ProtocolError("unknown_command", f"not a command: {line.strip()!r}; type help for the list")


#: The commands that take nothing after them (``help`` takes anything, and ``new`` says itself
#: what it lacks).
_BARE = frozenset({"tables", "list", "ls", "stand", "leave", "ping", "look", "ready", "start", "unready",
                   "go", "pass", "hint", "quit", "exit", "bye"})
#: How each command that takes words is written, as :data:`HELP` says it.
_USAGE = {
    "name": "name NAME",
    "resume": "resume TOKEN",
    "join": "join TABLE, or join TABLE PASSWORD",
    "sit": "sit SEAT, or sit TABLE SEAT, or sit TABLE SEAT PASSWORD",
    "watch": "watch TABLE, or watch TABLE PASSWORD",
    "bot": "bot, or bot SEAT, or bot LEVEL, or bot SEAT LEVEL",
    "unbot": "unbot SEAT",
    "play": "play CARD, e.g. play 5H",
    "discard": "discard CARD CARD, or the numbers the prompt shows: discard 1 2",
    "claim": "claim N, the points you count in the cards",
    "muggins": "muggins N, the points the cards hold",
    "review": "review, or review DEAL",
    "say": "say TEXT",
    "shout": "shout TEXT",
    "games": "games, or games NAME",
    "game": "game ID, or game ID PASSWORD",
    "leaderboard": "leaderboard, or leaderboard noddy, or leaderboard cribbage",
    "ratings": "ratings, or ratings noddy, or ratings cribbage",
}


def _written(verb: str) -> str | None:
    """How the command ``verb`` is written, or None if it is no command.  A newcomer who
    types ``play`` without a card was told "not a command", which is false and no help."""
    if verb in _BARE:
        return f"{verb}, with nothing after it"
    return _USAGE.get(verb)


def _parse_new(args: list[str]) -> dict[str, Any]:
    if not args:
        raise ProtocolError("missing_field", "say which preset: new noddy, new cribbage ...", field="preset")
    request: dict[str, Any] = {"type": "create_table", "preset": args[0].lower(), "options": {}}
    for word in args[1:]:
        if word.isdigit():
            request["players"] = int(word)
        elif word.lower() in ("pairs", "partners", "partnerships", "teams"):
            request["partnerships"] = True
        elif "=" in word:
            key, _, value = word.partition("=")
            if key == "password":
                request["private"], request["password"] = True, value
            elif key == "timer":
                request["turn_timer"] = _value(value)
            else:
                request["options"][key] = _value(value)
        else:
            raise ProtocolError("bad_field", f"do not understand {word!r} in 'new'; type help")
    return request


def numbered_hand(legal_actions: Sequence[dict[str, Any]]) -> list[str]:
    """The cards a discard prompt numbers 1, 2, ...: every card of the legal discards, in the
    order they first appear (the engine lists them by rank).  :func:`cards_by_number` reads
    ``discard 1 2`` with the same list, so the numbers cannot disagree with the prompt."""
    cards: dict[str, None] = {}
    for action in legal_actions:
        if action["action"] == "discard":
            cards.update(dict.fromkeys(action["cards"]))
    return list(cards)


def cards_by_number(words: Sequence[str], legal_actions: Sequence[dict[str, Any]]) -> list[str]:
    """``discard 1 2`` -> the cards numbered 1 and 2 in the discard prompt."""
    hand = numbered_hand(legal_actions)
    if not hand:
        raise ProtocolError("wrong_phase", "there is nothing to discard now", field="cards")
    cards = []
    for word in words:
        number = int(word)
        if not 1 <= number <= len(hand):
            raise ProtocolError("card_not_in_hand", f"your cards are numbered 1 to {len(hand)}, "
                                f"not {number}", field="cards")
        cards.append(hand[number - 1])
    return cards
