"""The coach at a table with ``hints``: the ranked choices of a decision, and a deal's review.

A table created with the option ``hints: true`` has a coach (docs/PROTOCOL.md "The coach"):
``hint`` answers the seat that is to lay away or play with every choice, best first, as
the expert computer player values them; ``review`` goes back over a deal and notes each
decision that fell short of the best by a clear margin.  :class:`Coach` asks (``h`` at the
table; by itself after each ``deal_ended``; ``v`` in a replay for a stored game) and keeps
what came back: the :class:`Panel` on the screen (closed by any key), and the last deal's
review notes, which the count of the deal shows and ``v`` opens again.

Why some asks never leave the client: a hint is only for the seat's own discard or play at
a hints table; asked anywhere else the server would refuse it (``hints_off``,
``no_hint``, ``not_your_turn``), so the words are said here at once.  Under counting by
hand the coach never counts a show for anyone, and neither does this module.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from noddy.protocol.i18n import N_, _, pgettext

from ..cards import cards_label
from ..lines import LogLine, line
from ..session import Session
from .game import Game

#: How many choices a hint shows (best first).
HINT_ROWS = 6

#: What the client says for the coach's refusals (the codes are for programs; said with
#: ``_()`` where they are shown).
REFUSALS = {
    "hints_off": N_("This table has no coach: hints are chosen when a table is made (and make "
                    "it unrated)."),
    "no_hint": N_("The coach never counts a hand for you: count it yourself."),
    "not_your_turn": N_("The coach answers when it is your turn to lay away or play."),
    "no_such_deal": N_("No deal of this game has ended yet: nothing to review."),
}


@dataclass
class Panel:
    """A small box over the table: a title and a few lines; any key closes it."""

    title: str
    lines: list[LogLine] = field(default_factory=list)


def _points(value: Any) -> str:
    return f"{float(value):.1f}" if isinstance(value, (int, float)) else "?"


def _cards_cell(cards: list[str], width: int) -> list[Any]:
    """Cards coloured, padded with spaces to ``width`` characters."""
    return [list(cards), " " * max(1, width - len(cards_label(cards)))]


def _row(*parts: Any, total: Any, width: int = 5) -> LogLine:
    """A row of the hint's table, its total in the score colour (``width`` columns)."""
    row = line("event", *parts)
    return LogLine("event", row.segments + (("score", f"{_points(total):>{width}}"),))


def _heading(word: str, cells: int) -> int:
    """A column's width: ``cells`` (a column of figures counts the two spaces before it), or
    its heading's length and a space where a language says it longer."""
    return max(cells, len(word) + 1)


def hint_lines(message: dict[str, Any], rows: int = HINT_ROWS) -> list[LogLine]:
    """A ``hint`` reply as a small table: a heading, then the first ``rows`` choices.  The
    columns are as wide as English has them, or as their headings in the reader's language."""
    choices = list(message.get("choices") or [])[:rows]
    total = pgettext("hint column", "total")
    ws = _heading(total, 7)
    if message.get("decision") == "discard":
        laid, kept = pgettext("hint column", "lay away"), pgettext("hint column", "keep")
        hand, crib = pgettext("hint column", "hand"), pgettext("hint column", "crib")
        wl, wk, wh, wc = _heading(laid, 10), _heading(kept, 17), _heading(hand, 5), _heading(crib, 7)
        heading = f"    {laid:<{wl}}{kept:<{wk}}{hand:>{wh}}{crib:>{wc}}{total:>{ws}}"
        return [line("dim", heading)] + [
            _row(f" {i}  ", *_cards_cell(c.get("laid", []), wl), *_cards_cell(c.get("kept", []), wk),
                 f"{_points(c.get('hand')):>{wh}}{_points(c.get('crib')):>{wc}}  ",
                 total=c.get("total"), width=ws - 2)
            for i, c in enumerate(choices, 1)]
    card, now, reply = (pgettext("hint column", "card"), pgettext("hint column", "now"),
                        pgettext("hint column", "reply"))
    wd, wn, wr = _heading(card, 7), max(3, len(now)), _heading(reply, 7)
    heading = f"    {card:<{wd}}{now:>{wn}}{reply:>{wr}}{total:>{ws}}"
    return [line("dim", heading)] + [
        _row(f" {i}  ", *(_cards_cell([c["card"]], wd) if c.get("card") else [f"{_('go'):<{wd}}"]),
             f"{c.get('now', 0):>{wn}}{_points(c.get('answer')):>{wr}}  ", total=c.get("total"),
             width=ws - 2)
        for i, c in enumerate(choices, 1)]


def _choice_parts(decision: str, choice: dict[str, Any]) -> list[Any]:
    if decision == "discard":
        return [list(choice.get("laid", []))]
    card = choice.get("card")
    return [[card]] if card else [_("go")]


def note_line(note: dict[str, Any], with_deal: bool = False) -> LogLine:
    """One review note: "you laid away 5♣ 8♠ (total 9.1), best K♥ Q♥ (total 13.2): 4.1
    points"."""
    decision = str(note.get("decision", ""))
    chosen, best = note.get("chosen") or {}, note.get("best") or {}
    if decision == "discard":
        said = _("you laid away {chosen} (total {total}), best {best} (total {best_total}): "
                 "{difference} points")
    elif chosen.get("card"):
        said = _("you played {chosen} (total {total}), best {best} (total {best_total}): "
                 "{difference} points")
    else:
        said = _("you said {chosen} (total {total}), best {best} (total {best_total}): "
                 "{difference} points")
    if with_deal and note.get("deal") is not None:
        said = _("Deal {deal}: {note}").format(deal=note.get("deal"), note=said)
    figures = {"total": _points(chosen.get("total")), "best_total": _points(best.get("total")),
               "difference": _shown_difference(chosen, best)}
    return line("event", *_filled(said.replace("{chosen}", "\x00chosen\x00")
                                  .replace("{best}", "\x00best\x00").format(**figures),
                                  {"chosen": _choice_parts(decision, chosen),
                                   "best": _choice_parts(decision, best)}))


def _filled(text: str, cards: dict[str, list[Any]]) -> list[Any]:
    """``text`` split where it holds a ``\\x00name\\x00`` mark, each mark replaced by the
    parts of ``cards[name]`` (coloured cards, or a word), so a translation may put the cards
    where its language says them."""
    parts: list[Any] = []
    for i, piece in enumerate(text.split("\x00")):
        if i % 2:
            parts += cards[piece]
        elif piece:
            parts.append(piece)
    return parts


def _shown_difference(chosen: dict[str, Any], best: dict[str, Any]) -> str:
    """How much better the best was, as the difference of the two totals *as shown*: a reader
    checks it from the figures on the screen ("-0.1 ... 1.0: 1.2 points" did not add up, the
    difference being of the unrounded totals; issue 27, item 7)."""
    low, high = chosen.get("total"), best.get("total")
    if not isinstance(low, (int, float)) or not isinstance(high, (int, float)):
        return "?"
    return _points(float(_points(high)) - float(_points(low)))


class Coach:
    """Hints and reviews for the seat we hold (module docstring)."""

    def __init__(self, session: Session, game: Game) -> None:
        self.session = session
        self.game = game
        #: The box on the screen (a hint, or a review), or None.
        self.panel: Panel | None = None
        #: The last live review: its deal and its notes (None: none came back yet).
        self.review_deal: int | None = None
        self.notes: list[dict[str, Any]] | None = None

    @property
    def hints_on(self) -> bool:
        """The table we sit at has a coach (its summary's ``options.hints``)."""
        options = (self.game.table or {}).get("options") or {}
        return options.get("hints") is True

    @property
    def deciding(self) -> bool:
        """Our turn to lay away or play (or say go): what a hint is about."""
        game = self.game
        return game.can_act and any(a.get("action") in ("discard", "play", "go") for a in game.legal)

    @property
    def can_hint(self) -> bool:
        return self.hints_on and self.deciding

    # == asking ===========================================================================
    def ask_hint(self) -> None:
        """h: ask the coach, or say at once why it cannot answer."""
        game = self.game
        if game.seat is None or not game.in_game or game.view.winner is not None:
            return
        if not self.hints_on:
            self.session.set_status(_(REFUSALS["hints_off"]), error=True)
        elif game.view.counting is not None:
            self.session.set_status(_(REFUSALS["no_hint"]), error=True)
        elif not self.deciding:
            self.session.set_status(_(REFUSALS["not_your_turn"]), error=True)
        elif not self.session.awaits("hint"):
            self.session.clear_status()
            self.session.send("hint")

    def review_game(self, game_id: int) -> None:
        """v in a replay: the review of a stored game (every deal, the seat we sat in)."""
        if not self.session.awaits("review"):
            self.session.set_status(_("Asking the coach about game {game}…").format(game=game_id))
            self.session.send("review", game=game_id)

    def open_review(self) -> bool:
        """v at the table: the last deal's review again; False when there is none."""
        if self.notes is None:
            return False
        self.panel = self._review_panel(self.notes, self.review_deal)
        return True

    def close_panel(self) -> None:
        self.panel = None

    # == the server's messages ============================================================
    def on_event(self, m: dict[str, Any]) -> None:
        """After each deal at a hints table, ask for the review of our seat."""
        kind = (m.get("event") or {}).get("kind")
        if kind == "game_started":
            self.notes, self.review_deal = None, None
        elif (kind == "deal_ended" and self.hints_on and self.game.seat is not None
              and not self.session.awaits("review")):
            self.session.send("review")

    def on_hint(self, m: dict[str, Any]) -> None:
        title = (_("The coach · what to lay away, best first") if m.get("decision") == "discard"
                 else _("The coach · what to play, best first"))
        self.panel = Panel(title, hint_lines(m))

    def on_review(self, m: dict[str, Any], request: dict[str, Any] | None) -> None:
        notes = list(m.get("notes") or [])
        if request is not None and request.get("game") is not None:
            self.session.clear_status()
            self.panel = self._review_panel(notes, None, game=m.get("game"))
            return
        self.notes, self.review_deal = notes, m.get("deal")
        count = self.game.deal_count
        if count is not None and count.deal == m.get("deal"):
            count.notes = [note_line(n) for n in notes] or [line("dim", _(NOTHING_TO_NOTE))]

    def _review_panel(self, notes: list[dict[str, Any]], deal: int | None,
                      game: Any = None) -> Panel:
        title = (_("The coach's review of game {game}").format(game=game) if game is not None
                 else _("The coach's review of deal {deal}").format(deal=deal))
        lines = [note_line(n, with_deal=game is not None) for n in notes]
        return Panel(title, lines or [line("dim", _(NOTHING_TO_NOTE))])

    def refused(self, request: dict[str, Any], code: str, message: str) -> bool:
        """An error answered a hint or a review: said in words.  True when it was ours."""
        if request.get("type") not in ("hint", "review"):
            return False
        self.session.set_status(_(REFUSALS[code]) if code in REFUSALS else
                                message or code.replace("_", " "), error=True)
        return True


#: What a review with no notes says.
NOTHING_TO_NOTE = N_("No choice fell short of the best by a point or more.")

__all__ = ["Coach", "Panel", "hint_lines", "note_line", "HINT_ROWS", "REFUSALS", "NOTHING_TO_NOTE"]
