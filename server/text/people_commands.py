"""Readers of the text commands between people: chat, private tells and muted names, who is
online, and finding an opponent (challenges, invitations and seeks).

Chat and tells keep the text as typed (``rest``: the line after the verb, its spacing
inside kept), not the words split apart.  :mod:`.commands` declares these commands with the
readers here; :mod:`.meeting` tells what the core answers them with.

>>> read_tell("tell", ["ann", "good", "game"], "ann good game")
{'type': 'tell', 'name': 'ann', 'text': 'good game'}
>>> read_seek("seek", ["cribbage", "people", "target=61"], "cribbage people target=61")
{'type': 'seek', 'preset': 'cribbage', 'opponents': 'people', 'options': {'target': 61}}
"""

from __future__ import annotations

from typing import Any

from .words import number, value

#: The words of ``seek`` that say whom one will play: only people, only bots, or anyone.
OPPONENT_WORDS = ("people", "bots", "any")


def read_say(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    """``say TEXT``: chat at one's table (or in the lobby, when at none)."""
    return {"type": "chat", "text": rest, "to": None} if rest else None


def read_shout(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    """``shout TEXT``: chat in the lobby, from anywhere."""
    return {"type": "chat", "text": rest, "to": "lobby"} if rest else None


def read_whisper(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    """``whisper TEXT``: watching, chat with the other watchers only."""
    return {"type": "chat", "text": rest, "to": "watchers"} if rest else None


def read_tell(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    """``tell NAME TEXT``: a private message, the text as typed after the name."""
    if len(args) < 2:
        return None
    return {"type": "tell", "name": args[0], "text": rest[len(args[0]):].strip()}


def read_mute(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    """``mute NAME``: hear no more of NAME."""
    return {"type": "mute", "name": args[0]} if len(args) == 1 else None


def read_unmute(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    """``unmute NAME``: hear NAME again."""
    return {"type": "unmute", "name": args[0]} if len(args) == 1 else None


def read_who(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    """``who`` or ``who people`` (no bots)."""
    if args not in ([], ["people"]):
        return None
    return {"type": "who", **({"people_only": True} if args else {})}


def game_words(words: list[str], request: dict[str, Any]) -> dict[str, Any] | None:
    """The preset, ``opt=value`` options and ``ready`` of a challenge or a seek (and its
    ``people``/``bots``), after the words that are its own."""
    options: dict[str, Any] = {}
    for word in words:
        lowered = word.lower()
        if "=" in word:
            key, _, typed = word.partition("=")
            options[key] = value(typed)
        elif lowered == "ready":
            request["ready"] = True
        elif lowered in OPPONENT_WORDS and request["type"] == "seek":
            request["opponents"] = lowered
        elif "preset" not in request:
            request["preset"] = lowered
        else:
            return None
    if options:
        request["options"] = options
    return request


def read_challenge(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    """``challenge NAME [PRESET] [opt=value ...] [ready]``."""
    if not args:
        return None
    return game_words(args[1:], {"type": "challenge", "name": args[0]})


def read_invite(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    """``invite NAME [TEXT]``: to one's table, with a word as typed if one is added."""
    if not args:
        return None
    return {"type": "invite", "name": args[0],
            **({"text": rest[len(args[0]):].strip()} if len(args) > 1 else {})}


def read_accept(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    """``accept ID`` or ``accept ID ready`` (the ID as shown, ``#`` or not)."""
    if not args or args[1:] not in ([], ["ready"]):
        return None
    return {"type": "accept", "challenge": number(args[0].lstrip("#"), "challenge"),
            **({"ready": True} if args[1:] == ["ready"] else {})}


def read_decline(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    """``decline ID``: say no to a challenge (one's own: withdraw it)."""
    if len(args) != 1:
        return None
    return {"type": "decline", "challenge": number(args[0].lstrip("#"), "challenge")}


def read_seek(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    """``seek [PRESET] [people|bots] [opt=value ...] [ready]``."""
    return game_words(args, {"type": "seek"})
