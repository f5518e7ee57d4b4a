"""Game events in words: one small teller per event kind, the one place each is worded.

:func:`tell` turns one event (an ``event`` message's ``event`` field) into :class:`Line` s
from one reader's point of view; :func:`narrate` gives the same as plain text.  A teller
knows the event, the players' names, the reader's seat and -- when a
:class:`~noddy.protocol.table_view.TableView` tells the story -- what that view knew before
the event (whose crib it is, the turn-up, the points of each show), described here by
:class:`Known` so that this module needs nothing from the fold.  Also here: the small
wording helpers both need (seat names, score lines, the count in words, card order).

The front door, with the conventions and how to adopt all this, is :mod:`noddy.protocol.story`.
Standard library only, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, NamedTuple, Protocol, Sequence

#: A part of a :class:`Line`: plain text, or a run of wire cards ("5H", "TC").
Part = str | tuple[str, ...]
#: How a card is written: wire text in, what a reader sees out.
CardFormat = Callable[[str], str]

RANKS = "A23456789TJQK"
SUITS = "CDHS"


def plain_card(card: str) -> str:
    """The wire text itself (``"5H"``): how the text mode writes a card."""
    return card


def card_order(card: str) -> tuple[int, int]:
    """Sort key of a wire card: by rank (ace low), then suit (clubs, diamonds, hearts,
    spades) -- the order players hold a hand in; unknown text sorts last."""
    rank, suit = (card[:-1], card[-1:]) if card else ("", "")
    rank = "T" if rank == "10" else rank
    return (RANKS.index(rank) if rank in RANKS and rank else len(RANKS),
            SUITS.index(suit) if suit in SUITS and suit else len(SUITS))


def sort_cards(cards: Sequence[str]) -> list[str]:
    """``cards`` in the order players hold them (see :func:`card_order`)."""
    return sorted(cards, key=card_order)


_SMALL = ("nought one two three four five six seven eight nine ten eleven twelve thirteen "
          "fourteen fifteen sixteen seventeen eighteen nineteen").split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def number_words(n: int) -> str:
    """The running count as it is called: ``number_words(25) == "twenty-five"``."""
    if not 0 <= n < 100:
        return str(n)
    if n < 20:
        return _SMALL[n]
    tens, ones = divmod(n, 10)
    return _TENS[tens] + ("-" + _SMALL[ones] if ones else "")


def seat_name(seat: int | None, names: Sequence[str | None] = ()) -> str:
    """Who sits in ``seat``: the player's name, else ``"seat N"`` counted from 1 the way
    people count (``"nobody"`` for no seat)."""
    if seat is None:
        return "nobody"
    if 0 <= seat < len(names) and names[seat]:
        return str(names[seat])
    return f"seat {seat + 1}"


def _capital(text: str) -> str:
    """``text`` at the start of a sentence: "seat 2" -> "Seat 2"; names are left as typed."""
    return "S" + text[1:] if text.startswith("seat ") else text


def side_labels(sides: int, names: Sequence[str | None], players: int = 0) -> list[str]:
    """One label for each of ``sides`` score tracks: a player, or with fewer tracks than
    seats a partnership ("Ann & Cy": seats 1 and 3 score together, 0 and 2 in the protocol)."""
    seats = max(players, len(names))
    if 0 < sides < seats:
        return [" & ".join(seat_name(s, names) for s in range(seats) if s % sides == side)
                for side in range(sides)]
    return [seat_name(side, names) for side in range(sides)]


def score_line(scores: Sequence[int], names: Sequence[str | None], players: int = 0) -> str:
    """``Ann 11, Ben 7``: each side's score beside its label."""
    labels = side_labels(len(scores), names, players)
    return ", ".join(f"{label} {score}" for label, score in zip(labels, scores))


class Line(NamedTuple):
    """One line of the story.  ``kind`` is how the client styles it: ``deal`` (a game or a
    deal begins or ends), ``event``, ``score`` or ``win``.  ``parts`` are plain text and
    runs of wire cards (tuples).  (A named tuple: the text mode makes one per event.)"""

    kind: str
    parts: tuple[Part, ...]

    def text(self, card: CardFormat = plain_card) -> str:
        """The line as plain text, every card written by ``card``."""
        out = []
        for part in self.parts:
            out.append(part if isinstance(part, str) else " ".join(map(card, part)))
        return "".join(out)


@dataclass(frozen=True)
class Show:
    """One show (or the crib) counted this deal: the seat, its points, the announcement as
    it was called, and the cards when this reader may see them."""

    seat: int
    points: int
    announcement: str
    crib: bool = False
    cards: tuple[str, ...] | None = None


# == the tellers ============================================================================

class Known(Protocol):
    """What a teller may ask of the view that tells the story (a ``TableView``)."""

    players: int
    deal: int
    dealer: int | None
    turn_up: str | None
    shows: list[Show]
    points_by_reason: dict[int, dict[str, int]]
    best_show: dict[int, int]

    def seats_of_team(self, team: int) -> list[int]: ...


class _Teller:
    """What a teller knows besides the event: the names, the reader's seat and, when the
    story is told by a view, that view as it stood *before* the event."""

    __slots__ = ("names", "seat", "view")

    def __init__(self, names: Sequence[str | None], seat: int | None, view: Known | None) -> None:
        self.names, self.seat, self.view = names, seat, view

    def name(self, seat: int | None) -> str:
        return seat_name(seat, self.names)

    def who(self, seat: int | None) -> str:
        return _capital(self.name(seat))

    def players(self) -> int:
        return self.view.players if self.view is not None else 0

    def whose_crib(self) -> str:
        dealer = self.view.dealer if self.view is not None else None
        if dealer is None:
            return "the"
        return "your" if dealer == self.seat else f"{self.name(dealer)}'s"


def _n(count: int, word: str) -> str:
    return f"{count} {word}{'s' * (count != 1)}"


def _tell_game_started(e: dict[str, Any], t: _Teller) -> list[Line]:
    how = f"{e['players']} players" + (" in partnerships" if e.get("partnerships") else "")
    return [Line("deal", (f"A game of {e['preset']}, {how}, first to {e['target']}.",))]


def _tell_cut_for_deal(e: dict[str, Any], t: _Teller) -> list[Line]:
    parts: list[Part] = ["Cut for deal: "]
    for i, cut in enumerate(e.get("cuts", [])):
        parts += [", " if i else "", f"{t.name(cut['seat'])} ", (cut["card"],)]
    dealer = e.get("dealer")
    parts.append(" — a tie, cut again." if dealer is None else f" — {t.name(dealer)} deals.")
    return [Line("event", tuple(parts))]


def _tell_deal_started(e: dict[str, Any], t: _Teller) -> list[Line]:
    return [Line("deal", (f"— Deal {e['deal']}: {t.name(e['dealer'])} deals —",))]


def _tell_cards_dealt(e: dict[str, Any], t: _Teller) -> list[Line]:
    cards = e.get("cards")
    if cards is None:
        return [Line("event", (f"{t.who(e['seat'])} is dealt {_n(e['count'], 'card')}.",))]
    held = tuple(sort_cards(cards))
    if e["seat"] == t.seat:
        return [Line("event", ("You hold ", held, "."))]
    return [Line("event", (f"{t.who(e['seat'])} is dealt ", held, "."))]


def _tell_discarded(e: dict[str, Any], t: _Teller) -> list[Line]:
    cards = e.get("cards")
    seat = e.get("seat")
    if seat is None:
        if cards:
            return [Line("event", ("The pack gives the crib ", tuple(cards), "."))]
        return [Line("event", ("The pack gives the crib a card.",))]
    if cards is None:
        return [Line("event", (f"{t.who(seat)} lays away {_n(e['count'], 'card')}.",))]
    who = "You lay away " if seat == t.seat else f"{t.who(seat)} lays away "
    return [Line("event", (who, tuple(sort_cards(cards)), f" to {t.whose_crib()} crib."))]


def _tell_turned_up(e: dict[str, Any], t: _Teller) -> list[Line]:
    return [Line("event", ("Turn-up: ", (e["card"],), "."))]


def _tell_scored(e: dict[str, Any], t: _Teller) -> list[Line]:
    who = t.who(e["seat"])
    said = e.get("announcement") or "nothing"
    reason = e.get("reason", "")
    cards = tuple(sort_cards(e.get("cards") or ()))
    if reason == "show":
        if cards:
            return [Line("score", (f"{who} shows ", cards, f": {said}"))]
        return [Line("score", (f"{who} shows: {said}",))]
    if reason == "crib":
        whose = "Your crib" if e["seat"] == t.seat else f"{t.who(e['seat'])}'s crib"
        if cards:
            return [Line("score", (f"{whose} ", cards, f": {said}"))]
        return [Line("score", (f"{whose}: {said}",))]
    if reason == "turn-up":
        return [Line("score", (f"{who}: {said} (the turn-up)",))]
    if reason == "first deal":
        return [Line("score", (f"{who} pegs {e.get('points', 0)} for the first deal.",))]
    return [Line("score", (f"{who}: {said}",))]


def _tell_played(e: dict[str, Any], t: _Teller) -> list[Line]:
    return [Line("event", (f"{t.who(e['seat'])} plays ", (e["card"],),
                           f" — {number_words(e['count'])}"))]


def _tell_go(e: dict[str, Any], t: _Teller) -> list[Line]:
    return [Line("event", (f"{t.who(e['seat'])} says go.",))]


def _tell_count_reset(e: dict[str, Any], t: _Teller) -> list[Line]:
    return [Line("event", ("The count starts again from nought.",))]


def _tell_hands_revealed(e: dict[str, Any], t: _Teller) -> list[Line]:
    """Every hand (and the crib) with the turn-up and its show points, when a view knows
    them; told alone, just the cards."""
    view = t.view
    up: tuple[str, ...] = (view.turn_up,) if view is not None and view.turn_up else ()
    shows = {s.seat: s.points for s in view.shows if not s.crib} if view is not None else {}
    crib_points = next((s.points for s in view.shows if s.crib), None) if view is not None else None
    lines = []

    def row(label: str, cards: Sequence[str], points: int | None) -> Line:
        return Line("event", (f"{label} ", tuple(sort_cards(cards)), " + " if up else "", up,
                              "" if points is None else f": {points}"))

    for seat, hand in enumerate(e.get("hands", [])):
        lines.append(row(f"{t.who(seat)}'s hand", hand, shows.get(seat)))
    crib = e.get("crib")
    if crib is not None:
        dealer = view.dealer if view is not None else None
        label = "The crib" if dealer is None else f"{t.who(dealer)}'s crib"
        lines.append(row(label, crib, crib_points))
    return lines


def _show_label(t: _Teller, seat: int, reason: str) -> str:
    """``"Ann's hand"``, ``"Your crib"``...: a show counted by hand."""
    whose = "Your" if seat == t.seat else f"{t.who(seat)}'s"
    return f"{whose} {'crib' if reason == 'crib' else 'hand'}"


def _tell_counting(e: dict[str, Any], t: _Teller) -> list[Line]:
    up = (e["turn_up"],) if e.get("turn_up") else ()
    return [Line("event", (f"{_show_label(t, e['seat'], e['reason'])} ", tuple(sort_cards(e["cards"])),
                           " + " if up else "", up, " is to be counted."))]


def _tell_claimed(e: dict[str, Any], t: _Teller) -> list[Line]:
    what = "crib" if e.get("reason") == "crib" else "hand"
    return [Line("score", (f"{t.who(e['seat'])} claims {e.get('points')} for the {what}.",))]


def _tell_claim_refused(e: dict[str, Any], t: _Teller) -> list[Line]:
    """A claim above the show's worth: only its claimer is sent this (a record tells all)."""
    what = "crib" if e.get("reason") == "crib" else "hand"
    points, zero = e.get("points"), e.get("counts_as_zero")
    if e.get("seat") == t.seat:
        if zero:
            return [Line("score", (f"That {what} does not hold {points} either: your claim counts as 0.",))]
        return [Line("event", (f"That {what} does not hold {points}. Claim again: a second claim "
                               f"above the {what}'s worth counts as 0.",))]
    if zero:
        return [Line("score", (f"{t.who(e['seat'])} claims {points}, more than the {what} holds "
                               "again: it counts as 0.",))]
    return [Line("event", (f"{t.who(e['seat'])} claims {points}, more than the {what} holds: "
                           "refused once.",))]


def _tell_muggins(e: dict[str, Any], t: _Teller) -> list[Line]:
    caller = t.who(e["seat"])
    verdict = "right!" if e.get("right") else "wrong: nothing pegged."
    return [Line("score", (f"{caller}: muggins, {e['points']} — {verdict}",))]


def _tell_passed(e: dict[str, Any], t: _Teller) -> list[Line]:
    return [Line("event", (f"{t.who(e['seat'])} passes.",))]


def _tell_counted(e: dict[str, Any], t: _Teller) -> list[Line]:
    label = _show_label(t, e["seat"], e["reason"])
    said = e.get("announcement") or "nothing"
    line = f"{label} held {e['worth']} ({said}); {e['claimed']} claimed"
    if e.get("mugged_by") is not None:
        line += f", {e['worth'] - e['claimed']} mugged by {t.who(e['mugged_by'])}"
    elif e.get("lost"):
        line += f", {e['lost']} lost"
    return [Line("score", (line + ".",))]


def _tell_deal_ended(e: dict[str, Any], t: _Teller) -> list[Line]:
    return [Line("deal", (f"After deal {e['deal']}: {score_line(e['scores'], t.names, t.players())}.",))]


#: How a game_over's ``skunk`` is said after the score ("none", or a value a newer server
#: added that this one does not know, says nothing).
_SKUNK_WORDS = {"skunk": ", a skunk", "double": ", a double skunk"}


def _tell_game_over(e: dict[str, Any], t: _Teller) -> list[Line]:
    """The winner and the score; with a view, a summary of where each side's points came
    from and its best hand."""
    scores = list(e.get("scores", []))
    winner = e.get("winner", -1)
    seats = list(e.get("winning_seats", []))
    label = " & ".join(t.name(s) for s in seats) if seats else f"side {winner + 1}"
    verb = "win" if len(seats) > 1 else "wins"
    others = " to ".join(str(s) for i, s in enumerate(scores) if i != winner)
    mine = scores[winner] if 0 <= winner < len(scores) else "?"
    ending = e.get("ending", "target")
    # Who left is named as dealt in (the result's ``names``), not as the computer that played
    # the seat on (issue 33); a result without them names the seat as the reader knows it.
    dealt = list(e.get("names") or [])

    def left(seat: int) -> str:
        return (dealt[seat] if seat < len(dealt) else None) or t.name(seat)
    played_to = list(e.get("played_to") or [])
    if ending == "resignation":
        who = " and ".join(left(s) for s in e.get("resigned", []))
        lines = [Line("win", (f"{_capital(label)} {verb} the game by resignation ({who} resigned), "
                              f"{mine} to {others}!",))]
    elif ending == "abandoned":
        who = " and ".join(left(s) for s in e.get("abandoned", []))
        since = ""
        if len(played_to) == len(scores):  # the deals played on after it count for nothing
            board = " to ".join(str(s) for s in [played_to[winner], *(p for i, p in enumerate(played_to)
                                                                      if i != winner)])
            since = f"; the deals played since, to {board}, do not count"
        lines = [Line("win", (f"{_capital(label)} {verb} the game: {who} left and never came back, which "
                              f"counts as a resignation at {mine} to {others}, the score then{since}!",))]
    else:
        skunk = _SKUNK_WORDS.get(str(e.get("skunk")), "")
        lines = [Line("win", (f"{_capital(label)} {verb} the game, {mine} to {others}{skunk}!",))]
        gone = [f"{left(s)} resigned" for s in e.get("resigned", [])]
        gone += [f"{left(s)} left and never came back" for s in e.get("abandoned", [])]
        if gone:  # a loss for each, whatever the computer playing it on did
            lines.append(Line("win", (f"({_capital('; '.join(gone))}: a loss.)",)))
    view = t.view
    if view is not None and view.deal:
        if len(played_to) == len(scores):  # the summary adds up to the board as played
            scores = played_to
        as_played = " (as played)" if played_to else ""
        lines.append(Line("win", (f"Summary after {_n(view.deal, 'deal')}{as_played}:",)))
        summary_names = [left(s) for s in range(len(t.names))] if dealt else t.names
        for team, side in enumerate(side_labels(len(scores), summary_names, view.players)):
            parts = view.points_by_reason.get(team, {})
            detail = ", ".join(f"{reason} {points}" for reason, points in sorted(parts.items())
                               if points)
            best = max((view.best_show.get(s, 0) for s in view.seats_of_team(team)), default=0)
            lines.append(Line("win", (f"  {side}: {scores[team]} ({detail or 'nothing'}; "
                                      f"best hand {best})",)))
    return lines


#: One teller per event kind: the one place each kind is put into words.
TELLERS: dict[str, Callable[[dict[str, Any], _Teller], list[Line]]] = {
    "game_started": _tell_game_started,
    "cut_for_deal": _tell_cut_for_deal,
    "deal_started": _tell_deal_started,
    "cards_dealt": _tell_cards_dealt,
    "discarded": _tell_discarded,
    "turned_up": _tell_turned_up,
    "scored": _tell_scored,
    "played": _tell_played,
    "go": _tell_go,
    "count_reset": _tell_count_reset,
    "hands_revealed": _tell_hands_revealed,
    "counting": _tell_counting,
    "claimed": _tell_claimed,
    "claim_refused": _tell_claim_refused,
    "muggins": _tell_muggins,
    "passed": _tell_passed,
    "counted": _tell_counted,
    "deal_ended": _tell_deal_ended,
    "game_over": _tell_game_over,
}


def tell(event: dict[str, Any], names: Sequence[str | None], seat: int | None = None,
         view: Known | None = None) -> list[Line]:
    """``event`` (the ``event`` field of an ``event`` message) as lines, from ``seat``'s point
    of view (None: a spectator or a replay).  ``view`` is what the reader knew before the
    event (whose crib it is, the turn-up, the shows); without it some lines say less.  An
    event kind this version does not know is told by nobody: ``[]``."""
    teller = TELLERS.get(str(event.get("kind")))
    if teller is None:
        return []
    return teller(event, _Teller(names, seat, view))


def narrate(event: dict[str, Any], names: Sequence[str | None], seat: int | None = None, *,
            card: CardFormat = plain_card, view: Known | None = None) -> str | None:
    """``event`` told in words (lines joined by newlines), cards written by ``card``; None
    for an event kind nobody tells.  See :func:`tell`."""
    lines = tell(event, names, seat, view)
    if not lines:
        return None
    return "\n".join(line.text(card) for line in lines)


__all__ = ["Part", "CardFormat", "Line", "Show", "Known", "TELLERS", "tell", "narrate",
           "plain_card", "card_order", "sort_cards", "number_words", "seat_name", "side_labels",
           "score_line", "RANKS", "SUITS"]
