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

from typing import Any, Sequence

#: Why a person is sent a result: they resigned the game (``leave`` mid-game), their seat was
#: left and never taken back, they gave the match up, or they were at the table when a rated
#: game ended (``finished``: the push then says only their rating change, which the table's
#: ``game_over`` and ``table`` messages do not carry).
WHYS = ("resigned", "abandoned", "match_given_up", "finished")


def _name(names: Sequence[str | None], seat: int) -> str:
    return (names[seat] if 0 <= seat < len(names) else None) or f"seat {seat + 1}"


def _sides(names: Sequence[str | None], players: int, partnerships: bool) -> list[str]:
    """Each side's label: a player's name, or two partners' joined."""
    if not partnerships:
        return [_name(names, seat) for seat in range(players)]
    return [f"{_name(names, side)} & {_name(names, side + 2)}" for side in (0, 1)]


def _game_words(over: dict[str, Any], names: Sequence[str | None]) -> str:
    """``ann wins the game, 5 to 0`` (the winner's score first); a game the reader's seat was
    abandoned in is won at the score of that moment, which may be a tie or a loser's lead,
    so it says so: ``ann wins the game at 0 to 10, the score when you left``."""
    scores, winner = list(over["scores"]), over["winner"]
    seats = list(over.get("winning_seats") or [winner])
    label = " & ".join(_name(names, seat) for seat in seats)
    others = " to ".join(str(score) for side, score in enumerate(scores) if side != winner)
    if over.get("ending") == "abandoned":
        return (f"{label} {'win' if len(seats) > 1 else 'wins'} the game at {scores[winner]} to {others}, "
                "the score when you left")
    return f"{label} {'win' if len(seats) > 1 else 'wins'} the game, {scores[winner]} to {others}"


def _match_words(match: dict[str, Any], sides: list[str]) -> str:
    """``the match (first to 2): ann 1, ben 0, ann wins it``."""
    points = ", ".join(f"{side} {point}" for side, point in zip(sides, match["points"]))
    words = f"the match (first to {match['to']}): {points}"
    if match.get("winner") is not None:
        words += f", {sides[match['winner']]} wins it"
    return words


def _rating_words(rating: dict[str, Any]) -> str:
    """``your noddy rating 1500 -> 1516``."""
    return f"your {rating['family']} rating {round(rating['before'])} -> {round(rating['after'])}"


def result_message(table: int, game: int, seat: int, names: Sequence[str | None], why: str,
                   over: dict[str, Any] | None, match: dict[str, Any] | None,
                   rating: dict[str, Any] | None, partnerships: bool = False) -> dict[str, Any]:
    """The ``game_result`` push for the person of ``seat`` (``names``: who sat in each seat
    when the game was dealt): ``over`` the game's ``game_over`` event (None: a match given up
    between games), ``match`` what the game's record says of its match (None: no match),
    ``rating`` the person's rating change (``{"family", "before", "after"}``; None: unrated)."""
    assert why in WHYS, why
    sides = _sides(names, len(names), partnerships)
    if why == "finished":  # they read the result at the table: only their rating change is news
        assert rating is not None
        words = f"Rated: {_rating_words(rating)}"
    elif over is None:
        assert match is not None
        words = f"You gave up the match: {_match_words(match, sides)}"
    else:
        lead = {"resigned": "You resigned",
                "abandoned": f"While you were away, your seat at table {table} was left and never "
                             "taken back, which counts as a resignation",
                "match_given_up": "You gave up the match"}[why]
        words = f"{lead}: {_game_words(over, names)}"
        if rating is not None:
            words += f" (rated: {_rating_words(rating)})"
        if match is not None:
            words += f"; {_match_words(match, sides)}"
    return {"type": "game_result", "table": table, "game": game, "seat": seat, "names": list(names),
            "why": why, "result": over, "match": match, "rating": rating, "message": words + "."}
