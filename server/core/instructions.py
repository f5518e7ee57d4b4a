"""What the core hands the network layer: the instructions its entry points return.

Owns the plain data that crosses the sans-IO boundary and nothing else: :class:`Effects`
(what one entry point returns: its instructions, its storage records, its computer players'
jobs and the request it handled, in one value, so the network layer has one thing to carry
out), :class:`Send` and
:class:`Close` (carry out in order; a ``Send`` carries one message, or :class:`Lines`:
several sent as one, the lobby's news of one interval), :class:`Query` (read storage, then
give the result to ``ServerCore.answer``), :class:`BotJob` (a computer player's decision,
to be made off the event loop and given back to ``ServerCore.bot_moved``) and
:class:`PasswordWork` (an account password to check or hash on the hashing worker, given back
to ``ServerCore.password_done``).  They live apart from the core's
concerns so that every concern, the network layer and the tests can import them without
importing the core; :mod:`noddy.server.core` re-exports them under their old names.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

from noddy.bots import Player
from noddy.engine import Action, Observation, Rules
from noddy.protocol.i18n import DEFAULT_LANGUAGE

from ..model.passwords import ACCOUNT_N, hash_password, password_matches

if TYPE_CHECKING:
    from ..storage.records import Record


@dataclass(slots=True)
class Lines:
    """Several messages that go out together, one line each, in order.

    Two kinds, told apart by ``essential``:

    - what one connection is sent of a game for one action or deal (``essential``): its
      events, then whose turn it is.  The members of a table get one ``Lines`` each, but
      the messages in them are mostly the same objects (a public event is one message for
      everybody), and the network layer encodes each message object once per batch.  If one
      of them cannot be encoded, the connection cannot follow its game any more and is
      dropped, as for a single event (see :func:`~noddy.server.net.sending._essential`);
    - the lobby's news of one interval (:mod:`noddy.server.core.lobby_push`): one ``Lines``
      object, and the ``Send`` to every lobby connection carries that same object, so the
      network layer encodes it once per kind of connection (JSON, text) and writes the bytes
      to each connection in one write: a push costs the same whatever the lobby's size and
      however many tables changed.  A message of it that cannot be encoded is left out alone.

    Either way, nothing on the wire tells it from the same messages sent one by one.  Not
    frozen, like :class:`Send`: two are made per action, and nothing changes one once made.
    """

    messages: tuple[dict[str, Any], ...]
    essential: bool = False


# The instructions are plain slotted dataclasses, not frozen ones: a frozen dataclass's
# __init__ sets each field through object.__setattr__, which made building the ~7 Sends of a
# game request show in the profile.  Nothing hashes or changes an instruction once made.
@dataclass(slots=True)
class Send:
    """Write ``message`` to connection ``conn`` (as readable text if ``text``)."""

    conn: int
    #: One message, or several written as one (:class:`Lines`: see there).
    message: dict[str, Any] | Lines
    text: bool = False
    #: For a text connection at a table: the seats' names, so it reads "ann plays 5H".
    names: tuple[str, ...] = ()
    #: A turn of the recipient's seat whose timer runs from when this is written (see
    #: :class:`TurnTimer`): the network layer reports it to ``ServerCore.turns_sent``.
    timer: "TurnTimer | None" = None
    #: For a text connection: the columns its lines are wrapped to (``width N``; None: text
    #: mode's default, 80).  Set by the text adapter, like ``names``.
    width: int | None = None
    #: The language the connection reads (its ``Connection.language``): the send path says
    #: the message's text in it.  Set by the outbox as it hands a call's Sends over
    #: (:meth:`Outbox.take`), and by the text adapter for its own.
    language: str = DEFAULT_LANGUAGE


@dataclass(frozen=True, slots=True)
class TurnTimer:
    """A seat's turn went out announcing ``seconds`` (its ``time_left``) in a :class:`Send`.

    The seat is owed at least that much from when the turn reaches it, not from when the core
    computed it: the network layer writes a call's messages only once its storage records are
    written, which under load (or behind a slow commit) can take most of a turn timer.  So the
    network layer, having written the Send, hands its ``timer`` to ``ServerCore.turns_sent``,
    which re-arms the seat's deadline to at least ``seconds`` from then; until it has, the
    seat's timer does not run out (unless the connection is gone).  ``seq`` is the table's
    seq of that turn: the report of an older turn than the last one sent is ignored."""

    table_id: int
    seat: int
    seq: int
    seconds: float


@dataclass(slots=True)
class Close:
    """Close connection ``conn`` once what was sent before has been written."""

    conn: int
    reason: str


@dataclass(slots=True)
class Query:
    """Read ``kind`` (``list_games``, ``get_game``) from storage; pass the result to
    :meth:`ServerCore.answer`, which replies to request ``request_id`` on ``conn``."""

    conn: int
    request_id: Any
    kind: str
    args: dict[str, Any]


Out = Send | Close | Query


@dataclass(frozen=True)
class PasswordWork:
    """An account password to check and/or hash, off the event loop and apart from storage
    (scrypt costs tens of milliseconds of a core): the network layer runs :meth:`run` on its
    small hashing worker and gives the result to ``ServerCore.password_done``.

    ``kind`` is the request it is for (``login``, ``register``, ``change_password``,
    ``unregister``); ``stored`` the account's stored hash that ``password`` is checked
    against (None: nothing to check, as for ``register``); ``new`` a password to hash."""

    conn: int
    request_id: Any
    kind: str
    key: str
    password: str | None = None
    stored: str | None = None
    new: str | None = None
    #: scrypt's cost for the new hash (tests may lower it; see passwords.ACCOUNT_N).
    cost: int = ACCOUNT_N

    def run(self) -> "PasswordResult":
        right = self.stored is None or password_matches(self.stored, self.password)
        hashed = hash_password(self.new, self.cost) if right and self.new is not None else None
        return PasswordResult(right, hashed)


@dataclass(frozen=True)
class PasswordResult:
    """What :meth:`PasswordWork.run` found: whether the password was right (always, when
    there was nothing to check), and the new password's stored form, if one was asked for."""

    right: bool
    hashed: str | None = None


@dataclass(frozen=True)
class BotJob:
    """A computer player's decision to be made off the event loop."""

    table_id: int
    game_number: int
    seat: int
    player: Player
    view: Observation
    rules: Rules

    def run(self) -> Action:
        return self.player.choose(self.view, self.rules)



@dataclass(slots=True)
class Effects:
    """Everything one call of the core asks of the network layer, in one value.

    ``out``: the instructions, carried out in order once ``records`` are written (storage
    first: what anyone is told has happened is on disk); ``jobs``: computer players' decisions
    to make off the event loop and give back to ``ServerCore.bot_moved``; ``origin``: the
    ``(connection id, request id)`` of the request handled, refused by ``ServerCore.unstored``
    if the records cannot be written (None when the call handled no request)."""

    out: list[Out]
    records: list["Record"]
    jobs: list[BotJob]
    origin: tuple[int, Any] | None = None
    #: Account passwords to check or hash on the hashing worker, each answered through
    #: ``ServerCore.password_done`` (never behind storage, never on the event loop).
    passwords: Sequence[PasswordWork] = ()
