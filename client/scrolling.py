"""A window's worth of a longer text: rows that scroll by keys, with a marker where it is cut.

The count at the end of a deal and the coach's box can hold more rows than the screen has
room for (a three-handed count at 60×20, a review of fourteen deals).  A plain window cut
them off at its foot and said nothing: the third hand and the crib, or the notes after deal
7, could not be reached at any size (issue 27, items 2 and 3).

:class:`Scrolled` is the control of such a window.  It asks for the text's rows at the
window's width (the drawing breaks them between words, :func:`noddy.client.render.log_fragments`'s
wrapping), is told the window's height at each draw, and shows the rows from :attr:`top`.
When rows are hidden below, the window's last row says how many and which keys scroll;
when rows are hidden above, its first row says so.  What it shows is named by ``shown`` (the
count, the coach's box): when that changes, the window starts again at the top.

The keys (:mod:`noddy.client.bindings`) call :meth:`Scrolled.scroll` and :meth:`Scrolled.page`,
which go by the height last drawn, and ask :attr:`Scrolled.overflows` whether there is
anything to scroll (when everything fits, the same keys close the window as any key does).
"""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.formatted_text.utils import fragment_list_width, split_lines
from prompt_toolkit.layout.controls import UIContent, UIControl

from noddy.protocol.i18n import ngettext

from .render import fit

#: The keys that scroll, as the marker and the key hints name them.
SCROLL_KEYS = "↑↓ PgUp PgDn"


def below_marker(hidden: int, width: int) -> StyleAndTextTuples:
    """The last row of a window with ``hidden`` rows below it."""
    text = " " + ngettext("↓ {n} more row · {keys} scroll", "↓ {n} more rows · {keys} scroll",
                          hidden).format(n=hidden, keys=SCROLL_KEYS) + " "
    return [("class:status", fit(text, width))]


def above_marker(hidden: int, width: int) -> StyleAndTextTuples:
    """The first row of a window scrolled down past ``hidden`` rows."""
    text = " " + ngettext("↑ {n} more row above", "↑ {n} more rows above", hidden).format(n=hidden) + " "
    return [("class:status", fit(text, width))]


class Scrolled(UIControl):
    """The rows of ``rows(width)`` from :attr:`top`, as many as the window has (module
    docstring).  ``shown`` names what is on the screen, so that a new one starts at the top."""

    def __init__(self, rows: Callable[[int], StyleAndTextTuples],
                 shown: Callable[[], object]) -> None:
        self._rows = rows
        self._shown = shown
        self._showing: object = None
        #: The first row in the window (0: the top of the text).
        self.top = 0
        #: The window's height and the text's rows at the last draw (0: not drawn yet).
        self.height = 0
        self.total = 0

    # == what the keys ask ===============================================================
    @property
    def overflows(self) -> bool:
        """More rows than the window showed at the last draw: there is something to scroll."""
        return self.total > self.height > 0

    def scroll(self, rows: int) -> None:
        """↓ (positive) / ↑ (negative): ``rows`` further down or up, no further than the
        ends of the text."""
        self.top = max(0, min(self.top + rows, self._furthest()))

    def page(self, pages: int) -> None:
        """PgDn (positive) / PgUp (negative): by the window's height less its two marker
        rows, so that a row of the last page is still in view."""
        self.scroll(pages * max(1, self.height - 2))

    def _furthest(self) -> int:
        return max(0, self.total - self.height)

    # == the control =====================================================================
    def _lines(self, width: int) -> list[StyleAndTextTuples]:
        shown = self._shown()
        if shown is not self._showing:
            self._showing, self.top = shown, 0
        return list(split_lines(self._rows(width)))

    def preferred_width(self, max_available_width: int) -> int | None:
        lines = self._lines(max_available_width)
        return min(max_available_width, max((fragment_list_width(line) for line in lines), default=0))

    def preferred_height(self, width: int, max_available_height: int, wrap_lines: bool,
                         get_line_prefix: object) -> int | None:
        return min(max_available_height, len(self._lines(width)))

    def create_content(self, width: int, height: int | None) -> UIContent:
        lines = self._lines(width)
        self.total = len(lines)
        if height is None:                     # (asked for its size: all of it)
            return UIContent(get_line=lambda i: lines[i], line_count=len(lines))
        self.height = height
        self.top = max(0, min(self.top, self._furthest()))
        shown = lines[self.top:self.top + height]
        if height >= 2 and self.top > 0:
            shown[0] = above_marker(self.top + 1, width)
        if height >= 2 and self.top + height < len(lines):
            shown[-1] = below_marker(len(lines) - (self.top + height) + 1, width)
        return UIContent(get_line=lambda i: shown[i], line_count=len(shown))


__all__ = ["Scrolled", "SCROLL_KEYS", "below_marker", "above_marker"]
