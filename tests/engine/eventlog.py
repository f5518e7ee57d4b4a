"""A compact, one-line-an-event rendering of engine events, so that full deals can be
written out in tests as readable expected logs."""

from __future__ import annotations

from noddy.engine import (
    CardsDealt, CountReset, CutForDeal, DealEnded, DealStarted, Discarded, Event, GameOver,
    GameStarted, HandsRevealed, Played, SaidGo, Scored, TurnedUp, format_cards,
)


def first_deal(events: list[Event]) -> list[Event]:
    """``events`` up to and including the first deal's ``DealEnded``."""
    out = []
    for event in events:
        out.append(event)
        if isinstance(event, DealEnded):
            break
    return out


def _cards(cards) -> str:
    return format_cards(cards) if cards is not None else "?"


def render(event: Event) -> str:
    if isinstance(event, GameStarted):
        return f"game {event.preset} players={event.players} target={event.target}"
    if isinstance(event, CutForDeal):
        cuts = " ".join(f"{s}:{c}" for s, c in event.cuts)
        return f"cut {cuts} -> dealer {event.dealer}"
    if isinstance(event, DealStarted):
        return f"deal {event.deal} dealer {event.dealer}"
    if isinstance(event, CardsDealt):
        return f"dealt {event.seat}: {_cards(event.cards)}"
    if isinstance(event, Discarded):
        who = "pack" if event.seat is None else event.seat
        return f"crib {who}: {_cards(event.cards)}"
    if isinstance(event, TurnedUp):
        return f"turn-up {event.card}"
    if isinstance(event, Played):
        return f"play {event.seat} {event.card} = {event.count}"
    if isinstance(event, SaidGo):
        return f"go {event.seat}"
    if isinstance(event, CountReset):
        return "reset"
    if isinstance(event, Scored):
        items = ", ".join(f"{i.kind} {i.points}" for i in event.items)
        shown = f" [{_cards(event.cards)}]" if event.cards is not None else ""
        scores = "-".join(map(str, event.scores))
        return f"{event.reason} {event.seat}{shown} +{event.points} ({items}) -> {scores}"
    if isinstance(event, HandsRevealed):
        hands = " | ".join(_cards(h) for h in event.hands)
        crib = f" crib {_cards(event.crib)}" if event.crib is not None else ""
        return f"reveal {hands}{crib}"
    if isinstance(event, DealEnded):
        return f"end of deal {event.deal}: " + "-".join(map(str, event.scores))
    if isinstance(event, GameOver):
        return f"game over: winner {event.winner} " + "-".join(map(str, event.scores))
    raise AssertionError(f"unrendered event {event!r}")
