"""Every request type is declared completely, or this module fails at collection.

A request type lives in four declarations, each in the room that owns it: its fields in
:data:`noddy.protocol.REQUESTS`, its handler in the ``handlers()`` of the part of the core
that handles it, its text command (with how it is written and its line of the help) in
:data:`noddy.server.text.commands.COMMANDS` (or a reason in ``JSON_ONLY``), and its row in
the request table of docs/PROTOCOL.md.  :func:`declarations` joins them; a piece missing
anywhere raises while this module is imported, so pytest reports a collection error naming
it before any test runs, rather than a request that passes every test and fails for a user.
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

import pytest

from noddy.protocol import REQUESTS
from noddy.server.core import ServerCore
from noddy.server.text.commands import COMMANDS, HELP, JSON_ONLY, parse_command

PROTOCOL_MD = (Path(__file__).resolve().parents[2] / "docs" / "PROTOCOL.md").read_text()


def declarations() -> dict[str, dict[str, Any]]:
    """For each request type: its fields, handler, text commands and doc row; raises naming
    every piece that is missing (or declared for no request type)."""
    handlers = ServerCore().reception.handled()
    commands: dict[str | None, list[Any]] = {}
    for command in COMMANDS:
        commands.setdefault(command.request, []).append(command)
    problems = []
    table = {}
    for kind, fields in REQUESTS.items():
        entry = {"fields": fields, "handler": handlers.get(kind), "commands": commands.get(kind, []),
                 "doc": f"| `{kind}` |" in PROTOCOL_MD}
        if entry["handler"] is None:
            problems.append(f"{kind}: no handler")
        if not entry["commands"] and kind not in JSON_ONLY:
            problems.append(f"{kind}: no text command (nor a reason in JSON_ONLY)")
        if not entry["doc"]:
            problems.append(f"{kind}: no row in PROTOCOL.md's request table")
        table[kind] = entry
    for kind in commands.keys() - REQUESTS.keys() - {None}:
        problems.append(f"text commands for {kind!r}, which is no request type")
    for kind in JSON_ONLY.keys() - REQUESTS.keys():
        problems.append(f"JSON_ONLY names {kind!r}, which is no request type")
    helped = " ".join(line[:30] for line in HELP.splitlines()) + " ".join(
        c.help[0] for c in COMMANDS if c.help is not None)
    for command in COMMANDS:
        if command.verbs[0] not in helped:
            problems.append(f"text command {command.verbs[0]!r}: not in the help")
    if problems:
        raise LookupError("incomplete request declarations: " + "; ".join(problems))
    return table


DECLARED = declarations()


@pytest.mark.parametrize("kind", sorted(DECLARED))
def test_a_request_type_is_handled_by_its_part_and_reached_from_text(kind: str) -> None:
    entry = DECLARED[kind]
    handler = entry["handler"]
    assert inspect.ismethod(handler) and handler.__self__.__class__.__module__.startswith("noddy.server.core.")
    for command in entry["commands"]:
        written = command.usage.format(verb=command.verbs[0]) if command.usage else command.verbs[0]
        example = " ".join(word for word in written.split(",")[0].split() if word.islower() or word.isdigit())
        try:
            request = parse_command(example or command.verbs[0])
        except Exception as exc:  # a command that needs words the example does not give
            assert getattr(exc, "code", None) in ("bad_command", "bad_field", "missing_field", "no_such_seat"), exc
        else:
            assert request is None or request["type"] == kind


def test_the_check_names_what_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    import noddy.protocol
    monkeypatch.setitem(noddy.protocol.REQUESTS, "wave", ())
    monkeypatch.setattr("noddy.server.core.reception.REQUESTS", noddy.protocol.REQUESTS)
    with pytest.raises(TypeError, match=r"request types without a handler: \['wave'\]"):
        declarations()
