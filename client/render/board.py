"""The peg board: one track of holes per player or team, with the score beside it.

The live table and the replay both draw it (from :class:`~noddy.client.lines.Peg`
values), so it stands alone; the hole arithmetic that fits a track to the width is the
whole of its difficulty and is kept in one place.
"""

from __future__ import annotations

import math
from dataclasses import replace

from noddy.protocol.i18n import N_, _

from ..lines import Peg
from ..model import ViewModel
from .fragments import Fragments


def _track(peg: Peg, width: int) -> Fragments:
    """One track of holes from 0 to the target: the back peg ○, the front peg ●, the
    points just made drawn between them."""
    per_hole = max(1, math.ceil(peg.target / max(1, width)))
    holes = math.ceil(peg.target / per_hole)
    front = min(holes, math.ceil(peg.front / per_hole))
    back = min(front, math.ceil(peg.back / per_hole))
    out: Fragments = []
    front_style = "class:peg.mine" if peg.mine else "class:peg.front"
    out.append((front_style if front == 0 else ("class:peg.back" if back == 0 else "class:peg.track"),
                "●" if front == 0 else ("○" if back == 0 and front != 0 else "▕")))
    for hole in range(1, holes + 1):
        if hole == front:
            out.append((front_style, "●"))
        elif hole == back and back != 0:
            out.append(("class:peg.back", "○"))
        elif back < hole < front:
            out.append(("class:peg.trail", "━"))
        elif hole < back:
            out.append(("class:peg.track", "─"))
        else:
            out.append(("class:peg.track", "┊" if hole % (5 if holes <= 61 else 10) == 0 else "·"))
    out.append(("class:peg.track", "▏"))
    return out


def board_fragments(model: ViewModel, width: int) -> Fragments:
    """The peg board: a track per player or team, the figures beside it.  A seat a
    computer plays for someone who left keeps their name, with the stand-in said beside
    it (issue 33: ben's name was gone from the board, his points shown as the computer's)."""
    pegs = model.game.pegs()
    if not pegs:
        return [("class:dim", f" {_('The peg board appears when the game begins.')}\n")]
    stood_for = _stood_for(model)
    if stood_for:
        widest = _widest(width)
        names = model.game.names()
        labels = [_team_label(model.game.seats_of_team(t), names, stood_for, widest)
                  for t in range(len(pegs))]
        pegs = [replace(peg, label=label) for peg, label in zip(pegs, labels)]
    return pegs_fragments(pegs, width)


def _stood_for(model: ViewModel) -> dict[int, str]:
    """The seats a computer plays for someone who left: seat -> their name."""
    seats = (model.game.table or {}).get("seats") or []
    return {s["seat"]: str(s["stand_in_for"]) for s in seats
            if isinstance(s, dict) and s.get("stand_in_for") and isinstance(s.get("seat"), int)}


def _team_label(seats: list[int], names: list[str], stood_for: dict[int, str], widest: int) -> str:
    """A track's label with each stand-in said, in the longest of :data:`STAND_IN_WORDS`'
    forms that fits (a label is never cut mid-word: the board cuts only at its end)."""
    label = ""
    for words in map(_, STAND_IN_WORDS):
        parts = []
        for seat in seats:
            name = names[seat] if seat < len(names) else ""
            parts.append(words.format(person=stood_for[seat], computer=name, cpu=compact(name))
                         if seat in stood_for else name)
        label = " & ".join(parts)
        if len(label) < widest:
            break
    return label


#: How a stand-in is said on the board, longest first; the first that fits the label's room
#: is used (at 60 columns the room is 24 characters: "ben (stand-in)").
#: (Said with ``_()`` where they are used.)
STAND_IN_WORDS = (N_("{person} ({computer} standing in)"), N_("{person} ({cpu} standing in)"),
                  N_("{person} (computer standing in)"), N_("{person} (stand-in)"))


#: The columns a track's row takes besides its label and holes: the space before the label,
#: the track's two ends, the figures (" 121/121") and the points just made (" +29"), and the
#: last column left free (14 let a 31-hole track with "+11" reach the edge at 60 columns).
FIGURES_ROOM = 1 + 2 + 8 + 4 + 1


def _widest(width: int) -> int:
    """The most columns a label may take: two fifths of the board, 16 at least (below it
    a name and its figures crowd the track out)."""
    return max(16, width * 2 // 5)


def compact(name: str) -> str:
    """A computer player's name made short where room is short: ``greedy cpu 2``."""
    return name.replace(" computer ", " cpu ")


def pegs_fragments(pegs: list[Peg], width: int) -> Fragments:
    """A track per peg, ``width`` columns wide with the label and figures (the replay's
    board too)."""
    labels = [p.label for p in pegs]
    widest = _widest(width)
    if any(len(label) >= widest for label in labels):
        # "greedy computer 2 & greedy computer 4" would be cut where the seat number is.
        labels = [compact(label) for label in labels]
    label_width = min(widest, max(len(label) for label in labels) + 1)
    track_width = max(10, width - label_width - FIGURES_ROOM)
    out: Fragments = []
    for peg, label in zip(pegs, labels):
        label = label[:label_width - 1]
        style = "class:peg.mine" if peg.mine else "class:label"
        gained = peg.front - peg.back
        figure = f" {peg.front:>3}/{peg.target}"
        out += [(style, f" {label:<{label_width}}")] + _track(peg, track_width)
        out += [(style, figure)]
        if gained:
            out.append(("class:peg.trail", f" +{gained}"))
        out.append(("", "\n"))
    return out
