"""Text mode: the adapter between a person at a bare terminal (``nc``) and the JSON core.

A connection whose first non-blank line does not begin with ``{`` is in text mode for good.
:mod:`.commands` reads each typed line into the same request a JSON client would send, so the
two modes cannot disagree about the rules; :mod:`.render` turns every message the core sends
such a connection into plain lines; :mod:`.adapter` sits between the network layer and the
core and keeps, per connection, what a person's lines need (their table, seat, the seats'
names and their legal moves).  The core itself never reads or writes text.
"""

from .adapter import TextAdapter
from .commands import parse_command
from .help import HELP
from .move_commands import cards_by_number, numbered_hand
from .render import person_error, render

__all__ = ["HELP", "TextAdapter", "cards_by_number", "numbered_hand", "parse_command", "person_error",
           "render"]
