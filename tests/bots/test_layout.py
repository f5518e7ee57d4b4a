"""The shape of the bots package: imports run one way; modules stay small, say what they hold.

Every module under ``bots/`` (subfolders too) is parsed, not imported: no module may import
another that imports it back, however long the way round (relative imports and
``noddy.bots.`` ones, at the top of the module or inside a function); none is over
:data:`MAX_LINES` lines; each opens with a docstring.
"""

from __future__ import annotations

import ast
import doctest
import tomllib
from fnmatch import fnmatch
from pathlib import Path

import pytest

import noddy.bots.crib_table

from ..layout import find_cycle, import_graph, modules

ROOT = Path(__file__).resolve().parent.parent.parent
BOTS = ROOT / "bots"
MAX_LINES = 500


def bots_modules(folder: Path, package: str = "noddy.bots") -> dict[str, Path]:
    """Every module under ``folder``, recursively, by its import name."""
    return modules(folder, package)


def import_cycles(folder: Path, package: str = "noddy.bots") -> list[list[str]]:
    """An import cycle among the modules under ``folder``, as the modules in order (the first
    repeated at the end); empty if the imports all run one way."""
    cycle = find_cycle(import_graph(bots_modules(folder, package)))
    return [] if cycle is None else [cycle]


def test_no_bots_module_imports_one_that_imports_it_back() -> None:
    assert len(bots_modules(BOTS)) > 10
    assert import_cycles(BOTS) == []


def test_the_cycle_finder_sees_a_cycle_however_it_is_written(tmp_path: Path) -> None:
    """A cycle through a subfolder, a function-level import and both spellings is found;
    imports that all run one way are not a cycle."""
    root = tmp_path / "bots"
    (root / "deep").mkdir(parents=True)
    (root / "__init__.py").write_text('"""Package."""\nfrom .a import x\n')
    (root / "a.py").write_text('"""A."""\nfrom noddy.bots.deep import b\nx = 1\n')
    (root / "deep" / "__init__.py").write_text('"""Deep."""\n')
    (root / "deep" / "b.py").write_text('"""B."""\ndef f():\n    from ..c import y\n')
    (root / "c.py").write_text('"""C."""\nfrom . import base\nimport noddy.bots.d\ny = 2\n')
    (root / "base.py").write_text('"""Base."""\nimport json\n')
    (root / "d.py").write_text('"""D."""\nimport json\n')
    assert import_cycles(root) == []
    (root / "d.py").write_text('"""D."""\nfrom .a import x\n')
    assert import_cycles(root) == [["noddy.bots.a", "noddy.bots.deep.b", "noddy.bots.c",
                                    "noddy.bots.d", "noddy.bots.a"]]


@pytest.mark.parametrize("name", sorted(bots_modules(BOTS)))
def test_no_bots_module_is_over_500_lines(name: str) -> None:
    lines = len(bots_modules(BOTS)[name].read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{name} has {lines} lines: split it by idea"


@pytest.mark.parametrize("name", sorted(bots_modules(BOTS)))
def test_every_bots_module_opens_with_a_docstring(name: str) -> None:
    tree = ast.parse(bots_modules(BOTS)[name].read_text(encoding="utf-8"))
    docstring = ast.get_docstring(tree)
    assert docstring and len(docstring.split()) >= 5, f"{name} does not say what it holds"


def test_the_crib_table_examples_run() -> None:
    result = doctest.testmod(noddy.bots.crib_table)
    assert result.failed == 0 and result.attempted > 0


def test_the_crib_table_file_is_declared_package_data() -> None:
    """A wheel (not only an editable install) carries the data file the table is read from."""
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    patterns = setuptools.get("package-data", {}).get("noddy.bots", [])
    relative = Path(noddy.bots.crib_table.DATA_PATH).resolve().relative_to(BOTS).as_posix()
    assert any(fnmatch(relative, pattern) for pattern in patterns), (relative, patterns)
