"""The new-table form's layout: a line per option, and the lobby's status line under it.

:class:`FormLayout` is what :class:`~noddy.client.screens.form.NewTable` shows while its form
is open (n in the lobby; its keys are declared with it).  It lives apart from
:mod:`~noddy.client.screens.form` because it draws from the whole
:class:`~noddy.client.model.ViewModel`, which is composed from the form.
"""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.layout import HSplit, Window

from .. import render
from ..model import ViewModel
from .lobby_layout import status_window
from .windows import text


def form_fragments(model: ViewModel) -> render.Fragments:
    """The new-table form: a line per option, the current one highlighted, the password
    typed in place."""
    form = model.new_table.form
    if form is None:
        return []
    if form.on_text:
        hint = "↑↓ line  type a password (none: public)  ⌫ delete  Enter create"
    else:
        hint = "↑↓ line  ←→ change  PgUp/PgDn ±10  Enter create  Esc back"
    out: render.Fragments = [("class:label", " New table  "), ("class:dim", hint + "\n\n")]
    texts = form.text_rows()
    for i, (label, value) in enumerate(form.rows()):
        current = i == form.row
        if i in texts:
            typed = str(form.current().value) if current else ""   # type: ignore[union-attr]
            shown = typed + "▏" if current else value
            line = f"  {label:<22} {shown}"
        else:
            line = f"  {label:<22} {'‹ ' + value + ' ›' if label else value}"
        out.append(("class:selected" if current else "", line))
        out.append(("", "\n"))
    return out


class FormLayout:
    """The form's windows (module docstring); ``width`` measures the screen."""

    def __init__(self, model: ViewModel, width: Callable[[], int]) -> None:
        self.container = HSplit([
            Window(text(lambda: form_fragments(model))),
            status_window(model, width),
        ])


__all__ = ["FormLayout", "form_fragments"]
