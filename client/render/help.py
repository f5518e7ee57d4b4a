"""The help box: its text, laid out for the width of the screen.

The text is data that documentation and tests read (:data:`HELP_TEXT`), and its
one-or-two-column layout has nothing to do with the game state, so it stands alone.
"""

from __future__ import annotations

import textwrap

from .fragments import Fragments


#: The first line of the help, on every size of screen.
HELP_TITLE = " Keys · any key closes this help"
#: The help's two columns: side by side on a wide screen, one after the other on a narrow one.
HELP_LEFT = """\
 In the lobby
   ↑ ↓    choose a table
   Enter  sit (first free seat)
   1-4    sit in that seat
   w watch   n new table (form)
   m games  b ratings  r refresh
   o who is on  p people only
   a register   i statistics
 A private table asks for its
 password (Esc cancels).
 In the form
   ↑ ↓ ← →  choose and change
   Password: type one for a
   private table; Enter creates.
 Lit cards may be played; green
 ones are picked for the crib.
 Pile: A:4♥ is Ann's 4♥.
 Board: ● score, ○ back peg."""
HELP_RIGHT = """\
 In a game
   1-6    play that card / pick it for crib
   ← →    move along   Space pick a card
   Enter  play / lay away the picked cards
   g go (when legal)  h hint  v review
   0-9 Enter  claim / muggins   p  pass
   ↑↓ PgUp PgDn  scroll log, count, review
   l resign (a loss)  w wait/computer
 Before a game
   1-4    move to that seat   s  stand/sit
   a      add a computer  v  its level
   x      remove a computer
   r      ready / play again  l  leave
 Anywhere
   c or t  chat, /tell NAME …, /invite NAME
   q       quit (in a game the seat is held
           a while: start again to resume)
   Ctrl-Q  quit at once"""
#: Width of the left column when the two stand side by side.
HELP_COLUMN = 33


def help_text(width: int = 80) -> str:
    """The help for a screen ``width`` wide: two columns from 80 up, else one column with
    long lines wrapped, so that nothing is cut off at the frame."""
    left, right = HELP_LEFT.splitlines(), HELP_RIGHT.splitlines()
    if width >= 80:
        rows = [f"{a:<{HELP_COLUMN}}{b}".rstrip() for a, b in
                zip(left + [""] * (len(right) - len(left)), right + [""] * (len(left) - len(right)))]
        return "\n".join([HELP_TITLE, *rows])
    room = max(20, width - 2)
    lines = [HELP_TITLE[:room]]
    anywhere = next(i for i, line in enumerate(right) if line.strip() == "Anywhere")
    for line in right[anywhere:] + right[:anywhere] + left:     # the way out first
        indent = len(line) - len(line.lstrip())
        lines += textwrap.wrap(line, room, subsequent_indent=" " * (indent + 2)) or [""]
    return "\n".join(lines)


#: The help of a full-width screen (documentation and tests read it).
HELP_TEXT = help_text(80)


def help_fragments(width: int = 80) -> Fragments:
    """The help as one styled block, laid out for ``width``."""
    return [("class:help", help_text(width))]
