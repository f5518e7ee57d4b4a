"""The rules engine: pure, deterministic, and free of any I/O.

Everything a server, a client-side helper or a bot needs is importable from here::

    from noddy.engine import Card, Game, Play, Go, Discard, score_show, score_play

See :mod:`noddy.engine.game` for how a game is driven (its "theory of operation").
"""

from .actions import (MAX_CLAIM, Abandon, Action, Claim, Discard, Go, Muggins, Pass, Play, Resign, TakeBack,
                      describe_legal)
from .cards import FULL_DECK, Card, format_cards, parse_cards
from .errors import (
    AlreadyDiscardedError,
    BadClaimError,
    CardNotInHandError,
    GameOverError,
    IllegalActionError,
    InvalidCardError,
    InvalidOptionError,
    MustPlayError,
    NoddyError,
    NotYourTurnError,
    PlayerCountError,
    RulesError,
    UnknownPresetError,
    WouldPassThirtyOneError,
    WrongDiscardError,
    WrongPhaseError,
)
from .events import (
    EVENT_TYPES,
    CardsDealt,
    Claimed,
    ClaimRefused,
    CountingStarted,
    CountReset,
    CutForDeal,
    DealEnded,
    DealStarted,
    Discarded,
    Event,
    GameOver,
    GameStarted,
    HandsRevealed,
    MugginsCalled,
    MugginsPassed,
    Played,
    SaidGo,
    Scored,
    ShowCounted,
    TurnedUp,
)
from .game import Game, Observation, ShowToCount
from .options import ENGINE_OPTIONS, OptionSpec
from .outcome import ENDINGS, SKUNKS, Outcome, judge_skunk
from .rules import DEFAULT_PRESET, PRESETS, Rules, configure, find_preset
from .score_items import Score, ScoreItem, number_words
from .scoring import score_play, score_show, show_total

__all__ = [
    "Abandon", "Resign", "TakeBack",
    "MAX_CLAIM", "Claim", "Muggins", "Pass", "describe_legal", "BadClaimError", "ClaimRefused",
    "Claimed", "CountingStarted", "MugginsCalled", "MugginsPassed", "ShowCounted", "ShowToCount",
    "Action", "Discard", "Go", "Play", "FULL_DECK", "Card", "format_cards", "parse_cards",
    "AlreadyDiscardedError", "CardNotInHandError", "GameOverError", "IllegalActionError",
    "InvalidCardError", "InvalidOptionError", "MustPlayError", "NoddyError",
    "NotYourTurnError", "PlayerCountError", "RulesError", "UnknownPresetError",
    "WouldPassThirtyOneError", "WrongDiscardError", "WrongPhaseError", "EVENT_TYPES",
    "CardsDealt", "CountReset", "CutForDeal", "DealEnded", "DealStarted", "Discarded",
    "Event", "GameOver", "GameStarted", "HandsRevealed", "Played", "SaidGo", "Scored",
    "TurnedUp", "Game", "Observation", "Outcome", "ENDINGS", "SKUNKS", "judge_skunk", "OptionSpec", "ENGINE_OPTIONS", "DEFAULT_PRESET", "PRESETS", "Rules", "configure",
    "find_preset", "Score", "ScoreItem", "number_words", "score_play", "score_show",
    "show_total",
]
