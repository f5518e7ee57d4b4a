"""What a challenge's (or an invitation's) end says to a person: the ``message`` of its
``challenge_over`` push (:mod:`.matchmaking` sends it; the ``reason`` beside it is the code a
program reads).  Each is a whole sentence, a :class:`~noddy.protocol.i18n.Phrase`, one for a
challenge and one for an invitation, so that every reader is told it in their own language
(German and Spanish say "the challenge" and "the invitation" with different words around
them: one sentence with the noun put in could not be translated).
"""

from __future__ import annotations

from typing import Any, Protocol

from noddy.protocol.i18n import Phrase

from ..model.table import Session


class Challenge(Protocol):
    """What is read here of a :class:`~noddy.server.core.matchmaking.Challenge` (named by its
    parts: matchmaking imports this module)."""

    id: int
    table: Any
    challenger: Session
    challenged: Session


def answered(how: str, name: str, challenge: Challenge, invitation: bool | None = None) -> Phrase:
    """``name`` ``how`` (``accepted``, ``declined`` or ``withdrew``) ``challenge``, said as an
    invitation if ``invitation`` (None: if it is one)."""
    words = {"name": name, "challenge": challenge.id}
    if not (challenge.table is not None if invitation is None else invitation):
        if how == "accepted":
            return Phrase("{name} accepted challenge {challenge}", **words)
        if how == "declined":
            return Phrase("{name} declined challenge {challenge}", **words)
        return Phrase("{name} withdrew challenge {challenge}", **words)
    if how == "accepted":
        return Phrase("{name} accepted invitation {challenge}", **words)
    if how == "declined":
        return Phrase("{name} declined invitation {challenge}", **words)
    return Phrase("{name} withdrew invitation {challenge}", **words)


def ran_out(challenge: Challenge) -> Phrase:
    """Nobody answered ``challenge`` in time."""
    name = challenge.challenged.name
    if challenge.table is None:
        return Phrase("challenge {challenge} to {name} ran out unanswered", challenge=challenge.id, name=name)
    return Phrase("invitation {challenge} to {name} ran out unanswered", challenge=challenge.id, name=name)


def left_table(challenge: Challenge) -> Phrase:
    """The inviter left the table the invitation was to."""
    assert challenge.table is not None
    return Phrase("{name} left table {table}; invitation {challenge} is withdrawn",
                  name=challenge.challenger.name, table=challenge.table.id, challenge=challenge.id)


def sat_elsewhere(session: Session, challenge: Challenge) -> Phrase:
    """``session``'s challenge is withdrawn: a challenge of theirs was accepted, or a seek paired."""
    return Phrase("{name} sat down to another game; challenge {challenge} is withdrawn",
                  name=session.name, challenge=challenge.id)


def gone(session: Session, challenge: Challenge, over: bool) -> Phrase:
    """``session`` (one of the challenge's players) left the lobby; ``over``: the challenged
    went (else the challenger, who withdraws it)."""
    name, number = session.name, challenge.id
    if session.table is not None:
        if over:
            return Phrase("{name} sat down at table {table}; challenge {challenge} is over",
                          name=name, table=session.table.id, challenge=number)
        return Phrase("{name} sat down at table {table}; challenge {challenge} is withdrawn",
                      name=name, table=session.table.id, challenge=number)
    if over:
        return Phrase("{name} has gone; challenge {challenge} is over", name=name, challenge=number)
    return Phrase("{name} has gone; challenge {challenge} is withdrawn", name=name, challenge=number)
