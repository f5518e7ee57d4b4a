"""The replay screen's drawing: the step and the pile, every hand face up, the title.

:class:`~noddy.client.screens.records.RecordsView` holds the replay
(:class:`~noddy.client.screens.replay.Replay`) and puts these up as part of its screens
(:func:`~noddy.client.screens.records.build_layout`); they live apart from the lists of
finished games, which are drawn there, because they draw one game's frame, not a list.
"""

from __future__ import annotations

from noddy.protocol.i18n import _, say

from .. import render
from .replay import Replay

Fragments = list[tuple[str, str]]


def step_fragments(replay: Replay, width: int = 80) -> Fragments:
    """What this step was, where it stands, and the turn-up, count and pile; in ``width``
    columns: the headline cut between words (the log below tells it whole), the pile's
    oldest cards left out (issue 33, item 8)."""
    frame = replay.frame
    step = " " + _("Step {step}/{steps}").format(step=frame.index, steps=len(replay.frames) - 1)
    deal = " · " + _("deal {deal}/{deals}").format(deal=frame.deal, deals=replay.deals) + " · "
    room = width - len(step + deal) - render.EDGE
    out: Fragments = [("class:key", step), ("class:dim", deal),
                      ("class:label", render.fit_words(say(frame.headline), room)), ("", "\n")]
    out += [("class:label", " " + _("Turn-up") + " ")]
    out += [("", "["), *render.card_fragments(frame.turn_up), ("", "]")] if frame.turn_up else [("class:dim", "[  ]")]
    out += [("class:label", "   " + _("Count") + " "), ("class:key", f"{frame.count:>2}"),
            ("class:label", "   " + _("Pile") + " ")]
    if not frame.pile:
        out.append(("class:dim", "—"))
    marks = replay.seat_marks()
    room = width - render.EDGE - len(render.plain(out).split("\n")[-1])
    pile: Fragments = []
    for seat, card in reversed(frame.pile[-12:]):  # the newest first, as many as fit
        played = [("class:dim", f"{marks[seat]}:"), *render.card_fragments(card)]
        if len(render.plain(played + pile)) + bool(pile) > room:
            break
        pile = played + ([("", " ")] if pile else []) + pile
    return out + pile + [("", "\n")]


def hands_fragments(replay: Replay) -> Fragments:
    """Every hand, face up (the game is over): cards already played this deal are dimmed
    during the play; the seat that just acted is marked ▶; then the crib."""
    frame = replay.frame
    width = min(16, max(len(say(replay.seat_name(s))) for s in range(replay.players)) + 1)
    dealer_word = _("dealer")
    mark_width = max(7, len(dealer_word) + 1)
    out: Fragments = []
    dim = frame.played if frame.phase == "play" else frozenset()
    for seat in range(replay.players):
        marker = "▶" if seat == frame.seat else " "
        name = _fitted_name(say(replay.seat_name(seat)), width - 1)
        dealer = dealer_word if seat == frame.dealer else ""
        style = "class:key" if seat == frame.seat else "class:label"
        out += [(style, f" {marker}{name:<{width}}"), ("class:dim", f"{dealer:<{mark_width}}")]
        out += render.cards_inline(frame.hands[seat], dim) if frame.hands[seat] else [("class:dim", "—")]
        out.append(("", "\n"))
    if frame.crib:
        out += [("class:label", f"  {_('crib'):<{width}}"), ("class:dim", " " * mark_width),
                *render.cards_inline(frame.crib),
                ("", "\n")]
    return out


def _fitted_name(name: str, room: int) -> str:
    """``name`` in at most ``room`` characters: a computer player's short form first
    ("greedy cpu 2", as on the peg board), since cutting "greedy computer 2" loses the seat
    number that tells four computers apart; a name still too long ends in ``…``."""
    return render.fit(render.compact(name) if len(name) > room else name, room)


def replay_title(replay: Replay) -> str:
    record = replay.record
    return _("Replay of game {game} · {preset} to {target}").format(
        game=record['id'], preset=record['preset'], target=replay.target)


__all__ = ["step_fragments", "hands_fragments", "replay_title"]
