"""The full-screen terminal application: layout, keys, and the wiring to the connection.

The application composes the screens: their models (session, lobby, new-table form, table and
game: :mod:`noddy.client.model` composes them into one :class:`~noddy.client.model.ViewModel`;
the finished games: :class:`~noddy.client.screens.records.RecordsView`), their drawing and their
keys.  The screen is drawn from the view model by the functions in
:mod:`noddy.client.render`; each window's text is a callable, so ``invalidate()`` after a
message or a key is all it takes to redraw (and a resize redraws by itself).  Keys call the
model's methods; whatever requests the model queues are written to the connection right
after.  The connection runs in a background task of the application and never blocks a
key.  A full-screen application never prints: every message, including errors and the lost
connection, is shown on the screen.

Idling costs nothing and a fast game little (``bench/client_idle.py`` measures both): nothing
is redrawn on a timer but the clock of a turn timer, and only while it is shown
(:meth:`ClientApp._tick`); a burst of messages is drawn once, and messages that keep coming
at most :data:`MESSAGE_FRAME_INTERVAL` apart (:meth:`ClientApp._draw_soon`; a key is drawn at
once); and a log formats only the lines the screen has rows for (``render.log_tail``).

Screens are chosen by ``model.screen`` (``connecting``/``lobby``, ``table``), each a
``ConditionalContainer`` in :meth:`ClientApp._build_layout` with its keys
(:mod:`noddy.client.screens.keys`, one function per screen) filtered on the same condition in
:meth:`ClientApp._build_keys`.  The screens of finished games (My games,
the replay, the leaderboard: :mod:`noddy.client.screens.records`) hook in the same way: their
own ``model.screen`` values, one container (``records.build_layout``) and their keys
(``records.bind_keys``); the lobby and table filters name their screens, so they stay out of
their way.  Their state is a :class:`~noddy.client.screens.records.RecordsView` beside the
model, and every message from the server is shown to both.

Three one-line inputs share the bottom of the screen: the chat line, the password line of
a private table and the name line.  The model says when a password is wanted
(``model.password_prompt``, which a ``wrong_password`` error opens again) or another name
(``model.name_prompt``, when the server refuses the name); :meth:`ClientApp._sync_focus`
gives that line the keyboard whenever it appears.

Leaving has two meanings, kept apart.  Quitting the program (``q`` then ``y``, ``Ctrl-Q``)
mid-game only closes the connection, so the server holds the seat for its grace period as
for a dropped line, and the resume token kept on disk (:mod:`noddy.client.state`) takes it
back when the client is started again; away from a game it says ``bye``.  Resigning (``l``
during a game, asked first) sends ``leave``: a computer player takes the seat for good.

A few things take the next key whatever it is, so that it does nothing else: the help ("any
key closes it"), the quit/resign question, the coach's box (a hint or a review,
``model.coach.panel``: :mod:`noddy.client.screens.coach`), and the count at the end of a deal
(``model.deal_count``), which a background task also takes down after a few seconds once the
game waits for the player.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from prompt_toolkit.application import Application, create_app_session
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.data_structures import Point
from prompt_toolkit.filters import Condition
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import (
    ConditionalContainer,
    Float,
    FloatContainer,
    HSplit,
    Layout,
    Window,
)
from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.layout.processors import PasswordProcessor
from prompt_toolkit.output import Output
from prompt_toolkit.widgets import Frame

from . import render
from .connection import FAILED, LOST, UP, Connection
from .model import CONNECTING, LOBBY, TABLE, ViewModel
from .screens import keys, records
from .state import ResumeTokens

#: The screens that show the lobby (before the welcome, the lobby is drawn empty).
LOBBY_SCREENS = (LOBBY, CONNECTING)
#: Log lines a PgUp/PgDn moves when the log window has not been drawn yet.
DEFAULT_LOG_PAGE = 8
#: The shortest time between two redraws of any kind (s): a key held down is drawn at this
#: pace at most.
MIN_REDRAW_INTERVAL = 0.05
#: How long a message waits for the rest of its burst before it is drawn (s): the events
#: of an action and the next turn come in a few writes, drawn as one frame.
MESSAGE_DRAW_DELAY = 0.03
#: The shortest time between two redraws for messages (s): a game played faster than this
#: is drawn at this pace, a few actions a frame (a key is still drawn at once).
MESSAGE_FRAME_INTERVAL = 0.2
#: How often the count of a deal and the clock of a turn timer are looked at (s).
TICK = 0.25


class ClientApp:
    """The terminal client for one server; ``await ClientApp(...).run()`` plays until quit."""

    def __init__(
        self,
        host: str,
        port: int,
        name: str,
        *,
        quick_start: dict[str, Any] | None = None,
        address_label: str | None = None,
        input: Input | None = None,
        output: Output | None = None,
        silence: float = 45.0,
        backoff: tuple[float, ...] | None = None,
        tokens: ResumeTokens | None = None,
    ) -> None:
        self.model = ViewModel(name)
        self.model.quick_start = quick_start
        #: Where the resume token is kept between runs (None: not kept, as for the private
        #: server of ``noddy-client`` with no address, which ends with the program).
        self.tokens = tokens
        self.server_key = f"{host}:{port}"
        if tokens is not None:
            self.model.token = tokens.get(self.server_key, name)
        self.records = records.RecordsView(self.model)
        self.address = address_label or f"{host}:{port}"
        extra = {} if backoff is None else {"backoff": backoff}
        self.connection = Connection(host, port, self._on_message, self._on_state,
                                     silence=silence, **extra)
        self._input = input
        self._output = output
        self.show_help = False
        self.confirm_quit = False
        #: Asking "leave this game for good?" (l during a game).
        self.confirm_resign = False
        self.chatting = False
        self.chat_buffer = Buffer(multiline=False, accept_handler=self._send_chat)
        self.password_buffer = Buffer(multiline=False)
        self.name_buffer = Buffer(multiline=False)
        self._password_shown = False
        self._name_shown = False
        self.lobby_status_window: Window | None = None
        #: The redraw asked for by a message, not yet made (see :meth:`_draw_soon`).
        self._draw_timer: asyncio.TimerHandle | None = None
        #: Set after each message or key: wakes :meth:`_tick` when nothing timed was shown.
        self._timed = asyncio.Event()
        #: When the last redraw for messages was made (the event loop's clock).
        self._message_drawn = float("-inf")
        self.log_window: Window | None = None
        self.application: Application[int] = Application(
            layout=Layout(self._build_layout()),
            key_bindings=self._build_keys(),
            style=render.STYLE,
            full_screen=True,
            mouse_support=False,
            # No redraw on a timer: a message, a key or a resize redraws, and the clock of a
            # turn timer is ticked by :meth:`_tick` only while it is on the screen.
            refresh_interval=None,
            min_redraw_interval=MIN_REDRAW_INTERVAL,
            input=input,
            output=output,
        )
        #: The clock as last drawn (see :meth:`clock_shown`): the tick redraws when it moves.
        self._drawn_clock: str | None = None
        self.application.before_render += self._note_clock

    # == running ===========================================================================
    async def run(self) -> int:
        """Run until the player quits; say goodbye to the server on the way out."""
        try:
            # Each application gets its own session, so that two clients can run in one
            # event loop (the tests do) without sharing "the current application".
            with create_app_session(input=self._input, output=self._output):
                result = await self.application.run_async(pre_run=self._start)
        finally:
            # Quitting mid-game only closes the connection: the server holds the seat for its
            # grace period, as for a dropped line, and the token on disk takes it back.  Only
            # away from a game does the client say bye (and forget the token: nothing is held).
            if self._playing():
                pass
            else:
                if self.connection.connected:
                    self.connection.send({"type": "bye"})
                    await self.connection.flush(0.5)
                self._forget_token()
            self.connection.stop()
        return result or 0

    def _start(self) -> None:
        self.application.create_background_task(self.connection.run())
        self.application.create_background_task(self._tick())

    async def _tick(self) -> None:
        """The only redraws no message or key asks for: take the count of a deal down by
        itself once the game waits for the player, and move the clock of a turn timer on
        while it is shown (when the seconds it shows change; else nothing is drawn)."""
        shown = self.clock_shown()
        while True:
            if self.model.deal_count is None and shown is None:
                # Nothing on the screen moves with the time: sleep until a message or a
                # key has been handled (see :meth:`_flush`), not four times a second.
                self._timed.clear()
                await self._timed.wait()
            await asyncio.sleep(TICK)
            now = time.monotonic()
            if self.model.count_expired(now):
                self.model.dismiss_count()
                self.application.invalidate()
            shown = self.clock_shown(now)
            if shown is not None and shown != self._drawn_clock:
                self.application.invalidate()

    def _note_clock(self, _: object = None) -> None:
        self._drawn_clock = self.clock_shown()

    def clock_shown(self, now: float | None = None) -> str | None:
        """The seconds the turn timer's clock shows now (as drawn), or None when no clock is
        on the screen: only then does anything change with the time alone."""
        model = self.model
        if model.screen != TABLE or self.records.active or model.deal_count is not None:
            return None
        if not (model.in_game or model.winner is not None) or not model.awaiting:
            return None
        left = model.time_left_now(time.monotonic() if now is None else now)
        return None if left is None else f"{left:.0f}"

    def _forget_token(self) -> None:
        if self.tokens is not None:
            self.tokens.forget(self.server_key, self.model.requested_name)

    def _on_message(self, message: dict[str, Any]) -> None:
        if message.get("type") == "bye" and message.get("reason") == "resumed on another connection":
            self.model.connection_failed("this seat was taken over by another client")
            self.connection.stop()
        if message.get("type") == "error" and message.get("code") == "bad_token":
            self._forget_token()
        self.model.handle(message, time.monotonic())
        if message.get("type") == "welcome" and self.tokens is not None and self.model.token:
            self.tokens.put(self.server_key, self.model.requested_name, self.model.token)
        self.records.handle(message)
        self._flush(soon=True)

    def _on_state(self, state: str, detail: str) -> None:
        if state == UP:
            self.model.connection_up()
        elif state in (LOST, FAILED):
            self.model.connection_lost(detail)
        self._flush()

    def _flush(self, soon: bool = False) -> None:
        """Write the queued requests and redraw: now after a key, ``soon`` after a message
        (the messages that arrive within :data:`MESSAGE_DRAW_DELAY` are drawn together)."""
        for message in self.model.take_outbox():
            self.connection.send(message)
        self._sync_focus()
        self._timed.set()         # (:meth:`_tick` looks whether a count or a clock is up)
        if soon:
            self._draw_soon()
        else:
            self.application.invalidate()

    def _draw_soon(self) -> None:
        """One redraw for a burst of messages: the first asks for it a moment later, the
        rest of the burst finds it asked for already; and while messages stream in (a fast
        game watched), at most one such redraw every :data:`MESSAGE_FRAME_INTERVAL`."""
        if self._draw_timer is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.application.invalidate()
            return
        wait = max(MESSAGE_DRAW_DELAY, self._message_drawn + MESSAGE_FRAME_INTERVAL - loop.time())
        self._draw_timer = loop.call_later(wait, self._draw_now, loop)

    def _draw_now(self, loop: asyncio.AbstractEventLoop) -> None:
        self._draw_timer = None
        self._message_drawn = loop.time()
        self.application.invalidate()

    def _sync_focus(self) -> None:
        """Give the password line the keyboard when the model asks for a password (after a
        key, or after a ``wrong_password`` reply), with nothing left over from last time."""
        wanted = self.model.password_prompt is not None
        if wanted and not self._password_shown:
            self.chatting = False
            self.password_buffer.reset()
            self.application.layout.focus(self.password_buffer)
        self._password_shown = wanted
        naming = self.model.name_prompt is not None
        if naming and not self._name_shown:
            self.chatting = False
            self.name_buffer.reset()
            self.name_buffer.insert_text(self.model.name)
            self.application.layout.focus(self.name_buffer)
        self._name_shown = naming

    def _send_chat(self, buffer: Buffer) -> bool:
        self.model.chat(buffer.text)
        self.chatting = False
        self._flush()
        return False

    def _now(self) -> float:
        return time.monotonic()

    def lobby_status_fragments(self) -> render.Fragments:
        return render.status_fragments_lobby(self.model, self._width())

    def confirm_text(self) -> render.Fragments:
        """The question of the quit or resign box."""
        if self.confirm_resign:
            text = " Leave this game for good?\n A computer player takes your seat.  y / n "
        elif self._playing() and self.tokens is not None:
            grace = self.model.grace
            held = f"held for {grace:g} s" if grace is not None else "held for a while"
            text = (f" Quit? Your seat is {held}:\n start noddy-client again to take it back."
                    "  y / n ")
        elif self._playing():
            text = " Quit? The game ends with the program.  y / n "
        else:
            text = " Quit?  y / n "
        return [("class:prompt", text)]

    # == layout ============================================================================
    def _width(self) -> int:
        try:
            return self.application.output.get_size().columns
        except Exception:
            return 80

    def _rows(self) -> int:
        try:
            return self.application.output.get_size().rows
        except Exception:
            return 24

    def _log_height(self) -> int:
        info = self.log_window.render_info if self.log_window is not None else None
        return info.window_height if info is not None else DEFAULT_LOG_PAGE + 1

    def _scroll_log(self, pages: float) -> None:
        """PgUp/PgDn by the log window's height less one line, so a line stays in view."""
        height = self._log_height()
        self.model.scroll_log(round(pages * max(1, height - 1)), view_height=height)

    def _build_layout(self) -> FloatContainer:
        model = self.model
        in_lobby = Condition(lambda: model.screen in LOBBY_SCREENS)
        form_open = Condition(lambda: model.form is not None)
        at_table = Condition(lambda: model.screen == TABLE)
        in_game = Condition(lambda: model.in_game or model.winner is not None)

        def text(fn: Any) -> FormattedTextControl:
            return FormattedTextControl(fn, focusable=False)

        def log_window(lines: Any) -> Window:
            # Only the log's last lines are drawn: the window shows its end, and it can show
            # no more lines than the screen has rows (each takes one row at least), so the
            # lines before those would be formatted and wrapped for nothing.
            def shown() -> list[Any]:
                return render.log_tail(lines(), self._rows())

            def cursor() -> Point:
                return Point(0, max(0, len(shown()) - 1))
            return Window(FormattedTextControl(lambda: render.log_fragments(shown()),
                                               get_cursor_position=cursor, focusable=False),
                          wrap_lines=True, always_hide_cursor=True)

        # A status line wraps onto a second and third line rather than being cut off.
        status = lambda: Dimension(min=1, max=3)  # noqa: E731
        lobby_status = self.lobby_status_window = Window(text(self.lobby_status_fragments),
                                                         height=status, wrap_lines=True)
        lobby = HSplit([
            # The cursor on the selected row keeps it in view when the list is longer
            # than the window.
            Window(FormattedTextControl(lambda: render.lobby_fragments(model, self._width()), focusable=False,
                                        get_cursor_position=lambda: Point(0, model.lobby_cursor + 1)),
                   always_hide_cursor=True,
                   height=Dimension(min=3, preferred=len(model.tables) + 2, max=12)),
            Window(height=1, char="─", style="class:dim"),
            lobby_status,
            Window(text(lambda: [("class:label", " Lobby chat")]), height=1),
            log_window(lambda: model.lobby_chat),
        ])
        form = HSplit([
            Window(text(lambda: render.form_fragments(model))),
            Window(text(self.lobby_status_fragments), height=status, wrap_lines=True),
        ])
        board_height = lambda: max(1, len(model.scores))  # noqa: E731
        table_log = self.log_window = log_window(model.visible_log)
        game = HSplit([
            Window(text(lambda: render.table_fragments(model, self._now(), self._width())), height=2),
            Window(text(lambda: render.hand_or_show_fragments(model)), height=4),
        ])
        counting = Condition(lambda: model.deal_count is not None)
        count = Window(text(lambda: render.count_fragments(model, self._width())),
                       wrap_lines=True, height=Dimension(min=6, max=16))
        table = HSplit([
            Window(text(lambda: render.board_fragments(model, self._width())), height=board_height),
            Window(height=1, char="─", style="class:dim"),
            ConditionalContainer(count, filter=counting),
            ConditionalContainer(game, filter=in_game & ~counting),
            ConditionalContainer(Window(text(lambda: render.waiting_fragments(model)),
                                        height=Dimension(min=2, max=6)), filter=~in_game & ~counting),
            # (while the count is up, it has the room: the prompt comes back with the game)
            ConditionalContainer(
                Window(text(lambda: render.status_fragments(model, self._width())), wrap_lines=True,
                       height=Dimension(min=2, max=4)), filter=~counting),
            Window(text(lambda: render.log_rule_fragments(model, self._width())), height=1),
            table_log,
        ])
        body = HSplit([
            Window(text(lambda: records.title_fragments(self.records, self.address)
                        if self.records.active else render.title_fragments(model, self.address)),
                   height=1),
            ConditionalContainer(lobby, filter=in_lobby & ~form_open),
            ConditionalContainer(form, filter=in_lobby & form_open),
            ConditionalContainer(table, filter=at_table),
            records.build_layout(self.records, self._width, self._rows),
            ConditionalContainer(
                Window(BufferControl(self.chat_buffer), height=1, style="class:prompt",
                       get_line_prefix=lambda *_: [("class:key", " say: ")]),
                filter=Condition(lambda: self.chatting)),
            ConditionalContainer(
                Window(BufferControl(self.password_buffer, input_processors=[PasswordProcessor()]),
                       height=1, style="class:prompt",
                       get_line_prefix=lambda *_: render.password_prefix(model)),
                filter=Condition(lambda: model.password_prompt is not None)),
            ConditionalContainer(
                Window(BufferControl(self.name_buffer), height=1, style="class:prompt",
                       get_line_prefix=lambda *_: [("class:key", " Your name: ")]),
                filter=Condition(lambda: model.name_prompt is not None)),
            Window(text(lambda: records.keys_fragments(self.records)
                        if self.records.active else render.keys_fragments(model, self._width())), height=1),
        ])
        # Sizes that give way: on a small screen the boxes shrink (the help goes to one
        # column, and wraps) rather than vanish.
        help_box = Frame(Window(text(lambda: render.help_fragments(self._width())),
                                width=Dimension(max=78), height=Dimension(max=19)),
                         title="Keys", style="class:help.frame")
        quit_box = Frame(Window(text(self.confirm_text), wrap_lines=True,
                                width=Dimension(max=60), height=Dimension(min=1, max=4)),
                         style="class:help.frame")
        coach_box = Frame(Window(text(lambda: render.panel_fragments(model)), wrap_lines=True,
                                 width=Dimension(max=78), height=Dimension(max=12)),
                          style="class:help.frame")
        return FloatContainer(body, floats=[
            Float(ConditionalContainer(coach_box, filter=Condition(lambda: model.coach.panel is not None))),
            Float(ConditionalContainer(help_box, filter=Condition(lambda: self.show_help))),
            Float(ConditionalContainer(quit_box, filter=Condition(
                lambda: self.confirm_quit or self.confirm_resign))),
        ])

    # == keys ==============================================================================
    def _playing(self) -> bool:
        model = self.model
        return model.seat is not None and model.in_game and model.winner is None

    def _ask_to_resign(self) -> bool:
        """l at a table: during a game, ask first (resigning gives the seat away for good; q
        quits and keeps it), and say so; else nothing to ask."""
        if not self._playing():
            return False
        self.chatting = False
        self.confirm_resign = True
        return True

    def _build_keys(self) -> KeyBindings:
        kb = KeyBindings()
        model = self.model
        chatting = Condition(lambda: self.chatting)
        helping = Condition(lambda: self.show_help)
        confirming = Condition(lambda: self.confirm_quit or self.confirm_resign)
        naming = Condition(lambda: model.name_prompt is not None)
        asking = Condition(lambda: model.password_prompt is not None)
        # The coach's box, then the count of a deal, take the next key (any key): it is not
        # played as well.
        coached = (Condition(lambda: model.coach.panel is not None)
                   & ~chatting & ~helping & ~confirming & ~asking & ~naming)
        counting = (Condition(lambda: model.deal_count is not None and model.screen == TABLE)
                    & ~chatting & ~helping & ~confirming & ~asking & ~naming & ~coached)
        free = ~chatting & ~helping & ~confirming & ~asking & ~naming & ~counting & ~coached
        lobby = free & Condition(lambda: model.screen in LOBBY_SCREENS and model.form is None)
        form = free & Condition(lambda: model.screen in LOBBY_SCREENS and model.form is not None)
        typing = form & Condition(lambda: model.form is not None and model.form.on_password)
        table = free & Condition(lambda: model.screen == TABLE)
        picking = table & Condition(lambda: model.picking is not None)
        records.bind_keys(kb, self.records, lobby, free, lambda event: self._flush())

        def after(event: KeyPressEvent) -> None:
            self._flush()

        @kb.add("c-q", eager=True)
        def _quit_now(event: KeyPressEvent) -> None:
            self.application.exit(result=0)

        @kb.add("c-c", eager=True)
        def _ctrl_c(event: KeyPressEvent) -> None:
            if self.confirm_quit or not self._playing():
                self.application.exit(result=0)
            else:
                self.chatting = False
                self.show_help = False
                self.confirm_resign = False
                self.confirm_quit = True

        def ask_to_quit() -> None:
            if self._playing():
                self.confirm_quit = True
            else:
                self.application.exit(result=0)

        # "Any key closes the help": <any> alone loses to the exact keys (Esc, Enter, Tab,
        # arrows...) that prompt_toolkit's own bindings claim, so those are named too.
        for key in ("<any>", "escape", "enter", "tab", "s-tab", "backspace", "delete", "up",
                    "down", "left", "right", "home", "end", "pageup", "pagedown", "insert"):
            @kb.add(key, filter=helping, eager=True)
            def _close_help(event: KeyPressEvent) -> None:
                self.show_help = False

        @kb.add("q", filter=helping, eager=True)
        def _close_help_and_quit(event: KeyPressEvent) -> None:
            self.show_help = False
            ask_to_quit()

        for key in ("<any>", "escape", "enter", "tab", "backspace", "up", "down", "left", "right",
                    "pageup", "pagedown"):
            @kb.add(key, filter=counting, eager=True)
            def _close_count(event: KeyPressEvent) -> None:
                model.dismiss_count()

            @kb.add(key, filter=coached, eager=True)
            def _close_coach(event: KeyPressEvent) -> None:
                model.coach.close_panel()

        @kb.add("y", filter=confirming, eager=True)
        def _yes(event: KeyPressEvent) -> None:
            if self.confirm_resign:
                self.confirm_resign = False
                model.leave()
                after(event)
                return
            self.application.exit(result=0)

        for key in ("<any>", "escape", "enter"):
            @kb.add(key, filter=confirming, eager=True)
            def _no(event: KeyPressEvent) -> None:
                self.confirm_quit = False
                self.confirm_resign = False

        # -- the name line, when the server refused the name --------------------------------
        @kb.add("enter", filter=naming & ~helping & ~confirming)
        def _name_send(event: KeyPressEvent) -> None:
            model.submit_name(self.name_buffer.text)
            after(event)

        @kb.add("enter", filter=chatting)
        def _chat_send(event: KeyPressEvent) -> None:
            self.chat_buffer.validate_and_handle()

        @kb.add("escape", filter=chatting, eager=True)
        def _chat_cancel(event: KeyPressEvent) -> None:
            self.chatting = False
            self.chat_buffer.reset()

        # -- the password line of a private table ---------------------------------------
        @kb.add("enter", filter=asking & ~helping & ~confirming)
        def _password_send(event: KeyPressEvent) -> None:
            model.submit_password(self.password_buffer.text)
            self.password_buffer.reset()
            after(event)

        @kb.add("escape", filter=asking & ~helping & ~confirming, eager=True)
        def _password_cancel(event: KeyPressEvent) -> None:
            model.cancel_password()
            self.password_buffer.reset()
            after(event)

        @kb.add("?", filter=free & ~typing)
        def _help(event: KeyPressEvent) -> None:
            self.show_help = True

        @kb.add("q", filter=free & ~form)
        def _quit(event: KeyPressEvent) -> None:
            ask_to_quit()

        @kb.add("c", filter=free & ~form)
        @kb.add("t", filter=free & ~form)
        def _chat(event: KeyPressEvent) -> None:
            self.chatting = True
            self.chat_buffer.reset()
            self.application.layout.focus(self.chat_buffer)

        keys.bind_lobby(kb, model, lobby, after, self.connection.retry_now)
        keys.bind_form(kb, model.new_table, form, typing, after)
        keys.bind_table(kb, model, table, picking, after, self.connection.retry_now,
                        self._scroll_log, self._log_height, self._ask_to_resign)

        return kb


__all__ = ["ClientApp", "LOBBY", "TABLE"]
