"""Readers of the text commands for tables and seats: listing the tables, making one,
sitting, watching, seating a computer player, and a seat whose person is away.

Seats are counted from 1 here, as people count them (``sit 1`` is the JSON seat 0).
:mod:`.commands` declares these commands (their words, help and how they are written) with
the readers here; a reader gives None for words that do not fit (see :mod:`.words`).

>>> read_sit("sit", ["3", "2"], "3 2")
{'type': 'sit', 'table': 3, 'seat': 1, 'password': None}
>>> read_new("new", ["noddy", "timer=30"], "noddy timer=30")
{'type': 'create_table', 'preset': 'noddy', 'options': {}, 'turn_timer': 30}
"""

from __future__ import annotations

from typing import Any

from noddy.protocol import ProtocolError
from noddy.protocol.i18n import Phrase

from .words import number, seat, value

#: The words after ``new PRESET`` that ask for partnerships (two against two, three against
#: three): people say it several ways, and each should be understood.
PARTNERSHIP_WORDS = ("pairs", "partners", "partnerships", "teams")


def read_tables(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    """``tables`` or ``tables people`` (only the tables where no bot sits)."""
    if args not in ([], ["people"]):
        return None
    return {"type": "list_tables", **({"people_only": True} if args else {})}


def read_new(verb: str, args: list[str], rest: str) -> dict[str, Any]:
    """``new PRESET [N] [pairs] [opt=value ...] [password=PW] [timer=SECONDS]``.

    Never None: a word it does not know is refused by name (``bad_field``), since the line
    can be long and "write new ..." would not say which word was wrong."""
    if not args:
        raise ProtocolError("missing_field", Phrase("say which preset: new noddy, new cribbage ..."),
                            field="preset")
    request: dict[str, Any] = {"type": "create_table", "preset": args[0].lower(), "options": {}}
    for word in args[1:]:
        if word.isdigit():
            request["players"] = int(word)
        elif word.lower() in PARTNERSHIP_WORDS:
            request["partnerships"] = True
        elif "=" in word:
            key, _, typed = word.partition("=")
            if key == "password":
                request["private"], request["password"] = True, typed
            elif key == "timer":
                request["turn_timer"] = value(typed)
            else:
                request["options"][key] = value(typed)
        else:
            raise ProtocolError("bad_field", Phrase("do not understand {word!r} in 'new'; type help", word=word))
    return request


def read_join(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    """``join TABLE [PASSWORD]``: the first free seat of a table (the core picks it)."""
    if not 1 <= len(args) <= 2:
        return None
    return {"type": "sit", "table": number(args[0], "table"), "seat": None,
            "password": args[1] if len(args) == 2 else None}


def read_sit(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    """``sit SEAT`` at the table one is at, or ``sit TABLE SEAT [PASSWORD]`` from anywhere."""
    if len(args) == 1:
        return {"type": "sit", "seat": seat(args[0])}
    if 2 <= len(args) <= 3:
        return {"type": "sit", "table": number(args[0], "table"), "seat": seat(args[1]),
                "password": args[2] if len(args) == 3 else None}
    return None


def read_watch(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    """``watch TABLE [PASSWORD]``."""
    if not 1 <= len(args) <= 2:
        return None
    return {"type": "spectate", "table": number(args[0], "table"),
            "password": args[1] if len(args) == 2 else None}


def read_bot(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    """``bot [SEAT] [LEVEL]``, in either order: a number is the seat, a word the level."""
    if len(args) > 2:
        return None
    request: dict[str, Any] = {"type": "add_computer"}
    for word in args:
        if word.isdigit():
            request["seat"] = seat(word)
        else:
            request["level"] = word
    return request


def read_unbot(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    """``unbot SEAT``: the computer player leaves that seat."""
    if len(args) != 1:
        return None
    return {"type": "remove_computer", "seat": seat(args[0])}


def read_wait(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    """``wait SEAT``: the table waits for an away person (no computer stands in for them)."""
    if len(args) != 1:
        return None
    return {"type": "stand_in", "seat": seat(args[0]), "on": False}


def read_standin(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    """``standin SEAT``: a computer plays for an away person meanwhile."""
    if len(args) != 1:
        return None
    return {"type": "stand_in", "seat": seat(args[0]), "on": True}
