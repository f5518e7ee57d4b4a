"""Full first deals from fixed seeds, every event written out and checked by hand against
RULES.md (dealing order, the crib, the turn-up, show order, each play score, go, count
resets, the reveal).  Every seat always takes its first legal action, so the deals are
reproducible from the seed alone."""

from __future__ import annotations

import textwrap

import pytest

from noddy.engine import DealEnded, Game, GameOver

from .eventlog import render

FIRST_DEALS = [
    pytest.param(
        "noddy", 2, False, 3,
        """
        game noddy players=2 target=31
        cut 0:3D 1:QH -> dealer 0
        deal 1 dealer 0
        dealt 1: 9H JD 5H
        dealt 0: 9C KH 2S
        turn-up QH
        show 1 [9H JD 5H] +10 (fifteen 2, fifteen 2, twenty-five 3, flush 3) -> 0-10
        show 0 [9C KH 2S] +4 (thirty-one 4) -> 4-10
        play 1 9H = 9
        play 0 9C = 18
        play 0 +2 (pair 2) -> 6-10
        play 1 JD = 28
        play 0 2S = 30
        go 1
        go 0
        play 0 +1 (last card 1) -> 7-10
        reveal 9C KH 2S | 9H JD 5H
        end of deal 1: 7-10
        deal 2 dealer 1
        dealt 0: 5C AC 4D
        dealt 1: KH 5H TH
        turn-up 2D
        show 0 [5C AC 4D] +0 () -> 7-10
        show 1 [KH 5H TH] +10 (fifteen 2, fifteen 2, twenty-five 3, flush 3) -> 7-20
        """,
        id="noddy-2",
    ),
    pytest.param(
        "noddy", 4, True, 11,
        """
        game noddy players=4 target=31
        cut 0:3H 1:TH 2:JS 3:4H -> dealer 0
        deal 1 dealer 0
        dealt 1: 3H QC AS
        dealt 2: 7H QS 9S
        dealt 3: QH 5H 7C
        dealt 0: KC 2S KS
        turn-up 7D
        show 1 [3H QC AS] +0 () -> 0-0
        show 2 [7H QS 9S] +2 (pair 2) -> 2-0
        show 3 [QH 5H 7C] +4 (fifteen 2, pair 2) -> 2-4
        show 0 [KC 2S KS] +2 (pair 2) -> 4-4
        play 1 3H = 3
        play 2 7H = 10
        play 3 QH = 20
        play 3 +3 (flush 3) -> 4-7
        play 0 KC = 30
        play 1 AS = 31
        play 1 +2 (hitter 2) -> 4-9
        reveal KC 2S KS | 3H QC AS | 7H QS 9S | QH 5H 7C
        end of deal 1: 4-9
        deal 2 dealer 1
        dealt 2: TC 2S 3H
        dealt 3: 6C 3C 3S
        dealt 0: 9H KH AS
        dealt 1: 6S KD JC
        turn-up 4S
        show 2 [TC 2S 3H] +4 (fifteen 2, run 2) -> 8-9
        show 3 [6C 3C 3S] +2 (pair 2) -> 8-11
        show 0 [9H KH AS] +2 (fifteen 2) -> 10-11
        show 1 [6S KD JC] +0 () -> 10-11
        """,
        id="noddy-4p",
    ),
    pytest.param(
        "noddy-ducoeur", 2, False, 9,
        """
        game noddy-ducoeur players=2 target=31
        cut 0:4H 1:AS -> dealer 1
        deal 1 dealer 1
        dealt 0: JD 9C 5S
        dealt 1: 5D QC AC
        turn-up 9D
        show 0 [JD 9C 5S] +5 (fifteen 2, pair 2, knave noddy 1) -> 5-0
        show 1 [5D QC AC] +6 (fifteen 2, fifteen 2, twenty-five 2) -> 5-6
        play 0 JD = 10
        play 1 5D = 15
        play 1 +2 (fifteen 2) -> 5-8
        play 0 9C = 24
        play 1 AC = 25
        play 1 +2 (twenty-five 2) -> 5-10
        play 0 5S = 30
        go 1
        play 0 +1 (last card 1) -> 6-10
        reveal JD 9C 5S | 5D QC AC
        end of deal 1: 6-10
        deal 2 dealer 0
        dealt 1: 7H KH 9D
        dealt 0: 4H 6C TH
        turn-up AS
        show 1 [7H KH 9D] +0 () -> 6-10
        show 0 [4H 6C TH] +2 (fifteen 2) -> 8-10
        """,
        id="noddy-ducoeur-2",
    ),
    pytest.param(
        "noddy-modern", 3, False, 4,
        """
        game noddy-modern players=3 target=31
        cut 0:3D 1:7D 2:7C -> dealer 0
        deal 1 dealer 0
        dealt 1: 8S TC 2C
        dealt 2: KD 6C QS
        dealt 0: 5H 5C TH
        turn-up 6D
        play 1 8S = 8
        play 2 KD = 18
        play 0 5H = 23
        play 1 2C = 25
        play 2 6C = 31
        play 2 +2 (thirty-one 2) -> 0-0-2
        reset
        play 0 5C = 5
        play 1 TC = 15
        play 1 +2 (fifteen 2) -> 0-2-2
        play 2 QS = 25
        go 0
        play 2 +1 (go 1) -> 0-2-3
        reset
        play 0 TH = 10
        play 0 +1 (go 1) -> 1-2-3
        show 1 [8S TC 2C] +0 () -> 1-2-3
        show 2 [KD 6C QS] +2 (pair 2) -> 1-2-5
        show 0 [5H 5C TH] +6 (fifteen 2, fifteen 2, pair 2) -> 7-2-5
        reveal 5H 5C TH | 8S TC 2C | KD 6C QS
        end of deal 1: 7-2-5
        deal 2 dealer 1
        dealt 2: KS 2D JD
        dealt 0: TS 8H 5D
        dealt 1: 4C 9H QC
        turn-up 7C
        """,
        id="noddy-modern-3",
    ),
    pytest.param(
        "five-card-cribbage", 2, False, 8,
        """
        game five-card-cribbage players=2 target=61
        cut 0:2D 1:JD -> dealer 0
        deal 1 dealer 0
        first deal 1 +3 (first deal 3) -> 0-3
        dealt 1: QD KC 3C QS 7H
        dealt 0: 9C 7S 6C 3D AD
        crib 1: 3C 7H
        crib 0: AD 3D
        turn-up KD
        play 1 QD = 10
        play 0 9C = 19
        play 1 KC = 29
        go 0
        go 1
        play 1 +1 (go 1) -> 0-4
        show 1 [QD KC QS] +4 (pair 2, pair 2) -> 0-8
        show 0 [9C 7S 6C] +2 (fifteen 2) -> 2-8
        crib 0 [AD 3C 3D 7H] +2 (pair 2) -> 4-8
        reveal 9C 7S 6C | QD KC QS crib AD 3C 3D 7H
        end of deal 1: 4-8
        deal 2 dealer 1
        dealt 0: 3S 4H JS TS KC
        dealt 1: 2C 6H QD JH KD
        """,
        id="five-card-cribbage-2",
    ),
    pytest.param(
        "cribbage", 2, False, 2,
        """
        game cribbage players=2 target=121
        cut 0:4C 1:6C -> dealer 0
        deal 1 dealer 0
        dealt 1: 6C JC 4S 4D AD 3C
        dealt 0: JD 9S 7D KH 6S QH
        crib 1: AD 3C
        crib 0: 6S 7D
        turn-up JS
        turn-up 0 +2 (his heels 2) -> 2-0
        play 1 6C = 6
        play 0 JD = 16
        play 1 JC = 26
        play 1 +2 (pair 2) -> 2-2
        go 0
        play 1 4S = 30
        go 1
        play 1 +1 (go 1) -> 2-3
        reset
        play 0 9S = 9
        play 1 4D = 13
        play 0 KH = 23
        go 0
        play 0 +1 (go 1) -> 3-3
        reset
        play 0 QH = 10
        play 0 +1 (go 1) -> 4-3
        show 1 [6C JC 4S 4D] +4 (pair 2, pair 2) -> 4-7
        show 0 [JD 9S KH QH] +8 (pair 2, run 3, run 3) -> 12-7
        crib 0 [AD 3C 6S 7D] +0 () -> 12-7
        reveal JD 9S KH QH | 6C JC 4S 4D crib AD 3C 6S 7D
        end of deal 1: 12-7
        deal 2 dealer 1
        dealt 0: 2H KD 7H 9H 9S 3C
        dealt 1: 2S 8S JD 3H 5D 2C
        """,
        id="cribbage-2",
    ),
    pytest.param(
        "cribbage", 3, False, 5,
        """
        game cribbage players=3 target=121
        cut 0:AS 1:4D 2:9S -> dealer 0
        deal 1 dealer 0
        dealt 1: TD 9S 2C TS 8C
        dealt 2: QS 3S 4H 4C JD
        dealt 0: 6S 8H 3D JC 5H
        crib pack: 5S
        crib 1: 2C
        crib 2: 3S
        crib 0: 3D
        turn-up QD
        play 1 TD = 10
        play 2 QS = 20
        play 0 6S = 26
        go 1
        play 2 4H = 30
        go 0
        go 2
        play 2 +1 (go 1) -> 0-0-1
        reset
        play 0 8H = 8
        play 1 9S = 17
        play 2 4C = 21
        play 0 JC = 31
        play 0 +2 (thirty-one 2) -> 2-0-1
        reset
        play 1 TS = 10
        play 2 JD = 20
        play 0 5H = 25
        go 1
        play 0 +1 (go 1) -> 3-0-1
        reset
        play 1 8C = 8
        play 1 +1 (go 1) -> 3-1-1
        show 1 [TD 9S TS 8C] +8 (pair 2, run 3, run 3) -> 3-9-1
        show 2 [QS 4H 4C JD] +5 (pair 2, pair 2, his nob 1) -> 3-9-6
        show 0 [6S 8H JC 5H] +4 (fifteen 2, fifteen 2) -> 7-9-6
        crib 0 [2C 3D 3S 5S] +8 (fifteen 2, fifteen 2, fifteen 2, pair 2) -> 15-9-6
        reveal 6S 8H JC 5H | TD 9S TS 8C | QS 4H 4C JD crib 2C 3D 3S 5S
        end of deal 1: 15-9-6
        deal 2 dealer 1
        dealt 2: 9H 3D AD QC 5C
        dealt 0: 7C AC AH QD 9C
        dealt 1: JH 8S 5D JC 3H
        crib pack: KH
        """,
        id="cribbage-3",
    ),
    pytest.param(
        "cribbage", 4, True, 6,
        """
        game cribbage players=4 target=121
        cut 0:QS 1:JH 2:6C 3:6H -> dealer None
        cut 2:TS 3:4D -> dealer 3
        deal 1 dealer 3
        dealt 0: 3C QH 2C AH 2S
        dealt 1: AC 5H 5D 9H 4D
        dealt 2: TC JD 6H KH 6C
        dealt 3: 4S 8D KC 7C 2H
        crib 0: AH
        crib 1: AC
        crib 2: 6C
        crib 3: 2H
        turn-up 9D
        play 0 3C = 3
        play 1 5H = 8
        play 2 TC = 18
        play 3 4S = 22
        play 0 2C = 24
        play 1 5D = 29
        go 2
        go 3
        play 0 2S = 31
        play 0 +2 (thirty-one 2) -> 2-0
        reset
        play 1 9H = 9
        play 2 JD = 19
        play 3 8D = 27
        go 0
        play 1 4D = 31
        play 1 +2 (thirty-one 2) -> 2-2
        reset
        play 2 6H = 6
        play 3 KC = 16
        play 0 QH = 26
        go 2
        go 3
        play 0 +1 (go 1) -> 3-2
        reset
        play 2 KH = 10
        play 3 7C = 17
        play 3 +1 (go 1) -> 3-3
        show 0 [3C QH 2C 2S] +6 (fifteen 2, fifteen 2, pair 2) -> 9-3
        show 1 [5H 5D 9H 4D] +4 (pair 2, pair 2) -> 9-7
        show 2 [TC JD 6H KH] +6 (fifteen 2, run 3, his nob 1) -> 15-7
        show 3 [4S 8D KC 7C] +5 (fifteen 2, run 3) -> 15-12
        crib 3 [AC AH 2H 6C] +4 (fifteen 2, pair 2) -> 15-16
        reveal 3C QH 2C 2S | 5H 5D 9H 4D | TC JD 6H KH | 4S 8D KC 7C crib AC AH 2H 6C
        end of deal 1: 15-16
        deal 2 dealer 0
        dealt 1: 6C 3H 2S QH KH
        dealt 2: JD 6S 6D 8S 7H
        dealt 3: AH 7C 7S QS 9H
        dealt 0: 4D KC 3C 6H 2C
        """,
        id="cribbage-4p",
    ),
]


@pytest.mark.parametrize("preset, players, partnerships, seed, expected", FIRST_DEALS)
def test_first_deal_event_log(preset: str, players: int, partnerships: bool, seed: int,
                              expected: str) -> None:
    game = Game(preset, players, partnerships=partnerships, seed=seed)
    while not any(isinstance(e, (DealEnded, GameOver)) for e in game.log):
        game.apply(game.legal_actions(game.awaiting[0])[0])
    assert [render(e) for e in game.log] == textwrap.dedent(expected).strip().splitlines()
