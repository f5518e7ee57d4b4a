"""The application's own keys, and the screens' keys put together under their filters.

:class:`Bindings` is the part of :class:`~noddy.client.app.ClientApp` that builds its one
:class:`KeyBindings` (:meth:`Bindings._build_keys`).  The keys that belong to no one screen
are here: Ctrl-Q and Ctrl-C, help, quit, chat, the password and name lines.  Each screen's
keys are bound by :mod:`noddy.client.screens.keys` (one function per screen) and the finished
games' by :func:`noddy.client.screens.records.bind_keys`, under the filter that says their
screen is up and no line or box has the keyboard (``free``, worked out here).  A key calls the
model's methods and then ``after``, which writes the queued requests to the connection and
redraws.

A few things take the next key whatever it is, so that it does nothing else: the help ("any
key closes it"), the quit/resign question, the coach's box (a hint or a review,
``model.coach.panel``: :mod:`noddy.client.screens.coach`), and the count at the end of a deal
(``model.deal_count``); but while the box or the count has more rows than it shows, the
arrows, PgUp/PgDn and Home/End scroll it (:mod:`noddy.client.scrolling`).

Leaving has two meanings, kept apart: quitting the program (``q`` then ``y``, ``Ctrl-Q``)
keeps a seat held mid-game (see :mod:`noddy.client.app`), while resigning (``l`` during a
game, asked first: :meth:`Bindings._ask_to_resign`) sends ``leave``, and a computer player
takes the seat for good.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

from .connection import Connection
from .layout import LOBBY_SCREENS
from .model import TABLE, ViewModel
from .screens import keys, people, records
from .screens.people import PeopleView
from .screens.records import RecordsView
from .scrolling import Scrolled


class Bindings:
    """The keys of :class:`~noddy.client.app.ClientApp` (module docstring).

    What they read and change of the application is declared here; the application sets it
    up.
    """

    model: ViewModel
    records: RecordsView
    people: PeopleView
    connection: Connection
    application: Application[int]
    chat_buffer: Buffer
    password_buffer: Buffer
    name_buffer: Buffer
    show_help: bool
    confirm_quit: bool
    confirm_resign: bool
    chatting: bool
    _flush: Callable[..., None]
    _playing: Callable[[], bool]
    suspend: Callable[[], None]
    _scroll_log: Callable[[float], None]
    _log_height: Callable[[], int]
    count_view: Scrolled
    coach_view: Scrolled

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
        typing = form & Condition(lambda: model.form is not None and model.form.on_text)
        table = free & Condition(lambda: model.screen == TABLE)
        picking = table & Condition(lambda: model.picking is not None)
        records.bind_keys(kb, self.records, lobby, free, lambda event: self._flush())
        people.bind_keys(kb, self.people, lobby, free, lambda event: self._flush())

        def after(event: KeyPressEvent) -> None:
            self._flush()

        @kb.add("c-z", eager=True)
        def _suspend(event: KeyPressEvent) -> None:
            self.suspend()

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

        # ...but while either has more rows than its window shows, the arrows, PgUp/PgDn and
        # Home/End scroll it (bound after, so they win), and a count being read stays up.
        coach_scrolls = coached & Condition(lambda: self.coach_view.overflows)
        count_scrolls = counting & Condition(lambda: self.count_view.overflows)
        moves: dict[str, Callable[[Scrolled], None]] = {
            "up": lambda view: view.scroll(-1), "down": lambda view: view.scroll(1),
            "pageup": lambda view: view.page(-1), "pagedown": lambda view: view.page(1),
            "home": lambda view: view.scroll(-view.total), "end": lambda view: view.scroll(view.total)}
        for key, move in moves.items():
            @kb.add(key, filter=coach_scrolls, eager=True)
            def _scroll_coach(event: KeyPressEvent, move: Callable[[Scrolled], None] = move) -> None:
                move(self.coach_view)

            @kb.add(key, filter=count_scrolls, eager=True)
            def _scroll_count(event: KeyPressEvent, move: Callable[[Scrolled], None] = move) -> None:
                move(self.count_view)
                model.hold_count(time.monotonic())

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
            person = self.people.selected() if self.people.active else None
            if person is not None and event.key_sequence[0].key == "t":  # tell the one under the cursor
                self.chat_buffer.insert_text(f"/tell {person['name']} ")
            self.application.layout.focus(self.chat_buffer)

        keys.bind_lobby(kb, model, lobby, after, self.connection.retry_now,
                        Condition(lambda: bool(self.people.incoming)))
        keys.bind_form(kb, model.new_table, form, typing, after)
        keys.bind_table(kb, model, table, picking, after, self.connection.retry_now,
                        self._scroll_log, self._log_height, self._ask_to_resign)

        return kb


__all__ = ["Bindings"]
