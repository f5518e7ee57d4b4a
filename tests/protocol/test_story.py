"""The shared story of a game (:mod:`noddy.protocol.story`): the fold and the narration.

The fold is checked against the engine itself: seeded games of every preset and every way
it is played (3 players, 4 in partnerships...) are sent, message by message, to a
:class:`TableView` for each seat, one for a spectator and one folding the unredacted record,
and after every batch of events (with its ``turn``) each view must equal the engine's
``observation(seat)``; a snapshot taken then must rebuild the same view.  The narration is
a table: one event dict -> the words it is told in, for every event kind.
"""

from __future__ import annotations

import doctest
import random
from typing import Any

import pytest

from noddy.engine import PRESETS, Game
from noddy.protocol import story
from noddy.protocol.story import Line, TableView, narrate, record_events, tell

NAMES = ["Ann", "Ben", "Cy", "Di"]


def _configs() -> list[tuple[str, int, bool]]:
    """Every preset with every number of players it takes, alone and in partnerships."""
    out = []
    for name, rules in PRESETS.items():
        out += [(name, n, False) for n in rules.solo_counts]
        out += [(name, n, True) for n in rules.partnership_counts]
    return out


def _turn(game: Game, seat: int | None, seq: int) -> dict[str, Any]:
    """The ``turn`` message the server sends ``seat`` (server/table.py turn_messages)."""
    legal = ([a.to_dict(with_seat=False) for a in game.legal_actions(seat)]
             if seat in game.awaiting else [])
    return {"type": "turn", "table": 1, "seq": seq, "to_move": game.to_move,
            "awaiting": list(game.awaiting), "count": game.count, "legal_actions": legal,
            "time_left": None}


def _texts(cards: Any) -> list[str]:
    return [str(c) for c in cards]


def _check(view: TableView, game: Game, seat: int | None) -> None:
    """``view`` says what the engine lets ``seat`` see, field for field."""
    obs = game.observation(seat)
    assert (view.preset, view.players, view.partnerships, view.target) == (
        obs.preset, obs.players, obs.partnerships, obs.target)
    assert (view.phase, view.deal, view.dealer) == (obs.phase, obs.deal, obs.dealer)
    assert view.hand == ([] if obs.hand is None else sorted(_texts(obs.hand), key=story.card_order))
    assert view.hand_sizes == list(obs.hand_sizes)
    assert view.crib_size == obs.crib_size
    assert view.turn_up == (None if obs.turn_up is None else str(obs.turn_up))
    assert [c for _, c in view.pile] == _texts(obs.pile)
    assert view.count == obs.count
    assert view.played == [(s, str(c)) for s, c in obs.played]
    assert view.passed == list(obs.passed)
    assert view.discarded == list(obs.discarded)
    assert view.scores == list(obs.scores)
    assert view.laid_away == (None if obs.laid_away is None else _texts(obs.laid_away))
    assert [(s.seat, s.points) for s in view.shows] == list(obs.shows)
    assert view.winner == obs.winner
    if not game.is_over:
        assert view.to_move == obs.to_move
        assert view.awaiting == list(game.awaiting)
        assert view.legal_actions == [a.to_dict(with_seat=False) for a in obs.legal_actions]
    else:
        assert (view.to_move, view.awaiting, view.legal_actions) == (None, [], [])


def _snapshot(game: Game, seat: int | None, seq: int,
              log: list[tuple[int, Any]]) -> dict[str, Any]:
    """The ``snapshot`` the server would send ``seat`` now (server/table.py snapshot)."""
    observed = game.observation(seat).to_dict()
    observed["legal_actions"] = [a.to_dict(with_seat=False) for a in game.observation(seat).legal_actions]
    message = {"type": "snapshot", "seat": seat, "seq": seq, "game": observed,
               "table": {"id": 1, "seats": [{"name": n} for n in NAMES[:game.players]]},
               "events": [{"seq": n, "event": e.for_seat(seat).to_dict()} for n, e in log]}
    if not game.is_over:
        message["turn"] = _turn(game, seat, seq)
    return message


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("preset,players,partnerships", _configs())
def test_the_fold_equals_the_engine_for_every_seat_a_spectator_and_the_record(
        preset: str, players: int, partnerships: bool, seed: int) -> None:
    """Whole seeded games, every message as each seat and a spectator receive it: every
    view equals the engine's observation after every batch (and its turn); a snapshot then
    rebuilds the same view; every event is told; the record folds to the same table."""
    rng = random.Random(f"{preset}/{players}/{partnerships}/{seed}")
    game = Game(preset, players, partnerships=partnerships, seed=rng.randrange(2 ** 32))
    names = NAMES[:players]
    viewers: list[int | None] = [*range(players), None]
    views = {v: TableView(seat=v, names=list(names), table_id=1) for v in viewers}
    record = TableView(seat=None, names=list(names))
    log: list[tuple[int, Any]] = []
    seq = 0
    pending = list(game.log)
    snapshot_at = rng.randrange(3, 12)
    batches = 0
    while True:
        for event in pending:
            seq += 1
            log.append((seq, event))
            for v, view in views.items():
                told = view.apply({"type": "event", "table": 1, "seq": seq,
                                   "event": event.for_seat(v).to_dict()})
                assert told and all(line.text() for line in told), event
            record.apply_event(event.to_dict())
        for v, view in views.items():
            if not game.is_over:
                assert view.apply(_turn(game, v, seq)) == []
            _check(view, game, v)
            assert not view.missed
        for s in range(players):    # the record sees every hand
            assert record.hands[s] == sorted(_texts(game.hands[s]), key=story.card_order)
        assert record.scores == views[None].scores and record.pile == views[None].pile
        if game.phase == "play":    # the hands kept for the show, and the crib, are known
            assert record.kept == [sorted(_texts(k), key=story.card_order) for k in game.kept]
            assert sorted(record.crib) == sorted(_texts(game.crib))
        batches += 1
        if batches == snapshot_at or game.is_over:
            for v, view in views.items():
                fresh = TableView(names=list(names))
                lines = fresh.apply(_snapshot(game, v, seq, log))
                assert fresh == view, v
                assert len(lines) >= len(log)
        if game.is_over:
            break
        seat = game.awaiting[0]
        pending = game.apply(rng.choice(game.legal_actions(seat)))
    assert all(view.winner == game.winner and view.phase == "over" for view in views.values())
    assert record.winning_seats == views[0].winning_seats
    assert batches > 5 and views[None].deal > 1     # whole deals were folded, not one


def test_a_gap_in_seq_is_noticed_and_old_news_ignored() -> None:
    view = TableView(seat=0, names=["Ann", "Ben"], table_id=1)
    started = {"kind": "game_started", "preset": "noddy", "players": 2, "partnerships": False,
               "target": 31}
    view.apply({"type": "event", "table": 1, "seq": 1, "event": started})
    view.apply({"type": "event", "table": 1, "seq": 2,
                "event": {"kind": "deal_started", "deal": 1, "dealer": 1}})
    assert view.apply({"type": "event", "table": 1, "seq": 2,
                       "event": {"kind": "deal_started", "deal": 9, "dealer": 0}}) == []
    assert view.deal == 1 and not view.missed
    assert view.apply({"type": "event", "table": 2, "seq": 3, "event": started}) == []
    view.apply({"type": "event", "table": 1, "seq": 5, "event": {"kind": "turned_up", "card": "5H"}})
    assert view.missed and view.turn_up == "5H"


def test_a_copy_is_independent() -> None:
    view = TableView(seat=0, names=["Ann", "Ben"])
    view.apply_event({"kind": "game_started", "preset": "noddy", "players": 2,
                      "partnerships": False, "target": 31})
    view.apply_event({"kind": "deal_started", "deal": 1, "dealer": 1})
    view.apply_event({"kind": "cards_dealt", "seat": 0, "count": 3, "cards": ["TC", "5H", "4D"]})
    frame = view.copy()
    view.apply_event({"kind": "played", "seat": 0, "card": "5H", "count": 5})
    assert frame.hand == ["4D", "5H", "TC"] and frame.pile == [] and frame.count == 0
    assert view.hand == ["4D", "TC"] and view.pile == [(0, "5H")]


def test_the_record_is_read_in_order() -> None:
    record = {"opening": [{"kind": "a"}], "steps": [
        {"action": {"action": "go", "seat": 1}, "events": [{"kind": "b"}, {"kind": "c"}]}]}
    assert [(step, (action or {}).get("action"), e["kind"]) for step, action, e in
            record_events(record)] == [(None, None, "a"), (0, "go", "b"), (0, "go", "c")]
    view = TableView.for_record({"seats": [{"seat": 1, "name": "Ben"}, {"seat": 0, "name": "Ann"}],
                                 "players": 2, "partnerships": False, "table": 4})
    assert view.names == ["Ann", "Ben"] and view.seat is None and view.table_id == 4


# == the narration ===========================================================================

def scored(seat: int, reason: str, points: int, announcement: str, cards: Any = None,
           scores: Any = (0, 0)) -> dict[str, Any]:
    return {"kind": "scored", "seat": seat, "points": points, "reason": reason, "items": [],
            "scores": list(scores), "cards": cards, "concealed": False,
            "announcement": announcement}


#: (event, the reader's seat, what they are told) -- every event kind, with names ["Ann", "Ben"].
TOLD: list[tuple[dict[str, Any], int | None, str]] = [
    ({"kind": "game_started", "preset": "noddy", "players": 2, "partnerships": False, "target": 31},
     None, "A game of noddy, 2 players, first to 31."),
    ({"kind": "game_started", "preset": "cribbage", "players": 4, "partnerships": True,
      "target": 121}, None, "A game of cribbage, 4 players in partnerships, first to 121."),
    ({"kind": "cut_for_deal", "dealer": 1, "cuts": [{"seat": 0, "card": "9C"},
                                                    {"seat": 1, "card": "2D"}]},
     0, "Cut for deal: Ann 9C, Ben 2D — Ben deals."),
    ({"kind": "cut_for_deal", "dealer": None, "cuts": [{"seat": 0, "card": "9C"},
                                                       {"seat": 1, "card": "9D"}]},
     0, "Cut for deal: Ann 9C, Ben 9D — a tie, cut again."),
    ({"kind": "deal_started", "deal": 2, "dealer": 0}, 1, "— Deal 2: Ann deals —"),
    ({"kind": "cards_dealt", "seat": 0, "count": 3, "cards": ["TC", "JH", "4H"]},
     0, "You hold 4H TC JH."),
    ({"kind": "cards_dealt", "seat": 1, "count": 3, "cards": None}, 0, "Ben is dealt 3 cards."),
    ({"kind": "cards_dealt", "seat": 2, "count": 1, "cards": None}, 0, "Seat 3 is dealt 1 card."),
    ({"kind": "cards_dealt", "seat": 1, "count": 3, "cards": ["6S", "3C", "6D"]},
     None, "Ben is dealt 3C 6D 6S."),
    ({"kind": "discarded", "seat": 0, "count": 2, "cards": ["KS", "2S"]},
     0, "You lay away 2S KS to the crib."),
    ({"kind": "discarded", "seat": 1, "count": 2, "cards": None}, 0, "Ben lays away 2 cards."),
    ({"kind": "discarded", "seat": 1, "count": 2, "cards": ["5H", "5C"]},
     None, "Ben lays away 5C 5H to the crib."),
    ({"kind": "discarded", "seat": None, "count": 1, "cards": None}, 0,
     "The pack gives the crib a card."),
    ({"kind": "discarded", "seat": None, "count": 1, "cards": ["AD"]}, None,
     "The pack gives the crib AD."),
    ({"kind": "turned_up", "card": "5H"}, 0, "Turn-up: 5H."),
    (scored(0, "show", 4, "fifteen two, a pair four", ["TC", "5D", "5C"]), 0,
     "Ann shows 5C 5D TC: fifteen two, a pair four"),
    (scored(1, "show", 4, "fifteen two, a pair four"), 0, "Ben shows: fifteen two, a pair four"),
    (scored(1, "show", 0, ""), 0, "Ben shows: nothing"),
    (scored(1, "crib", 2, "fifteen two", ["AC", "4D", "TH", "QS"]), 1,
     "Your crib AC 4D TH QS: fifteen two"),
    (scored(1, "crib", 2, "fifteen two", ["AC", "4D", "TH", "QS"]), 0,
     "Ben's crib AC 4D TH QS: fifteen two"),
    (scored(0, "turn-up", 2, "his heels two"), 1, "Ann: his heels two (the turn-up)"),
    (scored(1, "first deal", 3, "first deal three"), 0, "Ben pegs 3 for the first deal."),
    (scored(1, "play", 2, "a pair two"), 0, "Ben: a pair two"),
    ({"kind": "played", "seat": 0, "card": "4H", "count": 4}, 0, "Ann plays 4H — four"),
    ({"kind": "played", "seat": 1, "card": "6S", "count": 31}, 0, "Ben plays 6S — thirty-one"),
    ({"kind": "go", "seat": 0}, 0, "Ann says go."),
    ({"kind": "count_reset"}, 0, "The count starts again from nought."),
    ({"kind": "hands_revealed", "hands": [["TC", "JH", "4H"], ["6S", "6D", "3C"]], "crib": None},
     None, "Ann's hand 4H TC JH\nBen's hand 3C 6D 6S"),
    ({"kind": "hands_revealed", "hands": [["TC", "JH"], ["6S", "6D"]], "crib": ["AC", "2D"]},
     None, "Ann's hand TC JH\nBen's hand 6D 6S\nThe crib AC 2D"),
    ({"kind": "hands_revealed", "hands": [["TC"], ["6S"], ["2H"]], "crib": None},
     None, "Ann's hand TC\nBen's hand 6S\nSeat 3's hand 2H"),
    ({"kind": "deal_ended", "deal": 1, "scores": [11, 7]}, 0, "After deal 1: Ann 11, Ben 7."),
    # counting by hand (RULES.md's worked example: Ann's hand holds 16)
    ({"kind": "counting", "seat": 0, "reason": "show", "cards": ["5H", "5S", "JD", "4C"], "turn_up": "6C"},
     1, "Ann's hand 4C 5H 5S JD + 6C is to be counted."),
    ({"kind": "counting", "seat": 1, "reason": "crib", "cards": ["KH", "QH", "9D", "TD"], "turn_up": "6C"},
     1, "Your crib 9D TD QH KH + 6C is to be counted."),
    ({"kind": "claimed", "seat": 0, "reason": "show", "cards": ["5H", "5S", "JD", "4C"], "points": 12},
     1, "Ann claims 12 for the hand."),
    ({"kind": "claimed", "seat": 0, "reason": "show", "cards": ["5H", "5S", "JD", "4C"], "points": 12},
     0, "Ann claims 12 for the hand."),
    # a claim above the worth: refused once, then counted as 0 (told to the claimer alone;
    # a record's replay tells everyone)
    ({"kind": "claim_refused", "seat": 0, "reason": "show", "points": 8, "counts_as_zero": False},
     0, "That hand does not hold 8. Claim again: a second claim above the hand's worth counts as 0."),
    ({"kind": "claim_refused", "seat": 0, "reason": "show", "points": 7, "counts_as_zero": True},
     0, "That hand does not hold 7 either: your claim counts as 0."),
    ({"kind": "claim_refused", "seat": 1, "reason": "crib", "points": 9, "counts_as_zero": False},
     1, "That crib does not hold 9. Claim again: a second claim above the crib's worth counts as 0."),
    ({"kind": "claim_refused", "seat": 0, "reason": "show", "points": 18, "counts_as_zero": False},
     None, "Ann claims 18, more than the hand holds: refused once."),
    ({"kind": "claim_refused", "seat": 0, "reason": "show", "points": 17, "counts_as_zero": True},
     None, "Ann claims 17, more than the hand holds again: it counts as 0."),
    ({"kind": "muggins", "seat": 1, "owner": 0, "points": 16, "right": True}, 0,
     "Ben: muggins, 16 — right!"),
    ({"kind": "muggins", "seat": 1, "owner": 0, "points": 14, "right": False}, 0,
     "Ben: muggins, 14 — wrong: nothing pegged."),
    ({"kind": "passed", "seat": 1, "owner": 0}, 0, "Ben passes."),
    ({"kind": "counted", "seat": 0, "reason": "show", "cards": ["5H", "5S", "JD", "4C"], "claimed": 12,
      "worth": 16, "items": [], "mugged_by": 1, "lost": 0, "announcement": "fifteen two, … sixteen"},
     1, "Ann's hand held 16 (fifteen two, … sixteen); 12 claimed, 4 mugged by Ben."),
    ({"kind": "counted", "seat": 0, "reason": "show", "cards": ["5H", "5S", "JD", "4C"], "claimed": 12,
      "worth": 16, "items": [], "mugged_by": None, "lost": 4, "announcement": "fifteen two, … sixteen"},
     None, "Ann's hand held 16 (fifteen two, … sixteen); 12 claimed, 4 lost."),
    ({"kind": "game_over", "winner": 0, "winning_seats": [0], "scores": [31, 4]}, 1,
     "Ann wins the game, 31 to 4!"),
    ({"kind": "game_over", "winner": 0, "winning_seats": [0], "scores": [121, 85], "skunk": "skunk"},
     1, "Ann wins the game, 121 to 85, a skunk!"),
    ({"kind": "game_over", "winner": 1, "winning_seats": [1], "scores": [60, 121], "skunk": "double"},
     None, "Ben wins the game, 121 to 60, a double skunk!"),
    ({"kind": "game_over", "winner": 1, "winning_seats": [1], "scores": [100, 121], "skunk": "none"},
     0, "Ben wins the game, 121 to 100!"),
]


@pytest.mark.parametrize("event,seat,words", TOLD, ids=[f"{e['kind']}-{i}" for i, (e, _, _) in enumerate(TOLD)])
def test_every_event_kind_is_told_in_words(event: dict[str, Any], seat: int | None, words: str) -> None:
    assert narrate(event, ["Ann", "Ben"], seat) == words


def test_every_event_kind_the_engine_has_is_in_the_table() -> None:
    from noddy.engine import EVENT_TYPES
    assert set(story.TELLERS) == set(EVENT_TYPES)
    assert {event["kind"] for event, _, _ in TOLD} == set(EVENT_TYPES)


def test_partnerships_are_told_as_sides() -> None:
    names = ["Ann", "Ben", "Cy", "Di"]
    assert narrate({"kind": "deal_ended", "deal": 3, "scores": [40, 52]}, names) == \
        "After deal 3: Ann & Cy 40, Ben & Di 52."
    assert narrate({"kind": "game_over", "winner": 1, "winning_seats": [1, 3],
                    "scores": [40, 61]}, names) == "Ben & Di win the game, 61 to 40!"
    assert narrate({"kind": "game_over", "winner": 1, "winning_seats": [1, 3], "scores": [30, 61],
                    "skunk": "skunk"}, names) == "Ben & Di win the game, 61 to 30, a skunk!"


def test_a_card_formatter_writes_the_cards_and_parts_keep_them_apart() -> None:
    event = {"kind": "played", "seat": 0, "card": "TH", "count": 10}
    assert narrate(event, ["Ann"], card=lambda c: c.replace("T", "10").replace("H", "♥")) == \
        "Ann plays 10♥ — ten"
    assert tell(event, ["Ann"]) == [Line("event", ("Ann plays ", ("TH",), " — ten"))]


def test_an_unknown_event_kind_is_told_by_nobody() -> None:
    assert narrate({"kind": "juggled", "seat": 0}, ["Ann"]) is None
    view = TableView(seat=0)
    assert view.apply({"type": "event", "event": {"kind": "juggled"}}) == []


def test_a_view_tells_whose_crib_the_turn_up_and_the_show_points() -> None:
    """What a fold knows and a lone event does not: whose crib, the turn-up, each show."""
    view = TableView(seat=0, names=["Ann", "Ben"])
    for event in [
        {"kind": "game_started", "preset": "cribbage", "players": 2, "partnerships": False,
         "target": 121},
        {"kind": "deal_started", "deal": 1, "dealer": 1},
    ]:
        view.apply_event(event)
    assert [l.text() for l in view.apply_event(
        {"kind": "discarded", "seat": 0, "count": 2, "cards": ["KS", "2S"]})] == [
        "You lay away 2S KS to Ben's crib."]
    view.apply_event({"kind": "turned_up", "card": "5H"})
    view.apply_event(scored(0, "show", 4, "fifteen two, a pair four", ["TC", "5D", "5C", "AS"], [4, 0]))
    view.apply_event(scored(1, "show", 2, "fifteen two", None, [4, 2]))
    view.apply_event(scored(1, "crib", 0, "nothing", ["KS", "2S", "3D", "7C"], [4, 2]))
    told = [l.text() for l in view.apply_event(
        {"kind": "hands_revealed", "hands": [["TC", "5D", "5C", "AS"], ["2C", "3C", "4C", "QD"]],
         "crib": ["2S", "3D", "7C", "KS"]})]
    assert told == ["Ann's hand AS 5C 5D TC + 5H: 4", "Ben's hand 2C 3C 4C QD + 5H: 2",
                    "Ben's crib 2S 3D 7C KS + 5H: 0"]
    view.apply_event({"kind": "deal_ended", "deal": 1, "scores": [4, 2]})
    told = [l.text() for l in view.apply_event(
        {"kind": "game_over", "winner": 0, "winning_seats": [0], "scores": [121, 2]})]
    assert told == ["Ann wins the game, 121 to 2!", "Summary after 1 deal:",
                    "  Ann: 121 (show 4; best hand 4)", "  Ben: 2 (show 2; best hand 2)"]


def test_the_module_examples_run() -> None:
    result = doctest.testmod(story, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
