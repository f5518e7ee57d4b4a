"""The game's own words (:mod:`noddy.protocol.calls`): a score called in each language.

In English the protocol's call must be the engine's, byte for byte: seeded games of every
preset and way of playing (counting by hand, the hitter that counts thirty-one, four-card
Noddy, Holme's picture cards) are played out with random legal moves, and every
announcement any seat or a spectator is sent is said again from its items.  In German and
Spanish the calls of hands from the issue and the seeds are pinned exactly.
"""

from __future__ import annotations

import random
from typing import Any, Iterator

import pytest

from noddy.engine import PRESETS, Game, parse_cards, score_show
from noddy.engine.score_items import number_words as engine_number_words
from noddy.protocol.calls import (announce, card_name, english_number, german_number,
                                  said_event, spanish_number)
from noddy.protocol.i18n import speaking

#: Games played per way of playing (enough that every kind of score turns up: the test
#: below checks that it did).
SEEDS = range(4)


def _options(rules: Any) -> list[dict[str, Any]]:
    """The tables worth calling scores at under ``rules``: as it comes, counted by hand
    where it may be, and with each extra option switched on."""
    out: list[dict[str, Any]] = [{}]
    if rules.manual_counting_allowed:
        out.append({"counting": "manual"})
    if "hitter_counts_thirty_one" in rules.extra_options:
        out.append({"hitter_counts_thirty_one": True})
    if "four_card" in rules.extra_options:
        out.append({"four_card": True})
    return out


def _games() -> Iterator[Game]:
    for name, rules in PRESETS.items():
        ways = [(n, False) for n in rules.solo_counts] + [(n, True) for n in rules.partnership_counts]
        for players, partners in ways:
            for options in _options(rules):
                for seed in SEEDS:
                    yield Game(name, players, partnerships=partners, options=options, seed=seed)


def _play_out(game: Game, rng: random.Random) -> None:
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions(game.awaiting[-1])))


def _announced(game: Game) -> Iterator[dict[str, Any]]:
    """Every event with an announcement, as each seat and a spectator are sent it."""
    for event in game.log:
        for seat in [*range(game.players), None]:
            seen = event.for_seat(seat)
            if seen is not None:
                data = seen.to_dict()
                if "announcement" in data:
                    yield data


def test_english_calls_equal_the_engines_in_every_preset() -> None:
    kinds: set[str] = set()
    checked = 0
    for number, game in enumerate(_games()):
        _play_out(game, random.Random(number))
        for event in _announced(game):
            concealed = event.get("concealed", False) and event.get("cards") is None
            assert announce(event["items"], 0, concealed) == event["announcement"], event
            message = {"type": "event", "table": 1, "seq": 1, "event": event}
            assert said_event(message, "en") is message
            kinds.update(item["kind"] for item in event["items"])
            checked += 1
    assert checked > 1000
    # Every name the presets give a score was called (and so checked) at least once.
    assert kinds >= {"fifteen", "pair", "pair royal", "run", "flush", "twenty-five", "thirty-one",
                     "hitter", "go", "last card", "knave noddy", "his heels", "his nob",
                     "picture card", "claim", "muggins", "first deal"}, kinds


def test_english_numbers_are_the_engines() -> None:
    assert [english_number(n) for n in range(-5, 1000)] == [engine_number_words(n)
                                                             for n in range(-5, 1000)]


def _items(hand: str, turn_up: str, preset: str) -> list[dict[str, Any]]:
    return [item.to_dict() for item in score_show(parse_cards(hand), turn_up, preset).items]


def _said(items: list[dict[str, Any]], language: str, start: int = 0, concealed: bool = False) -> str:
    with speaking(language):
        return announce(items, start, concealed)


#: Hands from the issue and the seeds, and how a German and a Spanish player call them.
CALLS = [
    # The issue's own example.
    ("5H 5S TD", "AC", "cribbage",
     "fünfzehn zwei, fünfzehn vier, ein Paar sechs",
     "quince dos, quince cuatro, una pareja seis"),
    # The 29 hand: four fives and the Jack of the turn-up's suit.
    ("5C 5H 5S JD", "5D", "cribbage",
     "fünfzehn zwei, fünfzehn vier, fünfzehn sechs, fünfzehn acht, fünfzehn zehn, fünfzehn zwölf, "
     "fünfzehn vierzehn, fünfzehn sechzehn, ein Double Pair Royal achtundzwanzig, "
     "His Nobs neunundzwanzig",
     "quince dos, quince cuatro, quince seis, quince ocho, quince diez, quince doce, quince catorce, "
     "quince dieciséis, una doble pareja real veintiocho, su jota veintinueve"),
    # A run of four with a flush of four (the turn-up of another suit).
    ("6H 7H 8H 9H", "KS", "cribbage",
     "fünfzehn zwei, fünfzehn vier, eine Sequenz von vier acht, ein Flush zwölf",
     "quince dos, quince cuatro, una escalera de cuatro ocho, un color doce"),
    # A pair royal.
    ("7C 7D 7H AS", "2D", "cribbage",
     "fünfzehn zwei, fünfzehn vier, fünfzehn sechs, ein Pair Royal zwölf",
     "quince dos, quince cuatro, quince seis, una pareja real doce"),
    # A Noddy hand of three with the turn-up: two runs of three (2 each on Noddy's scale).
    ("4S 4C 5D", "6C", "noddy",
     "fünfzehn zwei, fünfzehn vier, ein Paar sechs, eine Sequenz von drei acht, "
     "eine Sequenz von drei zehn",
     "quince dos, quince cuatro, una pareja seis, una escalera de tres ocho, una escalera de tres diez"),
    # Noddy's Jack of the turn-up's suit held in the hand is knave noddy (002: sota boba).
    ("JC 5H 4H", "TC", "noddy",
     "fünfzehn zwei, fünfzehn vier, fünfundzwanzig sieben, Knave Noddy acht",
     "quince dos, quince cuatro, veinticinco siete, sota boba ocho"),
    # Holme's picture cards are named with their article.
    ("KS QH 2C", "3D", "noddy-holme",
     "fünfzehn zwei, fünfzehn vier, fünfundzwanzig sechs, der Pik-König zwölf, die Herz-Dame sechzehn",
     "quince dos, quince cuatro, veinticinco seis, el rey de picas doce, la reina de corazones dieciséis"),
]


@pytest.mark.parametrize("hand,turn_up,preset,german,spanish", CALLS, ids=[c[0] for c in CALLS])
def test_hands_are_called_in_german_and_spanish(hand: str, turn_up: str, preset: str, german: str,
                                                 spanish: str) -> None:
    items = _items(hand, turn_up, preset)
    assert _said(items, "en") == score_show(parse_cards(hand), turn_up, preset).announce()
    assert (_said(items, "de"), _said(items, "es")) == (german, spanish)


def test_the_calls_of_the_deal_the_play_and_counting_by_hand() -> None:
    item = {"kind": "his heels", "points": 2, "cards": ["JD"]}
    assert [_said([item], lang) for lang in ("en", "de", "es")] == [
        "his heels two", "His Heels zwei", "sota boba dos"]
    item = {"kind": "knave noddy", "points": 2, "cards": ["JD"]}
    assert _said([item], "es") == "sota boba dos"
    play = [{"kind": "thirty-one", "points": 2, "cards": []}, {"kind": "hitter", "points": 2, "cards": []}]
    assert _said(play, "de", 19) == "einunddreißig einundzwanzig, Hitter dreiundzwanzig"
    assert _said(play, "es", 19) == "treinta y uno veintiuno, hitter veintitrés"
    go = [{"kind": "go", "points": 1, "cards": []}, {"kind": "last card", "points": 1, "cards": []}]
    assert _said(go, "de") == "Go eins, letzte Karte zwei"
    assert _said(go, "es") == "paso uno, última carta dos"
    claim = [{"kind": "claim", "points": 12, "cards": []}]
    assert (_said(claim, "de"), _said(claim, "es")) == ("Ansage zwölf", "canto doce")
    muggins = [{"kind": "muggins", "points": 4, "cards": []}]
    assert (_said(muggins, "de"), _said(muggins, "es")) == ("Muggins vier", "muggins cuatro")
    first = [{"kind": "first deal", "points": 3, "cards": []}]
    assert (_said(first, "de"), _said(first, "es")) == ("erste Runde drei", "primera mano tres")
    assert (_said([], "de"), _said([], "es")) == ("nichts", "nada")


def test_a_concealed_show_is_called_by_its_combinations() -> None:
    """The other seats get a concealed Noddy show's items without cards: the run's length
    comes from its points, a picture card is not named."""
    bare = [{"kind": "run", "points": 2, "cards": []}, {"kind": "run", "points": 4, "cards": []},
            {"kind": "picture card", "points": 6, "cards": []}]
    assert _said(bare, "en", concealed=True) == "a run of three two, a run of four six, a picture card twelve"
    assert _said(bare, "de", concealed=True) == ("eine Sequenz von drei zwei, eine Sequenz von vier sechs, "
                                                 "eine Bildkarte zwölf")
    assert _said(bare, "es", concealed=True) == ("una escalera de tres dos, una escalera de cuatro seis, "
                                                 "una figura doce")


@pytest.mark.parametrize("n,german,spanish", [
    (0, "null", "cero"), (1, "eins", "uno"), (16, "sechzehn", "dieciséis"), (17, "siebzehn", "diecisiete"),
    (21, "einundzwanzig", "veintiuno"), (22, "zweiundzwanzig", "veintidós"), (26, "sechsundzwanzig", "veintiséis"),
    (31, "einunddreißig", "treinta y uno"), (61, "einundsechzig", "sesenta y uno"),
    (77, "siebenundsiebzig", "setenta y siete"), (100, "hundert", "cien"),
    (101, "hunderteins", "ciento uno"), (121, "hunderteinundzwanzig", "ciento veintiuno"),
    (500, "fünfhundert", "quinientos"), (516, "fünfhundertsechzehn", "quinientos dieciséis"),
    (777, "siebenhundertsiebenundsiebzig", "setecientos setenta y siete"),
    (999, "neunhundertneunundneunzig", "novecientos noventa y nueve"),
    (1000, "tausend", "mil"), (2031, "zweitausendeinunddreißig", "dos mil treinta y uno"),
    (-3, "minus drei", "menos tres"),
])
def test_numbers_in_words(n: int, german: str, spanish: str) -> None:
    assert (german_number(n), spanish_number(n)) == (german, spanish)


def test_card_names_carry_their_article() -> None:
    with speaking("de"):
        assert [card_name(c) for c in ("JH", "QS", "KC", "AD", "TH", "10S")] == [
            "der Herz-Bube", "die Pik-Dame", "der Kreuz-König", "das Karo-Ass", "die Herz-Zehn",
            "die Pik-Zehn"]
    with speaking("es"):
        assert [card_name(c) for c in ("JH", "QS", "KC", "AD", "7D")] == [
            "la jota de corazones", "la reina de picas", "el rey de tréboles", "el as de diamantes",
            "el siete de diamantes"]
    assert card_name("KS") == "the king of spades" and card_name("ZZ") == "ZZ"


def test_said_event_says_each_message_again_and_leaves_the_original() -> None:
    game = Game("cribbage", 2, seed=11)
    _play_out(game, random.Random(11))
    events = [e.to_dict() for e in game.log]
    scored = next(e for e in events if e["kind"] == "scored" and len(e["items"]) > 1)
    message = {"type": "event", "table": 3, "seq": 9, "event": scored}
    german = said_event(message, "de")
    assert german["event"]["announcement"] == _said(scored["items"], "de")
    assert german["event"]["announcement"] != scored["announcement"]
    assert {**german["event"], "announcement": scored["announcement"]} == scored
    assert message["event"] is scored and scored["announcement"] == announce(scored["items"])
    snapshot = {"type": "snapshot", "events": [{"seq": n, "event": e} for n, e in enumerate(events)]}
    spanish = said_event(snapshot, "es")
    assert [entry["event"].get("announcement") for entry in spanish["events"]] == [
        _said(e["items"], "es") if "announcement" in e else None for e in events]
    record = {"type": "game_record", "id": 1, "record": {"opening": events[:3],
                                                        "steps": [{"action": {}, "events": events[3:]}]}}
    said = said_event(record, "de")["record"]
    assert [e.get("announcement") for e in said["opening"] + said["steps"][0]["events"]] == [
        _said(e["items"], "de") if "announcement" in e else None for e in events]
    chat = {"type": "chat", "from": "ann", "text": "hi"}
    assert said_event(chat, "de") is chat and said_event(snapshot, "en") is snapshot
