"""Lists with a cursor, and the password question: drawn for more than one screen.

:func:`cursor_list` draws the lobby's tables and the records' and people's lists;
:func:`password_prefix` is the password line's question, at the bottom of any screen.  The
lobby's own windows are :mod:`noddy.client.screens.lobby_layout`'s, the new-table form's
:mod:`noddy.client.screens.form_layout`'s.
"""

from __future__ import annotations

from noddy.protocol.i18n import _

from ..model import ViewModel
from .fragments import EDGE, Fragments, fit_words


#: The columns before each line of a list: the cursor's ``▶`` and its spaces.
CURSOR_COLUMNS = 3


def cursor_list(lines: list[str], cursor: int, width: int | None = None) -> Fragments:
    """One line each, the one under the cursor marked ``▶`` and highlighted.  With ``width``,
    a line longer than the screen is cut between words and ends in `` …``, short of the
    screen's last column, so that a cut name does not read as a whole one (a 4-player
    table's row is longer than 80 columns; callers leave out whole parts first)."""
    out: Fragments = []
    for i, line in enumerate(lines):
        if width is not None:
            line = fit_words(line, width - CURSOR_COLUMNS - EDGE)
        out.append(("class:selected", f" ▶ {line}") if i == cursor else ("", f"   {line}"))
        out.append(("", "\n"))
    return out


def password_prefix(model: ViewModel) -> Fragments:
    """What the password line asks, before the (masked) typing."""
    prompt = model.lobby.password_prompt
    if prompt is None:
        return []
    if prompt.table is None:  # an account's: never kept by the client
        if prompt.verb == "register" and prompt.confirming:
            return [("class:key", f" {_('The same password again (Esc cancels):')} ")]
        if prompt.verb == "register":
            return [("class:key", " " + _("New password for {name} (Esc cancels):").format(
                name=model.session.name) + " ")]
        said = (_("Password again for {name} (Esc: another name):") if prompt.retry
                else _("Password for {name} (Esc: another name):"))
        return [("class:key", " " + said.format(name=model.session.name) + " ")]
    if prompt.verb == "join_event":
        said = (_("Password again to join club night {event} (Esc cancels):") if prompt.retry
                else _("Password to join club night {event} (Esc cancels):"))
        return [("class:key", " " + said.format(event=prompt.table) + " ")]
    if prompt.verb == "sit":
        said = (_("Password again to sit at table {table} (Esc cancels):") if prompt.retry
                else _("Password to sit at table {table} (Esc cancels):"))
    else:
        said = (_("Password again to watch table {table} (Esc cancels):") if prompt.retry
                else _("Password to watch table {table} (Esc cancels):"))
    return [("class:key", " " + said.format(table=prompt.table) + " ")]
