"""The engine's modules: each opens with what it holds, none is over 500 lines."""

from __future__ import annotations

import ast
from pathlib import Path

import noddy.engine

ENGINE = Path(noddy.engine.__file__).resolve().parent


def test_every_engine_module_opens_with_what_it_holds_and_is_small() -> None:
    modules = sorted(ENGINE.rglob("*.py"))
    assert len(modules) >= 12
    for path in modules:
        text = path.read_text()
        assert ast.get_docstring(ast.parse(text)), f"{path.name} has no opening docstring"
        assert len(text.splitlines()) <= 500, f"{path.name} has {len(text.splitlines())} lines"
