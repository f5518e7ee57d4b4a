"""The engine's errors, one class for each kind of wrong, in the manner of python-chess.

Every error is a :class:`ValueError` and carries a stable ``code`` (``"not_your_turn"``,
``"would_pass_31"``...) that the server passes on to clients unchanged, so the protocol's
error codes and the engine's refusals can never drift apart.  An action that raises has
changed nothing: the engine validates everything before it touches any state.

A refusal is read by a person, in their language, but the engine speaks only English and
imports nothing from the protocol: each error keeps its English ``template`` (marked with
:func:`N_` where it is written, so the catalog tool finds it) and its ``params`` apart, and
the server says ``template.format(**params)`` again in each reader's language.  A part of a
message that is words itself (what an option must be) is an :class:`EngineText`, kept
apart the same way; ``str(error)`` is the English, as ever.
"""

from __future__ import annotations

from typing import Any


def N_(text: str) -> str:
    """Marks an English template for the message catalogs where it is written (the protocol's
    ``N_``, which the engine may not import); the server says it in the reader's language."""
    return text


class EngineText(str):
    """English words made from a template and its parameters, which keep them apart: a
    part of an error's message that the server says again in another language.  It *is* its
    English (a ``str``)."""

    template: str
    params: dict[str, Any]

    def __new__(cls, template: str, /, **params: Any) -> "EngineText":
        self = super().__new__(cls, template.format(**params) if params else template)
        self.template = template
        self.params = params
        return self


class NoddyError(ValueError):
    """Base class of every error the engine raises.

    ``NoddyError(N_("seat {seat} does not hold {card}"), seat=1, card=card)``: the message is
    the template with its parameters put in; ``template`` and ``params`` keep them apart."""

    code = "invalid"

    def __init__(self, template: str = "", /, **params: Any) -> None:
        super().__init__(template.format(**params) if params else template)
        self.template = template
        self.params = params


class InvalidCardError(NoddyError):
    """Text that is not a card, such as ``"1H"`` or ``"TX"``."""

    code = "invalid_card"


class RulesError(NoddyError):
    """A table set-up the rules do not allow: unknown preset, bad option, player count."""

    code = "invalid_rules"


class UnknownPresetError(RulesError):
    code = "unknown_preset"


class InvalidOptionError(RulesError):
    """An option the preset does not take, or a value outside what it allows."""

    code = "invalid_option"

    def __init__(self, template: str, /, *, option: str, value: object, allowed: str,
                 **params: Any) -> None:
        super().__init__(template, option=option, value=value, allowed=allowed, **params)
        self.option = option
        self.value = value
        self.allowed = allowed


class PlayerCountError(RulesError):
    code = "invalid_player_count"


class IllegalActionError(NoddyError):
    """An action the game refuses in its present state (base class)."""

    code = "illegal_action"


class GameOverError(IllegalActionError):
    code = "game_over"


class WrongPhaseError(IllegalActionError):
    """For instance a card played while the crib is still being laid away."""

    code = "wrong_phase"


class NotYourTurnError(IllegalActionError):
    code = "not_your_turn"


class CardNotInHandError(IllegalActionError):
    code = "card_not_in_hand"


class WouldPassThirtyOneError(IllegalActionError):
    code = "would_pass_31"


class MustPlayError(IllegalActionError):
    """``go`` said by a player who holds a card that can be played."""

    code = "must_play"


class WrongDiscardError(IllegalActionError):
    """The wrong number of cards laid to the crib, or the same card twice."""

    code = "wrong_discard"


class AlreadyDiscardedError(IllegalActionError):
    code = "already_discarded"


class BadClaimError(IllegalActionError):
    """A claim or a muggins call that is not a whole number in its range (a muggins call
    must state more than was claimed)."""

    code = "bad_claim"
