"""What storage needs to know of a table's game while it is played (:class:`LiveGame`): kept
apart from the table, which holds the game itself, because it is the record's side of the
game -- who sat where when it was dealt, the actions taken, the seats that changed hands --
read when the game's record is written and when a restored game is rebuilt."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from noddy.engine import Action


@dataclass
class LiveGame:
    """What storage needs to know of a table's current game: its id, the table's seq when it
    began, who sat where when it was dealt (they are the ones rated), and how many actions."""

    game_id: int
    seq_start: int
    seats: list[dict[str, Any]]
    actions: int = 0
    #: The actions taken so far, in order: what the coach's review replays.
    taken: list[Action] = field(default_factory=list)
    #: Each time a seat changed hands during the game, in order: ``{"seat", "after"`` (the
    #: number of actions taken by then), ``"at"`` (seconds since 1970), ``"name", "kind",
    #: "level", "why"}`` (``resigned``,
    #: ``abandoned``: a computer stands in; ``back``: the person took it back; ``waiting``:
    #: the table sent the stand-in away to wait for its person).  The record keeps them.
    changes: list[dict[str, Any]] = field(default_factory=list)
    #: When the game was dealt, on the server's wall clock (what its duration is measured
    #: from: :mod:`noddy.server.model.result`); None when not known.
    started_at: float | None = None

    def seats_with_changes(self) -> list[dict[str, Any]]:
        """The seats as dealt, each with its ``changes`` (only a seat that had some)."""
        out = []
        for seat in self.seats:
            changes = [{k: v for k, v in c.items() if k != "seat"} for c in self.changes
                       if c["seat"] == seat["seat"]]
            out.append({**seat, "changes": changes} if changes else seat)
        return out
