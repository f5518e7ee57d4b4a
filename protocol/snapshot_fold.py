"""Taking over a ``snapshot``: a :class:`~noddy.protocol.table_view.TableView` starts afresh
from the server's snapshot of a table -- its events retold, each with the names of who made
it (its ``dealt`` and ``seat_changes``: :mod:`.seat_history`), then its ``game``, the
server's own view, taken over them, then its ``turn``.  A part of its own, apart from the
per-event folds of :mod:`.table_view`, because it is the one place a view is replaced
rather than changed.  Standard library only, no I/O.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .narration import Line, sort_cards
from .seat_history import names_then, snapshot_changes

if TYPE_CHECKING:
    from .table_view import TableView


def apply_snapshot(view: TableView, m: dict[str, Any]) -> list[Line]:
    """Start afresh from the server's snapshot: its events retold, then its ``game``
    (the server's own view) taken over them, then its ``turn``."""
    summary = m.get("table") or {}
    fresh = type(view)(seat=m.get("seat"), names=list(view.names),
                      table_id=summary.get("id", view.table_id))
    view.__dict__.update(fresh.__dict__)
    view.apply_table(summary)
    lines: list[Line] = []
    # Who sat where when: each event retold with the names of its moment (issue 33).
    view.dealt, view.seat_changes = snapshot_changes(m)
    now = list(view.names)
    for entry in m.get("events", []):
        seq = entry.get("seq")
        if view.dealt:
            view.names = names_then(view.dealt, view.seat_changes, seq if isinstance(seq, int) else view.seq)
        lines += view.apply_event(entry["event"])
        if isinstance(seq, int):  # (a private event has none)
            view.seq = seq
    view.names = now
    view.seq = m.get("seq", view.seq)
    game = m.get("game")
    if game is not None:
        adopt(view, game)
    turn = m.get("turn")
    if turn is not None:
        view.apply(turn)
    elif game is not None:       # no turn: nobody is to act (the game is over)
        view.to_move, view.awaiting, view.legal_actions = None, [], []
    return lines


def adopt(view: TableView, game: dict[str, Any]) -> None:
    """The server's observation is the truth: take it over what the events said."""
    view.preset = game.get("preset", view.preset)
    view.players = game.get("players", view.players)
    view.partnerships = game.get("partnerships", view.partnerships)
    view.target = game.get("target", view.target)
    view.deal = game.get("deal", view.deal)
    view.dealer = game.get("dealer", view.dealer)
    view.phase = game.get("phase", view.phase)
    view.hand_sizes = list(game.get("hand_sizes", view.hand_sizes))
    view.size_hands()
    if view.seat is not None and game.get("hand") is not None and view.seat < view.players:
        view.hands[view.seat] = sort_cards(game["hand"])
    view.crib_size = game.get("crib_size", view.crib_size)
    view.turn_up = game.get("turn_up")
    played = [(p["seat"], p["card"]) for p in game.get("played", [])]
    pile = game.get("pile", [])
    if [p[1] for p in played] != [p[1] for p in view.played] or len(view.played_by) != len(played):
        view.played_by = [view.names[s] if 0 <= s < len(view.names) else "" for s, _ in played]
    view.played = played
    view.pile = played[len(played) - len(pile):] if pile else []
    view.count = game.get("count", 0)
    view.passed = list(game.get("passed", []))
    view.discarded = list(game.get("discarded", []))
    if game.get("laid_away") is not None:
        view.laid_away = list(game["laid_away"])
    scores = list(game.get("scores", view.scores))
    if len(view.back_pegs) != len(scores):
        view.back_pegs = [0] * len(scores)
    view.scores = scores
    view.to_move = game.get("to_move")
    view.legal_actions = [dict(a) for a in game.get("legal_actions", [])]
    view.awaiting = []           # the snapshot's turn says who is awaited
    view.winner = game.get("winner", view.winner)
    counting = game.get("counting")
    view.counting = None if counting is None else dict(counting)
