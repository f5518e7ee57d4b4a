"""Counting by hand and the coach in the terminal client (issue 14).

The view model is fed the messages a server sends Ann at a cribbage table with
``counting: "manual"`` and ``hints: true`` (RULES.md's worked example: her 5♥ 5♠ J♦ 4♣
with 6♣ turned up holds 16), and the exact requests it queues and the text the screen would
show are checked; then the whole client is driven by keys against a real server.
"""

from __future__ import annotations

import argparse
from typing import Any

import pytest

from noddy.client.cli import build_parser, solo_table_options
from noddy.client.screens.coach import NOTHING_TO_NOTE, REFUSALS
from noddy.client.screens.form import CreateForm
from noddy.client.model import ViewModel
from noddy.client.render import (
    board_fragments,
    count_fragments,
    hand_or_show_fragments,
    keys_fragments,
    log_fragments,
    panel_fragments,
    plain,
    status_fragments,
)
from noddy.client.screens.table_layout import table_fragments

from .test_model import ev

CRIBBAGE = {"name": "cribbage", "title": "Cribbage", "players": [2, 3], "partnership_players": [4],
            "options": {"target": {"type": "int", "min": 15, "max": 500, "default": 121},
                        "knave_noddy": {"type": "bool", "default": True},
                        "counting": {"type": "choice", "values": ["auto", "manual"],
                                     "default": "auto"}}}
NODDY = {"name": "noddy", "title": "Noddy", "players": [2], "partnership_players": [4],
         "options": {"target": {"type": "int", "min": 15, "max": 500, "default": 31},
                     "counting": {"type": "choice", "values": ["auto"], "default": "auto"}}}
ANN_HAND = ["5H", "5S", "JD", "4C"]
BEN_HAND = ["9C", "TD", "QS", "KH"]
#: What Ann's hand holds with the turn-up, and how it is said: never shown before `counted`.
WORTH, ANNOUNCEMENT = 16, "fifteen two, fifteen four"


def summary(hints: bool = True, status: str = "playing") -> dict[str, Any]:
    return {"id": 1, "preset": "cribbage", "players": 2, "partnerships": False,
            "options": {"counting": "manual"} | ({"hints": True} if hints else {}),
            "private": False, "turn_timer": None, "status": status, "rated": not hints,
            "seats": [{"seat": 0, "name": "Ann", "kind": "human", "level": None, "ready": True,
                       "connected": True},
                      {"seat": 1, "name": "Ben", "kind": "computer", "level": "random",
                       "ready": True, "connected": True}],
            "spectators": [], "games_played": 1}


def turn(seq: int, seat: int, legal: list[dict[str, Any]], awaiting: list[int] | None = None
         ) -> dict[str, Any]:
    return {"type": "turn", "table": 1, "seq": seq, "to_move": seat,
            "awaiting": [seat] if awaiting is None else awaiting, "count": 0,
            "legal_actions": legal, "time_left": None}


def sent(model: ViewModel) -> list[dict[str, Any]]:
    """The requests queued since the last look, without their ids."""
    return [{k: v for k, v in m.items() if k != "id"} for m in model.session.take_outbox()]


def reply(model: ViewModel, **message: Any) -> None:
    """The server's answer to the last request sent."""
    model.handle(message | {"id": model.session._next_id - 1})


def at_table(hints: bool = True, model: ViewModel | None = None) -> ViewModel:
    """Ann has created table 1 (manual counting) and the game has begun: her discard (in
    ``model``, e.g. a whole client's, or a fresh one)."""
    model = ViewModel("Ann") if model is None else model
    model.connection_up()
    model.handle({"type": "welcome", "name": "Ann", "token": "t", "resumed": False,
                  "presets": [CRIBBAGE, NODDY], "levels": ["random"]})
    model.session.send("create_table", preset="cribbage", players=2, seat=0)
    created = model.session.take_outbox()[-1]["id"]
    model.handle({"type": "table", "table": summary(hints), "id": created})
    for message in [
        ev(1, "game_started", preset="cribbage", players=2, partnerships=False, target=121),
        ev(2, "cut_for_deal", dealer=1, cuts=[{"seat": 0, "card": "9C"}, {"seat": 1, "card": "2D"}]),
        ev(3, "deal_started", deal=1, dealer=1),
        ev(4, "cards_dealt", seat=0, count=6, cards=ANN_HAND + ["KH", "QH"]),
        ev(5, "cards_dealt", seat=1, count=6, cards=None),
        turn(5, 0, [{"action": "discard", "cards": ["KH", "QH"]},
                    {"action": "discard", "cards": ["5H", "5S"]}], awaiting=[0, 1]),
    ]:
        model.handle(message)
    model.session.take_outbox()
    return model


def to_the_show(model: ViewModel) -> None:
    """Both have laid away, 6♣ is turned up, every card is played: Ann's hand is counted."""
    for message in [
        ev(6, "discarded", seat=0, count=2, cards=["KH", "QH"]),
        ev(7, "discarded", seat=1, count=2, cards=None),
        ev(8, "turned_up", card="6C"),
        ev(9, "counting", seat=0, reason="show", cards=ANN_HAND),
        turn(9, 0, [{"action": "claim", "min": 0, "max": 29}]),
    ]:
        model.handle(message)


def screen(model: ViewModel) -> str:
    """Everything the table screen draws (board, table, hand or show, prompt, keys, log)."""
    return "\n".join(plain(fragments) for fragments in [
        board_fragments(model, 80), table_fragments(model, 0.0, 80), hand_or_show_fragments(model),
        status_fragments(model, 80), keys_fragments(model), log_fragments(model.game.log)])


def box(model: ViewModel) -> list[str]:
    """The coach's box, line by line (without the space each line keeps from the frame)."""
    return [line.rstrip() for line in plain(panel_fragments(model)).splitlines()]


def type_keys(model: ViewModel, keys: str) -> None:
    """Digits, ⌫ (Backspace) and ⎋ (Esc) as the entry's keys take them."""
    for key in keys:
        if key == "⌫":
            model.hand_count.backspace()
        elif key == "⎋":
            model.hand_count.clear()
        else:
            model.hand_count.type_digit(key)


# == counting by hand ======================================================================

def test_a_claim_is_typed_edited_and_sent_exactly() -> None:
    model = at_table()
    to_the_show(model)
    count = model.hand_count
    assert count.claiming and not count.mugging
    type_keys(model, "13⌫")
    assert count.entry == "1"
    assert model.prompt().endswith("Claim: 1▏")
    type_keys(model, "⎋")
    assert count.entry == ""
    assert plain(keys_fragments(model)) == " 0-9 points  PgUp log  c chat  ? help "
    type_keys(model, "12")
    assert plain(keys_fragments(model)) == (" 0-9 points  ↵ claim  ⌫ edit  Esc clear  PgUp log  "
                                            "c chat  ? help ")
    assert plain(hand_or_show_fragments(model)).splitlines() == [
        "  4     5     5     J         6     ",
        "    ♣     ♥     ♠     ♦    +    ♣     Your hand with the turn-up",
        "      4     5     5     J         6 ",
        "  Claim: 12    (0 to 29; Enter claims)"]
    count.submit()
    assert sent(model) == [{"type": "action", "action": "claim", "points": 12}]
    count.submit()                         # a second Enter before the answer sends nothing
    assert sent(model) == []


def test_an_over_claim_is_refused_once_in_words_and_a_second_counts_as_0() -> None:
    """The claim prompt says the rule; a first claim too high (told to Ann alone, with no seq)
    makes the prompt say that the hand does not hold it and what a second costs; the second
    counts as 0, said in the status line, and the claim of 0 follows as for anyone."""
    model = at_table()
    to_the_show(model)
    assert model.prompt() == ("Count your hand with the turn-up and claim the points (one claim too "
                              "high is refused, a second counts as 0): type them and Enter.  Claim: ▏")
    type_keys(model, "18")
    model.hand_count.submit()
    assert sent(model) == [{"type": "action", "action": "claim", "points": 18}]
    reply(model, type="ok")
    model.handle({"type": "event", "table": 1, "seq": None, "event": {
        "kind": "claim_refused", "seat": 0, "reason": "show", "points": 18, "counts_as_zero": False}})
    model.handle(turn(9, 0, [{"action": "claim", "min": 0, "max": 29}]))
    refused = ("That hand does not hold 18. Claim again: a second claim above the hand's worth "
               "counts as 0.")
    assert model.prompt() == refused + "  Claim: ▏"
    assert model.hand_count.claiming and model.hand_count.entry == "" and model.game.view.seq == 9
    assert sent(model) == []                # no gap in seq: no snapshot asked for
    assert refused in screen(model)         # in the prompt, and in the log
    assert plain(status_fragments(model, 80)).splitlines()[:2] == [   # 80 columns wide
        " That hand does not hold 18. Claim again: a second claim above the hand's worth",
        " counts as 0.  Claim: ▏"]
    type_keys(model, "17")
    assert model.prompt() == refused + "  Claim: 17▏"
    model.hand_count.submit()
    assert sent(model) == [{"type": "action", "action": "claim", "points": 17}]
    reply(model, type="ok")
    model.handle({"type": "event", "table": 1, "seq": None, "event": {
        "kind": "claim_refused", "seat": 0, "reason": "show", "points": 17, "counts_as_zero": True}})
    model.handle(ev(10, "claimed", seat=0, reason="show", cards=ANN_HAND, points=0))
    model.handle(turn(10, 1, [], awaiting=[1]))
    assert model.session.status == "That hand does not hold 17 either: your claim counts as 0." and model.session.status_is_error
    assert model.prompt() == "Ann claims 0; Ben may call muggins."
    assert "Ann claims 0 for the hand." in screen(model)
    assert str(WORTH) not in screen(model)


def test_the_worth_is_never_on_the_screen_before_the_show_is_counted() -> None:
    model = at_table()
    to_the_show(model)
    type_keys(model, "12")
    model.hand_count.submit()
    reply(model, type="ok")
    for message in [
        ev(10, "claimed", seat=0, reason="show", cards=ANN_HAND, points=12),
        ev(11, "scored", seat=0, points=12, reason="claim", items=[{"kind": "claim", "points": 12,
                                                                    "cards": ANN_HAND}],
           scores=[12, 0], cards=ANN_HAND, concealed=False, announcement="twelve"),
        turn(11, 1, [], awaiting=[1]),
    ]:
        model.handle(message)
    text = screen(model)
    assert "Ann claims 12 for the hand." in text and "Ann claims 12; Ben may call muggins." in text
    assert str(WORTH) not in text and "fifteen" not in text
    assert model.game.deal_count is None
    # Ben calls, right: only now is the worth told, with its combinations.
    model.handle(ev(12, "muggins", seat=1, owner=0, points=WORTH, right=True))
    assert str(WORTH) not in screen(model).replace("Ben: muggins, 16", "")
    model.handle(ev(13, "counted", seat=0, reason="show", cards=ANN_HAND, claimed=12, worth=WORTH,
                    items=[], mugged_by=1, lost=0, announcement=ANNOUNCEMENT))
    assert f"Your hand held {WORTH} ({ANNOUNCEMENT}); 12 claimed, 4 mugged by Ben." in screen(model)


def test_muggins_is_called_by_number_or_passed_with_p() -> None:
    model = at_table()
    to_the_show(model)
    for message in [
        ev(10, "claimed", seat=0, reason="show", cards=ANN_HAND, points=12),
        ev(11, "counted", seat=0, reason="show", cards=ANN_HAND, claimed=12, worth=WORTH, items=[],
           mugged_by=None, lost=4, announcement=ANNOUNCEMENT),
        ev(12, "counting", seat=1, reason="show", cards=BEN_HAND),
        turn(12, 1, [], awaiting=[1]),
    ]:
        model.handle(message)
    assert not model.hand_count.active
    assert model.prompt() == "Ben is counting the hand."
    model.handle(ev(13, "claimed", seat=1, reason="show", cards=BEN_HAND, points=4))
    model.handle(turn(13, 0, [{"action": "muggins", "min": 5, "max": 29}, {"action": "pass"}]))
    count = model.hand_count
    assert count.mugging and not count.claiming
    shown = plain(hand_or_show_fragments(model)).splitlines()
    assert shown[1].endswith("Ben's hand with the turn-up")
    assert shown[3] == "  Ben claims 4.  Muggins:     (5 or more; p passes)"
    assert model.prompt() == ("Ben claims 4 for the hand.  Muggins? Type what it holds and "
                              "Enter, or p to pass.  Muggins: ▏")
    assert plain(keys_fragments(model)) == " 0-9 points  p pass  PgUp log  c chat  ? help "
    type_keys(model, "3")
    count.submit()                         # not more than the claim: said, not sent
    assert sent(model) == []
    assert model.session.status == "Muggins must say more than the 4 claimed: 5 or more."
    type_keys(model, "⎋6")
    count.submit()
    assert sent(model) == [{"type": "action", "action": "muggins", "points": 6}]
    reply(model, type="ok")
    model.handle(ev(14, "muggins", seat=0, owner=1, points=6, right=False))
    model.handle(ev(15, "counted", seat=1, reason="show", cards=BEN_HAND, claimed=4, worth=4,
                    items=[], mugged_by=None, lost=0, announcement="a run of three"))
    model.handle(ev(16, "counting", seat=1, reason="crib", cards=["KH", "QH", "2C", "3C"]))
    model.handle(ev(17, "claimed", seat=1, reason="crib", cards=["KH", "QH", "2C", "3C"], points=0))
    model.handle(turn(17, 0, [{"action": "muggins", "min": 1, "max": 29}, {"action": "pass"}]))
    assert model.prompt().startswith("Ben claims 0 for the crib.")
    count.pass_claim()
    assert sent(model) == [{"type": "action", "action": "pass"}]


def test_after_a_claim_of_29_only_pass_is_offered_and_p_sends_it() -> None:
    """No show holds more than 29, so nothing can be called on such a claim: the turn offers
    pass alone, which p must still send (else the game would wait for the timer)."""
    model = at_table()
    to_the_show(model)
    model.handle(ev(10, "claimed", seat=0, reason="show", cards=ANN_HAND, points=12))
    model.handle(ev(11, "counted", seat=0, reason="show", cards=ANN_HAND, claimed=12, worth=WORTH,
                    items=[], mugged_by=None, lost=4, announcement=ANNOUNCEMENT))
    model.handle(ev(12, "counting", seat=1, reason="show", cards=BEN_HAND))
    model.handle(ev(13, "claimed", seat=1, reason="show", cards=BEN_HAND, points=29))
    model.handle(turn(13, 0, [{"action": "pass"}]))
    count = model.hand_count
    assert count.mugging and count.active
    type_keys(model, "3")
    count.submit()  # nothing to call: said, not sent
    assert sent(model) == []
    count.pass_claim()
    assert sent(model) == [{"type": "action", "action": "pass"}]


# == the coach =============================================================================

HINT = {"type": "hint", "table": 1, "seat": 0, "decision": "discard", "choices": [
    {"laid": ["KH", "QH"], "kept": ANN_HAND, "hand": 12.5, "crib": -4.6, "total": 7.9},
    {"laid": ["5H", "5S"], "kept": ["4C", "JD", "KH", "QH"], "hand": 4.1, "crib": -8.25,
     "total": -4.15}]}


def test_h_asks_the_coach_and_its_box_shows_the_choices_best_first() -> None:
    model = at_table()
    assert " h hint " in plain(keys_fragments(model))
    model.coach.ask_hint()
    assert sent(model) == [{"type": "hint"}]
    reply(model, **HINT)
    shown = box(model)
    assert shown == [
        " The coach · what to lay away, best first",
        "     lay away  keep              hand   crib  total",
        "  1  K♥ Q♥     5♥ 5♠ J♦ 4♣       12.5   -4.6    7.9",
        "  2  5♥ 5♠     4♣ J♦ K♥ Q♥        4.1   -8.2   -4.2",
        " any key closes this",
    ]
    assert plain(keys_fragments(model)) == " any key closes the coach's box  Ctrl-Q quit "
    model.coach.close_panel()
    assert model.coach.panel is None


def test_a_play_hint_lists_card_pegs_now_reply_and_total() -> None:
    model = at_table()
    model.coach.ask_hint()
    model.session.take_outbox()
    reply(model, type="hint", table=1, seat=0, decision="play", choices=[
        {"card": "7D", "now": 2, "answer": 0.6, "total": 1.4},
        {"card": "TC", "now": 0, "answer": 1.75, "total": -1.75}])
    assert box(model)[1:4] == [
        "     card   now  reply  total",
        "  1  7♦       2    0.6    1.4",
        "  2  10♣      0    1.8   -1.8",
    ]


def test_the_coachs_refusals_are_words_and_h_is_offered_only_where_it_works() -> None:
    model = at_table(hints=False)
    assert " h " not in plain(keys_fragments(model))
    model.coach.ask_hint()                 # no coach at this table: said at once
    assert sent(model) == [] and model.session.status == REFUSALS["hints_off"]
    model = at_table()
    to_the_show(model)
    assert " h " not in plain(keys_fragments(model))
    model.coach.ask_hint()                 # the coach never counts a hand
    assert sent(model) == [] and model.session.status == REFUSALS["no_hint"]
    model = at_table()
    model.coach.ask_hint()
    reply(model, type="error", code="no_hint", message="the coach does not count a show")
    assert model.session.status == "The coach never counts a hand for you: count it yourself."
    model.coach.ask_hint()
    reply(model, type="error", code="hints_off", message="table 1 has no coach")
    assert model.session.status == ("This table has no coach: hints are chosen when a table is made "
                            "(and make it unrated).")


def test_after_each_deal_the_review_is_asked_for_and_shown_with_the_count() -> None:
    model = at_table()
    to_the_show(model)
    model.handle(ev(10, "hands_revealed", hands=[ANN_HAND, BEN_HAND], crib=["KH", "QH", "2C", "3C"]))
    assert model.game.deal_count is not None and sent(model) == []
    model.handle(ev(11, "deal_ended", deal=1, scores=[12, 4]))
    assert sent(model) == [{"type": "review"}]
    reply(model, type="review", game=7, seat=0, deal=1, notes=[
        {"deal": 1, "decision": "discard", "chosen": {"laid": ["5H", "5S"], "total": -4.15},
         "best": {"laid": ["KH", "QH"], "total": 7.9}, "difference": 12.05},
        {"deal": 1, "decision": "play", "chosen": {"card": "5C", "now": 0, "answer": 2.0, "total": -2.0},
         "best": {"card": "9D", "now": 0, "answer": 0.4, "total": -0.4}, "difference": 1.6}])
    count = plain(count_fragments(model, 80)).splitlines()
    assert count[-3:] == [
        " The coach:",
        " you laid away 5♥ 5♠ (total -4.2), best K♥ Q♥ (total 7.9): 12.1 points",
        " you played 5♣ (total -2.0), best 9♦ (total -0.4): 1.6 points",
    ]
    model.game.dismiss_count()
    model.handle(turn(12, 0, [{"action": "discard", "cards": ["KH", "QH"]}]))
    assert " v review " in plain(keys_fragments(model))
    assert model.coach.open_review()
    assert box(model)[0] == " The coach's review of deal 1"


def test_no_review_is_asked_for_at_a_table_without_a_coach_and_an_empty_one_says_so() -> None:
    model = at_table(hints=False)
    model.handle(ev(6, "deal_ended", deal=1, scores=[0, 0]))
    assert sent(model) == []
    model = at_table()
    model.handle(ev(6, "hands_revealed", hands=[ANN_HAND, BEN_HAND], crib=None))
    model.handle(ev(7, "deal_ended", deal=1, scores=[0, 0]))
    model.session.take_outbox()
    reply(model, type="review", game=7, seat=0, deal=1, notes=[])
    assert plain(count_fragments(model, 80)).splitlines()[-1] == " " + NOTHING_TO_NOTE


def test_a_stored_games_review_opens_in_the_coachs_box() -> None:
    model = at_table()
    model.coach.review_game(7)
    assert sent(model) == [{"type": "review", "game": 7}]
    reply(model, type="review", game=7, seat=0, deal=None, notes=[
        {"deal": 3, "decision": "play", "chosen": {"card": None, "total": -2.0},
         "best": {"card": "9D", "total": -0.4}, "difference": 1.6}])
    assert box(model)[:2] == [
        " The coach's review of game 7",
        " Deal 3: you said go (total -2.0), best 9♦ (total -0.4): 1.6 points",
    ]


# == making the table ======================================================================

def test_the_form_offers_counting_and_the_coach() -> None:
    form = CreateForm([CRIBBAGE, NODDY])
    labels = [label for label, _ in form.rows()]
    assert labels[3:6] == ["Turned-up Jack scores", "Counting", "Coach (h: hints)"]
    assert dict(form.rows())["Counting"] == "auto (the server counts)"
    assert form.request()["options"] == {}
    form.move(4)
    form.change(1)
    assert dict(form.rows())["Counting"] == "by hand, with muggins"
    form.move(1)
    form.change(1)
    assert dict(form.rows())["Coach (h: hints)"] == "yes (unrated)"
    assert form.request()["options"] == {"counting": "manual", "hints": True}
    form.row = 0
    form.change(1)                         # noddy: counting is automatic only, so no row
    assert "Counting" not in dict(form.rows())
    assert form.request()["options"] == {"hints": True}


@pytest.mark.parametrize("argv, options", [
    ([], {"hints": True}),
    (["--counting", "manual"], {"hints": True, "counting": "manual"}),
    (["--counting", "auto", "--no-hints"], {}),
])
def test_the_command_line_sets_counting_and_the_coach(argv: list[str], options: dict[str, Any]) -> None:
    args: argparse.Namespace = build_parser().parse_args(argv)
    assert solo_table_options(args) == options


# == by keys, against a real server ========================================================

async def test_a_manual_game_with_the_coach_by_keys() -> None:
    """h during a discard opens the coach's box (any key closes it); each claim is first
    made too high (refused once, said in the prompt, the entry stays open), then 0; each muggins is passed with
    p; after the first deal the review comes back; the game reaches its end."""
    from ..server.harness import running_server
    from .test_app import ENTER, running_client, wait_for

    async with running_server(default_level="random") as server:
        async with running_client(server.port, name="Ann", quick_start={
                "preset": "cribbage", "players": 2, "computers": 1,
                "options": {"target": 31, "counting": "manual", "hints": True}}) as (app, keys):
            model = app.model
            over_claims = hints = passes = 0

            def my_move() -> bool:
                return model.game.view.winner is not None or (
                    model.game.can_act and not model.game.sending_action and model.coach.panel is None
                    and model.game.deal_count is None)

            while model.game.view.winner is None:
                await wait_for(lambda: my_move() or model.game.deal_count is not None, "my turn")
                if model.game.deal_count is not None and not my_move():
                    keys.send_text(" ")
                    await wait_for(lambda: model.game.deal_count is None, "the count to close")
                    continue
                if model.game.view.winner is not None:
                    break
                seq = model.game.view.seq
                if model.hand_count.claiming:
                    keys.send_text("29" + ENTER)
                    await wait_for(lambda: model.prompt().startswith(
                        f"That {(model.hand_count.show or {}).get('reason', 'show').replace('show', 'hand')} "
                        "does not hold 29. Claim again: a second claim above the "), "the over-claim in words")
                    assert model.hand_count.claiming and model.hand_count.entry == ""
                    over_claims += 1
                    keys.send_text("0" + ENTER)
                elif model.hand_count.mugging:
                    keys.send_text("p")
                    passes += 1
                elif model.game.discard_size and hints == 0:
                    keys.send_text("h")
                    await wait_for(lambda: model.coach.panel is not None, "the coach's box")
                    assert model.coach.panel.title == "The coach · what to lay away, best first"
                    assert len(model.coach.panel.lines) == 7     # a heading and 6 choices
                    hints += 1
                    keys.send_text("x")
                    await wait_for(lambda: model.coach.panel is None, "the box to close")
                    continue
                elif model.game.discard_size:
                    keys.send_text("12" + ENTER)
                elif model.game.go_is_legal:
                    keys.send_text("g")
                else:
                    playable = model.game.playable()
                    keys.send_text(str(next(i for i, c in enumerate(model.game.hand) if c in playable) + 1))
                await wait_for(lambda: model.game.view.seq != seq or model.game.view.winner is not None, "the move")
            assert over_claims >= 1 and hints == 1 and passes >= 1
            assert model.game.view.deal >= 2 and model.coach.notes is not None and model.coach.review_deal >= 1
            assert max(model.game.view.scores) >= 31
            # The stored game's replay: v asks the coach to review it, in its box.
            keys.send_text("l")
            await wait_for(lambda: model.session.screen == "lobby", "the lobby")
            keys.send_text("m")
            await wait_for(lambda: app.records.games, "my games")
            keys.send_text(ENTER)
            await wait_for(lambda: app.records.replay is not None, "the replay")
            game_id = app.records.replay.record["id"]
            keys.send_text("v")
            await wait_for(lambda: model.coach.panel is not None, "the review")
            assert model.coach.panel.title == f"The coach's review of game {game_id}"
            assert all(line.text.startswith("Deal ") for line in model.coach.panel.lines)


# -- the coach's sums add up on the screen (issue 27, item 7) ---------------------------------------

@pytest.mark.parametrize("chosen, best, difference, shown", [
    (-0.14, 1.04, 1.18, "(total -0.1), best 8♥ (total 1.0): 1.1 points"),
    (16.64, 17.66, 1.02, "(total 16.6), best 8♥ (total 17.7): 1.1 points"),
])
def test_a_review_notes_difference_is_that_of_the_totals_shown(chosen: float, best: float,
                                                                difference: float, shown: str) -> None:
    from noddy.client.screens.coach import note_line
    note = {"deal": 2, "decision": "play", "chosen": {"card": "5C", "now": 0, "answer": 0.1, "total": chosen},
            "best": {"card": "8H", "now": 0, "answer": 0.0, "total": best}, "difference": difference}
    assert note_line(note).text == "you played 5♣ " + shown
