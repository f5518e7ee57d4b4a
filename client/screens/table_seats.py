"""The table's seats before a game: move, sit, stand up to watch, add or remove a computer
player, choose the computers' level, say ready.

:class:`Seating` is the room of :class:`~noddy.client.screens.table.TableScreen` (its
``seats``) that changes who sits where: what its seat keys, ``s``, ``a``, ``x``, ``v`` and
``r`` do before (or after) a game.  It says in words, at once, why a key does nothing (a game is on, the
seat is taken, a club night's board is seated by the server) rather than sending a request
the server would refuse.  It is kept apart from the keys of the game itself (cards, go,
the log), which are the table screen's own.
"""

from __future__ import annotations

from typing import Any

from noddy.protocol.i18n import _

from ..session import Session
from .game import Game
from .lobby import free_seats
from .table_prompt import EVENT_BOARD_STATUS


class Seating:
    """The seat keys' work at a table (module docstring); ``TableScreen.seats``."""

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
                and not game.table.get("event")  # a club night's board: the server seats it
                and (not game.in_game or game.view.winner is not None))

    def at_event_board(self) -> bool:
        """At a club night's board (issue 35) before its game: the server seats its two
        players and starts the game itself, refusing seat, computer and ready requests."""
        table = self.game.table
        return table is not None and bool(table.get("event")) and not self.game.in_game

    def _seats_closed(self) -> bool:
        if self.game.table is not None and self.seats_open:
            return False
        if self.game.table is not None and self.game.table.get("event"):
            self.session.set_status(_(EVENT_BOARD_STATUS), error=True)
        elif self.game.table is not None:
            self.session.set_status(_("Seats cannot change during a game."), error=True)
        return True

    def add_computer(self) -> None:
        """Seat a computer player of :attr:`computer_level` in the first free seat."""
        session = self.session
        if self.game.table is None or self._seats_closed():
            return
        free = free_seats(self.game.table)
        if not free:
            session.set_status(_("Every seat is taken."), error=True)
            return
        fields: dict[str, Any] = {"seat": free[0]}
        if session.computer_level:
            fields["level"] = session.computer_level
        session.send("add_computer", **fields)

    def cycle_level(self, delta: int = 1) -> None:
        """v: the next computer level the server offers (the ``levels`` of its welcome)."""
        session = self.session
        if not session.levels:
            session.set_status(_("This server names no computer levels."), error=True)
            return
        levels, level = session.levels, session.computer_level
        index = levels.index(level) if level in levels else -1
        session.computer_level = levels[(index + delta) % len(levels)]
        session.set_status(_("Computer players you add will be {level}.").format(
            level=session.computer_level))

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
                session.set_status(_("No computer player sits at this table."), error=True)
            elif len(computers) == 1:
                session.send("remove_computer", seat=computers[0])
            else:
                self.picking = "remove"
                listed = ", ".join(str(s + 1) for s in computers)
                session.set_status(_("Remove the computer in which seat? {seats} (Esc: none)").format(
                    seats=listed))
            return
        self.picking = None
        if seat not in computers:
            session.set_status(_("No computer player sits in seat {seat}.").format(seat=seat + 1),
                               error=True)
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
            session.set_status(_("This table has seats 1 to {seats}.").format(seats=len(seats)),
                               error=True)
            return
        if seat == game.seat:
            session.set_status(_("You already sit in seat {seat}.").format(seat=seat + 1))
            return
        if seats[seat] is not None:
            session.set_status(_("{name} sits in seat {seat}.").format(
                name=seats[seat]["name"] if "name" in seats[seat] else _("Someone"), seat=seat + 1), error=True)
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
            session.set_status(_("Every seat is taken."), error=True)
            return
        self.take_seat(free[0])

    def toggle_ready(self) -> None:
        game = self.game
        if game.table is None or game.seat is None:
            return
        if self.at_event_board():
            self.session.set_status(_(EVENT_BOARD_STATUS), error=True)
            return
        if game.in_game and game.view.winner is None:  # the server would only refuse it (issue 33)
            self.session.set_status(_("A game is being played: r says you are ready when it is "
                                      "over."))
            return
        seats = game.table.get("seats", [])
        mine = seats[game.seat] if game.seat < len(seats) else None
        ready = not (mine or {}).get("ready", False)
        if game.view.winner is not None and not game.in_game:
            ready = True
        self.session.send("ready", ready=ready)


__all__ = ["Seating"]
