"""Matchmaking: who is online, challenges between two players, and seeks that pair strangers.

A bot waiting at its own table is only "1: PerlBot (ready) | 2: empty" to a person, so the
lobby lets players find each other (issue 25): ``who`` lists everyone online; ``challenge``
asks one named player to a two-handed game, which they ``accept`` or ``decline``; ``seek``
waits for anyone else seeking the same game (or only people, or only bots), ``unseek``
stops.  A challenge accepted or a seek paired opens a new table seating both at once, the
challenger (the older seeker) in seat 0; it starts when both are ready, at once if both
asked to be ready already, so a bot needs only ``accept`` and ``ready``.

An invitation (``invite NAME``, issue 26) is a challenge to the table its inviter is at:
the same ``challenged`` push (its ``table`` set), answered with the same ``accept`` or
``decline``, so a client's one-key answer to a challenge answers it too.  Accepted, it seats
the invitee in a free seat (or, with none free or a game being played, has them watch),
without the password of a private table: the invitation is that invitee's pass, for as
long as it is open.  It ends as a challenge does, and when its inviter leaves the table.
Nobody is sent a challenge or an invitation from a name they muted (:mod:`.mutes`); the
sender is not told.

Owns: the open challenges by id and the seeks by session.  A challenge ends (each party
that is still there is told why, with a reason code) when it is accepted, declined,
withdrawn (``decline`` by its challenger), when it runs out (``challenge_timeout``), or
when either player is no longer in the lobby (gone, seated elsewhere): :meth:`tick` looks
at the open ones, and ``accept`` looks again first.  A seek is dropped silently once its
seeker is no longer in the lobby.  Challenges are pushed to another person like chat, so
they share chat's limit per address and their ``text`` is cleaned like chat's.

Collaborators (passed in): the connections (how long one has been silent, its address),
the sessions (who is online, by name), the open tables (a new one), seating (to seat
both), gameplay (to deal when both are ready), the publisher (to send the deal) and the
lobby's board (a new table's news).
"""

from __future__ import annotations

import json
import logging
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from noddy.protocol import ProtocolError
from noddy.protocol.i18n import Phrase
from noddy.protocol.names import skeleton
from noddy.protocol.text import clean_text
from noddy.protocol.errors import retry_after

from ..config import ServerConfig
from ..model.ratelimit import AddressBuckets
from ..model.session import Connection
from ..model.table import PLAYING, Session, Table
from ..model.table_options import table_rules
from . import challenge_words as said
from .places import my_table, session_of

if TYPE_CHECKING:
    from .connections import Connections
    from .gameplay import Gameplay
    from .lobby_board import LobbyBoard
    from .mutes import Mutes
    from .outbox import Outbox
    from .publishing import Publisher
    from .seating import Seating
    from .sessions import Sessions
    from .tables import Tables

log = logging.getLogger("noddy.server")

#: Open challenges one player may have made at once.
MAX_OPEN_CHALLENGES = 4


@dataclass(eq=False)
class Challenge:
    """One player's offer of a two-handed game to another."""

    id: int
    challenger: Session
    challenged: Session
    preset: str
    options: dict[str, Any]
    ready: bool
    text: str | None
    #: When it was made (the core's clock) and the seconds it lasts: the time left is
    #: ``lasts - (now - opened)``, which is exactly ``lasts`` when made.  "Expiry minus
    #: now" was not: ``(now + 120.0) - now`` is 120.00000000000001 at some clock readings,
    #: and a challenge said "within 121 s".
    opened: float
    lasts: float
    #: An invitation's table (the inviter's); None for a challenge to a new table.
    table: Table | None = None

    def time_left(self, now: float) -> float:
        return self.lasts - (now - self.opened)

    def to_dict(self, now: float) -> dict[str, Any]:
        return {"id": self.id, "from": self.challenger.name, "from_bot": self.challenger.bot,
                "to": self.challenged.name, "to_bot": self.challenged.bot, "preset": self.preset,
                "options": dict(self.options), "text": self.text,
                # Whole seconds rounded down: never more time than the player has.
                "expires_in": max(0, math.floor(self.time_left(now))),
                "table": None if self.table is None else self.table.id,
                "private": self.table is not None and self.table.private}


@dataclass(eq=False)
class Seek:
    """A player waiting for anyone (``opponents``: any, people, bots) who seeks the same."""

    session: Session
    preset: str
    options: dict[str, Any]
    opponents: str
    ready: bool

    def to_dict(self) -> dict[str, Any]:
        return {"preset": self.preset, "options": dict(self.options), "opponents": self.opponents}

    def same_game(self, other: Seek) -> bool:
        return self.preset == other.preset and _canonical(self.options) == _canonical(other.options)

    def takes(self, other: Session) -> bool:
        """Whether this seek would play ``other`` (a bot, or a person)."""
        return self.opponents == "any" or (self.opponents == "bots") == other.bot


class Matchmaking:
    """``who``, challenges and seeks; see the module docstring."""

    def __init__(self, config: ServerConfig, clock: Callable[[], float], outbox: Outbox,
                 connections: Connections, sessions: Sessions, board: LobbyBoard, tables: Tables,
                 seating: Seating, gameplay: Gameplay, publisher: Publisher, mutes: Mutes) -> None:
        self._config = config
        self._clock = clock
        self._outbox = outbox
        self._connections = connections
        self._sessions = sessions
        self._board = board
        self._tables = tables
        self._seating = seating
        self._gameplay = gameplay
        self._publisher = publisher
        self._mutes = mutes
        self._challenges: dict[int, Challenge] = {}
        self._next_challenge = 1
        #: Seeks in the order they were made (the oldest compatible one is paired first).
        self._seeks: dict[Session, Seek] = {}
        #: Challenges per address, with chat's limits: each pushes a message to a person.
        self._buckets = AddressBuckets(config.chat_rate_per_address, config.chat_burst_per_address)

    def handlers(self) -> dict[str, Callable[[Connection, dict[str, Any], Any], None]]:
        return {"who": self.who, "challenge": self.challenge, "accept": self.accept,
                "decline": self.decline, "seek": self.seek, "unseek": self.unseek,
                "invite": self.invite}

    # -- who --------------------------------------------------------------------------------
    def who(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        now = self._clock()
        people = []
        for session in self._sessions.all():
            if f["people_only"] and session.bot:
                continue
            if session.conn is None and session.held_until is None:
                continue
            people.append(self._entry(session, now))
        people.sort(key=lambda entry: (entry["name"].casefold(), entry["name"]))
        self._outbox.reply(conn, rid, {"type": "who", "people": people})

    def _entry(self, session: Session, now: float) -> dict[str, Any]:
        table = session.table
        where = "lobby" if table is None else ("watching" if session.seat is None else "seated")
        link = self._connections.get(session.conn)
        seek = self._seeks.get(session)
        return {"name": session.name, "bot": session.bot, "where": where,
                "table": None if table is None else table.id, "seat": session.seat,
                "away": link is None, "idle": None if link is None else int(max(0.0, now - link.last_seen)),
                "seeking": None if seek is None or not self._in_lobby(session) else seek.to_dict()}

    # -- challenges ---------------------------------------------------------------------------
    def challenge(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        me = session_of(conn)
        self._check_in_lobby(me)
        target = self._invitee(me, f["name"], "challenge")
        options = dict(f["options"] or {})
        table_rules(f["preset"], 2, False, options)  # unknown_preset, invalid_option...
        now = self._clock()
        challenge = self._open(conn, now, me, target, f["preset"], options, f["ready"],
                               f["text"])
        log.info("%s challenges %s (%d: %s)", me.name, target.name, challenge.id, challenge.preset)
        self._offer(conn, rid, challenge, now)

    def invite(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        """Invite a player in the lobby to the table one is at (see the module docstring)."""
        me = session_of(conn)
        table = my_table(me)
        target = self._invitee(me, f["name"], "invite")
        now = self._clock()
        invitation = self._open(conn, now, me, target, table.preset,
                                dict(table.options), False, f["text"], table)
        log.info("%s invites %s to table %d (%d)", me.name, target.name, table.id, invitation.id)
        self._offer(conn, rid, invitation, now)

    def _invitee(self, me: Session, name: str, verb: str) -> Session:
        """The player in the lobby that ``me`` may ``verb`` (challenge or invite)."""
        target = self._find(name)
        if target is me:
            raise ProtocolError("bad_field", Phrase("you cannot challenge yourself") if verb == "challenge"
                                else Phrase("you cannot invite yourself"), field="name")
        if not self._in_lobby(target):
            name = target.name
            raise ProtocolError("player_busy", Phrase("{name} is away, not in the lobby", name=name)
                                if target.conn is None else
                                Phrase("{name} is at table {table}, not in the lobby", name=name,
                                       table=target.table.id) if target.table else
                                Phrase("{name} is busy, not in the lobby", name=name), field="name")
        return target

    def _open(self, conn: Connection, now: float, me: Session, target: Session, preset: str,
              options: dict[str, Any], ready: bool, text: str | None,
              table: Table | None = None) -> Challenge:
        """What a challenge and an invitation share: the limit of open ones, the chat limit's
        charge, replacing an older one to the same player, and the cleaned note."""
        mine = [c for c in self._challenges.values() if c.challenger is me]
        if len(mine) >= MAX_OPEN_CHALLENGES:
            raise ProtocolError("too_many_challenges", Phrase(
                "you have {open} challenges open, the most allowed; wait for an answer or withdraw one "
                "(decline ID)", open=len(mine)) if table is None else Phrase(
                "you have {open} challenges and invitations open, the most allowed; wait for an answer "
                "or withdraw one (decline ID)", open=len(mine)))
        self._charge(conn, now)
        for old in mine:  # a new one to the same player replaces the old one
            if old.challenged is target:
                self._end(old, "withdrawn", said.answered("withdrew", me.name, old, table is not None),
                          tell_challenger=False)
        challenge = Challenge(self._next_challenge, me, target, preset, options, ready,
                              None if text is None else clean_text(text),
                              now, self._config.challenge_timeout, table)
        self._next_challenge += 1
        self._challenges[challenge.id] = challenge
        return challenge

    def _offer(self, conn: Connection, rid: Any, challenge: Challenge, now: float) -> None:
        """Reply with the challenge (or invitation) and push it to the other player, unless
        they muted its sender (who is not told)."""
        shown = challenge.to_dict(now)
        self._outbox.reply(conn, rid, {"type": "challenge", "challenge": shown})
        if self._mutes.hears(challenge.challenged, challenge.challenger):
            self._outbox.send(challenge.challenged.conn, {"type": "challenged", "challenge": shown})

    def accept(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        me = session_of(conn)
        challenge = self._open_to(me, f["challenge"], challenger_may=False)
        self._check_in_lobby(me)
        self.tick(self._clock())  # the challenger may have gone meanwhile
        if challenge.id not in self._challenges:
            raise ProtocolError("no_such_challenge", Phrase("challenge {challenge} is over: {name} is no longer "
                                                           "in the lobby", challenge=challenge.id,
                                                           name=challenge.challenger.name), field="challenge")
        table = challenge.table
        if table is not None and not (table.free_seats() and table.status != PLAYING):
            self._seating.check_watch_room(table, me)  # to watch: refused before it is used up
        self._end(challenge, "accepted", said.answered("accepted", me.name, challenge), tell_challenged=False)
        if challenge.table is not None:
            self._seat_invited(conn, rid, challenge.table, f["ready"])
            return
        self._pair(challenge.challenger, me, challenge.preset, challenge.options, challenge.ready,
                   f["ready"], (conn, rid))

    def decline(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        """The challenged declines; the challenger withdraws (either way it is over)."""
        me = session_of(conn)
        challenge = self._open_to(me, f["challenge"], challenger_may=True)
        self._outbox.reply(conn, rid, {"type": "ok"})
        if challenge.challenger is me:
            self._end(challenge, "withdrawn", Phrase("{name} withdrew challenge {challenge}", name=me.name,
                                                     challenge=challenge.id), tell_challenger=False)
        else:
            self._end(challenge, "declined", said.answered("declined", me.name, challenge), tell_challenged=False)

    # -- seeks --------------------------------------------------------------------------------
    def seek(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        me = session_of(conn)
        self._check_in_lobby(me)
        options = dict(f["options"] or {})
        table_rules(f["preset"], 2, False, options)
        mine = Seek(me, f["preset"], options, f["opponents"], f["ready"])
        self._seeks.pop(me, None)  # a new seek replaces one's old one
        self._outbox.reply(conn, rid, {"type": "seeking", "seek": mine.to_dict()})
        for other in list(self._seeks.values()):
            if not self._in_lobby(other.session):
                del self._seeks[other.session]
            elif other.same_game(mine) and other.takes(me) and mine.takes(other.session):
                del self._seeks[other.session]
                log.info("seeks of %s and %s paired (%s)", other.session.name, me.name, mine.preset)
                self._pair(other.session, me, mine.preset, mine.options, other.ready, mine.ready, None)
                return
        self._seeks[me] = mine

    def unseek(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        self._seeks.pop(session_of(conn), None)
        self._outbox.reply(conn, rid, {"type": "ok"})

    # -- time passes --------------------------------------------------------------------------
    def tick(self, now: float) -> None:
        """End the challenges that ran out or whose players left the lobby; drop such seeks."""
        for challenge in list(self._challenges.values()):
            one, other = challenge.challenger, challenge.challenged
            if challenge.table is not None and (one.table is not challenge.table
                                                or challenge.table.id not in self._tables):
                self._end(challenge, "withdrawn", said.left_table(challenge), tell_challenger=False)
            elif challenge.table is None and not self._in_lobby(one):
                self._end(challenge, "withdrawn", said.gone(one, challenge, over=False), tell_challenger=False)
            elif not self._in_lobby(other):
                self._end(challenge, "gone", said.gone(other, challenge, over=True), tell_challenged=False)
            elif challenge.time_left(now) <= 0:
                self._end(challenge, "expired", said.ran_out(challenge))
        if self._seeks:
            for session in [s for s in self._seeks if not self._in_lobby(s)]:
                del self._seeks[session]

    # -- helpers ------------------------------------------------------------------------------
    def _seat_invited(self, conn: Connection, rid: Any, table: Table, ready: bool) -> None:
        """An invitation accepted: the invitee sits in the first free seat, or watches when
        none is free or a game is being played; no password is asked (the invitation is it)."""
        me = session_of(conn)
        free = table.free_seats()
        if free and table.status != PLAYING:
            self._seating.take_seat(table, me, free[0], ready=ready)
        else:
            self._seating.watch(table, me)
        log.info("%s joins table %d by invitation (%s)", me.name, table.id,
                 "watching" if me.seat is None else f"seat {me.seat + 1}")  # seats as people count them
        started = self._gameplay.start_game(table) if me.seat is not None and table.can_start() else None
        summary = table.summary()
        self._outbox.reply(conn, rid, {"type": "table", "table": summary, "seat": me.seat})
        self._tables.changed(table, exclude=me, summary=summary)
        if started is not None:
            self._publisher.publish(table, *started)
        elif me.seat is None and table.game is not None:
            self._outbox.send(conn.id, table.snapshot(None, self._clock()))

    def _pair(self, first: Session, second: Session, preset: str, options: dict[str, Any],
              first_ready: bool, second_ready: bool, request: tuple[Connection, Any] | None) -> None:
        """A new two-player table seating ``first`` in seat 0 and ``second`` in seat 1, each
        told with a ``table`` that carries their seat (the request's reply, if it is one's);
        the game is dealt at once if both are ready."""
        for session in (first, second):
            self._seeks.pop(session, None)
            for challenge in [c for c in self._challenges.values() if c.challenger is session]:
                self._end(challenge, "withdrawn", said.sat_elsewhere(session, challenge), tell_challenger=False)
        tables = self._tables
        rules = table_rules(preset, 2, False, options)
        table = Table(tables.next_id(), rules, rules.name, 2, False, dict(options))
        table.creator = first
        table.rate = self._seating.rater(table)
        tables.opened(table)
        self._seating.take_seat(table, first, 0, ready=first_ready)
        self._seating.take_seat(table, second, 1, ready=second_ready)
        started = self._gameplay.start_game(table) if table.can_start() else None
        summary = table.summary()
        log.info("table %d opened for %s and %s", table.id, first.name, second.name)
        for session, seat in ((first, 0), (second, 1)):
            message = {"type": "table", "table": summary, "seat": seat}
            if request is not None and request[0].session is session:
                self._outbox.reply(request[0], request[1], message)
            else:
                self._outbox.send(session.conn, message)
        self._outbox.touched(table)
        self._board.table_changed(table)
        if started is not None:
            self._publisher.publish(table, *started)

    def _end(self, challenge: Challenge, reason: str, message: Phrase, tell_challenger: bool = True,
             tell_challenged: bool = True) -> None:
        del self._challenges[challenge.id]
        over = {"type": "challenge_over", "challenge": challenge.id, "reason": reason, "message": message}
        if challenge.table is not None:  # an invitation's end says which table it was to
            over["table"] = challenge.table.id
        if tell_challenger:
            self._outbox.send(challenge.challenger.conn, over)
        if tell_challenged and self._mutes.hears(challenge.challenged, challenge.challenger):
            self._outbox.send(challenge.challenged.conn, over)

    def _open_to(self, me: Session, challenge_id: int, challenger_may: bool) -> Challenge:
        challenge = self._challenges.get(challenge_id)
        if challenge is None or not (challenge.challenged is me or
                                     (challenger_may and challenge.challenger is me)):
            raise ProtocolError("no_such_challenge", Phrase("no open challenge {challenge} to you",
                                                           challenge=challenge_id),
                                field="challenge")
        return challenge

    def _find(self, name: str) -> Session:
        """The online player who goes by ``name`` (or one that looks the same)."""
        wanted = skeleton(name)
        for session in self._sessions.all():
            if skeleton(session.name) == wanted and (session.conn is not None or session.held_until is not None):
                return session
        raise ProtocolError("no_such_player", Phrase("nobody called {name!r} is online (who lists who is)",
                                                     name=clean_text(name)), field="name")

    def _in_lobby(self, session: Session) -> bool:
        return session.table is None and session.conn is not None and self._sessions.is_current(session)

    def _check_in_lobby(self, session: Session) -> None:
        if session.table is not None:
            raise ProtocolError("already_at_table", Phrase("you are at table {table}; leave it first",
                                                          table=session.table.id))


    def _charge(self, conn: Connection, now: float) -> None:
        if conn.address is None:
            return
        wait = self._buckets.take(conn.address, now)
        if wait > 0:
            raise ProtocolError("rate_limited", Phrase("too many challenges from your address; wait {wait:.2f} s",
                                                       wait=retry_after(wait)),
                                retry_after=retry_after(wait))


def _canonical(options: dict[str, Any]) -> str:
    return json.dumps(options, sort_keys=True)
