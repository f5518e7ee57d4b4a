"""Lobby and table features of the view model: private tables, choosing and changing seats,
standing up, computer players and their level, the log's scrollback and the pile's marks.

Each test feeds the model the messages a server would send and checks the exact requests it
queues and the exact text the screen would show.
"""

from __future__ import annotations

from typing import Any

import pytest

from noddy.client.model import CreateForm, PasswordPrompt, ViewModel
from noddy.client.keys import HELP_TEXT, help_text
from noddy.client.render import keys_fragments, log_fragments, password_prefix, plain, title_fragments
from noddy.client.screens.form_layout import form_fragments
from noddy.client.screens.lobby_layout import lobby_fragments
from noddy.client.screens.table_layout import log_rule_fragments, table_fragments, waiting_fragments

from .test_model import PRESETS, deal_004, ev, seated_ben, summary

LEVELS = ["random", "greedy", "expert"]


def human(seat: int, name: str, ready: bool = False) -> dict[str, Any]:
    return {"seat": seat, "name": name, "kind": "human", "level": None, "ready": ready,
            "connected": True}


def computer(seat: int, level: str = "greedy") -> dict[str, Any]:
    return {"seat": seat, "name": f"{level} computer", "kind": "computer", "level": level,
            "ready": True, "connected": True}


def table(id: int = 1, seats: list[Any] | None = None, **fields: Any) -> dict[str, Any]:
    seats = [None, None] if seats is None else seats
    return summary() | {"id": id, "players": len(seats), "seats": seats} | fields


def in_lobby(*tables: dict[str, Any]) -> ViewModel:
    model = ViewModel("Me")
    model.connection_up()
    model.handle({"type": "welcome", "name": "Me", "token": "t", "resumed": False,
                  "presets": PRESETS, "levels": LEVELS, "default_level": "greedy"})
    model.handle({"type": "tables", "tables": list(tables)})
    model.session.take_outbox()
    return model


def at_waiting_table(seats: list[Any], seat: int | None = 0) -> ViewModel:
    """Me, at table 1 before a game, in ``seat`` (None: watching)."""
    model = in_lobby(table(seats=seats))
    if seat is None:
        model.lobby.spectate()
    else:
        model.handle({"type": "table", "table": table(seats=[s if i != seat else None
                                                             for i, s in enumerate(seats)])})
        model.lobby.sit(seat)
    request = model.session.take_outbox()[-1]
    model.handle({"type": "table", "table": table(seats=seats), "id": request["id"]})
    model.session.take_outbox()
    return model


def sent(model: ViewModel) -> list[dict[str, Any]]:
    """The requests queued since the last look, without their ids."""
    return [{k: v for k, v in m.items() if k != "id"} for m in model.session.take_outbox()]


# -- private tables ------------------------------------------------------------------------

def test_the_form_creates_a_private_table_from_a_typed_password() -> None:
    model = in_lobby()
    model.new_table.open_form()
    form = model.new_table.form
    assert isinstance(form, CreateForm)
    assert [label for label, _ in form.rows()] == [
        "Preset", "Players", "Target", "Turned-up Jack scores", "31 also pegs per card",
        "Coach (h: hints)", "Turn timer", "Computer players", "Computer level", "Password", ""]
    assert dict(form.rows())["Password"] == "none: a public table"
    form.type_text("x")                    # not on the password row: ignored
    assert form.option("password").value == ""
    form.move(9)
    assert form.on_text
    form.type_text("o")
    form.type_text("w")
    form.type_text("\x1b")                 # an unprintable key types nothing
    form.type_text("lx")
    form.backspace()
    assert form.option("password").value == "owl"
    assert form.rows()[-1] == ("", "[ Create private table ]")
    assert "  Password               owl▏" in plain(form_fragments(model)).splitlines()
    form.type_text("y" * 100)
    assert len(form.option("password").value) == 64        # the protocol's longest password
    form.option("password").value = "owl"
    model.new_table.submit_form()
    assert sent(model) == [{"type": "create_table", "preset": "noddy", "players": 2,
                            "partnerships": False, "options": {}, "seat": 0,
                            "private": True, "password": "owl"}]


def test_a_private_table_asks_for_its_password_and_a_wrong_one_asks_again() -> None:
    model = in_lobby(table(seats=[human(0, "Ann"), None], private=True))
    model.lobby.sit()
    assert sent(model) == []
    assert model.lobby.password_prompt == PasswordPrompt(1, "sit", 1)
    assert plain(password_prefix(model)) == " Password to sit at table 1 (Esc cancels): "
    assert plain(keys_fragments(model)) == " ↵ send  Esc cancel "
    model.lobby.submit_password("")              # nothing typed: still asking
    assert sent(model) == [] and model.lobby.password_prompt is not None
    assert model.session.status == "Table 1 is private: type its password, or Esc."
    model.lobby.submit_password("owk")
    request = model.session.outbox[-1]
    assert sent(model) == [{"type": "sit", "table": 1, "seat": 1, "password": "owk"}]
    assert model.lobby.password_prompt is None
    model.handle({"type": "error", "code": "wrong_password", "field": "password",
                  "message": "table 1 is private: the password is wrong", "id": request["id"]})
    assert model.lobby.password_prompt == PasswordPrompt(1, "sit", 1, retry=True)
    assert (model.session.status, model.session.status_is_error) == (
        "Wrong password for table 1: type it again, or Esc.", True)
    assert plain(password_prefix(model)) == " Password again to sit at table 1 (Esc cancels): "
    model.lobby.submit_password("owl")
    request = model.session.outbox[-1]
    assert sent(model) == [{"type": "sit", "table": 1, "seat": 1, "password": "owl"}]
    model.handle({"type": "table", "table": table(seats=[human(0, "Ann"), human(1, "Me")],
                                                  private=True), "id": request["id"]})
    assert (model.session.screen, model.game.table_id, model.game.seat) == ("table", 1, 1)


def test_watching_a_private_table_asks_too_and_esc_cancels() -> None:
    model = in_lobby(table(seats=[human(0, "Ann"), None], private=True))
    model.lobby.spectate()
    assert model.lobby.password_prompt == PasswordPrompt(1, "spectate")
    assert plain(password_prefix(model)) == " Password to watch table 1 (Esc cancels): "
    model.lobby.cancel_password()
    assert model.lobby.password_prompt is None and sent(model) == []
    model.lobby.spectate()
    model.lobby.submit_password("owl")
    assert sent(model) == [{"type": "spectate", "table": 1, "password": "owl"}]


def test_a_public_table_is_sat_at_without_a_password() -> None:
    model = in_lobby(table(seats=[human(0, "Ann"), None]))
    model.lobby.sit()
    assert model.lobby.password_prompt is None
    assert sent(model) == [{"type": "sit", "table": 1, "seat": 1}]


# -- choosing a seat -------------------------------------------------------------------------

def test_a_seat_is_chosen_by_its_number_in_the_lobby() -> None:
    model = in_lobby(table(seats=[human(0, "Ann"), None, None]))
    model.lobby.sit(0)
    assert (sent(model), model.session.status) == ([], "Ann sits in seat 1 of table 1.")
    model.lobby.sit(3)
    assert (sent(model), model.session.status) == ([], "Table 1 has seats 1 to 3.")
    model.lobby.sit(2)
    request = model.session.outbox[-1]
    assert sent(model) == [{"type": "sit", "table": 1, "seat": 2}]
    # the server's reply says which seat we hold, and that is what counts
    model.handle({"type": "table", "id": request["id"], "seat": 2,
                  "table": table(seats=[human(0, "Ann"), None, human(2, "Me")])})
    assert model.game.seat == 2


def test_moving_to_another_seat_at_a_waiting_table() -> None:
    model = at_waiting_table([human(0, "Me"), computer(1), None, None])
    assert plain(waiting_fragments(model)) == (
        "  1  Me (you)  (not ready)\n"
        "  2  greedy computer  (computer, greedy)\n"
        "  3  ·free·\n"
        "  4  ·free·\n")
    model.table_screen.seats.pick_seat(1)
    assert (sent(model), model.session.status) == ([], "greedy computer sits in seat 2.")
    model.table_screen.seats.pick_seat(0)
    assert (sent(model), model.session.status) == ([], "You already sit in seat 1.")
    model.table_screen.seats.pick_seat(3)
    request = model.session.outbox[-1]
    assert sent(model) == [{"type": "sit", "table": 1, "seat": 3}]
    model.handle({"type": "table", "id": request["id"],
                  "table": table(seats=[None, computer(1), None, human(3, "Me")])})
    assert model.game.seat == 3 and model.session.screen == "table"
    assert plain(waiting_fragments(model)).splitlines()[3] == "  4  Me (you)  (not ready)"


def test_seats_do_not_change_during_a_game() -> None:
    model = seated_ben()
    deal_004(model)
    model.game.table = summary("playing")
    for key in (lambda: model.table_screen.seats.pick_seat(1), model.table_screen.seats.stand_or_sit, model.table_screen.seats.remove_computer):
        key()
        assert sent(model) == []
        assert model.session.status == "Seats cannot change during a game."


# -- standing up, and sitting down again -------------------------------------------------------

def test_stand_makes_a_spectator_and_s_sits_down_again() -> None:
    model = at_waiting_table([human(0, "Me"), computer(1)])
    assert model.prompt() == "Every seat is taken: r says you are ready, and the game begins."
    model.table_screen.seats.stand_or_sit()
    request = model.session.outbox[-1]
    assert sent(model) == [{"type": "stand"}]
    model.handle({"type": "table", "id": request["id"], "seat": None,
                  "table": table(seats=[None, computer(1)], spectators=["Me"])})
    assert (model.session.screen, model.game.table_id, model.game.seat) == ("table", 1, None)
    assert model.prompt() == "Watching: s or a seat number sits you down, l goes back to the lobby."
    assert plain(waiting_fragments(model)).endswith("  watching: Me\n")
    model.table_screen.seats.stand_or_sit()
    assert sent(model) == [{"type": "sit", "table": 1, "seat": 0}]


# -- computer players --------------------------------------------------------------------------

def test_the_computer_level_starts_at_the_servers_default_and_cycles() -> None:
    model = at_waiting_table([human(0, "Me"), None, None])
    assert model.session.computer_level == "greedy"
    model.table_screen.seats.add_computer()
    assert sent(model) == [{"type": "add_computer", "seat": 1, "level": "greedy"}]
    model.table_screen.seats.cycle_level()
    assert (model.session.computer_level, model.session.status) == (
        "expert", "Computer players you add will be expert.")
    model.table_screen.seats.cycle_level()
    assert model.session.computer_level == "random"
    model.table_screen.seats.add_computer()
    assert sent(model) == [{"type": "add_computer", "seat": 1, "level": "random"}]


def test_the_form_seats_computers_of_the_level_it_shows() -> None:
    model = in_lobby()
    model.new_table.open_form()
    assert model.new_table.form is not None
    model.new_table.form.move(8)
    model.new_table.form.change(1)
    assert dict(model.new_table.form.rows())["Computer level"] == "expert"
    model.new_table.submit_form()
    create = model.session.take_outbox()[-1]
    model.handle({"type": "table", "id": create["id"], "table": table(seats=[human(0, "Me"), None])})
    assert sent(model) == [{"type": "add_computer", "seat": 1, "level": "expert"},
                           {"type": "ready", "ready": True}]
    assert model.session.computer_level == "expert"


def test_remove_computer_takes_the_only_one_or_asks_which() -> None:
    model = at_waiting_table([human(0, "Me"), computer(1), None])
    model.table_screen.seats.remove_computer()
    assert sent(model) == [{"type": "remove_computer", "seat": 1}]
    model = at_waiting_table([human(0, "Me"), computer(1), computer(2, "expert")])
    model.table_screen.seats.remove_computer()
    assert sent(model) == [] and model.table_screen.seats.picking == "remove"
    assert model.session.status == "Remove the computer in which seat? 2, 3 (Esc: none)"
    assert model.prompt() == "Remove which computer? Press its seat number; Esc keeps them all."
    assert plain(keys_fragments(model)) == " 1-4 that seat's computer  Esc none "
    model.table_screen.seats.pick_seat(0)                      # a person, not a computer
    assert (sent(model), model.session.status, model.table_screen.seats.picking) == (
        [], "No computer player sits in seat 1.", None)
    model.table_screen.seats.remove_computer()
    model.table_screen.seats.pick_seat(2)
    assert sent(model) == [{"type": "remove_computer", "seat": 2}] and model.table_screen.seats.picking is None
    model.table_screen.seats.remove_computer()
    model.table_screen.seats.cancel_pick()
    assert (sent(model), model.table_screen.seats.picking, model.session.status) == ([], None, "")


def test_no_computer_to_remove() -> None:
    model = at_waiting_table([human(0, "Me"), None])
    model.table_screen.seats.remove_computer()
    assert (sent(model), model.session.status) == ([], "No computer player sits at this table.")


# -- the log's scrollback ----------------------------------------------------------------------

def test_the_log_scrolls_back_and_holds_still_while_lines_arrive() -> None:
    model = seated_ben()
    deal_004(model)
    assert len(model.game.log) == 8       # up to "Anna shows: ..."
    model.game.scroll_log(5, view_height=3)
    assert model.game.log_scroll == 5
    assert [line.text for line in model.game.visible_log()][-1] == "— Deal 1: Anna deals —"
    rule = plain(log_rule_fragments(model, 60))
    assert rule == "── ↓ 5 newer lines · PgDn / End return " + "─" * 21 and len(rule) == 60
    model.game.scroll_log(10, view_height=3)     # no further than a window of the oldest lines
    assert model.game.log_scroll == 5
    model.handle(ev(9, "played", seat=0, card="4H", count=4))
    assert model.game.log_scroll == 6            # the same lines stay in view
    assert [line.text for line in model.game.visible_log()][-1] == "— Deal 1: Anna deals —"
    model.game.scroll_log(-2, view_height=3)
    assert model.game.log_scroll == 4
    model.game.scroll_log_to_end()
    assert model.game.visible_log() == model.game.log
    assert plain(log_rule_fragments(model, 10)) == "─" * 10


# -- who played each card of the pile ----------------------------------------------------------

def test_the_pile_marks_who_played_each_card() -> None:
    model = seated_ben()
    deal_004(model)
    model.handle(ev(9, "played", seat=0, card="4H", count=4))
    model.handle(ev(10, "played", seat=1, card="3C", count=7))
    first = plain(table_fragments(model, 0.0)).splitlines()[0]
    assert first == " Turn-up [5♥]   Count  7   Pile B:4♥ A:3♣"


def test_players_who_share_an_initial_are_marked_by_seat_number() -> None:
    model = seated_ben()
    model.game.table = summary() | {"seats": [human(0, "Ben"), human(1, "Bea")]}
    deal_004(model)
    model.handle(ev(9, "played", seat=0, card="4H", count=4))
    lines = plain(table_fragments(model, 0.0)).splitlines()
    assert lines[0].endswith("Pile 1:4♥")
    assert lines[1].startswith("  2:Bea ")


def test_a_departed_players_cards_are_marked_by_seat_number_not_an_s() -> None:
    # Issue 27, item 9: seat 2's player left, its placeholder "seat 2" marked the card
    # "S:10♦", which reads like a spade.
    model = seated_ben()
    deal_004(model)
    model.handle(ev(9, "played", seat=0, card="4H", count=4))
    model.handle(ev(10, "played", seat=1, card="TD", count=14))
    model.game.table = summary() | {"seats": [None, human(1, "Ben")]}
    first = plain(table_fragments(model, 0.0)).splitlines()[0]
    assert first == " Turn-up [5♥]   Count 14   Pile 1:4♥ 2:10♦"


def test_a_long_pile_keeps_its_newest_cards_within_80_columns() -> None:
    model = seated_ben()
    model.game.table = summary() | {"players": 4, "seats": [
        human(s, n) for s, n in enumerate(["Ben", "Anna", "Cy", "Di"])]}
    model.handle(ev(1, "game_started", preset="noddy-modern", players=4, partnerships=False,
                    target=31))
    model.game.view.turn_up = "TH"
    cards = ["AC", "AD", "AH", "AS", "2C", "2D", "2H", "2S", "3C", "3D", "3H", "TS"]
    count = 0
    for i, card in enumerate(cards):
        count += min(10, "A23456789TJQK".index(card[0]) + 1)
        model.handle(ev(2 + i, "played", seat=i % 4, card=card, count=count))
    first = plain(table_fragments(model, 0.0, 80)).splitlines()[0]
    assert len(first) <= 80
    assert first == " Turn-up [10♥]   Count 31   Pile … B:2♣ A:2♦ C:2♥ D:2♠ B:3♣ A:3♦ C:3♥ D:10♠"


# -- keys and help fit 80 columns -------------------------------------------------------------

@pytest.mark.parametrize("where", ["lobby", "form", "password row", "asking", "waiting",
                                   "watching", "picking", "game"])
def test_the_key_line_fits_80_columns(where: str) -> None:
    model = at_waiting_table([human(0, "Me"), computer(1), computer(2)])
    if where in ("lobby", "form", "password row", "asking"):
        model = in_lobby(table(seats=[human(0, "Ann"), None], private=True))
    if where == "form":
        model.new_table.open_form()
    elif where == "password row":
        model.new_table.open_form()
        assert model.new_table.form is not None
        model.new_table.form.move(8)
    elif where == "asking":
        model.lobby.sit()
    elif where == "watching":
        model = at_waiting_table([human(0, "Ann"), None], seat=None)
    elif where == "picking":
        model.table_screen.seats.remove_computer()
    elif where == "game":
        model = seated_ben()
        deal_004(model)
    line = plain(keys_fragments(model))
    assert len(line) <= 80, line


def test_the_help_fits_the_overlay() -> None:
    """The help is written from the screens' keys: every screen's fits the box's width, and
    the help of the screens up at a table fits its height at 80x24 (a longer one scrolls)."""
    lines = HELP_TEXT.splitlines()
    assert max(len(line) for line in lines) <= 78
    for words in ("1-4", "stand", "remove a computer", "computers' level", "PgUp", "password"):
        assert words in HELP_TEXT
    model = seated_ben()
    at_table = help_text(80, [model.table_screen, model.hand_count]).splitlines()
    assert len(at_table) <= 24 - 4 and max(len(line) for line in at_table) <= 78


@pytest.mark.parametrize("players", ["1", "5"])
def test_noddy_client_refuses_a_player_count_it_cannot_seat(players: str,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    from noddy.play import main

    with pytest.raises(SystemExit) as exit_:
        main(["--players", players])
    assert exit_.value.code == 2
    assert "--players must be 2, 3 or 4" in capsys.readouterr().err


def test_the_dealer_of_a_four_player_game_is_named_within_80_columns() -> None:
    """At a table of four, the line of the other hands ended "· dealer greed" at 80 columns
    (seen in tmux in session 9): who deals was cut off.  The three other hands already go by
    seat number and short name there, so the dealer does too ("your deal" if it is you)."""
    model = seated_ben()
    model.game.table = summary() | {"players": 4, "partnerships": True, "seats": [
        human(0, "Ben"), *({**computer(s), "name": f"greedy computer {s + 1}"} for s in (1, 2, 3))]}
    model.handle(ev(1, "game_started", preset="noddy", players=4, partnerships=True, target=31))
    model.handle(ev(2, "deal_started", deal=1, dealer=3))
    for seat in range(4):
        model.handle(ev(3 + seat, "cards_dealt", seat=seat, count=3,
                        cards=["TC", "JH", "4H"] if seat == 0 else None))
    line = plain(table_fragments(model, 0.0, 80)).splitlines()[1]
    assert line == ("  2:greedy cpu 2 ▒▒▒ 3  3:greedy cpu 3 ▒▒▒ 3  4:greedy cpu 4 ▒▒▒ 3  · dealer 4")
    assert len(line) <= 80
    model.handle(ev(7, "deal_started", deal=2, dealer=0))
    assert plain(table_fragments(model, 0.0, 80)).splitlines()[1].endswith("  · your deal")
    # With room to spare (or two players), the dealer keeps the whole name.
    assert plain(table_fragments(model, 0.0, 120)).splitlines()[1].endswith(" · dealer Ben")



# -- a waiting table's target (issue 27, item 1) ------------------------------------------------

def test_a_waiting_cribbage_table_says_its_target_in_the_lobby_row_and_the_title() -> None:
    # n, preset cribbage, no computers, Enter: the form said 121, but the table screen said
    # "Table 1 · cribbage to 31" until the game began, and the lobby row said no target.
    waiting = table(seats=[None, None], preset="cribbage")
    model = in_lobby(waiting, table(id=2, seats=[human(0, "Di"), None], preset="cribbage",
                                    options={"target": 61}))
    assert plain(lobby_fragments(model, 80)) == (
        " Tables\n"
        " ▶ #1   cribbage           2p       waiting   ·free·, ·free·  [to 121]\n"
        "   #2   cribbage           2p       waiting   Di, ·free·  [to 61]\n")
    model.lobby.sit(0)
    request = model.session.take_outbox()[-1]
    model.handle({"type": "table", "table": waiting | {"seats": [human(0, "Me"), None]}, "seat": 0,
                  "id": request["id"]})
    assert plain(title_fragments(model, "127.0.0.1:3131")).split("  ")[0] == (
        " Noddy · Me @ 127.0.0.1:3131 · Table 1 · cribbage to 121")


# -- long log lines (issue 27, item 4) ------------------------------------------------------------

def test_a_long_log_line_breaks_between_words_with_a_hanging_indent() -> None:
    # At 80 columns the terminal's own wrapping gave "...fifteen six, fifte / en eight..." and
    # "...; 4 claim / ed, 2 mugged by root." with no indent.
    from noddy.client.lines import line
    text = ("Ann counts 5♣ 5♦ 10♥ J♠ with the turn-up 5♥: fifteen two, fifteen four, fifteen six, "
            "fifteen eight, and a pair is ten, and a pair royal is fourteen; 4 claimed, 2 mugged by root.")
    logged = line("event", text)
    rows = plain(log_fragments([logged], 80)).split("\n")
    assert rows == [  # (the last column left free: issue 33, item 8)
        " Ann counts 5♣ 5♦ 10♥ J♠ with the turn-up 5♥: fifteen two, fifteen four,",
        "   fifteen six, fifteen eight, and a pair is ten, and a pair royal is fourteen;",
        "   4 claimed, 2 mugged by root.",
    ]
    assert plain(log_fragments([line("event", "Ann says go.")], 80)) == " Ann says go."


def test_a_full_table_with_a_guest_says_why_it_is_unrated_and_marks_the_guest() -> None:
    """Seen in tmux: with gus (a guest) seated, ann's table said only "unrated" in its title;
    the prompt that asks for r dropped the reason the half-full table had given."""
    gus = human(1, "gus") | {"guest": True}
    unrated = {"rated": False, "unrated_why": "gus is a guest"}
    model = in_lobby(table(seats=[None, gus], **unrated))
    model.handle({"type": "table", "table": table(seats=[None, gus], **unrated)})
    model.lobby.sit(0)
    request = model.session.take_outbox()[-1]
    model.handle({"type": "table", "id": request["id"],
                  "table": table(seats=[human(0, "Me"), gus], **unrated)})
    assert model.prompt() == ("Every seat is taken: r says you are ready, and the game begins. "
                              "The game will be unrated: gus is a guest.")
    assert plain(waiting_fragments(model)) == ("  1  Me (you)  (not ready)\n"
                                               "  2  gus  (guest, not ready)\n")
    model.handle({"type": "table", "table": table(seats=[human(0, "Me", ready=True), gus],
                                                  **unrated)})
    assert model.prompt() == ("You are ready; waiting for gus (r: not ready after all). "
                              "The game will be unrated: gus is a guest.")
