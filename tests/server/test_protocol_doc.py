"""docs/PROTOCOL.md names everything a client can meet: every request type, every event kind
and every kind of score item, and says which preset uses which names.

The lists are taken from the code (the request schema, the engine's event classes, every
``ScoreItem`` the engine builds and every name a preset gives one), so a new request, event
or score kind fails here until the document names it.  A bot was written from the document
alone; this is what it could not have known otherwise.
"""

from __future__ import annotations

import ast
import json
import pathlib
import re

import pytest

from noddy.engine import PRESETS
from noddy.engine import events as engine_events
from noddy.engine.scoring import PAIR_KINDS
from noddy.protocol.requests import REQUESTS

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "PROTOCOL.md").read_text()
#: The fields of a preset that name a score item (the two families name them differently).
NAMED_BY_PRESET = ("turned_jack_name", "held_jack_name", "last_card_name", "thirty_one_name")


def event_kinds() -> set[str]:
    return {cls.kind for cls in vars(engine_events).values()
            if isinstance(cls, type) and issubclass(cls, engine_events.Event)
            and cls is not engine_events.Event}


def literal_item_kinds() -> set[str]:
    """Every kind the engine's code gives a ScoreItem as a string literal."""
    kinds: set[str] = set(PAIR_KINDS)
    for path in (ROOT / "engine").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "ScoreItem" and node.args
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                kinds.add(node.args[0].value)
    return kinds


def preset_item_kinds(name: str) -> set[str]:
    rules = PRESETS[name]
    return {getattr(rules, field) for field in NAMED_BY_PRESET}


def test_the_lists_come_from_the_code() -> None:
    assert {"hello", "action", "pong", "get_game"} <= set(REQUESTS)
    assert {"scored", "count_reset", "hands_revealed"} <= event_kinds()
    assert {"fifteen", "run", "flush", "picture card", "first deal"} <= literal_item_kinds()
    assert preset_item_kinds("noddy") == {"knave noddy", "last card", "hitter"}
    assert preset_item_kinds("cribbage") == {"his heels", "his nob", "go", "thirty-one"}


@pytest.mark.parametrize("name", sorted(REQUESTS))
def test_every_request_is_named(name: str) -> None:
    assert f"| `{name}` |" in DOC


@pytest.mark.parametrize("kind", sorted(event_kinds()))
def test_every_event_kind_is_named(kind: str) -> None:
    assert f"| `{kind}` |" in DOC


@pytest.mark.parametrize("kind", sorted(literal_item_kinds()
                                        | {k for p in PRESETS for k in preset_item_kinds(p)}))
def test_every_score_item_kind_is_named(kind: str) -> None:
    assert f"`{kind}`" in DOC


def _kind_rows() -> dict[str, str]:
    """The table of item kinds by preset: each preset's row text, ``as `X``` spelled out."""
    start = DOC.index("| preset | show | play | deal |")
    rows: dict[str, str] = {}
    for line in DOC[start:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        first, *rest = line.strip("|").split("|")
        for preset in re.findall(r"`([a-z-]+)`", first):
            rows[preset] = "|".join(rest)
    for preset, text in rows.items():
        rows[preset] = re.sub(r"as `([a-z-]+)`", lambda m: rows[m[1]], text)
    return rows


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_kinds_of_each_preset_are_its_own(preset: str) -> None:
    row = _kind_rows()[preset]
    own = preset_item_kinds(preset)
    others = {k for p in PRESETS for k in preset_item_kinds(p)} - own - {"thirty-one"}
    for kind in own:
        assert f"`{kind}`" in row, (preset, kind)
    for kind in others:
        assert f"`{kind}`" not in row, (preset, kind)


def test_every_server_flag_is_named() -> None:
    from noddy.server.cli import build_parser

    flags = {option for action in build_parser()._actions for option in action.option_strings
             if option.startswith("--") and option != "--help"}
    assert "--max-tables-per-address" in flags
    missing = sorted(flag for flag in flags if not re.search(rf"(?<![\w-]){flag}(?![\w-])", DOC))
    assert missing == []


def test_every_welcome_shown_advertises_the_table_options_the_server_does() -> None:
    """A welcome in the document (the handshake, the transcript) shows ``table_options`` as
    the server advertises them, in the same order: a new table option went in once and left
    every transcript stale, and nothing noticed (issue 32)."""
    from noddy.server.model.table_options import advertised_options
    decoder = json.JSONDecoder()
    shown = [decoder.raw_decode(DOC, match.end())[0] for match in re.finditer(r'"table_options":', DOC)]
    assert len(shown) >= 2
    for options in shown:
        assert list(options.items()) == list(advertised_options().items())
