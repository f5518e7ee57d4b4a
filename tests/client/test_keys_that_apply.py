"""Keys offered only where they do something (issue 33's third evening): the help lists
``a register your name`` only to a guest, and ``r`` (ready) in a game in progress sends
nothing (it showed the server's raw ``a game is being played at table 4``).  Through pipe
input at 80x24 and 60x20 (the ``client`` fixture), keys pressed as a person would.
"""

from __future__ import annotations

from noddy.client import keys
from noddy.client.app import ClientApp

from .test_model import deal_004, summary
from .test_no_cut_words import ME, assert_whole, client, seat  # noqa: F401 (the fixture)
from .test_scrolling import press


def help_lines(client: ClientApp) -> str:  # noqa: F811
    width = client.application.output.get_size().columns
    return keys.help_text(width, client.screens())


async def test_the_help_offers_registering_only_to_a_guest(client: ClientApp) -> None:  # noqa: F811
    assert "register your name" in help_lines(client)          # the fixture's ME is a guest
    client.model.handle({"type": "registered", "name": ME})
    assert "register your name" not in help_lines(client)
    press(client, "?")
    assert not any("register" in row for row in assert_whole(client, "a registered person's help"))


async def test_r_in_a_game_in_progress_sends_nothing_and_says_why(client: ClientApp) -> None:  # noqa: F811
    model = client.model
    model.game.enter_table(1, {**summary("playing"), "seats": [seat(0, ME, ready=True), seat(1, "ben", ready=True)]})
    model.game.seat = 0
    deal_004(model)
    press(client, "r")
    assert client.sent == []  # type: ignore[attr-defined]
    assert model.session.status == "A game is being played: r says you are ready when it is over."
    assert_whole(client, "the table after r in a game")
