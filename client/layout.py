"""The application's frame: the title, the lines at the bottom, the boxes over the screens,
and which screen is up.

:class:`Windows` is the part of :class:`~noddy.client.app.ClientApp` that composes its
prompt_toolkit layout (:meth:`Windows._build_layout`) and measures it (the screen's width and
rows, the log window's height).  Every window's text is a callable over the view model, so
``invalidate()`` is all a redraw takes (and a resize redraws by itself).

Each screen owns its windows: the lobby (:class:`~noddy.client.screens.lobby_layout.LobbyLayout`),
the new-table form (:class:`~noddy.client.screens.form_layout.FormLayout`), the table
(:class:`~noddy.client.screens.table_layout.TableLayout`), the screens of finished games (My
games, the replay, the leaderboard: ``records.build_layout``) and who is online
(``people.build_layout``).  Here each is only put up, as a ``ConditionalContainer`` on
``model.session.screen`` (``connecting``/``lobby``, ``table``, the records' and people's own
values), with its keys (:mod:`noddy.client.bindings`) filtered on the same condition.

Three one-line inputs share the bottom of the screen: the chat line, the password line of a
private table and the name line.  Three boxes float over any screen: the coach's (a hint or a
review, ``model.coach.panel``), the help, and the quit/resign question (:meth:`confirm_text`).
The coach's box, like the count of a deal, scrolls what does not fit the screen
(:class:`~noddy.client.scrolling.Scrolled`: a marker row says how many rows are hidden).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition
from prompt_toolkit.layout import (
    ConditionalContainer,
    Float,
    FloatContainer,
    HSplit,
    Window,
)
from prompt_toolkit.layout.controls import BufferControl
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.layout.processors import PasswordProcessor
from prompt_toolkit.widgets import Frame

from noddy.protocol.i18n import _

from . import keys, render
from .keymap import Screen
from .model import CONNECTING, LOBBY, TABLE, ViewModel
from .screens import events_layout, lobby_layout, people, records
from .screens.events import EventsView
from .screens.form_layout import FormLayout
from .screens.lobby_layout import LobbyLayout
from .screens.people import PeopleView
from .screens.records import RecordsView
from .screens.table_layout import TableLayout
from .screens.windows import text
from .scrolling import Scrolled
from .state import ResumeTokens

#: The screens that show the lobby (before the welcome, the lobby is drawn empty).
LOBBY_SCREENS = (LOBBY, CONNECTING)
#: Log lines a PgUp/PgDn moves when the log window has not been drawn yet.
DEFAULT_LOG_PAGE = 8



def held_between_games(grace: float | None, keep_away: float | None) -> str:
    """How long the server holds a seat and its match between two games (the grace, then
    ``keep_away`` more), as the quit question says it: minutes, rounded up, from two on."""
    if grace is None or keep_away is None:
        return _("Quit? Your seat and the match are held:\n start noddy-client again to play on.")
    held = grace + keep_away
    if held >= 120:
        return _("Quit? Your seat and the match are held for {minutes} min:\n start noddy-client "
                 "again to play on.").format(minutes=math.ceil(held / 60))
    return _("Quit? Your seat and the match are held for {seconds} s:\n start noddy-client "
             "again to play on.").format(seconds=f"{held:g}")

class Windows:
    """The layout of :class:`~noddy.client.app.ClientApp` (module docstring).

    What it reads of the application is declared here; the application sets it up.
    """

    model: ViewModel
    records: RecordsView
    people: PeopleView
    events: EventsView
    address: str
    tokens: ResumeTokens | None
    application: Application[int]
    chat_buffer: Buffer
    password_buffer: Buffer
    name_buffer: Buffer
    show_help: bool
    confirm_quit: bool
    question: str | None
    _help_opened: object
    screens: Callable[[], list[Screen]]
    chatting: bool
    lobby_layout: LobbyLayout
    form_layout: FormLayout
    table_layout: TableLayout
    lobby_status_window: Window | None
    count_view: Scrolled
    coach_view: Scrolled
    #: Whether the key hints as last drawn offered to scroll (see :meth:`_keys_outdated`).
    _keys_scrolling: bool = False
    log_window: Window | None
    _playing: Callable[[], bool]
    _in_game: Callable[[], bool]
    _now: Callable[[], float]

    def lobby_status_fragments(self) -> render.Fragments:
        return lobby_layout.status_fragments(self.model, self._width(), self.people.waiting_words)

    def confirm_text(self) -> render.Fragments:
        """The question of the quit or resign box."""
        if self.question is not None:
            text = self.question
        elif self._playing() and self.tokens is not None and not self._in_game():
            # Between games of a match the server holds the seat for its grace and then
            # keep_away more; an older server's welcome does not say: no number, then.
            text = " " + held_between_games(self.model.session.grace, self.model.session.keep_away) + "  y / n "
        elif self._playing() and self.tokens is not None:
            grace = self.model.session.grace
            said = (_("Quit? Your seat is held for {seconds} s:\n start noddy-client again to take it back.")
                    .format(seconds=f"{grace:g}") if grace is not None else
                    _("Quit? Your seat is held for a while:\n start noddy-client again to take it back."))
            text = " " + said + "  y / n "
        elif self._playing():
            text = " " + _("Quit? The game ends with the program.") + "  y / n "
        else:
            text = " " + _("Quit?") + "  y / n "
        # Each line ends in a space, as the last does in "  y / n ": the box is as wide as its
        # widest line, and a first line that is the widest must not touch its side.
        return [("class:prompt", text.replace("\n", " \n"))]

    # == the screen's measures =============================================================
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

    def _scrolling(self) -> bool:
        """The coach's box, or else the count of a deal, has more rows than it shows."""
        if self.model.coach.panel is not None:
            return self.coach_view.overflows
        return self.model.game.deal_count is not None and self.count_view.overflows

    def _keys_outdated(self, _: object = None) -> None:
        """After each draw: the key hints are drawn before the coach's box floats over the
        screen, and the box learns only as it is drawn whether it has rows to scroll; when
        that changed what the hints should say, draw once more."""
        scrolling = self._scrolling()
        if scrolling != self._keys_scrolling:
            self._keys_scrolling = scrolling
            self.application.invalidate()

    def _log_height(self) -> int:
        info = self.log_window.render_info if self.log_window is not None else None
        return info.window_height if info is not None else DEFAULT_LOG_PAGE + 1

    # == the layout ========================================================================
    def _build_layout(self) -> FloatContainer:
        model = self.model
        in_lobby = Condition(lambda: model.session.screen in LOBBY_SCREENS)
        form_open = Condition(lambda: model.new_table.form is not None)
        at_table = Condition(lambda: model.session.screen == TABLE)

        # The screens own their windows; here they are only put up, each on its condition.
        columns, rows = (lambda: self._width()), (lambda: self._rows())
        self.lobby_layout = LobbyLayout(model, columns, rows, lambda: self.people.waiting_words())
        self.lobby_status_window = self.lobby_layout.status_window
        self.form_layout = FormLayout(model, columns)
        self.table_layout = TableLayout(model, columns, rows, lambda: self._now())
        self.log_window = self.table_layout.log_window
        self.count_view = self.table_layout.count_view
        body = HSplit([
            Window(text(lambda: records.title_fragments(self.records, self.address, self._width())
                        if self.records.active
                        else render.title_bar(model, self.address, _("Who is online"), self._width())
                        if self.people.active
                        else render.title_bar(model, self.address, events_layout.title_where(self.events),
                                              self._width())
                        if self.events.active else render.title_fragments(model, self.address, self._width())),
                   height=1),
            ConditionalContainer(self.lobby_layout.container, filter=in_lobby & ~form_open),
            ConditionalContainer(self.form_layout.container, filter=in_lobby & form_open),
            ConditionalContainer(self.table_layout.container, filter=at_table),
            records.build_layout(self.records, self._width, self._rows),
            people.build_layout(self.people, self._width),
            events_layout.build_layout(self.events, self._width),
            ConditionalContainer(
                Window(BufferControl(self.chat_buffer), height=1, style="class:prompt",
                       get_line_prefix=lambda *__: [("class:key", " " + _("say:") + " ")]),
                filter=Condition(lambda: self.chatting)),
            ConditionalContainer(
                Window(BufferControl(self.password_buffer, input_processors=[PasswordProcessor()]),
                       height=1, style="class:prompt",
                       get_line_prefix=lambda *_: render.password_prefix(model)),
                filter=Condition(lambda: model.lobby.password_prompt is not None)),
            ConditionalContainer(
                Window(BufferControl(self.name_buffer), height=1, style="class:prompt",
                       get_line_prefix=lambda *__: [("class:key", " " + _("Your name:") + " ")]),
                filter=Condition(lambda: model.session.name_prompt is not None)),
            Window(text(lambda: records.keys_fragments(self.records, self._width())
                        if self.records.active and model.coach.panel is None
                        else people.keys_fragments(self.people, self._width()) if self.people.active
                        else events_layout.keys_fragments(self.events, self._width()) if self.events.active
                        else render.keys_fragments(model, self._width(), self._keys_scrolling,
                                                   bool(self.people.incoming))),
                   height=1),
        ])
        # Sizes that give way: on a small screen the boxes shrink (the help goes to one
        # column, and wraps) rather than vanish.
        self.help_view = Scrolled(lambda width: keys.help_fragments(width + 2, self.screens()),
                                  lambda: self._help_opened if self.show_help else None)
        help_box = Frame(Window(self.help_view, width=Dimension(max=78), always_hide_cursor=True,
                                # the screen less the box's frame, the title and the keys
                                height=lambda: Dimension(max=max(1, self._rows() - 4))),
                         title=lambda: _("Keys"), style="class:help.frame")
        quit_box = Frame(Window(text(self.confirm_text), wrap_lines=True,
                                width=Dimension(max=60), height=Dimension(min=1, max=4)),
                         style="class:help.frame")
        self.coach_view = Scrolled(lambda width: render.panel_fragments(model, width),
                                   lambda: model.coach.panel)
        coach_box = Frame(Window(self.coach_view, width=Dimension(max=78), always_hide_cursor=True,
                                 # the screen less the box's frame, the title and the keys
                                 height=lambda: Dimension(max=max(1, self._rows() - 4))),
                          style="class:help.frame")
        return FloatContainer(body, floats=[
            Float(ConditionalContainer(coach_box, filter=Condition(lambda: model.coach.panel is not None))),
            Float(ConditionalContainer(help_box, filter=Condition(lambda: self.show_help))),
            Float(ConditionalContainer(quit_box, filter=Condition(
                lambda: self.confirm_quit or self.question is not None))),
        ])


__all__ = ["Windows", "LOBBY_SCREENS", "DEFAULT_LOG_PAGE"]
