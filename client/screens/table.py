"""The table screen's keys: seats before a game, cards during one, and the prompt line.

:class:`TableScreen` is what the player does at a table: before (or after) a game, move
seat, stand up to watch, add or remove a computer player, say ready; during one, choose
cards with the number keys or the arrows and Enter, lay away, say go.  It reads the state
:class:`~noddy.client.screens.game.Game` folds from the server's messages and queues requests on
the :class:`~noddy.client.session.Session`; it keeps only what a key started
(``picking``: a seat key is choosing which computer to remove).  :meth:`TableScreen.prompt`
is the line that says what happens now and which keys do something.
"""

from __future__ import annotations

from typing import Any

from ..cards import card_label, card_value, sort_cards
from ..session import Session
from .game import Game
from .lobby import free_seats


class TableScreen:
    """The keys and the prompt of the table screen (module docstring)."""

    def __init__(self, session: Session, game: Game) -> None:
        self.session = session
        self.game = game
        #: "remove" while the player is picking which computer to remove with a seat key.
        self.picking: str | None = None

    @property
    def seats_open(self) -> bool:
        """At a table whose seats may change now: before a game or after one, as the server
        has it (``game_in_progress`` otherwise)."""
        game = self.game
        return (game.table is not None and game.table.get("status") != "playing"
                and (not game.in_game or game.view.winner is not None))

    def _seats_closed(self) -> bool:
        if self.game.table is not None and self.seats_open:
            return False
        if self.game.table is not None:
            self.session.set_status("Seats cannot change during a game.", error=True)
        return True

    def add_computer(self) -> None:
        """Seat a computer player of :attr:`computer_level` in the first free seat."""
        session = self.session
        if self.game.table is None:
            return
        free = free_seats(self.game.table)
        if not free:
            session.set_status("Every seat is taken.", error=True)
            return
        fields: dict[str, Any] = {"seat": free[0]}
        if session.computer_level:
            fields["level"] = session.computer_level
        session.send("add_computer", **fields)

    def cycle_level(self, delta: int = 1) -> None:
        """v: the next computer level the server offers (the ``levels`` of its welcome)."""
        session = self.session
        if not session.levels:
            session.set_status("This server names no computer levels.", error=True)
            return
        levels, level = session.levels, session.computer_level
        index = levels.index(level) if level in levels else -1
        session.computer_level = levels[(index + delta) % len(levels)]
        session.set_status(f"Computer players you add will be {session.computer_level}.")

    def computer_seats(self) -> list[int]:
        seats = (self.game.table or {}).get("seats", [])
        return [i for i, s in enumerate(seats) if s is not None and s.get("kind") == "computer"]

    def remove_computer(self, seat: int | None = None) -> None:
        """x: take a computer player away -- the only one at once, else ask which seat."""
        session = self.session
        if self._seats_closed():
            return
        computers = self.computer_seats()
        if seat is None:
            if not computers:
                session.set_status("No computer player sits at this table.", error=True)
            elif len(computers) == 1:
                session.send("remove_computer", seat=computers[0])
            else:
                self.picking = "remove"
                listed = ", ".join(str(s + 1) for s in computers)
                session.set_status(f"Remove the computer in which seat? {listed} (Esc: none)")
            return
        self.picking = None
        if seat not in computers:
            session.set_status(f"No computer player sits in seat {seat + 1}.", error=True)
            return
        session.clear_status()
        session.send("remove_computer", seat=seat)

    def take_seat(self, seat: int) -> None:
        """A seat key at a waiting table: move there (or sit there, when watching)."""
        game, session = self.game, self.session
        if self._seats_closed():
            return
        assert game.table is not None
        seats = game.table.get("seats", [])
        if not 0 <= seat < len(seats):
            session.set_status(f"This table has seats 1 to {len(seats)}.", error=True)
            return
        if seat == game.seat:
            session.set_status(f"You already sit in seat {seat + 1}.")
            return
        if seats[seat] is not None:
            session.set_status(f"{seats[seat].get('name', 'Someone')} sits in seat {seat + 1}.",
                            error=True)
            return
        session.clear_status()
        session.send("sit", table=game.table_id, seat=seat)

    def pick_seat(self, seat: int) -> None:
        """A seat key (1 is seat 0): the computer to remove when picking one, else a seat."""
        if self.picking == "remove":
            self.remove_computer(seat)
        else:
            self.take_seat(seat)

    def cancel_pick(self) -> None:
        if self.picking is not None:
            self.picking = None
            self.session.clear_status()

    def stand_or_sit(self) -> None:
        """s at a table: a player stands up to watch; a spectator sits in the first free seat."""
        game, session = self.game, self.session
        if self._seats_closed():
            return
        assert game.table is not None
        if game.seat is not None:
            session.clear_status()
            session.send("stand")
            return
        free = free_seats(game.table)
        if not free:
            session.set_status("Every seat is taken.", error=True)
            return
        self.take_seat(free[0])

    def toggle_ready(self) -> None:
        game = self.game
        if game.table is None or game.seat is None:
            return
        seats = game.table.get("seats", [])
        mine = seats[game.seat] if game.seat < len(seats) else None
        ready = not (mine or {}).get("ready", False)
        if game.view.winner is not None and not game.in_game:
            ready = True
        self.session.send("ready", ready=ready)

    def leave(self) -> None:
        if self.game.table_id is not None:
            self.session.send("leave")

    def away_choice(self) -> tuple[int, str, bool] | None:
        """What ``w`` does in a game where someone is away: ``(seat, name, on)``: wait for the
        person a computer stands in for (``on`` false), or let a computer play for the person
        the table waits for, or who is here but silent on their turn (true).  None: nobody is
        away or silent like that, or we do not play."""
        game = self.game
        table = game.table
        if table is None or game.seat is None or table.get("status") != "playing":
            return None
        seats = table.get("seats", [])
        for seat in seats:
            if seat and seat.get("stand_in_for"):
                return seat["seat"], seat["stand_in_for"], False
        for index, name in sorted(game.waiting_for.items()):
            seat = seats[index] if index < len(seats) else None
            if seat and seat.get("kind") == "human" and not seat.get("connected"):
                return index, name, True
        for index, name in sorted(game.silent.items()):  # here, but silent on their turn
            seat = seats[index] if index < len(seats) else None
            if seat and seat.get("kind") == "human" and index != game.seat:
                return index, name, True
        return None

    def toggle_stand_in(self) -> None:
        """``w`` in a game: wait for an away person, or let a computer play for them."""
        choice = self.away_choice()
        if choice is None:
            self.session.set_status("Nobody is away or silent: w waits for a player a computer stands in for.")
            return
        seat, _name, on = choice
        self.session.send("stand_in", seat=seat, on=on)

    def move_cursor(self, delta: int) -> None:
        game = self.game
        if game.hand:
            game.cursor = (game.cursor + delta) % len(game.hand)

    def choose(self, index: int) -> None:
        """Number key ``index + 1``: play that card, or pick/unpick it for the crib."""
        game = self.game
        if not 0 <= index < len(game.hand):
            return
        game.cursor = index
        if game.discard_size:
            self._toggle(game.hand[index])
        else:
            self._play(game.hand[index])

    def toggle(self) -> None:
        """Space: pick or unpick the card under the cursor for the crib."""
        game = self.game
        if game.discard_size and game.hand:
            self._toggle(game.hand[game.cursor])

    def enter(self) -> None:
        """Enter: lay away the chosen cards, play the card under the cursor, or say go."""
        game = self.game
        size = game.discard_size
        if size:
            if len(game.selected) == size:
                cards = sort_cards(game.selected)
                self._action("discard", cards=cards)
            elif game.hand:
                self._toggle(game.hand[game.cursor])
            return
        if not game.can_act:
            self._not_your_turn()
            return
        if game.go_is_legal:
            self._action("go")
        elif game.hand:
            self._play(game.hand[game.cursor])

    def say_go(self) -> None:
        game = self.game
        if game.go_is_legal:
            self._action("go")
        elif game.can_act and game.playable():
            self.session.set_status("You can still play a card; go is only for when you cannot.",
                                    error=True)
        else:
            self._not_your_turn()

    def _not_your_turn(self) -> None:
        if self.game.in_game and self.game.view.winner is None:
            self.session.set_status("It is not your turn.", error=True)

    def _toggle(self, card: str) -> None:
        game = self.game
        if card in game.selected:
            game.selected.discard(card)
        elif len(game.selected) < game.discard_size:
            game.selected.add(card)
        else:
            self.session.set_status(f"You lay away {game.discard_size}; unpick one first.",
                                    error=True)
            return
        self.session.clear_status()

    def _play(self, card: str) -> None:
        game = self.game
        if not game.can_act:
            self._not_your_turn()
            return
        if card not in game.playable():
            room = 31 - game.view.count
            self.session.set_status(f"{card_label(card)} ({card_value(card)}) would pass 31: "
                         f"only {room} to go.", error=True)
            return
        self._action("play", card=card)

    def _action(self, verb: str, **fields: Any) -> None:
        if self.game.sending_action:
            return
        self.game.sending_action = True
        self.session.clear_status()
        self.session.send("action", action=verb, **fields)

    def _rated_words(self, lead: str, ended: bool = False) -> str:
        """`` The game will be rated.`` or ``... unrated: ben is a guest.`` (as the table's
        summary says, or if ``ended`` said as the game ended), or nothing from a server that
        does not say."""
        table = (self.game.game_rating if ended else None) or self.game.table or {}
        if not isinstance(table.get("rated"), bool):
            return ""
        if table["rated"]:
            return f"{lead} rated."
        return f"{lead} unrated: {table.get('unrated_why') or 'see the server'}."

    def _match_words(self) -> str:
        """What a seat may do once a game is over: at a match table, the match score and the
        next game of it (or who won the match); otherwise play again."""
        table = self.game.table or {}
        match = table.get("match")
        if not match:
            return "The game is over: r to play again, l to leave the table."
        names = match_sides(table)
        score = ", ".join(f"{name} {points}" for name, points in zip(names, match["points"]))
        winner = match.get("winner")
        if winner is not None and 0 <= winner < len(names):
            resigned = match.get("resigned")
            if resigned is not None and 0 <= resigned < len(names):  # why, whatever the points
                score += f"; {names[resigned]} gave it up"
            return f"{names[winner]} won the match ({score}): r starts a new match, l leaves."
        return f"Match to {match['to']}: {score}. r for game {match['game'] + 1}, l leaves (gives up the match)."

    def prompt(self) -> str:
        """The line that says what happens now, and what the player may do."""
        game, view, session = self.game, self.game.view, self.session
        if session.connection in ("reconnecting", "offline"):
            return session.connection_words()
        if view.winner is not None:
            if game.seat is None:
                return "The game is over: l goes back to the lobby." + self._rated_words(" That game was", True)
            return self._match_words() + self._rated_words(" That game was", True)
        if self.picking == "remove":
            return "Remove which computer? Press its seat number; Esc keeps them all."
        if not game.in_game:
            if game.table is not None and game.seat is not None:
                seats = game.table.get("seats", [])
                if not free_seats(game.table):
                    mine = seats[game.seat] if game.seat < len(seats) else None
                    if not (mine or {}).get("ready"):
                        return ("Every seat is taken: r says you are ready, and the game begins."
                                + self._rated_words(" The game will be"))
                    waiting = [str(s.get("name")) for i, s in enumerate(seats)
                               if s is not None and i != game.seat and not s.get("ready")]
                    return (f"You are ready; waiting for {', '.join(waiting) or 'the others'} "
                            "(r: not ready after all)." + self._rated_words(" The game will be"))
                level = f" ({session.computer_level})" if session.computer_level else ""
                return (f"Waiting for players: a adds a computer{level}, r says you are ready."
                        + self._rated_words(" The game will be"))
            if self.seats_open:
                return "Watching: s or a seat number sits you down, l goes back to the lobby."
            return "Watching: l goes back to the lobby."
        size = game.discard_size
        if size:
            crib = game.whose_crib()
            chosen = len(game.selected)
            return (f"Lay away {size} for {crib} crib ({chosen}/{size}): keys 1-{len(game.hand)} "
                    "or ←→ Space, then Enter.")
        if game.can_act:
            if game.go_is_legal:
                return "You cannot play without passing 31: g (or Enter) says go."
            if len(game.hand) == 1:
                return "Your turn: play your card with 1, or Enter."
            return f"Your turn: play a card with 1-{len(game.hand)}, or ←→ and Enter."
        if len(view.awaiting) > 1 or (view.phase == "discard" and view.awaiting):
            names = ", ".join(game.seat_name(s) for s in view.awaiting if s != game.seat)
            return f"Waiting for {names} to lay away."
        if view.to_move is not None:
            return f"{game.seat_name(view.to_move)} to play."
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


__all__ = ["TableScreen", "match_sides"]
