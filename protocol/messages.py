"""What the server sends: every reply, push and event, and the fields each carries, as data.

:data:`REQUESTS <noddy.protocol.requests.REQUESTS>` declares what a client may send; this
module declares the other direction, so that :mod:`noddy.protocol.schema` can make one JSON
Schema of the whole protocol (``docs/schema.json``) for a client in any language, and the
tests can hold every message the server sends to it.

A declaration is a mapping of field name to a *type word*:

* ``int``, ``number``, ``str``, ``bool``, ``card`` (a card's text, ``"TH"``), ``object``
  (any JSON object: its keys depend on the preset or the request, see docs/PROTOCOL.md),
  ``any``, ``id`` (a request's ``id`` echoed: a whole number, a string or null);
* ``@name``: the shape :data:`SHAPES` declares under ``name``; ``message:TYPE``: a whole
  message of that type (a snapshot's ``turn``);
* ``[T]``: a list of ``T``; a trailing ``?`` (``int?``): also null.

A field name starting with ``~`` may be absent.  A message type's fields do not include
``type``; a field keeps one type within one message type, so a typed client decodes each
message by its ``type`` (``table`` is a table's id in ``event`` and ``turn`` but the whole
table, ``@table``, in ``table`` and ``snapshot``: see "Decode by type" in docs/PROTOCOL.md).
"""

from __future__ import annotations

from typing import Mapping

Fields = Mapping[str, str]

#: Shapes that several messages share.
SHAPES: dict[str, Fields] = {
    "table": {
        "id": "int", "preset": "str", "players": "int", "partnerships": "bool", "options": "object",
        "private": "bool", "status": "str", "creator": "str", "seats": "[@seat?]",
        "spectators": "[str]", "turn_timer": "number?", "games_played": "int", "game_id": "int?",
        "rated": "bool", "unrated_reasons": "[str]", "unrated_why": "str?", "match": "object?",
        "~last_game": "object",
        "~seat_silence": "number?", "~event": "object",
    },
    "seat": {"seat": "int", "name": "str", "kind": "str", "bot": "bool", "level": "str?",
             "ready": "bool", "connected": "bool", "guest": "bool", "rating": "int?",
             "~stand_in_for": "str?"},
    "legal_action": {"action": "str", "~card": "card", "~cards": "[card]", "~min": "int", "~max": "int"},
    "score_item": {"kind": "str", "points": "int", "cards": "[card]"},
    "cut": {"seat": "int", "card": "card"},
    "played_card": {"seat": "int", "card": "card"},
    "show_points": {"seat": "int", "points": "int"},
    "show_to_count": {"seat": "int", "reason": "str", "cards": "[card]", "claimed": "int?",
                      "refused": "int?"},
    #: A game as one seat may see it (``snapshot.game``, ``turn.state``): only that seat's
    #: own cards (``hand``, ``laid_away``); a spectator's are null.
    "game_view": {
        "seat": "int?", "preset": "str", "players": "int", "partnerships": "bool", "target": "int",
        "phase": "str", "deal": "int", "dealer": "int?", "hand": "[card]?", "hand_sizes": "[int]",
        "crib_size": "int", "turn_up": "card?", "pile": "[card]", "count": "int",
        "played": "[@played_card]", "passed": "[int]", "discarded": "[int]", "scores": "[int]",
        "to_move": "int?", "~legal_actions": "[@legal_action]", "winner": "int?",
        "laid_away": "[card]?", "shows": "[@show_points]", "counting": "@show_to_count?",
        "~crib_owner": "int?",
    },
    "logged_event": {"seq": "int?", "event": "@event"},
    "challenge": {"id": "int", "from": "str", "to": "str", "from_bot": "bool", "to_bot": "bool",
                  "preset": "str", "options": "object", "private": "bool", "table": "int?",
                  "text": "str?", "expires_in": "int"},
    #: A club night in the ``events`` list (docs/PROTOCOL.md "Club nights").
    "club_event_summary": {"id": "int", "title": "str", "director": "str", "format": "str",
                           "preset": "str", "state": "str", "round": "int", "rounds": "int?",
                           "entrants": "int", "private": "bool", "duplicate": "bool", "rated": "bool",
                           "games": "int", "starts_at": "number?"},
    #: A club night whole (``event``, ``announce_event``): definition, entrants, rounds, standings.
    "club_event": {"id": "int", "title": "str", "director": "str", "format": "str", "preset": "str",
                   "options": "object", "state": "str", "round": "int", "rounds": "int?",
                   "entrants": "[object]", "private": "bool", "duplicate": "bool", "rated": "bool",
                   "games": "int", "starts_in": "number?", "forfeit_wait": "number",
                   "round_pause": "number", "next_round_in": "number?", "reason": "str?",
                   "rounds_played": "[@club_round]", "standings": "object"},
    #: One round of a club night and its boards; a board's games name their records' ``id``
    #: (``get_game`` replays one; null for a game forfeited unplayed).
    "club_round": {"round": "int", "bye": "str?", "over": "bool", "boards": "[@club_board]"},
    "club_board": {"board": "int", "a": "str", "b": "str", "table": "int?", "status": "str",
                   "forfeit": "str?", "forfeit_by": "[str]", "games": "[@club_game]"},
    "club_game": {"game": "int", "id": "int?", "winner": "str", "a_score": "int", "b_score": "int",
                  "skunk": "str", "forfeit": "str?"},
    "chat_line": {"from": "str", "text": "str", "to": "str", "~seat": "int?", "~table": "int?",
                  "~type": "str"},
}

#: Every event kind (the ``event`` of an ``event`` message, ``kind`` not listed): what
#: noddy.engine.events gives on the wire (tests/protocol/test_schema.py holds them equal).
EVENTS: dict[str, Fields] = {
    "game_started": {"preset": "str", "players": "int", "partnerships": "bool", "target": "int"},
    "cut_for_deal": {"dealer": "int?", "cuts": "[@cut]"},
    "deal_started": {"deal": "int", "dealer": "int"},
    "cards_dealt": {"seat": "int", "count": "int", "cards": "[card]?"},
    "discarded": {"seat": "int?", "count": "int", "cards": "[card]?"},
    "turned_up": {"card": "card"},
    "scored": {"seat": "int", "points": "int", "reason": "str", "items": "[@score_item]",
               "scores": "[int]", "cards": "[card]?", "concealed": "bool", "announcement": "str"},
    "played": {"seat": "int", "card": "card", "count": "int"},
    "go": {"seat": "int"},
    "count_reset": {},
    "hands_revealed": {"hands": "[[card]]", "crib": "[card]?"},
    "deal_ended": {"deal": "int", "scores": "[int]"},
    "game_over": {"winner": "int", "winning_seats": "[int]", "scores": "[int]", "ending": "str",
                  "skunk": "str", "~resigned": "[int]", "~abandoned": "[int]",
                  "~duration_s": "number?",  # the server's, from its result (issue 32)
                  "~names": "[str?]", "~played_to": "[int]"},  # the server's too (issue 33)
    "counting": {"seat": "int", "reason": "str", "cards": "[card]", "turn_up": "card"},
    "claimed": {"seat": "int", "reason": "str", "cards": "[card]", "points": "int"},
    "claim_refused": {"seat": "int", "reason": "str", "points": "int", "counts_as_zero": "bool"},
    "muggins": {"seat": "int", "owner": "int", "points": "int", "right": "bool"},
    "passed": {"seat": "int", "owner": "int"},
    "counted": {"seat": "int", "reason": "str", "cards": "[card]", "claimed": "int", "worth": "int",
                "items": "[@score_item]", "mugged_by": "int?", "lost": "int", "announcement": "str"},
}

#: Every message type the server sends and its fields (``type`` not listed).  A reply
#: carries its request's ``id``; a push (sent unasked) has none, or ``id`` null.
MESSAGES: dict[str, Fields] = {
    # -- the handshake and the connection
    #: ``languages``: each language the server speaks, code -> its name in itself.
    "greeting": {"server": "str", "version": "int", "~help": "str", "~supported": "[int]",
                 "languages": "object"},
    "welcome": {"id": "id", "name": "str", "token": "str", "version": "int", "server": "str",
                "resumed": "bool", "registered": "bool", "table": "int?", "seat": "int?",
                "presets": "[object]", "table_options": "object", "levels": "[str]",
                "default_level": "str", "limits": "object", "ratings": "object",
                "language": "str", "languages": "object"},
    #: The reply to ``language``: the code of the language the connection reads now.
    "language": {"id": "id", "language": "str"},
    "ok": {"id": "id"},
    "error": {"id": "id", "code": "str", "message": "str", "~field": "str",
              "~retry_after": "number", "~supported": "[int]"},
    "ping": {"~id": "id"},
    "pong": {"~id": "id"},
    "bye": {"~id": "id", "~reason": "str"},
    "shutdown": {"message": "str", "~restart": "bool"},
    # -- the lobby and tables
    "tables": {"id": "id", "tables": "[@table]"},
    "table": {"~id": "id", "table": "@table", "~seat": "int?"},
    "table_closed": {"table": "int", "reason": "str", "message": "str", "~games_played": "int"},
    "snapshot": {"~id": "id", "table": "@table", "seat": "int?", "seq": "int", "game": "@game_view?",
                 "events": "[@logged_event]", "~turn": "message:turn",
                 "~dealt": "[str?]", "~seat_changes": "[object]"},  # who played each seat when (issue 33)
    "chat": {"from": "str", "text": "str", "to": "str", "~seat": "int?", "~table": "int?"},
    "chat_history": {"lines": "[@chat_line]"},
    "who": {"id": "id", "people": "[object]"},
    "challenge": {"id": "id", "challenge": "@challenge"},
    "challenged": {"challenge": "@challenge"},
    "challenge_over": {"challenge": "int", "reason": "str", "message": "str", "~table": "int?",
                       "~name": "str"},
    "seeking": {"id": "id", "seek": "object"},
    "tell": {"~id": "id", "from": "str", "to": "str", "text": "str", "~sent_at": "number",
             "~echo": "bool", "~waiting": "bool"},
    "muted": {"id": "id", "names": "[str]"},
    # -- the game
    "event": {"table": "int", "seq": "int?", "event": "@event"},
    #: Whose move it is; only the seat that must act gets ``legal_actions`` and ``state``.
    "turn": {"table": "int", "seq": "int", "to_move": "int?", "awaiting": "[int]", "count": "int",
             "legal_actions": "[@legal_action]", "time_left": "number?", "~state": "@game_view"},
    "timed_out": {"table": "int", "seat": "int", "action": "object"},
    "player_away": {"table": "int", "seat": "int", "name": "str", "grace": "number"},
    "player_back": {"table": "int", "seat": "int", "name": "str"},
    "player_replaced": {"table": "int", "seat": "int", "name": "str", "level": "str?",
                        "~resigned": "bool"},
    "stand_in": {"table": "int", "seat": "int", "name": "str", "level": "str?", "~silent": "number",
                 "~counts": "str"},  # what counts if they never come back (issue 33)
    #: A result told to someone not at the table when it was decided (issue 33).
    "game_result": {"table": "int", "game": "int", "seat": "int", "names": "[str?]", "why": "str",
                    "result": "object?", "match": "object?", "rating": "object?", "message": "str"},
    "seat_silent": {"table": "int", "seat": "int", "name": "str", "silent": "number",
                    "request": "object"},
    "hint": {"id": "id", "table": "int", "seat": "int", "decision": "str", "choices": "[object]"},
    "review": {"id": "id", "game": "int?", "seat": "int", "deal": "int?", "notes": "[object]"},
    "match_game": {"table": "int", "game": "int", "games": "int", "seed": "int", "seats": "[object]",
                   "actions": "[object]", "result": "object", "~think": "[[number]]"},
    # -- records, accounts, statistics
    "games": {"id": "id", "name": "str", "games": "[object]"},
    "game_record": {"id": "id", "record": "object"},
    "leaderboard": {"id": "id", "family": "str", "players": "[object]", "~unrated": "object",
                    "~why": "str"},
    "stats": {"id": "id", "name": "str", "preset": "str?", "presets": "[object]", "ratings": "[object]",
              "~events": "[object]"},
    "registered": {"id": "id", "name": "str"},
    # -- club nights
    "club_event": {"id": "id", "event": "@club_event"},
    "club_events": {"id": "id", "events": "[@club_event_summary]"},
    "event_news": {"event": "int", "kind": "str", "text": "str", "~names": "[str]"},
    "event_table": {"event": "int", "round": "int", "board": "int", "table": "int", "seat": "int",
                    "opponent": "str", "games": "int"},
    "password_changed": {"id": "id", "name": "str"},
    "unregistered": {"id": "id", "name": "str"},
}
