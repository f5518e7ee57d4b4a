"""Club nights in the terminal client (issue 35): the list of events and one event.

:class:`EventsView` sits beside the :class:`~noddy.client.model.ViewModel` as who is on does
(:mod:`noddy.client.screens.people`).  ``e`` in the lobby opens the list (``events``); Enter
opens the event under the cursor (``event``): its definition, its entrants (bots marked), the
standings and the boards of its current round, the cursor on those boards (Enter watches a
board's table: ``spectate``; on a finished board it opens the replay of its first game,
``get_game``).  ``j`` joins (a private event asks its password on the
password line, :class:`~noddy.client.screens.lobby.PasswordPrompt` with the verb
``join_event``), ``w`` withdraws; the director (the event's ``director`` is us) starts,
pauses and resumes, ends (asked first), removes the entrant chosen with ← → (asked first)
and lengthens or shortens the pause between rounds.  ``n`` announces an event through
:class:`~noddy.client.screens.events_form.AnnounceForm`.

Each ``event_news`` push asks the server again for what is shown (the list, or the event),
and so does a board's table opening or closing (news of those goes to the entrants only: a
person watching the event learns it from the lobby's table pushes), so the screen follows
the event while it is open; the news itself goes to the status line
and the lobby's log (:meth:`noddy.client.model.ViewModel._on_event_news`).

The drawing is :mod:`noddy.client.screens.events_layout`'s.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from noddy.protocol.i18n import N_, _

from ..keymap import Screen, key
from ..model import LOBBY, ViewModel
from .events_form import AnnounceForm
from .lobby import PasswordPrompt

EVENTS = "events"
EVENT = "event"
#: What + and - change the pause between rounds by (s): the server takes 0 to 1800 s.
ROUND_PAUSE_STEP = 30
#: The longest pause between rounds the director may set here (the schema's bound).
ROUND_PAUSE_LIMIT = 1800
#: A director's command as "Done: ..." says it (the wire's word for one not listed).
DIRECTED = {"start": N_("start"), "pause": N_("pause"), "resume": N_("resume"), "end": N_("end"),
            "remove": N_("remove"), "round_pause": N_("round pause")}


class EventsView(Screen):
    """The list of club nights, the one opened, and the requests about them (module docstring)."""

    title = N_("Club nights")

    def __init__(self, model: ViewModel) -> None:
        self.model = model
        self.events: list[dict[str, Any]] | None = None  # None: asked for, not yet here
        self.cursor = 0
        #: The event opened (its id), and the server's view of it once it came.
        self.event_id: int | None = None
        self.event: dict[str, Any] | None = None
        self.board_cursor = 0
        #: The entrant chosen with ← → (the director's remove takes them).
        self.entrant_cursor = 0
        self.announce = AnnounceForm(model.session, lambda: self.active, self._ask)
        self._asked: dict[int, dict[str, Any]] = {}
        #: Opens the replay of a finished game by its id (the records view's; the application
        #: wires it): Enter on a finished board replays its first game.
        self.open_game: Callable[[int], None] | None = None

    @property
    def session(self) -> Any:
        return self.model.session

    @property
    def active(self) -> bool:
        return self.model.session.screen in (EVENTS, EVENT)

    def _ask(self, kind: str, **fields: Any) -> int:
        request_id = self.session.send(kind, **fields)
        self._asked[request_id] = {"type": kind, **fields}
        return request_id

    # -- what is shown ----------------------------------------------------------------------
    def is_director(self) -> bool:
        return self.event is not None and self.event.get("director") == self.session.name

    def state(self) -> str:
        return str((self.event or {}).get("state", ""))

    def entered(self) -> list[dict[str, Any]]:
        """The entrants still in (the director's remove chooses among them)."""
        return [e for e in (self.event or {}).get("entrants") or [] if e.get("status") == "entered"]

    def current_round(self) -> dict[str, Any] | None:
        """The round being played, else the last one played."""
        rounds = (self.event or {}).get("rounds_played") or []
        return rounds[-1] if rounds else None

    def boards(self) -> list[dict[str, Any]]:
        current = self.current_round()
        return list(current.get("boards") or []) if current else []

    def chosen_entrant(self) -> str | None:
        entered = self.entered()
        return str(entered[self.entrant_cursor % len(entered)]["name"]) if entered else None

    def selected_summary(self) -> dict[str, Any] | None:
        return self.events[self.cursor] if self.events else None

    # -- doing ------------------------------------------------------------------------------
    def open(self) -> None:
        """e in the lobby: the list of club nights."""
        self.session.clear_status()
        self.session.screen = EVENTS
        self.event_id, self.event = None, None
        self.refresh()

    def refresh(self) -> None:
        if self.session.screen == EVENT and self.event_id is not None:
            self._ask("event", event=self.event_id)
        else:
            self._ask("events")

    def open_event(self, event_id: int) -> None:
        self.session.clear_status()
        self.session.screen = EVENT
        self.event_id, self.event = event_id, None
        self.board_cursor = self.entrant_cursor = 0
        self._ask("event", event=event_id)

    def back(self) -> None:
        """Esc: from an event to the list, from the list to the lobby."""
        self.session.clear_status()
        if self.session.screen == EVENT:
            self.session.screen = EVENTS
            self.event_id, self.event = None, None
            self._ask("events")
        else:
            self.session.screen = LOBBY

    def join(self) -> None:
        """j: enter the event; a private one asks its password first."""
        if self.event_id is None:
            return
        if (self.event or {}).get("private"):
            self.model.lobby.password_prompt = PasswordPrompt(self.event_id, "join_event")
            return
        self._ask("join_event", event=self.event_id)

    def withdraw(self) -> None:
        if self.event_id is not None:
            self._ask("withdraw_event", event=self.event_id)

    def direct(self, command: str, **more: Any) -> None:
        """A director's command about the event opened."""
        if self.event_id is not None:
            self._ask("direct_event", event=self.event_id, command=command, **more)

    def pause_or_resume(self) -> None:
        self.direct("resume" if self.state() == "paused" else "pause")

    def change_round_pause(self, delta: int) -> None:
        now = int((self.event or {}).get("round_pause") or 0)
        seconds = max(0, min(ROUND_PAUSE_LIMIT, now + delta * ROUND_PAUSE_STEP))
        self.direct("round_pause", seconds=seconds)

    def watch_board(self) -> None:
        boards = self.boards()
        if not boards:
            self.session.set_status(_("No board is being played: the round has not begun."), error=True)
            return
        board = boards[self.board_cursor % len(boards)]
        if board.get("status") in ("done", "void"):  # its table is closed: replay its games instead
            self._replay_board(board)
            return
        if board.get("table") is None:
            self.session.set_status(_("That board has no table (a bye, or it is over)."), error=True)
            return
        self.session.send("spectate", table=board["table"])

    def _replay_board(self, board: dict[str, Any]) -> None:
        """A finished board: the replay of its first game played (a forfeit has no record)."""
        ids = [game["id"] for game in board.get("games") or [] if isinstance(game.get("id"), int)]
        if not ids or self.open_game is None:
            self.session.set_status(_("That board is over and has no game to replay (forfeited)."),
                                    error=True)
            return
        self.open_game(ids[0])

    # -- messages ---------------------------------------------------------------------------
    def handle(self, message: dict[str, Any]) -> None:
        """A message from the server (the application passes every one)."""
        kind = message.get("type")
        if kind == "event_news":
            if self.active and (self.session.screen == EVENTS or message.get("event") == self.event_id):
                self.refresh()
            return
        if kind in ("table", "table_closed") and self.active and self.announce.form is None \
                and self._board_moved(message):
            self.refresh()
            return
        request_id = message.get("id")
        asked = self._asked.pop(request_id, None) if isinstance(request_id, int) else None
        if asked is None:
            return
        if kind == "club_events":
            self.events = [e for e in message.get("events") or [] if isinstance(e, dict)]
            self.cursor = max(0, min(self.cursor, len(self.events) - 1))
        elif kind == "club_event":
            event = message.get("event") or {}
            if asked["type"] == "announce_event":
                self.session.set_status(_("Announced {title} (club night {event}).").format(
                    title=event.get('title'), event=event.get('id')))
                self.open_event(int(event["id"]))
            elif event.get("id") == self.event_id:
                self.event = event
                self.board_cursor = max(0, min(self.board_cursor, len(self.boards()) - 1))
        elif kind == "ok":
            self._done(asked)
        elif kind == "error" and asked["type"] == "events":
            self.events = []  # (the error's words are on the status line: the model's)

    def _board_moved(self, message: dict[str, Any]) -> bool:
        """A board's table opened (a round began) or closed (its games are played): news
        that goes to the entrants only, so one who watches the event learns it this way."""
        if message.get("type") == "table_closed":
            return message.get("reason") == "event_board"
        summary = message.get("table") or {}
        board = summary.get("event") if isinstance(summary, dict) else None
        if not isinstance(board, dict) or "seat" in message:
            return False
        if self.session.screen == EVENTS:
            return board.get("round") not in [e.get("round") for e in self.events or []
                                              if e.get("id") == board.get("id")]
        known = [b.get("table") for b in self.boards()]
        return board.get("id") == self.event_id and summary.get("id") not in known

    def _done(self, asked: dict[str, Any]) -> None:
        """An ``ok``: say what was done (the news follows), and look again."""
        said = {"join_event": N_("You entered club night {event}."),
                "withdraw_event": N_("You withdrew from club night {event}.")}
        if asked["type"] in said:
            self.session.set_status(_(said[asked["type"]]).format(event=asked["event"]))
        elif asked["type"] == "direct_event":
            command = asked['command']
            done = _(DIRECTED[command]) if command in DIRECTED else command.replace('_', ' ')
            self.session.set_status(_("Done: {what}").format(what=done)
                                    + (f" {asked['name']}" if asked.get("name") else "")
                                    + (f" {asked['seconds']} s" if "seconds" in asked else "") + ".")
        if self.active:
            self.refresh()

    # == keys ==============================================================================
    def is_up(self) -> bool:
        return (self.active and self.announce.form is None) or self.model.lobby.is_up()

    def _on_list(self) -> bool:
        return self.session.screen == EVENTS and self.announce.form is None

    def _on_event(self) -> bool:
        return self.session.screen == EVENT

    def _directing(self) -> bool:
        return self._on_event() and self.is_director()

    @key("e", help=N_("club nights (Enter opens one)"), sends="events", when=lambda self: not self.active)
    def _open(self, pressed: str) -> None:
        self.open()

    @key("up", label="↑ ↓", help=N_("choose an event, or a board"), flush=False,
         when=lambda self: self.active)
    def _up(self, pressed: str) -> None:
        self._move(-1)

    @key("down", help="", flush=False, when=lambda self: self.active)
    def _down(self, pressed: str) -> None:
        self._move(1)

    def _move(self, delta: int) -> None:
        if self.session.screen == EVENTS and self.events:
            self.cursor = (self.cursor + delta) % len(self.events)
        elif self.session.screen == EVENT and self.boards():
            self.board_cursor = (self.board_cursor + delta) % len(self.boards())

    @key("enter", help=N_("open the event chosen"), sends="event", when=_on_list)
    def _enter(self, pressed: str) -> None:
        chosen = self.selected_summary()
        if chosen is not None:
            self.open_event(int(chosen["id"]))

    @key("enter", help=N_("watch the board chosen (replay it, once over)"), sends="spectate", when=_on_event)
    def _watch(self, pressed: str) -> None:
        self.watch_board()

    @key("n", help=N_("announce a club night (a form)"), flush=False, when=_on_list)
    def _announce(self, pressed: str) -> None:
        self.session.clear_status()
        self.announce.open()

    @key("j", help=N_("join the event (a private one asks its password)"), sends="join_event",
         when=_on_event)
    def _join(self, pressed: str) -> None:
        self.session.clear_status()
        self.join()

    @key("w", help=N_("withdraw from it"), sends="withdraw_event", when=_on_event)
    def _withdraw(self, pressed: str) -> None:
        self.session.clear_status()
        self.withdraw()

    @key("s", help=N_("director: start it"), sends="direct_event", when=_directing)
    def _start(self, pressed: str) -> None:
        self.direct("start")

    @key("p", help=N_("director: pause it, or resume it"), sends="direct_event", when=_directing)
    def _pause(self, pressed: str) -> None:
        self.pause_or_resume()

    @key("+", "-", label="+ -", help=N_("director: 30 s more or less between rounds"),  # (ROUND_PAUSE_STEP: a test checks)
         sends="direct_event", when=_directing)
    def _round_pause(self, pressed: str) -> None:
        self.change_round_pause(1 if pressed == "+" else -1)

    @key("left", "right", label="← →", help=N_("director: choose an entrant"), flush=False,
         when=_directing)
    def _choose(self, pressed: str) -> None:
        self.entrant_cursor += 1 if pressed == "right" else -1

    @key("x", help=N_("director: remove the entrant chosen (asks first)"), sends="direct_event",
         when=_directing)
    def _remove(self, pressed: str) -> None:
        name = self.chosen_entrant()
        if name is None or self.host is None:
            return
        self.host.confirm(" " + _("Remove {name} from the event?").format(name=name) + "  y / n ",
                          lambda: self.direct("remove", name=name))

    @key("E", help=N_("director: end it early (asks first)"), sends="direct_event", when=_directing)
    def _end(self, pressed: str) -> None:
        if self.host is not None:
            self.host.confirm(" " + _("End the event early? Unfinished boards are void.") + "  y / n ",
                              lambda: self.direct("end"))

    @key("r", help=N_("refresh"), sends="events", when=lambda self: self.active)
    def _refresh(self, pressed: str) -> None:
        self.refresh()

    @key("escape", "backspace", label=N_("Esc"), help=N_("back"), eager=True, when=lambda self: self.active)
    def _back(self, pressed: str) -> None:
        self.back()


__all__ = ["EventsView", "EVENTS", "EVENT", "ROUND_PAUSE_STEP"]
