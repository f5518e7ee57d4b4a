"""The examples in the text commands' module docstrings hold (they document how a typed
line becomes a request, so a wrong one would mislead whoever reads them)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["commands", "words", "seat_commands", "move_commands", "people_commands",
           "session_commands", "record_commands", "club_text", "wrapping"]


@pytest.mark.parametrize("name", MODULES)
def test_the_module_examples_hold(name: str) -> None:
    module = importlib.import_module(f"noddy.server.text.{name}")
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
