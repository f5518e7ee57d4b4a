"""A club night's board before its game (issue 35): the server seats and starts it, so the
table screen offers none of the waiting table's seat, computer and ready keys and says instead
that the game begins by itself.

Each test feeds the model the messages a server would send and checks the exact text shown.
"""

from __future__ import annotations

import pytest

from noddy.client.render import keys_fragments, plain

from .test_tables import at_waiting_table, human, sent

EVENT = {"id": 3, "round": 1, "board": 1}
WORDS = "Board 1 of club night 3, round 1: the game begins by itself when both players are seated."


def at_event_board(seats: list) -> object:
    model = at_waiting_table(seats)
    model.game.table = model.game.table | {"event": EVENT}
    return model


def test_an_event_board_says_the_game_begins_by_itself() -> None:
    model = at_event_board([human(0, "Me"), None])
    assert model.prompt() == WORDS
    model = at_event_board([human(0, "Me"), human(1, "cy")])
    assert model.prompt() == WORDS


@pytest.mark.parametrize("width", [80, 60])
def test_an_event_board_offers_no_seat_computer_or_ready_keys(width: int) -> None:
    model = at_event_board([human(0, "Me"), None])
    assert plain(keys_fragments(model, width)) == (
        " l leave  c chat  ? help  q quit " if width == 80 else " l leave  c chat  ? help  q quit ")


def test_seat_keys_send_nothing_at_an_event_board() -> None:
    model = at_event_board([human(0, "Me"), None])
    screen = model.table_screen
    for key in (lambda: screen.seats.pick_seat(1), screen.seats.stand_or_sit, screen.seats.add_computer):
        key()
        assert sent(model) == []
        assert model.session.status == "The server seats a club night's board: its game begins by itself."
