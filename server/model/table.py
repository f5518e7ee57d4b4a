"""One table: its seats, its spectators, its game, and the per-seat stream of game messages;
and the :class:`Session` of a person who sits or watches there.

The table is plain state plus the rules for changing it; it knows nothing of sockets.  Its
``seq`` numbers every game message (``event`` and ``turn``) that members receive, across all
the games played at the table, so a client can tell that it missed nothing and a snapshot can
say where it stands.  Redaction happens here and only here: a member is sent
``event.for_seat(seat)`` for its own seat, a spectator ``event.for_seat(None)``, and the
turn timer's move for a seat (``timed_out``) is redacted the same way.  A private event (a
claim refused, told to its claimer alone) is sent with ``seq`` null and takes no number: the
others, who are not told of it, must not see a gap in the numbers either.

A session and a table name each other (a session is at a table, a seat holds a session), so
both are defined here: split over two modules, the two had to import each other.  The
connection a session is reached on is :mod:`noddy.server.model.session`'s, which imports this.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

from noddy.bots import Player
from noddy.engine import Action, Discard, Event, Game, Outcome, Rules, describe_legal

from .live_game import LiveGame
from .match_plan import MatchPlan
from .match import Match
from .table_rating import joined, unrated_reasons
from .table_options import hints_on, match_to

WAITING = "waiting"
PLAYING = "playing"
FINISHED = "finished"
#: The watchers' chat lines of one game kept for its players (the latest).
WATCHERS_CHAT_KEPT = 100


@dataclass(eq=False)
class Session:
    """A player who has said hello; ``conn`` is None while the player is disconnected.

    The session survives its connection: when the connection drops mid-game the session is
    *held* (``held_until``) and a new connection that presents the ``token`` takes it over.
    Whoever changes ``table`` or ``conn`` so that the session may be in the lobby tells the
    core's lobby index (``LobbyBoard.arrived``)."""

    name: str
    bot: bool
    conn: int | None
    token: str = field(default_factory=lambda: secrets.token_hex(16))
    table: Table | None = None
    seat: int | None = None
    held_until: float | None = None
    #: The id of the account this person logged in to (or registered), None for a guest:
    #: only an account's games are rated, and its records and seats are its own.
    account: int | None = None
    #: Whether this person's turns carry ``state`` (hello's ``turn_state``).
    turn_state: bool = False

    def __repr__(self) -> str:
        where = "" if self.table is None else f" table={self.table.id} seat={self.seat}"
        return f"<Session {self.name!r} conn={self.conn}{where}>"


@dataclass(eq=False)
class Seat:
    """Who sits in a seat: a person (``session``) or a computer player (``player``).

    A computer that *stands in* (``stand_in``) plays the seat of a person who left mid-game
    (resigned, or did not come back within the grace period) until the game ends, when the
    seat is freed; ``stand_in_for`` is the person who may take it back (None: one who
    resigned, who may not)."""

    name: str
    session: Session | None = None
    player: Player | None = None
    level: str | None = None
    ready: bool = False
    stand_in: bool = False
    stand_in_for: Session | None = None

    @property
    def is_computer(self) -> bool:
        return self.player is not None

    def to_dict(self, index: int) -> dict[str, Any]:
        data = {
            "seat": index, "name": self.name,
            "kind": "computer" if self.is_computer else "human",
            "bot": self.session is not None and self.session.bot,
            "level": self.level, "ready": (self.ready or self.is_computer) and not self.stand_in,
            "connected": self.is_computer or (self.session is not None and self.session.conn is not None),
            # A person without an account: their games are unrated, their name not reserved.
            "guest": self.session is not None and self.session.account is None,
        }
        if self.stand_in:  # whose seat it is, and whether they may take it back
            data["stand_in_for"] = self.stand_in_for.name if self.stand_in_for is not None else None
        return data


@dataclass(eq=False)
class Table:
    """A table of ``players`` seats playing one preset; see the module docstring."""

    id: int
    rules: Rules
    preset: str
    players: int
    partnerships: bool
    options: dict[str, Any]
    #: A private table's password as kept: its salted hash (:mod:`noddy.server.model.passwords`).
    password: str | None = None
    turn_timer: float | None = None
    seats: list[Seat | None] = field(default_factory=list)
    spectators: list[Session] = field(default_factory=list)
    status: str = WAITING
    game: Game | None = None
    games_played: int = 0
    #: What storage knows of the game being played here, or of the last one.
    live: LiveGame | None = None
    seq: int = 0
    #: The current (or last) game's events, with their seq (None: a private event): what a
    #: (re)joining member is sent.  Emptied when a game begins: earlier games live in storage,
    #: and keeping every event of a long-lived table would only grow memory and the garbage
    #: collector's work.
    log: list[tuple[int | None, Event]] = field(default_factory=list)
    #: When each awaiting human seat's turn timer runs out.
    deadlines: dict[int, float] = field(default_factory=dict)
    #: Seat -> (connection, seq) of the last turn sent to it that the network layer has not
    #: yet reported written: the seat's timer does not run out before then (see
    #: :class:`~noddy.server.core.instructions.TurnTimer`).
    turns_in_flight: dict[int, tuple[int, int]] = field(default_factory=dict)
    #: Seats whose computer player is thinking now.
    thinking: set[int] = field(default_factory=set)
    computers_made: int = 0
    #: Who created the table: the one person who may change its settings or remove a
    #: computer player (see :meth:`owner`).
    creator: Session | None = None
    #: A seat's rating in the table's preset family, for the summary (set by the core).
    rate: Callable[[Seat], int] | None = None
    #: The watchers' chat said during the game being played, which its players are given
    #: when it ends (at most WATCHERS_CHAT_KEPT lines, the latest), each with the players
    #: who had muted its sender then (they are not given it).
    watchers_chat: list[tuple[dict[str, Any], frozenset[Session]]] = field(default_factory=list)
    #: A match table's fixed deals (``create_table``'s ``deal_seeds``), else None.
    match: MatchPlan | None = None
    #: The match being played here (table option ``match``), or the last one, won.
    running_match: Match | None = None
    #: The rating terms (:meth:`rating_terms`) the last game was played under, kept from its
    #: end until the next game starts: the table's own ``rated`` says how the *next* game
    #: would be rated, for the seats taken now, which a seat left or an account made after
    #: the game changes ("That game was rated" must not be said of a game that was not).
    last_game_terms: dict[str, Any] | None = None
    #: A club night's board played here (issue 35): ``{"id", "round", "board"}``, shown in
    #: the summary; None for any other table.  Set by the server's club-night room.
    event: dict[str, Any] | None = None
    #: Whether that club night counts for ratings (announced ``rated``).
    event_rated: bool = True

    def __post_init__(self) -> None:
        if not self.seats:
            self.seats = [None] * self.players

    @property
    def private(self) -> bool:
        return self.password is not None

    @property
    def game_id(self) -> int | None:
        """The stored id of the game being played here, or of the last one (for ``get_game``)."""
        return None if self.live is None else self.live.game_id

    def free_seats(self) -> list[int]:
        return [i for i, seat in enumerate(self.seats) if seat is None]

    def humans(self) -> list[Session]:
        """Everyone at the table who is a person: seated (held or not) and spectators."""
        seated = [s.session for s in self.seats if s is not None and s.session is not None]
        return seated + list(self.spectators)

    def away(self) -> list[Session]:
        """The people a computer stands in for, who may still take their seats back."""
        return [s.stand_in_for for s in self.seats if s is not None and s.stand_in_for is not None]

    def members(self) -> list[tuple[Session, int | None]]:
        """Connected people at the table with the seat whose view they get (None: spectator)."""
        out: list[tuple[Session, int | None]] = []
        for index, seat in enumerate(self.seats):
            if seat is not None:
                session = seat.session
                if session is not None and session.conn is not None:
                    out.append((session, index))
        if self.spectators:
            out += [(s, None) for s in self.spectators if s.conn is not None]
        return out

    def owner(self) -> Session | None:
        """Who may change the settings: the creator while at the table; once the creator has
        gone, the person in the lowest seat, else the first spectator (the role then stays)."""
        people = self.humans()
        if self.creator not in people:
            self.creator = people[0] if people else None
        return self.creator

    def can_start(self) -> bool:
        return (self.status in (WAITING, FINISHED)
                and all(seat is not None and (seat.ready or seat.is_computer) and not seat.stand_in
                        for seat in self.seats))

    def next_match(self) -> Match | None:
        """The match the next game belongs to (None: no ``match`` option): the running one,
        or a new one when there is none, it is won, its length changed or someone else sits."""
        to = match_to(self.options)
        names = [None if seat is None else seat.name for seat in self.seats]
        match = self.running_match
        if to is None:
            self.running_match = None
        elif match is None or match.over or match.to != to or match.names != names:
            self.running_match = Match(to, 2 if self.partnerships else self.players, names=names)
        return self.running_match

    def match_game_dealt(self, game_id: int, dealer: int | None) -> dict[str, Any] | None:
        """A game of the running match is dealt (``dealer`` deals first): what its record says
        of the match (None: no match)."""
        match = self.running_match
        if match is None:
            return None
        match.start(game_id, dealer)
        return match.for_game()

    def match_game_won(self, outcome: Outcome) -> dict[str, Any] | None:
        """Score a finished game in the running match: what its record then says of the match
        (None: no match)."""
        match = self.running_match
        if match is None:
            return None
        match.finish(outcome, self.players, self.partnerships)
        return match.for_game(finished=True)

    def resign_match(self, seat: int) -> dict[str, Any] | None:
        """The person in ``seat`` has left while the match was on: their side gives it up.
        Returns what the match's last game's record now says of it (None: no match was on)."""
        match = self.running_match
        if match is None or match.over or self.live is None:
            return None
        match.resign(seat % 2 if self.partnerships else seat)
        return match.for_game(finished=True)

    @property
    def hints(self) -> bool:
        """Whether the seats may ask the coach (table option ``hints``)."""
        return hints_on(self.options)

    @property
    def rated(self) -> bool:
        """Whether a game won here changes ratings: two sides (two players, or partnerships),
        no coach (a hint is help a rated game must not have), every person seated has an
        account, not one computer level on both sides, and no deals fixed in advance (a match
        table's ``deal_seeds``; see :meth:`unrated_reasons`)."""
        return not self.unrated_reasons()

    def unrated_reasons(self) -> list[tuple[str, str]]:
        """Why a game here is not rated, as (code, words) pairs (none: it is rated): see
        :func:`~noddy.server.model.table_rating.unrated_reasons`."""
        return unrated_reasons(self)

    def summary(self) -> dict[str, Any]:
        """What the lobby shows of the table: never any card."""
        owner = self.owner()
        return {
            "id": self.id, "preset": self.preset, "players": self.players,
            "partnerships": self.partnerships, "options": dict(self.options),
            "private": self.private, "turn_timer": self.turn_timer, "status": self.status,
            **self.rating_terms(),
            **({"last_game": dict(self.last_game_terms)}
               if self.last_game_terms is not None and self.status == FINISHED else {}),
            "seats": [None if seat is None else self._seat_dict(seat, i) for i, seat in enumerate(self.seats)],
            "spectators": [s.name for s in self.spectators],
            "creator": None if owner is None else owner.name,
            "games_played": self.games_played,
            "game_id": self.game_id,
            "match": None if self.running_match is None else self.running_match.summary(),
            **({} if self.event is None else {"event": dict(self.event)}),
        }

    def rating_terms(self) -> dict[str, Any]:
        """``rated``, and if not, ``unrated_reasons`` (codes) and ``unrated_why`` (words)."""
        reasons = self.unrated_reasons()
        if not reasons:
            return {"rated": True, "unrated_reasons": [], "unrated_why": None}
        return {"rated": False, "unrated_reasons": [code for code, _ in reasons],
                "unrated_why": joined([words for _, words in reasons], how=";")}

    def _seat_dict(self, seat: Seat, index: int) -> dict[str, Any]:
        data = seat.to_dict(index)
        data["rating"] = None if self.rate is None else self.rate(seat)
        return data

    # -- the game stream ------------------------------------------------------------------
    def record(self, events: list[Event]) -> list[tuple[int | None, Event]]:
        """Number ``events`` and keep them in the table's log (a private event: seq None)."""
        numbered: list[tuple[int | None, Event]]
        if any([event.private for event in events]):
            numbered = []
            for event in events:
                if not event.private:
                    self.seq += 1
                numbered.append((None if event.private else self.seq, event))
        else:
            first = self.seq + 1
            self.seq += len(events)
            numbered = list(zip(range(first, self.seq + 1), events))
        self.log.extend(numbered)
        return numbered

    def event_messages(self, numbered: list[tuple[int | None, Event]], seats: Iterable[int | None],
                       plain: Sequence[dict[str, Any]],
                       ) -> dict[int | None, list[dict[str, Any]]]:
        """Each of ``seats``' ``event`` messages for ``numbered``, redacted for that seat.

        ``plain[i]`` is event ``i``'s own ``to_dict()``, made already for the storage record.
        Events are mostly public, so every seat that may see an event whole (``for_seat``
        returns the event itself) gets one shared message object around ``plain[i]``, which
        the network layer then encodes once.  Seats whose lists would be equal may get the
        same list.  Shared means nobody may change these lists and messages (or ``plain``)
        once built.  A seat not told of an event (``for_seat`` None) gets no message for it.
        """
        table_id = self.id
        # While every event so far is public, all seats share one list (most actions: a
        # card played, a go); the first event whose views differ gives each seat its own.
        shared: list[dict[str, Any]] = []
        out: dict[int | None, list[dict[str, Any]]] | None = None
        for (seq, event), data in zip(numbered, plain):
            whole = {"type": "event", "table": table_id, "seq": seq, "event": data}
            if event.always_public:  # no seat's view differs: skip asking each one
                if out is None:
                    shared.append(whole)
                else:
                    for messages in out.values():
                        messages.append(whole)
                continue
            if out is None:
                out = {seat: shared[:] for seat in seats}
            for seat, messages in out.items():
                view = event.for_seat(seat)
                if view is not None:
                    messages.append(whole if view is event else
                                    {"type": "event", "table": table_id, "seq": seq, "event": view.to_dict()})
        return dict.fromkeys(seats, shared) if out is None else out

    def timed_out_message(self, seat: int, action: Action, viewer: int | None) -> dict[str, Any]:
        """The move the server made for ``seat`` when its turn timer ran out, as ``viewer``
        (None: a spectator) may see it.  A crib discard is as secret as the ``discarded``
        event it causes: only the seat itself is told which cards went; a played card is
        public in the very next event anyway."""
        shown = action.to_dict(with_seat=False)
        if isinstance(action, Discard) and viewer != seat:
            shown["cards"] = None
        return {"type": "timed_out", "table": self.id, "seat": seat, "action": shown}

    def turn_message(self, seat: int | None, now: float) -> dict[str, Any]:
        """Whose move it is; the seat itself also gets its legal actions."""
        return self.turn_messages((seat,), now)[seat]

    def turn_messages(self, seats: Iterable[int | None], now: float) -> dict[int | None, dict[str, Any]]:
        """:meth:`turn_message` for each of ``seats``.  What differs between seats is only the
        legal actions of those who may act, so the others share one message object (which
        nobody may change, as for :meth:`event_messages`)."""
        game = self.game
        assert game is not None
        awaiting = game.awaiting
        time_left = None
        if self.deadlines:
            time_left = round(max(0.0, min(self.deadlines.values()) - now), 1)
        # The message of every seat that may not act; a seat that may gets a copy with its
        # legal actions in their place (the key order stays the same).
        waiting = {"type": "turn", "table": self.id, "seq": self.seq, "to_move": game.to_move,
                   "awaiting": list(awaiting), "count": game.count, "legal_actions": [],
                   "time_left": time_left}
        return {seat: self._decision(waiting, seat) if seat in awaiting else waiting for seat in seats}

    def _decision(self, waiting: dict[str, Any], seat: int) -> dict[str, Any]:
        """The turn of a seat that must act: its legal actions, and under ``state`` the game as
        that seat sees it (its own hand only, as in a snapshot; ``crib_owner`` is the dealer,
        or null in a preset without a crib), so a bot can choose from this one message
        without folding the events."""
        game = self.game
        assert game is not None
        occupant = self.seats[seat] if 0 <= seat < len(self.seats) else None
        if occupant is None or occupant.session is None or not occupant.session.turn_state:
            # (No view of the game: a seat's view costs as much again as the rest of a turn.)
            return {**waiting, "legal_actions": describe_legal(game.legal_actions(seat))}
        view = game.observation(seat)
        state = view.to_dict()
        del state["legal_actions"]  # the turn's own, as a client is told them (claims as ranges)
        state["crib_owner"] = state["dealer"] if game.rules.has_crib else None
        return {**waiting, "legal_actions": describe_legal(view.legal_actions), "state": state}

    def snapshot(self, seat: int | None, now: float) -> dict[str, Any]:
        """Everything ``seat`` may know about the table and its game, for a (re)joining member."""
        message: dict[str, Any] = {"type": "snapshot", "table": self.summary(), "seat": seat,
                                   "seq": self.seq, "game": None, "events": []}
        if self.game is not None:
            view = self.game.observation(seat)
            message["game"] = view.to_dict()
            message["game"]["legal_actions"] = describe_legal(view.legal_actions)
            message["events"] = [{"seq": seq, "event": view.to_dict()} for seq, event in self.log
                                 if (view := event.for_seat(seat)) is not None]
            live = self.live
            if live is not None and live.changes:  # who played each seat when (issue 33)
                dealt = {entry["seat"]: entry["name"] for entry in live.seats}
                message["dealt"] = [dealt.get(index) for index in range(self.players)]
                message["seat_changes"] = [{"seat": c["seat"], "seq": c.get("seq", 0), "name": c["name"]}
                                           for c in live.changes]
            if self.status == PLAYING:
                message["turn"] = self.turn_message(seat, now)
        return message

