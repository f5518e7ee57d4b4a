"""Text mode's words for meeting in the lobby: ``who``, challenges and seeks (issue 25),
and for people talking: invitations, tells, muted names and chat history (issue 26).

Kept apart from :mod:`.render`, which tells tables and games, so each stays one idea; a bot
is marked "(bot)" wherever its name is shown here, as in the table line.
"""

from __future__ import annotations

import json
from typing import Any


def _person(name: str, bot: bool) -> str:
    return f"{name} (bot)" if bot else name


def _game_words(preset: str, options: dict[str, Any]) -> str:
    words = " ".join(f"{k}={json.dumps(v) if isinstance(v, bool) else v}" for k, v in options.items())
    return f"{preset} {words}" if words else preset


def lobby_text(message: dict[str, Any]) -> str:
    """``who``, challenges and seeks in words (see docs/PROTOCOL.md, Meeting in the lobby)."""
    kind = message["type"]
    if kind == "who":
        lines = [f"Online ({len(message['people'])}):"]
        for entry in message["people"]:
            if entry["where"] == "lobby":
                where = "in the lobby"
            else:
                where = (f"watching table {entry['table']}" if entry["where"] == "watching"
                         else f"at table {entry['table']}, seat {entry['seat'] + 1}")
            extra = []
            if entry["away"]:
                extra.append("away")
            elif entry["idle"] is not None and entry["idle"] >= 60:
                extra.append(f"idle {entry['idle'] // 60} min")
            if entry["seeking"] is not None:
                seek = entry["seeking"]
                extra.append(f"seeking {_game_words(seek['preset'], seek['options'])}")
            lines.append(f"  {_person(entry['name'], entry['bot'])} {where}"
                         + (f" ({', '.join(extra)})" if extra else ""))
        return "\n".join(lines)
    if kind == "seeking":
        seek = message["seek"]
        against = {"any": "anyone", "people": "people only", "bots": "bots only"}[seek["opponents"]]
        return (f"Seeking a game of {_game_words(seek['preset'], seek['options'])} against {against}; "
                "a table opens when someone seeks the same (unseek to stop).")
    if kind == "challenge_over":
        what = "Challenge" if message.get("table") is None else "Invitation"
        return f"{what} {message['challenge']} is over: {message['message']}."
    challenge = message["challenge"]
    game = _game_words(challenge["preset"], challenge["options"])
    if challenge.get("table") is not None:
        return _invitation_text(message, challenge, game)
    if kind == "challenge":
        return (f"Challenge {challenge['id']} sent to {_person(challenge['to'], challenge['to_bot'])}: "
                f"{game}. It lasts {challenge['expires_in']} s; decline {challenge['id']} withdraws it.")
    note = f' "{challenge["text"]}"' if challenge["text"] else ""
    return (f"{_person(challenge['from'], challenge['from_bot'])} challenges you to {game}.{note} "
            f"Type accept {challenge['id']} or decline {challenge['id']} "
            f"(within {challenge['expires_in']} s).")


def _invitation_text(message: dict[str, Any], invitation: dict[str, Any], game: str) -> str:
    table = f"table {invitation['table']} ({game}{', private' if invitation['private'] else ''})"
    if message["type"] == "challenge":
        return (f"Invitation {invitation['id']} to {table} sent to "
                f"{_person(invitation['to'], invitation['to_bot'])}. It lasts {invitation['expires_in']} s.")
    note = f' "{invitation["text"]}"' if invitation["text"] else ""
    return (f"{_person(invitation['from'], invitation['from_bot'])} invites you to {table}.{note} "
            f"Type accept {invitation['id']} or decline {invitation['id']} "
            f"(within {invitation['expires_in']} s).")


def chat_line(message: dict[str, Any]) -> str:
    """One chat line: where it was said, who said it, what."""
    to = message["to"]
    where = "lobby" if to == "lobby" else f"table {message['table']}" + (" watchers" if to == "watchers" else "")
    return f"[{where}] {message['from']}: {message['text']}"


def talk_text(message: dict[str, Any]) -> str:
    """A ``tell`` (sent or received), the ``muted`` names, or a ``chat_history``."""
    kind = message["type"]
    if kind == "tell":
        if message["echo"]:
            waiting = " (they are away: it waits for their next login)" if message["waiting"] else ""
            return f"You tell {message['to']}: {message['text']}{waiting}"
        told = "told you while you were away" if message["waiting"] else "tells you"
        return f"{message['from']} {told}: {message['text']}  (tell {message['from']} ... to answer)"
    if kind == "muted":
        names = message["names"]
        return "You have muted: " + ", ".join(names) + "." if names else "You have muted nobody."
    lines = message["lines"]
    said = "Said in the lobby lately:" if all(line["to"] == "lobby" for line in lines) else \
        "The watchers said during the game:"
    return "\n".join([said] + ["  " + chat_line(line) for line in lines])
