"""The client and matches (issue 26): the new-table form offers the server's ``match`` option,
and the title bar shows the running match score, then who won the match."""

from __future__ import annotations

from noddy.client.model import ViewModel
from noddy.client.render import plain
from noddy.client.render.bars import keys_fragments, title_fragments
from noddy.server.model.table_options import advertised_options

from .test_model import welcomed_form


def test_the_form_offers_a_match_and_sends_it_in_the_options() -> None:
    model = welcomed_form(table_options=advertised_options())
    form = model.new_table.form
    assert form is not None
    rows = [label for label, _ in form.rows()]
    assert {"Coach (h: hints)", "Match", "Turn timer"} <= set(rows)  # where each stands is the form's
    assert dict(form.rows())["Match"] == "single games"
    form.move(rows.index("Match"))
    form.change(-1)                   # single games -> 15 (round the other way)
    assert dict(form.rows())["Match"] == "first to 15 match points"
    form.change(1)
    form.change(1)                    # -> single games -> 2
    assert dict(form.rows())["Match"] == "first to 2 match points"
    model.new_table.submit_form()
    create = [m for m in model.session.take_outbox() if m["type"] == "create_table"][0]
    assert create["options"] == {"match": 2}


def test_the_title_shows_the_match_score_then_its_winner() -> None:
    model = welcomed_form(table_options=advertised_options())
    model.new_table.close_form()
    seats = [{"seat": 0, "name": "ann"}, {"seat": 1, "name": "ben"}]
    table = {"id": 1, "preset": "cribbage", "players": 2, "partnerships": False, "status": "playing",
             "options": {"match": 3}, "seats": seats, "spectators": [],
             "match": {"to": 3, "points": [1, 0], "game": 2, "id": 1, "winner": None}}
    model.handle({"type": "table", "table": table})  # (no "rated": an older server's summary)
    model.game.enter_table(1, table)
    model.session.screen = "table"
    assert plain(title_fragments(model, "host:1")).rstrip() == (
        " Noddy · Me @ host:1 · Table 1 · cribbage to 121 · match 1-0 to 3")
    model.game.table = table | {"match": {"to": 3, "points": [3, 0], "game": 2, "id": 1, "winner": 0}}
    assert plain(title_fragments(model, "host:1")).rstrip() == (
        " Noddy · Me @ host:1 · Table 1 · cribbage to 121 · match: ann won")


def test_a_title_too_long_for_80_columns_leaves_out_the_address_not_its_end() -> None:
    # Seen in tmux at 80x24: " Noddy · dee (guest) @ 127.0.0.1:40401 · Table 3 · noddy to 31
    # · deal 1 · unrate" -- the cut fell in the word that says whether the game counts.
    model = welcomed_form(table_options=advertised_options())
    model.new_table.close_form()
    seats = [{"seat": 0, "name": "ann"}, {"seat": 1, "name": "ben"}]
    table = {"id": 1, "preset": "cribbage", "players": 2, "partnerships": False, "status": "playing",
             "options": {"match": 3}, "seats": seats, "spectators": [], "rated": False,
             "match": {"to": 3, "points": [1, 0], "game": 2, "id": 1, "winner": None}}
    model.handle({"type": "table", "table": table})
    model.game.enter_table(1, table)
    model.session.screen = "table"
    assert plain(title_fragments(model, "127.0.0.1:40401")).rstrip() == (
        " Noddy · Me · Table 1 · cribbage to 121 · match 1-0 to 3 · unrated")
    assert plain(title_fragments(model, "host:1")).rstrip() == (  # it fits: the address stays
        " Noddy · Me @ host:1 · Table 1 · cribbage to 121 · match 1-0 to 3 · unrated")


def test_a_won_match_names_its_winner_after_the_winner_left() -> None:
    """Seen in tmux (issue 26's acceptance): once a seat of a won match is empty its player
    had no name left on the screen (the title read ``match: side 1 won``, the prompt ``ann 1,
    2``); the summary's ``match.names`` says who played it."""
    model = welcomed_form(table_options=advertised_options())
    model.new_table.close_form()
    table = {"id": 1, "preset": "noddy", "players": 2, "partnerships": False, "status": "finished",
             "options": {"match": 2, "target": 15}, "seats": [{"seat": 0, "name": "ann"}, None],
             "spectators": [],
             "match": {"to": 2, "points": [1, 2], "game": 3, "id": 1, "winner": 1, "names": ["ann", "ben"]}}
    model.handle({"type": "table", "table": table})
    model.game.enter_table(1, table)
    model.session.screen = "table"
    assert plain(title_fragments(model, "host:1")).rstrip() == (
        " Noddy · Me @ host:1 · Table 1 · noddy to 15 · match: ben won")
    assert model.table_screen._match_words() == "ben won the match (ann 1, ben 2): r starts a new match, l leaves."
    # ann gave the match up (she left between games): ben wins it whatever the points, and says why.
    model.game.table = table | {"match": table["match"] | {"points": [1, 0], "game": 1, "resigned": 0}}
    assert model.table_screen._match_words() == (
        "ben won the match (ann 1, ben 0; ann gave it up): r starts a new match, l leaves.")


def test_the_lobby_row_of_a_match_table_says_so_with_its_score() -> None:
    """Seen in tmux (issue 26's acceptance): the lobby row of ``new noddy match=2 target=15``
    said nothing of the match (only yes/no options were listed), even at any width."""
    model = welcomed_form(table_options=advertised_options())
    model.new_table.close_form()
    seats = [{"seat": 0, "name": "ben", "guest": True, "rating": 1500}, None]
    table = {"id": 1, "preset": "noddy", "players": 2, "partnerships": False, "status": "waiting",
             "options": {"match": 2, "target": 15}, "seats": seats, "spectators": [], "rated": False,
             "match": None}
    assert model.lobby.table_line(table) == ("#1   noddy              2p       waiting   "
                                       "ben (guest), ·free·  [to 15; match to 2; unrated]")
    running = table | {"status": "playing", "match": {"to": 2, "points": [0, 1], "game": 2, "id": 1,
                                                      "winner": None, "names": ["ben", "ann"]}}
    assert model.lobby.table_line(running).endswith("  [to 15; match 0-1 to 2; unrated]")


def test_the_key_line_after_a_game_of_a_match_says_what_r_starts() -> None:
    """Seen in tmux at 80x24 (issue 26's acceptance): after each game of a match the prompt
    said ``r for game 2`` and then ``r starts a new match``, the key line ``r play again``."""
    from .test_newcomer import _at_table
    model = ViewModel("Ann")
    _at_table(model, [{"seat": 0, "name": "Ann", "kind": "human"}, {"seat": 1, "name": "ben", "kind": "human"}],
              ["5H", "9S", "KD"])
    model.handle({"type": "event", "table": 1, "seq": 2, "event": {
        "kind": "game_over", "winner": 0, "scores": [15, 9], "winning_seats": [0]}})
    assert " r play again " in plain(keys_fragments(model))  # a single game
    running = {"to": 2, "points": [1, 0], "game": 1, "id": 1, "winner": None, "names": ["Ann", "ben"]}
    model.game.table = (model.game.table or {}) | {"match": running}
    assert plain(keys_fragments(model)).startswith(" r game 2  l leave ")
    model.game.table = model.game.table | {"match": running | {"points": [2, 0], "winner": 0}}
    assert plain(keys_fragments(model)).startswith(" r new match  l leave ")


def test_a_title_without_the_program_name_still_ends_before_the_edge() -> None:
    # Seen at 60 columns: " guinevere · Table 1 · noddy to 31 · match 0-0 to 2 · deal 1" took
    # all 60 columns (the space put back before the name once " Noddy" was left out).
    model = welcomed_form(table_options=advertised_options())
    model.new_table.close_form()
    model.session.name = "guinevere"
    seats = [{"seat": 0, "name": "ann"}, {"seat": 1, "name": "cy"}]
    table = {"id": 1, "preset": "noddy", "players": 2, "partnerships": False, "status": "playing",
             "options": {"match": 2}, "seats": seats, "spectators": [],
             "match": {"to": 2, "points": [0, 0], "game": 1, "id": 1, "winner": None}}
    model.handle({"type": "table", "table": table})
    model.game.enter_table(1, table)
    model.game.view.deal = 1
    model.session.screen = "table"
    title = plain(title_fragments(model, "host:1", 60)).rstrip()
    assert title == " guinevere · Table 1 · noddy to 31 · match 0-0 to 2"
