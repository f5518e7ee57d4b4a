"""The replay of one finished game: the record folded into frames to step through.

A game record (the server's ``get_game`` reply, docs/PROTOCOL.md "Records") is the events of
the deal-in (``opening``) and then ``steps``: each an action with the events it caused.  The
record is not redacted -- the game is over -- so every hand, discard and crib is in it.

:class:`Replay` is pure: it runs the record's events, once, through the same fold and
narration as the live table (:class:`noddy.protocol.story.TableView`, whose lines are the
log), keeping a :class:`Frame` -- the table as it stood -- at each point; the replay screen
(:mod:`noddy.client.screens.records`) only moves an index along them.  Frame 0 is the deal-in; then
each action is a frame.  An action that ends a deal (the last card, a show) often deals the
next one in the same step: its events are split at that ``deal_started``, so the end of every
deal (all hands, the crib, the scores) can be looked at before the next deal-in, which is a
frame of its own with no action.  The log is one list for the whole game; a frame remembers
how much of it had been written (``log_end``).  The client never imports the engine: nothing
here re-plays rules, it only reads what the record says happened.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from noddy.protocol.story import TableView

from noddy.protocol.i18n import N_, Phrase, say

from ..cards import card_label, cards_label, sort_cards
from ..keymap import Screen, key
from ..lines import LogLine, Peg, line, pile_marks


# == the step model =========================================================================

@dataclass(frozen=True)
class Frame:
    """The table at one point of a finished game.

    ``action`` is what was done to get here (None for a deal-in); ``seat`` who did it.
    ``hands`` are the cards each seat kept (dealt less laid away), ``played`` the cards
    already played this deal, ``crib`` the cards laid away so far, ``pile`` the cards of the
    current count with who played them.  ``scores`` and ``back_pegs`` are per player, or per
    team in partnerships; ``winner`` is set on the last frame.
    """

    index: int
    action: dict[str, Any] | None
    seat: int | None
    headline: str
    deal: int
    dealer: int | None
    phase: str
    turn_up: str | None
    hands: tuple[tuple[str, ...], ...]
    played: frozenset[str]
    crib: tuple[str, ...]
    pile: tuple[tuple[int, str], ...]
    count: int
    scores: tuple[int, ...]
    back_pegs: tuple[int, ...]
    winner: int | None
    log_end: int


class Replay:
    """A finished game's record as frames to step through; see the module docstring."""

    def __init__(self, record: dict[str, Any], me: str | None = None) -> None:
        self.record = record
        self.me = me
        self.players = int(record["players"])
        self.partnerships = bool(record["partnerships"])
        self.names = {s["seat"]: str(s["name"]) for s in record.get("seats", [])}
        #: The shared fold, run over the record: at the end, the game as it finished.
        self.view = TableView.for_record(record)
        self.log: list[LogLine] = []
        self.frames: list[Frame] = []
        self.position = 0
        self._fold()

    # -- questions ----------------------------------------------------------------------
    @property
    def frame(self) -> Frame:
        return self.frames[self.position]

    @property
    def deals(self) -> int:
        return self.frames[-1].deal

    @property
    def target(self) -> int:
        return self.view.target

    def seat_name(self, seat: int | None) -> str:
        if seat is None:
            return Phrase("the pack")
        return self.names.get(seat, Phrase("seat {seat}", seat=seat))

    def seat_marks(self) -> list[str]:
        """Who played each card of the pile, as the live table marks it (see pile_marks)."""
        return pile_marks([self.names.get(s, "") for s in range(self.players)])

    def team_of(self, seat: int) -> int:
        return self.view.team_of(seat)

    def team_labels(self) -> list[str]:
        teams = 2 if self.partnerships else self.players
        return [" & ".join(say(self.seat_name(s)) for s in self.view.seats_of_team(t))
                for t in range(teams)]

    def my_team(self) -> int | None:
        seats = [s for s, name in self.names.items() if name == self.me]
        return self.team_of(seats[0]) if seats else None

    def pegs(self) -> list[Peg]:
        frame, mine = self.frame, self.my_team()
        return [Peg(label, frame.scores[t], min(frame.back_pegs[t], frame.scores[t]),
                    self.target, t == mine)
                for t, label in enumerate(self.team_labels()) if t < len(frame.scores)]

    def visible_log(self) -> list[LogLine]:
        return self.log[:self.frame.log_end]

    # -- moving -------------------------------------------------------------------------
    def go_to(self, position: int) -> None:
        self.position = max(0, min(position, len(self.frames) - 1))

    def step(self, delta: int) -> None:
        """→ / ←: one action forward or back (a deal-in counts as one)."""
        self.go_to(self.position + delta)

    def home(self) -> None:
        self.go_to(0)

    def end(self) -> None:
        self.go_to(len(self.frames) - 1)

    def next_deal(self) -> None:
        """↓: the deal-in of the next deal (the last frame from the last deal)."""
        deal = self.frame.deal
        later = [f.index for f in self.frames if f.deal > deal]
        self.go_to(later[0] if later else len(self.frames) - 1)

    def previous_deal(self) -> None:
        """↑: the start of this deal, or of the one before when already at its start."""
        deal = self.frame.deal
        start = min(f.index for f in self.frames if f.deal == deal)
        if self.position > start or deal <= 1:
            self.go_to(start)
        else:
            self.go_to(min(f.index for f in self.frames if f.deal == deal - 1))

    # -- folding the record into frames --------------------------------------------------
    def _fold(self) -> None:
        """Run the shared fold over the record's events, keeping a frame at each point."""
        view = self.view
        for event in self.record.get("opening", []):
            self._apply(event)
        self._snapshot(None, self._deal_headline())
        for index, step in enumerate(self.record.get("steps", [])):
            view.at_step(index)  # told with who played the seat then (issue 33)
            action: dict[str, Any] | None = dict(step.get("action") or {})
            headline = self._action_text(action or {})
            for event in step.get("events", []):
                kind = event.get("kind")
                ends_play = (kind == "scored" and view.phase == "play" and bool(view.played)
                             and event.get("reason") in ("show", "crib"))
                if kind == "deal_started" or ends_play:
                    # The end of the play (or of the deal) is a point of its own.
                    self._snapshot(action, headline)
                    action, headline = None, Phrase("The hands are counted.")
                self._apply(event)
                if kind == "deal_started":
                    headline = self._deal_headline()
            self._snapshot(action, headline)

    def _apply(self, event: dict[str, Any]) -> None:
        """Fold one event into the view; its story (the shared narration) goes to the log."""
        for told in self.view.apply_event(event):
            self.log.append(line(told.kind, *told.parts))

    def _deal_headline(self) -> str:
        return Phrase("Deal {deal}: {dealer} deals.", deal=self.view.deal,
                      dealer=self.seat_name(self.view.dealer))

    def _snapshot(self, action: dict[str, Any] | None, headline: str) -> None:
        view = self.view
        if view.phase == "deal over":
            headline = Phrase("{headline} End of the deal.", headline=headline)
        if view.winner is not None:
            labels = self.team_labels()
            if 0 <= view.winner < len(labels):
                team = labels[view.winner]
                headline = (Phrase("{headline} {team} win the game.", headline=headline, team=team)
                            if self.partnerships else
                            Phrase("{headline} {team} wins the game.", headline=headline, team=team))
        kept = list(view.kept) + [None] * (self.players - len(view.kept))
        self.frames.append(Frame(
            index=len(self.frames), action=action, seat=(action or {}).get("seat"),
            headline=headline, deal=view.deal, dealer=view.dealer, phase=view.phase,
            turn_up=view.turn_up, hands=tuple(tuple(h or ()) for h in kept[:self.players]),
            played=frozenset(card for _, card in view.played), crib=tuple(sort_cards(view.crib)),
            pile=tuple(view.pile), count=view.count, scores=tuple(view.scores),
            back_pegs=tuple(view.back_pegs), winner=view.winner, log_end=len(self.log)))

    def _action_text(self, action: dict[str, Any]) -> str:
        who = self.seat_name(action.get("seat"))
        verb = action.get("action")
        if verb == "play":
            return Phrase("{who} plays {card}.", who=who, card=card_label(action['card']))
        if verb == "discard":
            return Phrase("{who} lays away {cards}.", who=who, cards=cards_label(action.get('cards', [])))
        if verb == "go":
            return Phrase("{who} says go.", who=who)
        return f"{who}: {verb}."


class ReplayScreen(Screen):
    """The replay screen's keys: they move the replay shown (``shown``, None: none is), and
    v asks the coach's review of its game (``review``, given the game's id)."""

    title = N_("In a replay")

    def __init__(self, shown: Callable[[], Replay | None], review: Callable[[int], None]) -> None:
        self.shown = shown
        self.review = review

    def is_up(self) -> bool:
        return self.shown() is not None

    def _move(self, how: Callable[[Replay], None]) -> None:
        replay = self.shown()
        if replay is not None:
            how(replay)

    @key("right", "l", label="→ ←", help=N_("a step on / back (l, h)"))
    def _step_on(self, pressed: str) -> None:
        self._move(lambda replay: replay.step(1))

    @key("left", "h", help="")
    def _step_back(self, pressed: str) -> None:
        self._move(lambda replay: replay.step(-1))

    @key("down", "n", label="↓ ↑", help=N_("the next / previous deal (n, p)"))
    def _next_deal(self, pressed: str) -> None:
        self._move(Replay.next_deal)

    @key("up", "p", help="")
    def _previous_deal(self, pressed: str) -> None:
        self._move(Replay.previous_deal)

    @key("home", label=N_("Home End"), help=N_("the start / the end"))
    def _home(self, pressed: str) -> None:
        self._move(Replay.home)

    @key("end", help="")
    def _end(self, pressed: str) -> None:
        self._move(Replay.end)

    @key("v", help=N_("the coach's review of the game"), sends="review")
    def _review(self, pressed: str) -> None:
        replay = self.shown()
        if replay is not None:
            self.review(int(replay.record["id"]))


__all__ = ["ReplayScreen", "Frame", "Replay"]
