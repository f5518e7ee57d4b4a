"""A stand-in does not rewrite history in the client (issue 33, item 6, the client's part):
once a computer stands in for ben, the peg board still names ben (with the stand-in said
beside him) and the count of the deal names who held each hand then, at 80x24 and 60x20,
with no word cut at a border.
"""

from __future__ import annotations

import re
from typing import Any

from noddy.client.app import ClientApp
from noddy.client.render import board_fragments

from .test_model import deal_004, ev, summary
from .test_no_cut_words import ME, assert_whole, client, seat  # noqa: F401 (the fixture)

COMPUTER = "greedy computer 2"


def _table(second: dict[str, Any]) -> dict[str, Any]:
    return {**summary("playing"), "seats": [seat(0, ME), second]}


def ben_left_mid_deal(client: ClientApp) -> None:  # noqa: F811
    """ben sits in seat 2 and plays 3♣; he leaves and a computer plays 6♠ for him."""
    model = client.model
    model.session.send("create_table", preset="noddy", players=2, seat=0)
    model.handle({"type": "table", "table": _table(seat(1, "ben")), "id": model.session.outbox[-1]["id"]})
    deal_004(model)
    model.handle(ev(9, "played", seat=0, card="4H", count=4))
    model.handle(ev(10, "played", seat=1, card="3C", count=7))
    model.handle({"type": "table", "table": _table(seat(1, COMPUTER, kind="computer", stand_in_for="ben",
                                                         connected=True))})
    model.handle(ev(11, "played", seat=0, card="TC", count=17))
    model.handle(ev(12, "played", seat=1, card="6S", count=23))


def board_labels(client: ClientApp) -> list[str]:  # noqa: F811
    width = client.application.output.get_size().columns
    text = "".join(t for _, t, *_ in board_fragments(client.model, width))
    return [re.split("[▕●○]", row)[0].strip() for row in text.splitlines()]


async def test_the_board_keeps_bens_name_while_the_computer_plays_for_him(client: ClientApp) -> None:  # noqa: F811
    ben_left_mid_deal(client)
    width = client.application.output.get_size().columns
    said = "ben (greedy cpu 2 standing in)" if width == 80 else "ben (stand-in)"
    assert board_labels(client) == [ME, said]
    rows = assert_whole(client, "the table with a stand-in")
    assert rows[2].startswith(f" {said} ")


async def test_the_count_names_who_held_each_hand(client: ClientApp) -> None:  # noqa: F811
    ben_left_mid_deal(client)
    client.model.handle(ev(13, "hands_revealed", hands=[["TC", "JH", "4H"], ["6S", "6D", "3C"]], crib=None))
    count = client.model.game.deal_count
    assert count is not None and [row.label for row in count.rows] == [ME, "ben"]
    rows = assert_whole(client, "the count of the deal after a stand-in")
    assert any(row.lstrip().startswith("ben ") for row in rows)


def ben_never_came_back(client: ClientApp) -> None:  # noqa: F811
    """The game ends with ben's seat abandoned (the result names who was dealt in); then the
    server frees the stand-in's seat (``_free_stand_ins``): the summary has no ``stand_in_for``."""
    ben_left_mid_deal(client)
    client.model.handle(ev(13, "game_over", winner=0, winning_seats=[0], scores=[31, 7],
                           ending="abandoned", skunk="none", abandoned=[1], names=[ME, "ben"]))
    client.model.handle({"type": "table", "table": {**_table(seat(0, ME)), "status": "finished",
                                                    "seats": [seat(0, ME), None]}})


async def test_the_board_names_ben_after_the_game_he_never_came_back_to(client: ClientApp) -> None:  # noqa: F811
    """Seen in tmux: after ``ben left and never came back`` the board read ``greedy computer 2``."""
    ben_never_came_back(client)
    assert board_labels(client) == [ME, "ben"]
    rows = assert_whole(client, "the table after the game a stand-in finished")
    assert rows[2].startswith(" ben ")
    assert not any(COMPUTER in row or compact_name(COMPUTER) in row for row in rows[:4])


def compact_name(name: str) -> str:
    return name.replace(" computer ", " cpu ")


async def test_the_pile_after_the_game_does_not_mark_the_stand_in_as_another_seat(client: ClientApp) -> None:  # noqa: F811
    """Named ben again after the game, the seat's 6♠ (the computer's) must not read ``G:``,
    which is guinevere's mark: the pile marks seats by number."""
    ben_never_came_back(client)
    pile = next(row for row in assert_whole(client, "the pile after the game") if "Pile" in row)
    assert pile.split("Pile ")[1].split() == ["1:4♥", "2:3♣", "1:10♣", "2:6♠"]
