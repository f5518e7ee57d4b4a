"""The new-table form's layout: a line per option, and the lobby's status line under it.

:class:`FormLayout` is what :class:`~noddy.client.screens.form.NewTable` shows while its form
is open (n in the lobby; its keys are declared with it).  It lives apart from
:mod:`~noddy.client.screens.form` because it draws from the whole
:class:`~noddy.client.model.ViewModel`, which is composed from the form.
"""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.layout import HSplit, Window

from noddy.protocol.i18n import _

from .. import render
from ..model import ViewModel
from .lobby_layout import status_window
from .windows import text


#: Where the values of the form's lines start (a label's width and its margin).
VALUE_COLUMN = 25


def form_fragments(model: ViewModel, width: int = 80) -> render.Fragments:
    """The new-table form: a line per option, the current one highlighted, the password
    typed in place; in ``width`` columns, the hints that do not fit left out whole (the key
    line at the foot says them too) and a long value cut between words (issue 33, item 8)."""
    form = model.new_table.form
    if form is None:
        return []
    hints: list[render.Part]
    if form.on_text:
        hints = [("↑↓ " + _("line"), "", 0), (_("type a password (none: public)"), "  ", 3),
                 ("⌫ " + _("delete"), "  ", 1), (_("Enter") + " " + _("create"), "  ", 2)]
    else:
        hints = [("↑↓ " + _("line"), "", 0), ("←→ " + _("change"), "  ", 3),
                 (_("PgUp/PgDn") + " ±10", "  ", 1), (_("Enter") + " " + _("create"), "  ", 4),
                 (_("Esc") + " " + _("back"), "  ", 2)]
    head = " " + _("New table") + "  "
    hint = render.join_parts(hints, width - len(head) - render.EDGE)
    out: render.Fragments = [("class:label", head), ("class:dim", hint + "\n\n")]
    room = width - VALUE_COLUMN - render.EDGE
    texts = form.text_rows()
    for i, (label, value) in enumerate(form.rows()):
        current = i == form.row
        if i in texts:
            typed = str(form.current().value) if current else ""   # type: ignore[union-attr]
            shown = typed + "▏" if current else value
            line = f"  {label:<22} {shown}"
        else:
            line = f"  {label:<22} {'‹ ' + render.fit_words(value, room - 4) + ' ›' if label else value}"
        out.append(("class:selected" if current else "", line))
        out.append(("", "\n"))
    return out


class FormLayout:
    """The form's windows (module docstring); ``width`` measures the screen."""

    def __init__(self, model: ViewModel, width: Callable[[], int]) -> None:
        self.container = HSplit([
            Window(text(lambda: form_fragments(model, width()))),
            status_window(model, width),
        ])


__all__ = ["FormLayout", "form_fragments"]
