"""Drawing counting by hand and the coach: the show being counted, and the coach's box.

While a show is counted by hand (``TableView.counting``) the hand's place on the table
screen shows that show instead: its cards and the turn-up as faces, whose they are, and the
number being claimed or called (:class:`~noddy.client.screens.counting.HandCount`).  Nothing here
counts: a show's worth is drawn only once its ``counted`` event has told it, in the count
of the deal (:func:`noddy.client.render.table.count_fragments`).  The coach's box (a hint,
a review: :class:`~noddy.client.screens.coach.Panel`) floats over any screen until a key.
"""

from __future__ import annotations

from prompt_toolkit.utils import get_cwidth

from noddy.protocol.i18n import _

from ..cards import sort_cards
from ..model import ViewModel
from .cards import card_faces, hand_fragments
from .fragments import Fragments, plain
from .table import log_fragments


def counting_fragments(model: ViewModel, width: int | None = None) -> Fragments:
    """The show being counted (four lines, in the hand's place): the cards and the turn-up
    as faces, whose show it is, and the claim or the muggins call being typed.  With
    ``width`` (the screen's), the words beside the cards and the hints after the entry give
    way whole, never cut at the edge (four cards and the turn-up read ``Your hand with the
    tur`` at 60 columns); the last column stays free, as on every row."""
    count = model.hand_count
    show = count.show or {}
    cards = sort_cards(show.get("cards") or [])
    top, mid, bottom = card_faces(cards)
    if model.game.view.turn_up:
        up_top, up_mid, up_bottom = card_faces([model.game.view.turn_up])
        top += [("", "    ")] + up_top
        mid += [("class:dim", " +  ")] + up_mid
        bottom += [("", "    ")] + up_bottom
    whose = count.owner_words(capital=True)
    with_turn_up = _("{show} with the turn-up").format(show=whose)
    labels = [f"  {with_turn_up if model.game.view.turn_up else whose}",
              f"  {whose}", f"  {count.show_word()}", ""]  # whose show, then what it is
    room = None if width is None else width - 1 - _cells([("", "  ")] + mid)
    mid.append(("class:label", next(label for label in labels if room is None or get_cwidth(label) <= room)))
    claimed = show.get("claimed")
    owner = model.game.seat_name(show.get("seat"))
    typed = [("class:key", count.entry), ("class:cursor", " ")]
    low, high = count.bounds()
    if count.claiming:
        last: Fragments = [("class:label", f"  {_('Claim:')} "), *typed,
                           ("class:dim", "   " + _("({low} to {high}; Enter claims)").format(
                               low=low, high=high))]
    elif count.mugging:  # the hint goes first, then whose claim (the key line and log say them)
        claims = "  " + _("{name} claims {points}.  Muggins:").format(name=owner, points=claimed) + " "
        tries: list[Fragments] = [
            [("class:label", claims), *typed,
             ("class:dim", "   " + _("({low} or more; p passes)").format(low=low))],
            [("class:label", claims), *typed],
            [("class:label", f"  {_('Muggins:')} "), *typed]]
        last = next((t for t in tries if width is None or _cells(t) <= width - 1), tries[-1])
    elif claimed is None:
        last = [("class:dim", "  " + _("{name} is counting…").format(name=owner))]
    else:
        last = [("class:label", "  " + _("{name} claims {points}").format(name=owner, points=claimed))]
    return ([("", "  ")] + top + [("", "\n"), ("", "  ")] + mid + [("", "\n"), ("", "  ")]
            + bottom + [("", "\n")] + last)


def _cells(fragments: Fragments) -> int:
    """The terminal columns ``fragments`` take."""
    return get_cwidth(plain(fragments))


def hand_or_show_fragments(model: ViewModel, width: int | None = None) -> Fragments:
    """The hand's place on the table: the hand, or, while a show is counted by hand, that
    show with the turn-up (and the number being claimed or called), fitted to ``width``."""
    if model.game.view.counting is not None:
        return counting_fragments(model, width)
    return hand_fragments(model)


def panel_fragments(model: ViewModel, width: int | None = None) -> Fragments:
    """The coach's box: its title, its lines, and how to close it.  With ``width`` (the
    box's), a line is broken between words as the log's are, a column clear of the frame;
    the box scrolls what does not fit (:class:`noddy.client.scrolling.Scrolled`)."""
    panel = model.coach.panel
    if panel is None:
        return []
    out: Fragments = [("class:label", f" {panel.title} "), ("", "\n")]
    for line in panel.lines:
        out += log_fragments([line], None if width is None else width - 1) + [("", " \n")]
    return out + [("class:dim", f" {_('any key closes this')} ")]


__all__ = ["counting_fragments", "hand_or_show_fragments", "panel_fragments"]
