"""The table as one reader may see it: a fold of the game's messages.

:class:`TableView` folds the server's ``event``, ``turn``, ``snapshot`` and ``table``
messages (or a stored record's events, :func:`record_events`) into the state every screen of
a game draws from, and returns the story of each message, told by
:mod:`noddy.protocol.narration` with what the view knew before it.  One fold method per event
kind, listed in ``_FOLDS``; a test folds seeded games of every preset and checks the view
against the engine's own observation after every batch of events.

The front door, with how to adopt all this, is :mod:`noddy.protocol.story`.  Standard library
only, no I/O, no rules: it reads what the messages say happened.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from .i18n import DEFAULT_LANGUAGE, _, current_language
from .narration import Line, Show, said_call, seat_name, sort_cards, tell
from .seat_history import names_then, record_changes
from .snapshot_fold import apply_snapshot


@dataclass
class TableView:
    """The game at one table as ``seat`` may see it (None: a spectator, or a replay of a
    record, whose events hide nothing), folded from the server's messages.

    Plain data and no I/O: the same messages always give the same view.  :meth:`apply`
    changes the view in place and returns the story of the message; :meth:`copy` keeps a
    view as it stands (a replay's frames).  The fields, per deal unless said otherwise:

    * ``names`` -- the players' names by seat (from ``table``/``snapshot``, or given);
    * ``phase`` -- ``""`` (no game yet), ``deal``, ``discard``, ``play``, ``show``,
      ``deal over``, ``over`` (a snapshot brings the engine's ``discard``/``play``/``over``);
    * ``hand`` -- your cards now, sorted (``[]`` for a spectator); ``hands`` -- every
      seat's cards now where known, else None; ``kept`` -- what each seat kept after the
      discards (played cards included; every hand once ``hands_revealed``); ``hand_sizes``;
    * ``crib`` -- the crib's cards you know of, ``crib_size`` its size; ``laid_away`` --
      your own discards (None for a spectator);
    * ``pile`` -- (seat, card) of the current count, ``count``; ``played`` -- (seat, card)
      of the deal; ``passed`` -- seats that said go in this count;
    * ``scores`` and ``back_pegs`` -- per player, or per team in partnerships (the back peg
      is the score before the last points made, as on a board);
    * ``to_move``, ``awaiting``, ``legal_actions``, ``time_left`` -- the last ``turn``;
    * ``shows`` -- every show and crib counted this deal; ``points_by_reason`` (per team)
      and ``best_show`` (per seat) -- for the whole game;
    * ``winner`` (a seat, or a team), ``winning_seats``; ``seq`` -- the last event's number,
      ``missed`` -- a number was skipped since the last snapshot (ask for one);
    * who sat where *when* (issue 33: a stand-in must not rewrite history): ``played_by`` --
      the name of whoever played each card of ``played`` when they played it
      (:meth:`pile_names` for the pile), ``dealer_name`` -- who dealt the deal; ``dealt`` and
      ``seat_changes`` -- the names the game was dealt to and each later change of a seat's
      player, ``(seq, seat, name)`` from event ``seq`` on (a snapshot's, so its events are
      retold with who played them; a record's, by step, see :meth:`at_step`).
    """

    seat: int | None = None
    names: list[str] = field(default_factory=list)
    table_id: int | None = None
    seq: int = 0
    missed: bool = False
    preset: str | None = None
    players: int = 0
    partnerships: bool = False
    target: int = 0
    deal: int = 0
    dealer: int | None = None
    phase: str = ""
    hands: list[list[str] | None] = field(default_factory=list)
    kept: list[list[str] | None] = field(default_factory=list)
    hand_sizes: list[int] = field(default_factory=list)
    crib: list[str] = field(default_factory=list)
    crib_size: int = 0
    laid_away: list[str] | None = None
    turn_up: str | None = None
    pile: list[tuple[int, str]] = field(default_factory=list)
    count: int = 0
    played: list[tuple[int, str]] = field(default_factory=list)
    passed: list[int] = field(default_factory=list)
    discarded: list[int] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    back_pegs: list[int] = field(default_factory=list)
    to_move: int | None = None
    awaiting: list[int] = field(default_factory=list)
    legal_actions: list[dict[str, Any]] = field(default_factory=list)
    time_left: float | None = None
    shows: list[Show] = field(default_factory=list)
    points_by_reason: dict[int, dict[str, int]] = field(default_factory=dict)
    best_show: dict[int, int] = field(default_factory=dict)
    winner: int | None = None
    winning_seats: list[int] = field(default_factory=list)
    played_by: list[str] = field(default_factory=list)
    dealer_name: str = ""
    dealt: list[str] = field(default_factory=list)
    seat_changes: list[tuple[int, int, str]] = field(default_factory=list)
    #: Counting by hand: the show being counted (``seat``, ``reason``, ``cards``, ``claimed``:
    #: None until the owner claims; ``refused``: our own claim refused once, else None), as
    #: the ``counting`` and ``claim_refused`` events and the snapshot tell it.
    counting: dict[str, Any] | None = None

    # -- making one -----------------------------------------------------------------------
    @classmethod
    def for_record(cls, record: dict[str, Any]) -> "TableView":
        """An empty view of a stored game (a ``game_record``'s ``record``), to fold
        :func:`record_events` through: every card is known, nobody is "you"."""
        names = {s["seat"]: str(s["name"]) for s in record.get("seats", [])}
        players = int(record.get("players", len(names)))
        view = cls(seat=None, names=[names.get(s, "") for s in range(players)],
                   table_id=record.get("table"))
        view.players, view.partnerships = players, bool(record.get("partnerships"))
        view.dealt, view.seat_changes = list(view.names), record_changes(record)  # (by step)
        return view

    def at_step(self, step: int) -> None:
        """A record's view: the names of who played each seat at its step ``step`` (the
        index in ``steps``), so its events are told with who made them (issue 33)."""
        self.names = names_then(self.dealt, self.seat_changes, step)

    def pile_names(self) -> list[str]:
        """Who played each card of the pile, named as they were when they played it."""
        if len(self.played_by) != len(self.played):
            return [self.names[seat] if 0 <= seat < len(self.names) else "" for seat, _ in self.pile]
        return self.played_by[len(self.played) - len(self.pile):]

    def copy(self) -> "TableView":
        """An independent copy of the view as it stands now."""
        other = TableView(**self.__dict__)
        other.names = list(self.names)
        other.hands = [None if h is None else list(h) for h in self.hands]
        other.kept = [None if h is None else list(h) for h in self.kept]
        for name in ("hand_sizes", "crib", "pile", "played", "passed", "discarded", "scores",
                     "back_pegs", "awaiting", "shows", "winning_seats", "played_by", "dealt",
                     "seat_changes"):
            setattr(other, name, list(getattr(self, name)))
        other.laid_away = None if self.laid_away is None else list(self.laid_away)
        other.legal_actions = [dict(a) for a in self.legal_actions]
        other.points_by_reason = {t: dict(p) for t, p in self.points_by_reason.items()}
        other.best_show = dict(self.best_show)
        other.counting = None if self.counting is None else dict(self.counting)
        return other

    # -- questions ------------------------------------------------------------------------
    @property
    def hand(self) -> list[str]:
        """Your cards now, sorted (``[]`` for a spectator or before the deal)."""
        if self.seat is None or not 0 <= self.seat < len(self.hands):
            return []
        return self.hands[self.seat] or []

    def seat_name(self, seat: int | None) -> str:
        return seat_name(seat, self.names)

    def team_of(self, seat: int) -> int:
        """The score track of ``seat``: its own, or its partnership's (seats 0 and 2: 0)."""
        return seat % 2 if self.partnerships else seat

    def seats_of_team(self, team: int) -> list[int]:
        if not self.partnerships:
            return [team]
        return [s for s in range(self.players) if s % 2 == team]

    def team_labels(self) -> list[str]:
        """One label per score track: a name, or "Ann & Cy" in partnerships."""
        teams = len(self.scores) or (2 if self.partnerships else self.players)
        return [" & ".join(self.seat_name(s) for s in self.seats_of_team(t)) for t in range(teams)]

    def tell(self, event: dict[str, Any]) -> list[Line]:
        """``event`` told as this view's reader hears it, before it is folded in."""
        return tell(event, self.names, self.seat, self)

    # -- folding ------------------------------------------------------------------------
    def apply(self, message: dict[str, Any]) -> list[Line]:
        """Fold one server message into the view; return the lines that tell it (only
        ``event`` messages and the events of a ``snapshot`` are told).  A message for
        another table, an event already seen and a message of another type change nothing."""
        kind = message.get("type")
        if kind == "snapshot":
            return self._apply_snapshot(message)
        if kind == "table":
            self.apply_table(message.get("table") or {})
            return []
        if self.table_id is not None and message.get("table") not in (None, self.table_id):
            return []
        seq = message.get("seq")
        if kind == "event":
            if isinstance(seq, int):
                if self.seq and seq <= self.seq:
                    return []          # already seen (a snapshot covered it)
                if self.seq and seq != self.seq + 1:
                    self.missed = True
                self.seq = seq
            return self.apply_event(message["event"])
        if kind == "turn":
            if isinstance(seq, int) and self.seq and seq > self.seq:
                self.missed = True
            self.to_move = message.get("to_move")
            self.awaiting = list(message.get("awaiting", []))
            self.legal_actions = [dict(a) for a in message.get("legal_actions", [])]
            self.time_left = message.get("time_left")
        return []

    def apply_event(self, event: dict[str, Any]) -> list[Line]:
        """Fold one game event (an ``event`` message's ``event``, or one of a record's);
        return its lines, told with what the view knew before it."""
        lines = self.tell(event)
        fold = _FOLDS.get(str(event.get("kind")))
        if fold is not None:
            fold(self, event)
        return lines

    def apply_table(self, summary: dict[str, Any]) -> None:
        if "id" in summary and self.table_id is None:
            self.table_id = summary["id"]
        if summary.get("id", self.table_id) != self.table_id:
            return
        seats = summary.get("seats")
        if isinstance(seats, list):
            self.names = [str(s.get("name") or "") if isinstance(s, dict) else "" for s in seats]

    def _apply_snapshot(self, m: dict[str, Any]) -> list[Line]:
        """Start afresh from the server's snapshot (see :mod:`.snapshot_fold`)."""
        return apply_snapshot(self, m)

    def size_hands(self) -> None:
        for name in ("hands", "kept"):
            seats: list[list[str] | None] = getattr(self, name)
            seats += [None] * (self.players - len(seats))
        while len(self.hand_sizes) < self.players:
            self.hand_sizes.append(0)

    # -- one fold per event kind ---------------------------------------------------------
    def _game_started(self, e: dict[str, Any]) -> None:
        keep = (self.seat, self.names, self.table_id, self.seq, self.missed, self.dealt, self.seat_changes)
        self.__dict__.update(TableView().__dict__)
        self.seat, self.names, self.table_id, self.seq, self.missed, self.dealt, self.seat_changes = keep
        self.preset, self.players = e["preset"], e["players"]
        self.partnerships, self.target = e["partnerships"], e["target"]
        teams = 2 if self.partnerships else self.players
        self.scores, self.back_pegs = [0] * teams, [0] * teams
        self.points_by_reason = {t: {} for t in range(teams)}
        self.phase = "deal"
        self.size_hands()

    def _deal_started(self, e: dict[str, Any]) -> None:
        self.deal, self.dealer, self.phase = e["deal"], e["dealer"], "deal"
        self.dealer_name = self.names[self.dealer] if 0 <= self.dealer < len(self.names) else ""
        self.hands = [None] * self.players
        self.kept = [None] * self.players
        self.hand_sizes = [0] * self.players
        self.crib, self.crib_size = [], 0
        self.laid_away = None if self.seat is None else []
        self.turn_up, self.pile, self.count = None, [], 0
        self.played, self.passed, self.discarded, self.shows = [], [], [], []
        self.played_by = []

    def _cards_dealt(self, e: dict[str, Any]) -> None:
        seat = e["seat"]
        self.size_hands()
        if 0 <= seat < len(self.hand_sizes):
            self.hand_sizes[seat] = e["count"]
            if e.get("cards") is not None:
                self.hands[seat] = sort_cards(e["cards"])
                self.kept[seat] = sort_cards(e["cards"])
        self.phase = "discard"

    def _discarded(self, e: dict[str, Any]) -> None:
        seat, cards = e.get("seat"), e.get("cards")
        self.crib_size += e["count"]
        self.phase = "discard"
        if cards is not None:
            self.crib += cards
        if seat is None or not 0 <= seat < len(self.hand_sizes):
            return
        self.hand_sizes[seat] -= e["count"]
        self.discarded = sorted({*self.discarded, seat})
        if cards is not None:
            for held in (self.hands, self.kept):
                if held[seat] is not None:
                    held[seat] = [c for c in held[seat] or [] if c not in cards]
            if seat == self.seat:
                self.laid_away = list(cards)

    def _turned_up(self, e: dict[str, Any]) -> None:
        self.turn_up, self.phase, self.discarded = e["card"], "play", []

    def _scored(self, e: dict[str, Any]) -> None:
        seat, points, reason = e["seat"], e.get("points", 0), e.get("reason", "")
        team = self.team_of(seat)
        scores = list(e.get("scores", self.scores))
        if len(self.back_pegs) != len(scores):
            self.back_pegs = [0] * len(scores)
        if points and 0 <= team < len(scores):
            self.back_pegs[team] = self.scores[team] if team < len(self.scores) else 0
        self.scores = scores
        by_reason = self.points_by_reason.setdefault(team, {})
        by_reason[reason] = by_reason.get(reason, 0) + points
        if reason in ("show", "crib"):
            cards = e.get("cards")
            said = (e.get("announcement") or "" if current_language() == DEFAULT_LANGUAGE
                    else said_call(e))
            self.shows.append(Show(seat, points, said, reason == "crib",
                                   None if cards is None else tuple(cards)))
            if reason == "show":
                self.best_show[seat] = max(self.best_show.get(seat, 0), points)
            if self.played:
                self.phase = "show"

    def _played(self, e: dict[str, Any]) -> None:
        seat, card = e["seat"], e["card"]
        self.pile.append((seat, card))
        self.played.append((seat, card))
        self.played_by.append(self.names[seat] if 0 <= seat < len(self.names) else "")
        self.count, self.phase = e["count"], "play"
        if 0 <= seat < len(self.hand_sizes):
            self.hand_sizes[seat] -= 1
            held = self.hands[seat]
            if held is not None and card in held:
                held.remove(card)

    def _go(self, e: dict[str, Any]) -> None:
        self.passed = sorted({*self.passed, e["seat"]})

    def _count_reset(self, e: dict[str, Any]) -> None:
        self.pile, self.count, self.passed = [], 0, []

    def _hands_revealed(self, e: dict[str, Any]) -> None:
        self.phase = "show"
        self.size_hands()
        for seat, hand in enumerate(e.get("hands", [])):
            if seat < self.players:
                self.kept[seat] = sort_cards(hand)
        if e.get("crib") is not None:
            self.crib = sort_cards(e["crib"])

    def _counting(self, e: dict[str, Any]) -> None:
        self.counting = {"seat": e["seat"], "reason": e["reason"], "cards": list(e["cards"]),
                         "claimed": None, "refused": None}
        self.phase = "claim"
        if e["reason"] == "crib":
            self.crib = sort_cards(e["cards"])

    def _claimed(self, e: dict[str, Any]) -> None:
        if self.counting is not None:
            self.counting["claimed"] = e["points"]
        self.phase = "muggins"

    def _claim_refused(self, e: dict[str, Any]) -> None:
        """Our own claim was above the worth: the first is kept (``refused``: the next one
        above it counts as 0), as the owner's own snapshot says."""
        if self.counting is not None and e["seat"] == self.seat and not e.get("counts_as_zero"):
            self.counting["refused"] = e["points"]

    def _counted(self, e: dict[str, Any]) -> None:
        """A show counted by hand is over: kept as a show of its true worth, with what was
        claimed and who mugged it in the announcement."""
        seat, reason = e["seat"], e["reason"]
        if e.get("mugged_by") is not None:
            said = _("claimed {claimed} of {worth}, mugged by {who}").format(
                claimed=e["claimed"], worth=e["worth"], who=self.seat_name(e["mugged_by"]))
        else:
            said = _("claimed {claimed} of {worth}").format(claimed=e["claimed"], worth=e["worth"])
        self.shows.append(Show(seat, e["worth"], said, reason == "crib", tuple(e["cards"])))
        if reason == "show":
            self.best_show[seat] = max(self.best_show.get(seat, 0), e["worth"])
        self.counting = None
        self.phase = "show"

    def _deal_ended(self, e: dict[str, Any]) -> None:
        self.scores = list(e.get("scores", self.scores))
        self.phase = "deal over"

    def _game_over(self, e: dict[str, Any]) -> None:
        # The board stays as played (``played_to``) when the result counts the scores of an
        # earlier moment (a seat left and never taken back): it does not snap back (issue 33).
        self.scores = list(e.get("played_to") or e.get("scores", self.scores))
        self.winner, self.winning_seats = e["winner"], list(e.get("winning_seats", []))
        self.phase = "over"
        self.to_move, self.awaiting, self.legal_actions = None, [], []


#: How each event kind changes a :class:`TableView` (kinds not listed change nothing).
_FOLDS: dict[str, Callable[[TableView, dict[str, Any]], None]] = {
    "game_started": TableView._game_started,
    "deal_started": TableView._deal_started,
    "cards_dealt": TableView._cards_dealt,
    "discarded": TableView._discarded,
    "turned_up": TableView._turned_up,
    "scored": TableView._scored,
    "played": TableView._played,
    "go": TableView._go,
    "count_reset": TableView._count_reset,
    "hands_revealed": TableView._hands_revealed,
    "counting": TableView._counting,
    "claimed": TableView._claimed,
    "claim_refused": TableView._claim_refused,
    "counted": TableView._counted,
    "deal_ended": TableView._deal_ended,
    "game_over": TableView._game_over,
}


def record_events(record: dict[str, Any]) -> Iterator[tuple[int | None, dict[str, Any] | None,
                                                              dict[str, Any]]]:
    """Every event of a stored game (docs/PROTOCOL.md "Records") in order, as ``(step,
    action, event)``: ``step`` None and ``action`` None for the deal-in (``opening``), then
    the index of each step and the action that caused its events."""
    for event in record.get("opening", []):
        yield None, None, event
    for index, step in enumerate(record.get("steps", [])):
        for event in step.get("events", []):
            yield index, step.get("action"), event


__all__ = ["TableView", "record_events"]
