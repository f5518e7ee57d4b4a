"""Game events in words: one small teller per event kind, the one place each is worded.

:func:`tell` turns one event (an ``event`` message's ``event`` field) into :class:`Line` s
from one reader's point of view; :func:`narrate` gives the same as plain text.  A teller
knows the event, the players' names, the reader's seat and -- when a
:class:`~noddy.protocol.table_view.TableView` tells the story -- what that view knew before
the event (whose crib it is, the turn-up, the points of each show), described here by
:class:`Known` so that this module needs nothing from the fold.  Also here: card order;
the small wording helpers (seat names, score lines, the count in words, :class:`Line`) are
in :mod:`.wording` and the end of a game in :mod:`.game_end_words`, re-exported here.

Every line is said in the current language (:mod:`noddy.protocol.i18n`): each template is
marked for the catalogs, and a score's call is the wire's English ``announcement`` in
English, else said again from its items (:func:`said_call`, :mod:`.calls`).

The front door, with the conventions and how to adopt all this, is :mod:`noddy.protocol.story`.
Standard library only, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Protocol, Sequence

from .calls import announce
from .i18n import DEFAULT_LANGUAGE, _, current_language, ngettext
from .game_end_words import tell_game_over as _tell_game_over
from .wording import (CardFormat, Line, Part, and_list, number_words, plain_card, score_line,
                      score_to, seat_name, side_labels, with_cards)
from .wording import capital as _capital


RANKS = "A23456789TJQK"
SUITS = "CDHS"


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

    def crib_owner(self) -> int | None:
        """The dealer, whose crib it is, when the view knows."""
        return self.view.dealer if self.view is not None else None


def said_call(e: dict[str, Any]) -> str:
    """How a score event's points were called: the wire's ``announcement`` in English,
    else the call said again from its items in the current language (``"nothing"``: no
    items)."""
    if current_language() == DEFAULT_LANGUAGE:
        return e.get("announcement") or "nothing"
    concealed = bool(e.get("concealed")) and e.get("cards") is None
    return announce(e.get("items") or (), 0, concealed)


def _tell_game_started(e: dict[str, Any], t: _Teller) -> list[Line]:
    if e.get("partnerships"):
        text = _("A game of {preset}, {players} players in partnerships, first to {target}.")
    else:
        text = _("A game of {preset}, {players} players, first to {target}.")
    return [Line("deal", (text.format(preset=e["preset"], players=e["players"], target=e["target"]),))]


def _tell_cut_for_deal(e: dict[str, Any], t: _Teller) -> list[Line]:
    parts: list[Part] = [_("Cut for deal: ")]
    for i, cut in enumerate(e.get("cuts", [])):
        parts += [", " if i else "", f"{t.name(cut['seat'])} ", (cut["card"],)]
    dealer = e.get("dealer")
    parts.append(_(" — a tie, cut again.") if dealer is None
                 else _(" — {who} deals.").format(who=t.name(dealer)))
    return [Line("event", tuple(parts))]


def _tell_deal_started(e: dict[str, Any], t: _Teller) -> list[Line]:
    return [Line("deal", (_("— Deal {deal}: {who} deals —").format(deal=e["deal"], who=t.name(e["dealer"])),))]


def _tell_cards_dealt(e: dict[str, Any], t: _Teller) -> list[Line]:
    cards = e.get("cards")
    if cards is None:
        text = ngettext("{who} is dealt {n} card.", "{who} is dealt {n} cards.", e["count"])
        return [Line("event", (text.format(who=t.who(e["seat"]), n=e["count"]),))]
    held = tuple(sort_cards(cards))
    if e["seat"] == t.seat:
        return [Line("event", with_cards(_("You hold {cards}."), cards=held))]
    return [Line("event", with_cards(_("{who} is dealt {cards}."), who=t.who(e["seat"]), cards=held))]


def _tell_discarded(e: dict[str, Any], t: _Teller) -> list[Line]:
    cards = e.get("cards")
    seat = e.get("seat")
    if seat is None:
        if cards:
            return [Line("event", with_cards(_("The pack gives the crib {cards}."), cards=tuple(cards)))]
        return [Line("event", (_("The pack gives the crib a card."),))]
    if cards is None:
        text = ngettext("{who} lays away {n} card.", "{who} lays away {n} cards.", e["count"])
        return [Line("event", (text.format(who=t.who(seat), n=e["count"]),))]
    owner = t.crib_owner()
    if seat == t.seat:
        if owner is None:
            text = _("You lay away {cards} to the crib.")
        elif owner == t.seat:
            text = _("You lay away {cards} to your crib.")
        else:
            text = _("You lay away {cards} to {owner}'s crib.")
    elif owner is None:
        text = _("{who} lays away {cards} to the crib.")
    elif owner == t.seat:
        text = _("{who} lays away {cards} to your crib.")
    else:
        text = _("{who} lays away {cards} to {owner}'s crib.")
    return [Line("event", with_cards(text, who=t.who(seat), cards=tuple(sort_cards(cards)),
                                     owner=t.name(owner)))]


def _tell_turned_up(e: dict[str, Any], t: _Teller) -> list[Line]:
    return [Line("event", with_cards(_("Turn-up: {card}."), card=(e["card"],)))]


def _tell_scored(e: dict[str, Any], t: _Teller) -> list[Line]:
    who = t.who(e["seat"])
    said = said_call(e)
    reason = e.get("reason", "")
    cards = tuple(sort_cards(e.get("cards") or ()))
    if reason == "show":
        if cards:
            return [Line("score", with_cards(_("{who} shows {cards}: {said}"), who=who, cards=cards, said=said))]
        return [Line("score", (_("{who} shows: {said}").format(who=who, said=said),))]
    if reason == "crib":
        if e["seat"] == t.seat:
            text = _("Your crib {cards}: {said}") if cards else _("Your crib: {said}")
        else:
            text = _("{who}'s crib {cards}: {said}") if cards else _("{who}'s crib: {said}")
        return [Line("score", with_cards(text, who=who, cards=cards, said=said))]
    if reason == "turn-up":
        return [Line("score", (_("{who}: {said} (the turn-up)").format(who=who, said=said),))]
    if reason == "first deal":
        points = e.get("points", 0)
        text = ngettext("{who} pegs {n} for the first deal.", "{who} pegs {n} for the first deal.", points)
        return [Line("score", (text.format(who=who, n=points),))]
    return [Line("score", (_("{who}: {said}").format(who=who, said=said),))]


def _tell_played(e: dict[str, Any], t: _Teller) -> list[Line]:
    return [Line("event", with_cards(_("{who} plays {card} — {count}"), who=t.who(e["seat"]),
                                     card=(e["card"],), count=number_words(e["count"])))]


def _tell_go(e: dict[str, Any], t: _Teller) -> list[Line]:
    return [Line("event", (_("{who} says go.").format(who=t.who(e["seat"])),))]


def _tell_count_reset(e: dict[str, Any], t: _Teller) -> list[Line]:
    return [Line("event", (_("The count starts again from nought."),))]


def _hand_label(t: _Teller, seat: int) -> str:
    return _("{who}'s hand").format(who=t.who(seat))


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
        lines.append(row(_hand_label(t, seat), hand, shows.get(seat)))
    crib = e.get("crib")
    if crib is not None:
        dealer = view.dealer if view is not None else None
        label = _("The crib") if dealer is None else _("{who}'s crib").format(who=t.who(dealer))
        lines.append(row(label, crib, crib_points))
    return lines


def _show_label(t: _Teller, seat: int, reason: str) -> str:
    """``"Ann's hand"``, ``"Your crib"``...: a show counted by hand."""
    if reason == "crib":
        return _("Your crib") if seat == t.seat else _("{who}'s crib").format(who=t.who(seat))
    return _("Your hand") if seat == t.seat else _hand_label(t, seat)


def _tell_counting(e: dict[str, Any], t: _Teller) -> list[Line]:
    up = (e["turn_up"],) if e.get("turn_up") else ()
    text = _("{show} {cards} + {turn_up} is to be counted.") if up else _("{show} {cards} is to be counted.")
    return [Line("event", with_cards(text, show=_show_label(t, e["seat"], e["reason"]),
                                     cards=tuple(sort_cards(e["cards"])), turn_up=up))]


def _tell_claimed(e: dict[str, Any], t: _Teller) -> list[Line]:
    if e.get("reason") == "crib":
        text = _("{who} claims {points} for the crib.")
    else:
        text = _("{who} claims {points} for the hand.")
    return [Line("score", (text.format(who=t.who(e["seat"]), points=e.get("points")),))]


def _tell_claim_refused(e: dict[str, Any], t: _Teller) -> list[Line]:
    """A claim above the show's worth: only its claimer is sent this (a record tells all)."""
    crib = e.get("reason") == "crib"
    points, zero = e.get("points"), e.get("counts_as_zero")
    if e.get("seat") == t.seat:
        if zero:
            text = (_("That crib does not hold {points} either: your claim counts as 0.") if crib
                    else _("That hand does not hold {points} either: your claim counts as 0."))
            return [Line("score", (text.format(points=points),))]
        text = (_("That crib does not hold {points}. Claim again: a second claim above the crib's "
                  "worth counts as 0.") if crib
                else _("That hand does not hold {points}. Claim again: a second claim above the "
                       "hand's worth counts as 0."))
        return [Line("event", (text.format(points=points),))]
    if zero:
        text = (_("{who} claims {points}, more than the crib holds again: it counts as 0.") if crib
                else _("{who} claims {points}, more than the hand holds again: it counts as 0."))
        return [Line("score", (text.format(who=t.who(e["seat"]), points=points),))]
    text = (_("{who} claims {points}, more than the crib holds: refused once.") if crib
            else _("{who} claims {points}, more than the hand holds: refused once."))
    return [Line("event", (text.format(who=t.who(e["seat"]), points=points),))]


def _tell_muggins(e: dict[str, Any], t: _Teller) -> list[Line]:
    if e.get("right"):
        text = _("{who}: muggins, {points} — right!")
    else:
        text = _("{who}: muggins, {points} — wrong: nothing pegged.")
    return [Line("score", (text.format(who=t.who(e["seat"]), points=e["points"]),))]


def _tell_passed(e: dict[str, Any], t: _Teller) -> list[Line]:
    return [Line("event", (_("{who} passes.").format(who=t.who(e["seat"])),))]


def _tell_counted(e: dict[str, Any], t: _Teller) -> list[Line]:
    label = _show_label(t, e["seat"], e["reason"])
    said = said_call(e)
    if e.get("mugged_by") is not None:
        text = _("{show} held {worth} ({said}); {claimed} claimed, {mugged} mugged by {who}.")
    elif e.get("lost"):
        text = _("{show} held {worth} ({said}); {claimed} claimed, {lost} lost.")
    else:
        text = _("{show} held {worth} ({said}); {claimed} claimed.")
    mugger = e.get("mugged_by")
    return [Line("score", (text.format(show=label, worth=e["worth"], said=said, claimed=e["claimed"],
                                       mugged=e["worth"] - e["claimed"], lost=e.get("lost"),
                                       who=t.who(mugger) if mugger is not None else ""),))]


def _tell_deal_ended(e: dict[str, Any], t: _Teller) -> list[Line]:
    return [Line("deal", (_("After deal {deal}: {scores}.").format(
        deal=e["deal"], scores=score_line(e["scores"], t.names, t.players())),))]


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


__all__ = ["said_call", "with_cards", "and_list", "score_to", "Part", "CardFormat", "Line", "Show", "Known", "TELLERS", "tell", "narrate",
           "plain_card", "card_order", "sort_cards", "number_words", "seat_name", "side_labels",
           "score_line", "RANKS", "SUITS"]
