"""What storage keeps of a table to restore it: its settings, its seats and its watchers
(with resume tokens), its counters, and the id of its current game.  A computer standing in
keeps whom it stands in for (``stand_in_for``), and the game the seats' changes of hands
(``changes``): keys an older server's state lacks, read as none."""

from __future__ import annotations

from typing import Any

from ..model.table import Table


def stored_state(table: Table) -> dict[str, Any]:
    """What storage keeps of a table to restore it.  Its watchers too, so that one watching
    when the server went down is watching again when it comes back (``watchers`` is absent
    from what an older server stored: none came back then)."""
    seats: list[dict[str, Any] | None] = []
    for seat in table.seats:
        if seat is None:
            seats.append(None)
        elif seat.is_computer:
            seats.append({"kind": "computer", "name": seat.name, "level": seat.level})
            if seat.stand_in:  # for whom: they may still take it back after a restart
                person = seat.stand_in_for
                seats[-1]["stand_in_for"] = None if person is None else {
                    "name": person.name, "token": person.token, "bot": person.bot}
        else:
            assert seat.session is not None
            seats.append({"kind": "human", "name": seat.name, "token": seat.session.token,
                          "bot": seat.session.bot, "ready": seat.ready})
    live = table.live
    creator = table.creator
    return {
        "id": table.id, "preset": table.preset, "players": table.players,
        "partnerships": table.partnerships, "options": dict(table.options),
        "password": table.password, "turn_timer": table.turn_timer, "status": table.status,
        "games_played": table.games_played, "computers_made": table.computers_made,
        "creator": None if creator is None else creator.token, "seats": seats,
        "game": None if live is None else {"id": live.game_id, "seq_start": live.seq_start,
                                           **({"changes": live.changes} if live.changes else {})},
        "watchers": [{"name": s.name, "token": s.token, "bot": s.bot} for s in table.spectators],
    }
