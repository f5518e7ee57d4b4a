"""The lobby screen's layout: the list of tables, the status line and the lobby's chat.

:class:`LobbyLayout` is what :class:`~noddy.client.screens.lobby.Lobby` shows (its keys are
declared with it); the application puts it up while ``model.session.screen`` is the lobby
(or connecting: before the welcome, the lobby is drawn empty) and no new-table form is open.
It lives apart from :mod:`~noddy.client.screens.lobby` because it draws from the whole
:class:`~noddy.client.model.ViewModel`, which is composed from the lobby.
"""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.data_structures import Point
from prompt_toolkit.layout import HSplit, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.layout.dimension import Dimension

from noddy.protocol.i18n import _

from .. import render
from ..model import ViewModel
from ..render.lobby import CURSOR_COLUMNS
from ..session import CONNECTING
from .lobby import ROW_PARTS
from .windows import log_window, status_height, text

#: The most rows the list of tables takes (the lobby's chat has the rest); a longer list
#: scrolls with its cursor.
TABLE_LIST_ROWS = 12


def lobby_fragments(model: ViewModel, width: int | None = None) -> render.Fragments:
    """The list of tables with the cursor, or why there is none yet; each row fits ``width``
    columns (see :func:`~noddy.client.render.cursor_list`)."""
    out: render.Fragments = [("class:label", " " + _("Tables"))]
    if model.lobby.people_only:  # on until p again, and says so (issue 33, item 13)
        out.append(("class:info", " · " + _("people only ({n} hidden) · p shows all").format(
            n=model.lobby.hidden_tables())))
    out.append(("", "\n"))
    tables = model.lobby.sorted_tables()
    if model.session.screen == CONNECTING:
        return out + [("class:dim", "   " + _("Connecting to the server…") + "\n")]
    if not tables and model.lobby.hidden_tables():
        out.append(("class:dim", "   " + _("Every table has a computer or a bot: p shows them, n creates one.")
                    + "\n"))
    elif not tables:
        out.append(("class:dim", "   " + _("No tables yet: press n to create one.") + "\n"))
    if width is None:
        lines = [model.lobby.table_line(table) for table in tables]
    else:  # whole parts left out, least important first, before a word is cut
        room = width - CURSOR_COLUMNS - render.EDGE
        lines = render.fit_rows(model.lobby.table_line, tables, ROW_PARTS, room)
    return out + render.cursor_list(lines, model.lobby.lobby_cursor, width)


#: What waits for an answer, as :meth:`~noddy.client.screens.people.PeopleView.waiting_words`
#: says it (None: nothing waits).
Waiting = Callable[[], "str | None"]


def status_fragments(model: ViewModel, width: int, waiting: Waiting = lambda: None) -> render.Fragments:
    """The lobby's status line (the new-table form shows it too), under the challenge or
    invitation that waits for an answer: that one stays on its own line until it is
    answered, withdrawn or expired, whatever the status line says meanwhile."""
    words = waiting()
    status = render.status_fragments_lobby(model, width)
    if words is None:
        return status
    said = [("class:info", render.wrapped(words, width))]
    if model.session.status and model.session.status != words:
        return said + [("", "\n")] + status
    return said


#: The rows a challenge or invitation waiting may take above the status line (it wraps).
WAITING_ROWS = 2


def status_window(model: ViewModel, width: Callable[[], int], waiting: Waiting = lambda: None) -> Window:
    """The lobby's status line, wrapping rather than cut off, under what waits for an answer."""
    def height() -> Dimension:
        usual = status_height()
        more = WAITING_ROWS if waiting() is not None else 0
        return Dimension(min=usual.min, max=usual.max + more)
    return Window(text(lambda: status_fragments(model, width(), waiting)), height=height,
                  wrap_lines=True)


class LobbyLayout:
    """The lobby's windows (module docstring); ``width`` and ``rows`` measure the screen,
    ``waiting`` says the challenge or invitation that waits for an answer."""

    def __init__(self, model: ViewModel, width: Callable[[], int], rows: Callable[[], int],
                 waiting: Waiting = lambda: None) -> None:
        self.status_window = status_window(model, width, waiting)
        self.container = HSplit([
            # The cursor on the selected row keeps it in view when the list is longer
            # than the window.
            Window(FormattedTextControl(lambda: lobby_fragments(model, width()), focusable=False,
                                        get_cursor_position=lambda: Point(0, model.lobby.lobby_cursor + 1)),
                   always_hide_cursor=True,
                   height=Dimension(min=3, preferred=len(model.lobby.tables) + 2,
                                    max=TABLE_LIST_ROWS)),
            Window(height=1, char="─", style="class:dim"),
            self.status_window,
            Window(text(lambda: [("class:label", " " + _("Lobby chat"))]), height=1),
            log_window(lambda: model.lobby.lobby_chat, width, rows),
        ])


__all__ = ["LobbyLayout", "lobby_fragments", "status_fragments", "status_window", "TABLE_LIST_ROWS"]
