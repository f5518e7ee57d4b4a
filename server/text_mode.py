"""Netcat mode: short text commands for a person at a bare terminal, and readable replies.

A connection whose first non-blank line does not begin with ``{`` is in text mode for good.
Each text line is turned into the same request a JSON client would send
(:func:`parse_command`), so the two modes cannot disagree about the rules; every message the
server sends such a connection is rendered as plain lines (:func:`render`) instead of JSON.

>>> parse_command("play 5h")
{'type': 'action', 'action': 'play', 'card': '5h'}
>>> parse_command("new cribbage 4 pairs target=61")["options"]
{'target': 61}
"""

from __future__ import annotations

from typing import Any

from noddy.protocol import PROTOCOL_VERSION, ProtocolError

HELP = """\
Commands (one a line):
  tables                      list the tables
  new PRESET [N] [pairs] [opt=value ...] [password=PW] [timer=SECONDS]
                              create a table for N players and sit in seat 0
                              presets: noddy noddy-ducoeur noddy-holme noddy-modern
                              five-card-cribbage cribbage; e.g. new cribbage 4 pairs target=61
  join TABLE [PASSWORD]       sit in the first free seat of a table
  sit SEAT | sit TABLE SEAT [PASSWORD]
  watch TABLE [PASSWORD]      watch a table
  bot [SEAT] [LEVEL]          a computer player takes a seat
  unbot SEAT                  the computer player leaves the seat
  stand | leave               stand up (stay watching) | go back to the lobby
  ready | unready             the game starts when every seat is taken and ready
  play CARD | go | discard CARD CARD
                              cards are rank+suit: A 2-9 T J Q K and C D H S, e.g. 5H TC
  say TEXT | shout TEXT       chat at your table (or the lobby) | chat in the lobby
  look                        show the table and your cards again
  name NAME                   (first thing only) choose your name
  resume TOKEN                (first thing only) take back your seat after a lost connection
  ping | help | quit"""


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


def parse_command(line: str) -> dict[str, Any] | None:
    """The request a text line stands for; ``None`` for ``help``; ``unknown_command`` otherwise."""
    words = line.split()
    verb, args = words[0].lower(), words[1:]
    rest = line.strip()[len(words[0]):].strip()
    if verb in ("help", "?"):
        return None
    if verb == "name" and args:
        return {"type": "hello", "name": rest[:32], "version": PROTOCOL_VERSION}
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
        return {"type": "sit", "seat": _int(args[0], "seat")}
    if verb == "sit" and 2 <= len(args) <= 3:
        return {"type": "sit", "table": _int(args[0], "table"), "seat": _int(args[1], "seat"),
                "password": args[2] if len(args) == 3 else None}
    if verb == "watch" and 1 <= len(args) <= 2:
        return {"type": "spectate", "table": _int(args[0], "table"),
                "password": args[1] if len(args) == 2 else None}
    if verb == "bot" and len(args) <= 2:
        request: dict[str, Any] = {"type": "add_computer"}
        for word in args:
            if word.isdigit():
                request["seat"] = int(word)
            else:
                request["level"] = word
        return request
    if verb == "unbot" and len(args) == 1:
        return {"type": "remove_computer", "seat": _int(args[0], "seat")}
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
    if verb in ("say", "shout") and rest:
        return {"type": "chat", "text": rest, "to": "lobby" if verb == "shout" else None}
    if verb in ("quit", "exit", "bye") and not args:
        return {"type": "bye"}
    raise ProtocolError("unknown_command", f"not a command: {line.strip()!r}; type help for the list")


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


# -- rendering ---------------------------------------------------------------------------------
def _seat_word(seat: int | None) -> str:
    return "the pack" if seat is None else f"seat {seat}"


def _table_line(table: dict[str, Any]) -> str:
    seats = []
    for index, seat in enumerate(table["seats"]):
        if seat is None:
            seats.append(f"{index}: empty")
        else:
            flags = []
            if seat["kind"] == "computer":
                flags.append("computer")
            elif seat["ready"]:
                flags.append("ready")
            if not seat["connected"]:
                flags.append("away")
            seats.append(f"{index}: {seat['name']}" + (f" ({', '.join(flags)})" if flags else ""))
    extras = []
    if table["partnerships"]:
        extras.append("partnerships")
    if table["options"]:
        extras.append(" ".join(f"{k}={v}" for k, v in table["options"].items()))
    if table["private"]:
        extras.append("private")
    watchers = f"; watching: {', '.join(table['spectators'])}" if table["spectators"] else ""
    head = f"Table {table['id']} {table['preset']} {table['players']}p"
    if extras:
        head += " (" + ", ".join(extras) + ")"
    return f"{head} [{table['status']}] " + " | ".join(seats) + watchers


def _event_line(event: dict[str, Any]) -> str:
    kind = event["kind"]
    if kind == "game_started":
        return f"A game of {event['preset']} begins; first to {event['target']} wins."
    if kind == "cut_for_deal":
        cuts = ", ".join(f"seat {c['seat']} {c['card']}" for c in event["cuts"])
        who = "a tie: cut again" if event["dealer"] is None else f"seat {event['dealer']} deals"
        return f"Cut for deal: {cuts}; {who}."
    if kind == "deal_started":
        return f"Deal {event['deal']}: seat {event['dealer']} deals."
    if kind == "cards_dealt":
        if event["cards"] is not None:
            return f"Your cards: {' '.join(event['cards'])}"
        return f"Seat {event['seat']} is dealt {event['count']} cards."
    if kind == "discarded":
        shown = f" ({' '.join(event['cards'])})" if event["cards"] else ""
        return f"{_seat_word(event['seat']).capitalize()} lays {event['count']} to the crib{shown}."
    if kind == "turned_up":
        return f"Turn-up: {event['card']}"
    if kind == "scored":
        cards = f" [{' '.join(event['cards'])}]" if event["cards"] else ""
        return (f"Seat {event['seat']} scores {event['points']} ({event['reason']}): "
                f"{event['announcement']}{cards}. Scores: {' '.join(map(str, event['scores']))}")
    if kind == "played":
        return f"Seat {event['seat']} plays {event['card']}: {event['count']}."
    if kind == "go":
        return f"Seat {event['seat']} says go."
    if kind == "count_reset":
        return "The count starts again from 0."
    if kind == "hands_revealed":
        hands = "; ".join(f"seat {i}: {' '.join(h)}" for i, h in enumerate(event["hands"]))
        crib = f"; crib: {' '.join(event['crib'])}" if event["crib"] else ""
        return f"Hands: {hands}{crib}"
    if kind == "deal_ended":
        return f"Deal {event['deal']} over. Scores: {' '.join(map(str, event['scores']))}"
    if kind == "game_over":
        seats = " and ".join(map(str, event["winning_seats"]))
        return f"Game over: seat {seats} wins. Scores: {' '.join(map(str, event['scores']))}"
    return str(event)


def render(message: dict[str, Any]) -> str:
    """``message`` as lines a person can read (always ending in a newline)."""
    kind = message["type"]
    text: str
    if kind == "welcome":
        where = "" if message["table"] is None else f" You are back at table {message['table']}."
        text = (f"Welcome, {message['name']}!{where} Your resume token is {message['token']}.\n"
                "Type tables to see the tables, new noddy to start one, help for all commands.")
    elif kind == "help":
        text = message["text"]
    elif kind == "error":
        text = f"Error ({message['code']}): {message['message']}"
    elif kind == "ok":
        text = "OK."
    elif kind == "pong":
        text = "pong"
    elif kind == "tables":
        text = "\n".join(_table_line(t) for t in message["tables"]) or \
            "No tables yet. Type new noddy to start one."
    elif kind == "table":
        text = _table_line(message["table"])
    elif kind == "table_closed":
        text = f"Table {message['table']} is closed: {message['reason']}."
    elif kind == "event":
        text = _event_line(message["event"])
    elif kind == "turn":
        if message["legal_actions"]:
            options = " | ".join(_action_text(a) for a in message["legal_actions"])
            text = f"Your turn (count {message['count']}): {options}"
        else:
            who = ", ".join(map(str, message["awaiting"]))
            text = f"Waiting for seat {who}."
    elif kind == "chat":
        where = "lobby" if message["to"] == "lobby" else f"table {message['table']}"
        text = f"[{where}] {message['from']}: {message['text']}"
    elif kind == "snapshot":
        lines = [_table_line(message["table"])]
        game = message["game"]
        if game is not None:
            if game["hand"] is not None:
                lines.append(f"Your cards: {' '.join(game['hand']) or '-'}")
            lines.append(f"Turn-up: {game['turn_up'] or '-'}  Count: {game['count']}  "
                         f"Pile: {' '.join(game['pile']) or '-'}  "
                         f"Scores: {' '.join(map(str, game['scores']))}")
            if "turn" in message:
                lines.append(render(message["turn"]).rstrip("\n"))
        text = "\n".join(lines)
    elif kind == "player_away":
        text = f"{message['name']} (seat {message['seat']}) lost the connection; the seat is held for {message['grace']:g} s."
    elif kind == "player_back":
        text = f"{message['name']} (seat {message['seat']}) is back."
    elif kind == "player_replaced":
        text = f"A {message['level']} computer player takes seat {message['seat']} from {message['name']}."
    elif kind == "timed_out":
        text = f"Seat {message['seat']} ran out of time; the server plays {_action_text(message['action'])}."
    elif kind == "shutdown":
        text = f"The server is shutting down. Goodbye."
    elif kind == "bye":
        text = f"Goodbye ({message['reason']})."
    else:
        text = " ".join(f"{k}={v}" for k, v in message.items())
    return text + "\n"


def _action_text(action: dict[str, Any]) -> str:
    if action["action"] == "play":
        return f"play {action['card']}"
    if action["action"] == "discard":
        return "discard " + " ".join(action["cards"])
    return "go"
