"""The client's view model: the screens' models composed, and the server's messages routed.

Theory of operation
===================

Each screen has its own small model, plain Python with no I/O and no prompt_toolkit, so it
can be tested by feeding it messages:

* :class:`~noddy.client.session.Session` -- the connection, the hello/welcome, the name, the
  status line, which screen is up, and the outbox every request goes through;
* :class:`~noddy.client.screens.lobby.Lobby` -- the tables, sitting or watching, a private table's
  password;
* :class:`~noddy.client.screens.form.NewTable` -- the create-table form and the creation that
  follows;
* :class:`~noddy.client.screens.game.Game` -- the table we are at and its game: the shared fold of
  the ``event``/``turn``/``snapshot`` messages (:class:`noddy.protocol.story.TableView`,
  ``model.game.view``) and the log, which is that fold's narration;
* :class:`~noddy.client.screens.table.TableScreen` -- the keys and the prompt of the table screen;
* :class:`~noddy.client.screens.counting.HandCount` -- the number typed to claim a show or call
  muggins, under counting by hand (``model.hand_count``);
* :class:`~noddy.client.screens.coach.Coach` -- the coach's hints and reviews at a table with
  ``hints`` (``model.coach``);
* the finished games' screens are :class:`~noddy.client.screens.records.RecordsView`, beside
  this one (its replay, :class:`~noddy.client.screens.replay.Replay`, runs the same fold over a
  stored record).

Each declares its own keys (:mod:`noddy.client.keymap`); :mod:`noddy.client.app` composes
them all.

:class:`ViewModel` composes them and is where a message from the server goes
(``handle(message, now)``): it matches a reply to its request (by the echoed ``id``) and
hands each part what concerns it.  A message that moves us between screens (``welcome``,
``table``, ``table_closed``, ``ok`` to a ``leave``, ``error``) is routed here, in one place,
because it concerns several parts at once.  The ``connection_*`` calls say the link went
down, is being retried, came back.

None of them sends anything: requests are appended to the session's ``outbox``, which the
application drains and writes to the connection.

The drawing (:mod:`noddy.client.render`), the application and the tests read each part
where it lives (``model.game.hand``, ``model.game.view.scores``, ``model.lobby.sit()``): the
view model forwards nothing.
"""

from __future__ import annotations

from typing import Any

from noddy.protocol.closing import closed_words
from noddy.protocol.i18n import _, ngettext

from .lines import LOG_LIMIT, CountRow, DealCount, LogLine, Peg, line, number_words
from .screens.coach import Coach, Panel
from .screens.counting import HandCount
from .screens.form import FALLBACK_PRESETS, CreateForm, NewTable
from .screens.game import COUNT_SECONDS, Game
from .screens.lobby import PASSWORD_LIMIT, Lobby, PasswordPrompt, free_seats
from .screens.table import TableScreen
from .session import (
    CHAT_LIMIT,
    CONNECTING,
    LOBBY,
    NAME_LIMIT,
    NOT_CONNECTED,
    TABLE,
    Session,
    request_field,
)

class ViewModel:
    """The screens' models composed; see the module docstring."""

    def __init__(self, name: str = "player") -> None:
        self.session = Session(name)
        self.lobby = Lobby(self.session)
        self.new_table = NewTable(self.session)
        self.game = Game(self.session)
        self.table_screen = TableScreen(self.session, self.game)
        self.hand_count = HandCount(self.session, self.game)
        self.coach = Coach(self.session, self.game)
        # What each screen needs of the others, given once here.
        self.lobby.form_open = lambda: self.new_table.form is not None
        self.lobby.open_form = self.new_table.open_form
        self.table_screen.coach = self.coach
        self.table_screen.counting = lambda: self.hand_count.active
        self.hand_count.ask_hint = self.coach.ask_hint

    def prompt(self) -> str:
        """The line that says what happens now: while a show is counted by hand, what the
        count asks (:meth:`HandCount.prompt`); else the table screen's prompt."""
        if self.session.connection == "online" and self.game.view.winner is None:
            counting = self.hand_count.prompt()
            if counting is not None:
                return counting
        return self.table_screen.prompt()

    def chat(self, text: str) -> None:
        """Say something to the table we are at, or to the lobby."""
        self.session.chat(text, at_table=self.game.table_id is not None)

    # == the connection ====================================================================
    def connection_up(self) -> None:
        self.session.connection_up()

    def connection_lost(self, detail: str) -> None:
        self.session.connection_lost(detail)
        self.game.connection_lost()

    # == messages from the server ==========================================================
    def handle(self, message: dict[str, Any], now: float = 0.0) -> None:
        self.game.now = now
        kind = message.get("type")
        request = self.session.take_request(message)
        handler = getattr(self, f"_on_{kind}", None) if isinstance(kind, str) else None
        if handler is not None:
            handler(message, request, now)

    def _on_greeting(self, m: dict[str, Any], request: Any, now: float) -> None:
        self.session.on_greeting(m)

    def _on_welcome(self, m: dict[str, Any], request: Any, now: float) -> None:
        session, game = self.session, self.game
        started = session.welcomes == 0   # this client's first connection: nothing was lost
        session.on_welcome(m)
        if m.get("resumed") and m.get("table") is not None:
            # Started again with its saved token, there was no connection to restore (issue 33).
            said = (_("Connection restored; back at the table.") if not started else
                    _("Back at table {table} (your seat was held).").format(table=m['table'])
                    if m.get("seat") is not None
                    else _("Back watching table {table}.").format(table=m['table']))
            session.set_status(said, until_game=True)
            game.table_id = m["table"]
            game.seat = m.get("seat")
            session.screen = TABLE
            return
        if game.table_id is not None and not m.get("resumed"):
            game.leave_table(_("Your seat was not held; back in the lobby."))
        session.screen = LOBBY
        session.send("list_tables")
        self.new_table.start_quick()

    def _on_registered(self, m: dict[str, Any], request: Any, now: float) -> None:
        self.session.registered = True
        self.session.set_status(_("{name} is registered: the name is yours, and your games with "
                                  "registered people are rated.").format(name=m.get('name', self.session.name)))

    def _on_unregistered(self, m: dict[str, Any], request: Any, now: float) -> None:
        self.session.registered = False
        self.session.set_status(_("{name} is no longer registered: you are a guest.").format(
            name=m.get('name', self.session.name)))

    def _on_tables(self, m: dict[str, Any], request: Any, now: float) -> None:
        self.lobby.on_tables(m)

    def _on_table(self, m: dict[str, Any], request: Any, now: float) -> None:
        """A table's summary: the lobby's list; and where we are, when it answers our sit,
        spectate, stand or create_table (then the requests that follow a creation go)."""
        game = self.game
        summary = m["table"]
        self.lobby.tables[summary["id"]] = summary
        # A challenge accepted or a seek paired: the reply to accept, or a push, that carries
        # our seat at a new table (docs/PROTOCOL.md, Meeting in the lobby).
        placed = "seat" in m and (request is None or request["type"] == "accept")
        if placed or request is not None and request["type"] in ("create_table", "sit", "spectate", "stand"):
            if "seat" in m:
                # A server that says where we now are is the truth (docs/PROTOCOL.md).
                game.seat = m["seat"]
            elif request is not None and request["type"] == "create_table":
                game.seat = request.get("seat", 0)
            elif request is not None and request["type"] == "sit":
                game.seat = request.get("seat")
            else:
                game.seat = None
            self.table_screen.seats.picking = None
            if game.table_id != summary["id"]:
                game.enter_table(summary["id"], self.lobby.tables.get(summary["id"]))
            for extra in self.new_table.take_follow_ups():
                self.session.send(extra.pop("type"), **extra)
        if summary["id"] == game.table_id:
            game.table = summary
            if summary.get("status") != "playing" and game.in_game and game.view.winner is None:
                game.in_game = False
        self.lobby.clamp_cursor()

    def _on_table_closed(self, m: dict[str, Any], request: Any, now: float) -> None:
        self.lobby.tables.pop(m.get("table"), None)
        if m.get("table") == self.game.table_id:
            said = (_("Table {table} is put away: {why}") if m.get("reason") == "shutdown"
                    else _("Table {table} closed: {why}"))
            self.game.leave_table(said.format(table=m.get('table'), why=closed_words(m)).rstrip(": "))
        self.lobby.clamp_cursor()

    def _on_ok(self, m: dict[str, Any], request: Any, now: float) -> None:
        if request is None:
            return
        if request["type"] == "leave":
            self.game.leave_table(_("You left the table."))
        elif request["type"] == "resign_match":
            self.session.set_status(_("You gave up the match; the other side wins it."))
        elif request["type"] == "action":
            self.game.sending_action = False
            if request.get("action") in ("claim", "muggins", "pass"):
                self.hand_count.entry = ""

    def _on_error(self, m: dict[str, Any], request: Any, now: float) -> None:
        session = self.session
        code = m.get("code", "")
        if code == "bad_token":
            # The seat was not held (the grace period passed): start afresh as a new player.
            session.token = None
            if self.game.table_id is not None:
                self.game.leave_table(_("Your seat was given up while you were away."))
            session.say_hello()
            return
        if not session.welcomed and m.get("field") == "name":
            session.on_name_refused(m)
            return
        if not session.welcomed and (code in ("password_required", "bad_password", "too_many_attempts")
                                     or (code == "rate_limited" and session.sent_password)):
            self.lobby.ask_account_password(code, str(m.get("message") or ""))
            return
        if code == "hello_required":
            session.set_status(NOT_CONNECTED, error=True)
            return
        if request is not None and request["type"] == "action":
            self.game.sending_action = False
            if self.hand_count.refused(request, code, str(m.get("message") or "")):
                return
        if request is not None and self.coach.refused(request, code, str(m.get("message") or "")):
            return
        if request is not None and request["type"] == "create_table":
            self.new_table.creation_refused()
        if code == "bad_password" and request is not None and request["type"] == "join_event":
            self.lobby.password_prompt = PasswordPrompt(request["event"], "join_event", retry=True)
            self.session.set_status(_("Wrong password for club night {event}: type it "
                                      "again, or Esc.").format(event=request['event']), error=True)
            return
        if (code == "wrong_password" and request is not None
                and request["type"] in ("sit", "spectate") and isinstance(request.get("table"), int)):
            self.lobby.on_wrong_password(request)
            return
        # The message is for people; the code is for programs and stays off the screen.
        session.set_status(str(m.get("message") or code.replace("_", " ")), error=True)

    def _on_chat(self, m: dict[str, Any], request: Any, now: float) -> None:
        watchers = _("(watchers)") + " " if m.get("to") == "watchers" else ""
        said = line("chat", f"{watchers}<{m.get('from', '?')}> {m.get('text', '')}")
        if m.get("to") in ("table", "watchers"):
            self.game.log_line(said)
        else:
            self.lobby.on_chat(said)

    def _on_chat_history(self, m: dict[str, Any], request: Any, now: float) -> None:
        """The lobby's last lines on entering it, or the watchers' chat after a game."""
        lines = [x for x in m.get("lines") or [] if isinstance(x, dict)]
        if lines and lines[0].get("to") == "watchers":
            self.game.log_line(line("info", _("The watchers said during the game:")))
        for said in lines:
            self._on_chat(said, None, now)

    def _on_tell(self, m: dict[str, Any], request: Any, now: float) -> None:
        """A private message, ours (its echo) or to us: in the log we are looking at."""
        if m.get("echo"):
            echo = (_("[to {name}] {text} (waits for their next login)") if m.get("waiting")
                    else _("[to {name}] {text}"))
            said = line("tell", echo.format(name=m.get('to', '?'), text=m.get('text', '')))
        else:
            told = (_("[from {name}, while you were away] {text}") if m.get("waiting")
                    else _("[from {name}] {text}"))
            said = line("tell", told.format(name=m.get('from', '?'), text=m.get('text', '')))
            self.session.set_status(_("{name} tells you: {text} (t, then /tell {name} … to answer)").format(
                name=m.get('from', '?'), text=m.get('text', '')))
        if self.game.table_id is not None:
            self.game.log_line(said)
        else:
            self.lobby.on_chat(said)

    def _on_muted(self, m: dict[str, Any], request: Any, now: float) -> None:
        names = [str(n) for n in m.get("names") or []]
        self.session.set_status(_("Muted: {names}.").format(names=", ".join(names)) if names
                                else _("You have muted nobody."))

    def _on_game_result(self, m: dict[str, Any], request: Any, now: float) -> None:
        """A result decided away from us (we resigned, gave a match up, or were away), or our
        rating change after a rated game: say it, until the next game starts or a move."""
        self.session.set_status(str(m.get("message", "")), until_game=True)

    def _on_player_away(self, m: dict[str, Any], request: Any, now: float) -> None:
        self.game.news.on_player_away(m)

    def _on_player_back(self, m: dict[str, Any], request: Any, now: float) -> None:
        self.game.news.on_player_back(m)

    def _on_player_replaced(self, m: dict[str, Any], request: Any, now: float) -> None:
        self.game.news.on_player_replaced(m)

    def _on_stand_in(self, m: dict[str, Any], request: Any, now: float) -> None:
        self.game.news.on_stand_in(m)

    def _on_seat_silent(self, m: dict[str, Any], request: Any, now: float) -> None:
        self.game.news.on_seat_silent(m)

    def _on_timed_out(self, m: dict[str, Any], request: Any, now: float) -> None:
        self.game.news.on_timed_out(m)

    def _on_shutdown(self, m: dict[str, Any], request: Any, now: float) -> None:
        self.session.on_shutdown(m)

    def _on_bye(self, m: dict[str, Any], request: Any, now: float) -> None:
        self.session.on_bye(m)

    def _on_snapshot(self, m: dict[str, Any], request: Any, now: float) -> None:
        summary = m.get("table") or {}
        if "id" in summary:
            self.lobby.tables[summary["id"]] = summary
        self.game.on_snapshot(m, now)
        self.hand_count.turned()

    def _on_event(self, m: dict[str, Any], request: Any, now: float) -> None:
        self.game.on_event(m)
        if self.game.table_id is not None and m.get("table") in (None, self.game.table_id):
            self.coach.on_event(m)
            self.hand_count.told(m["event"])

    def _on_turn(self, m: dict[str, Any], request: Any, now: float) -> None:
        self.game.on_turn(m, now)
        self.hand_count.turned()

    def _on_event_news(self, m: dict[str, Any], request: Any, now: float) -> None:
        """A club night's news (issue 35): on the status line, and kept in the lobby's log."""
        text = str(m.get("text", ""))
        self.lobby.on_chat(line("info", _("[club night {event}]").format(event=m.get('event')) + f" {text}"))
        if self.game.table_id is None or not self.game.in_game:
            self.session.set_status(text)

    def _on_event_table(self, m: dict[str, Any], request: Any, now: float) -> None:
        """A club night's board is ready for us: said, and the ``table`` push with our seat
        that follows takes us there (:meth:`_on_table`, as an accepted challenge does)."""
        games = int(m.get("games") or 1)
        said = ngettext("Club night {event}, round {round}, board {board}: your table is {table}, "
                        "seat {seat}, against {opponent} ({n} game).",
                        "Club night {event}, round {round}, board {board}: your table is {table}, "
                        "seat {seat}, against {opponent} ({n} games).", games).format(
            event=m.get('event'), round=m.get('round'), board=m.get('board'), table=m.get('table'),
            seat=int(m.get('seat') or 0) + 1, opponent=m.get('opponent'), n=games)
        self.session.set_status(said)
        self.lobby.on_chat(line("info", said))

    def _on_hint(self, m: dict[str, Any], request: Any, now: float) -> None:
        self.coach.on_hint(m)

    def _on_review(self, m: dict[str, Any], request: Any, now: float) -> None:
        self.coach.on_review(m, request)


__all__ = ["ViewModel", "Panel", "LogLine", "Peg", "CreateForm", "PasswordPrompt", "DealCount",
           "CountRow", "number_words", "COUNT_SECONDS", "free_seats", "request_field", "line",
           "LOBBY", "TABLE", "CONNECTING", "NOT_CONNECTED", "LOG_LIMIT",
           "FALLBACK_PRESETS", "PASSWORD_LIMIT", "CHAT_LIMIT", "NAME_LIMIT"]
