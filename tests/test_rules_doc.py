"""docs/RULES.md describes what the engine plays: its worked examples run as a doctest, and
its tables name every preset and option the engine has."""

from __future__ import annotations

import doctest
import pathlib
import re

from noddy.engine import PRESETS

RULES = pathlib.Path(__file__).resolve().parent.parent / "docs" / "RULES.md"


def test_the_worked_examples_are_what_the_engine_says() -> None:
    result = doctest.testfile(str(RULES), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted >= 25


def test_every_preset_and_option_is_described() -> None:
    text = RULES.read_text()
    header = next(line for line in text.splitlines() if line.startswith("| | `noddy`"))
    assert sorted(re.findall(r"`([a-z-]+)`", header)) == sorted(PRESETS)
    options = {name for rules in PRESETS.values() for name in rules.describe()["options"]}
    for name in options:
        assert f"| `{name}` |" in text, name
