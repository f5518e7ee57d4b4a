"""The application's own keys, and the screens' keys put together under their filters.

:class:`Bindings` is the part of :class:`~noddy.client.app.ClientApp` that builds its one
:class:`KeyBindings` (:meth:`Bindings._build_keys`).  Each screen declares its own keys
(:mod:`noddy.client.keymap`); they are bound here under the filter that says no line or box
has the keyboard (``free``, worked out here), and each is live while its screen is up.  The
keys that belong to no screen are here: Ctrl-Q, Ctrl-C and Ctrl-Z, and the keys of the lines
and boxes that take the keyboard (the chat, password and name lines, the help, the question
asked before quitting or resigning, the coach's box, the count of a deal).  A key calls its
screen's method and then ``after``, which writes the queued requests to the connection and
redraws.

A few things take the next key whatever it is, so that it does nothing else: the help ("any
key closes it"), the quit/resign question, the coach's box (a hint or a review,
``model.coach.panel``: :mod:`noddy.client.screens.coach`), and the count at the end of a deal
(``model.game.deal_count``); but while the help, the box or the count has more rows than it
shows, the arrows, PgUp/PgDn and Home/End scroll it (:mod:`noddy.client.scrolling`).

Leaving has two meanings, kept apart: quitting the program (``q`` then ``y``, ``Ctrl-Q``)
keeps a seat held mid-game (see :mod:`noddy.client.app`), while resigning (``l`` during a
game, asked first through :meth:`Bindings.confirm`) sends ``leave``, and a computer player
takes the seat for good.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

from .anywhere import Anywhere
from .connection import Connection
from .keymap import Screen, bind
from .model import TABLE, ViewModel
from .screens.events import EventsView
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
    events: EventsView
    connection: Connection
    application: Application[int]
    chat_buffer: Buffer
    password_buffer: Buffer
    name_buffer: Buffer
    show_help: bool
    confirm_quit: bool
    chatting: bool
    _flush: Callable[..., None]
    _playing: Callable[[], bool]
    suspend: Callable[[], None]
    _log_height: Callable[[], int]
    count_view: Scrolled
    coach_view: Scrolled

    question: str | None
    _on_yes: Callable[[], None] | None
    help_view: Scrolled
    _help_opened: object

    # == what the screens ask of the application (keymap.Host, anywhere.Desk) ===============
    def retry_now(self) -> None:
        self.connection.retry_now()

    def log_height(self) -> int:
        return self._log_height()

    def confirm(self, question: str, then: Callable[[], None]) -> None:
        """Ask ``question`` in the box; y calls ``then``, any other key forgets it."""
        self.chatting = False
        self.question, self._on_yes = question, then

    @property
    def confirm_resign(self) -> bool:
        """A screen's question is open (resign this game, give up the match)."""
        return self.question is not None

    def form_open(self) -> bool:
        return ((self.model.new_table.form is not None and self.model.new_table.is_up())
                or self.events.announce.is_up())

    def typing(self) -> bool:
        announcing = self.events.announce.form if self.events.announce.is_up() else None
        if announcing is not None:
            return announcing.on_text
        return self.form_open() and bool(self.model.new_table.form and self.model.new_table.form.on_text)

    def open_help(self) -> None:
        self.show_help = True
        self._help_opened = object()     # (a help opened again starts at its top)

    def open_chat(self, tell_chosen: bool) -> None:
        self.chatting = True
        self.chat_buffer.reset()
        person = self.people.selected() if self.people.active else None
        if person is not None and tell_chosen:  # tell the one under the cursor
            self.chat_buffer.insert_text(f"/tell {person['name']} ")
        self.application.layout.focus(self.chat_buffer)

    def ask_to_quit(self) -> None:
        if self._playing():
            self.confirm_quit = True
        else:
            self.application.exit(result=0)

    def switch_language(self) -> None:
        """L: the next language (:meth:`~noddy.client.session.Session.switch_language`); the
        key's ``after`` sends the request and redraws every screen in it."""
        self.model.session.switch_language()

    def screens(self) -> list[Screen]:
        """The screens with keys, in the order they are bound (a later one wins a key both
        have live: a waiting challenge's a and d, over the lobby's a)."""
        model = self.model
        return [model.lobby, model.new_table, model.table_screen, model.hand_count,
                self.records, self.records.replaying, self.people, self.events,
                self.events.announce, self.anywhere]

    def _build_keys(self) -> KeyBindings:
        kb = KeyBindings()
        model = self.model
        self.anywhere = Anywhere(self)
        chatting = Condition(lambda: self.chatting)
        helping = Condition(lambda: self.show_help)
        confirming = Condition(lambda: self.confirm_quit or self.confirm_resign)
        naming = Condition(lambda: model.session.name_prompt is not None)
        asking = Condition(lambda: model.lobby.password_prompt is not None)
        # The coach's box, then the count of a deal, take the next key (any key): it is not
        # played as well.
        coached = (Condition(lambda: model.coach.panel is not None)
                   & ~chatting & ~helping & ~confirming & ~asking & ~naming)
        counting = (Condition(lambda: model.game.deal_count is not None and model.session.screen == TABLE)
                    & ~chatting & ~helping & ~confirming & ~asking & ~naming & ~coached)
        free = ~chatting & ~helping & ~confirming & ~asking & ~naming & ~counting & ~coached

        def after(event: KeyPressEvent | None = None) -> None:
            self._flush()

        for screen in self.screens():
            bind(kb, screen, free, after, self)

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
                self.question = None
                self.confirm_quit = True

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
            self.ask_to_quit()

        for key in ("<any>", "escape", "enter", "tab", "backspace", "up", "down", "left", "right",
                    "pageup", "pagedown"):
            @kb.add(key, filter=counting, eager=True)
            def _close_count(event: KeyPressEvent) -> None:
                model.game.dismiss_count()

            @kb.add(key, filter=coached, eager=True)
            def _close_coach(event: KeyPressEvent) -> None:
                model.coach.close_panel()

        # ...but while one has more rows than its window shows, the arrows, PgUp/PgDn and
        # Home/End scroll it (bound after, so they win), and a count being read stays up.
        help_scrolls = helping & Condition(lambda: self.help_view.overflows)
        coach_scrolls = coached & Condition(lambda: self.coach_view.overflows)
        count_scrolls = counting & Condition(lambda: self.count_view.overflows)
        moves: dict[str, Callable[[Scrolled], None]] = {
            "up": lambda view: view.scroll(-1), "down": lambda view: view.scroll(1),
            "pageup": lambda view: view.page(-1), "pagedown": lambda view: view.page(1),
            "home": lambda view: view.scroll(-view.total), "end": lambda view: view.scroll(view.total)}
        for key, move in moves.items():
            @kb.add(key, filter=help_scrolls, eager=True)
            def _scroll_help(event: KeyPressEvent, move: Callable[[Scrolled], None] = move) -> None:
                move(self.help_view)

            @kb.add(key, filter=coach_scrolls, eager=True)
            def _scroll_coach(event: KeyPressEvent, move: Callable[[Scrolled], None] = move) -> None:
                move(self.coach_view)

            @kb.add(key, filter=count_scrolls, eager=True)
            def _scroll_count(event: KeyPressEvent, move: Callable[[Scrolled], None] = move) -> None:
                move(self.count_view)
                model.game.hold_count(time.monotonic())

        @kb.add("y", filter=confirming, eager=True)
        def _yes(event: KeyPressEvent) -> None:
            if self._on_yes is not None:
                then, self.question, self._on_yes = self._on_yes, None, None
                then()
                after(event)
                return
            self.application.exit(result=0)

        for key in ("<any>", "escape", "enter"):
            @kb.add(key, filter=confirming, eager=True)
            def _no(event: KeyPressEvent) -> None:
                self.confirm_quit = False
                self.question, self._on_yes = None, None

        # -- the name line, when the server refused the name --------------------------------
        @kb.add("enter", filter=naming & ~helping & ~confirming)
        def _name_send(event: KeyPressEvent) -> None:
            model.session.submit_name(self.name_buffer.text)
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
            model.lobby.submit_password(self.password_buffer.text)
            self.password_buffer.reset()
            after(event)

        @kb.add("escape", filter=asking & ~helping & ~confirming, eager=True)
        def _password_cancel(event: KeyPressEvent) -> None:
            model.lobby.cancel_password()
            self.password_buffer.reset()
            after(event)

        return kb


__all__ = ["Bindings"]
