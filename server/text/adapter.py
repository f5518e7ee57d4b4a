"""The text adapter: between the network layer and the core, for people at a bare terminal.

Owns, per text-mode connection, what its person's lines need and the core does not keep for
them: the table they are at and their seat (to reword errors: "you do not hold TH"), the
names of that table's seats (so that events read "ann plays 5H") and their seat's legal
moves (so that ``discard 1 2`` means the cards the prompt numbered 1 and 2).  It learns all
of it from the very messages the core sends the connection, in order, at the moment the core
sends them, so it always agrees with what the person has been told.

Both ways: :meth:`TextAdapter.receive` reads a typed line into a request
(:mod:`.commands`) and hands it to ``ServerCore.receive_request``; :meth:`TextAdapter.outgoing`
is shown every core call's instructions and marks each one for a text connection with the
names its lines are rendered with and the width they are wrapped to (``Send.names`` and
``Send.width``: :mod:`.render`, at the send path), and tells a person in the lobby only the table news they
can act on (:mod:`.lobby_news`).  The core speaks only requests and messages.

A few lines are text mode's own, answered here without the core (but rate-limited by it
like any other): ``help``, ``width N`` (the person's width), and the first typing of
``register PW``, which is asked again before anything is registered.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Mapping

from noddy.protocol import ProtocolError
from noddy.protocol.i18n import Phrase

from ..core.instructions import Effects, Lines, Send
from .club_text import AT_CLUB_BOARD
from .commands import BY_VERB, parse_command
from .help import help_reply
from .lobby_news import LobbyNews
from .move_commands import cards_by_number
from .render import person_error
from .wrapping import DEFAULT_WIDTH, MAX_WIDTH, MIN_WIDTH

if TYPE_CHECKING:
    from ..core import ServerCore
    from ..core.instructions import Out

_NO_NAMES: tuple[str, ...] = ()


@dataclass
class _Person:
    """What one text connection's lines need (see the module docstring)."""

    table: int | None = None
    seat: int | None = None
    names: tuple[str, ...] = _NO_NAMES
    legal: list[dict[str, Any]] = field(default_factory=list)
    #: The columns their lines are wrapped to (``width N``).
    width: int = DEFAULT_WIDTH
    #: The password of a ``register PW`` typed once, waiting to be typed again.
    registering: str | None = None
    #: The table they are at is a club night's board (its games deal themselves).
    club: bool = False
    #: The lobby's news as they are told it.
    lobby: LobbyNews = field(default_factory=LobbyNews)

    def left(self) -> None:
        self.table, self.seat, self.names, self.legal, self.club = None, None, _NO_NAMES, [], False

    def seen(self, message: dict[str, Any]) -> None:
        """Learn from a message sent to this person (in the order they are sent)."""
        kind = message.get("type")
        if kind == "turn":
            if message.get("table") == self.table:
                self.legal = message["legal_actions"]
        elif kind == "event":
            if message["event"].get("kind") == "game_over" and message.get("table") == self.table:
                self.legal = []
        elif kind == "table":
            summary = message["table"]
            if "seat" in message:  # a reply that (re)places the person: create, sit, watch, stand
                self.table, self.seat = summary["id"], message["seat"]
            if summary["id"] == self.table:
                self.names, self.club = _names(summary), bool(summary.get("event"))
        elif kind == "snapshot":
            summary = message["table"]
            self.table, self.seat, self.names = summary["id"], message["seat"], _names(summary)
            self.club = bool(summary.get("event"))
            turn = message.get("turn")
            self.legal = turn["legal_actions"] if turn is not None else []
        elif kind == "welcome" and message["resumed"]:
            # A resumed session puts the person where it was.  A fresh one (a first name, or
            # another name chosen later) moves nobody: a watcher who renames watches on.
            self.left()
            self.table, self.seat = message["table"], message["seat"]
        elif kind == "table_closed":
            if message["table"] == self.table:
                self.left()
        elif kind == "tables":
            self.lobby.listed(message["tables"])


def _without_turns(message: dict[str, Any] | Lines) -> dict[str, Any] | Lines:
    """``message`` without its ``turn`` (an essential batch keeps its events)."""
    if message.__class__ is Lines:
        batch: Lines = message  # type: ignore[assignment]
        return Lines(tuple(m for m in batch.messages if m.get("type") != "turn"), batch.essential)
    return Lines((), True) if message.get("type") == "turn" else message  # type: ignore[union-attr]


def at_club_board(message: dict[str, Any] | Lines) -> dict[str, Any] | Lines:
    """``message`` (or a batch) as sent to a person at a club night's board: a ``game_over``
    event marked :data:`~.club_text.AT_CLUB_BOARD`, so that it is not followed by "each player
    types ready" (the board's next game is dealt by itself).  A copy, never the shared
    message: the other readers of the same event may sit elsewhere."""
    def marked(item: dict[str, Any]) -> dict[str, Any]:
        if item.get("type") == "event" and item["event"].get("kind") == "game_over":
            return {**item, AT_CLUB_BOARD: True}
        return item
    if message.__class__ is Lines:
        batch: Lines = message  # type: ignore[assignment]
        items = tuple(map(marked, batch.messages))
        same = all(a is b for a, b in zip(items, batch.messages))
        return batch if same else Lines(items, batch.essential)
    return marked(message)  # type: ignore[arg-type]


def _answer(typed: str, person: _Person) -> str:
    """What text mode itself answers a line the core is not asked about: ``width [N]`` (N
    checked by :mod:`.commands`) or ``help``.  A Phrase, said in the person's language when
    it is rendered."""
    words = typed.split()
    if BY_VERB[words[0].lower()].verbs[0] != "width":
        return help_reply(typed)
    if len(words) == 1:
        return Phrase("Lines are wrapped at {width} columns; width N changes it ({least} to {most}).",
                      width=person.width, least=MIN_WIDTH, most=MAX_WIDTH)
    person.width = int(words[1])
    return Phrase("Lines are wrapped at {width} columns now.", width=person.width)


def _confirmed(request: dict[str, Any], person: _Person) -> tuple[dict[str, Any] | ProtocolError | None, str | None]:
    """``register``, as text mode takes it: the password typed twice, on one line
    (``register PW PW``) or on two (``register PW``, then again), before anything is
    registered, so a typo cannot lock the person out of their name (issue 33, item 12).
    Gives the request to send (the JSON ``register``), the error if the two differ, or None
    and the line that asks for it again."""
    password = request["password"]
    again = request.pop("again", person.registering)
    person.registering = None
    if again is None:
        person.registering = password
        return None, Phrase("To be sure of it, type the password again: register {password} (a "
                            "mistyped password would keep you out of your name).", password=password)
    if again != password:
        return ProtocolError("bad_field", Phrase("the two passwords differ, so nothing is registered; "
                                                 "type register PASSWORD again"), field="password"), None
    return request, None


def _names(summary: dict[str, Any]) -> tuple[str, ...]:
    return tuple("" if seat is None else seat["name"] for seat in summary["seats"])


class TextAdapter:
    """Text-mode connections' lines in, their messages marked for rendering; see the module
    docstring."""

    def __init__(self, core: ServerCore) -> None:
        self._core = core
        self._people: dict[int, _Person] = {}
        #: The text connections by id (read it, never change it): a call's instructions need
        #: marking only while it is not empty, which the network layer asks at every call.
        self.people: Mapping[int, Any] = MappingProxyType(self._people)

    def receive(self, conn_id: int, line: bytes) -> Effects:
        """One line a person typed on ``conn_id``."""
        typed = line.strip().decode("utf-8", errors="replace")
        if not typed:
            return Effects([], [], [])
        person = self._people.setdefault(conn_id, _Person())
        request: dict[str, Any] | ProtocolError | None
        try:
            request = parse_command(typed)
        except ProtocolError as exc:
            request = exc
        note: str | None = None
        if isinstance(request, dict) and request["type"] == "register":
            request, note = _confirmed(request, person)
        else:
            person.registering = None

        def finish(request: dict[str, Any]) -> dict[str, Any]:
            # ``discard 1 2``: the cards the prompt numbered, read once the person has a name.
            if request.get("action") == "discard" and all(c.isdigit() for c in request["cards"]):
                return {**request, "cards": cards_by_number(request["cards"], person.legal)}
            return request

        admitted, effects = self._core.receive_request(conn_id, request, finish)
        out = effects.out
        self.outgoing(out)
        if not admitted:
            return effects
        # The call's own messages to this person (a game's batch, a Lines, holds no reply).
        mine = [o for o in out if o.__class__ is Send and o.conn == conn_id and isinstance(o.message, dict)]
        kinds = [o.message["type"] for o in mine]
        kind = request["type"] if isinstance(request, dict) else None
        left_table = person.table if kind == "leave" and "error" not in kinds else None
        if kind == "leave" and "error" not in kinds:
            person.left()
        # Errors are reworded for the person who caused them ("you do not hold TH", seats from 1).
        for o in mine:
            if o.message["type"] == "error":
                o.message = person_error(o.message, person.seat)
        # Back at a seat a computer stood in for (resume, login): taking it back pushes a turn
        # before the snapshot, when the table's names are not known yet ("Waiting for seat 1."),
        # and the snapshot ends with that turn again: the turn before it is left out.
        if "welcome" in kinds and "snapshot" in kinds:
            first = out.index(mine[kinds.index("snapshot")])
            for o in out[:first]:
                if o.__class__ is Send and o.conn == conn_id:
                    o.message = _without_turns(o.message)  # (its timer still starts when written)
        # Watching a game: the snapshot begins with the table, so the table reply would print
        # the same line twice.
        if kind == "spectate" and "snapshot" in kinds and "table" in kinds:
            first = mine[kinds.index("table")]
            out[:] = [o for o in out if o is not first]
        if request is None:
            text = note if note is not None else _answer(typed, person)
            out.append(Send(conn_id, {"type": "note", "text": text}, True, person.names, width=person.width,
                            language=self._core.language_of(conn_id)))
        if left_table is not None:  # the ok prints nothing, and only the others hear of it
            out.append(Send(conn_id, {"type": "note", "text": Phrase(
                "You left table {table}: you are in the lobby (tables lists the tables).", table=left_table)},
                True, person.names, width=person.width, language=self._core.language_of(conn_id)))
        return effects

    def outgoing(self, outs: list[Out]) -> None:
        """Mark every Send of a core call to a text connection with the names its lines are
        rendered with, learning from each message as it goes (see :class:`_Person`)."""
        people = self._people
        if not people:
            return
        news: dict[Any, Any] = {}  # a lobby push as told to those who knew the same tables
        for out in outs:
            if out.__class__ is not Send or not out.text:  # type: ignore[union-attr]
                continue
            person = people.get(out.conn)  # type: ignore[union-attr]
            if person is None:
                continue
            message = out.message  # type: ignore[union-attr]
            if message.__class__ is Lines:
                if not message.essential:  # the lobby's news: what this person can act on
                    message = out.message = person.lobby.read(message, news)  # type: ignore[union-attr]
                for item in message.messages:
                    person.seen(item)
            else:
                person.seen(message)
            if person.club:  # a game over at a club night's board: no "type ready" after it
                out.message = at_club_board(out.message)  # type: ignore[union-attr]
            out.names, out.width = person.names, person.width  # type: ignore[union-attr]

    def forget(self, conn_id: int) -> None:
        """The connection is gone."""
        self._people.pop(conn_id, None)

