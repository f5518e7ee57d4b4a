"""Text mode's records: the games a person played (``list_games``), one game's record
(``get_game``) and the leaderboard, as lines for a bare terminal.

Split from :mod:`.render` by what it tells: these are the stored games and ratings, read back
after the fact, where :mod:`.render` tells the live table.  The table's running match line
(:mod:`.render`) uses :func:`sides_of` and :func:`match_points` too.
"""

from __future__ import annotations

import time
from typing import Any, Sequence


def when(seconds: float | None) -> str:
    """A stored time (seconds since 1970) as people write it, in UTC."""
    if seconds is None:
        return "?"
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(seconds))


def sides_of(game: dict[str, Any]) -> list[str]:
    """Who scores on each track: a player, or in partnerships a team (seats 0 and 2 first)."""
    names = {seat["seat"]: seat["name"] for seat in game["seats"]}
    if not game["partnerships"]:
        return [names.get(seat, f"seat {seat + 1}") for seat in range(game["players"])]
    return [" & ".join(names.get(seat, f"seat {seat + 1}") for seat in range(game["players"])
                       if seat % 2 == team) for team in (0, 1)]


def result_text(game: dict[str, Any]) -> str:
    """``ada 28, random computer 35; random computer wins`` (or unfinished); a win by
    resignation says so, and a win at the target is credited to whoever played the winning
    seat at the end (a computer standing in, never the person it stood in for)."""
    result = game.get("result")
    if not result:
        return "not finished"
    sides = dealt_sides = sides_of(game)
    scores = ", ".join(f"{side} {score}" for side, score in zip(sides, result["scores"]))
    ending = result.get("ending", "target")
    dealt = {seat["seat"]: seat["name"] for seat in game["seats"]}
    if ending == "target":  # the seats as they were at the end
        sides = sides_of({**game, "seats": [{**seat, "name": seat["changes"][-1]["name"]} if seat.get("changes")
                                          else seat for seat in game["seats"]]})
    winner = sides[result["winner"]] if 0 <= result["winner"] < len(sides) else f"side {result['winner']}"
    skunk = _SKUNK_WORDS.get(str(result.get("skunk")), "")
    text = f"{scores}; {winner} {'win' if ' & ' in winner else 'wins'}{skunk}"
    gone = [f"{dealt.get(s, f'seat {s + 1}')} resigned" for s in result.get("resigned", [])]
    gone += [f"{dealt.get(s, f'seat {s + 1}')} left and did not come back" for s in result.get("abandoned", [])]
    if ending == "resignation":
        text += " by resignation"
    if gone:
        text += f" ({'; '.join(gone)})"
    match = game.get("match")
    if match:  # which match, which game of it, and the match points after it
        # "#" and "first to": read as a match's number and length, not a score (issue 33)
        text += (f"; match #{match['id']} (first to {match['to']}) after game {match['game']}: "
                 f"{match_points(match, dealt_sides)}")
    return text


#: A won game's ``skunk`` after the winner (none: nothing).
_SKUNK_WORDS = {"skunk": ", a skunk", "double": ", a double skunk"}


def match_points(match: dict[str, Any], sides: Sequence[str]) -> str:
    """``ann 3, ben 0, ann wins the match`` (the winner once there is one)."""
    text = ", ".join(f"{side} {score}" for side, score in zip(sides, match["points"]))
    winner = match.get("winner")
    if winner is not None and 0 <= winner < len(sides):
        text += f", {sides[winner]} {'win' if ' & ' in sides[winner] else 'wins'} the match"
        resigned = match.get("resigned")
        if resigned is not None and 0 <= resigned < len(sides):  # whatever the points say
            text += f" ({sides[resigned]} gave it up)"
    return text


def games_text(message: dict[str, Any]) -> str:
    games = message["games"]
    if not games:
        return f"No finished games for {message['name']} yet."
    lines = [f"Games of {message['name']}, newest first (game ID shows one):"]
    for game in games:
        pairs = " pairs" if game["partnerships"] else ""
        lines.append(f"Game {game['id']}: {game['preset']} {game['players']}p{pairs}, "
                     f"{when(game['finished_at'])}: {result_text(game)}.")
    return "\n".join(lines)


def record_text(record: dict[str, Any]) -> str:
    """One finished game in a few lines: the seats, each deal (every hand, the crib and
    the scores after it, from the unredacted record) and the result."""
    events = list(record["opening"]) + [e for step in record["steps"] for e in step["events"]]
    target = next((e["target"] for e in events if e["kind"] == "game_started"), None)
    pairs = " in partnerships" if record["partnerships"] else ""
    seats = []
    for seat in record["seats"]:
        kind = f" (computer, {seat['level']})" if seat["kind"] == "computer" else ""
        seats.append(f"{seat['seat'] + 1} {seat['name']}{kind}")
    lines = [f"Game {record['id']} (table {record['table']}): {record['preset']}, "
             f"{record['players']} players{pairs}, first to {target}.",
             f"Seats: {', '.join(seats)}.",
             f"Played {when(record['started_at'])} to {when(record['finished_at'])}."]
    deals = 0
    deal: dict[str, Any] = {}

    def close_deal() -> None:
        if not deal:
            return
        hands = deal["revealed"] if deal["revealed"] is not None else deal["hands"]
        text = ", ".join(f"{seat + 1} {' '.join(hand)}" for seat, hand in sorted(hands.items()))
        crib = deal["crib"] if deal["revealed_crib"] is None else deal["revealed_crib"]
        lines.append(f"Deal {deal['number']}, seat {deal['dealer'] + 1} deals, turn-up "
                     f"{deal['turn_up'] or '-'}. Hands: {text}"
                     + (f"; crib {' '.join(crib)}" if crib else "")
                     + f". Scores: {' '.join(map(str, deal['scores']))}")
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
    lines.append(f"Result: {result_text(record)}, after {deals} deal{'s' * (deals != 1)} "
                 f"and {actions} action{'s' * (actions != 1)}.")
    return "\n".join(lines)


def leaderboard_text(message: dict[str, Any]) -> str:
    rows = message["players"]
    if not rows:
        return message.get("why") or f"Nobody has played a rated {message['family']} game yet."
    lines = [f"Leaderboard ({message['family']}):"]
    for row in rows:
        kind = (f" ({row['kind']})" if row["kind"] in ("computer", "bot") else "") + (
            " (guest)" if row.get("guest") else "")
        games, wins = row["games"], row["wins"]
        lines.append(f"{row['rank']:>3}. {row['name']}{kind} {row['rating']}: "
                     f"{games} game{'s' * (games != 1)}, {wins} win{'s' * (wins != 1)}")
    return "\n".join(lines)
