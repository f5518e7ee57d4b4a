"""The server core's layout: one class composed of one module per concern, no import circle.

``ServerCore`` is split by concern (connections, lobby, seating, gameplay, queries,
recovery) over a shared base; these checks keep the split honest: the server's modules
import each other one way only (type-checking imports included), each opens with a
docstring saying what it owns, and nothing keeps an index behind the reader's back.
"""

from __future__ import annotations

import ast
from pathlib import Path

import noddy.server
from noddy.server.core import BotJob, Close, Query, Send, ServerCore
from noddy.server.model.table import Session

SERVER = Path(noddy.server.__file__).resolve().parent


def _server_imports(path: Path) -> set[str]:
    """The server modules ``path`` imports (``from . import x`` counts as module ``x``)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 and node.module:
                names.add(node.module.split(".")[0])
            elif node.level == 1:
                names.update(alias.name for alias in node.names)
            elif (node.module or "").startswith("noddy.server."):
                names.add(node.module.split(".")[2])
        elif isinstance(node, ast.Import):
            names.update(a.name.split(".")[2] for a in node.names if a.name.startswith("noddy.server."))
    return names


def test_server_modules_import_each_other_one_way_only() -> None:
    graph = {path.stem: _server_imports(path) for path in SERVER.glob("*.py") if path.stem != "__init__"}
    circles = []

    def visit(module: str, trail: list[str]) -> None:
        for target in sorted(graph.get(module, ())):
            if target in trail:
                circles.append(trail[trail.index(target):] + [target])
            elif target in graph:
                visit(target, trail + [target])

    for module in sorted(graph):
        visit(module, [module])
    assert circles == []


def test_every_server_module_opens_with_what_it_owns() -> None:
    for path in sorted(SERVER.glob("*.py")):
        assert ast.get_docstring(ast.parse(path.read_text())), f"{path.name} has no opening docstring"


def test_the_core_keeps_its_interface_and_sessions_keep_no_index() -> None:
    for name in ("connect", "receive", "line_too_long", "disconnect", "tick", "take_bot_jobs",
                 "bot_moved", "take_records", "answer", "restore", "shutdown", "unstored"):
        assert callable(getattr(ServerCore, name)), name
    core = ServerCore()
    for name in ("origin", "tables", "sessions", "connections", "config", "ratings", "closed"):
        assert hasattr(core, name), name
    assert {Send, Close, Query, BotJob}
    assert "__setattr__" not in vars(Session)  # the lobby index is told explicitly (CoreState._in_lobby)
