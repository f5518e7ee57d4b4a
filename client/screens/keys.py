"""The keys of the lobby, the create-table form and the table, one function per screen.

Each function adds one screen's bindings to the application's :class:`KeyBindings`, under the
filter that says the screen is up and no line or box has the keyboard (``free``, worked out
by :mod:`noddy.client.app`).  A key calls a method of the screen's model
(:mod:`~noddy.client.screens.lobby`, :mod:`~noddy.client.screens.form`,
:mod:`~noddy.client.screens.table`, through the composed
:class:`~noddy.client.model.ViewModel`) and then ``after``, which writes the
queued requests to the connection and redraws; what a key needs of the application itself
(retry the connection now, the log window's height, asking before resigning) comes in as a
callable.  The keys that belong to no one screen (help, quit, chat, the password and name
lines, the count of a deal) stay in the application; the finished games' screens bind theirs
in :func:`noddy.client.screens.records.bind_keys`.
"""

from __future__ import annotations

from typing import Callable

from prompt_toolkit.filters import Condition, Filter
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

from ..model import ViewModel
from .form import NewTable

After = Callable[[KeyPressEvent], None]


def bind_lobby(kb: KeyBindings, model: ViewModel, lobby: Filter, after: After,
               retry: Callable[[], None], challenged: Filter) -> None:
    """↑↓ choose a table; Enter/s sit, 1-4 sit in that seat, w watch, n new table, r refresh,
    a register your name (a password, asked on the masked line) -- unless a challenge waits
    (``challenged``): then a accepts it (:func:`noddy.client.screens.people.bind_keys`)."""
    @kb.add("up", filter=lobby)
    @kb.add("k", filter=lobby)
    def _lobby_up(event: KeyPressEvent) -> None:
        model.lobby_move(-1)

    @kb.add("down", filter=lobby)
    @kb.add("j", filter=lobby)
    def _lobby_down(event: KeyPressEvent) -> None:
        model.lobby_move(1)

    @kb.add("enter", filter=lobby)
    @kb.add("s", filter=lobby)
    def _sit(event: KeyPressEvent) -> None:
        model.clear_status()
        model.sit()
        after(event)

    @kb.add("w", filter=lobby)
    def _watch(event: KeyPressEvent) -> None:
        model.clear_status()
        model.spectate()
        after(event)

    for digit in "1234":
        def _sit_in(event: KeyPressEvent, seat: int = int(digit) - 1) -> None:
            model.clear_status()
            model.sit(seat)
            after(event)
        kb.add(digit, filter=lobby)(_sit_in)

    @kb.add("n", filter=lobby)
    def _new(event: KeyPressEvent) -> None:
        model.clear_status()
        model.open_form()

    @kb.add("a", filter=lobby & ~challenged)
    def _account(event: KeyPressEvent) -> None:
        model.clear_status()
        model.ask_to_register()
        after(event)

    @kb.add("r", filter=lobby)
    def _refresh(event: KeyPressEvent) -> None:
        if model.connection != "online":
            retry()
            return
        model.send("list_tables")
        after(event)


def bind_form(kb: KeyBindings, new_table: NewTable, form: Filter, typing: Filter,
              after: After) -> None:
    """↑↓ Tab move between rows, ←→ Space change, PgUp/PgDn by ten, Enter create, Esc/q
    close; on the password row (``typing``) printable keys type."""
    @kb.add("up", filter=form)
    def _form_up(event: KeyPressEvent) -> None:
        assert new_table.form is not None
        new_table.form.move(-1)

    @kb.add("down", filter=form)
    @kb.add("tab", filter=form)
    def _form_down(event: KeyPressEvent) -> None:
        assert new_table.form is not None
        new_table.form.move(1)

    @kb.add("left", filter=form)
    def _form_left(event: KeyPressEvent) -> None:
        assert new_table.form is not None
        new_table.form.change(-1)

    @kb.add("right", filter=form)
    @kb.add("space", filter=form & ~typing)
    def _form_right(event: KeyPressEvent) -> None:
        assert new_table.form is not None
        new_table.form.change(1)

    @kb.add("pageup", filter=form)
    def _form_big_up(event: KeyPressEvent) -> None:
        assert new_table.form is not None
        new_table.form.change(1, big=True)

    @kb.add("pagedown", filter=form)
    def _form_big_down(event: KeyPressEvent) -> None:
        assert new_table.form is not None
        new_table.form.change(-1, big=True)

    @kb.add("enter", filter=form)
    def _form_submit(event: KeyPressEvent) -> None:
        new_table.submit_form()
        after(event)

    @kb.add("escape", filter=form, eager=True)
    @kb.add("q", filter=form & ~typing)
    def _form_cancel(event: KeyPressEvent) -> None:
        new_table.close_form()

    @kb.add("<any>", filter=typing)
    def _form_type(event: KeyPressEvent) -> None:
        assert new_table.form is not None
        if len(event.data) == 1 and event.data.isprintable():
            new_table.form.type_text(event.data)

    @kb.add("backspace", filter=typing)
    def _form_backspace(event: KeyPressEvent) -> None:
        assert new_table.form is not None
        new_table.form.backspace()


def bind_table(kb: KeyBindings, model: ViewModel, table: Filter, picking: Filter, after: After,
               retry: Callable[[], None], scroll_log: Callable[[float], None],
               log_height: Callable[[], int], ask_to_resign: Callable[[], bool]) -> None:
    """Numbers (a card, or a seat before a game), ←→ Space Enter g for cards; h the coach's
    hint, v its review of the last deal; s a x v r l for seats, computers, ready and leaving;
    PgUp PgDn Home End for the log.  While a show is counted by hand the digits, Enter,
    Backspace, Esc and p are the count's (:func:`bind_counting`).  ``ask_to_resign`` opens
    the "leave for good?" question during a game and says whether it did."""
    entering = table & Condition(lambda: model.hand_count.active)
    bind_counting(kb, model, entering, after)
    table = table & ~entering
    for digit in "123456789":
        def _choose(event: KeyPressEvent, index: int = int(digit) - 1) -> None:
            # A number is a card in a game, a seat before one (or when picking a computer).
            if model.picking is not None or (model.seats_open and not model.can_act):
                model.pick_seat(index)
            else:
                model.choose(index)
            after(event)
        kb.add(digit, filter=table)(_choose)

    @kb.add("escape", filter=picking, eager=True)
    def _cancel_pick(event: KeyPressEvent) -> None:
        model.cancel_pick()

    @kb.add("s", filter=table)
    def _stand_or_sit(event: KeyPressEvent) -> None:
        model.stand_or_sit()
        after(event)

    @kb.add("x", filter=table)
    def _remove_computer(event: KeyPressEvent) -> None:
        model.remove_computer()
        after(event)

    @kb.add("v", filter=table)
    def _level_or_review(event: KeyPressEvent) -> None:
        # During a game at a coached table, v opens the review of the last deal.
        if model.in_game and model.coach.hints_on:
            if not model.coach.open_review():
                model.set_status("The coach reviews each deal when it ends.")
            return
        model.cycle_level()

    @kb.add("h", filter=table)
    def _hint(event: KeyPressEvent) -> None:
        model.coach.ask_hint()
        after(event)

    @kb.add("pageup", filter=table)
    def _log_back(event: KeyPressEvent) -> None:
        scroll_log(1)

    @kb.add("pagedown", filter=table)
    def _log_forward(event: KeyPressEvent) -> None:
        scroll_log(-1)

    @kb.add("end", filter=table)
    def _log_end(event: KeyPressEvent) -> None:
        model.scroll_log_to_end()

    @kb.add("home", filter=table)
    def _log_start(event: KeyPressEvent) -> None:
        model.scroll_log(len(model.log), log_height())

    @kb.add("left", filter=table)
    def _left(event: KeyPressEvent) -> None:
        model.move_cursor(-1)

    @kb.add("right", filter=table)
    def _right(event: KeyPressEvent) -> None:
        model.move_cursor(1)

    @kb.add("space", filter=table)
    def _toggle(event: KeyPressEvent) -> None:
        model.toggle()

    @kb.add("enter", filter=table)
    def _enter(event: KeyPressEvent) -> None:
        model.enter()
        after(event)

    @kb.add("w", filter=table)
    def _wait_or_stand_in(event: KeyPressEvent) -> None:
        model.toggle_stand_in()
        after(event)

    @kb.add("g", filter=table)
    def _go(event: KeyPressEvent) -> None:
        model.say_go()
        after(event)

    @kb.add("a", filter=table)
    def _computer(event: KeyPressEvent) -> None:
        model.add_computer()
        after(event)

    @kb.add("r", filter=table)
    def _ready(event: KeyPressEvent) -> None:
        if model.connection != "online":
            retry()
            return
        model.toggle_ready()
        after(event)

    @kb.add("l", filter=table)
    def _leave(event: KeyPressEvent) -> None:
        if ask_to_resign():
            return
        model.leave()
        after(event)


def bind_counting(kb: KeyBindings, model: ViewModel, entering: Filter, after: After) -> None:
    """Counting by hand (``entering``: our turn to claim or call muggins): 0-9 type the
    points, Backspace edits, Esc clears, Enter claims or calls, p passes."""
    count = model.hand_count
    for digit in "0123456789":
        def _digit(event: KeyPressEvent, digit: str = digit) -> None:
            count.type_digit(digit)
        kb.add(digit, filter=entering)(_digit)

    @kb.add("backspace", filter=entering)
    def _backspace(event: KeyPressEvent) -> None:
        count.backspace()

    @kb.add("escape", filter=entering, eager=True)
    def _clear(event: KeyPressEvent) -> None:
        count.clear()

    @kb.add("enter", filter=entering)
    def _claim(event: KeyPressEvent) -> None:
        count.submit()
        after(event)

    @kb.add("p", filter=entering)
    def _pass(event: KeyPressEvent) -> None:
        count.pass_claim()
        after(event)

    @kb.add("h", filter=entering)
    def _no_hint(event: KeyPressEvent) -> None:
        model.coach.ask_hint()       # (says why not: the coach never counts a hand)


__all__ = ["bind_lobby", "bind_form", "bind_table", "bind_counting"]
