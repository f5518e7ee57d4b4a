"""The prompt_toolkit windows that several screens build theirs from: text and a log.

Every window's text is a callable over the view model (or a screen's own state), so a redraw
(and a resize) draws it afresh; :func:`log_window` is the log the lobby's chat and the table's
game share: it formats only the lines the screen has rows for (``render.log_tail``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from prompt_toolkit.data_structures import Point
from prompt_toolkit.layout import Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.layout.dimension import Dimension

from noddy.protocol.i18n import _

from .. import render
from ..lines import LogLine


def text(fn: Callable[[], Any]) -> FormattedTextControl:
    """A control that draws ``fn()`` and takes no focus (the keys are the application's)."""
    return FormattedTextControl(fn, focusable=False)


def status_height() -> Dimension:
    """A status line wraps onto a second and third line rather than being cut off."""
    return Dimension(min=1, max=3)


def log_window(lines: Callable[[], list[LogLine]], width: Callable[[], int],
               rows: Callable[[], int]) -> Window:
    """A log that shows its end, its long lines wrapped under a hanging indent.

    Only the log's last lines are drawn: the window shows its end, and it can show no more
    lines than the screen has rows (each takes one row at least), so the lines before those
    would be formatted and wrapped for nothing.
    """
    def shown() -> list[LogLine]:
        return render.log_tail(lines(), rows())

    def cursor() -> Point:  # the last row: a long line takes more than one
        return Point(0, render.last_row(render.log_fragments(shown(), width())))
    return Window(FormattedTextControl(lambda: render.log_fragments(shown(), width()),
                                       get_cursor_position=cursor, focusable=False),
                  wrap_lines=True, always_hide_cursor=True)


def said_keys(keys: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Key hints as a screen declares them (a key's name, what it does: each marked with
    ``N_`` where it is written), both said in the reader's language now."""
    return [(_(name) if name else name, _(does) if does else does) for name, does in keys]


__all__ = ["text", "status_height", "log_window", "said_keys"]
