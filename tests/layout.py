"""Reading a package's layout for the layout tests: its modules, found by walking its folder
recursively, and the imports of each, read with :mod:`ast` (not by importing them).

One reader for every layout test (the layers in ``test_architecture``, the import circles and
module sizes of the server, the client and the bots), so that they agree on what counts as
an import: ``from .x``, ``from ..x``, ``from . import x`` and absolute names alike, wherever
they stand in a module (one inside a function is still an arrow between two modules).  A
package's ``__init__`` is the module of the package's own name; importing a submodule is not
counted as importing its package.
"""

from __future__ import annotations

import ast
from pathlib import Path


def modules(folder: Path, package: str) -> dict[str, Path]:
    """Every module under ``folder``, by its import name (a package by its own name)."""
    found = {}
    for path in sorted(folder.rglob("*.py")):
        parts = [p for p in path.relative_to(folder).with_suffix("").parts if p != "__init__"]
        found[".".join([package, *parts])] = path
    return found


def _imports(module: str, path: Path) -> list[tuple[str, list[str]]]:
    """Each import of ``module`` (at ``path``) as ``(source, names)``: ``import a.b`` is
    ``("a.b", [])``, ``from .x import y`` is ``("<package>.x", ["y"])``."""
    here = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    found: list[tuple[str, list[str]]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            found.append((source, [alias.name for alias in node.names]))
    return found


def import_sources(module: str, path: Path) -> set[str]:
    """Every module name ``module`` imports from, resolved (the standard library's too)."""
    return {source for source, _names in _imports(module, path)}


def imported(module: str, path: Path, known: set[str]) -> set[str]:
    """The modules of ``known`` that ``module`` (at ``path``) imports.  ``from pkg import x``
    imports the module pkg.x when there is one, else a name defined in pkg itself."""
    names: set[str] = set()
    for source, items in _imports(module, path):
        submodules = {f"{source}.{item}" for item in items} & known
        names |= submodules
        if len(submodules) < len(items) or not items:
            names.add(source)
    return (names & known) - {module}


def unknown_imports(found: dict[str, Path], package: str) -> list[str]:
    """``"a imports b"`` for each import of a name under ``package`` that is no module there
    (a module moved away and an import left behind: a type-checking one never fails)."""
    problems = []
    for module, path in found.items():
        for source, _items in _imports(module, path):
            if (source == package or source.startswith(package + ".")) and source not in found:
                problems.append(f"{module} imports {source}")
    return problems


def import_graph(found: dict[str, Path]) -> dict[str, set[str]]:
    """Each module's imports of the others."""
    return {module: imported(module, path, set(found)) for module, path in found.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle (its modules in order, the first repeated at the end), or None."""
    state: dict[str, str] = {}          # "open" while on the path, "done" once cleared
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = "open"
        path.append(module)
        for target in sorted(graph.get(module, ())):
            if state.get(target) == "open":
                return path[path.index(target):] + [target]
            if target not in state:
                cycle = visit(target)
                if cycle:
                    return cycle
        path.pop()
        state[module] = "done"
        return None

    for module in sorted(graph):
        if module not in state:
            cycle = visit(module)
            if cycle:
                return cycle
    return None
