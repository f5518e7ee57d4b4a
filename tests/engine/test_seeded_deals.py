"""Full first deals from fixed seeds, for every preset and player count, every event written
out and checked by hand against RULES.md (dealing order, the crib, the turn-up and its
Jack, show order, each play score, go, count resets, the reveal, the win).  Every seat
always takes its first legal action, so the deals are reproducible from the seed alone."""

from __future__ import annotations

import textwrap

import pytest

from noddy.engine import DealEnded, Game, GameOver

from .eventlog import render

FIRST_DEALS = [
    pytest.param(
        "noddy", 2, False, None, 3,
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
        "noddy", 4, True, None, 11,
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
        "noddy-ducoeur", 2, False, None, 9,
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
        "noddy-ducoeur", 4, True, None, 3,
        """
        game noddy-ducoeur players=4 target=31
        cut 0:3D 1:QH 2:9H 3:9C -> dealer 0
        deal 1 dealer 0
        dealt 1: JD QH JS
        dealt 2: KH 5C 4D
        dealt 3: 5H QS TH
        dealt 0: 2S AC 2D
        turn-up KC
        show 1 [JD QH JS] +6 (pair 2, run 2, run 2) -> 0-6
        show 2 [KH 5C 4D] +8 (fifteen 2, fifteen 2, twenty-five 2, pair 2) -> 8-6
        show 3 [5H QS TH] +12 (fifteen 2, fifteen 2, fifteen 2, twenty-five 2, twenty-five 2, twenty-five 2) -> 8-18
        show 0 [2S AC 2D] +4 (fifteen 2, pair 2) -> 12-18
        play 1 JD = 10
        play 2 KH = 20
        play 3 5H = 25
        play 3 +2 (twenty-five 2) -> 12-20
        play 0 2S = 27
        go 1
        play 2 4D = 31
        play 2 +2 (hitter 2) -> 14-20
        reveal 2S AC 2D | JD QH JS | KH 5C 4D | 5H QS TH
        end of deal 1: 14-20
        deal 2 dealer 1
        dealt 2: 7S QS 2D
        dealt 3: 5H KD KS
        dealt 0: 9H 2S 6S
        dealt 1: TH TC 8H
        turn-up QD
        show 2 [7S QS 2D] +2 (pair 2) -> 16-20
        show 3 [5H KD KS] +14 (fifteen 2, fifteen 2, fifteen 2, twenty-five 2, twenty-five 2, twenty-five 2, pair 2) -> 16-34
        game over: winner 1 16-34
        """,
        id="noddy-ducoeur-4p",
    ),
    pytest.param(
        "noddy-holme", 2, False, None, 1,
        """
        game noddy-holme players=2 target=61
        cut 0:9C 1:JH -> dealer 0
        deal 1 dealer 0
        dealt 1: KS 5C 8C
        dealt 0: TS 4D 6H
        turn-up 3H
        show 1 [KS 5C 8C] +8 (fifteen 2, picture card 6) -> 0-8
        show 0 [TS 4D 6H] +0 () -> 0-8
        play 1 KS = 10
        play 0 TS = 20
        play 1 5C = 25
        play 1 +2 (twenty-five 2) -> 0-10
        play 0 4D = 29
        go 1
        go 0
        play 0 +1 (last card 1) -> 1-10
        reveal TS 4D 6H | KS 5C 8C
        end of deal 1: 1-10
        deal 2 dealer 1
        dealt 0: 5H QD 7C
        dealt 1: 3S AD 6H
        turn-up 2C
        show 0 [5H QD 7C] +2 (fifteen 2) -> 3-10
        show 1 [3S AD 6H] +2 (run 2) -> 3-12
        """,
        id="noddy-holme-2",
    ),
    pytest.param(
        "noddy-holme", 4, True, None, 2,
        """
        game noddy-holme players=4 target=61
        cut 0:4C 1:6C 2:JD 3:JC -> dealer 0
        deal 1 dealer 0
        dealt 1: 9S KH QH
        dealt 2: 4S AD JC
        dealt 3: 7D KS 2H
        dealt 0: 4D 3C 2S
        turn-up KD
        show 1 [9S KH QH] +8 (pair 4, picture card 4) -> 0-8
        show 2 [4S AD JC] +6 (fifteen 2, fifteen 2, twenty-five 2) -> 6-8
        show 3 [7D KS 2H] +10 (pair 4, picture card 6) -> 6-18
        show 0 [4D 3C 2S] +4 (fifteen 2, run 2) -> 10-18
        play 1 9S = 9
        play 2 4S = 13
        play 3 7D = 20
        play 0 4D = 24
        go 1
        play 2 AD = 25
        play 2 +5 (twenty-five 2, flush 3) -> 15-18
        play 3 2H = 27
        play 0 3C = 30
        play 0 +4 (run 4) -> 19-18
        go 2
        go 3
        go 0
        play 0 +1 (last card 1) -> 20-18
        reveal 4D 3C 2S | 9S KH QH | 4S AD JC | 7D KS 2H
        end of deal 1: 20-18
        deal 2 dealer 1
        dealt 2: KS 9H 3C
        dealt 3: 8S 3H 2C
        dealt 0: 7H JS TS
        dealt 1: JD 5D 4H
        turn-up 8D
        show 2 [KS 9H 3C] +6 (picture card 6) -> 26-18
        show 3 [8S 3H 2C] +4 (pair 4) -> 26-22
        show 0 [7H JS TS] +6 (fifteen 2, twenty-five 2, twenty-five 2) -> 32-22
        show 1 [JD 5D 4H] +7 (fifteen 2, flush 3, knave noddy 2) -> 32-29
        """,
        id="noddy-holme-4p",
    ),
    pytest.param(
        "noddy-modern", 2, False, {'four_card': True}, 5,
        """
        game noddy-modern players=2 target=31
        cut 0:AS 1:4D -> dealer 0
        deal 1 dealer 0
        dealt 1: 9S 6S 3S 2C
        dealt 0: TD KS 8H 4H
        turn-up 3D
        play 1 9S = 9
        play 0 TD = 19
        play 1 6S = 25
        play 0 4H = 29
        play 1 2C = 31
        play 1 +2 (thirty-one 2) -> 0-2
        reset
        play 0 KS = 10
        play 1 3S = 13
        play 0 8H = 21
        play 0 +1 (go 1) -> 1-2
        show 1 [9S 6S 3S 2C] +6 (fifteen 2, fifteen 2, pair 2) -> 1-8
        show 0 [TD KS 8H 4H] +2 (fifteen 2) -> 3-8
        reveal TD KS 8H 4H | 9S 6S 3S 2C
        end of deal 1: 3-8
        deal 2 dealer 1
        dealt 0: 3S JC JD 3D
        dealt 1: 4C 8C 5H QD
        turn-up 9H
        """,
        id="noddy-modern-2-four-card",
    ),
    pytest.param(
        "noddy-modern", 3, False, None, 4,
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
        "noddy-modern", 4, False, None, 6,
        """
        game noddy-modern players=4 target=31
        cut 0:QS 1:JH 2:6C 3:6H -> dealer None
        cut 2:TS 3:4D -> dealer 3
        deal 1 dealer 3
        dealt 0: 3C QH 2C
        dealt 1: AC 5H 5D
        dealt 2: TC JD 6H
        dealt 3: 4S 8D KC
        turn-up AH
        play 0 3C = 3
        play 1 AC = 4
        play 2 TC = 14
        play 3 4S = 18
        play 0 QH = 28
        go 1
        go 2
        go 3
        play 0 2C = 30
        play 0 +1 (go 1) -> 1-0-0-0
        reset
        play 1 5H = 5
        play 2 JD = 15
        play 2 +2 (fifteen 2) -> 1-0-2-0
        play 3 8D = 23
        play 1 5D = 28
        go 2
        go 3
        play 1 +1 (go 1) -> 1-1-2-0
        reset
        play 2 6H = 6
        play 3 KC = 16
        play 3 +1 (go 1) -> 1-1-2-1
        show 0 [3C QH 2C] +5 (fifteen 2, run 3) -> 6-1-2-1
        show 1 [AC 5H 5D] +4 (pair 2, pair 2) -> 6-5-2-1
        show 2 [TC JD 6H] +0 () -> 6-5-2-1
        show 3 [4S 8D KC] +2 (fifteen 2) -> 6-5-2-3
        reveal 3C QH 2C | AC 5H 5D | TC JD 6H | 4S 8D KC
        end of deal 1: 6-5-2-3
        deal 2 dealer 0
        dealt 1: 9H KC 4D
        dealt 2: KS JH 4S
        dealt 3: 5S TH AS
        dealt 0: 7C 6S 6C
        turn-up 2H
        """,
        id="noddy-modern-4",
    ),
    pytest.param(
        "noddy-modern", 4, True, None, 7,
        """
        game noddy-modern players=4 target=31
        cut 0:8D 1:TC 2:KD 3:3S -> dealer 3
        deal 1 dealer 3
        dealt 0: 4C JD AD
        dealt 1: 5C QH 3C
        dealt 2: 9H KS 6C
        dealt 3: 7C 7H 2H
        turn-up AH
        play 0 4C = 4
        play 1 5C = 9
        play 2 9H = 18
        play 3 7C = 25
        play 0 AD = 26
        play 1 3C = 29
        go 2
        play 3 2H = 31
        play 3 +5 (thirty-one 2, run 3) -> 0-5
        reset
        play 0 JD = 10
        play 1 QH = 20
        play 2 KS = 30
        play 2 +3 (run 3) -> 3-5
        go 3
        go 2
        play 2 +1 (go 1) -> 4-5
        reset
        play 3 7H = 7
        play 2 6C = 13
        play 2 +1 (go 1) -> 5-5
        show 0 [4C JD AD] +6 (fifteen 2, fifteen 2, pair 2) -> 11-5
        show 1 [5C QH 3C] +2 (fifteen 2) -> 11-7
        show 2 [9H KS 6C] +2 (fifteen 2) -> 13-7
        show 3 [7C 7H 2H] +4 (fifteen 2, pair 2) -> 13-11
        reveal 4C JD AD | 5C QH 3C | 9H KS 6C | 7C 7H 2H
        end of deal 1: 13-11
        deal 2 dealer 0
        dealt 1: 5C 2H 2D
        dealt 2: 3D 4C 2S
        dealt 3: 6C JH 4S
        dealt 0: TH 8C QH
        turn-up 8S
        """,
        id="noddy-modern-4p",
    ),
    pytest.param(
        "five-card-cribbage", 2, False, None, 8,
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
        "cribbage", 2, False, None, 2,
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
        "cribbage", 3, False, None, 5,
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
        "cribbage", 4, True, None, 6,
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


@pytest.mark.parametrize("preset, players, partnerships, options, seed, expected", FIRST_DEALS)
def test_first_deal_event_log(preset: str, players: int, partnerships: bool,
                              options: dict | None, seed: int, expected: str) -> None:
    game = Game(preset, players, partnerships=partnerships, options=options, seed=seed)
    while not any(isinstance(e, (DealEnded, GameOver)) for e in game.log):
        game.apply(game.legal_actions(game.awaiting[0])[0])
    assert [render(e) for e in game.log] == textwrap.dedent(expected).strip().splitlines()
