"""The examples in the docstrings run, so that the documentation stays true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "noddy.engine.cards", "noddy.engine.rules", "noddy.engine.scoring", "noddy.engine.actions",
    "noddy.engine.game", "noddy.engine.options", "noddy.engine.outcome", "noddy.bots",
    "noddy.bots.show_batch", "noddy.server.text.commands", "noddy.bots.results",
    "noddy.bots.tables",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
