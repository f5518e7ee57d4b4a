"""docs/schema.json: made from the protocol's declarations, and every message the server sends fits it.

The schema is written by ``python -m noddy.protocol.schema docs/schema.json``; these tests
fail while the files differ from what the declarations give, while an event kind of the
engine or a request type is not declared, and while any message of the documented
transcript or of a full game of every preset breaks the *strict* schema (no field that the
declarations do not name).  The full games are played by :class:`SchemaClient`, a minimal
bot that knows nothing of the protocol but the schema: it checks each message it receives
against its type's definition and chooses its move from the ``turn`` alone.
"""

from __future__ import annotations

import asyncio
import json
import pathlib
import random
import tomllib
from typing import Any

import jsonschema
import pytest

from noddy.engine import Game
from noddy.engine.events import EVENT_TYPES
from noddy.engine.rules import PRESETS
from noddy.protocol import REQUESTS
from noddy.protocol.messages import EVENTS, MESSAGES
from noddy.protocol.schema import SCHEMA_PATH, build_schema, load_schema, schema_text
from tests.server.harness import running_server
from tests.server.transcript import DOC, read_transcript

DOCS_SCHEMA = pathlib.Path(__file__).resolve().parents[2] / "docs" / "schema.json"
#: The longest a whole game of one preset may take against computer players.
GAME_TIMEOUT = 60.0


class Checker:
    """Validators for one message type each, made from a schema (strict or as published)."""

    def __init__(self, schema: dict[str, Any]) -> None:
        self.schema = schema
        self._validators: dict[str, jsonschema.protocols.Validator] = {}

    def validator(self, definition: str) -> jsonschema.protocols.Validator:
        if definition not in self._validators:
            sub = {**self.schema, "$ref": f"#/$defs/{definition}"}
            del sub["oneOf"]
            self._validators[definition] = jsonschema.Draft202012Validator(sub)
        return self._validators[definition]

    def check(self, message: dict[str, Any]) -> None:
        """Raise unless ``message`` fits its type's definition (an unknown type does not)."""
        kind = message.get("type")
        assert f"message.{kind}" in self.schema["$defs"], f"undeclared message type {kind!r}: {message}"
        self.validator(f"message.{kind}").validate(message)

    def check_request(self, request: dict[str, Any]) -> None:
        self.validator(f"request.{request['type']}").validate(request)


STRICT = Checker(build_schema(strict=True))


def test_the_shipped_and_published_files_are_what_the_declarations_give() -> None:
    text = schema_text()
    assert SCHEMA_PATH.read_text(encoding="utf-8") == text
    assert DOCS_SCHEMA.read_text(encoding="utf-8") == text
    assert load_schema() == build_schema()


def test_the_schema_is_a_valid_json_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(build_schema())
    jsonschema.Draft202012Validator.check_schema(build_schema(strict=True))


def test_every_request_and_event_kind_is_declared() -> None:
    defs = build_schema()["$defs"]
    assert {name[len("request."):] for name in defs if name.startswith("request.")} == set(REQUESTS)
    assert set(EVENTS) == set(EVENT_TYPES)
    assert {name[len("message."):] for name in defs if name.startswith("message.")} == set(MESSAGES)


def test_an_undeclared_field_or_a_wrong_type_breaks_the_strict_schema() -> None:
    STRICT.check({"type": "ok", "id": 3})
    with pytest.raises(jsonschema.ValidationError, match="'extra' was unexpected"):
        STRICT.check({"type": "ok", "id": 3, "extra": 1})
    with pytest.raises(jsonschema.ValidationError, match="'three' is not of type 'integer'"):
        STRICT.check({"type": "event", "table": "three", "seq": 1, "event": {"kind": "go", "seat": 0}})
    with pytest.raises(jsonschema.ValidationError):
        STRICT.check({"type": "event", "table": 1, "seq": 1, "event": {"kind": "played", "seat": 0,
                                                                        "card": "1H", "count": 1}})
    # The published schema lets a newer server add a field.
    Checker(load_schema()).check({"type": "ok", "id": 3, "extra": 1})


def test_every_line_of_the_documented_transcript_fits() -> None:
    lines = read_transcript(DOC.read_text(encoding="utf-8"))
    assert len(lines) > 50
    for line in lines:
        message = json.loads(line[2:])
        if line.startswith("<"):
            STRICT.check(message)
        else:
            STRICT.check_request(message)


class SchemaClient:
    """A bot written from the schema alone: it reads each line, checks it against the
    definition of its ``type``, and answers a ``turn`` addressed to it from that turn only
    (``legal_actions`` and ``state``: no event folded)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, rng: random.Random) -> None:
        self.reader, self.writer, self.rng = reader, writer, rng
        self.received: list[dict[str, Any]] = []
        self.next_id = 0
        self.turns_with_state = 0

    async def receive(self) -> dict[str, Any]:
        line = await self.reader.readline()
        assert line, "the server closed the connection"
        message = json.loads(line)
        STRICT.check(message)
        self.received.append(message)
        return message

    async def send(self, message: dict[str, Any]) -> int:
        self.next_id += 1
        request = {**message, "id": self.next_id}
        STRICT.check_request(request)
        self.writer.write(json.dumps(request).encode() + b"\n")
        await self.writer.drain()
        return self.next_id

    async def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send ``message``; the reply to it (outside a game: nothing else needs answering)."""
        request_id = await self.send(message)
        while (reply := await self.receive()).get("id") != request_id:
            pass
        return reply

    def choose(self, turn: dict[str, Any]) -> dict[str, Any]:
        """A move from the turn alone: one of its legal actions, checked against its ``state``."""
        state = turn["state"]
        self.turns_with_state += 1
        assert state["seat"] in turn["awaiting"] and state["crib_owner"] in (state["dealer"], None)
        choice = dict(self.rng.choice(turn["legal_actions"]))
        if choice["action"] == "play":
            assert choice["card"] in state["hand"] and state["count"] == turn["count"]
        elif choice["action"] == "discard":
            assert set(choice["cards"]) <= set(state["hand"])
        if "min" in choice:  # a range of points: claim what is safe (0), call muggins at random
            low, high = choice.pop("min"), choice.pop("max")
            choice["points"] = low if choice["action"] == "claim" else self.rng.randint(low, high)
        return {"type": "action", **choice}

    async def play(self) -> dict[str, Any]:
        """Answer turns until the game is over; return the ``game_over`` event.  A turn that
        comes while an action is unanswered was sent before it was handled: stale."""
        pending: int | None = None
        while True:
            message = await self.receive()
            if message["type"] == "event" and message["event"]["kind"] == "game_over":
                return message["event"]
            if pending is not None and message.get("id") == pending:
                assert message["type"] == "ok", message
                pending = None
            elif pending is None and message["type"] == "turn" and message["legal_actions"]:
                pending = await self.send(self.choose(message))


def _tables() -> list[tuple[str, int, bool, dict[str, Any]]]:
    """Every preset at each size it is played (each alone, and in partnerships), and with
    counting by hand where it offers it."""
    out = []
    for name, rules in PRESETS.items():
        out += [(name, players, False, {}) for players in rules.solo_counts]
        out += [(name, players, True, {}) for players in rules.partnership_counts]
        if rules.manual_counting_allowed:
            out.append((name, rules.solo_counts[0], False, {"counting": "manual"}))
    return out


@pytest.mark.parametrize("preset, players, partnerships, options", _tables())
async def test_a_schema_client_plays_a_full_game_of_every_preset(
        preset: str, players: int, partnerships: bool, options: dict[str, Any]) -> None:
    async with running_server() as server:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port, limit=1 << 20)
        client = SchemaClient(reader, writer, random.Random(f"{preset}{players}{partnerships}"))
        try:
            assert (await client.receive())["type"] == "greeting"
            assert (await client.request({"type": "hello", "name": "typed", "version": 1,
                                                 "turn_state": True}))["type"] == "welcome"
            created = await client.request({"type": "create_table", "preset": preset, "players": players,
                                            "partnerships": partnerships, "options": options})
            assert created["type"] == "table", created
            for seat in range(1, players):
                assert (await client.request({"type": "add_computer", "seat": seat}))["type"] == "table"
            assert (await client.request({"type": "ready"}))["type"] == "table"
            over = await asyncio.wait_for(client.play(), GAME_TIMEOUT)
            assert over["ending"] == "target"
            assert client.turns_with_state > 0
            assert (await client.request({"type": "snapshot"}))["type"] == "snapshot"
        finally:
            writer.close()


def test_the_schema_is_shipped_in_the_wheel() -> None:
    pyproject = tomllib.loads((DOCS_SCHEMA.parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    assert "data/*.json" in pyproject["tool"]["setuptools"]["package-data"]["noddy.protocol"]
    assert SCHEMA_PATH.relative_to(pathlib.Path(__file__).resolve().parents[2] / "protocol") \
        == pathlib.Path("data/schema.json")
    assert "jsonschema>=4.18" in pyproject["project"]["optional-dependencies"]["test"]


@pytest.mark.parametrize("preset, players, partnerships, options", _tables())
def test_every_event_of_engine_games_fits_as_every_seat_sees_it(
        preset: str, players: int, partnerships: bool, options: dict[str, Any]) -> None:
    """Seeded engine games with random legal actions (claims of any number, so claims are
    refused and muggins called too): each event, whole and as each seat and a spectator is
    told it, fits its kind's strict definition; every kind a game may hold turns up."""
    rng = random.Random(f"{preset}/{players}/{partnerships}/{options}")
    kinds: set[str] = set()
    game = Game(preset, players, partnerships=partnerships, options=options, seed=rng.randrange(2 ** 32))
    pending = list(game.log)
    while True:
        for event in pending:
            kinds.add(event.kind)
            validator = STRICT.validator(f"event.{event.kind}")
            views = {event.for_seat(viewer) for viewer in [*range(players), None]} | {event}
            for view in views - {None}:
                validator.validate(view.to_dict())
        if game.is_over:
            break
        pending = game.apply(rng.choice(game.legal_actions(game.awaiting[0])))
    assert {"game_started", "deal_started", "cards_dealt", "turned_up", "played", "hands_revealed",
            "deal_ended", "game_over"} <= kinds
    if options.get("counting") == "manual":
        assert {"counting", "claimed", "claim_refused", "counted"} <= kinds
