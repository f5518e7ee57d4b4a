"""The table screen's prompt: the line that says what happens now and which keys do something.

It reads the :class:`~noddy.client.screens.game.Game` (the table and its game, as folded from
the server's messages) and the :class:`~noddy.client.session.Session`; the table screen
(:class:`~noddy.client.screens.table.TableScreen`) shows it.
"""

from __future__ import annotations

from typing import Any

from noddy.protocol.i18n import N_, _

from ..session import Session
from .game import Game
from .lobby import free_seats


def rated_words(game: Game, ended: bool = False) -> str:
    """`` The game will be rated.`` or ``... unrated: ben is a guest.`` (as the table's
    summary says, or if ``ended`` said as the game ended: `` That game was rated.``), or
    nothing from a server that does not say.  Whole sentences, each one msgid: a translation
    says "will be" and "was" its own way."""
    table = game.table or {}
    table = ((table.get("last_game") or game.game_rating) if ended else None) or table
    if not isinstance(table.get("rated"), bool):
        return ""
    if table["rated"]:
        return " " + (_("That game was rated.") if ended else _("The game will be rated."))
    why = table.get("unrated_why") or _("see the server")
    return " " + (_("That game was unrated: {why}.") if ended
                  else _("The game will be unrated: {why}.")).format(why=why)


def match_words(game: Game) -> str:
    """What a seat may do once a game is over: at a match table, the match score and the
    next game of it (or who won the match); otherwise play again."""
    match = (game.table or {}).get("match")
    if not match:
        return _("The game is over: r to play again, l to leave the table.")
    score, winner = match_score(game)
    if winner:
        return _("{winner} won the match ({score}): r starts a new match, l leaves.").format(
            winner=winner, score=score)
    return _("Match to {to}: {score}. r for game {game}, l leaves (gives up the match).").format(
        to=match["to"], score=score, game=match["game"] + 1)


def match_score(game: Game) -> tuple[str, str]:
    """The table's match score (``ann 2, cy 0``, with who gave it up) and its winner's name
    ("" while it goes on): what the players and the watchers are told alike."""
    table = game.table or {}
    match = table.get("match") or {}
    names = match_sides(table)
    score = ", ".join(f"{name} {points}" for name, points in zip(names, match.get("points") or []))
    winner = match.get("winner")
    if winner is not None and 0 <= winner < len(names):
        resigned = match.get("resigned")
        if resigned is not None and 0 <= resigned < len(names):  # why, whatever the points
            score += _("; {name} gave it up").format(name=names[resigned])
        return score, names[winner]
    return score, ""


def watcher_words(game: Game) -> str:
    """What a watcher reads once a game is over: at a match table the match score, or who
    won the match, then that ``l`` goes back to the lobby (they have nothing else to do)."""
    match = (game.table or {}).get("match")
    if not match:
        return _("The game is over: l goes back to the lobby.")
    score, winner = match_score(game)
    if winner:
        return _("{winner} won the match ({score}): l goes back to the lobby.").format(
            winner=winner, score=score)
    return _("Match to {to}: {score}. l goes back to the lobby.").format(to=match["to"], score=score)


#: Said when a seat, computer or ready key is pressed at a club night's board (issue 35)
#: (said with ``_()`` where it is shown).
EVENT_BOARD_STATUS = N_("The server seats a club night's board: its game begins by itself.")


def event_board_words(event: dict[str, Any]) -> str:
    """Before a club night's board's game: which board it is, and that no key starts it."""
    return _("Board {board} of club night {event}, round {round}: the game begins by itself "
             "when both players are seated.").format(board=event.get("board"), event=event.get("id"),
                                                     round=event.get("round"))


def prompt(game: Game, session: Session, picking: str | None, seats_open: bool) -> str:
    """The line that says what happens now, and what the player may do (``picking``: a seat
key chooses which computer to remove; ``seats_open``: seats may change now)."""
    view = game.view
    if session.connection in ("reconnecting", "offline"):
        return session.connection_words()
    if view.winner is not None:
        if game.seat is None:  # a watcher is told the match as the players are (issue 33)
            return watcher_words(game) + rated_words(game, True)
        return match_words(game) + rated_words(game, True)
    if picking == "remove":
        return _("Remove which computer? Press its seat number; Esc keeps them all.")
    if not game.in_game:
        event = (game.table or {}).get("event")
        if event:  # a club night's board (issue 35): the server seats and starts it
            return event_board_words(event)
        if game.table is not None and game.seat is not None:
            seats = game.table.get("seats", [])
            if not free_seats(game.table):
                mine = seats[game.seat] if game.seat < len(seats) else None
                if not (mine or {}).get("ready"):
                    return (_("Every seat is taken: r says you are ready, and the game begins.")
                            + rated_words(game))
                waiting = [str(s.get("name")) for i, s in enumerate(seats)
                           if s is not None and i != game.seat and not s.get("ready")]
                return (_("You are ready; waiting for {names} (r: not ready after all).").format(
                    names=", ".join(waiting) or _("the others")) + rated_words(game))
            if session.computer_level:
                return (_("Waiting for players: a adds a computer ({level}), r says you are "
                          "ready.").format(level=session.computer_level) + rated_words(game))
            return (_("Waiting for players: a adds a computer, r says you are ready.")
                    + rated_words(game))
        if seats_open:
            return _("Watching: s or a seat number sits you down, l goes back to the lobby.")
        return _("Watching: l goes back to the lobby.")
    size = game.discard_size
    if size:
        chosen = len(game.selected)
        if view.dealer == game.seat:
            said = _("Lay away {size} for your crib ({chosen}/{size}): keys 1-{cards} or ←→ "
                     "Space, then Enter.")
        else:
            said = _("Lay away {size} for {dealer}'s crib ({chosen}/{size}): keys 1-{cards} or "
                     "←→ Space, then Enter.")
        return said.format(size=size, chosen=chosen, cards=len(game.hand),
                           dealer=game.seat_name(view.dealer))
    if game.can_act:
        if game.go_is_legal:
            return _("You cannot play without passing 31: g (or Enter) says go.")
        if len(game.hand) == 1:
            return _("Your turn: play your card with 1, or Enter.")
        return _("Your turn: play a card with 1-{cards}, or ←→ and Enter.").format(cards=len(game.hand))
    if len(view.awaiting) > 1 or (view.phase == "discard" and view.awaiting):
        names = ", ".join(game.seat_name(s) for s in view.awaiting if s != game.seat)
        return _("Waiting for {names} to lay away.").format(names=names)
    if view.to_move is not None:
        return _("{name} to play.").format(name=game.seat_name(view.to_move))
    return ""


def match_sides(table: dict[str, Any]) -> list[str]:
    """Each side's name in the table's match: who played it (the summary's ``match.names``,
    so one who has left since is still named), else who sits now (an older server)."""
    match = table.get("match") or {}
    seats = [s for s in table.get("seats") or [] if s is not None]
    if match.get("names"):
        seats = [{"seat": seat, "name": name} for seat, name in enumerate(match["names"]) if name]
    return [" & ".join(s["name"] for s in seats
                       if (s["seat"] % 2 if table.get("partnerships") else s["seat"]) == side)
            for side in range(len(match.get("points") or []))]


__all__ = ["prompt", "event_board_words", "EVENT_BOARD_STATUS", "match_words", "watcher_words", "match_score", "rated_words", "match_sides"]
