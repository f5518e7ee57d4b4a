"""Every request type is declared completely, or this module fails at collection.

A request type's declaration (:data:`noddy.protocol.request_table.SPECS`) carries its fields,
its gates (``changes_table``: refused at a paused table; ``before_hello``; ``heard``) and why
it has no text command or client key, where it has none.  The rest lives in the room that
owns it: its handler in the ``handlers()`` of the part of the core that handles it, its text
command (with how it is written and its line of the help) in
:data:`noddy.server.text.commands.COMMANDS`, its client key in ``noddy.client.keys``, and its
row in the request table of docs/PROTOCOL.md.  :func:`declarations` joins them; a piece
missing anywhere raises while this module is imported, so pytest reports a collection error
naming it before any test runs, rather than a request that passes every test and fails for a
user.  The gates are then tried: every request declared ``changes_table`` is refused at a
paused table, whichever it is.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path
from typing import Any

import pytest

from noddy.protocol import REQUESTS, validate_request
from noddy.protocol.request_table import BEFORE_HELLO, CHANGES_TABLE, NOT_HEARD, SPECS
from noddy.server.core import ServerCore
from noddy.server.text.commands import COMMANDS, JSON_ONLY, parse_command
from noddy.server.text.help import HELP

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
            problems.append(f"{kind}: no text command (nor a no_text reason in its declaration)")
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


# -- the gates a declaration carries ---------------------------------------------------------

def _least_request(kind: str) -> dict[str, Any]:
    """A request of ``kind`` that passes the schema: each required field at its least value."""
    least = {"int": 0, "number": 0, "str": "x", "bool": True, "object": {}, "str_list": [], "int_list": []}
    request: dict[str, Any] = {"type": kind, "id": kind}
    for spec in REQUESTS[kind]:
        if spec.required and spec.unless is None:
            value = spec.choices[0] if spec.choices else least[spec.kind]
            request[spec.name] = max(value, spec.minimum) if spec.minimum is not None else value
    validate_request(request)
    return request


@pytest.mark.parametrize("kind", sorted(CHANGES_TABLE))
def test_a_request_declared_changes_table_is_refused_at_a_paused_table(kind: str) -> None:
    """The paused-table gate is read from the declarations: every request that says it
    changes a table is refused there, before its handler looks at it (issue 32: a request
    left out of a list kept by hand was let through, and every test passed)."""
    from tests.server.test_core import Harness
    h = Harness()
    ann = h.connect("ann")
    assert h.send(ann, {"type": "create_table", "preset": "noddy", "options": {"match": 2}})["type"] == "table"
    h.take(h.core.unstored({1}, None))
    reply = h.send(ann, _least_request(kind))
    assert (reply["type"], reply["code"], reply["id"]) == ("error", "storage_unavailable", kind)
    assert reply["message"] == ("table 1 is paused: the server cannot save its game right now; "
                                "it goes on by itself once it can")


def test_the_gates_are_read_from_the_declarations() -> None:
    assert {"action", "sit", "leave", "resign_match", "configure_table"} <= CHANGES_TABLE
    assert {"chat", "snapshot", "spectate", "hello"}.isdisjoint(CHANGES_TABLE)
    assert BEFORE_HELLO == {"hello", "language", "ping", "pong"} and NOT_HEARD == {"language", "ping", "pong"}
    assert JSON_ONLY == {spec.type: spec.no_text for spec in SPECS if spec.no_text}


def test_every_request_is_reachable_from_the_client_or_says_why_not() -> None:
    """Each request type has a key in the full-screen client (``noddy.client.keys``) or a
    declared ``no_client`` reason; a reason for a request the client does send is stale."""
    try:
        from noddy.client.keys import requests_sent  # type: ignore[import-not-found]
    except ImportError:
        pytest.skip("client keys not declared yet")
    sent = requests_sent()
    unreached = [s.type for s in SPECS if s.type not in sent and s.no_client is None]
    stale = [s.type for s in SPECS if s.type in sent and s.no_client is not None]
    unknown = sorted(sent.keys() - REQUESTS.keys())
    assert (unreached, stale, unknown) == ([], [], [])


def test_the_document_names_the_requests_a_paused_table_refuses() -> None:
    """docs/PROTOCOL.md ("When the disk fails") lists them; the list is the declarations'."""
    said = re.search(r"While\s+the table is paused, (.*?) at it\s+are refused", PROTOCOL_MD, re.S)
    assert said is not None
    assert set(re.findall(r"`(\w+)`", said.group(1))) == CHANGES_TABLE


def test_the_help_fits_a_terminal() -> None:
    """The list and every ``help VERB`` fit 80 columns, the list 23 lines (issue 32: a new
    request's line overflowed the help screen and nothing noticed)."""
    from noddy.server.text.help import HELP_LINES, HELP_WIDTH, help_for
    assert len(HELP.splitlines()) <= HELP_LINES
    for text in [HELP] + [help_for(verb) for command in COMMANDS for verb in command.verbs]:
        assert max(map(len, text.splitlines())) <= HELP_WIDTH, text
