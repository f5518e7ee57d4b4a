"""The engine's layout: modules that say what they hold, import each other one way, keep out
of each other's private state, and stay well inside the line limit.

The checks read the modules with :mod:`ast` (``tests/layout.py``, shared with the server's,
the client's and the bots' layout tests), so a type-checking import counts as an import:
a helper that imports :class:`~noddy.engine.game.Game` "only for types" while ``game``
imports the helper is a circle.  A helper that needs the game types it against
:class:`~noddy.engine.game_state.GameState` and is handed the state objects it works on.
"""

from __future__ import annotations

import ast
from pathlib import Path

import noddy.engine

from ..layout import find_cycle, import_graph, modules, unknown_imports

ENGINE = Path(noddy.engine.__file__).resolve().parent
PACKAGE = "noddy.engine"
#: The project's limit is 500 lines, a smoke detector: a module within 10 % of it is one to
#: split by what its parts do (never by squeezing lines), so the engine's own bound is 450.
MAX_LINES = 450


def test_every_engine_module_opens_with_what_it_holds_and_is_well_inside_the_limit() -> None:
    found = modules(ENGINE, PACKAGE)
    assert len(found) >= 12
    too_long = []
    for name, path in found.items():
        text = path.read_text()
        assert ast.get_docstring(ast.parse(text)), f"{path.name} has no opening docstring"
        if len(text.splitlines()) > MAX_LINES:
            too_long.append(f"{path.name}: {len(text.splitlines())} lines")
    assert too_long == []


def test_every_engine_import_names_an_engine_module() -> None:
    assert unknown_imports(modules(ENGINE, PACKAGE), PACKAGE) == []


def test_engine_modules_import_each_other_one_way_only() -> None:
    graph = import_graph(modules(ENGINE, PACKAGE))
    assert "noddy.engine.by_hand" in graph["noddy.engine.game"]  # (the graph is read at all)
    assert find_cycle(graph) is None


def test_the_cycle_check_sees_a_type_checking_import_of_the_game(tmp_path: Path) -> None:
    (tmp_path / "__init__.py").write_text("")
    (tmp_path / "game.py").write_text("from . import by_hand\n")
    (tmp_path / "by_hand.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                         "    from .game import Game\n")
    graph = import_graph(modules(tmp_path, PACKAGE))
    assert find_cycle(graph) == ["noddy.engine.by_hand", "noddy.engine.game", "noddy.engine.by_hand"]


def _private_names(tree: ast.Module) -> set[str]:
    """The private (``_name``, not ``__dunder__``) attributes of the classes ``tree``
    defines: their methods, names in their bodies and ``__slots__``, and what their
    methods set on ``self``."""
    names: set[str] = set()
    for cls in [node for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]:
        for node in ast.walk(cls):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                    and node.value.id == "self":
                names.add(node.attr)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                names.add(node.value)  # (a name in __slots__)
    return {name for name in names if _is_private(name)}


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_reaches(source: str) -> list[str]:
    """Where ``source`` touches a private attribute of an object that is not its own:
    ``x._name``, ``x`` not ``self`` or ``cls``, where no class of ``source`` has ``_name``
    (a class may handle its own kind's private state, as a copy does: ``other._rng``)."""
    tree = ast.parse(source)
    own = _private_names(tree)
    problems = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _is_private(node.attr) and node.attr not in own:
            if not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                problems.append(f"line {node.lineno}: {ast.unparse(node)}")
    return problems


def test_no_engine_module_reaches_into_another_modules_private_state() -> None:
    problems = []
    for name, path in modules(ENGINE, PACKAGE).items():
        problems += [f"{name} {problem}" for problem in private_reaches(path.read_text())]
    assert problems == []


def test_the_private_state_check_sees_a_helper_reaching_into_the_game() -> None:
    source = '''
class Game:
    def __init__(self):
        self._counting = None
    def copy(self):
        other = object.__new__(Game)
        other._counting = self._counting        # its own kind's state: fine
        return other
'''
    helper = '''
def claim(game, counting):
    counting.claimed = 3                        # the object it was handed: fine
    game._peg()                                 # the game's private method
    return game._counting.worth, self._x        # the game's private state
'''
    assert private_reaches(source) == []
    assert private_reaches(helper) == ["line 4: game._peg", "line 5: game._counting"]
