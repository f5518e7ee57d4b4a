"""The hidden-information audit: which cards each recipient was entitled to see, and when.

Entitlement is computed from the server's own true record of the game (``Table.log``, the
unredacted events with their seq numbers), never from what the clients received: at the
moment of event ``seq`` a seat may see the cards made public so far *in the current deal*
(cuts, the turn-up, played cards, shows not concealed, revealed hands) and the cards it was
dealt in that deal; a spectator only the public ones.
"""

from __future__ import annotations

import re
from typing import Any, Iterator

from noddy.engine import (CardsDealt, CountingStarted, CutForDeal, DealStarted, Event, HandsRevealed,
                          Played, Scored, TurnedUp)

CARD = re.compile(r"^(10|[A2-9TJQK])[CDHS]$")


def cards_in(value: Any) -> Iterator[str]:
    """Every string in a JSON value that is a card."""
    if isinstance(value, str):
        if CARD.match(value):
            yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from cards_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from cards_in(item)


class Entitlement:
    """``allowed(seq, seat)``: the cards ``seat`` (None: spectator) may see at event ``seq``."""

    def __init__(self, log: list[tuple[int | None, Event]], players: int) -> None:
        self._public: dict[int, frozenset[str]] = {}
        self._own: dict[int, tuple[frozenset[str], ...]] = {}
        public: set[str] = set()
        own: list[set[str]] = [set() for _ in range(players)]
        for seq, event in log:
            if seq is None:  # a private event (a claim refused): it shows no card
                continue
            if isinstance(event, DealStarted):
                public = set()
                own = [set() for _ in range(players)]
            elif isinstance(event, CardsDealt):
                own[event.seat] |= {str(c) for c in event.cards or ()}
            elif isinstance(event, CutForDeal):
                public |= {str(card) for _, card in event.cuts}
            elif isinstance(event, (TurnedUp, Played)):
                public.add(str(event.card))
            elif isinstance(event, HandsRevealed):
                public |= {str(c) for hand in event.hands for c in hand}
                public |= {str(c) for c in event.crib or ()}
            elif isinstance(event, CountingStarted):  # counting by hand: the show turned over
                public |= {str(c) for c in event.cards}
            elif isinstance(event, Scored) and not event.concealed:
                public |= {str(c) for c in event.cards or ()}
                public |= {str(c) for item in event.items for c in item.cards}
            self._public[seq] = frozenset(public)
            self._own[seq] = tuple(frozenset(s) for s in own)
        self.last_seq = max((seq for seq, _ in log if seq is not None), default=0)

    def allowed(self, seq: int, seat: int | None) -> frozenset[str]:
        if seq == 0:
            return frozenset()
        public = self._public[seq]
        return public if seat is None else public | self._own[seq][seat]


def audit(messages: list[dict[str, Any]], seat_of: list[int | None], ent: Entitlement,
          table_id: int) -> int:
    """Check every message; ``seat_of[i]`` is the recipient's seat when message i arrived.
    Returns how many cards were checked (so a test can tell the audit saw something)."""
    checked = 0
    last = 0  # the seq of the last numbered game message
    for index, (message, seat) in enumerate(zip(messages, seat_of)):
        kind = message["type"]
        if kind == "chat":
            continue
        if kind == "timed_out" and message["table"] == table_id:
            # The server's move for a seat comes just before the events it causes, so it may
            # show what the next event makes public (a played card) or shows the seat itself
            # (its own crib discard) -- nothing more.
            found = set(cards_in(message))
            extra = found - ent.allowed(_next_seq(messages, index, table_id, ent), seat)
            assert not extra, f"seat {seat} saw {sorted(extra)} in {message}"
            checked += len(found)
        elif kind in ("event", "turn") and message["table"] == table_id:
            found = set(cards_in(message))
            if message["seq"] is not None:  # (a private event has none: it comes after the last)
                last = message["seq"]
            extra = found - ent.allowed(last, seat)
            assert not extra, f"seat {seat} saw {sorted(extra)} in {message}"
            checked += len(found)
        elif kind == "snapshot" and message["table"]["id"] == table_id:
            for entry in message["events"]:
                found = set(cards_in(entry["event"]))
                if entry["seq"] is not None:
                    last = entry["seq"]
                extra = found - ent.allowed(last, seat)
                assert not extra, f"seat {seat} saw {sorted(extra)} in a snapshot event {entry}"
                checked += len(found)
            rest = {k: v for k, v in message.items() if k != "events"}
            found = set(cards_in(rest))
            extra = found - ent.allowed(message["seq"], seat)
            assert not extra, f"seat {seat} saw {sorted(extra)} in a snapshot {rest}"
            checked += len(found)
        else:
            found = set(cards_in(message))
            assert not found, f"cards {sorted(found)} in a {kind} message: {message}"
    return checked


def _next_seq(messages: list[dict[str, Any]], index: int, table_id: int, ent: Entitlement) -> int:
    """The seq of the first event of ``table_id`` after ``messages[index]`` (the last event
    of the true record if the recipient got none after it)."""
    for message in messages[index + 1:]:
        if message["type"] == "event" and message["table"] == table_id and message["seq"] is not None:
            return int(message["seq"])
    return ent.last_seq
