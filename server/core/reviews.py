"""The coach's review of a stored, finished game: the asker's (or a named) seat's decisions
of one deal that fell clearly short of the best.

A pure function of the stored record, so that the records part can answer a ``review`` of a
stored game once storage has read it, and the coach's live review can share the margin."""

from __future__ import annotations

from typing import Any

from noddy.bots.coach import review
from noddy.protocol import ProtocolError
from noddy.protocol.i18n import Phrase

from ..storage.records import StoredGame, new_game, record_actions

#: How much worse than the best a decision must be (in expected points) to be noted.
REVIEW_MARGIN = 1.0


def review_stored(stored: StoredGame, wanted: dict[str, Any], viewer: str) -> dict[str, Any]:
    """The ``review`` reply for ``wanted`` (``{"seat", "deal"}``) of a stored game that
    ``viewer`` may read; raises ProtocolError for a seat the game did not have."""
    record = stored.record
    seat = wanted["seat"]
    if seat is None:  # the seat the asker sat in, if any
        mine = [s["seat"] for s in record["seats"] if s["kind"] == "human" and s["name"] == viewer]
        if not mine:
            raise ProtocolError("missing_field", Phrase("you did not sit in that game: say which seat "
                                                        "to review"), field="seat")
        seat = mine[0]
    if seat >= record["players"]:
        raise ProtocolError("no_such_seat", Phrase("game {game} had seats 0 to {last}, not {seat}",
                                                   game=record["id"], last=record["players"] - 1,
                                                   seat=seat), field="seat")
    notes = review(new_game(record), record_actions(record), seat, deal=wanted["deal"],
                   margin=REVIEW_MARGIN)
    return {"type": "review", "game": record["id"], "seat": seat, "deal": wanted["deal"],
            "notes": [note.to_dict() for note in notes]}
