"""Text mode's records: the games a person played (``list_games``), one game's record
(``get_game``) and the leaderboard, as lines for a bare terminal.

Split from :mod:`.render` by what it tells: these are the stored games and ratings, read back
after the fact, where :mod:`.render` tells the live table.  The table's running match line
(:mod:`.render`) uses :func:`sides_of` and :func:`match_points` too.
"""

from __future__ import annotations

import time
from typing import Any, Sequence

from noddy.protocol.i18n import N_, _, ngettext, pgettext, say

from .seat_news import level_word


def when(seconds: float | None) -> str:
    """A stored time (seconds since 1970) as people write it, in UTC."""
    if seconds is None:
        return "?"
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(seconds))


def sides_of(game: dict[str, Any]) -> list[str]:
    """Who scores on each track: a player, or in partnerships a team (seats 0 and 2 first)."""
    names = {seat["seat"]: seat["name"] for seat in game["seats"]}
    if not game["partnerships"]:
        return [(names[seat] if seat in names else _seat(seat)) for seat in range(game["players"])]
    return [" & ".join((names[seat] if seat in names else _seat(seat)) for seat in range(game["players"])
                       if seat % 2 == team) for team in (0, 1)]


def _seat(seat: int) -> str:
    """A seat with nobody's name, counted from 1."""
    return _("seat {seat}").format(seat=seat + 1)


def _wins(side: str) -> str:
    """``ann wins``, or ``ann & cy win`` (a partnership)."""
    return (_("{side} win") if " & " in side else _("{side} wins")).format(side=side)


def result_text(game: dict[str, Any]) -> str:
    """``ada 28, random computer 35; random computer wins`` (or unfinished); a win by
    resignation says so, and a win at the target is credited to whoever played the winning
    seat at the end (a computer standing in, never the person it stood in for)."""
    result = game.get("result")
    if not result:
        return _("not finished")
    sides = dealt_sides = sides_of(game)
    scores = ", ".join(f"{side} {score}" for side, score in zip(sides, result["scores"]))
    ending = result.get("ending", "target")
    dealt = {seat["seat"]: seat["name"] for seat in game["seats"]}
    if ending == "target":  # the seats as they were at the end
        sides = sides_of({**game, "seats": [{**seat, "name": seat["changes"][-1]["name"]} if seat.get("changes")
                                          else seat for seat in game["seats"]]})
    winner = (sides[result["winner"]] if 0 <= result["winner"] < len(sides) else
              _("side {side}").format(side=result["winner"]))
    skunk = _SKUNK_WORDS.get(str(result.get("skunk")))
    text = f"{scores}; {_wins(winner)}" + (_(skunk) if skunk else "")
    gone = [_("{name} resigned").format(name=dealt[s] if s in dealt else _seat(s)) for s in result.get("resigned", [])]
    gone += [_("{name} left and did not come back").format(name=dealt[s] if s in dealt else _seat(s))
             for s in result.get("abandoned", [])]
    if ending == "resignation":
        text += " " + _("by resignation")
    if gone:
        text += f" ({'; '.join(gone)})"
    match = game.get("match")
    if match:  # which match, which game of it, and the match points after it
        # "#" and "first to": read as a match's number and length, not a score (issue 33)
        text += _("; match #{id} (first to {to}) after game {game}: {points}").format(
            id=match["id"], to=match["to"], game=match["game"], points=match_points(match, dealt_sides))
    return text


#: A won game's ``skunk`` after the winner (none: nothing).
_SKUNK_WORDS = {"skunk": N_(", a skunk"), "double": N_(", a double skunk")}


def match_points(match: dict[str, Any], sides: Sequence[str]) -> str:
    """``ann 3, ben 0, ann wins the match`` (the winner once there is one)."""
    text = ", ".join(f"{side} {score}" for side, score in zip(sides, match["points"]))
    winner = match.get("winner")
    if winner is not None and 0 <= winner < len(sides):
        side = sides[winner]
        text += ", " + (_("{side} win the match") if " & " in side else _("{side} wins the match")).format(side=side)
        resigned = match.get("resigned")
        if resigned is not None and 0 <= resigned < len(sides):  # whatever the points say
            text += " " + _("({side} gave it up)").format(side=sides[resigned])
    return text


def games_text(message: dict[str, Any]) -> str:
    games = message["games"]
    if not games:
        return _("No finished games for {name} yet.").format(name=message["name"])
    lines = [_("Games of {name}, newest first (game ID shows one):").format(name=message["name"])]
    for game in games:
        pairs = " " + pgettext("table", "pairs") if game["partnerships"] else ""
        lines.append(_("Game {id}: {preset} {players}p{pairs}, {when}: {result}.").format(
            id=game["id"], preset=game["preset"], players=game["players"], pairs=pairs,
            when=when(game["finished_at"]), result=result_text(game)))
    return "\n".join(lines)


def record_text(record: dict[str, Any]) -> str:
    """One finished game in a few lines: the seats, each deal (every hand, the crib and
    the scores after it, from the unredacted record) and the result."""
    events = list(record["opening"]) + [e for step in record["steps"] for e in step["events"]]
    target = next((e["target"] for e in events if e["kind"] == "game_started"), None)
    pairs = " " + _("in partnerships") if record["partnerships"] else ""
    seats = []
    for seat in record["seats"]:
        kind = " " + _("(computer, {level})").format(level=level_word(seat["level"])) if seat["kind"] == "computer" else ""
        seats.append(f"{seat['seat'] + 1} {seat['name']}{kind}")
    lines = [_("Game {id} (table {table}): {preset}, {players} players{pairs}, first to {target}.").format(
                 id=record["id"], table=record["table"], preset=record["preset"], players=record["players"],
                 pairs=pairs, target=target),
             _("Seats: {seats}.").format(seats=", ".join(seats)),
             _("Played {start} to {end}.").format(start=when(record["started_at"]), end=when(record["finished_at"]))]
    deals = 0
    deal: dict[str, Any] = {}

    def close_deal() -> None:
        if not deal:
            return
        hands = deal["revealed"] if deal["revealed"] is not None else deal["hands"]
        text = ", ".join(f"{seat + 1} {' '.join(hand)}" for seat, hand in sorted(hands.items()))
        crib = deal["crib"] if deal["revealed_crib"] is None else deal["revealed_crib"]
        lines.append(_("Deal {deal}, seat {dealer} deals, turn-up {card}. Hands: {hands}").format(
                         deal=deal["number"], dealer=deal["dealer"] + 1, card=deal["turn_up"] or "-", hands=text)
                     + (_("; crib {cards}").format(cards=" ".join(crib)) if crib else "")
                     + ". " + _("Scores: {scores}").format(scores=" ".join(map(str, deal["scores"]))))
        deal.clear()

    scores: list[int] = []
    for event in events:
        kind = event["kind"]
        if "scores" in event:
            scores = list(event["scores"])
            if deal:
                deal["scores"] = scores
        if kind == "deal_started":
            close_deal()
            deals += 1
            deal.update(number=event["deal"], dealer=event["dealer"], turn_up=None, hands={},
                        crib=[], revealed=None, revealed_crib=None, scores=scores)
        elif kind == "cards_dealt" and deal:
            deal["hands"][event["seat"]] = list(event["cards"] or [])
        elif kind == "discarded" and deal:
            cards = list(event["cards"] or [])
            deal["crib"] += cards
            if event["seat"] is not None:
                held = deal["hands"].get(event["seat"], [])
                deal["hands"][event["seat"]] = [c for c in held if c not in cards]
        elif kind == "turned_up" and deal:
            deal["turn_up"] = event["card"]
        elif kind == "hands_revealed" and deal:
            deal["revealed"] = dict(enumerate(event["hands"]))
            deal["revealed_crib"] = event["crib"]
    close_deal()
    actions = len(record["steps"])
    lines.append(_("Result: {result}, after {deals} and {actions}.").format(
        result=result_text(record), deals=ngettext("{n} deal", "{n} deals", deals).format(n=deals),
        actions=ngettext("{n} action", "{n} actions", actions).format(n=actions)))
    return "\n".join(lines)


def leaderboard_text(message: dict[str, Any]) -> str:
    rows = message["players"]
    if not rows:
        return say(message.get("why") or "") or _("Nobody has played a rated {family} game yet.").format(
            family=message["family"])
    lines = [_("Leaderboard ({family}):").format(family=message["family"])]
    for row in rows:
        kind = (" (" + pgettext("seat", "computer") + ")" if row["kind"] == "computer" else
                " (" + pgettext("seat", "bot") + ")" if row["kind"] == "bot" else "") + (
            " (" + pgettext("seat", "guest") + ")" if row.get("guest") else "")
        games, wins = row["games"], row["wins"]
        lines.append(f"{row['rank']:>3}. {row['name']}{kind} {row['rating']}: "
                     + ngettext("{n} game", "{n} games", games).format(n=games) + ", "
                     + ngettext("{n} win", "{n} wins", wins).format(n=wins))
    return "\n".join(lines)
