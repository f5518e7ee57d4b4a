"""The lobby's screens: the list of tables, the new-table form, the password question.

Everything drawn before the player sits at a table; :func:`cursor_list` is also what the
records screens use for their lists.
"""

from __future__ import annotations

from ..model import ViewModel
from ..session import CONNECTING
from .fragments import Fragments, fit


def lobby_fragments(model: ViewModel, width: int | None = None) -> Fragments:
    """The list of tables with the cursor, or why there is none yet; each row fits ``width``
    columns (see :func:`cursor_list`)."""
    out: Fragments = [("class:label", " Tables\n")]
    tables = model.lobby.sorted_tables()
    if model.session.screen == CONNECTING:
        return out + [("class:dim", "   Connecting to the server…\n")]
    if not tables:
        out.append(("class:dim", "   No tables yet: press n to create one.\n"))
    return out + cursor_list([model.lobby.table_line(table) for table in tables], model.lobby.lobby_cursor, width)


def cursor_list(lines: list[str], cursor: int, width: int | None = None) -> Fragments:
    """One line each, the one under the cursor marked ``▶`` and highlighted.  With ``width``,
    a line longer than the screen ends in ``…`` where it is cut, so that a cut name does not
    read as a whole one (a 4-player table's row is longer than 80 columns)."""
    out: Fragments = []
    for i, line in enumerate(lines):
        if width is not None:
            line = fit(line, width - 3)
        out.append(("class:selected", f" ▶ {line}") if i == cursor else ("", f"   {line}"))
        out.append(("", "\n"))
    return out


def form_fragments(model: ViewModel) -> Fragments:
    """The new-table form: a line per option, the current one highlighted, the password
    typed in place."""
    form = model.new_table.form
    if form is None:
        return []
    if form.on_text:
        hint = "↑↓ line  type a password (none: public)  ⌫ delete  Enter create"
    else:
        hint = "↑↓ line  ←→ change  PgUp/PgDn ±10  Enter create  Esc back"
    out: Fragments = [("class:label", " New table  "), ("class:dim", hint + "\n\n")]
    texts = form.text_rows()
    for i, (label, value) in enumerate(form.rows()):
        current = i == form.row
        if i in texts:
            typed = str(form.current().value) if current else ""   # type: ignore[union-attr]
            shown = typed + "▏" if current else value
            text = f"  {label:<22} {shown}"
        else:
            text = f"  {label:<22} {'‹ ' + value + ' ›' if label else value}"
        out.append(("class:selected" if current else "", text))
        out.append(("", "\n"))
    return out


def password_prefix(model: ViewModel) -> Fragments:
    """What the password line asks, before the (masked) typing."""
    prompt = model.lobby.password_prompt
    if prompt is None:
        return []
    if prompt.table is None:  # an account's: never kept by the client
        if prompt.verb == "register":
            return [("class:key", f" New password for {model.session.name} (Esc cancels): ")]
        again = " again" if prompt.retry else ""
        return [("class:key", f" Password{again} for {model.session.name} (Esc: another name): ")]
    verb = "sit at" if prompt.verb == "sit" else "watch"
    again = "again " if prompt.retry else ""
    return [("class:key", f" Password {again}to {verb} table {prompt.table} (Esc cancels): ")]
