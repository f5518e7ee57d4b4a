"""Each engine option is one declaration: what the lobby is told of it, and what it refuses."""

from __future__ import annotations

import pytest

from noddy.engine import ENGINE_OPTIONS, InvalidOptionError, OptionSpec, configure, find_preset

DESCRIPTIONS = {name: spec.description for name, spec in ENGINE_OPTIONS.items()}


def test_a_preset_describes_its_options_from_their_declarations() -> None:
    assert find_preset("noddy").describe()["options"] == {
        "target": {"type": "int", "min": 15, "max": 500, "default": 31, "description": DESCRIPTIONS["target"]},
        "knave_noddy": {"type": "bool", "default": True, "description": DESCRIPTIONS["knave_noddy"]},
        "counting": {"type": "choice", "values": ["auto"], "default": "auto",
                     "description": DESCRIPTIONS["counting"]},
        "hitter_counts_thirty_one": {"type": "bool", "default": False,
                                     "description": DESCRIPTIONS["hitter_counts_thirty_one"]},
    }
    assert list(find_preset("noddy-modern").describe()["options"]) == ["target", "knave_noddy", "counting",
                                                                        "four_card"]
    assert find_preset("cribbage").describe()["options"]["counting"]["values"] == ["auto", "manual"]
    assert find_preset("cribbage").describe()["options"]["target"]["default"] == 121
    assert all(DESCRIPTIONS.values())


@pytest.mark.parametrize("options, message, allowed", [
    ({"target": 14}, "option 'target' must be a whole number from 15 to 500, not 14", "15 to 500"),
    ({"target": True}, "option 'target' must be a whole number from 15 to 500, not True", "15 to 500"),
    ({"knave_noddy": "no"}, "option 'knave_noddy' must be true or false, not 'no'", "true or false"),
    ({"counting": "hand"}, "option 'counting' must be \"auto\" or \"manual\", not 'hand'", "auto or manual"),
    ({"counting": ["auto"]}, "option 'counting' must be \"auto\" or \"manual\", not ['auto']", "auto or manual"),
])
def test_a_bad_value_is_refused_with_what_is_allowed(options: dict, message: str, allowed: str) -> None:
    with pytest.raises(InvalidOptionError) as refused:
        configure("cribbage", 2, options=options)
    assert (str(refused.value), refused.value.allowed) == (message, allowed)


def test_the_server_kinds_check_and_describe_alike() -> None:
    timer = OptionSpec("turn_timer", "number", None, "seconds a seat has", minimum=1, maximum=3600)
    password = OptionSpec("password", "str", None, "a private table's password", max_length=4)
    assert timer.check(2.5) == 2.5 and password.check("abcd") == "abcd"
    assert timer.describe() == {"type": "number", "min": 1, "max": 3600, "default": None,
                                "description": "seconds a seat has"}
    assert password.describe() == {"type": "str", "max_length": 4, "default": None,
                                   "description": "a private table's password"}
    with pytest.raises(InvalidOptionError, match=r"must be a number from 1 to 3600, not 0.5"):
        timer.check(0.5)
    with pytest.raises(InvalidOptionError, match=r"must be text of at most 4 characters, not 'abcde'"):
        password.check("abcde")
    with pytest.raises(ValueError):
        OptionSpec("x", "colour")
