"""The ``game_result`` push: a game's (or a match's) result told to a person who was not at
the table when it was decided (issue 33, item 4), and each person's rating change in a
rated game to those who saw it end at the table.

Whoever is at a table when its game ends reads the ``game_over`` event there.  The people it
concerns who are *not* there never did: the one who resigned (``leave`` mid-game: they are
back in the lobby before the game ends), the one who gave a match up (``leave`` between its
games, or ``resign_match``), and the one whose seat was left and never taken back (they come
back to a plain lobby).  Those at the table when a rated game ends read the result there, but
not their own rating change: they are sent the push too, saying only that
(``"why": "finished"``).  :func:`result_message` makes the one message each of them is sent,
with its words in ``message`` (as ``table_closed`` carries its own), so a client in any
language, and text mode, need only print it.

Standard library only, no I/O, like the rest of :mod:`noddy.protocol`.

>>> over = {"kind": "game_over", "winner": 0, "winning_seats": [0], "scores": [5, 0],
...         "ending": "resignation", "skunk": "none", "resigned": [1]}
>>> result_message(1, 7, 1, ["ann", "ben"], "resigned", over, None,
...                {"family": "noddy", "before": 1500.0, "after": 1484.0})["message"]
'You resigned: ann wins the game, 5 to 0 (rated: your noddy rating 1500 -> 1484).'
>>> result_message(1, 7, 0, ["ann", "ben"], "finished", over, None,
...                {"family": "noddy", "before": 1500.0, "after": 1516.0})["message"]
'Rated: your noddy rating 1500 -> 1516.'
"""

from __future__ import annotations

from functools import partial
from typing import Any, Callable, Sequence

from .i18n import DEFAULT_LANGUAGE, Phrase, _, ngettext, pgettext, speaking

#: Why a person is sent a result: they resigned the game (``leave`` mid-game), their seat was
#: left and never taken back, they gave the match up, or they were at the table when a rated
#: game ended (``finished``: the push then says only their rating change, which the table's
#: ``game_over`` and ``table`` messages do not carry).
WHYS = ("resigned", "abandoned", "match_given_up", "finished")


def _name(names: Sequence[str | None], seat: int) -> str:
    return (names[seat] if 0 <= seat < len(names) else None) or _("seat {n}").format(n=seat + 1)


def _sides(names: Sequence[str | None], players: int, partnerships: bool) -> list[str]:
    """Each side's label: a player's name, or two partners' joined."""
    if not partnerships:
        return [_name(names, seat) for seat in range(players)]
    return [f"{_name(names, side)} & {_name(names, side + 2)}" for side in (0, 1)]


def _score_to(scores: Sequence[Any]) -> str:
    """``"5 to 0"``: scores said one against the other (as the narration says them)."""
    said = str(scores[-1]) if scores else ""
    for score in reversed(scores[:-1]):
        said = pgettext("score", "{first} to {rest}").format(first=score, rest=said)
    return said


def _game_words(over: dict[str, Any], names: Sequence[str | None]) -> str:
    """``ann wins the game, 5 to 0`` (the winner's score first); a game the reader's seat was
    abandoned in is won at the score of that moment, which may be a tie or a loser's lead,
    so it says so: ``ann wins the game at 0 to 10, the score when you left``."""
    scores, winner = list(over["scores"]), over["winner"]
    seats = list(over.get("winning_seats") or [winner])
    label = " & ".join(_name(names, seat) for seat in seats)
    score = _score_to([scores[winner], *(score for side, score in enumerate(scores) if side != winner)])
    won = 2 if len(seats) > 1 else 1
    if over.get("ending") == "abandoned":
        return ngettext("{who} wins the game at {score}, the score when you left",
                        "{who} win the game at {score}, the score when you left", won).format(
                            who=label, score=score)
    return ngettext("{who} wins the game, {score}", "{who} win the game, {score}", won).format(
        who=label, score=score)


def _match_words(match: dict[str, Any], sides: list[str]) -> str:
    """``the match (first to 2): ann 1, ben 0, ann wins it``."""
    points = ", ".join(f"{side} {point}" for side, point in zip(sides, match["points"]))
    if match.get("winner") is not None:
        return _("the match (first to {to}): {points}, {who} wins it").format(
            to=match["to"], points=points, who=sides[match["winner"]])
    return _("the match (first to {to}): {points}").format(to=match["to"], points=points)


def _rating_words(rating: dict[str, Any]) -> str:
    """``your noddy rating 1500 -> 1516``."""
    return _("your {family} rating {before} -> {after}").format(
        family=rating["family"], before=round(rating["before"]), after=round(rating["after"]))


def result_words(table: int, names: Sequence[str | None], why: str, over: dict[str, Any] | None,
                 match: dict[str, Any] | None, rating: dict[str, Any] | None,
                 partnerships: bool = False) -> str:
    """The ``message`` of a ``game_result`` push, in the current language."""
    sides = _sides(names, len(names), partnerships)
    if why == "finished":  # they read the result at the table: only their rating change is news
        assert rating is not None
        return _("Rated: {rating}.").format(rating=_rating_words(rating))
    if over is None:
        assert match is not None
        return _("You gave up the match: {match}.").format(match=_match_words(match, sides))
    if why == "resigned":
        lead = _("You resigned")
    elif why == "abandoned":
        lead = _("While you were away, your seat at table {table} was left and never taken back, "
                 "which counts as a resignation").format(table=table)
    else:
        lead = _("You gave up the match")
    rated = "" if rating is None else _(" (rated: {rating})").format(rating=_rating_words(rating))
    matched = "" if match is None else _("; {match}").format(match=_match_words(match, sides))
    return _("{lead}: {game}{rated}{match}.").format(lead=lead, game=_game_words(over, names),
                                                     rated=rated, match=matched)


class Retold(Phrase):
    """Text made once and told again in each reader's language by calling its teller (a
    ``functools.partial`` of :func:`result_words`): a result's words are built from many
    pieces, each said in the reader's language, which one :class:`Phrase` template cannot
    hold.  It *is* its English text, as a Phrase is."""

    teller: Callable[[], str]

    def __new__(cls, teller: Callable[[], str]) -> "Retold":
        with speaking(DEFAULT_LANGUAGE):
            english = teller()
        self = str.__new__(cls, english)
        self.msgid, self.params, self.plural, self.teller = english, {}, None, teller
        return self

    def said(self) -> str:
        return self.teller()

    def __reduce__(self) -> Any:  # a copy or a pickle is told the same way
        return (Retold, (self.teller,))


def result_message(table: int, game: int, seat: int, names: Sequence[str | None], why: str,
                   over: dict[str, Any] | None, match: dict[str, Any] | None,
                   rating: dict[str, Any] | None, partnerships: bool = False) -> dict[str, Any]:
    """The ``game_result`` push for the person of ``seat`` (``names``: who sat in each seat
    when the game was dealt): ``over`` the game's ``game_over`` event (None: a match given up
    between games), ``match`` what the game's record says of its match (None: no match),
    ``rating`` the person's rating change (``{"family", "before", "after"}``; None: unrated).
    Its ``message`` is a :class:`Retold`: said in each reader's language by the send path."""
    assert why in WHYS, why
    words = Retold(partial(result_words, table, list(names), why, over, match, rating, partnerships))
    return {"type": "game_result", "table": table, "game": game, "seat": seat, "names": list(names),
            "why": why, "result": over, "match": match, "rating": rating, "message": words}
