"""The phases of a deal, as :attr:`Game.phase <noddy.engine.game.Game.phase>` names them."""

DISCARD = "discard"
PLAY = "play"
CLAIM = "claim"
MUGGINS = "muggins"
OVER = "over"
