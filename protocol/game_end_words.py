"""How the end of a game is told: the winner and the score, how it ended (a resignation, a
seat left and never taken back, a skunk), and a summary of where each side's points came
from.  The longest of the narration's tellers (:mod:`.narration` lists it with the others),
in a module of its own.  Standard library only, no I/O.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from .i18n import N_, _, ngettext, pgettext
from .wording import Line, and_list, capital, score_to, side_labels

if TYPE_CHECKING:
    from .narration import _Teller as Teller



#: How a game_over's ``skunk`` is said after the score ("none", or a value a newer server
#: added that this one does not know, says nothing).
_SKUNK_WORDS = {"skunk": N_(", a skunk"), "double": N_(", a double skunk")}
#: Where a side's points came from, as the summary names it (a ``scored`` event's ``reason``).
_REASONS: dict[str, Callable[[], str]] = {
    "show": lambda: pgettext("points from", "show"),
    "crib": lambda: pgettext("points from", "crib"),
    "play": lambda: pgettext("points from", "play"),
    "turn-up": lambda: pgettext("points from", "turn-up"),
    "first deal": lambda: pgettext("points from", "first deal"),
    "claim": lambda: pgettext("points from", "claim"),
    "muggins": lambda: pgettext("points from", "muggins"),
}


def _won(count: int) -> int:
    """The ``n`` of a "{who} wins" sentence: winners said as one (a player, or "side 2")
    or as two or more (partners)."""
    return 2 if count > 1 else 1


def tell_game_over(e: dict[str, Any], t: Teller) -> list[Line]:
    """The winner and the score; with a view, a summary of where each side's points came
    from and its best hand."""
    scores = list(e.get("scores", []))
    winner = e.get("winner", -1)
    seats = list(e.get("winning_seats", []))
    label = capital(" & ".join(t.name(s) for s in seats) if seats
                     else _("side {n}").format(n=winner + 1))
    won = _won(len(seats))
    mine = scores[winner] if 0 <= winner < len(scores) else "?"
    score = score_to([mine, *(s for i, s in enumerate(scores) if i != winner)])
    ending = e.get("ending", "target")
    # Who left is named as dealt in (the result's ``names``), not as the computer that played
    # the seat on (issue 33); a result without them names the seat as the reader knows it.
    dealt = list(e.get("names") or [])

    def left(seat: int) -> str:
        return (dealt[seat] if seat < len(dealt) else None) or t.name(seat)
    played_to = list(e.get("played_to") or [])
    if ending == "resignation":
        text = ngettext("{who} wins the game by resignation ({gone} resigned), {score}!",
                        "{who} win the game by resignation ({gone} resigned), {score}!", won)
        gone = and_list([left(s) for s in e.get("resigned", [])])
        lines = [Line("win", (text.format(who=label, gone=gone, score=score),))]
    elif ending == "abandoned":
        gone = and_list([left(s) for s in e.get("abandoned", [])])
        since = ""
        if len(played_to) == len(scores):  # the deals played on after it count for nothing
            board = score_to([played_to[winner], *(p for i, p in enumerate(played_to) if i != winner)])
            since = _("; the deals played since, to {board}, do not count").format(board=board)
        text = ngettext("{who} wins the game: {gone} left and never came back, which counts as a "
                        "resignation at {score}, the score then{since}!",
                        "{who} win the game: {gone} left and never came back, which counts as a "
                        "resignation at {score}, the score then{since}!", won)
        lines = [Line("win", (text.format(who=label, gone=gone, score=score, since=since),))]
    else:
        skunk = _SKUNK_WORDS.get(str(e.get("skunk")))
        text = ngettext("{who} wins the game, {score}{skunk}!", "{who} win the game, {score}{skunk}!", won)
        lines = [Line("win", (text.format(who=label, score=score, skunk=_(skunk) if skunk else ""),))]
        gone = [_("{who} resigned").format(who=left(s)) for s in e.get("resigned", [])]
        gone += [_("{who} left and never came back").format(who=left(s)) for s in e.get("abandoned", [])]
        if gone:  # a loss for each, whatever the computer playing it on did
            lines.append(Line("win", (_("({who}: a loss.)").format(who=capital("; ".join(gone))),)))
    view = t.view
    if view is not None and view.deal:
        if len(played_to) == len(scores):  # the summary adds up to the board as played
            scores = played_to
        if played_to:
            text = ngettext("Summary after {n} deal (as played):", "Summary after {n} deals (as played):",
                            view.deal)
        else:
            text = ngettext("Summary after {n} deal:", "Summary after {n} deals:", view.deal)
        lines.append(Line("win", (text.format(n=view.deal),)))
        summary_names = [left(s) for s in range(len(t.names))] if dealt else t.names
        for team, side in enumerate(side_labels(len(scores), summary_names, view.players)):
            parts = view.points_by_reason.get(team, {})
            detail = ", ".join(f"{_REASONS[reason]() if reason in _REASONS else reason} {points}"
                               for reason, points in sorted(parts.items()) if points)
            best = max((view.best_show.get(s, 0) for s in view.seats_of_team(team)), default=0)
            lines.append(Line("win", (_("  {side}: {score} ({detail}; best hand {best})").format(
                side=side, score=scores[team], detail=detail or pgettext("call", "nothing"), best=best),)))
    return lines
