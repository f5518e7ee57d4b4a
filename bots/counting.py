"""How computer players count by hand (table option ``counting: "manual"``).

When shows are counted by hand, each owner claims its show's points and the opponents may
call muggins on a claim that fell short (RULES.md, "Counting by hand").  Every card of the
show is on the table by then (:attr:`Observation.counting` carries them, with the claim),
so any seat can count it; what differs between the levels is only their character:

* ``greedy`` and ``expert`` count exactly: they claim every point and call muggins, with
  the exact worth, on every claim that fell short (and pass otherwise);
* ``random`` is careless: it overlooks each combination of its own show with probability
  :data:`OVERLOOK` (so a person can practise calling muggins on it), and on a short claim
  it calls muggins, with the exact worth, only with probability :data:`CALL`.
"""

from __future__ import annotations

import random

from noddy.engine import Action, Claim, Muggins, Observation, Pass, Rules, score_show

#: The chance that ``random`` overlooks any one combination of its own show.
OVERLOOK = 0.3
#: The chance that ``random`` calls muggins on a claim that fell short.
CALL = 0.5


def worth(view: Observation, rules: Rules) -> int:
    """What the show being counted holds, counted from the cards on the table."""
    counting = view.counting
    assert counting is not None and view.turn_up is not None
    return score_show(counting.cards, view.turn_up, rules, crib=counting.reason == "crib").total


def counting_action(view: Observation, rules: Rules, *, careless: random.Random | None = None,
                    ) -> Action | None:
    """The claim, muggins call or pass for ``view`` (None when no show is being counted, or
    this seat is not the one to act).  Exact, unless ``careless`` gives a random source."""
    counting = view.counting
    if counting is None or view.seat is None or view.to_move != view.seat:
        return None
    if view.phase == "claim":
        if careless is None:
            return Claim(view.seat, worth(view, rules))
        score = score_show(counting.cards, view.turn_up, rules, crib=counting.reason == "crib")
        return Claim(view.seat, sum(item.points for item in score.items
                                    if careless.random() >= OVERLOOK))
    if view.phase == "muggins":
        assert counting.claimed is not None
        true = worth(view, rules)
        if true > counting.claimed and (careless is None or careless.random() < CALL):
            return Muggins(view.seat, true)
        return Pass(view.seat)
    return None
