"""Noddy: a card-game server for Noddy, Cribbage and their relatives.

The distribution is split into subpackages that depend on each other in one direction only:
``noddy.engine`` (pure rules) <- ``noddy.server`` (tables, lobby, network) -> ``noddy.protocol``
(message types and codec); ``noddy.client`` -> ``noddy.protocol``.
"""

__version__ = "0.1.0"
