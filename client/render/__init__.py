"""Drawing: the view model turned into prompt_toolkit formatted text, one function per panel.

Every function here takes the :class:`~noddy.client.model.ViewModel` (and the width it may
use) and returns a list of ``(style, text)`` fragments; none keeps state, so the
application simply calls them again on every redraw (and on every resize).  The style
names are defined once, in :data:`STYLE`.

This package's ``__init__`` is the one door to the drawing: the application, the records
screens and the tests import from :mod:`noddy.client.render`, while the work is split into its
modules by what is drawn:

* :mod:`~noddy.client.render.fragments` – the fragment type, :data:`STYLE`, :func:`plain`;
* :mod:`~noddy.client.render.cards` – inline cards and the hand;
* :mod:`~noddy.client.render.board` – the peg board;
* :mod:`~noddy.client.render.table` – a log, and the count at the end of a deal;
* :mod:`~noddy.client.render.bars` – title, status line and key hints;
* :mod:`~noddy.client.render.lobby` – lists with a cursor, the password line;
* :mod:`~noddy.client.render.coach` – a show counted by hand, and the coach's box.

The help box is written from the screens' keys (:mod:`noddy.client.keys`).
"""

from __future__ import annotations

# Every name below is re-exported, including those beyond __all__ (Fragments, plain, wrapped,
# compact, key_text, status_fragments_lobby), so that each
# ``from noddy.client.render import …`` written before the split keeps working.
from .bars import (
    fit_keys,
    key_hints,
    key_text,
    keys_fragments,
    status_fragments,
    status_fragments_lobby,
    status_line,
    title_bar,
    title_fragments,
)
from .board import board_fragments, compact, pegs_fragments
from .cards import card_faces, card_fragments, cards_inline, hand_fragments
from .coach import counting_fragments, hand_or_show_fragments, panel_fragments
from .fragments import EDGE, STYLE, Fragments, fit, fit_by_dropping, fit_rows, fit_words, join_parts, plain, wrapped
from .lobby import CURSOR_COLUMNS, cursor_list, password_prefix
from .table import count_fragments, last_row, log_fragments, log_tail

__all__ = ["STYLE", "hand_or_show_fragments", "counting_fragments", "panel_fragments",
           "card_faces", "count_fragments", "board_fragments", "pegs_fragments", "hand_fragments", "log_fragments", "last_row", "log_tail",
           "password_prefix",
           "keys_fragments",
           "status_fragments", "title_fragments", "cards_inline",
           "card_fragments", "fit_keys", "key_hints", "status_line", "title_bar", "cursor_list", "fit",
           "fit_words", "fit_by_dropping", "fit_rows", "join_parts", "EDGE", "CURSOR_COLUMNS"]
