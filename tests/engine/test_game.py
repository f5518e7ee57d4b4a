"""The Game state machine: the worked deals of RULES.md played through it, its errors,
the immediate win, determinism, copies and what each seat may see."""

from __future__ import annotations

import pytest

from noddy.engine import (
    AlreadyDiscardedError, Card, CardNotInHandError, CardsDealt, Discard, Discarded, Game,
    GameOver, GameOverError, Go, MustPlayError, NotYourTurnError, Play, Scored,
    WouldPassThirtyOneError, WrongDiscardError, WrongPhaseError, parse_cards,
)


def _shows(events) -> dict[int, int]:
    return {e.seat: e.points for e in events if isinstance(e, Scored) and e.reason == "show"}


def test_004_deal_anna_and_ben(stack) -> None:
    # Seat 0 Anna cuts the ace and deals; Ben (seat 1) is dealt first.
    stack("AC KC", "TC 6S JH 6D 4H 3C 5H")
    game = Game("noddy", seed=0)
    assert game.dealer == 0 and game.turn_up == Card.parse("5H")
    shows = [e for e in game.log if isinstance(e, Scored)]
    assert [(e.seat, e.points, e.announcement) for e in shows] == [
        (1, 11, "fifteen two, fifteen four, twenty-five seven, a flush ten, knave noddy eleven"),
        (0, 4, "fifteen two, a pair four"),
    ]
    stack("QS 2D 3D 4D 5D 6D 7D")  # the next deal's cards
    for seat, card in [(1, "4H"), (0, "3C"), (1, "TC"), (0, "6S")]:
        assert game.apply(Play(seat, card))[0].count > 0
    assert game.legal_actions(1) == [Go(1)]
    game.apply(Go(1))
    events = game.apply(Play(0, "6D"))
    scored = [(e.seat, [(i.kind, i.points) for i in e.items]) for e in events if isinstance(e, Scored)
              and e.reason == "play"]
    assert scored == [(0, [("pair", 2)]), (0, [("last card", 1)])]
    ended = [e for e in events if e.kind == "deal_ended"]
    assert ended[0].scores == (7, 11)  # Anna 7, Ben 11
    assert game.deal == 2 and game.dealer == 1


def test_002_deal_maria_and_arturo(stack) -> None:
    stack("AC KC", "4C 6S 4H 9C 6D 9D 7H")
    game = Game("noddy", seed=0)
    assert _shows(game.log) == {1: 4, 0: 13}
    stack("QS 2D 3D 4D 5D 6D 7D")
    game.apply(Play(1, "4C"))
    game.apply(Play(0, "9D"))
    game.apply(Play(1, "6D"))
    events = game.apply(Play(0, "6S"))
    assert [(i.kind, i.points) for i in events[1].items] == [("twenty-five", 4), ("pair", 2)]
    game.apply(Play(1, "4H"))
    assert game.legal_actions(0) == [Go(0)]
    events = game.apply(Go(0))
    assert [(e.seat, e.points) for e in events if isinstance(e, Scored)][0] == (1, 1)
    ended = [e for e in events if e.kind == "deal_ended"]
    assert ended[0].scores == (19, 5)  # María 19, Arturo 5


def test_turned_up_jack_goes_to_the_team_on_the_dealers_left(stack) -> None:
    # Four in partnerships, seat 0 deals: the Jack turned goes to seat 1's team (team 1).
    stack("AC KC QC TC", "2C 3C 4C 5C 2D 3D 4D 5D 2H 3H 4H 5H JS")
    game = Game("noddy", 4, partnerships=True, seed=0)
    heels = [e for e in game.log if isinstance(e, Scored) and e.reason == "turn-up"]
    assert [(e.seat, e.points, e.items[0].kind) for e in heels] == [(1, 2, "knave noddy")]
    assert game.scores[1] >= 2


@pytest.mark.parametrize("preset, expected_seat, points", [
    ("noddy", 1, 2), ("noddy-ducoeur", 0, 2), ("noddy-holme", 1, 2), ("noddy-modern", 0, 1),
])
def test_turned_up_jack_by_preset(stack, preset: str, expected_seat: int, points: int) -> None:
    stack("AC KC", "2C 2D 3C 3D 4C 4D JS")
    game = Game(preset, seed=0)
    heels = [e for e in game.log if isinstance(e, Scored) and e.reason == "turn-up"]
    assert [(e.seat, e.points) for e in heels] == [(expected_seat, points)]


def test_knave_noddy_false_drops_the_turned_up_jack(stack) -> None:
    stack("AC KC", "2C 2D 3C 3D 4C 4D JS")
    game = Game("noddy", seed=0, options={"knave_noddy": False})
    assert not [e for e in game.log if isinstance(e, Scored) and e.reason == "turn-up"]


def test_non_dealer_wins_in_the_show_before_the_dealer_counts(stack) -> None:
    # Ben (seat 1) holds three fives with a five turned: 8 for fifteens + 12 for four of a
    # kind = 20, past the target of 15, so Anna, the dealer, never counts her three kings.
    stack("AC KC", "5C KC 5D KD 5H KH 5S")
    game = Game("noddy", seed=0, options={"target": 15})
    assert game.is_over and game.winner == 1 and game.scores == [0, 20]
    assert isinstance(game.log[-1], GameOver)
    assert [e.seat for e in game.log if isinstance(e, Scored)] == [1]
    assert game.to_move is None and game.legal_actions(0) == []
    with pytest.raises(GameOverError):
        game.apply(Play(0, "KC"))


def test_a_win_in_the_play_ends_the_game_at_once(stack) -> None:
    # 002's deal to 15: María's 6S (pair 2 + twenty-five 4) takes her from 13 to 19.
    stack("AC KC", "4C 6S 4H 9C 6D 9D 7H")
    game = Game("noddy", seed=0, options={"target": 15})
    for seat, card in [(1, "4C"), (0, "9D"), (1, "6D")]:
        game.apply(Play(seat, card))
    events = game.apply(Play(0, "6S"))
    assert isinstance(events[-1], GameOver) and events[-1].winner == 0
    assert game.scores == [19, 4] and game.is_over
    assert game.hands[1] == [Card.parse("4H")]  # Arturo never plays his last card


def test_errors_name_the_problem_and_change_nothing(stack) -> None:
    stack("AC KC", "TC 6S JH 6D 4H 3C 5H")
    game = Game("noddy", seed=0)
    before = (list(map(list, game.hands)), game.to_move, len(game.log), list(game.scores))
    cases = [
        (Play(0, "6S"), NotYourTurnError, "it is seat 1's turn, not seat 0's"),
        (Play(1, "6S"), CardNotInHandError, "seat 1 does not hold 6S"),
        (Go(1), MustPlayError, "seat 1 can play (TC JH 4H) and may not say go"),
        (Discard(1, ["TC"]), WrongPhaseError, "nothing is laid away to the crib now (phase: play)"),
        (Play(5, "TC"), NotYourTurnError, "there is no seat 5 in a 2-player game"),
    ]
    for action, error, message in cases:
        with pytest.raises(error) as info:
            game.apply(action)
        assert str(info.value) == message
        assert (list(map(list, game.hands)), game.to_move, len(game.log), list(game.scores)) == before
    game.apply(Play(1, "TC"))
    game.apply(Play(0, "6S"))
    game.apply(Play(1, "JH"))  # 26
    with pytest.raises(WouldPassThirtyOneError, match="6D would take the count from 26 to 32, past 31"):
        game.apply(Play(0, "6D"))


def test_discard_errors_and_simultaneous_discards(stack) -> None:
    stack("AC KC", "2C 2D 3C 3D 4C 4D 5C 5D 6C 6D 7C 7D KS")
    game = Game("cribbage", seed=0)
    assert game.phase == "discard" and game.awaiting == (1, 0) and game.to_move == 1
    assert len(game.legal_actions(0)) == 15
    with pytest.raises(WrongDiscardError, match="lay away exactly 2 different card"):
        game.apply(Discard(0, ["2D"]))
    with pytest.raises(CardNotInHandError, match="seat 0 does not hold 2C"):
        game.apply(Discard(0, ["2C", "2D"]))
    with pytest.raises(WrongPhaseError):
        game.apply(Play(1, "2C"))
    events = game.apply(Discard(0, ["2D", "3D"]))  # the dealer may lay away first
    assert [type(e) for e in events] == [Discarded]
    assert game.awaiting == (1,)
    with pytest.raises(AlreadyDiscardedError):
        game.apply(Discard(0, ["4D", "5D"]))
    game.apply(Discard(1, ["2C", "3C"]))
    assert game.phase == "play" and game.turn_up == Card.parse("KS") and game.to_move == 1
    assert sorted(map(str, game.crib)) == ["2C", "2D", "3C", "3D"]


def test_same_seed_same_game_and_copies_are_independent() -> None:
    def play_out(game: Game) -> list[dict]:
        while not game.is_over:
            game.apply(game.legal_actions(game.awaiting[-1])[-1])
        return [e.to_dict() for e in game.log]

    assert play_out(Game("cribbage", 3, seed=42)) == play_out(Game("cribbage", 3, seed=42))
    assert play_out(Game("cribbage", 3, seed=42)) != play_out(Game("cribbage", 3, seed=43))
    game = Game("noddy-modern", 3, seed=5)
    twin = game.copy(with_log=True)
    assert play_out(twin) == play_out(game)
    game = Game("noddy-modern", 3, seed=5)
    clone = game.copy()
    clone.apply(clone.legal_actions()[0])
    assert game.hands != clone.hands and len(game.log) > 0 and clone.log[0] is not None


def test_observation_shows_own_cards_only() -> None:
    game = Game("cribbage", 2, seed=3)
    view = game.observation(0)
    assert view.hand == tuple(game.hands[0])
    assert view.hand_sizes == (6, 6)
    text = str(view.to_dict())
    for card in game.hands[1]:
        assert f"'{card}'" not in text
    spectator = game.observation(None)
    assert spectator.hand is None and spectator.legal_actions == ()
    assert view.legal_actions == tuple(game.legal_actions(0))


def test_events_hide_other_seats_cards() -> None:
    game = Game("noddy", seed=1)
    dealt = [e for e in game.log if isinstance(e, CardsDealt)]
    shows = [e for e in game.log if isinstance(e, Scored) and e.reason == "show"]
    for event in dealt:
        assert event.for_seat(event.seat).cards == event.cards
        assert event.for_seat(1 - event.seat).cards is None
        assert event.for_seat(None).to_dict()["cards"] is None
    for event in shows:
        assert event.concealed
        hidden = event.for_seat(None)
        assert hidden.cards is None and all(item.cards == () for item in hidden.items)
        assert [i.kind for i in hidden.items] == [i.kind for i in event.items]
        assert hidden.points == event.points
    crib_game = Game("cribbage", seed=1)
    assert not any(e.concealed for e in crib_game.log if isinstance(e, Scored))


def test_card_text_round_trip() -> None:
    assert [str(Card.parse(t)) for t in ("TH", "10h", " 5s ", "ac", "KD")] == ["TH", "TH", "5S", "AC", "KD"]
    assert Card.parse("10C") is Card(10, "C")
    assert (Card.parse("QS").value, Card.parse("QS").rank, Card.parse("QS").suit) == (10, 12, "S")
    assert repr(Card.parse("7D")) == "Card.parse('7D')" and Card.parse("7D").symbol == "7♦"
    for bad in ("1H", "TX", "", "10", "JJ", "QSS"):
        with pytest.raises(ValueError, match="not a card"):
            Card.parse(bad)


def test_a_concealed_show_is_announced_in_full_without_its_cards(stack) -> None:
    # Ben's 9C TD TS with JH turned: "a pair two, a run of three four, a run of three six".
    stack("AC KC", "9C 2S TD 3S TS 4S JH")
    game = Game("noddy", seed=0)
    show = next(e for e in game.log if isinstance(e, Scored) and e.reason == "show" and e.seat == 1)
    heard = show.for_seat(0).to_dict()
    assert heard["announcement"] == "a pair two, a run of three four, a run of three six"
    assert heard["cards"] is None and all(item["cards"] == [] for item in heard["items"])
    assert "spoken" not in heard and show.to_dict()["cards"] == ["9C", "TD", "TS"]


def test_configuring_configured_rules_keeps_their_options() -> None:
    from noddy.engine import configure

    rules = configure("noddy", options={"target": 61, "knave_noddy": False})
    again = configure(rules, 4, partnerships=True)
    assert (again.target, again.turned_jack_points, again.options) == (
        61, 0, {"target": 61, "knave_noddy": False})
    changed = configure(rules, options={"knave_noddy": True})
    assert (changed.target, changed.turned_jack_points) == (61, 2)
    assert Game(rules, seed=1).rules.options == {"target": 61, "knave_noddy": False}


def test_a_concealed_holme_show_does_not_name_picture_cards(stack) -> None:
    stack("AC KC", "KS 2S QH 3S JH 4C 5H")
    game = Game("noddy-holme", seed=0)
    show = next(e for e in game.log if isinstance(e, Scored) and e.reason == "show" and e.seat == 1)
    assert show.announcement.endswith("the king of spades twenty-five, the queen of hearts "
                                      "twenty-nine, the jack of hearts thirty-four")
    heard = show.for_seat(0).announcement
    assert heard.endswith("a picture card twenty-five, a picture card twenty-nine, "
                          "a picture card thirty-four") and "spades" not in heard


def test_observation_remembers_own_discards_and_the_shows_so_far(stack) -> None:
    stack("AC KC", "2C 2D 3C 3D 4C 4D 5C 5D 6C 6D 7C 7D KS")
    game = Game("cribbage", seed=0)
    game.apply(Discard(0, ["2D", "3D"]))
    assert game.observation(0).laid_away == tuple(parse_cards("2D 3D"))
    assert game.observation(1).laid_away == () and game.observation(None).laid_away is None
    game.apply(Discard(1, ["2C", "3C"]))
    assert game.observation(1).laid_away == tuple(parse_cards("2C 3C"))
    assert game.observation(0).shows == ()  # Cribbage shows come after the play
    stack("AC KC", "9C 2S TD 3S TS 4S 5H")
    noddy = Game("noddy", seed=0)
    # Ben's 9C TD TS + 5H: two fifteens 4, twenty-five (T+T+5) 3, a pair 2 = 9.
    # Anna's 2S 3S 4S + 5H: a run of four 4, a flush of three 3 = 7 (the four make 14).
    assert noddy.observation(0).shows == ((1, 9), (0, 7))
