"""The coach: ``hint`` (the choices of the seat to move, ranked) and ``review`` (a deal's
decisions that fell clearly short of the best).

Owns: the requests ``hint`` and ``review``, and the review of a stored game (answered from
:meth:`Queries._answer_game` when a ``get_game`` query carries ``review``).  The evaluation
itself is :mod:`noddy.bots.coach`, the expert computer player's arithmetic, given only what
the asking seat can see (:meth:`Game.observation`), so a hint never shows a hidden card.

Why a table option: help from the coach is help a rated game must not have, so ``hint`` and
a live ``review`` work only at a table created with ``hints: true`` (such a table is
unrated, and its summary says ``"rated": false``).  The coach never counts a show for
anyone when shows are counted by hand: a hint is refused while a claim or muggins is owed.
A stored, finished game can be reviewed by anyone who may read its record.

Touches nothing: it reads a table's game and the actions taken (``LiveGame.taken``).
"""

from __future__ import annotations

from typing import Any

from noddy.bots.coach import advise, review
from noddy.engine import Game
from noddy.protocol import ProtocolError

from .core_state import CoreState
from .instructions import Query
from ..storage.records import StoredGame, new_game, record_actions
from ..model.session import Connection
from ..model.table import PLAYING, Table

#: How much worse than the best a decision must be (in expected points) to be noted.
REVIEW_MARGIN = 1.0


def _hints_off(table: Table) -> ProtocolError:
    return ProtocolError(
        "hints_off", f"table {table.id} has no coach: hints are a table option (hints: true) "
                     "of unrated tables, chosen when the table is made")


class Coaching(CoreState):
    """``hint`` and ``review``; see the module docstring."""

    def _on_hint(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        session = self._session(conn)
        table, seat = self._my_seat(session)
        if not table.hints:
            raise _hints_off(table)
        game = table.game
        if game is None or table.status != PLAYING:
            raise ProtocolError("no_game", f"no game is being played at table {table.id}")
        if seat not in game.awaiting:
            raise ProtocolError("not_your_turn", "the coach answers the seat that is to decide, "
                                                 "and it is not your turn")
        if game.phase not in ("discard", "play"):
            raise ProtocolError("no_hint", "the coach does not count a show for anyone: count "
                                           "it yourself (claim, or muggins, or pass)")
        choices = advise(game.observation(seat), game.rules)
        self._reply(conn, rid, {"type": "hint", "table": table.id, "seat": seat,
                                "decision": game.phase, "choices": [c.to_dict() for c in choices]})

    def _on_review(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        session = self._session(conn)
        if f["game"] is not None:  # a stored, finished game: read it first
            self._charge_query(conn)
            args = {"game": f["game"], "viewer": session.name, "password": None,
                    "review": {"seat": f["seat"], "deal": f["deal"]}}
            self._read_game(conn, Query(conn.id, rid, "get_game", args))
            return
        table, seat = self._my_seat(session)
        if not table.hints:
            raise _hints_off(table)
        game, live = table.game, table.live
        if game is None or live is None:
            raise ProtocolError("no_game", f"no game has been played at table {table.id}")
        if f["seat"] is not None and f["seat"] != seat:
            raise ProtocolError("bad_field", f"a game being played is reviewed for your own seat "
                                f"({seat}) only", field="seat")
        last_ended = game.deal if game.is_over else game.deal - 1
        deal = last_ended if f["deal"] is None else f["deal"]
        if deal < 1 or deal > last_ended:
            raise ProtocolError("no_such_deal", "no deal of this game has ended yet" if last_ended < 1
                                else f"deal {deal} has not ended (deals 1 to {last_ended} have)",
                                field="deal")
        start = Game(table.rules, table.players, partnerships=table.partnerships, seed=game.seed)
        notes = review(start, live.taken, seat, deal=deal, margin=REVIEW_MARGIN)
        self._reply(conn, rid, {"type": "review", "game": live.game_id, "seat": seat, "deal": deal,
                                "notes": [note.to_dict() for note in notes]})

    def _answer_review(self, conn: Connection, query: Query, stored: StoredGame) -> None:
        """Reply to ``review`` of a stored game the asker may read."""
        record = stored.record
        wanted = query.args["review"]
        seat = wanted["seat"]
        if seat is None:  # the seat the asker sat in, if any
            mine = [s["seat"] for s in record["seats"] if s["kind"] == "human" and s["name"] == query.args["viewer"]]
            if not mine:
                raise ProtocolError("missing_field", "you did not sit in that game: say which seat "
                                    "to review", field="seat")
            seat = mine[0]
        if seat >= record["players"]:
            raise ProtocolError("no_such_seat", f"game {record['id']} had seats 0 to "
                                f"{record['players'] - 1}, not {seat}", field="seat")
        notes = review(new_game(record), record_actions(record), seat, deal=wanted["deal"],
                       margin=REVIEW_MARGIN)
        self._reply(conn, query.request_id, {"type": "review", "game": record["id"], "seat": seat,
                                             "deal": wanted["deal"],
                                             "notes": [note.to_dict() for note in notes]})
