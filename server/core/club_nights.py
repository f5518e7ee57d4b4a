"""Club nights on the server (issue 35): the room that owns the events and handles their
requests -- ``announce_event``, ``events``, ``event``, ``join_event``, ``withdraw_event``,
``direct_event`` -- and carries out what each :class:`~noddy.server.model.club.Event` asks.

The event itself is a state machine with no I/O (its theory of operation is at the top of
:mod:`noddy.server.model.club`): every call returns *effects*, and this room is the thin
adapter the model's docstring describes.  Its tables' side -- opening a board's table,
seating its players, dealing each game on the board's seed, reading each result back, a
table gone or a player missing between games -- is :mod:`.club_tables`'; here are the
requests, the pushes (``event_news`` to the entrants and the director) and what is stored.

Time: an event's clock is the core's *wall* clock (seconds since the epoch), not its
monotonic one, since an event outlives the process: its no-show and round deadlines, stored,
mean the same after a restart.  :meth:`next_deadline` gives the earliest on the core's own
clock, for ``ServerCore.next_deadline``.

Storage: after any call that changed an event, a ``save_event`` query keeps it whole
(:mod:`noddy.server.storage.club`) *before* the call's news goes out (the network layer
carries out a call's instructions in order, and holds the later ones until a query before
them is answered), so what an entrant was told is on disk first.

Collaborators (passed in): the config (who may direct), the clocks, the outbox, the
sessions (who is online, by name), and :class:`~.club_tables.ClubTables`.
"""

from __future__ import annotations

import logging
import random
from typing import TYPE_CHECKING, Any, Callable

from noddy.protocol import ProtocolError
from noddy.protocol.i18n import Phrase
from noddy.protocol.text import clean_text

from ..config import ServerConfig
from ..model.club import Event
from ..model.club_types import (MAX_FORFEIT_WAIT, Announce, ClubError, CloseTable, DealGame, Effect,
                                EventDefinition, OpenTables)
from ..model.passwords import hash_password, password_matches
from ..model.session import Connection
from ..model.table_options import table_rules
from ..storage.club import FINISHED_LOADED
from .instructions import Query
from .places import session_of

if TYPE_CHECKING:
    from .club_tables import ClubTables
    from .outbox import Outbox
    from .sessions import Sessions

log = logging.getLogger("noddy.server")

#: Unfinished events a server holds at once: each round of each opens up to 32 tables, and
#: eight club nights at once is more than a club server sees; the limit keeps one person
#: from filling the lobby with events.
MAX_OPEN_EVENTS = 8
#: Unfinished events one director may hold at once: one evening at a time.
MAX_EVENTS_PER_DIRECTOR = 1
#: Finished events the ``events`` list shows after the unfinished ones (the latest).
FINISHED_SHOWN = 5
#: Finished events kept in memory for ``event`` (older ones are forgotten: a person's
#: ``stats`` still lists them); a start loads as many back from storage.
FINISHED_KEPT = FINISHED_LOADED
#: Defaults of ``announce_event``'s waits, in seconds: five minutes to come to one's table,
#: a minute between rounds (the ACC's club nights move on quickly).
DEFAULT_FORFEIT_WAIT = 300.0
DEFAULT_ROUND_PAUSE = 60.0

#: The model's ClubError codes as protocol error codes (docs/PROTOCOL.md "Club nights").
ERROR_CODES = {"not-director": "not_director", "wrong-state": "event_state", "not-entered": "not_entered",
               "already-entered": "already_entered", "removed": "removed_from_event",
               "too-late": "too_late", "full": "event_full", "too-few": "too_few_entrants",
               "bad-definition": "bad_field", "bad-entrant": "bad_field", "no-such-pairing": "event_state",
               "bad-result": "event_state"}


def protocol_error(exc: ClubError) -> ProtocolError:
    """The protocol's refusal for the event's: its message the model's Phrase (``str(exc)``
    would be its English only)."""
    return ProtocolError(ERROR_CODES.get(exc.code, "event_state"), exc.phrase)


class ClubNights:
    """Every club night of the server; see the module docstring."""

    def __init__(self, config: ServerConfig, clock: Callable[[], float], wall_clock: Callable[[], float],
                 outbox: Outbox, sessions: Sessions, tables: ClubTables) -> None:
        self._config = config
        self._clock = clock
        self._wall = wall_clock
        self._outbox = outbox
        self._sessions = sessions
        self._tables = tables
        tables.attach(self._report)
        self._events: dict[int, Event] = {}
        self._next_id = 1
        #: Events changed in this call: saved at its end, before its news.
        self._dirty: dict[int, Event] = {}
        #: The news of this call, sent after the saves: (names, message).
        self._news: list[tuple[set[str], dict[str, Any]]] = []

    def handlers(self) -> dict[str, Callable[[Connection, dict[str, Any], Any], None]]:
        return {"announce_event": self.announce, "events": self.list_events, "event": self.show,
                "join_event": self.join, "withdraw_event": self.withdraw, "direct_event": self.direct}

    # -- requests -----------------------------------------------------------------------------
    def announce(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        me = session_of(conn)
        if me.account is None:
            raise ProtocolError("not_registered", Phrase("a club night is announced by a registered name "
                                                        "(register first): an event outlives a guest's name"))
        if self._config.directors and me.name not in self._config.directors:
            raise ProtocolError("not_director", Phrase("this server's club nights are announced by {names}",
                                                      names=", ".join(self._config.directors)))
        unfinished = [e for e in self._events.values() if not e.over]
        if len(unfinished) >= MAX_OPEN_EVENTS:
            raise ProtocolError("too_many_events", Phrase("the server holds {most} club nights not over, the "
                                                         "most it keeps", most=MAX_OPEN_EVENTS))
        if any(e.definition.director == me.name for e in unfinished):
            raise ProtocolError("too_many_events",
                                Phrase("you direct a club night that is not over; end it first"))
        if f["format"] == "swiss" and f["rounds"] is None:
            raise ProtocolError("missing_field", Phrase("a Swiss needs the field 'rounds'"), field="rounds")
        options = dict(f["options"] or {})
        table_rules(f["preset"], 2, False, options)  # unknown_preset, invalid_option...
        now = self._wall()
        rounds = f["rounds"] if f["format"] == "swiss" else 0
        seed = random.Random(f"{self._config.seed}:{self._next_id}").getrandbits(53) \
            if self._config.seed is not None else random.SystemRandom().getrandbits(53)
        try:
            definition = EventDefinition(
                id=self._next_id, title=clean_text(f["title"]).strip(), director=me.name, format=f["format"],
                preset=f["preset"], rounds=rounds, options=options, games_per_pairing=f["games"],
                duplicate=f["duplicate"], starts_at=None if f["starts_in"] is None else now + f["starts_in"],
                rated=f["rated"], password_hash=None if f["password"] is None else hash_password(f["password"]),
                forfeit_wait=DEFAULT_FORFEIT_WAIT if f["forfeit_wait"] is None else min(f["forfeit_wait"],
                                                                                         MAX_FORFEIT_WAIT),
                round_pause=DEFAULT_ROUND_PAUSE if f["round_pause"] is None else f["round_pause"],
                seed=seed, late_entry_until=min(2, rounds) if rounds else 1)
            event, effects = Event.announce(definition, now)
        except ClubError as exc:
            raise protocol_error(exc) from None
        self._next_id += 1
        self._events[event.definition.id] = event
        log.info("%s announces club night %d: %s", me.name, definition.id, definition.title)
        self._report(event, effects)
        self._outbox.reply(conn, rid, {"type": "club_event", "event": self.view(event)})

    def list_events(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        events = sorted(self._events.values(), key=lambda e: (e.over, -e.definition.id if e.over else e.definition.id))
        shown = [e for e in events if not e.over] + [e for e in events if e.over][:FINISHED_SHOWN]
        self._outbox.reply(conn, rid, {"type": "club_events", "events": [self.summary(e) for e in shown]})

    def show(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        self._outbox.reply(conn, rid, {"type": "club_event", "event": self.view(self._find(f["event"]))})

    def join(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        me = session_of(conn)
        event = self._find(f["event"])
        stored = event.definition.password_hash
        if stored is not None and (f["password"] is None or not password_matches(stored, f["password"])):
            title = event.definition.title
            raise ProtocolError("bad_password", Phrase("{title} is private: its password is missing", title=title)
                                if f["password"] is None else
                                Phrase("{title} is private: its password is wrong", title=title),
                                field="password")
        self._call(conn, rid, event, lambda now: event.join(now, me.name, "bot" if me.bot else "person"))

    def withdraw(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        me = session_of(conn)
        event = self._find(f["event"])
        self._call(conn, rid, event, lambda now: event.withdraw(now, me.name))

    def direct(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        me = session_of(conn).name
        event = self._find(f["event"])
        command = f["command"]
        if command == "remove" and f["name"] is None:
            raise ProtocolError("missing_field", Phrase("remove needs the field 'name'"), field="name")
        if command == "round_pause" and f["seconds"] is None:
            raise ProtocolError("missing_field", Phrase("round_pause needs the field 'seconds'"), field="seconds")
        calls: dict[str, Callable[[float], list[Effect]]] = {
            "start": lambda now: event.start(now, me), "pause": lambda now: event.pause(now, me),
            "resume": lambda now: event.resume(now, me), "end": lambda now: event.end_early(now, me),
            "remove": lambda now: event.remove(now, me, f["name"]),
            "round_pause": lambda now: event.set_round_pause(now, me, f["seconds"])}
        self._call(conn, rid, event, calls[command])

    # -- reading ------------------------------------------------------------------------------
    def summary(self, event: Event) -> dict[str, Any]:
        d = event.definition
        return {"id": d.id, "title": d.title, "director": d.director, "format": d.format, "preset": d.preset,
                "state": event.state, "round": len(event.rounds), "rounds": event.total_rounds,
                "entrants": len(event.active_names()), "private": d.password_hash is not None,
                "duplicate": d.duplicate, "rated": d.rated, "games": d.games_per_pairing,
                "starts_at": d.starts_at}

    def view(self, event: Event) -> dict[str, Any]:
        """The event whole, as ``event`` replies (docs/PROTOCOL.md "Club nights")."""
        d = event.definition
        now = self._wall() if event.paused_at is None else event.paused_at  # its clocks stand still
        rounds = []
        for number in event.rounds:
            boards = [{"board": p.board, "a": p.a, "b": p.b, "table": p.table, "status": p.status,
                       "forfeit": p.forfeit, "forfeit_by": list(p.forfeit_by),
                       "games": [{"game": row.game, "id": p.game_id(i), "winner": row.winner,
                                  "a_score": row.a_score, "b_score": row.b_score, "skunk": row.skunk, "forfeit": row.forfeit}
                                 for i, row in enumerate(p.games)]} for p in number.pairings]
            rounds.append({"round": number.number, "bye": number.bye, "boards": boards,
                           "over": number.finished_at is not None})
        return {"id": d.id, "title": d.title, "director": d.director, "format": d.format, "preset": d.preset,
                "options": dict(d.options), "state": event.state, "round": len(event.rounds),
                "rounds": event.total_rounds,
                "entrants": [{"name": e.name, "kind": e.kind, "status": e.status, "joined_round": e.joined_round}
                             for e in event.entrants.values()],
                "private": d.password_hash is not None, "duplicate": d.duplicate, "rated": d.rated,
                "games": d.games_per_pairing,
                "starts_in": None if d.starts_at is None or event.state != "announced" else max(0.0, round(d.starts_at - now, 1)),
                "forfeit_wait": d.forfeit_wait, "round_pause": d.round_pause,
                "next_round_in": None if event.next_round_at is None else max(0.0, round(event.next_round_at - now, 1)),
                "reason": event.reason, "rounds_played": rounds, "standings": event.standings()}

    def event_of_table(self, table_id: int) -> dict[str, Any] | None:
        """``{id, title, round, board}`` of the event whose board ``table_id`` is (None: none)."""
        where = self._tables.board_of(table_id)
        if where is None or where[0] not in self._events:
            return None
        return {"id": where[0], "title": self._events[where[0]].definition.title, "round": where[1],
                "board": where[2]}

    # -- time, storage, restart ---------------------------------------------------------------
    def next_deadline(self) -> float | None:
        """The earliest deadline of any event (or of a board waiting for a player), on the core's clock."""
        times = [due for e in self._events.values() if (due := e.next_deadline()) is not None]
        waiting = self._tables.next_due()
        if waiting is not None:
            times.append(waiting)
        if not times:
            return None
        return self._clock() + max(0.0, min(times) - self._wall())

    def tick(self) -> None:
        now = self._wall()
        for event in list(self._events.values()):
            due = event.next_deadline()
            if due is not None and due <= now:
                effects = event.tick(now)
                if effects:
                    self._report(event, effects)
        self._tables.tick(now)

    def settle(self) -> None:
        """At the end of every call of the core: what the call did at the events' tables
        (players seated, games over) is told to their events; then the changed events are
        saved and their news sent."""
        if self._tables.busy:
            self._tables.settle(self._wall())
        if not self._dirty and not self._news:
            return
        saved_at = self._wall()
        for event in self._dirty.values():
            self._outbox.query(Query(0, None, "save_event", {"event": event.to_dict(), "saved_at": saved_at}))
        self._dirty.clear()
        news, self._news = self._news, []
        for names, message in news:
            for name in names:
                holder = self._sessions.holder(name)
                if holder is not None:
                    self._outbox.send(holder.conn, message)

    def answer(self, query: Query, result: Any, failed: bool = False) -> None:
        if failed:
            log.error("club night %s could not be saved", query.args.get("event", {}).get("definition", {}).get("id"))

    def restore(self, events: list[dict[str, Any]], last_id: int) -> None:
        """Once, after the tables: the events not over, with their boards' tables, and the
        latest over (their final tables, for ``event`` and ``events``)."""
        self._next_id = max(self._next_id, last_id + 1)
        for data in events:
            try:
                event = Event.from_dict(data)
            except (ClubError, KeyError, TypeError, ValueError) as exc:
                log.error("club night %s could not be restored: %s", data.get("definition", {}).get("id"), exc)
                continue
            self._events[event.definition.id] = event
            if not event.over:
                self._tables.restore(event)
            log.info("club night %d restored: %s, round %d", event.definition.id, event.state, len(event.rounds))

    # -- the inside ---------------------------------------------------------------------------
    def _find(self, event_id: int) -> Event:
        event = self._events.get(event_id)
        if event is None:
            raise ProtocolError("no_such_event", Phrase("there is no club night {event}", event=event_id),
                                field="event")
        return event

    def _call(self, conn: Connection, rid: Any, event: Event, call: Callable[[float], list[Effect]]) -> None:
        try:
            effects = call(self._wall())
        except ClubError as exc:
            raise protocol_error(exc) from None
        self._outbox.reply(conn, rid, {"type": "ok"})
        self._report(event, effects)

    def _report(self, event: Event, effects: list[Effect]) -> None:
        """Carry out the effects of a call of ``event``, in order (a table opened may give
        effects of its own, carried out after), and queue its news, which is sent at the end
        of the core's call, after the event is saved."""
        self._dirty[event.definition.id] = event
        queue = list(effects)
        while queue:
            effect = queue.pop(0)
            if isinstance(effect, OpenTables):
                queue += self._tables.open(event, effect, self._wall())
            elif isinstance(effect, DealGame):
                self._tables.deal(event, effect.round, effect.board)
            elif isinstance(effect, CloseTable):
                self._tables.close(effect.table)
            elif isinstance(effect, Announce):
                names = set(event.active_names()) | set(effect.names) | {event.definition.director}
                self._news.append((names, {"type": "event_news", "event": event.definition.id,
                                           "kind": effect.kind, "text": effect.text, "names": list(effect.names)}))
        if event.over:
            self._forget_old()

    def _forget_old(self) -> None:
        over = sorted((e for e in self._events.values() if e.over), key=lambda e: e.definition.id)
        for event in over[:-FINISHED_KEPT] if len(over) > FINISHED_KEPT else []:
            del self._events[event.definition.id]
