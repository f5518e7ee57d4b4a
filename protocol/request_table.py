"""Every request a client may send, declared once: its fields and its gates.

A :class:`RequestSpec` carries everything the protocol says about one request type: its
fields (:class:`~noddy.protocol.fields.FieldSpec`), whether it changes a table's seats or
game (``changes_table``: such a request is refused with ``storage_unavailable`` at a table
the server could not save, docs/PROTOCOL.md "When the disk fails"), whether it is accepted
before ``hello``, whether it counts as its person speaking (``heard``: it ends their silence
at a table), and why a person typing at a terminal has no text command for it
(``no_text``) or the full-screen client no key (``no_client``), where that is so.

Why here, in the protocol both ends share, and not in the server: each of these is a fact a
stranger writing a bot must know (which requests a paused table refuses, which need a
hello), so it belongs beside the fields; the server derives its gates from it
(:data:`CHANGES_TABLE`, :data:`BEFORE_HELLO`, :data:`NOT_HEARD`), so no list of request
names is kept by hand anywhere.  ``changes_table`` has no default: a new request must say.
The handler (the server core's parts' ``handlers()``), the text command
(``noddy.server.text.commands``) and the client key (``noddy.client.keys``) live in the
layer that owns them and name the request type; tests/server/test_request_declarations.py
joins them all and fails for a request missing anywhere without its declared reason.

:data:`REQUESTS` is the field schema read from the declarations, as the validators use it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .fields import FieldSpec

#: The turn timer's bounds in seconds, for ``create_table`` and ``configure_table`` alike (a
#: shorter timer would let a table's creator make the server move for the others at will).
TURN_TIMER_MIN = 1
TURN_TIMER_MAX = 3600


#: The largest id (of a table or a game) a request may name: the largest integer every JSON
#: reader holds exactly (2**53 - 1), far below what storage can hold (2**63 - 1), so a larger
#: one is ``bad_field`` instead of a failure of the database.
MAX_ID = 2**53 - 1
#: Seat numbers and player counts beyond any table (a preset's own limits are checked later).
MAX_SEAT = 63
MAX_PLAYERS = MAX_SEAT + 1
#: The most points a claim or a muggins call may name on the wire (the engine holds them to
#: what a show can hold, 29, with a clearer error).
MAX_POINTS = 999
#: The most games a match table's ``deal_seeds`` may plan (the line limit holds it to ~450).
MAX_DEAL_SEEDS = 1000
#: The longest password (of a table or an account) a request may carry, and the shortest an
#: account's may be (``register``, ``change_password``: ``bad_field`` below it).
MAX_PASSWORD = 64
MIN_ACCOUNT_PASSWORD = 4
#: The longest club-night title a request may carry (the event's own limit, MAX_TITLE in
#: server/model/club_types.py, says why: one line of an 80-column lobby screen).
MAX_EVENT_TITLE = 60
#: Most Swiss rounds and games per pairing a request may name (the event's limits, kept in
#: step with server/model/club_types.py, which refuses more with a clearer message).
MAX_EVENT_ROUNDS = 15
MAX_EVENT_GAMES = 10
#: The longest wait a club night's clocks take, in seconds (no-show wait, pause between
#: rounds, start): half an hour each (longer holds the whole room for one absent player);
#: a start is at most a day ahead.
MAX_EVENT_WAIT = 1800
MAX_EVENT_START = 86400
#: The longest language tag or locale name a request may carry ("de_AT.UTF-8@euro" is 16;
#: anything longer is no language Noddy could speak).
MAX_LANGUAGE_TAG = 32




@dataclass(frozen=True)
class RequestSpec:
    """One request type; see the module docstring."""

    type: str
    fields: tuple[FieldSpec, ...]
    #: It changes a table's seats or game: refused at a paused table (no default: say).
    changes_table: bool
    #: Accepted before ``hello`` has succeeded (else ``hello_required``).
    before_hello: bool = False
    #: It is its person speaking: it ends their silence on their turn (see server/core/silence.py).
    heard: bool = True
    #: Why a person has no text command for it (None: one must exist).
    no_text: str | None = None
    #: Why the full-screen client has no key for it (None: one must exist).
    no_client: str | None = None


def _f(name: str, kind: str, **kw: Any) -> FieldSpec:
    return FieldSpec(name, kind, **kw)


#: Why the full-screen client has no key for some requests (``no_client``).
_ACCOUNT_UPKEEP = ("a password is changed or an account given up over nc (password, unregister) or "
                   "by a program; the client registers and logs in")
_SEEKING = "seeking is for programs and nc; a person in the client challenges someone from who is on"

#: Every request type (``type`` and ``id`` are common to all and not among the fields).
SPECS: tuple[RequestSpec, ...] = (
    RequestSpec("hello", (
        _f("name", "str", required=True, nullable=False, max_length=32, unless="resume"),
        _f("bot", "bool", default=False, nullable=False),
        _f("version", "int", required=True, nullable=False, minimum=0, maximum=MAX_ID),
        _f("resume", "str", max_length=64),
        _f("password", "str", max_length=MAX_PASSWORD),
        # Each turn of this session's seat carries the game as the seat sees it (``state``):
        # a bot can choose from the turn alone.  Asked for, since it costs the server a
        # seat's view per decision that a client folding the events does not need.
        _f("turn_state", "bool", default=False, nullable=False),
        # The language the connection reads its ``message`` fields and narration in (a tag
        # or a locale name: "de", "es-MX", "de_AT.UTF-8"; read by i18n.language_of).
        _f("language", "str", max_length=MAX_LANGUAGE_TAG),
    ), changes_table=False, before_hello=True,
       no_client="the client says hello itself as it connects, with the name it was given or typed"),
    # Another language for this connection, at any time (docs/PROTOCOL.md "Languages");
    # without ``language``, the reply only says which one it reads.
    RequestSpec("language", (
        _f("language", "str", max_length=MAX_LANGUAGE_TAG),
    ), changes_table=False, before_hello=True, heard=False),
    RequestSpec("ping", (), changes_table=False, before_hello=True, heard=False,
                no_client="the client pings by itself to keep the link alive"),
    RequestSpec("pong", (), changes_table=False, before_hello=True, heard=False,
                no_text="the answer to the server's ping: any line a person types answers it",
                no_client="the client answers the server's ping by itself"),
    RequestSpec("list_tables", (
        _f("people_only", "bool", default=False, nullable=False),
    ), changes_table=False),
    RequestSpec("create_table", (
        _f("preset", "str", default="noddy", nullable=False),
        _f("players", "int", default=2, nullable=False, minimum=1, maximum=MAX_PLAYERS),
        _f("partnerships", "bool", default=False, nullable=False),
        _f("options", "object", default=None),
        _f("private", "bool", default=False, nullable=False),
        _f("password", "str", max_length=64),
        _f("seat", "int", default=0, minimum=0, maximum=MAX_SEAT),
        _f("turn_timer", "number", minimum=TURN_TIMER_MIN, maximum=TURN_TIMER_MAX),
        _f("deal_seeds", "int_list", minimum=0, maximum=MAX_ID, max_length=MAX_DEAL_SEEDS),
    ), changes_table=False),
    RequestSpec("sit", (
        _f("table", "int", minimum=1, maximum=MAX_ID),
        _f("seat", "int", minimum=0, maximum=MAX_SEAT),
        _f("password", "str", max_length=64),
    ), changes_table=True),
    RequestSpec("spectate", (
        _f("table", "int", required=True, nullable=False, minimum=1, maximum=MAX_ID),
        _f("password", "str", max_length=64),
    ), changes_table=False),
    RequestSpec("stand", (), changes_table=True),
    RequestSpec("leave", (), changes_table=True),
    RequestSpec("resign_match", (), changes_table=True),
    RequestSpec("add_computer", (
        _f("seat", "int", minimum=0, maximum=MAX_SEAT),
        _f("level", "str", max_length=32),
    ), changes_table=True),
    RequestSpec("remove_computer", (
        _f("seat", "int", required=True, nullable=False, minimum=0, maximum=MAX_SEAT),
    ), changes_table=True),
    RequestSpec("ready", (
        _f("ready", "bool", default=True, nullable=False),
    ), changes_table=True),
    RequestSpec("stand_in", (
        _f("seat", "int", required=True, nullable=False, minimum=0, maximum=MAX_SEAT),
        _f("on", "bool", default=True, nullable=False),
    ), changes_table=True),
    RequestSpec("action", (
        _f("action", "str", required=True, nullable=False,
           choices=("play", "go", "discard", "claim", "muggins", "pass")),
        _f("card", "str", max_length=8),
        _f("cards", "str_list"),
        _f("points", "int", minimum=0, maximum=MAX_POINTS),
        _f("seat", "int", minimum=0, maximum=MAX_SEAT),
    ), changes_table=True),
    RequestSpec("chat", (
        _f("text", "str", required=True, nullable=False, max_length=500),
        _f("to", "str", choices=("table", "lobby", "watchers")),
    ), changes_table=False),
    RequestSpec("snapshot", (), changes_table=False,
                no_client="the client asks for it itself when it comes back to a table"),
    RequestSpec("hint", (), changes_table=False),
    RequestSpec("review", (
        _f("game", "int", minimum=1, maximum=MAX_ID),
        _f("deal", "int", minimum=1, maximum=MAX_ID),
        _f("seat", "int", minimum=0, maximum=MAX_SEAT),
    ), changes_table=False),
    RequestSpec("configure_table", (
        _f("options", "object"),
        _f("private", "bool"),
        _f("password", "str", max_length=64),
        _f("turn_timer", "number", minimum=TURN_TIMER_MIN, maximum=TURN_TIMER_MAX, also=(0,)),
    ), changes_table=True,
       no_text="a table's settings are chosen with new; a program may change them between games",
       no_client="a table's settings are chosen in the new-table form; a program may change them later"),
    RequestSpec("list_games", (
        _f("name", "str", max_length=32),
        _f("limit", "int", default=20, nullable=False, minimum=1, maximum=100),
    ), changes_table=False),
    RequestSpec("get_game", (
        _f("game", "int", required=True, nullable=False, minimum=1, maximum=MAX_ID),
        _f("password", "str", max_length=64),
    ), changes_table=False),
    RequestSpec("leaderboard", (
        _f("family", "str", default="noddy", nullable=False, choices=("noddy", "cribbage")),
        _f("limit", "int", default=20, nullable=False, minimum=1, maximum=100),
        _f("people_only", "bool", default=False, nullable=False),
    ), changes_table=False),
    RequestSpec("stats", (
        _f("name", "str", max_length=32),
        _f("preset", "str", max_length=32),
    ), changes_table=False),
    RequestSpec("bye", (), changes_table=False),
    RequestSpec("register", (
        _f("password", "str", required=True, nullable=False, max_length=MAX_PASSWORD),
    ), changes_table=False),
    RequestSpec("change_password", (
        _f("old", "str", required=True, nullable=False, max_length=MAX_PASSWORD),
        _f("new", "str", required=True, nullable=False, max_length=MAX_PASSWORD),
    ), changes_table=False, no_client=_ACCOUNT_UPKEEP),
    RequestSpec("unregister", (
        _f("password", "str", required=True, nullable=False, max_length=MAX_PASSWORD),
    ), changes_table=False, no_client=_ACCOUNT_UPKEEP),
    RequestSpec("who", (
        _f("people_only", "bool", default=False, nullable=False),
    ), changes_table=False),
    RequestSpec("challenge", (
        _f("name", "str", required=True, nullable=False, max_length=32),
        _f("preset", "str", default="noddy", nullable=False, max_length=32),
        _f("options", "object"),
        _f("ready", "bool", default=False, nullable=False),
        _f("text", "str", max_length=200),
    ), changes_table=False),
    RequestSpec("accept", (
        _f("challenge", "int", required=True, nullable=False, minimum=1, maximum=MAX_ID),
        _f("ready", "bool", default=False, nullable=False),
    ), changes_table=False),
    RequestSpec("decline", (
        _f("challenge", "int", required=True, nullable=False, minimum=1, maximum=MAX_ID),
    ), changes_table=False),
    RequestSpec("seek", (
        _f("preset", "str", default="noddy", nullable=False, max_length=32),
        _f("options", "object"),
        _f("opponents", "str", default="any", nullable=False, choices=("any", "people", "bots")),
        _f("ready", "bool", default=False, nullable=False),
    ), changes_table=False, no_client=_SEEKING),
    RequestSpec("unseek", (), changes_table=False, no_client=_SEEKING),
    RequestSpec("tell", (
        _f("name", "str", required=True, nullable=False, max_length=32),
        _f("text", "str", required=True, nullable=False, max_length=500),
    ), changes_table=False),
    RequestSpec("invite", (
        _f("name", "str", required=True, nullable=False, max_length=32),
        _f("text", "str", max_length=200),
    ), changes_table=False),
    RequestSpec("mute", (
        _f("name", "str", required=True, nullable=False, max_length=32),
    ), changes_table=False),
    RequestSpec("unmute", (
        _f("name", "str", required=True, nullable=False, max_length=32),
    ), changes_table=False),
    RequestSpec("muted", (), changes_table=False),
    # -- club nights (issue 35): docs/PROTOCOL.md "Club nights"
    RequestSpec("announce_event", (
        _f("title", "str", required=True, nullable=False, max_length=MAX_EVENT_TITLE),
        _f("format", "str", required=True, nullable=False, choices=("swiss", "round-robin")),
        _f("rounds", "int", minimum=1, maximum=MAX_EVENT_ROUNDS),
        _f("preset", "str", default="cribbage", nullable=False, max_length=32),
        _f("options", "object"),
        _f("games", "int", default=2, nullable=False, minimum=1, maximum=MAX_EVENT_GAMES),
        _f("duplicate", "bool", default=True, nullable=False),
        _f("starts_in", "number", minimum=0, maximum=MAX_EVENT_START),
        _f("rated", "bool", default=False, nullable=False),
        _f("password", "str", max_length=MAX_PASSWORD),
        _f("forfeit_wait", "number", minimum=1, maximum=MAX_EVENT_WAIT),
        _f("round_pause", "number", minimum=0, maximum=MAX_EVENT_WAIT),
    ), changes_table=False),
    RequestSpec("events", (), changes_table=False),
    RequestSpec("event", (
        _f("event", "int", required=True, nullable=False, minimum=1, maximum=MAX_ID),
    ), changes_table=False),
    RequestSpec("join_event", (
        _f("event", "int", required=True, nullable=False, minimum=1, maximum=MAX_ID),
        _f("password", "str", max_length=MAX_PASSWORD),
    ), changes_table=False),
    RequestSpec("withdraw_event", (
        _f("event", "int", required=True, nullable=False, minimum=1, maximum=MAX_ID),
    ), changes_table=False),
    RequestSpec("direct_event", (
        _f("event", "int", required=True, nullable=False, minimum=1, maximum=MAX_ID),
        _f("command", "str", required=True, nullable=False,
           choices=("start", "pause", "resume", "end", "remove", "round_pause")),
        _f("name", "str", max_length=32),
        _f("seconds", "number", minimum=0, maximum=MAX_EVENT_WAIT),
    ), changes_table=False),
)

#: Each request type's declaration, by type.
BY_TYPE: dict[str, RequestSpec] = {spec.type: spec for spec in SPECS}
#: Every request type and its fields, in declaration order.
REQUESTS: dict[str, tuple[FieldSpec, ...]] = {spec.type: spec.fields for spec in SPECS}
#: The requests a paused table refuses (``storage_unavailable``).
CHANGES_TABLE = frozenset(spec.type for spec in SPECS if spec.changes_table)
#: The requests accepted before ``hello`` (any other is ``hello_required``).
BEFORE_HELLO = frozenset(spec.type for spec in SPECS if spec.before_hello)
#: The requests that are not their person speaking (a connection's keepalive).
NOT_HEARD = frozenset(spec.type for spec in SPECS if not spec.heard)
