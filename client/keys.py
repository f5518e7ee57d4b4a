"""What the screens' key declarations add up to: the help, and the requests the client sends.

Each screen declares its keys with :func:`noddy.client.keymap.key`, each with its help line
and the protocol requests it may send.  This module reads those declarations, and nothing
else:

* :func:`help_text` is the help box (``?``): the keys live on the screens that are up (or
  every screen's), under each screen's title, in one column or two as the width allows;
* :func:`requests_sent` says which request types the client can send and by which key, so a
  test can check that every request of the protocol is reachable from the client.

>>> requests_sent()["create_table"]
'In the new-table form: Enter'
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Sequence

from noddy.protocol.i18n import N_, _

from .anywhere import QUIT_AT_ONCE, Anywhere
from .keymap import Key, Screen, said_label
from .screens.counting import HandCount
from .screens.events import EventsView
from .screens.events_form import AnnounceForm
from .screens.form import NewTable
from .screens.lobby import Lobby
from .screens.people import PeopleView
from .screens.records import RecordsView
from .screens.replay import ReplayScreen
from .screens.table import TableScreen

#: Every kind of screen with keys, in the order the help lists them.
SCREENS: tuple[type[Screen], ...] = (Lobby, NewTable, PeopleView, EventsView, AnnounceForm,
                                     RecordsView, ReplayScreen, TableScreen, HandCount, Anywhere)
#: The first line of the help, on every size of screen (in English: :func:`help_title` says it).
HELP_TITLE = " " + N_("Keys · any key closes this help")
#: The widest the help is (the box's frame takes two columns more).
HELP_WIDTH = 76
#: The least room for two columns side by side (each must hold a key and a few words).
TWO_COLUMNS = 70
#: Columns a key's label takes before its help line.
LABEL_WIDTH = 9


def requests_sent() -> dict[str, str]:
    """Every request type a key of the client may send, and the key that sends it, as
    ``"screen: key"`` (``{"leave": "At a table: l", ...}``): the first key whose main request
    it is (the first it declares), else the first that may send it along the way."""
    out: dict[str, str] = {}
    for main in (True, False):
        for screen in SCREENS:
            for declared in screen.declared_keys():
                for request in declared.sends[:1] if main else declared.sends:
                    out.setdefault(request, f"{screen.title}: {declared.label}")
    return out


def help_title() -> str:
    """:data:`HELP_TITLE` in the current language."""
    return " " + _(HELP_TITLE[1:])


def _entries(keys: Iterable[Key]) -> list[tuple[str, str]]:
    """(label, help) of the keys that have a help line (the others go with the one before),
    said in the current language (the screens mark their help lines ``N_``)."""
    return [(said_label(k.label), _(k.help)) for k in keys if k.help]


def sections(screens: Sequence[Screen] | None = None) -> list[tuple[str, list[tuple[str, str]]]]:
    """The help's sections: each screen's title and its keys' lines.  ``screens``: those
    up now, and of their keys only those live now; None: every screen, every key."""
    out: list[tuple[str, list[tuple[str, str]]]] = []
    if screens is None:
        for kind in SCREENS:
            out.append((kind.title, _entries(kind.declared_keys())))
    else:
        for screen in screens:
            if screen.is_up():
                live = [k for k in screen.declared_keys() if k.when is None or k.when(screen)]
                out.append((screen.title, _entries(live)))
    for title, entries in out:
        if title == Anywhere.title:
            entries.append((said_label(QUIT_AT_ONCE[0]), _(QUIT_AT_ONCE[1])))
    return [(_(title), entries) for title, entries in out if entries]


def _section_lines(title: str, entries: list[tuple[str, str]], width: int) -> list[tuple[bool, str]]:
    """The lines of one section, each marked True where a column may start (not inside
    one key's wrapped line, nor right under a title)."""
    lines = [(True, f" {title}")]
    indent = " " * (2 + LABEL_WIDTH + 1)
    for n, (label, said) in enumerate(entries):
        lead = f"  {label:<{LABEL_WIDTH}} "
        first = n > 0                           # (a title stays above its first key)
        if len(lead) > len(indent):            # a long label: its help on the next line
            lines.append((first, lead.rstrip()))
            lead, first = indent, False
        wrapped = textwrap.wrap(said, width, initial_indent=lead, subsequent_indent=indent) or [lead]
        lines += [(first and i == 0, text) for i, text in enumerate(wrapped)]
    return lines


def help_text(width: int = 80, screens: Sequence[Screen] | None = None) -> str:
    """The help for a screen ``width`` wide: two columns when there is room, else one column with
    long lines wrapped, so that nothing is cut off at the frame (a help taller than its box
    scrolls: :class:`noddy.client.scrolling.Scrolled`)."""
    room = max(20, min(HELP_WIDTH, width - 2))
    two = room >= TWO_COLUMNS
    column = room // 2 if two else room
    # Each column keeps its last one free: text against the box's side read as cut there
    # ("/invite NAME│", issue 33, item 8).
    lines = [line for title, entries in sections(screens)
             for line in _section_lines(title, entries, column - 1)]
    title = help_title()
    if not two:
        return "\n".join([title[:room], *(text for _allowed, text in lines)])
    # The right column starts at the allowed line nearest half way down.
    breaks = [i for i, (allowed, _) in enumerate(lines) if allowed and i > 0] or [len(lines)]
    split = min(breaks, key=lambda i: (abs(len(lines) - 2 * i), -i))
    left = [text for _allowed, text in lines[:split]]
    right = [text for _allowed, text in lines[split:]]
    height = max(len(left), len(right))
    left += [""] * (height - len(left))
    right += [""] * (height - len(right))
    rows = [f"{a:<{column}}{b}".rstrip() for a, b in zip(left, right)]
    return "\n".join([title, *rows])


#: The whole help of a full-width screen, every screen's keys (documentation and tests read it).
HELP_TEXT = help_text(80)


def help_fragments(width: int = 80, screens: Sequence[Screen] | None = None) -> list[tuple[str, str]]:
    """The help as one styled block, laid out for ``width``."""
    return [("class:help", help_text(width, screens))]


__all__ = ["SCREENS", "HELP_TEXT", "HELP_TITLE", "requests_sent", "sections", "help_text",
           "help_fragments"]
