"""The full-screen terminal application: the wiring of screens, keys and the connection, and
its loop.

The application composes the screens: their models (session, lobby, new-table form, table and
game: :mod:`noddy.client.model` composes them into one :class:`~noddy.client.model.ViewModel`;
the finished games: :class:`~noddy.client.screens.records.RecordsView`), their drawing and their
keys.  :class:`ClientApp` is put together from three ideas, one module each: its frame
(:class:`~noddy.client.layout.Windows`: the title, the bottom lines, the boxes, and which
screen's windows are up), its keys (:class:`~noddy.client.bindings.Bindings`), and, here,
the loop that ties them to the server.  Keys call the model's methods; whatever requests the
model queues are written to the connection right after.  The connection runs in a background
task of the application and never blocks a key.  A full-screen application never prints:
every message, including errors and the lost connection, is shown on the screen.  Every
message from the server is shown to both the model and the records view.

Idling costs nothing and a fast game little (``bench/client_idle.py`` measures both): nothing
is redrawn on a timer but the clock of a turn timer, and only while it is shown
(:meth:`ClientApp._tick`); a burst of messages is drawn once, and messages that keep coming
at most :data:`MESSAGE_FRAME_INTERVAL` apart (:meth:`ClientApp._draw_soon`; a key is drawn at
once); and a log formats only the lines the screen has rows for (``render.log_tail``).

The model says when a password is wanted (``model.lobby.password_prompt``, which a
``wrong_password`` error opens again) or another name (``model.session.name_prompt``, when the server
refuses the name); :meth:`ClientApp._sync_focus` gives that line the keyboard whenever it
appears.

Leaving has two meanings, kept apart.  Quitting the program (``q`` then ``y``, ``Ctrl-Q``)
mid-game only closes the connection, so the server holds the seat for its grace period as
for a dropped line, and the resume token kept on disk (:mod:`noddy.client.state`) takes it
back when the client is started again; away from a game it says ``bye``.  Resigning (``l``
during a game, asked first) sends ``leave``: a computer player takes the seat for good.

The count at the end of a deal (``model.game.deal_count``) takes the next key; a background task
(:meth:`ClientApp._tick`) also takes it down after a few seconds once the game waits for the
player.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import ssl
import time
from collections.abc import Callable
from typing import Any

from prompt_toolkit.application import Application, create_app_session, run_in_terminal
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.input import Input
from prompt_toolkit.layout import Layout, Window
from prompt_toolkit.output import Output

from noddy.protocol.i18n import _

from . import render
from .bindings import Bindings
from .connection import FAILED, LOST, UP, Connection
from .layout import Windows
from .model import LOBBY, TABLE, ViewModel
from .screens import events, people, records
from .state import ResumeTokens

#: The stop signal of job control (None where there is none).
_SIGTSTP = getattr(signal, "SIGTSTP", None)

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


class ClientApp(Windows, Bindings):
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
        tls: ssl.SSLContext | None = None,
    ) -> None:
        self.model = ViewModel(name)
        self.model.new_table.quick_start = quick_start
        #: Where the resume token is kept between runs (None: not kept, as for the private
        #: server of ``noddy-client`` with no address, which ends with the program).
        self.tokens = tokens
        self.server_key = f"{host}:{port}"
        if tokens is not None:
            self.model.session.token = tokens.get(self.server_key, name)
        self.records = records.RecordsView(self.model)
        self.people = people.PeopleView(self.model)
        self.events = events.EventsView(self.model)
        self.events.open_game = self.records.open_game  # a finished board's replay
        self.address = address_label or f"{'tls://' if tls else ''}{host}:{port}"
        extra = {} if backoff is None else {"backoff": backoff}
        self.connection = Connection(host, port, self._on_message, self._on_state,
                                     silence=silence, tls=tls, **extra)
        self._input = input
        self._output = output
        self.show_help = False
        self._help_opened: object = None
        self.confirm_quit = False
        #: A screen's question (l during a game: resign it?), and what y does then.
        self.question: str | None = None
        self._on_yes: Callable[[], None] | None = None
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
        self.application.after_render += self._keys_outdated

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
            # away from a game and a match going on does the client say bye (and forget the
            # token: nothing is held).
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
        self._catch_stop_signal()

    # == being suspended (Ctrl-Z, or SIGTSTP from outside) ===================================
    def _catch_stop_signal(self) -> None:
        """Have a stop signal from outside (``kill -TSTP``, a shell's job control) suspend the
        client the way Ctrl-Z does: stopped with the terminal in raw mode, it came back from
        ``fg`` echoing keys into the header until raw mode was restored by hand."""
        if _SIGTSTP is None:  # no job control here (Windows)
            return
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            asyncio.get_running_loop().add_signal_handler(_SIGTSTP, self.suspend)

    def suspend(self) -> None:
        """Give the terminal back as it was (cooked mode, the screen restored), stop, and on
        ``fg`` take it again and redraw everything: what a full-screen program owes a shell."""
        if _SIGTSTP is None:
            return
        signal_number = _SIGTSTP
        loop = asyncio.get_running_loop()

        def stop() -> None:
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.remove_signal_handler(signal_number)  # so the signal below stops us
            try:
                os.kill(0, signal_number)  # the whole process group, as a shell's Ctrl-Z does
            finally:
                self._catch_stop_signal()

        run_in_terminal(stop)

    async def _tick(self) -> None:
        """The only redraws no message or key asks for: take the count of a deal down by
        itself once the game waits for the player, and move the clock of a turn timer on
        while it is shown (when the seconds it shows change; else nothing is drawn)."""
        shown = self.clock_shown()
        while True:
            if self.model.game.deal_count is None and shown is None:
                # Nothing on the screen moves with the time: sleep until a message or a
                # key has been handled (see :meth:`_flush`), not four times a second.
                self._timed.clear()
                await self._timed.wait()
            await asyncio.sleep(TICK)
            now = time.monotonic()
            if self.model.game.count_expired(now):
                self.model.game.dismiss_count()
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
        if model.session.screen != TABLE or self.records.active or model.game.deal_count is not None:
            return None
        if not (model.game.in_game or model.game.view.winner is not None) or not model.game.view.awaiting:
            return None
        left = model.game.time_left_now(time.monotonic() if now is None else now)
        return None if left is None else f"{left:.0f}"

    def _forget_token(self) -> None:
        if self.tokens is not None:
            self.tokens.forget(self.server_key, self.model.session.requested_name)

    def _on_message(self, message: dict[str, Any]) -> None:
        if message.get("type") == "bye" and message.get("reason") == "resumed on another connection":
            self.model.session.connection_failed(_("this seat was taken over by another client"))
            self.connection.stop()
        if message.get("type") == "error" and message.get("code") == "bad_token":
            self._forget_token()
        self.model.handle(message, time.monotonic())
        if message.get("type") == "welcome" and self.tokens is not None and self.model.session.token:
            self.tokens.put(self.server_key, self.model.session.requested_name, self.model.session.token)
        self.records.handle(message)
        self.people.handle(message)
        self.events.handle(message)
        self._flush(soon=True)

    def _on_state(self, state: str, detail: str) -> None:
        if state == UP:
            self.model.connection_up()
        elif state in (LOST, FAILED):
            self.model.session.unreachable = state == FAILED
            self.model.connection_lost(detail)
        self._flush()

    def _flush(self, soon: bool = False) -> None:
        """Write the queued requests and redraw: now after a key, ``soon`` after a message
        (the messages that arrive within :data:`MESSAGE_DRAW_DELAY` are drawn together)."""
        for message in self.model.session.take_outbox():
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
        wanted = self.model.lobby.password_prompt is not None
        if wanted and not self._password_shown:
            self.chatting = False
            self.password_buffer.reset()
            self.application.layout.focus(self.password_buffer)
        self._password_shown = wanted
        naming = self.model.session.name_prompt is not None
        if naming and not self._name_shown:
            self.chatting = False
            self.name_buffer.reset()
            self.name_buffer.insert_text(self.model.session.name)
            self.application.layout.focus(self.name_buffer)
        self._name_shown = naming

    def _send_chat(self, buffer: Buffer) -> bool:
        self.model.chat(buffer.text)
        self.chatting = False
        self._flush()
        return False

    def _now(self) -> float:
        return time.monotonic()

    def _playing(self) -> bool:
        """Something is at stake: a game not over, or a match going on between its games
        (quitting then must not say bye, which gives the match away: issue 33, item 2)."""
        return self._in_game() or self.model.table_screen.in_match()

    def _in_game(self) -> bool:
        """We hold a seat in a game not over (the seat is held for the server's grace)."""
        game = self.model.game
        return game.seat is not None and game.in_game and game.view.winner is None


__all__ = ["ClientApp", "LOBBY", "TABLE"]
