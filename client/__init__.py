"""The full-screen terminal client: it speaks only the protocol (``noddy.protocol``).

Its folders are its rooms:

* the top level holds what every screen shares: the application and its loop
  (:mod:`~noddy.client.app`, with its frame in :mod:`~noddy.client.layout` and its own keys
  in :mod:`~noddy.client.bindings`), the command line (:mod:`~noddy.client.cli`), the
  connection, the session and the composed view model (:mod:`~noddy.client.connection`,
  :mod:`~noddy.client.session`, :mod:`~noddy.client.model`), the resume tokens kept on disk
  (:mod:`~noddy.client.state`), and the small values the screens show
  (:mod:`~noddy.client.cards`, :mod:`~noddy.client.lines`); how a screen declares its keys
  (:mod:`~noddy.client.keymap`), the keys of no one screen (:mod:`~noddy.client.anywhere`),
  what the declarations add up to (:mod:`~noddy.client.keys`: the help, the requests sent),
  and the words the new-table form shows for options it knows (:mod:`~noddy.client.option_words`);
* :mod:`noddy.client.screens` holds one screen (or one part of the table screen) a module: an
  object with its state and its keys, each key declared once with its help line (the lobby,
  the new-table form, the table and its game, counting by hand, the coach, the finished games
  and their replay, who is on), and each screen's windows (its layout: in the screen's
  module, or, where that module is part of the view model the windows draw from, in a
  ``*_layout`` module beside it: the lobby's, the form's, the table's);
* :mod:`noddy.client.render` holds the drawing several screens share (cards, the board, a log,
  the bars), one module per kind of panel, behind one door (the package itself).

Imports point down or sideways, never round in a circle (tests/client/test_structure.py).
"""
