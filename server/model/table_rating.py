"""Whether a table's games are rated, and why not: the rules :class:`~noddy.server.model.table.Table`
applies to the seats it has now (kept apart from the table's seats and game stream, which
they only read).  The codes are :data:`~noddy.server.model.ratings.UNRATED_REASONS`.
"""

from __future__ import annotations

from typing import Any, Protocol

from noddy.protocol.i18n import Phrase


class Table(Protocol):
    """What is read here of a :class:`~noddy.server.model.table.Table` (named by its parts,
    so that this module imports nothing of the table's, which calls it)."""

    players: int
    partnerships: bool
    live: Any
    seats: list[Any]
    match: Any
    event: dict[str, Any] | None
    event_rated: bool

    @property
    def hints(self) -> bool: ...

def _hands(players: int) -> Phrase:
    """Why a game of ``players`` seats without partnerships is unrated (a whole sentence for
    each count, so that a language may say "three-handed" its own way)."""
    if players == 3:
        return Phrase("three-handed games without partnerships are unrated")
    if players == 4:
        return Phrase("four-handed games without partnerships are unrated")
    return Phrase("{players}-handed games without partnerships are unrated", players=players)


def joined(parts: list[str], how: str = "and") -> str:
    """``parts`` said as one: ``"ann and ben"`` (``how="and"``), ``"one; two"`` (``how=";"``),
    a :class:`Phrase` when there are two or more, so each reader's language joins them."""
    said = parts[-1]
    for part in reversed(parts[:-1]):
        said = (Phrase("{one} and {other}", one=part, other=said) if how == "and"
                else Phrase("{reason}; {more}", reason=part, more=said))
    return said


def unrated_reasons(table: Table) -> list[tuple[str, str]]:
    """Why a game here is not rated, as (code, words) pairs (none: it is rated; the words a
    :class:`Phrase`).  The codes are :data:`~noddy.server.model.ratings.UNRATED_REASONS`;
    the seats looked at are the ones taken now."""
    reasons: list[tuple[str, str]] = []
    if not (table.players == 2 or table.partnerships):
        reasons.append(("not_two_sides", _hands(table.players)))
    if table.hints:
        reasons.append(("coach", Phrase("the coach is on")))
    seats = rated_seats(table)
    guests = [name for name, guest, _level in seats if guest]
    if guests:
        reasons.append(("guest", Phrase("{names} are guests", singular="{names} is a guest",
                                        plural="{names} are guests", count=len(guests), names=joined(guests))))
    if table.players == 2 or table.partnerships:
        sides: list[set[str]] = [set(), set()]
        for index, (_name, _guest, level) in enumerate(seats):
            if level is not None:
                sides[index % 2].add(level)
        if sides[0] & sides[1]:
            reasons.append(("same_computer", Phrase("the same computer level plays on both sides")))
    if table.match is not None:
        reasons.append(("fixed_deals", Phrase("the deals are fixed in advance (a match)")))
    if table.event is not None and not table.event_rated:
        reasons.append(("unrated_event", Phrase("the club night is unrated")))
    return reasons


def rated_seats(table: Table) -> list[tuple[str, bool, str | None]]:
    """Each seat's (name, is a guest, computer level or None) for :func:`unrated_reasons`.
    A computer standing in (issue 24) counts as the one dealt in: a game is rated by who
    was dealt in (``LiveGame.seats``), not by who plays a seat for them at the end."""
    dealt = {s["seat"]: s for s in table.live.seats} if table.live is not None else {}
    out: list[tuple[str, bool, str | None]] = []
    for index, seat in enumerate(table.seats):
        if seat is not None and seat.stand_in and index in dealt:
            was = dealt[index]
            human = was["kind"] != "computer"
            out.append((was["name"], human and was.get("account") is None, None if human else was["level"]))
        elif seat is not None:
            out.append((seat.name, seat.session is not None and seat.session.account is None, seat.level))
        else:
            out.append(("", False, None))
    return out
