"""What a score is made of, and how a player calls it.

A score is a row of :class:`ScoreItem` -- a kind (``"fifteen"``, ``"run"``...), its points
and the cards that made it -- wrapped as a :class:`Score` when it is given out whole
(:func:`~.scoring.score_show`, :func:`~.scoring.score_play` count them).  :func:`announce`
calls items the way a player does, with a running total ("fifteen two, a pair four"), in
words (:func:`number_words`).
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter
from typing import Iterable

from .cards import TEXT, Card

PAIR_KINDS = ("pair", "pair royal", "double pair royal")
#: An item's points, for ``sum(map(POINTS, items))``.
POINTS = attrgetter("points")

#: Sets a field of a frozen instance in its own ``__init__`` (what dataclasses do).
_set = object.__setattr__


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One scoring combination: its kind (``"fifteen"``, ``"run"``...), points and cards."""

    kind: str
    points: int
    cards: tuple[Card, ...] = ()

    def __init__(self, kind: str, points: int, cards: tuple[Card, ...] = ()) -> None:
        # The dataclass's own __init__, written out with a bound setter: a frozen class's
        # generated one looks ``object.__setattr__`` up for every field, and every show and
        # every scoring card played makes these.
        _set(self, "kind", kind)
        _set(self, "points", points)
        _set(self, "cards", cards)

    def to_dict(self) -> dict:
        return {"kind": self.kind, "points": self.points, "cards": list(map(TEXT, self.cards))}


@dataclass(frozen=True, slots=True)
class Score:
    """An itemised score; ``total`` is the sum of the items' points."""

    items: tuple[ScoreItem, ...] = ()

    @property
    def total(self) -> int:
        return sum(item.points for item in self.items)

    def __bool__(self) -> bool:
        return bool(self.items)

    def announce(self, start: int = 0) -> str:
        """The score as a player calls it: ``"fifteen two, a pair four"``.

        ``start`` is added to the running figure (a show is announced from zero; a play
        announcement may be given from anywhere).  An empty score is ``"nothing"``.
        """
        return announce(self.items, start)


def announce(items: Iterable[ScoreItem], start: int = 0, *, concealed: bool = False) -> str:
    """Call ``items`` with a running total.  ``concealed`` words it for players who may not
    know the cards: combinations are named ("a run of three"), cards are not."""
    running = start
    phrases = []
    for item in items:
        running += item.points
        phrase = _FIXED_PHRASES.get(item.kind) or _phrase(item, concealed)
        if 0 <= running < _WORDS_KNOWN:
            phrases.append(f"{phrase} {_WORDS[running]}")
        else:
            phrases.append(f"{phrase} {number_words(running)}")
    return ", ".join(phrases) if phrases else "nothing"


def _phrase(item: ScoreItem, concealed: bool = False) -> str:
    """How ``item`` is called; a kind not worded specially (fifteen, hitter, a preset's own
    names for its Jacks...) is called by its name."""
    if item.kind in PAIR_KINDS:
        return f"a {item.kind}"
    if item.kind == "run":
        return f"a run of {number_words(len(item.cards))}"
    if item.kind == "flush":
        return "a flush"
    if item.kind == "picture card":
        return f"the {item.cards[0].name}" if item.cards and not concealed else "a picture card"
    return item.kind


#: The phrases of the kinds whose wording depends on nothing but the kind (what
#: :func:`_phrase` gives them), looked up first: every scored event is announced, and most
#: items are fifteens, pairs and the play's points.
_FIXED_PHRASES: dict[str, str] = {
    **{kind: f"a {kind}" for kind in PAIR_KINDS},
    "flush": "a flush",
    **{kind: kind for kind in ("fifteen", "twenty-five", "thirty-one", "hitter", "go",
                               "last card", "first deal", "claim", "muggins")},
}


_SMALL = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen"
).split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def number_words(n: int) -> str:
    """``number_words(25) == "twenty-five"``; used for spoken counts up to 999."""
    if n < 0:
        return "minus " + number_words(-n)
    if n < 20:
        return _SMALL[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens] + ("-" + _SMALL[ones] if ones else "")
    hundreds, rest = divmod(n, 100)
    head = _SMALL[hundreds] + " hundred"
    return head + (" and " + number_words(rest) if rest else "")


#: ``number_words(n)`` for every running figure an announcement normally reaches (a
#: game's target is at most 500), spelled once at import instead of at every call.
_WORDS_KNOWN = 530
_WORDS: tuple[str, ...] = tuple(number_words(n) for n in range(_WORDS_KNOWN))
