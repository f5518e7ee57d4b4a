"""Readers of the text commands for one's session: the name one goes by (``name``, ``login``,
``resume``), the account behind it (``register``, ``password``, ``unregister``), and the
lines text mode answers itself (``width``, ``help``).

A name is the rest of the line as typed, so it may hold spaces; ``login`` takes its password
from the last word.  :mod:`.commands` declares these commands with the readers here; the
adapter (:mod:`.adapter`) answers ``width`` and ``help`` and asks a ``register PW`` typed
once for the password again.

>>> login = read_login("login", ["ann", "lee", "pw"], "ann lee pw")
>>> login["name"], login["password"]
('ann lee', 'pw')
"""

from __future__ import annotations

from typing import Any

from noddy.protocol import PROTOCOL_VERSION, ProtocolError
from noddy.protocol.i18n import Phrase

from .wrapping import MAX_WIDTH, MIN_WIDTH


def read_name(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    """``name NAME``: the hello a JSON client sends, with the name as typed."""
    if not args:
        return None
    return {"type": "hello", "name": rest, "version": PROTOCOL_VERSION}


def read_login(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    """``login NAME PASSWORD``: the password is the last word, the name all before it."""
    if len(args) < 2:
        return None
    return {"type": "hello", "name": rest.rsplit(None, 1)[0], "version": PROTOCOL_VERSION,
            "password": args[-1]}


def read_resume(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    """``resume TOKEN``: back to one's seat after a lost connection (the name is the seat's)."""
    if len(args) != 1:
        return None
    return {"type": "hello", "name": "guest", "version": PROTOCOL_VERSION, "resume": args[0]}


def read_register(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    """``register PW`` (the text adapter asks for it again) or ``register PW PW``: the
    password typed twice, so a typo cannot lock the person out of their name (issue 33)."""
    if len(args) not in (1, 2):
        return None
    request = {"type": "register", "password": args[0]}
    return request if len(args) == 1 else {**request, "again": args[1]}


def read_password(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    """``password OLD NEW``: change an account's password."""
    if len(args) != 2:
        return None
    return {"type": "change_password", "old": args[0], "new": args[1]}


def read_unregister(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    """``unregister PASSWORD``: give the account up."""
    if len(args) != 1:
        return None
    return {"type": "unregister", "password": args[0]}


def read_width(verb: str, args: list[str], rest: str) -> None:
    """``width`` or ``width N``: answered by the text adapter itself (nothing goes to the
    core); a bad N is refused here, so the person is told at once."""
    if len(args) > 1:
        raise ProtocolError("bad_command", Phrase("write {usage}; type help for all commands",
                                                  usage=Phrase("width, or width N")))
    if args:
        if not args[0].isdigit():
            raise ProtocolError("bad_field", Phrase("width must be a number from {least} to {most}, not {word!r}",
                                                    least=MIN_WIDTH, most=MAX_WIDTH, word=args[0]), field="width")
        if not MIN_WIDTH <= int(args[0]) <= MAX_WIDTH:
            raise ProtocolError("bad_field", Phrase("width must be from {least} to {most}, not {width}",
                                                    least=MIN_WIDTH, most=MAX_WIDTH, width=int(args[0])), field="width")
    return None


def read_help(verb: str, args: list[str], rest: str) -> None:
    """``help`` or ``help COMMAND``: answered by the text adapter from :mod:`.help`; nothing
    goes to the core."""
    return None
