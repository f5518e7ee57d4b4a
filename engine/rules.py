"""The presets: each game the server offers, written down as data.

A :class:`Rules` object holds every parameter that differs between Noddy, its historical
variants and Cribbage (``../shared/RULES.md`` is the ruling).  The engine reads these
parameters and never asks which preset it is playing, so a new variant is a new entry in
:data:`PRESETS`, not a new branch in the code.

Table options (``target``, ``knave_noddy``, ``counting``, ``hitter_counts_thirty_one``,
``four_card``) are
applied with :func:`configure`, which checks them against what the preset allows and
returns a new frozen :class:`Rules` for that one table:

>>> rules = configure("noddy", players=2, options={"target": 61})
>>> rules.target, rules.hand_size(2), rules.show_before_play
(61, 3, True)
>>> configure("cribbage", players=4)
Traceback (most recent call last):
...
noddy.engine.errors.PlayerCountError: cribbage is played by 2 or 3 players each alone, or by 4 in partnerships; 4 players each alone is not allowed
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Mapping

from .errors import N_, EngineText, InvalidOptionError, PlayerCountError, UnknownPresetError
from .options import COUNTING_MODES, ENGINE_OPTIONS


#: How a run of a given length scores: "noddy" is 2 for three, 4 for four, then one a
#: card; "per_card" is one a card throughout (Cribbage).
RUN_SCALES = ("noddy", "per_card")
#: "three_of_a_suit": any 3+ cards of one suit among hand and turn-up, one a card (Noddy).
#: "whole_hand": every hand card of one suit, one a card, +1 if the turn-up matches; a crib
#: counts only together with the turn-up (Cribbage and noddy-modern).
FLUSH_RULES = ("three_of_a_suit", "whole_hand")


@dataclass(frozen=True)
class Rules:
    """Every parameter of one game.  Per-player-count tables are tuples of pairs."""

    name: str
    title: str
    source: str
    solo_counts: tuple[int, ...]
    partnership_counts: tuple[int, ...]
    hand_sizes: tuple[tuple[int, int], ...]
    crib_discards: tuple[tuple[int, int], ...] = ()
    crib_from_pack: tuple[tuple[int, int], ...] = ()
    target: int = 31
    # The turned-up Jack, scored at the deal.
    turned_jack_points: int = 2
    turned_jack_to_dealer: bool = False
    turned_jack_name: str = "knave noddy"
    first_deal_bonus: int = 0
    # Order of a deal.
    show_before_play: bool = True
    play_restarts: bool = False
    # The show.
    fifteen_points: int = 2
    show_twenty_five: str | None = "per_card"  # "per_card", "fixed" or None
    twenty_five_fixed_points: int = 2
    show_thirty_one: bool = True
    pair_points: tuple[int, int, int] = (2, 6, 12)
    run_scale: str = "noddy"
    flush_rule: str = "three_of_a_suit"
    held_jack_points: int = 1
    held_jack_name: str = "knave noddy"
    picture_points: tuple[tuple[str, int], ...] = ()
    # The play.
    play_twenty_five: str | None = "per_card"
    play_flush: bool = False
    last_card_points: int = 1
    last_card_name: str = "last card"
    thirty_one_points: int = 2
    thirty_one_name: str = "hitter"
    hitter_counts_thirty_one: bool = False
    # Counting by hand (option ``counting: "manual"``): each owner claims its show and the
    # opponents may call muggins.  Only where the show follows the play (see configure).
    counting_by_hand: bool = False
    # Skunks: how far below the target a losing side must end for a skunk, then a double
    # skunk (see noddy.engine.outcome.judge_skunk); () where the game has none (Noddy).
    skunk_margins: tuple[int, ...] = ()
    # Which table options this preset takes (besides target, knave_noddy and counting,
    # always taken).
    extra_options: tuple[str, ...] = ()
    option_values: tuple[tuple[str, Any], ...] = field(default=())

    # -- per-player-count look-ups -------------------------------------------------------
    # The tables below are built once per Rules object (they are asked at every deal, and
    # ``discards`` at every crib turn's legal actions), not a dict per question.
    @cached_property
    def _hand_size_table(self) -> dict[int, int]:
        return dict(self.hand_sizes)

    @cached_property
    def _discard_table(self) -> dict[int, int]:
        return dict(self.crib_discards)

    @cached_property
    def _pack_to_crib_table(self) -> dict[int, int]:
        return dict(self.crib_from_pack)

    def hand_size(self, players: int) -> int:
        return self._hand_size_table[players]

    def discards(self, players: int) -> int:
        """Cards each player lays away to the crib (0 where there is no crib)."""
        return self._discard_table.get(players, 0)

    def pack_to_crib(self, players: int) -> int:
        return self._pack_to_crib_table.get(players, 0)

    @property
    def has_crib(self) -> bool:
        return bool(self.crib_discards)

    @property
    def options(self) -> dict[str, Any]:
        """The table options this object was configured with."""
        return dict(self.option_values)

    @cached_property
    def pictures(self) -> dict[int, int]:
        """Points for picture cards held, by card index (Holme's K♠ Q♥ J♥)."""
        from .cards import Card

        return {Card.parse(text).index: points for text, points in self.picture_points}

    def run_points(self, length: int) -> int:
        if self.run_scale == "noddy" and length == 3:
            return 2
        return length

    def allowed_options(self) -> tuple[str, ...]:
        return ("target", "knave_noddy", "counting") + self.extra_options

    @property
    def manual_counting_allowed(self) -> bool:
        """Counting by hand needs every card of a show on the table when it is counted, so
        that the others can check the claim: true where the show follows the play."""
        return not self.show_before_play

    def describe(self) -> dict[str, Any]:
        """What a lobby shows of a preset: name, title, player counts and options (each as
        its declaration describes it: :data:`~noddy.engine.options.ENGINE_OPTIONS`)."""
        allowed = self.allowed_options()
        given: dict[str, dict[str, Any]] = {
            "target": {"default": self.target},
            "counting": {"values": COUNTING_MODES if self.manual_counting_allowed else COUNTING_MODES[:1]},
        }
        options = {name: spec.describe(**given.get(name, {}))
                   for name, spec in ENGINE_OPTIONS.items() if name in allowed}
        return {
            "name": self.name,
            "title": self.title,
            "players": list(self.solo_counts),
            "partnership_players": list(self.partnership_counts),
            "options": options,
        }


_NODDY = Rules(
    name="noddy",
    title="Noddy (Parlett's reconstruction)",
    source="004 + 002",
    solo_counts=(2,),
    partnership_counts=(4,),
    hand_sizes=((2, 3), (4, 3)),
    play_flush=True,
    extra_options=("hitter_counts_thirty_one",),
)

# Cribbage as 003 plays it; noddy-modern and five-card Cribbage differ from it only in the
# parameters they replace.
_CRIBBAGE = Rules(
    name="cribbage",
    title="Cribbage",
    source="003",
    solo_counts=(2, 3),
    partnership_counts=(4,),
    hand_sizes=((2, 6), (3, 5), (4, 5)),
    crib_discards=((2, 2), (3, 1), (4, 1)),
    crib_from_pack=((3, 1),),
    target=121,
    turned_jack_points=2,
    turned_jack_to_dealer=True,
    turned_jack_name="his heels",
    show_before_play=False,
    play_restarts=True,
    show_twenty_five=None,
    show_thirty_one=False,
    run_scale="per_card",
    flush_rule="whole_hand",
    held_jack_name="his nob",
    play_twenty_five=None,
    last_card_name="go",
    thirty_one_name="thirty-one",
    skunk_margins=(30, 60),
)

PRESETS: dict[str, Rules] = {
    "noddy": _NODDY,
    "noddy-ducoeur": dataclasses.replace(
        _NODDY,
        name="noddy-ducoeur",
        title="Noddy (du Coeur's reconstruction)",
        source="004, Variants",
        turned_jack_to_dealer=True,
        show_twenty_five="fixed",
        play_twenty_five="fixed",
    ),
    "noddy-holme": dataclasses.replace(
        _NODDY,
        name="noddy-holme",
        title="Noddy (Randle Holme's scores)",
        source="004, Variants",
        target=61,
        show_twenty_five="fixed",
        play_twenty_five="fixed",
        pair_points=(4, 12, 24),
        held_jack_points=2,
        picture_points=(("KS", 6), ("QH", 4), ("JH", 5)),
    ),
    "noddy-modern": dataclasses.replace(
        _CRIBBAGE,
        name="noddy-modern",
        title="Noddy (modern German rules)",
        source="000",
        solo_counts=(2, 3, 4),
        partnership_counts=(4,),
        hand_sizes=((2, 3), (3, 3), (4, 3)),
        crib_discards=(),
        crib_from_pack=(),
        target=31,
        turned_jack_points=1,
        skunk_margins=(),
        extra_options=("four_card",),
    ),
    "five-card-cribbage": dataclasses.replace(
        _CRIBBAGE,
        name="five-card-cribbage",
        title="Five-card Cribbage",
        source="004 Early Cribbage; Hoyle",
        solo_counts=(2,),
        partnership_counts=(),
        hand_sizes=((2, 5),),
        crib_discards=((2, 2),),
        crib_from_pack=(),
        target=61,
        first_deal_bonus=3,
        play_restarts=False,
    ),
    "cribbage": _CRIBBAGE,
}

DEFAULT_PRESET = "noddy"


def find_preset(name: str | Rules) -> Rules:
    """The preset called ``name`` (a :class:`Rules` passes through unchanged)."""
    if isinstance(name, Rules):
        return name
    try:
        return PRESETS[name]
    except (KeyError, TypeError):
        known = ", ".join(PRESETS)
        raise UnknownPresetError(N_("unknown preset {name!r}; the presets are: {known}"),
                                 name=name, known=known) from None


def _either(counts: tuple[int, ...]) -> str:
    """``(2, 3, 4)`` -> ``"2, 3 or 4"``."""
    words = [str(n) for n in counts]
    if len(words) == 1:
        return words[0]
    return EngineText(N_("{some} or {last}"), some=", ".join(words[:-1]), last=words[-1])


#: How a refused player count is said: by (partnerships, one player).
_NOT_ALLOWED = {
    (False, False): N_("{preset} is played by {ways}; {players} players each alone is not allowed"),
    (False, True): N_("{preset} is played by {ways}; {players} player each alone is not allowed"),
    (True, False): N_("{preset} is played by {ways}; {players} players in partnerships is not allowed"),
    (True, True): N_("{preset} is played by {ways}; {players} player in partnerships is not allowed"),
}


def _player_text(rules: Rules) -> str:
    solo = partners = None
    if rules.solo_counts:
        solo = EngineText(N_("{counts} players each alone"), counts=_either(rules.solo_counts))
    if rules.partnership_counts:
        partners = EngineText(N_("{counts} in partnerships"), counts=_either(rules.partnership_counts))
    if solo is not None and partners is not None:
        return EngineText(N_("{solo}, or by {partners}"), solo=solo, partners=partners)
    return solo if solo is not None else partners or ""


def check_players(rules: Rules, players: int, partnerships: bool) -> None:
    """Raise :class:`PlayerCountError` unless the preset is played by this many players."""
    if not isinstance(players, int) or isinstance(players, bool):
        raise PlayerCountError(N_("players must be a whole number, not {players!r}"), players=players)
    allowed = rules.partnership_counts if partnerships else rules.solo_counts
    if players in allowed:
        return
    raise PlayerCountError(_NOT_ALLOWED[(partnerships, players == 1)], preset=rules.name,
                           ways=_player_text(rules), players=players)


def _counting_option(rules: Rules, value: object) -> bool:
    """``"manual"`` -> True, ``"auto"`` -> False (checked already); refused where nobody
    could check a count."""
    if value == "manual" and not rules.manual_counting_allowed:
        raise InvalidOptionError(
            N_("counting by hand does not apply to {preset}: its shows are made before the "
               "play, concealed, so nobody could check a claim or call muggins; "
               "use counting \"auto\", or a preset whose show follows the play "
               "(noddy-modern, five-card-cribbage, cribbage)"),
            option="counting", value=value, allowed="auto", preset=rules.name,
        )
    return value == "manual"


def configure(
    preset: str | Rules,
    players: int = 2,
    *,
    partnerships: bool = False,
    options: Mapping[str, Any] | None = None,
) -> Rules:
    """Check a table's set-up and return the rules with its options applied.

    Raises :class:`~noddy.engine.errors.UnknownPresetError`,
    :class:`~noddy.engine.errors.PlayerCountError` or
    :class:`~noddy.engine.errors.InvalidOptionError`; each message names the offending value
    and what is allowed.

    A :class:`Rules` object given without options is taken as configured already (what
    this function returned for a table) and comes back as it is, after the player-count
    check: the server starts every game from its table's rules, and building an equal copy
    each time was a tenth of the cost of dealing a game.
    """
    rules = find_preset(preset)
    check_players(rules, players, partnerships)
    if isinstance(preset, Rules) and not options:
        return rules
    if isinstance(preset, Rules) and rules.option_values:
        # Already configured for a table: start again from the preset with its options kept,
        # so configuring twice never loses (or doubly applies) an option.
        merged = dict(rules.option_values)
        merged.update(options or {})
        rules, options = PRESETS.get(rules.name, rules), merged
    options = dict(options or {})
    changes: dict[str, Any] = {}
    allowed = rules.allowed_options()
    for name, value in options.items():
        if name not in allowed:
            raise InvalidOptionError(
                N_("option {option!r} (given {value!r}) does not apply to {preset}; "
                   "its options are: {allowed}"),
                option=name, value=value, allowed=", ".join(allowed), preset=rules.name,
            )
        ENGINE_OPTIONS[name].check(value)
        if name == "target":
            changes["target"] = value
        elif name == "knave_noddy":
            if not value:
                changes["turned_jack_points"] = 0
        elif name == "hitter_counts_thirty_one":
            changes["hitter_counts_thirty_one"] = value
        elif name == "counting":
            changes["counting_by_hand"] = _counting_option(rules, value)
        elif name == "four_card":
            if value:
                changes["hand_sizes"] = tuple((n, 4) for n, _ in rules.hand_sizes)
    changes["option_values"] = tuple(sorted(options.items()))
    return dataclasses.replace(rules, **changes)
