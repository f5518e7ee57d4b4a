"""The server's layout: folders that show its rooms, parts that keep to their own state.

The checks walk ``server/`` recursively (a module moved into a subpackage stays checked):
no import circle among the server's modules (type-checking imports included), the folders
depend on each other one way only, every module opens with a docstring saying what it holds,
none is over 500 lines, and no part of the core changes another part's state: a part may
call a collaborator's methods, never assign to it, index into it or mutate what it holds.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import noddy.server
from noddy.protocol import REQUESTS
from noddy.server.core import BotJob, Close, Effects, Query, Send, ServerCore
from noddy.server.model.table import Session

from ..layout import find_cycle, import_graph, modules, unknown_imports

SERVER = Path(noddy.server.__file__).resolve().parent
PACKAGE = "noddy.server"
MAX_LINES = 500


def _short(name: str) -> str:
    """A server module's name under ``noddy.server`` (``core.seating``; the package: "")."""
    return name[len(PACKAGE) + 1:] if name != PACKAGE else ""


def _modules() -> dict[str, Path]:
    """Every server module by dotted name under ``noddy.server`` (``core.seating``...)."""
    return {_short(name): path for name, path in modules(SERVER, PACKAGE).items()}


def _graph() -> dict[str, set[str]]:
    """Each server module's imports of the others, by their names under ``noddy.server``."""
    return {_short(name): {_short(target) for target in targets}
            for name, targets in import_graph(modules(SERVER, PACKAGE)).items()}


def test_every_server_import_names_a_server_module() -> None:
    # (``from ..storage import StoredState`` names the package: its __init__.)
    assert unknown_imports(modules(SERVER, PACKAGE), PACKAGE) == []


def test_the_check_sees_an_import_of_a_module_that_is_gone(tmp_path: Path) -> None:
    (tmp_path / "core").mkdir()
    (tmp_path / "__init__.py").write_text("")
    (tmp_path / "core" / "__init__.py").write_text("from .a import x\n")
    (tmp_path / "core" / "a.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                            "    from .table import Table\nfrom .. import core\n")
    assert unknown_imports(modules(tmp_path, PACKAGE), PACKAGE) == [
        "noddy.server.core.a imports noddy.server.core.table"]


def test_server_modules_import_each_other_one_way_only() -> None:
    graph = _graph()
    assert len(graph) > 40 and "core.seating" in graph and "text.adapter" in graph
    assert "core.outbox" in graph["core.facade"] and "core" in graph["net.network"]
    assert find_cycle(graph) is None


#: Which folder of server/ may import which (the top level: config, cli, the package).
FOLDERS = {
    "model": set(),
    "storage": {"model"},
    "core": {"model", "storage", ""},
    "text": {"core"},
    "net": {"core", "model", "storage", "text", ""},  # model: pure values (address_group)
    "": {"core", "net", "storage", "model", ""},
}


def test_the_folders_depend_on_each_other_one_way() -> None:
    problems = []
    for module, targets in _graph().items():
        folder = module.split(".")[0] if "." in module or module in FOLDERS else ""
        for target in targets:
            other = target.split(".")[0] if "." in target or target in FOLDERS else ""
            if other != folder and other not in FOLDERS[folder]:
                problems.append(f"{module} imports {target}")
    assert problems == []


def test_every_server_module_opens_with_what_it_holds_and_is_small() -> None:
    for name, path in _modules().items():
        text = path.read_text()
        assert ast.get_docstring(ast.parse(text)), f"{path} has no opening docstring"
        assert len(text.splitlines()) <= MAX_LINES, f"{path} has over {MAX_LINES} lines"


_MUTATORS = frozenset({"append", "extend", "add", "pop", "remove", "clear", "update", "discard",
                       "insert", "setdefault", "popitem", "sort", "reverse", "__setitem__"})


def _collaborators(cls: ast.ClassDef) -> set[str]:
    """The attributes of ``self`` that ``cls.__init__`` sets straight from a parameter."""
    init = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
    if init is None:
        return set()
    params = {a.arg for a in init.args.args[1:] + init.args.kwonlyargs}
    names = set()
    for node in ast.walk(init):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name) and node.value.id in params:
            for target in node.targets:
                if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
                        and target.value.id == "self":
                    names.add(target.attr)
    return names


def _root(node: ast.AST) -> tuple[str, int] | None:
    """``(attr, depth)`` for ``self.attr.x.y...`` (depth: how far below ``self.attr``)."""
    depth = 0
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        inner = node.value
        if isinstance(inner, ast.Name) and inner.id == "self" and isinstance(node, ast.Attribute):
            return node.attr, depth
        node, depth = inner, depth + 1
    return None


def state_violations(source: str) -> list[str]:
    """Where a class in ``source`` changes what one of its collaborators holds, or reaches
    for another object's private (``_``) attributes."""
    problems = []
    for cls in [n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.ClassDef)]:
        collaborators = _collaborators(cls)
        for node in ast.walk(cls):
            targets: list[ast.AST] = []
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in _MUTATORS:
                targets = [node.func.value]
            elif isinstance(node, ast.Delete):
                targets = node.targets
            for target in targets:
                root = _root(target)
                # (A call of a collaborator's own method, even one named add or pop, is the
                # collaborator changing itself: only what it holds, one level down, counts.)
                if root is not None and root[0] in collaborators and root[1] > 0:
                    problems.append(f"{cls.name} line {node.lineno} changes its collaborator {root[0]}")
            if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
                inner = node.value
                if not (isinstance(inner, ast.Name) and inner.id in ("self", "cls")):
                    problems.append(f"{cls.name} line {node.lineno} reads another object's {node.attr}")
    return problems


@pytest.mark.parametrize("name", sorted(n for n in _modules() if n.startswith("core")))
def test_no_part_of_the_core_changes_another_parts_state(name: str) -> None:
    assert state_violations(_modules()[name].read_text()) == []


def test_the_state_check_sees_a_part_changing_another() -> None:
    source = '''
class Seating:
    def __init__(self, tables, outbox):
        self._tables = tables
        self._outbox = outbox
        self._held = []
    def sit(self):
        self._held.append(1)            # its own: fine
        self._outbox.send(1, {})        # a method of a collaborator: fine
        self._tables._open[3] = None    # another part's state
        self._outbox.out.append(None)   # what a collaborator holds
        self._tables.count = 2          # an attribute of a collaborator
'''
    assert sorted(state_violations(source)) == [
        "Seating line 10 changes its collaborator _tables",
        "Seating line 10 reads another object's _open",
        "Seating line 11 changes its collaborator _outbox",
        "Seating line 12 changes its collaborator _tables",
    ]


def test_every_request_type_has_a_handler_and_a_missing_one_stops_the_core() -> None:
    core = ServerCore()
    assert sorted(core.reception.handled()) == sorted(REQUESTS)
    from noddy.server.core.reception import Reception
    with pytest.raises(TypeError, match=r"request types without a handler: \['bye'\]"):
        Reception(core.config, core.clock, core.outbox, core.connections, core.lobby, core.held_seats,
                  core.recovery, core.paused, {k: v for k, v in core.reception.handled().items()
                                               if k not in ("bye", "ping", "pong")})


def test_the_core_keeps_its_interface_and_sessions_keep_no_index() -> None:
    for name in ("connect", "receive", "receive_request", "line_too_long", "disconnect", "tick",
                 "bot_moved", "answer", "restore", "shutdown", "unstored"):
        assert callable(getattr(ServerCore, name)), name
    core = ServerCore()
    for name in ("tables", "sessions", "connections", "config", "ratings", "closed"):
        assert hasattr(core, name), name
    effects = core.tick()
    assert isinstance(effects, Effects) and (effects.out, effects.records, effects.jobs) == ([], [], [])
    assert {Send, Close, Query, BotJob}
    assert "__setattr__" not in vars(Session)  # the lobby index is told explicitly (LobbyBoard.arrived)
