"""The table screen's keys: seats before a game, cards during one, and the prompt line.

:class:`TableScreen` is what the player does at a table: before (or after) a game, move
seat, stand up to watch, add or remove a computer player, say ready; during one, choose
cards with the number keys or the arrows and Enter, lay away, say go.  It reads the state
:class:`~noddy.client.screens.game.Game` folds from the server's messages and queues requests on
the :class:`~noddy.client.session.Session`; it keeps only what a key started
(``picking``: a seat key is choosing which computer to remove).  :meth:`TableScreen.prompt`
is the line that says what happens now and which keys do something.  The screen's windows
are :class:`~noddy.client.screens.table_layout.TableLayout`; what its seat keys do is
:class:`~noddy.client.screens.table_seats.Seating`'s, a part of it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from noddy.protocol.i18n import N_, _

from ..cards import card_label, card_value, sort_cards
from ..keymap import Screen, key
from ..session import TABLE, Session
from .game import Game
from .table_prompt import match_sides, match_words, prompt
from .table_seats import Seating

if TYPE_CHECKING:
    from .coach import Coach


class TableScreen(Screen):
    """The keys and the prompt of the table screen (module docstring)."""

    title = N_("At a table")

    def __init__(self, session: Session, game: Game) -> None:
        self.session = session
        self.game = game
        #: The coach (h, v) and the count by hand (while it is typed, its keys are live,
        #: not these): given by the composition (:class:`~noddy.client.model.ViewModel`).
        self.coach: Coach | None = None
        self.counting: Callable[[], bool] = lambda: False
        #: Who sits where before a game (seat keys, s, a, x, v, r): a room of its own.
        self.seats = Seating(session, game)

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
        for index, name in sorted(game.news.waiting_for.items()):
            seat = seats[index] if index < len(seats) else None
            if seat and seat.get("kind") == "human" and not seat.get("connected"):
                return index, name, True
        for index, name in sorted(game.news.silent.items()):  # here, but silent on their turn
            seat = seats[index] if index < len(seats) else None
            if seat and seat.get("kind") == "human" and index != game.seat:
                return index, name, True
        return None

    def toggle_stand_in(self) -> None:
        """``w`` in a game: wait for an away person, or let a computer play for them."""
        choice = self.away_choice()
        if choice is None:
            self.session.set_status(_("Nobody is away or silent: w waits for a player a "
                                      "computer stands in for."))
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
            self.session.set_status(_("You can still play a card; go is only for when you cannot."),
                                    error=True)
        else:
            self._not_your_turn()

    def _not_your_turn(self) -> None:
        if self.game.in_game and self.game.view.winner is None:
            self.session.set_status(_("It is not your turn."), error=True)

    def _toggle(self, card: str) -> None:
        game = self.game
        if card in game.selected:
            game.selected.discard(card)
        elif len(game.selected) < game.discard_size:
            game.selected.add(card)
        else:
            self.session.set_status(_("You lay away {size}; unpick one first.").format(
                size=game.discard_size), error=True)
            return
        self.session.clear_status()

    def _play(self, card: str) -> None:
        game = self.game
        if not game.can_act:
            self._not_your_turn()
            return
        if card not in game.playable():
            room = 31 - game.view.count
            self.session.set_status(_("{card} ({value}) would pass 31: only {room} to go.").format(
                card=card_label(card), value=card_value(card), room=room), error=True)
            return
        self._action("play", card=card)

    def _action(self, verb: str, **fields: Any) -> None:
        if self.game.sending_action:
            return
        self.session.game_moved_on()
        self.game.sending_action = True
        self.session.clear_status()
        self.session.send("action", action=verb, **fields)

    # == keys ============================================================================
    def is_up(self) -> bool:
        return self.session.screen == TABLE and not self.counting()

    def playing(self) -> bool:
        """We hold a seat in a game not yet over (quitting keeps the seat, leaving gives it)."""
        game = self.game
        return game.seat is not None and game.in_game and game.view.winner is None

    def in_match(self) -> bool:
        """We hold a seat at a table playing a match that nobody has won yet."""
        match = (self.game.table or {}).get("match")
        return self.game.seat is not None and bool(match) and match.get("winner") is None

    @key("1", "2", "3", "4", "5", "6", "7", "8", "9", label=N_("1-6"),
         help=N_("play that card / pick it for the crib; before a game, move to that seat"),
         sends=("action", "sit", "remove_computer"))
    def _number(self, pressed: str) -> None:
        index = int(pressed) - 1
        if self.seats.picking is not None or (self.seats.seats_open and not self.game.can_act):
            self.seats.pick_seat(index)
        else:
            self.choose(index)

    @key("left", label=N_("← →"), help=N_("move along the hand"), flush=False)
    def _left(self, pressed: str) -> None:
        self.move_cursor(-1)

    @key("right", help="", flush=False)
    def _right(self, pressed: str) -> None:
        self.move_cursor(1)

    @key("space", help=N_("pick a card for the crib"), flush=False)
    def _pick(self, pressed: str) -> None:
        self.toggle()

    @key("enter", help=N_("play / lay away the picked cards"), sends="action")
    def _enter(self, pressed: str) -> None:
        self.enter()

    @key("g", help=N_("go (when it is legal)"), sends="action")
    def _go(self, pressed: str) -> None:
        self.say_go()

    @key("h", help=N_("the coach's hint (a table with the coach)"), sends="hint")
    def _hint(self, pressed: str) -> None:
        if self.coach is not None:
            self.coach.ask_hint()

    @key("v", help=N_("the coach's review; before a game, the computers' level"), flush=False)
    def _level_or_review(self, pressed: str) -> None:
        if self.game.in_game and self.coach is not None and self.coach.hints_on:
            if not self.coach.open_review():
                self.session.set_status(_("The coach reviews each deal when it ends."))
            return
        self.seats.cycle_level()

    @key("pageup", label=N_("PgUp PgDn"), help=N_("scroll the log (Home, End)"), flush=False)
    def _log_back(self, pressed: str) -> None:
        self._scroll_log(1)

    @key("pagedown", help="", flush=False)
    def _log_forward(self, pressed: str) -> None:
        self._scroll_log(-1)

    @key("home", help="", flush=False)
    def _log_start(self, pressed: str) -> None:
        self.game.scroll_log(len(self.game.log), self._log_height())

    @key("end", help="", flush=False)
    def _log_end(self, pressed: str) -> None:
        self.game.scroll_log_to_end()

    def _log_height(self) -> int:
        return self.host.log_height() if self.host is not None else 1

    def _scroll_log(self, pages: float) -> None:
        """PgUp/PgDn by the log window's height less one line, so a line stays in view."""
        height = self._log_height()
        self.game.scroll_log(round(pages * max(1, height - 1)), view_height=height)

    @key("s", help=N_("stand up to watch / sit down"), sends=("stand", "sit"))
    def _stand_or_sit(self, pressed: str) -> None:
        self.seats.stand_or_sit()

    @key("a", help=N_("add a computer player"), sends="add_computer")
    def _computer(self, pressed: str) -> None:
        self.seats.add_computer()

    @key("x", help=N_("remove a computer (then its seat number)"), sends="remove_computer")
    def _remove(self, pressed: str) -> None:
        self.seats.remove_computer()

    @key("escape", label=N_("Esc"), help="", when=lambda self: self.seats.picking is not None,
         eager=True, flush=False)
    def _cancel(self, pressed: str) -> None:
        self.seats.cancel_pick()

    @key("r", help=N_("ready / play again"), sends="ready")
    def _ready(self, pressed: str) -> None:
        if self.session.connection != "online":
            if self.host is not None:
                self.host.retry_now()
            return
        self.seats.toggle_ready()

    @key("w", help=N_("wait for someone away / let a computer play for them"), sends="stand_in")
    def _stand_in(self, pressed: str) -> None:
        self.toggle_stand_in()

    @key("l", help=N_("leave the table (in a game: resign it, a loss; asked first)"), sends="leave")
    def _leave(self, pressed: str) -> None:
        if self.playing() and self.host is not None:
            self.host.confirm(_(" Resign this game?\n It counts as a loss for your side.  y / n "),
                              self.leave)
            return
        self.leave()

    @key("m", help=N_("give up the match, staying at the table (asked first)"),
         sends="resign_match", when=lambda self: self.in_match())
    def _resign_match(self, pressed: str) -> None:
        if self.host is not None:
            self.host.confirm(_(" Give up the match?\n The other side wins it; you stay at the "
                                "table.  y / n "), self.resign_match)

    def resign_match(self) -> None:
        if self.game.table_id is not None:
            self.session.send("resign_match")


    def _match_words(self) -> str:
        return match_words(self.game)

    def prompt(self) -> str:
        """The line that says what happens now, and what the player may do."""
        return prompt(self.game, self.session, self.seats.picking, self.seats.seats_open)


__all__ = ["TableScreen", "match_sides"]
