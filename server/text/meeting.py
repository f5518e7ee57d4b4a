"""Text mode's words for meeting in the lobby: ``who``, challenges and seeks (issue 25),
and for people talking: invitations, tells, muted names and chat history (issue 26).

Kept apart from :mod:`.render`, which tells tables and games, so each stays one idea; a bot
is marked "(bot)" wherever its name is shown here, as in the table line.
"""

from __future__ import annotations

import json
from typing import Any

from noddy.protocol.i18n import _, say


def _person(name: str, bot: bool) -> str:
    return _("{name} (bot)").format(name=name) if bot else name


def _game_words(preset: str, options: dict[str, Any]) -> str:
    words = " ".join(f"{k}={json.dumps(v) if isinstance(v, bool) else v}" for k, v in options.items())
    return f"{preset} {words}" if words else preset


def lobby_text(message: dict[str, Any]) -> str:
    """``who``, challenges and seeks in words (see docs/PROTOCOL.md, Meeting in the lobby)."""
    kind = message["type"]
    if kind == "who":
        lines = [_("Online ({n}):").format(n=len(message["people"]))]
        for entry in message["people"]:
            if entry["where"] == "lobby":
                where = _("in the lobby")
            else:
                where = (_("watching table {table}").format(table=entry["table"]) if entry["where"] == "watching"
                         else _("at table {table}, seat {seat}").format(table=entry["table"], seat=entry["seat"] + 1))
            extra = []
            if entry["away"]:
                extra.append(_("away"))
            elif entry["idle"] is not None and entry["idle"] >= 60:
                extra.append(_("idle {minutes} min").format(minutes=entry["idle"] // 60))
            if entry["seeking"] is not None:
                seek = entry["seeking"]
                extra.append(_("seeking {game}").format(game=_game_words(seek["preset"], seek["options"])))
            lines.append(f"  {_person(entry['name'], entry['bot'])} {where}"
                         + (f" ({', '.join(extra)})" if extra else ""))
        return "\n".join(lines)
    if kind == "seeking":
        seek = message["seek"]
        against = {"any": _("anyone"), "people": _("people only"), "bots": _("bots only")}[seek["opponents"]]
        return _("Seeking a game of {game} against {against}; a table opens when someone seeks the same "
                 "(unseek to stop).").format(game=_game_words(seek["preset"], seek["options"]), against=against)
    if kind == "challenge_over":
        what = (_("Challenge {id} is over: {why}.") if message.get("table") is None else
                _("Invitation {id} is over: {why}."))
        return what.format(id=message["challenge"], why=say(message["message"]))
    challenge = message["challenge"]
    game = _game_words(challenge["preset"], challenge["options"])
    if challenge.get("table") is not None:
        return _invitation_text(message, challenge, game)
    if kind == "challenge":
        return _("Challenge {id} sent to {name}: {game}. It lasts {seconds} s; decline {id} withdraws "
                 "it.").format(id=challenge["id"], name=_person(challenge["to"], challenge["to_bot"]), game=game,
                               seconds=challenge["expires_in"])
    note = f' "{challenge["text"]}"' if challenge["text"] else ""
    return (_("{name} challenges you to {game}.").format(name=_person(challenge["from"], challenge["from_bot"]),
                                                         game=game)
            + note + " " + _("Type accept {id} or decline {id} (within {seconds} s).").format(
                id=challenge["id"], seconds=challenge["expires_in"]))


def _invitation_text(message: dict[str, Any], invitation: dict[str, Any], game: str) -> str:
    table = (_("table {table} ({game}, private)") if invitation["private"] else
             _("table {table} ({game})")).format(table=invitation["table"], game=game)
    if message["type"] == "challenge":
        return _("Invitation {id} to {table} sent to {name}. It lasts {seconds} s.").format(
            id=invitation["id"], table=table, name=_person(invitation["to"], invitation["to_bot"]),
            seconds=invitation["expires_in"])
    note = f' "{invitation["text"]}"' if invitation["text"] else ""
    return (_("{name} invites you to {table}.").format(name=_person(invitation["from"], invitation["from_bot"]),
                                                       table=table)
            + note + " " + _("Type accept {id} or decline {id} (within {seconds} s).").format(
                id=invitation["id"], seconds=invitation["expires_in"]))


def chat_line(message: dict[str, Any]) -> str:
    """One chat line: where it was said, who said it, what."""
    to = message["to"]
    where = (_("lobby") if to == "lobby" else _("table {table} watchers").format(table=message["table"])
             if to == "watchers" else _("table {table}").format(table=message["table"]))
    return f"[{where}] {message['from']}: {message['text']}"


def talk_text(message: dict[str, Any]) -> str:
    """A ``tell`` (sent or received), the ``muted`` names, or a ``chat_history``."""
    kind = message["type"]
    if kind == "tell":
        if message["echo"]:
            waiting = " " + _("(they are away: it waits for their next login)") if message["waiting"] else ""
            return _("You tell {name}: {text}").format(name=message["to"], text=message["text"]) + waiting
        told = (_("{name} told you while you were away: {text}") if message["waiting"] else
                _("{name} tells you: {text}")).format(name=message["from"], text=message["text"])
        return told + "  " + _("(tell {name} ... to answer)").format(name=message["from"])
    if kind == "muted":
        names = message["names"]
        return _("You have muted: {names}.").format(names=", ".join(names)) if names else _("You have muted nobody.")
    lines = message["lines"]
    said = _("Said in the lobby lately:") if all(line["to"] == "lobby" for line in lines) else \
        _("The watchers said during the game:")
    return "\n".join([said] + ["  " + chat_line(line) for line in lines])
