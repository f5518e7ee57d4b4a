"""The view model, fed protocol messages: what the screen would show, without a screen.

The first tests replay 004's worked deal (RULES.md) as the messages the server sends Ben;
the last drives whole seeded games through the engine and checks that the model's hand,
pile, count and scores always equal the engine's own view of the seat.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from noddy.client.model import CreateForm, ViewModel, number_words
from noddy.client.render import board_fragments, hand_fragments, plain, title_fragments
from noddy.client.screens.form_layout import form_fragments

SHOW_BEN = "fifteen two, fifteen four, twenty-five seven, a flush ten, knave noddy eleven"
PRESETS = [
    {"name": "noddy", "title": "Noddy", "players": [2], "partnership_players": [4],
     "options": {"target": {"type": "int", "min": 15, "max": 500, "default": 31},
                 "knave_noddy": {"type": "bool", "default": True},
                 "hitter_counts_thirty_one": {"type": "bool", "default": False}}},
    {"name": "cribbage", "title": "Cribbage", "players": [2, 3], "partnership_players": [4],
     "options": {"target": {"type": "int", "min": 15, "max": 500, "default": 121},
                 "knave_noddy": {"type": "bool", "default": True}}},
]


def summary(status: str = "waiting") -> dict[str, Any]:
    return {"id": 1, "preset": "noddy", "players": 2, "partnerships": False, "options": {},
            "private": False, "turn_timer": None, "status": status,
            "seats": [{"seat": 0, "name": "Ben", "kind": "human", "level": None, "ready": True,
                       "connected": True},
                      {"seat": 1, "name": "Anna", "kind": "human", "level": None, "ready": True,
                       "connected": True}],
            "spectators": [], "games_played": 0}


def seated_ben() -> ViewModel:
    """Ben has said hello and created table 1; Anna has sat down."""
    model = ViewModel("Ben")
    model.connection_up()
    model.handle({"type": "welcome", "name": "Ben", "token": "t0k", "resumed": False,
                  "table": None, "seat": None, "presets": PRESETS, "levels": ["random", "greedy"]})
    model.session.send("create_table", preset="noddy", players=2, seat=0)
    created = model.session.outbox[-1]["id"]
    model.session.take_outbox()
    model.handle({"type": "table", "table": summary(), "id": created})
    return model


def ev(seq: int, kind: str, **fields: Any) -> dict[str, Any]:
    return {"type": "event", "table": 1, "seq": seq, "event": {"kind": kind, **fields}}


def turn(seq: int, to_move: int, legal: list[dict[str, Any]]) -> dict[str, Any]:
    return {"type": "turn", "table": 1, "seq": seq, "to_move": to_move, "awaiting": [to_move],
            "legal_actions": legal, "time_left": None}


def scored(seq: int, seat: int, points: int, reason: str, scores: list[int], announcement: str,
           **rest: Any) -> dict[str, Any]:
    fields: dict[str, Any] = {"items": [], "cards": None, "concealed": False, **rest}
    return ev(seq, "scored", seat=seat, points=points, reason=reason, scores=scores,
              announcement=announcement, **fields)


def deal_004(model: ViewModel) -> None:
    """The opening of 004's deal, up to Ben's first play."""
    for message in [
        ev(1, "game_started", preset="noddy", players=2, partnerships=False, target=31),
        ev(2, "cut_for_deal", dealer=1, cuts=[{"seat": 0, "card": "9C"}, {"seat": 1, "card": "2D"}]),
        ev(3, "deal_started", deal=1, dealer=1),
        ev(4, "cards_dealt", seat=0, count=3, cards=["TC", "JH", "4H"]),
        ev(5, "cards_dealt", seat=1, count=3, cards=None),
        ev(6, "turned_up", card="5H"),
        scored(7, 0, 11, "show", [11, 0], SHOW_BEN, concealed=True),
        scored(8, 1, 4, "show", [11, 4], "fifteen two, a pair four", concealed=True),
        turn(8, 0, [{"action": "play", "card": c} for c in ("TC", "JH", "4H")]),
    ]:
        model.handle(message)


def test_the_show_is_announced_the_way_players_say_it() -> None:
    model = seated_ben()
    deal_004(model)
    texts = [line.text for line in model.game.log]
    assert texts == [
        "A game of noddy, 2 players, first to 31.",
        "Cut for deal: Ben 9♣, Anna 2♦ — Anna deals.",
        "— Deal 1: Anna deals —",
        "You hold 4♥ 10♣ J♥.",
        "Anna is dealt 3 cards.",
        "Turn-up: 5♥.",
        "Ben shows: " + SHOW_BEN,
        "Anna shows: fifteen two, a pair four",
    ]
    assert model.game.hand == ["4H", "TC", "JH"]
    assert model.game.view.turn_up == "5H"
    assert model.game.view.scores == [11, 4]
    assert model.game.view.hand_sizes == [3, 3]


def test_the_cards_that_may_be_played_are_highlighted() -> None:
    model = seated_ben()
    deal_004(model)
    model.handle(ev(9, "played", seat=0, card="4H", count=4))
    model.handle(ev(10, "played", seat=1, card="3C", count=7))
    model.handle(ev(11, "played", seat=0, card="TC", count=17))
    model.handle(ev(12, "played", seat=1, card="6S", count=23))
    model.handle(turn(12, 0, [{"action": "go"}]))
    assert model.game.hand == ["JH"]
    assert model.game.playable() == set()
    assert model.game.go_is_legal
    assert model.game.view.count == 23
    assert model.game.view.pile == [(0, "4H"), (1, "3C"), (0, "TC"), (1, "6S")]
    assert "says go" in model.prompt()
    # The jack would pass 31: it is drawn dimmed, and choosing it says why instead of sending.
    model.table_screen.choose(0)
    assert model.session.outbox == []
    assert model.session.status == "J♥ (10) would pass 31: only 8 to go."
    model.table_screen.say_go()
    assert model.session.take_outbox() == [{"type": "action", "action": "go", "id": model.session._next_id - 1}]


def test_playing_by_number_and_by_arrows_sends_the_card() -> None:
    model = seated_ben()
    deal_004(model)
    assert model.game.playable() == {"4H", "TC", "JH"}
    model.table_screen.choose(0)
    assert [m["card"] for m in model.session.take_outbox()] == ["4H"]
    # a second key before the server answered does not send a second action
    model.table_screen.choose(1)
    assert model.session.take_outbox() == []
    model.handle({"type": "ok", "id": model.session._next_id - 1})
    model.handle(ev(9, "played", seat=0, card="4H", count=4))
    model.handle(ev(10, "played", seat=1, card="3C", count=7))
    model.handle(turn(10, 0, [{"action": "play", "card": c} for c in ("TC", "JH")]))
    assert model.game.hand == ["TC", "JH"]
    model.table_screen.move_cursor(-1)
    assert model.game.hand[model.game.cursor] == "TC"
    model.table_screen.move_cursor(1)
    model.table_screen.enter()
    assert [m["card"] for m in model.session.take_outbox()] == ["JH"]


def test_the_rest_of_the_deal_the_reveal_and_the_pegs() -> None:
    model = seated_ben()
    deal_004(model)
    for message in [
        ev(9, "played", seat=0, card="4H", count=4),
        ev(10, "played", seat=1, card="3C", count=7),
        ev(11, "played", seat=0, card="TC", count=17),
        ev(12, "played", seat=1, card="6S", count=23),
        ev(13, "go", seat=0),
        ev(14, "played", seat=1, card="6D", count=29),
        scored(15, 1, 2, "play", [11, 6], "a pair two"),
        scored(16, 1, 1, "play", [11, 7], "last card one"),
        ev(17, "hands_revealed", hands=[["TC", "JH", "4H"], ["6S", "6D", "3C"]], crib=None),
        ev(18, "deal_ended", deal=1, scores=[11, 7]),
    ]:
        model.handle(message)
    texts = [line.text for line in model.game.log][8:]
    assert texts == [
        "Ben plays 4♥ — four",
        "Anna plays 3♣ — seven",
        "Ben plays 10♣ — seventeen",
        "Anna plays 6♠ — twenty-three",
        "Ben says go.",
        "Anna plays 6♦ — twenty-nine",
        "Anna: a pair two",
        "Anna: last card one",
        "Ben's hand 4♥ 10♣ J♥ + 5♥: 11",
        "Anna's hand 3♣ 6♦ 6♠ + 5♥: 4",
        "After deal 1: Ben 11, Anna 7.",
    ]
    pegs = model.game.pegs()
    assert [(p.label, p.front, p.back, p.mine) for p in pegs] == [
        ("Ben", 11, 0, True), ("Anna", 7, 6, False)]
    board = plain(board_fragments(model, 80)).splitlines()
    assert board[0].startswith(" Ben") and board[0].rstrip().endswith("11/31 +11")
    assert board[1].rstrip().endswith("7/31 +1")
    assert board[1].count("●") == 1 and board[1].count("○") == 1


def test_game_over_names_the_winner_and_sums_up() -> None:
    model = seated_ben()
    deal_004(model)
    model.handle(scored(9, 0, 20, "play", [31, 4], "fifteen twenty"))
    model.handle(ev(10, "game_over", winner=0, winning_seats=[0], scores=[31, 4]))
    texts = [line.text for line in model.game.log][-4:]
    assert texts == [
        "Ben wins the game, 31 to 4!",
        "Summary after 1 deal:",
        "  Ben: 31 (play 20, show 11; best hand 11)",
        "  Anna: 4 (show 4; best hand 4)",
    ]
    assert model.game.view.winner == 0 and model.game.i_won
    assert "play again" in model.prompt()


def test_a_finished_game_keeps_the_names_of_who_played_it_after_they_leave() -> None:
    # Seen in tmux: ben resigned (or the bot that was challenged went back to the lobby), and
    # the board of the finished game read "seat 2 ... 0/31" and "dealer seat 2".
    model = seated_ben()
    deal_004(model)
    model.handle(scored(9, 0, 20, "play", [31, 4], "fifteen twenty"))
    model.handle(ev(10, "game_over", winner=0, winning_seats=[0], scores=[31, 4]))
    left = summary("finished")
    left["seats"][1] = None
    model.handle({"type": "table", "table": left})
    board = plain(board_fragments(model, 80)).splitlines()
    assert board[1].startswith(" Anna ") and board[1].rstrip().endswith("4/31 +4")
    assert model.game.seat_name(1) == "Anna"
    model.handle(ev(11, "game_started", preset="noddy", players=2, partnerships=False, target=31))
    assert model.game.seat_name(1) == "seat 2"  # a new game: nobody sits there


def test_game_over_says_whether_that_game_was_rated_though_the_seats_change_after() -> None:
    # Seen in tmux: gus (a guest) resigned by leaving; the table, judged on the seats taken
    # now, turned "rated", and ann read "That game was rated." of a game that was not.
    model = seated_ben()
    unrated = {"rated": False, "unrated_reasons": ["guest"], "unrated_why": "Anna is a guest"}
    model.handle({"type": "table", "table": summary("playing") | unrated})
    deal_004(model)
    model.handle(ev(9, "game_over", winner=0, winning_seats=[0], scores=[11, 4], ending="resignation",
                    resigned=[1]))
    left = summary("finished") | {"rated": True, "unrated_reasons": [], "unrated_why": None}
    left["seats"][1] = None
    model.handle({"type": "table", "table": left})
    assert model.prompt() == ("The game is over: r to play again, l to leave the table. "
                              "That game was unrated: Anna is a guest.")
    assert plain(title_fragments(model, "host:1")).rstrip().endswith(" · deal 1 · unrated")
    model.table_screen.seats.toggle_ready()
    assert model.session.take_outbox()[-1]["type"] == "ready"


def test_discards_are_chosen_with_the_same_keys() -> None:
    model = seated_ben()
    model.handle(ev(1, "game_started", preset="cribbage", players=2, partnerships=False, target=121))
    model.handle(ev(2, "deal_started", deal=1, dealer=0))
    model.handle(ev(3, "cards_dealt", seat=0, count=6, cards=["KS", "5H", "5C", "JD", "2S", "9H"]))
    legal = [{"action": "discard", "cards": ["2S", "5C"]}]  # the form is all the model needs
    model.handle({"type": "turn", "table": 1, "seq": 3, "to_move": 1, "awaiting": [1, 0],
                  "legal_actions": legal, "time_left": 30.0}, now=100.0)
    assert model.game.hand == ["2S", "5C", "5H", "9H", "JD", "KS"]
    assert model.game.discard_size == 2
    assert model.game.time_left_now(112.5) == pytest.approx(17.5)
    model.table_screen.choose(5)           # K♠
    model.table_screen.move_cursor(-2)     # cursor on 9♥
    model.table_screen.toggle()
    model.table_screen.toggle()            # and off again
    model.table_screen.choose(0)           # 2♠
    assert model.game.selected == {"KS", "2S"}
    model.table_screen.choose(3)           # a third card is refused
    assert model.game.selected == {"KS", "2S"} and "unpick" in model.session.status
    assert "(2/2)" in model.prompt()
    text = plain(hand_fragments(model))
    assert "for the crib: 2/2" in text
    model.table_screen.enter()
    assert model.session.take_outbox()[-1] == {"type": "action", "action": "discard", "cards": ["2S", "KS"],
                                       "id": model.session._next_id - 1}
    model.handle(ev(4, "discarded", seat=0, count=2, cards=["2S", "KS"]))
    assert model.game.hand == ["5C", "5H", "9H", "JD"]
    assert model.game.log[-1].text == "You lay away 2♠ K♠ to your crib."


def test_a_gap_in_the_stream_asks_for_a_snapshot_and_the_snapshot_rebuilds() -> None:
    model = seated_ben()
    deal_004(model)
    model.handle(ev(10, "played", seat=1, card="3C", count=7))   # 9 was lost
    assert [m["type"] for m in model.session.take_outbox()] == ["snapshot"]
    game = {"seat": 0, "preset": "noddy", "players": 2, "partnerships": False, "target": 31,
            "phase": "play", "deal": 1, "dealer": 1, "hand": ["TC", "JH"], "hand_sizes": [2, 2],
            "crib_size": 0, "turn_up": "5H", "pile": ["4H", "3C"], "count": 7,
            "played": [{"seat": 0, "card": "4H"}, {"seat": 1, "card": "3C"}], "passed": [],
            "discarded": [], "scores": [11, 4], "to_move": 0, "legal_actions": [], "winner": None}
    model.handle({"type": "snapshot", "table": summary("playing"), "seat": 0, "seq": 10,
                  "game": game, "events": [], "turn": turn(10, 0, [{"action": "play", "card": "TC"},
                                                                     {"action": "play", "card": "JH"}])})
    assert model.game.hand == ["TC", "JH"]
    assert model.game.view.pile == [(0, "4H"), (1, "3C")]
    assert model.game.view.count == 7 and model.game.view.scores == [11, 4]
    assert model.game.playable() == {"TC", "JH"}
    model.handle(ev(10, "played", seat=1, card="3C", count=7))   # old news: ignored
    assert model.game.view.count == 7 and model.game.view.pile[-1] == (1, "3C") and len(model.game.view.pile) == 2


def test_resuming_sends_the_token_and_keeps_the_table() -> None:
    model = seated_ben()
    deal_004(model)
    model.connection_lost("the server closed the connection")
    assert model.session.connection == "reconnecting"
    model.connection_up()
    hello = model.session.take_outbox()[0]
    assert hello["type"] == "hello" and hello["resume"] == "t0k"
    model.handle({"type": "welcome", "name": "Ben", "token": "t0k", "resumed": True, "table": 1,
                  "seat": 0, "presets": PRESETS})
    assert model.session.screen == "table" and model.game.table_id == 1 and model.game.seat == 0
    # Lost again, and this time the seat was not held: the server refuses the token, and
    # the client starts afresh in the lobby under its name (a hello without the token).
    model.connection_lost("the server closed the connection")
    model.connection_up()
    assert model.session.take_outbox() == [{"type": "hello", "name": "Ben", "version": 1, "resume": "t0k"}]
    model.handle({"type": "error", "code": "bad_token", "message": "no seat", "id": None})
    assert model.session.token is None and model.session.screen == "lobby" and model.game.table_id is None
    assert model.session.take_outbox() == [{"type": "hello", "name": "Ben", "version": 1}]
    model.handle({"type": "welcome", "name": "Ben", "token": "n3w", "resumed": False, "table": None,
                  "seat": None, "presets": PRESETS})
    assert [m["type"] for m in model.session.take_outbox()] == ["list_tables"]
    assert model.session.token == "n3w"


def test_lobby_lists_tables_and_the_form_builds_a_create_request() -> None:
    model = ViewModel("Me")
    model.connection_up()
    model.handle({"type": "welcome", "name": "Me", "token": "x", "resumed": False, "presets": PRESETS})
    model.handle({"type": "tables", "tables": [summary("playing") | {"turn_timer": 30.0}]})
    line = model.lobby.table_line(model.lobby.sorted_tables()[0])
    assert line.startswith("#1   noddy") and "Ben, Anna" in line and "30s timer" in line
    model.new_table.open_form()
    form = model.new_table.form
    assert isinstance(form, CreateForm)
    form.change(1)                    # preset: cribbage
    form.move(1)
    form.change(1)                    # players: 3
    form.move(1)
    form.change(-1, big=True)         # target 121 -> 111
    model.new_table.submit_form()
    out = model.session.take_outbox()
    create = [m for m in out if m["type"] == "create_table"][0]
    assert create | {"id": 0} == {"type": "create_table", "preset": "cribbage", "players": 3,
                                  "partnerships": False, "options": {"target": 111}, "seat": 0,
                                  "id": 0}
    # once the table exists, the computers are seated and the player says ready
    model.handle({"type": "table", "table": summary() | {"id": 2, "players": 3,
                                                           "seats": [None, None, None]},
                  "id": create["id"]})
    assert [(m["type"], m.get("seat")) for m in model.session.take_outbox()] == [
        ("add_computer", 1), ("add_computer", 2), ("ready", None)]
    assert model.session.screen == "table" and model.game.table_id == 2 and model.game.seat == 0


# == the form's server options, from the welcome's table_options ==========================

#: The server's own table options as a welcome declares them (its "table_options").
TABLE_OPTIONS = {
    "hints": {"type": "bool", "default": False, "in": "options",
              "description": "the coach: seats may ask for hints and reviews; the table's games"
                             " are unrated"},
    "turn_timer": {"type": "number", "min": 1, "max": 3600, "default": None, "in": "request",
                   "description": "seconds a seat has to act before the server moves for it"},
    "password": {"type": "str", "max_length": 64, "default": None, "in": "request",
                 "description": "a private table's password"},
}
#: The noddy preset's form, untouched: what an older server (no table_options) has always
#: shown, and what a server declaring the options above shows too.
NODDY_FORM = [
    ("Preset", "noddy — Noddy"), ("Players", "2"), ("Target", "31"),
    ("Turned-up Jack scores", "yes"), ("31 also pegs per card", "no"),
    ("Coach (h: hints)", "no"), ("Turn timer", "off"), ("Computer players", "1"),
    ("Password", "none: a public table"), ("", "[ Create table ]"),
]


def welcomed_form(**welcome: Any) -> ViewModel:
    model = ViewModel("Me")
    model.connection_up()
    model.handle({"type": "welcome", "name": "Me", "token": "x", "resumed": False,
                  "presets": PRESETS} | welcome)
    model.new_table.open_form()
    return model


@pytest.mark.parametrize("welcome", [{}, {"table_options": TABLE_OPTIONS}],
                         ids=["older server", "table_options"])
def test_the_forms_server_options_read_the_welcome_or_fall_back(welcome: dict[str, Any]) -> None:
    model = welcomed_form(**welcome)
    form = model.new_table.form
    assert form is not None and form.rows() == NODDY_FORM
    form.move(5)
    form.change(1)                    # the coach
    form.move(1)
    form.change(1)
    form.change(1)                    # turn timer: off -> 15 -> 30
    form.move(2)
    form.type_text("owl")             # the password row
    assert form.rows()[5:] == [
        ("Coach (h: hints)", "yes (unrated)"), ("Turn timer", "30 s"), ("Computer players", "1"),
        ("Password", "owl"), ("", "[ Create private table ]")]
    model.new_table.submit_form()
    create = [m for m in model.session.take_outbox() if m["type"] == "create_table"][0]
    assert create | {"id": 0} == {
        "type": "create_table", "preset": "noddy", "players": 2, "partnerships": False,
        "options": {"hints": True}, "seat": 0, "turn_timer": 30, "private": True,
        "password": "owl", "id": 0}


def test_the_form_draws_the_same_with_table_options_as_without() -> None:
    drawn = [plain(form_fragments(welcomed_form(**welcome)))
             for welcome in ({}, {"table_options": TABLE_OPTIONS})]
    assert drawn[0] == drawn[1]


def test_the_form_offers_every_option_the_welcome_declares_and_sends_it() -> None:
    """Issue 32: the form is built from the declarations alone, so an option the client
    has never heard of (``max_spectators``, a ``motto``) gets a row by its kind and is sent."""
    declared = {
        # an option the form has no label of its own for, that goes in the request
        "spectator_chat": {"type": "bool", "default": True, "in": "request",
                           "description": "spectators may chat at the table"},
        "hints": TABLE_OPTIONS["hints"],
        # a narrower timer: only the choices within its range
        "turn_timer": TABLE_OPTIONS["turn_timer"] | {"min": 20, "max": 90},
        # a whole number the client knows nothing of, and a text
        "max_spectators": {"type": "int", "min": 0, "max": 50, "default": 10, "in": "request",
                           "description": "how many may watch the table"},
        "motto": {"type": "str", "max_length": 5, "default": None, "in": "options"},
    }                                 # and no password: this server takes none
    model = welcomed_form(table_options=declared)
    form = model.new_table.form
    assert form is not None and form.rows() == [
        ("Preset", "noddy — Noddy"), ("Players", "2"), ("Target", "31"),
        ("Turned-up Jack scores", "yes"), ("31 also pegs per card", "no"),
        ("Spectator chat", "yes"), ("Coach (h: hints)", "no"), ("Max spectators", "10"),
        ("Turn timer", "off"), ("Computer players", "1"), ("Motto", "none"),
        ("", "[ Create table ]")]
    assert form.text_rows() == [10]
    labels = [label for label, _ in form.rows()]
    form.move(labels.index("Spectator chat"))
    form.change(1)                    # spectator chat: off
    form.move(2)
    form.change(1)
    form.change(1, big=True)          # max spectators: 10 -> 11 -> 21
    form.change(-1)
    form.move(1)
    form.change(-1)                   # turn timer: off -> 60 (15 and 120 are out of range)
    assert form.rows()[5:9] == [("Spectator chat", "no"), ("Coach (h: hints)", "no"),
                                ("Max spectators", "20"), ("Turn timer", "60 s")]
    form.change(1)
    form.change(1)
    assert dict(form.rows())["Turn timer"] == "30 s"
    form.move(2)
    form.type_text("up the noddies")  # (at most max_length)
    assert dict(form.rows())["Motto"] == "up th"
    form.move(labels.index("Max spectators") - form.row)
    form.change(1, big=True)          # no further than the declared max
    form.change(1, big=True)
    form.change(1, big=True)
    form.change(1, big=True)
    assert dict(form.rows())["Max spectators"] == "50"
    model.new_table.submit_form()
    create = [m for m in model.session.take_outbox() if m["type"] == "create_table"][0]
    assert create | {"id": 0} == {
        "type": "create_table", "preset": "noddy", "players": 2, "partnerships": False,
        "options": {"motto": "up th"}, "seat": 0, "spectator_chat": False, "turn_timer": 30,
        "max_spectators": 50, "id": 0}


def test_number_words() -> None:
    assert [number_words(n) for n in (0, 7, 15, 25, 31)] == [
        "nought", "seven", "fifteen", "twenty-five", "thirty-one"]


@pytest.mark.parametrize("preset,players,partnerships", [
    ("noddy", 2, False), ("noddy", 4, True), ("noddy-modern", 3, False),
    ("cribbage", 2, False), ("cribbage", 3, False), ("five-card-cribbage", 2, False)])
def test_whole_games_keep_the_model_equal_to_the_engine(preset: str, players: int,
                                                       partnerships: bool) -> None:
    """Every event and turn of seeded games, as seat 0 receives them: the model's view
    equals the engine's observation of seat 0 after every message."""
    from noddy.engine import Game

    rng = random.Random(11)
    for seed in range(3):
        game = Game(preset, players, partnerships=partnerships, seed=seed)
        model = seated_ben()
        model.game.table = summary("playing") | {"players": players, "seats": [
            {"seat": s, "name": f"P{s}", "kind": "human"} for s in range(players)]}
        seq = 0
        pending = list(game.log)
        while True:
            for event in pending:
                seq += 1
                model.handle({"type": "event", "table": 1, "seq": seq,
                              "event": event.for_seat(0).to_dict()})
            if game.is_over:
                break
            legal0 = [a.to_dict() for a in game.legal_actions(0)] if 0 in game.awaiting else []
            for a in legal0:
                a.pop("seat")
            model.handle({"type": "turn", "table": 1, "seq": seq, "to_move": game.to_move,
                          "awaiting": list(game.awaiting), "legal_actions": legal0,
                          "time_left": None})
            view = game.observation(0)
            assert sorted(model.game.hand) == sorted(str(c) for c in view.hand)
            assert model.game.view.count == view.count
            assert [c for _, c in model.game.view.pile] == [str(c) for c in view.pile]
            assert model.game.view.scores == list(view.scores)
            assert model.game.view.turn_up == (str(view.turn_up) if view.turn_up else None)
            assert model.game.view.hand_sizes == list(view.hand_sizes)
            assert model.game.playable() == {a["card"] for a in legal0 if a["action"] == "play"}
            seat = game.awaiting[0]
            pending = game.apply(rng.choice(game.legal_actions(seat)))
        assert model.game.view.winner == game.winner
        assert model.game.view.scores == list(game.scores)
        told = "".join(line.text for line in model.game.log)
        assert "wins the game" in told or "win the game" in told   # a partnership wins


def test_quick_start_with_four_players_plays_in_partnerships_where_the_preset_must() -> None:
    model = ViewModel("Me")
    model.new_table.quick_start = {"preset": "noddy", "players": 4, "computers": 3}
    model.connection_up()
    model.handle({"type": "welcome", "name": "Me", "token": "x", "resumed": False, "presets": PRESETS})
    create = [m for m in model.session.take_outbox() if m["type"] == "create_table"][0]
    assert (create["preset"], create["players"], create["partnerships"]) == ("noddy", 4, True)
    model.handle({"type": "table", "id": create["id"], "table": summary() | {
        "players": 4, "partnerships": True, "seats": [{"seat": 0, "name": "Me"}, None, None, None]}})
    assert [(m["type"], m.get("seat")) for m in model.session.take_outbox()] == [
        ("add_computer", 1), ("add_computer", 2), ("add_computer", 3), ("ready", None)]
    model.game.table = model.lobby.tables[1] | {"seats": [{"name": n} for n in ("Me", "Bo", "Cy", "Di")]}
    model.handle(ev(1, "game_started", preset="noddy", players=4, partnerships=True, target=31))
    assert model.game.team_labels() == ["Me & Cy", "Bo & Di"]
    assert [p.mine for p in model.game.pegs()] == [True, False]


def test_the_live_log_and_the_replay_tell_an_event_in_the_shared_words() -> None:
    """One narration (noddy.protocol.story): a go is told the same in the live log, in the
    replay of the game and by ``narrate`` itself (cards as the client writes them)."""
    from noddy.client.cards import card_label
    from noddy.client.screens.replay import Replay
    from noddy.protocol.story import narrate

    model = seated_ben()
    deal_004(model)
    go = {"kind": "go", "seat": 1}
    model.handle(ev(9, "go", seat=1))
    names = ["Ben", "Anna"]
    record = {"id": 1, "preset": "noddy", "players": 2, "partnerships": False,
              "seats": [{"seat": 0, "name": "Ben"}, {"seat": 1, "name": "Anna"}],
              "opening": [{"kind": "game_started", "preset": "noddy", "players": 2,
                           "partnerships": False, "target": 31},
                          {"kind": "deal_started", "deal": 1, "dealer": 1}],
              "steps": [{"action": {"seat": 1, "action": "go"}, "events": [go]}]}
    replay = Replay(record)
    assert model.game.log[-1].text == replay.log[-1].text == narrate(go, names, card=card_label)
    assert model.game.log[-1].text == "Anna says go."


def test_a_shutdown_says_the_table_will_be_back_and_another_close_says_why() -> None:
    """``table_closed`` carries a reason code (issue 24); a shutdown is not an end."""
    model = seated_ben()
    model.handle({"type": "table_closed", "table": 1, "reason": "shutdown", "message":
                  "the server is shutting down; the table is kept and will be back when it starts again"})
    assert model.session.screen == "lobby" and model.game.table_id is None
    assert model.session.status == ("Table 1 is put away: the server is shutting down; the table is kept "
                            "and will be back when it starts again")
    model = seated_ben()
    model.handle({"type": "table_closed", "table": 1, "reason": "empty", "message": "everyone has left"})
    assert model.session.status == "Table 1 closed: everyone has left"


def test_w_waits_for_an_away_player_or_lets_a_computer_play_for_them() -> None:
    """Issue 24: the table is told a computer stands in, and can choose to wait instead."""
    model = seated_ben()
    playing = summary("playing")
    assert model.table_screen.away_choice() is None
    playing["seats"][1] = {"seat": 1, "name": "greedy computer 2", "kind": "computer", "level": "greedy",
                           "ready": False, "connected": True, "stand_in_for": "Anna"}
    model.handle({"type": "stand_in", "table": 1, "seat": 1, "name": "Anna", "level": "greedy"})
    model.handle({"type": "table", "table": playing})
    assert model.game.log[-1].text == "Anna has not come back; a greedy computer stands in until Anna returns " \
                                 "(w: wait for Anna instead)."
    assert model.table_screen.away_choice() == (1, "Anna", False)
    model.session.take_outbox()
    model.table_screen.toggle_stand_in()
    assert [m | {"id": 0} for m in model.session.take_outbox()] == [{"type": "stand_in", "seat": 1, "on": False, "id": 0}]
    playing = summary("playing")
    playing["seats"][1]["connected"] = False
    model.handle({"type": "stand_in", "table": 1, "seat": 1, "name": "Anna", "level": None})
    model.handle({"type": "table", "table": playing})
    assert model.table_screen.away_choice() == (1, "Anna", True)
    model.table_screen.toggle_stand_in()
    assert [m["on"] for m in model.session.take_outbox()] == [True]


def test_w_calls_in_a_computer_for_a_player_silent_on_their_turn() -> None:
    """Issue 31: Anna is here but says nothing on her turn; once the table is told so
    (``seat_silent``), w asks for a computer to play for her."""
    model = seated_ben()
    model.handle({"type": "table", "table": summary("playing")})
    assert model.table_screen.away_choice() is None  # Anna is connected: nothing to do yet
    model.handle({"type": "seat_silent", "table": 1, "seat": 1, "name": "Anna", "silent": 300.0,
                  "request": {"type": "stand_in", "seat": 1, "on": True}})
    assert model.game.log[-1].text == ("Anna has said nothing for 300 s on their turn (w: a computer plays for "
                                  "Anna until they say something).")
    assert model.table_screen.away_choice() == (1, "Anna", True)
    model.session.take_outbox()
    model.table_screen.toggle_stand_in()
    assert [m | {"id": 0} for m in model.session.take_outbox()] == [{"type": "stand_in", "seat": 1, "on": True, "id": 0}]
    model.handle({"type": "stand_in", "table": 1, "seat": 1, "name": "Anna", "level": "greedy", "silent": 300.0})
    assert model.game.log[-1].text == ("Anna has said nothing; a greedy computer stands in until Anna returns "
                                  "(w: wait for Anna instead).")
    model.handle({"type": "player_back", "table": 1, "seat": 1, "name": "Anna"})
    assert model.table_screen.away_choice() is None


def test_connection_restored_goes_when_the_next_game_starts() -> None:
    """Issue 33 (third pass, leftover of item 2): "Connection restored; back at the table."
    said between two games of a match stayed on the status line all through the next game."""
    model = seated_ben()
    model.connection_lost("the server closed the connection")
    model.connection_up()
    model.session.take_outbox()
    model.handle({"type": "welcome", "name": "Ben", "token": "t0k", "resumed": True, "table": 1,
                  "seat": 0, "presets": PRESETS})
    assert model.session.status == "Connection restored; back at the table."
    deal_004(model)                       # the next game begins
    assert model.session.status == ""


def test_a_watcher_of_a_finished_table_is_told_how_that_game_was_rated() -> None:
    # A guest registered after an unrated game: the table's "rated" (the next game's) turned
    # true, and whoever came to the table then read "That game was rated."; the table's
    # last_game says how the finished game was rated.
    model = seated_ben()
    deal_004(model)
    model.handle(ev(9, "game_over", winner=0, winning_seats=[0], scores=[31, 4]))
    finished = summary("finished") | {"rated": True, "unrated_reasons": [], "unrated_why": None,
                                      "last_game": {"rated": False, "unrated_reasons": ["guest"],
                                                    "unrated_why": "Anna is a guest"}}
    model.handle({"type": "table", "table": finished})
    assert model.prompt().endswith(" That game was unrated: Anna is a guest.")
