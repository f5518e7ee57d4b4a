"""Error codes: the stable names of everything that can go wrong, and the error message shape.

A client branches on ``code``, never on ``message`` (which is for people and may be
reworded).  Codes are never renamed or reused; new ones may be added.  Engine refusals
(``not_your_turn``, ``would_pass_31``...) are passed through with the engine's own code.

>>> error_message("table_full", "table 3 has no free seat", request_id=7)
{'type': 'error', 'code': 'table_full', 'message': 'table 3 has no free seat', 'id': 7}
"""

from __future__ import annotations

import math
from typing import Any

#: Every code the server may send, with when it is sent.  docs/PROTOCOL.md has the same list
#: (a test keeps them equal).  Retired, never to be reused: ``over_claim`` (older servers
#: refused every claim above a show's worth with it; now the claimer gets ``claim_refused``).
ERROR_CODES: dict[str, str] = {
    # framing and message shape
    "bad_json": "the line is not UTF-8 JSON, or not a JSON object",
    "line_too_long": "the line is longer than the limit; the connection is then closed",
    "unknown_type": "the message's type is not a request the server knows",
    "missing_field": "a required field is absent (the error names it in `field`)",
    "bad_field": "a field has the wrong type or an impossible value (named in `field`)",
    "bad_text": "a string holds a lone UTF-16 surrogate, which is not text (the field is named in `field`)",
    "unknown_command": "text mode only: the line is not a text command",
    "bad_command": "text mode only: a text command with the wrong words after it (the message says how "
                   "it is written)",
    # handshake
    "hello_required": "a request other than hello or ping before the handshake",
    "already_hello": "a second hello on a connection that has completed the handshake",
    "unsupported_version": "the client's protocol version is not one the server speaks",
    "bad_token": "the resume token is unknown or its seat is no longer held",
    "name_taken": "someone connected (or holding a seat) already goes by that name, or one that looks "
                  "the same, or the name is a computer player's",
    "password_required": "hello with a registered name and no password (nor a resume token of that name)",
    "bad_password": "the account's password is wrong (hello, change_password, unregister); wrong ones are "
                    "counted per address like a table's; join_event: a private event's password is "
                    "missing or wrong",
    "already_registered": "register of a name that is registered already (yours, or someone's)",
    "not_registered": "change_password or unregister by a guest (no account), hello with a password "
                      "for a name no account has, or a guest's tell to an account that is not online",
    "name_required": "text mode only: a command that needs a name after the name you chose was refused: "
                     "choose one (name NAME, or login NAME PASSWORD)",
    "bad_name": "the name holds a character a name may not (a control, an invisible or bidirectional "
                "one), or nothing visible",
    # lobby and seating
    "no_such_table": "no open table has this id",
    "no_such_seat": "the seat number is outside the table",
    "seat_taken": "someone (or a held, disconnected player) sits there",
    "table_full": "no free seat is left at the table",
    "too_many_watchers": "the table has as many watchers as its max_spectators option allows",
    "wrong_password": "the table is private and the password is missing or wrong",
    "too_many_attempts": "too many wrong passwords from your address lately (a private table), or too many "
                         "password checks for the name, or names tried, lately (an account); wait "
                         "`retry_after` seconds",
    "already_at_table": "leave your table first",
    "not_at_table": "the request needs you to be at a table",
    "not_seated": "the request needs you to be seated (spectators cannot do it)",
    "game_in_progress": "seats cannot change while a game is being played",
    "no_game": "there is no game being played at your table",
    "no_match": "resign_match at a table where no match is going on (none, or already won)",
    "not_a_computer": "remove_computer on a seat that no computer player holds",
    "unknown_level": "no computer player of that level",
    "not_creator": "only the table's creator may change its settings or remove a computer player",
    "not_away": "stand_in on a seat whose person is not away in a game (or not yet past the grace period)",
    # meeting in the lobby
    "no_such_player": "challenge: nobody online goes by that name",
    "player_busy": "challenge: the player is at a table or away, not in the lobby",
    "no_such_challenge": "accept or decline: no open challenge of that id is yours to answer",
    "too_many_challenges": "challenge: you have as many challenges open as allowed; withdraw one",
    # people talking
    "not_watching": "chat to the watchers from a seat: the watchers' chat is for those who watch",
    "too_many_muted": "mute: you have muted as many names as allowed; unmute one",
    "not_muted": "unmute: you have not muted that name",
    "too_many_waiting": "tell: you have as many tells waiting for the absent account's login as one sender "
                        "may leave",
    # records
    "no_such_game": "no finished game has this id",
    "storage_unavailable": "the server could not read its records, or could not save what the request did "
                           "(so it did not happen), or the table is paused until it can (try again later)",
    # rules (from the engine)
    "unknown_preset": "no preset of that name",
    "invalid_player_count": "the preset is not played by that many players (or not in partnerships)",
    "invalid_option": "an option the preset does not take, or a value outside its range",
    # the game (from the engine)
    "invalid_card": "text that is not a card",
    "not_your_turn": "your seat may not act now",
    "wrong_phase": "that kind of action is not possible in this phase of the deal",
    "card_not_in_hand": "you do not hold that card",
    "would_pass_31": "the card would take the count past 31",
    "must_play": "go said while holding a card that can be played",
    "wrong_discard": "the wrong number of cards laid away, or the same card twice",
    "already_discarded": "you have already laid away to the crib",
    "bad_claim": "a claim outside 0-29, or a muggins call that does not say more than was claimed",
    "illegal_action": "a refusal of the rules engine with no more precise code (not expected)",
    # the coach
    "hints_off": "hint (or review of a game being played) at a table without the hints option",
    "no_hint": "hint while a show is counted by hand: the coach never counts for anyone",
    "no_such_deal": "review of a deal that has not ended",
    # flow control
    "rate_limited": "too many requests; wait `retry_after` seconds (the request was ignored)",
    "busy": "the server is checking as many passwords as it takes at once; try again after `retry_after` "
            "seconds (the request was ignored)",
    "too_many_accounts": "register: your address has made as many accounts today as allowed; wait "
                         "`retry_after` seconds",
    # club nights (docs/PROTOCOL.md "Club nights")
    "no_such_event": "no club night has this id",
    "not_director": "only the event's director may do that (direct_event); announce_event by someone not "
                    "among the server's --director names",
    "event_state": "the event is not in a state that allows it (over, not running, not paused, started)",
    "not_entered": "withdraw_event or remove of a name not entered in the event",
    "already_entered": "join_event: you have entered the event already",
    "removed_from_event": "join_event: the director removed you from the event",
    "too_late": "join_event: the event takes no more entrants (started, and late entry is over)",
    "event_full": "join_event: the event has as many entrants as it may",
    "too_few_entrants": "direct_event start with fewer than two entrants",
    "too_many_events": "announce_event: the server has as many unfinished events as it keeps, or you "
                       "direct one that is not over",
    "flood": "far too many requests; the connection is then closed",
    # resource limits
    "too_many_connections": "the client's address has too many connections open; this one is then closed",
    "too_many_tables": "this connection has created too many tables that are still open",
}

#: Codes after which the server closes the connection.
CLOSING_CODES: frozenset[str] = frozenset({"line_too_long", "flood", "too_many_connections"})


def retry_after(wait: float) -> float:
    """A wait in seconds as an error's ``retry_after`` and its message say it: rounded up to
    1/100 s (never too soon), the same number in both.  Rounded to a millionth first, so a
    float's noise (0.03 * 100 is 3.0000000000000004) does not add a hundredth, unless that
    would make it less than the wait (a wait of a nanosecond is 0.01, never 0)."""
    seconds = math.ceil(round(wait * 100, 6)) / 100
    return seconds if seconds >= wait else math.ceil(wait * 100) / 100


class ProtocolError(ValueError):
    """A request the server refuses: ``code`` is one of :data:`ERROR_CODES`.

    ``field`` names the offending field where there is one; ``extra`` holds further
    machine-readable details (``retry_after``, ``supported``...) that go into the error message.
    """

    def __init__(self, code: str, message: str, *, field: str | None = None, **extra: Any) -> None:
        if code not in ERROR_CODES:
            raise AssertionError(f"undocumented error code {code!r}")
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field
        self.extra = extra

    def to_message(self, request_id: Any = None) -> dict[str, Any]:
        extra = dict(self.extra)
        if self.field is not None:
            extra["field"] = self.field
        return error_message(self.code, self.message, request_id=request_id, **extra)


def error_message(code: str, message: str, *, request_id: Any = None, **extra: Any) -> dict[str, Any]:
    """The wire form of an error; ``id`` is the request's id, or null if it had none."""
    out: dict[str, Any] = {"type": "error", "code": code, "message": message, "id": request_id}
    out.update(extra)
    return out
