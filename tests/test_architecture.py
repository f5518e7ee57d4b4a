"""The layers point one way.  Parsing every module's imports keeps these arrows true:

    engine (pure rules)  <-  server  ->  protocol  <-  client
    bots -> engine, protocol

The engine has no I/O at all (no asyncio, json, sockets); the protocol is standard library
only; the client speaks only the protocol and never reaches into the server or engine.
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import pytest

from .layout import import_sources, modules

ROOT = Path(__file__).resolve().parent.parent
PACKAGE_DIRS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]

# For each package: the noddy packages it may import, and standard-library modules it may not.
ALLOWED_NODDY = {
    "noddy.engine": {"noddy.engine"},
    "noddy.protocol": {"noddy.protocol"},
    "noddy.bots": {"noddy.bots", "noddy.engine", "noddy.protocol"},
    "noddy.server": {"noddy.server", "noddy.engine", "noddy.protocol", "noddy.bots", "noddy"},
    "noddy.client": {"noddy.client", "noddy.protocol", "noddy"},
}
FORBIDDEN_STDLIB = {
    "noddy.engine": {"asyncio", "json", "socket", "socketserver", "selectors", "ssl", "threading"},
}
THIRD_PARTY_ALLOWED = {
    "noddy.engine": set(),
    "noddy.protocol": set(),
    "noddy.bots": set(),
    "noddy.server": set(),
    "noddy.client": {"prompt_toolkit"},
}


def _modules(package: str) -> list[tuple[str, Path]]:
    return list(modules(ROOT / PACKAGE_DIRS[package], package).items())


def _imports(module: str, path: Path) -> set[str]:
    return import_sources(module, path)


def _noddy_package(name: str) -> str:
    parts = name.split(".")
    return ".".join(parts[:2]) if len(parts) > 1 else "noddy"


@pytest.mark.parametrize("package", sorted(ALLOWED_NODDY))
def test_imports_follow_the_layers(package: str) -> None:
    problems = []
    for module, path in _modules(package):
        for name in sorted(_imports(module, path)):
            top = name.split(".")[0]
            if top == "noddy":
                if _noddy_package(name) not in ALLOWED_NODDY[package]:
                    problems.append(f"{module} imports {name}")
            elif top in sys.stdlib_module_names or top == "__future__":
                if top in FORBIDDEN_STDLIB.get(package, set()):
                    problems.append(f"{module} imports {name}")
            elif top not in THIRD_PARTY_ALLOWED[package]:
                problems.append(f"{module} imports third-party {name}")
    assert problems == []


def test_the_checker_sees_a_forbidden_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import asyncio\nfrom ..server import net\nfrom . import cards\n")
    assert _imports("noddy.engine.bad", bad) == {"asyncio", "noddy.server", "noddy.engine"}


#: The line limit is a smoke detector (issue 32): no module may stand within 10 % of it, so a
#: module that grows is split by what its parts do long before anyone is tempted to squeeze.
LINE_LIMIT = 500
NEAR_THE_LIMIT = LINE_LIMIT * 9 // 10


def test_no_module_stands_within_a_tenth_of_the_line_limit() -> None:
    near = {name: lines for name, lines in
            ((str(path.relative_to(ROOT)), len(path.read_text().splitlines()))
             for folder in PACKAGE_DIRS.values() for path in (ROOT / folder).rglob("*.py"))
            if lines > NEAR_THE_LIMIT}
    assert near == {}
