"""The table and its game, for one seat (or a spectator): the state the table screen shows.

:class:`Game` owns the table we sit at or watch (``table_id``, its summary ``table``, our
``seat``) and the log of its game.  The game itself is not folded here: every ``event``,
``turn`` and ``snapshot`` goes to one :class:`noddy.protocol.story.TableView` (``view``), the
fold the server's text mode and the replay use too, which keeps the hands, the pile, the
count, the scores and pegs, whose turn, and returns each message told in words
(:mod:`noddy.protocol.narration`): those lines are the log.  A snapshot starts the view
afresh and its story becomes the log.  A gap in ``seq`` (the view's ``missed``) asks for a
snapshot.

What is the client's own stays here: the cursor and the cards chosen for the crib, the log's
scrolling, the count of a deal on the screen (:class:`~noddy.client.lines.DealCount`, put
up by ``hands_revealed``), whether a game is on (``in_game``), and an action in flight.
The people's news (who is away, back, silent, stood in for) is
:class:`~noddy.client.screens.table_news.TableNews`'s, which :class:`Game` holds (``news``).

The keys of the table screen live in :mod:`noddy.client.screens.table`; they read this state and
queue requests on the :class:`~noddy.client.session.Session`.
"""

from __future__ import annotations

from typing import Any

from noddy.protocol.i18n import _
from noddy.protocol.story import TableView, seat_name

from ..lines import LOG_LIMIT, CountRow, DealCount, LogLine, Peg, line, pile_marks
from ..session import LOBBY, TABLE, Session
from .table_news import TableNews

#: How long the count of a deal stays up by itself once the game waits for the player (a
#: key closes it sooner); while others are to move it stays until a key.
COUNT_SECONDS = 8.0
#: The target shown before a game says its own (Noddy's).
DEFAULT_TARGET = 31


class Game:
    """The table we are at and its game, folded from the server's messages (module docstring)."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.table_id: int | None = None
        self.table: dict[str, Any] | None = None
        #: The count of the last deal, while it is on the screen.
        self.deal_count: DealCount | None = None
        #: The time of the message being handled (the count of a deal is timed from it).
        self.now = 0.0
        self.reset_game()

    def reset_game(self, seat: int | None = None) -> None:
        """No game yet at this table: a fresh view (for ``seat``) and fresh keys' state."""
        self.view = TableView(seat=seat, table_id=self.table_id)
        self.in_game = False
        self._time_at = 0.0
        self.cursor = 0
        self.selected: set[str] = set()
        self.log: list[LogLine] = []
        #: How many of the newest log lines are scrolled out of view (0: following the log).
        self.log_scroll = 0
        #: An action has been sent and not yet answered (a second key press sends nothing).
        self.sending_action = False
        #: The people's news (away, back, stood in for, silent): its own room, writing to the log.
        self.news = TableNews(self.log_line, self.seat_name)
        #: The table's ``rated`` and ``unrated_why`` as the game ended: a seat left after it
        #: (a resignation) changes the table's, judged on the seats taken now, not that game's.
        self.game_rating: dict[str, Any] | None = None
        #: Who the finished game was dealt to, by seat (its ``game_over``'s ``names``): after
        #: it the board names them, not a computer that stood in and has left the seat since.
        self.over_names: list[str] = []

    # == the view's state, as the screen names it ========================================
    @property
    def seat(self) -> int | None:
        """Our seat at the table (None: watching); the view tells the story from it."""
        return self.view.seat

    @seat.setter
    def seat(self, seat: int | None) -> None:
        self.view.seat = seat

    @property
    def hand(self) -> list[str]:
        """Our cards now, sorted."""
        return self.view.hand

    @hand.setter
    def hand(self, cards: list[str]) -> None:
        seat = self.view.seat
        if seat is None:
            return
        hands = self.view.hands
        hands += [None] * (seat + 1 - len(hands))
        hands[seat] = list(cards)

    @property
    def legal(self) -> list[dict[str, Any]]:
        """Our legal actions, as the last ``turn`` (or snapshot) gave them."""
        return self.view.legal_actions

    @legal.setter
    def legal(self, actions: list[dict[str, Any]]) -> None:
        self.view.legal_actions = actions

    @property
    def target(self) -> int:
        """The game's target; before a game says, the table's (its ``target`` option, else its
        preset's default as the server's welcome describes it: a waiting cribbage table is
        played to 121, not Noddy's 31), else Noddy's 31."""
        if self.view.target:
            return self.view.target
        table = self.table or {}
        chosen = (table.get("options") or {}).get("target")
        if isinstance(chosen, int):
            return chosen
        return self.session.preset_target(table.get("preset")) or DEFAULT_TARGET

    # == the table =======================================================================
    def enter_table(self, table_id: int, summary: dict[str, Any] | None) -> None:
        self.table_id = table_id
        self.deal_count = None
        self.table = summary
        self.session.screen = TABLE
        self.reset_game(seat=self.seat)

    def leave_table(self, why: str) -> None:
        """Back to the lobby (we left, the table closed, the seat was not held), saying why."""
        self.table_id = None
        self.table = None
        self.deal_count = None
        self.reset_game()
        self.session.screen = LOBBY
        self.session.set_status(why)
        if self.session.welcomed:
            self.session.send("list_tables")

    def connection_lost(self) -> None:
        """Nothing can be played until the server has said again whose turn it is."""
        self.sending_action = False
        self.view.awaiting, self.legal = [], []

    # == the game stream =================================================================
    def on_snapshot(self, m: dict[str, Any], now: float) -> None:
        """Start afresh: the view retells the game so far (the new log), then takes the
        server's own observation over it, then the snapshot's turn."""
        summary = m.get("table") or {}
        if "id" in summary:
            if self.table_id != summary["id"]:
                self.enter_table(summary["id"], summary)
            self.table = summary
        self.reset_game(seat=m.get("seat"))
        self.view.names = self.names()
        lines = self.view.apply(m)
        for told in lines:
            self.log_line(line(told.kind, *told.parts))
        self.in_game = any(entry["event"].get("kind") == "game_started"
                           for entry in m.get("events", []))
        for entry in m.get("events", []):
            if entry["event"].get("kind") == "game_over":
                self.over_names = [str(name or "") for name in entry["event"].get("names") or []]
        if m.get("game") is not None:
            self.in_game = m["game"].get("phase") != "over" or self.view.winner is not None
        self.view.missed = False
        self._turned(now)

    def on_event(self, m: dict[str, Any]) -> None:
        if self.table_id is not None and m.get("table") not in (None, self.table_id):
            return
        event = m["event"]
        seq, view = m.get("seq"), self.view
        if isinstance(seq, int) and view.seq and seq <= view.seq:
            return          # already seen (a snapshot covered it)
        kind = event.get("kind")
        if self.seat is None:  # a watcher makes no move: news lasts until the board changes
            self.session.game_moved_on()
        if kind == "game_started":
            self._new_game()
        elif kind == "game_over":
            table = self.table or {}  # (a table finished already says how: its last_game)
            self.game_rating = table.get("last_game") or {"rated": table.get("rated"),
                                                          "unrated_why": table.get("unrated_why")}
            self.over_names = [str(name or "") for name in event.get("names") or []]
        view.names = self.names()
        hand_before = list(self.hand)
        lines = view.apply(m)
        self._ask_again_if_missed()
        for told in lines:
            self.log_line(line(told.kind, *told.parts))
        if kind == "deal_started":
            self.selected.clear()
            self.cursor = 0
        elif (kind == "discarded" and event.get("seat") == self.seat
              and event.get("cards") is not None):
            self.selected.clear()
            self.clamp_cursor()
        elif kind == "played" and self.hand != hand_before:
            self.clamp_cursor()
        elif kind == "hands_revealed":
            self._show_count(event)
        elif kind == "deal_ended":
            if self.deal_count is not None and self.deal_count.deal == event["deal"] and lines:
                self.deal_count.after = lines[-1].text()

    def on_turn(self, m: dict[str, Any], now: float) -> None:
        if self.table_id is not None and m.get("table") not in (None, self.table_id):
            return
        self.view.apply(m)
        self._ask_again_if_missed()
        self._turned(now)

    def _turned(self, now: float) -> None:
        """A turn was taken in: time it, and let go of what no longer applies."""
        self._time_at = now
        self.sending_action = False
        if not self.can_act:
            self.selected.clear()
        self.clamp_cursor()

    def _new_game(self) -> None:
        """A game begins at this table: the keys' state starts afresh (the log goes on)."""
        self.in_game = True
        self.cursor = 0
        self.selected = set()
        self.log_scroll = 0
        self.sending_action = False
        self._time_at = 0.0
        self.game_rating = None
        self.over_names = []
        self.session.game_moved_on()

    def _ask_again_if_missed(self) -> None:
        """A message was skipped (a gap in ``seq``): ask for a snapshot, once."""
        if self.view.missed:
            self.view.missed = False
            self.request_snapshot()

    def request_snapshot(self) -> None:
        if not self.session.awaits("snapshot"):
            self.session.send("snapshot")

    def _show_count(self, event: dict[str, Any]) -> None:
        """Put the count of the deal up: every hand and the crib, with what each made."""
        shows = {s.seat: s for s in self.view.shows if not s.crib}
        crib = next((s for s in self.view.shows if s.crib), None)
        rows = [CountRow(self._held_by(seat), tuple(hand),
                         shows[seat].points if seat in shows else None,
                         shows[seat].announcement if seat in shows else "")
                for seat, hand in enumerate(event.get("hands", []))]
        if event.get("crib") is not None:
            rows.append(CountRow(_("crib"), tuple(event["crib"]),
                                 None if crib is None else crib.points,
                                 "" if crib is None else crib.announcement))
        self.deal_count = DealCount(self.view.deal, self.view.turn_up, rows, self.now)

    def _held_by(self, seat: int) -> str:
        """Who held a seat's hand this deal: whoever played its first card, named as then
        (a computer standing in later did not hold it: issue 33, item 6), else who sits there."""
        if len(self.view.played_by) == len(self.view.played):
            for (played, _), name in zip(self.view.played, self.view.played_by):
                if played == seat and name:
                    return name
        return self.seat_name(seat)

    # == questions the screen asks =======================================================
    def names(self) -> list[str]:
        """The players' names by seat, as the table's summary gives them ("" for an empty
        seat): what the story of the game is told with."""
        seats = (self.table or {}).get("seats") or []
        names = [str(s.get("name") or "") if isinstance(s, dict) else "" for s in seats]
        if self.view.winner is not None:  # a finished game: told with who played it, gone or not
            told = self.view.names
            names = [name or (told[s] if s < len(told) else "") for s, name in enumerate(names)]
            # Whose the game was (issue 33): ben's seat, though a computer played it on and
            # the seat was freed at the end, is named ben, as the result names him.
            dealt = self.over_names
            names = [(dealt[s] if s < len(dealt) else "") or name for s, name in enumerate(names)]
        return names

    def seat_name(self, seat: int | None) -> str:
        return seat_name(seat, self.names())

    def seat_marks(self) -> list[str]:
        """One character per seat, to mark who played each card of the pile: the players'
        initials, or their seat numbers (1, 2...) when two share an initial."""
        names = self.names()
        return pile_marks([names[s] if s < len(names) else "" for s in range(self.view.players)])

    def team_of(self, seat: int) -> int:
        return self.view.team_of(seat)

    def seats_of_team(self, team: int) -> list[int]:
        return self.view.seats_of_team(team)

    def team_labels(self) -> list[str]:
        teams = len(self.view.scores) or (2 if self.view.partnerships else self.view.players)
        return [" & ".join(self.seat_name(s) for s in self.seats_of_team(t)) for t in range(teams)]

    @property
    def my_team(self) -> int | None:
        return None if self.seat is None else self.team_of(self.seat)

    @property
    def i_won(self) -> bool:
        return self.view.winner is not None and self.view.winner == self.my_team

    def pegs(self) -> list[Peg]:
        """One track per player or team: the front peg (the score) and the back peg (the
        score before the last points made), as on a real board."""
        labels = self.team_labels()
        return [Peg(labels[t], self.view.scores[t], min(self.view.back_pegs[t], self.view.scores[t])
                    if t < len(self.view.back_pegs) else 0, self.target, t == self.my_team)
                for t in range(len(self.view.scores))]

    @property
    def can_act(self) -> bool:
        return self.seat is not None and self.seat in self.view.awaiting and bool(self.legal)

    def playable(self) -> set[str]:
        """The cards the player may play now (highlighted on the screen)."""
        if not self.can_act:
            return set()
        return {a["card"] for a in self.legal if a.get("action") == "play" and "card" in a}

    @property
    def go_is_legal(self) -> bool:
        return self.can_act and any(a.get("action") == "go" for a in self.legal)

    @property
    def discard_size(self) -> int:
        """Cards to lay away now (0 unless a discard is the player's legal move)."""
        if not self.can_act:
            return 0
        for a in self.legal:
            if a.get("action") == "discard":
                return len(a.get("cards", []))
        return 0

    def time_left_now(self, now: float) -> float | None:
        if self.view.time_left is None:
            return None
        return max(0.0, self.view.time_left - (now - self._time_at))

    # == the count at the end of a deal ===================================================
    def count_expired(self, now: float) -> bool:
        """The count has been up :data:`COUNT_SECONDS` and the game waits for this player (or
        they only watch): it goes by itself, so nobody waits on a screen nobody reads."""
        count = self.deal_count
        return (count is not None and now - count.shown_at >= COUNT_SECONDS
                and (self.seat is None or self.can_act or self.view.winner is not None))

    def dismiss_count(self) -> None:
        self.deal_count = None

    def hold_count(self, now: float) -> None:
        """A key scrolled the count: it is being read, so it stays its full time from now."""
        if self.deal_count is not None:
            self.deal_count.shown_at = now

    def clamp_cursor(self) -> None:
        """Keep the cursor on a card of the hand and the chosen cards in it."""
        self.cursor = max(0, min(self.cursor, len(self.hand) - 1))
        self.selected &= set(self.hand)

    # == the log =========================================================================
    def log_line(self, entry: LogLine) -> None:
        self.log.append(entry)
        if self.log_scroll:
            # Scrolled back: keep the lines being read in place while new ones arrive.
            self.log_scroll += 1
        del self.log[:-LOG_LIMIT]
        self.log_scroll = min(self.log_scroll, max(0, len(self.log) - 1))

    def scroll_log(self, lines: int, view_height: int = 1) -> None:
        """PgUp (positive) / PgDn (negative): scroll the log back or forward by ``lines``,
        no further back than a window of ``view_height`` lines full of the oldest ones."""
        furthest = max(0, len(self.log) - max(1, view_height))
        self.log_scroll = max(0, min(self.log_scroll + lines, furthest))

    def scroll_log_to_end(self) -> None:
        self.log_scroll = 0

    def visible_log(self) -> list[LogLine]:
        """The log up to the line scrolled to; the screen shows its last lines."""
        return self.log[:len(self.log) - self.log_scroll]


__all__ = ["Game", "COUNT_SECONDS"]
