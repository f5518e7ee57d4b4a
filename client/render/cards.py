"""Cards on screen: a card as coloured inline text, and the player's hand as small faces.

Inline cards turn up everywhere (the table's turn-up and pile, the count of a deal, the
replay), so they live apart from the panels that show them; the hand is here too because
its faces are cards drawn bigger, with the same red/black rule.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from noddy.protocol.i18n import _

from ..cards import card_label, is_red, rank_label, suit_symbol
from ..model import ViewModel
from .fragments import Fragments


def card_fragments(card: str) -> Fragments:
    """A card as inline coloured text: ``10♥`` in red, ``5♠`` in black."""
    return [("class:card.red" if is_red(card) else "class:card.black", card_label(card))]


def cards_inline(cards: Iterable[str], dim: Collection[str] = ()) -> Fragments:
    """Cards side by side, a space apart; those in ``dim`` are greyed (a replay's played cards)."""
    out: Fragments = []
    for i, card in enumerate(cards):
        if i:
            out.append(("", " "))
        out += [("class:dim", card_label(card))] if card in dim else card_fragments(card)
    return out


def _face_style(card: str, kind: str) -> str:
    red = ".red" if is_red(card) else ""
    if kind == "playable":
        return f"class:cardface.playable{red}"
    if kind == "selected":
        return f"class:cardface.selected{red}"
    if kind == "dim":
        return "class:cardface.dim"
    return f"class:cardface{red}"


def card_faces(cards: list[str], kind: str = "plain") -> tuple[Fragments, Fragments, Fragments]:
    """Cards as small faces, side by side: the three lines (rank, suit, rank), each face
    five wide and a space apart (``kind``: ``plain``, ``playable``, ``selected``, ``dim``)."""
    top: Fragments = []
    mid: Fragments = []
    bottom: Fragments = []
    for card in cards:
        style, rank = _face_style(card, kind), rank_label(card)
        top += [(style, f"{rank:<3}  "), ("", " ")]
        mid += [(style, f"  {suit_symbol(card)}  "), ("", " ")]
        bottom += [(style, f"  {rank:>3}"), ("", " ")]
    return top, mid, bottom


def hand_fragments(model: ViewModel) -> Fragments:
    """The player's hand as small cards, three lines high, with the key number under each.

    Playable cards are lit, the others dimmed while it is the player's turn; cards picked
    for the crib are shown lifted (green); the cursor is the reversed number.
    """
    hand = model.game.hand
    if not hand:
        if model.game.seat is None:
            return [("class:dim", f"  ({_('watching: no hand')})\n\n\n")]
        return [("class:dim", f"  ({_('no cards')})\n\n\n")]
    playable = model.game.playable()
    discarding = model.game.discard_size > 0
    kinds = []
    for card in hand:
        if card in model.game.selected:
            kinds.append("selected")
        elif discarding:
            kinds.append("playable")
        elif model.game.can_act:
            kinds.append("playable" if card in playable else "dim")
        else:
            kinds.append("plain")
    top: Fragments = [("", "  ")]
    mid: Fragments = [("", "  ")]
    bottom: Fragments = [("", "  ")]
    keys: Fragments = [("", "  ")]
    for i, (card, kind) in enumerate(zip(hand, kinds)):
        style = _face_style(card, kind)
        rank = rank_label(card)
        top += [(style, f"{rank:<3}  "), ("", " ")]
        mid += [(style, f"  {suit_symbol(card)}  "), ("", " ")]
        bottom += [(style, f"  {rank:>3}"), ("", " ")]
        number = f"  {i + 1}   "
        if i == model.game.cursor and (model.game.can_act or discarding):
            keys += [("", " "), ("class:cursor", f"▲{i + 1}▲"), ("", "  ")]
        else:
            keys += [("class:key" if kind in ("playable", "selected") else "class:dim", number)]
    note = ""
    if discarding:
        note = "   " + _("for the crib: {chosen}/{size}").format(chosen=len(model.game.selected),
                                                                size=model.game.discard_size)
    return top + [("", "\n")] + mid + [("class:dim", note), ("", "\n")] + bottom + [("", "\n")] + keys
