"""A club night: one tournament the server runs, as a state machine with no I/O.

Theory of operation
===================

An :class:`Event` is what a director announced (its :class:`EventDefinition`), who entered,
and each round's pairings with their games' results.  It never reads a clock, opens a table
or sends a message: every call takes ``now`` (seconds on the server's clock, injected) and
returns a list of *effects* (:mod:`noddy.server.model.club_types`) the server carries out --
open these tables, deal this game at that table, close that one, tell the entrants this --
so the server's part is a thin adapter, and a test drives a whole evening in memory.  A call
that cannot be made raises :class:`ClubError` (with a ``code``) and changes nothing: each
call checks everything before it changes anything.

The event's states (``state``) and the calls that move it::

    announced --start / tick at starts_at--> running <--pause / resume--> paused
    announced, running, paused --end_early--> ended
    running, paused --the last round's last game / too few left--> finished
    announced --tick at starts_at with fewer than two entered--> ended

A round begins (:class:`OpenTables`) when the event starts and then ``round_pause`` seconds
after the previous round ended (at once if the pause is 0).  Each board's pairing goes
``pending`` (its table not yet open) -> ``seating`` (``table_opened``: the no-show clock
runs, ``forfeit_wait`` seconds) -> ``playing`` (``player_arrived`` for both: game 0 is
dealt) -> ``done`` (every game has a result or a forfeit); or ``void``, when the director
ends the event before it was played out.  Who has not come when the no-show clock runs out
forfeits the pairing (``tick``); so does an entrant who withdraws or is removed while their
pairing is unfinished (its remaining games).  A forfeited game is a win for the other side,
margin 0, no skunk (as the offline tournament counts it); a double no-show scores nobody.

The server's part, call by call: carry out every effect returned, in order; report each
table's id (``table_opened``), each player who sits down at their table
(``player_arrived``), each game's end (``game_finished``, or ``game_forfeited`` when the
table gave the game to one side, e.g. a held seat that ran out); call ``tick(now)`` at
``next_deadline()`` (and after any call, the deadline may have moved).  While the event is
paused its clocks stand still: no forfeit, no new round; games being played go on; the
deadlines set before the pause move on by its length when it is resumed.

Who may do what is checked here (``by``): only the director starts, pauses, resumes, ends
early, removes an entrant or changes the pause.  A password is checked by the caller before
``join`` (the event keeps only its hash).

Where it lives: the entrants' and the director's calls here; the course of the rounds (the
tables' calls, ``tick``, pairing and ending a round) in :mod:`noddy.server.model.club_course`;
scoring, pairing and the deals in :mod:`noddy.server.model.club_standings`; the values and
the effects in :mod:`noddy.server.model.club_types`.  :meth:`Event.to_dict` /
:meth:`Event.from_dict` round-trip the whole state exactly, for storage
(:mod:`noddy.server.storage.club`).
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any, Mapping

from noddy.protocol.i18n import Phrase

from .club_course import Effects, EventCourse
from .club_standings import standings_view
from .club_types import (ENTRANT_KINDS, FORFEIT_REMOVED, FORFEIT_WITHDREW, MAX_ENTRANTS,
                         MAX_ROUND_PAUSE, MIN_ENTRANTS, Announce, ClubError, CloseTable, Entrant,
                         EventDefinition, Pairing, Round)

__all__ = ["ClubError", "Effects", "Event", "EventDefinition", "starting_time"]

#: Below this many seconds a wait is said in seconds, below :data:`SAY_HOURS` in minutes,
#: above it in hours (and minutes): "in 90 minutes" reads at once, "in 5400 seconds" does not.
SAY_MINUTES, SAY_HOURS = 120, 7200


def starting_time(starts_at: float, now: float) -> str:
    """When an event starts, as a person reads it: how long from ``now``, and the time of
    day in UTC (the server's clock is seconds since the epoch; its readers are anywhere, and
    text mode's list says ``starts 19:30 UTC`` too).

    >>> starting_time(1733340600.0, 1733340000.0)
    'in 10 minutes, at 19:30 UTC'
    """
    seconds = max(0, round(starts_at - now))
    wait: Phrase
    if seconds < SAY_MINUTES:
        wait = _seconds(seconds)
    elif seconds < SAY_HOURS:
        wait = _minutes(round(seconds / 60))
    else:
        hours, minutes = divmod(round(seconds / 60), 60)
        wait = _hours(hours)
        if minutes:
            wait = Phrase("{hours} {minutes}", hours=wait, minutes=_minutes(minutes))
    return Phrase("in {wait}, at {time} UTC", wait=wait, time=time.strftime("%H:%M", time.gmtime(starts_at)))


def _seconds(n: int) -> Phrase:
    return Phrase("{n} seconds", singular="{n} second", plural="{n} seconds", count=n, n=n)


def _minutes(n: int) -> Phrase:
    return Phrase("{n} minutes", singular="{n} minute", plural="{n} minutes", count=n, n=n)


def _hours(n: int) -> Phrase:
    return Phrase("{n} hours", singular="{n} hour", plural="{n} hours", count=n, n=n)


class Event(EventCourse):
    """One club night (see the module doc).  Create with :meth:`announce`."""

    def __init__(self, definition: EventDefinition, announced_at: float) -> None:
        self.definition = definition
        self.announced_at = announced_at
        self.state = "announced"
        self.entrants: dict[str, Entrant] = {}
        self.rounds: list[Round] = []
        #: A round robin's schedule, made at the start: each round's pairs.
        self.schedule: list[list[list[str]]] = []
        #: Who was entered when it started, in order (a round robin's field).
        self.field: list[str] = []
        self.next_round_at: float | None = None
        self.paused_at: float | None = None
        #: Why it is over (None while it is not).
        self.reason: str | None = None
        #: The standings as they stood when it ended, kept.
        self.final: dict[str, Any] | None = None
        self.ratings_memo = None

    @classmethod
    def announce(cls, definition: EventDefinition, now: float) -> tuple["Event", Effects]:
        event = cls(definition, now)
        when = (Phrase("when the director starts it") if definition.starts_at is None
                else starting_time(definition.starts_at, now))
        words = dict(title=definition.title, director=definition.director, when=when)
        return event, [Announce("announced", Phrase("{title}: a swiss directed by {director}, starting {when}",
                                                    **words) if definition.format == "swiss" else
                                Phrase("{title}: a round-robin directed by {director}, starting {when}",
                                       **words))]

    # -- reading ------------------------------------------------------------------------------

    def pairing_of(self, name: str) -> Pairing | None:
        """``name``'s unfinished pairing in the current round, if any (where they must go)."""
        current = self.current_round
        if current is None:
            return None
        return next((p for p in current.pairings if name in (p.a, p.b) and not p.over), None)

    def standings(self) -> dict[str, Any]:
        """The live cross-table as plain data; once over, the final table, kept."""
        return self.final if self.final is not None else standings_view(self)

    def next_deadline(self) -> float | None:
        """When ``tick`` next has something to do (None: nothing until a call)."""
        if self.state == "announced":
            return self.definition.starts_at
        if self.state != "running":
            return None
        times = [p.deadline for p in self._pairings() if p.status == "seating" and p.deadline is not None]
        if self.next_round_at is not None:
            times.append(self.next_round_at)
        return min(times, default=None)

    # -- entrants -----------------------------------------------------------------------------

    def join(self, now: float, name: str, kind: str) -> Effects:
        """Enter ``name`` (a ``person`` or a ``bot``): before the start, or a Swiss until round
        ``late_entry_until`` begins; one who withdrew may enter again only before the start."""
        if kind not in ENTRANT_KINDS:
            raise ClubError("bad-entrant", Phrase("an entrant is one of {kinds}, not {kind!r}",
                                                  kinds=", ".join(ENTRANT_KINDS), kind=kind))
        if self.over:
            raise ClubError("wrong-state", Phrase("{title} is over", title=self.definition.title))
        known = self.entrants.get(name)
        if known is not None and known.active:
            raise ClubError("already-entered", Phrase("{name} has entered already", name=name))
        if known is not None and known.status == "removed":
            raise ClubError("removed", Phrase("the director removed {name} from {title}", name=name,
                                              title=self.definition.title))
        if self.state != "announced":
            late = self.definition.format == "swiss" and len(self.rounds) < self.definition.late_entry_until
            if known is not None or not late:
                raise ClubError("too-late", Phrase("{title} takes no more entrants", title=self.definition.title))
        if len(self.active_names()) >= MAX_ENTRANTS:
            raise ClubError("full", Phrase("{title} has {most} entrants, the most it may",
                                           title=self.definition.title, most=MAX_ENTRANTS))
        self.entrants.pop(name, None)  # one who entered again stands in the order of today's entry
        self.entrants[name] = Entrant(name, kind, now, len(self.rounds))
        title = self.definition.title
        return [Announce("joined", Phrase("{name} (a bot) entered {title}", name=name, title=title) if kind == "bot"
                         else Phrase("{name} entered {title}", name=name, title=title), (name,))]

    def withdraw(self, now: float, name: str) -> Effects:
        """``name`` leaves the event; their unfinished pairing is forfeited."""
        self._entered(name)
        return self._leave(now, name, "withdrawn", FORFEIT_WITHDREW, Phrase("{name} withdrew", name=name))

    def remove(self, now: float, by: str, name: str) -> Effects:
        """The director removes ``name``; their unfinished pairing is forfeited."""
        self._director(by)
        self._entered(name)
        return self._leave(now, name, "removed", FORFEIT_REMOVED,
                           Phrase("the director removed {name}", name=name))

    # -- the director -------------------------------------------------------------------------

    def start(self, now: float, by: str) -> Effects:
        self._director(by)
        self._in_state("announced")
        if len(self.active_names()) < MIN_ENTRANTS:
            raise ClubError("too-few", Phrase("an event starts with {least} entrants or more", least=MIN_ENTRANTS))
        return self._start(now)

    def pause(self, now: float, by: str) -> Effects:
        self._director(by)
        self._in_state("running")
        self.state, self.paused_at = "paused", now
        return [Announce("paused", Phrase("the director paused {title}", title=self.definition.title))]

    def resume(self, now: float, by: str) -> Effects:
        """The clocks go on where they stood: every deadline moves on by the pause's length."""
        self._director(by)
        self._in_state("paused")
        assert self.paused_at is not None
        shift = now - self.paused_at
        for pairing in self._pairings():
            if pairing.deadline is not None:
                pairing.deadline += shift
        if self.next_round_at is not None:
            self.next_round_at += shift
        self.state, self.paused_at = "running", None
        return [Announce("resumed", Phrase("the director resumed {title}", title=self.definition.title)),
                *self.tick(now)]

    def set_round_pause(self, now: float, by: str, seconds: float) -> Effects:
        """The pause between rounds changes; a pause under way is made that long."""
        self._director(by)
        if self.over:
            raise ClubError("wrong-state", Phrase("{title} is over", title=self.definition.title))
        if not 0 <= seconds <= MAX_ROUND_PAUSE:
            raise ClubError("bad-definition", Phrase("the pause between rounds is 0 to {most:g} seconds",
                                                     most=MAX_ROUND_PAUSE))
        if self.next_round_at is not None:
            self.next_round_at += seconds - self.definition.round_pause
        self.definition = dataclasses.replace(self.definition, round_pause=seconds)
        effects: Effects = [Announce("pause-changed", Phrase("the pause between rounds is now {seconds:g} seconds",
                                                             seconds=seconds))]
        return effects + self.tick(now)

    def end_early(self, now: float, by: str) -> Effects:
        """The director ends it: unfinished pairings are void (unscored), their tables closed."""
        self._director(by)
        if self.over:
            raise ClubError("wrong-state", Phrase("{title} is over", title=self.definition.title))
        effects: Effects = []
        for pairing in self._pairings():
            if not pairing.over:
                pairing.status, pairing.deadline = "void", None
                if pairing.table is not None:
                    effects.append(CloseTable(pairing.round, pairing.board, pairing.table, "ended"))
        return effects + self._finish("ended", Phrase("the director ended it early"))
    # -- the inside ---------------------------------------------------------------------------

    def _director(self, by: str) -> None:
        if by != self.definition.director:
            raise ClubError("not-director", Phrase("only the director, {director}, may do that",
                                                   director=self.definition.director))

    def _in_state(self, state: str) -> None:
        if self.state != state:
            raise ClubError("wrong-state", Phrase("{title} is {state}, not {wanted}", title=self.definition.title,
                                                  state=self.state, wanted=state))

    def _entered(self, name: str) -> None:
        if self.over:
            raise ClubError("wrong-state", Phrase("{title} is over", title=self.definition.title))
        entrant = self.entrants.get(name)
        if entrant is None or not entrant.active:
            raise ClubError("not-entered", Phrase("{name} has not entered {title}", name=name,
                                                  title=self.definition.title))

    def _leave(self, now: float, name: str, status: str, reason: str, text: Phrase) -> Effects:
        entrant = self.entrants[name]
        entrant.status, entrant.left_at = status, now
        effects: Effects = [Announce(status, Phrase("{news} ({title})", news=text, title=self.definition.title),
                                     (name,))]
        pairing = self.pairing_of(name)
        if pairing is None or self.state == "announced":
            return effects
        effects += self._forfeit_rest(pairing, [name], reason)
        current = self.current_round
        if current is not None and current.over and current.finished_at is None:
            effects += self._end_round(now)
        return effects


    # -- storage ------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON types; :meth:`from_dict` gives it back exactly."""
        return {"definition": self.definition.to_dict(), "announced_at": self.announced_at,
                "state": self.state, "entrants": [e.to_dict() for e in self.entrants.values()],
                "rounds": [r.to_dict() for r in self.rounds], "schedule": self.schedule,
                "field": self.field, "next_round_at": self.next_round_at,
                "paused_at": self.paused_at, "reason": self.reason, "final": self.final}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Event":
        event = cls(EventDefinition.from_dict(data["definition"]), data["announced_at"])
        event.state = data["state"]
        event.entrants = {e["name"]: Entrant.from_dict(e) for e in data["entrants"]}
        event.rounds = [Round.from_dict(r) for r in data["rounds"]]
        event.schedule = [[list(pair) for pair in pairs] for pairs in data["schedule"]]
        event.field = list(data["field"])
        event.next_round_at, event.paused_at = data["next_round_at"], data["paused_at"]
        event.reason, event.final = data["reason"], data["final"]
        return event

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Event) and self.to_dict() == other.to_dict()

    def __repr__(self) -> str:
        return f"<Event {self.definition.id} {self.definition.title!r} {self.state}, round {len(self.rounds)}>"
