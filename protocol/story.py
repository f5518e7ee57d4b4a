"""The story of a game, told once: a fold of the game's messages and their narration.

What it owns
============

Two things every reader of a game needs and that used to be written three times (the
server's text mode, the client's live log, the client's replay).  This module is their
front door: it holds no code of its own, only this description, and re-exports both.

* :func:`narrate` / :func:`tell` -- **one event in words**, with the players' names, from
  the point of view of one seat (or of a spectator, or of a replay: ``seat=None``).  They
  live in :mod:`noddy.protocol.narration`: one small function per event kind
  (``_tell_played``, ``_tell_go``...), listed in :data:`TELLERS`; changing how a ``go`` is
  told means changing ``_tell_go`` and nothing else.
* :class:`TableView` -- **the table as one seat may see it**, in
  :mod:`noddy.protocol.table_view`, folded from the ``event``, ``turn``, ``snapshot`` and
  ``table`` messages (or from a stored game record, for a replay): hands (your own cards;
  the others' counts), the crib, the pile and the count, the scores and back pegs, dealer,
  deal number, turn-up, whose turn and your legal actions, the shows of the deal, the
  winner.  :meth:`TableView.apply` folds one message and returns the lines that tell it
  (narrated with what the view knows: whose crib, the turn-up, the show points).

Like the rest of :mod:`noddy.protocol` it is standard library only and does no I/O, so the
server and the client may both import it (``tests/test_architecture.py``).  It knows nothing
of the rules: it reads what the messages say happened.

Cards
=====

Cards stay wire text ("5H", "TC") inside the view and inside a :class:`Line`.  A line is a
run of *parts*: plain strings, and tuples of wire cards.  :meth:`Line.text` joins them,
formatting each card with the ``card`` function it is given (default: the wire text, as the
text mode prints it); the client passes its own (``card_label``: "5♥") or, to colour the
suits, walks :attr:`Line.parts` itself -- its ``_line(kind, *parts)`` already treats a tuple
as a run of cards.  :func:`narrate` takes the same ``card`` argument.

Wording conventions: a seat is named by its player's name, else "seat N" counted from 1;
what only you can see is told in the second person ("You hold 4H TC JH.", "You lay away 2S
KS to your crib."); everything public names the player, you included ("Ben plays 4H --
four").  The running count is said in words, as players call it.

How to adopt it
===============

* **Text mode** (``server/text_mode.py``, done): ``narrate(event, names, seat)`` for each
  ``event`` message, ``seat`` being the event's own when it shows a seat's private cards
  (only that seat is sent them).  Without a fold it cannot know whose crib it is or a
  hand's show points, and says less (``"to the crib"``).
* **Live client**: keep one ``TableView(seat=..., names=...)`` per table; hand it every
  ``event``, ``turn``, ``snapshot`` and ``table`` message: ``for line in view.apply(m):
  log(line.kind, *line.parts)``.  A ``snapshot`` starts the view afresh and returns the whole
  story of the game so far (replace the game log with it).  Read the screen's state from the
  view's fields (``hand``, ``pile``, ``count``, ``scores``, ``back_pegs``, ``legal_actions``,
  ``shows``...); after each message, ``view.missed`` says a ``seq`` was skipped (ask for a
  snapshot).
* **Replay**: ``view = TableView.for_record(record)`` and fold :func:`record_events`
  through :meth:`TableView.apply_event`; keep ``view.copy()`` at each point to step back.

A new event kind (manual counting, muggins) is one teller in ``narration.TELLERS`` and, if
it changes the table, one fold in ``table_view._FOLDS``; ``tests/protocol/test_story.py``
fails until every engine event kind has a teller.

Example
=======

>>> view = TableView(seat=0, names=["Ann", "Ben"])
>>> for event in [
...     {"kind": "game_started", "preset": "noddy", "players": 2, "partnerships": False,
...      "target": 31},
...     {"kind": "deal_started", "deal": 1, "dealer": 1},
...     {"kind": "cards_dealt", "seat": 0, "count": 3, "cards": ["TC", "5H", "4D"]},
...     {"kind": "cards_dealt", "seat": 1, "count": 3, "cards": None},
...     {"kind": "turned_up", "card": "JS"},
...     {"kind": "played", "seat": 0, "card": "5H", "count": 5},
...     {"kind": "go", "seat": 1},
... ]:
...     for line in view.apply({"type": "event", "event": event}):
...         print(line.text())
A game of noddy, 2 players, first to 31.
— Deal 1: Ben deals —
You hold 4D 5H TC.
Ben is dealt 3 cards.
Turn-up: JS.
Ann plays 5H — five
Ben says go.
>>> view.hand, view.count, view.hand_sizes
(['4D', 'TC'], 5, [2, 3])
>>> narrate({"kind": "go", "seat": 1}, ["Ann", "Ben"])
'Ben says go.'
>>> narrate({"kind": "played", "seat": 2, "card": "TH", "count": 25}, ["Ann", "Ben"],
...         card=lambda c: c.replace("T", "10"))
'Seat 3 plays 10H — twenty-five'
"""

from __future__ import annotations

from .narration import (
    RANKS,
    SUITS,
    TELLERS,
    CardFormat,
    Known,
    Line,
    Part,
    Show,
    card_order,
    narrate,
    number_words,
    plain_card,
    score_line,
    seat_name,
    side_labels,
    sort_cards,
    tell,
)
from .table_view import TableView, record_events

__all__ = ["Line", "Part", "CardFormat", "Show", "Known", "TableView", "TELLERS", "narrate",
           "tell", "record_events", "number_words", "seat_name", "side_labels", "score_line",
           "sort_cards", "card_order", "plain_card", "RANKS", "SUITS"]
