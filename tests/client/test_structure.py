"""The client's folders stay readable: no import circle among its modules, none over 500
lines, and each opens by saying what it holds.

The modules are found by walking ``client/`` recursively (its subpackages too), and their
imports read with :mod:`ast`, not by importing them: ``from .x``, ``from ..x``, ``from . import
x`` and ``noddy.client.x`` all count, wherever they stand in the module (an import inside a
function is still an arrow between two modules).  A package's ``__init__`` is the module of
the package's own name; importing a submodule is not counted as importing its package.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from ..layout import find_cycle, import_graph, modules

CLIENT = Path(__file__).resolve().parents[2] / "client"
PACKAGE = "noddy.client"
MAX_LINES = 500


def client_modules(folder: Path = CLIENT, package: str = PACKAGE) -> dict[str, Path]:
    """Every module under ``folder``, by its import name (see :func:`tests.layout.modules`)."""
    return modules(folder, package)


def test_the_walk_sees_the_subpackages() -> None:
    modules = client_modules()
    assert {"noddy.client.app", "noddy.client.render", "noddy.client.render.table",
            "noddy.client.screens", "noddy.client.screens.form"} <= set(modules)


def test_no_import_circle_among_client_modules() -> None:
    graph = import_graph(client_modules())
    assert "noddy.client.render" in graph["noddy.client.screens.records"]   # the walk reads
    assert "noddy.client.render.fragments" in graph["noddy.client.render"]  # relative imports
    assert find_cycle(graph) is None


def test_the_checker_sees_a_circle(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "__init__.py").write_text('"""Top."""\n')
    (tmp_path / "a.py").write_text("from .sub import b\n")
    (tmp_path / "sub" / "__init__.py").write_text("")
    (tmp_path / "sub" / "b.py").write_text("def f():\n    from ..c import x\n")
    (tmp_path / "c.py").write_text("import noddy.fake.a\n")
    graph = import_graph(client_modules(tmp_path, "noddy.fake"))
    assert graph["noddy.fake.a"] == {"noddy.fake.sub.b"}
    assert find_cycle(graph) == ["noddy.fake.a", "noddy.fake.sub.b", "noddy.fake.c",
                                 "noddy.fake.a"]
    (tmp_path / "c.py").write_text("from . import sub\n")        # the package, not b: no circle
    assert find_cycle(import_graph(client_modules(tmp_path, "noddy.fake"))) is None


@pytest.mark.parametrize("module", sorted(client_modules()))
def test_no_client_module_is_over_500_lines(module: str) -> None:
    lines = len(client_modules()[module].read_text().splitlines())
    assert lines <= MAX_LINES, f"{module} has {lines} lines: split it by idea"


@pytest.mark.parametrize("module", sorted(client_modules()))
def test_every_client_module_says_what_it_holds(module: str) -> None:
    path = client_modules()[module]
    assert ast.get_docstring(ast.parse(path.read_text())), f"{module} opens with no docstring"
