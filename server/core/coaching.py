"""The coach: ``hint`` (the choices of the seat to move, ranked) and ``review`` (a deal's
decisions that fell clearly short of the best).

Owns nothing: it handles the requests ``hint`` and ``review``, reading a table's game and
the actions taken (``LiveGame.taken``).  The evaluation itself is :mod:`noddy.bots.coach`,
the expert computer player's arithmetic, given only what the asking seat can see
(:meth:`Game.observation`), so a hint never shows a hidden card.  A review of a stored,
finished game is read by the records part first (:mod:`.queries`, :mod:`.reviews`).

Why a table option: help from the coach is help a rated game must not have, so ``hint`` and
a live ``review`` work only at a table created with ``hints: true`` (such a table is
unrated, and its summary says ``"rated": false``).  The coach never counts a show for
anyone when shows are counted by hand: a hint is refused while a claim or muggins is owed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from noddy.bots.coach import advise, review
from noddy.engine import Game
from noddy.protocol import ProtocolError
from noddy.protocol.i18n import Phrase

from ..model.session import Connection
from ..model.table import PLAYING, Table
from .instructions import Query
from .places import my_seat, session_of
from .queries import viewer_of
from .reviews import REVIEW_MARGIN

if TYPE_CHECKING:
    from .outbox import Outbox
    from .queries import Queries


def _hints_off(table: Table) -> ProtocolError:
    return ProtocolError(
        "hints_off", Phrase("table {table} has no coach: hints are a table option (hints: true) "
                            "of unrated tables, chosen when the table is made", table=table.id))


class Coaching:
    """``hint`` and ``review``; see the module docstring."""

    def __init__(self, outbox: Outbox, queries: Queries) -> None:
        self._outbox = outbox
        self._queries = queries

    def handlers(self) -> dict[str, Callable[[Connection, dict[str, Any], Any], None]]:
        return {"hint": self.hint, "review": self.review}

    def hint(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        session = session_of(conn)
        table, seat = my_seat(session)
        if not table.hints:
            raise _hints_off(table)
        game = table.game
        if game is None or table.status != PLAYING:
            raise ProtocolError("no_game", Phrase("no game is being played at table {table}",
                                                  table=table.id))
        if seat not in game.awaiting:
            raise ProtocolError("not_your_turn", Phrase("the coach answers the seat that is to decide, "
                                                        "and it is not your turn"))
        if game.phase not in ("discard", "play"):
            raise ProtocolError("no_hint", Phrase("the coach does not count a show for anyone: count "
                                                  "it yourself (claim, or muggins, or pass)"))
        choices = advise(game.observation(seat), game.rules)
        self._outbox.reply(conn, rid, {"type": "hint", "table": table.id, "seat": seat,
                                       "decision": game.phase, "choices": [c.to_dict() for c in choices]})

    def review(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        session = session_of(conn)
        if f["game"] is not None:  # a stored, finished game: read it first
            self._queries.charge(conn)
            args = {"game": f["game"], "viewer": session.name, **viewer_of(session), "password": None,
                    "review": {"seat": f["seat"], "deal": f["deal"]}}
            self._queries.read_game(conn, Query(conn.id, rid, "get_game", args))
            return
        table, seat = my_seat(session)
        if not table.hints:
            raise _hints_off(table)
        game, live = table.game, table.live
        if game is None or live is None:
            raise ProtocolError("no_game", Phrase("no game has been played at table {table}", table=table.id))
        if f["seat"] is not None and f["seat"] != seat:
            raise ProtocolError("bad_field", Phrase("a game being played is reviewed for your own seat "
                                                    "({seat}) only", seat=seat), field="seat")
        # The record's rule (StoredGame.visible_to): a seat's hands go to who sat in it, in
        # that game.  Sitting there now is not enough: the seat may have been someone else's
        # when it was dealt, at a table that was private then.
        if not any(s["seat"] == seat and s["kind"] == "human" and s["name"] == session.name
                   for s in live.seats):
            raise ProtocolError("no_such_game", Phrase("you did not sit in seat {seat} of game {game}; "
                                                       "there is no game of yours to review",
                                                       seat=seat, game=live.game_id))
        last_ended = game.deal if game.is_over else game.deal - 1
        deal = last_ended if f["deal"] is None else f["deal"]
        if deal < 1 or deal > last_ended:
            raise ProtocolError("no_such_deal", Phrase("no deal of this game has ended yet") if last_ended < 1
                                else Phrase("deal {deal} has not ended (deals 1 to {last} have)",
                                            deal=deal, last=last_ended), field="deal")
        # The rules the game was dealt with, not the table's now (configure_table may have
        # changed them since).
        start = Game(game.rules, table.players, partnerships=table.partnerships, seed=game.seed)
        notes = review(start, live.taken, seat, deal=deal, margin=REVIEW_MARGIN)
        self._outbox.reply(conn, rid, {"type": "review", "game": live.game_id, "seat": seat, "deal": deal,
                                       "notes": [note.to_dict() for note in notes]})
