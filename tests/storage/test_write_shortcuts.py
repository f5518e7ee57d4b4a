"""``Storage.write`` stores exactly what writing every record on its own stores, and fails
exactly where that fails:

* an action's JSON text is made by a format string for the usual ``play`` and ``go``
  (``_action_text``): the very text ``compact_json`` gives, for every action the engine
  makes and for any twisted dict, which falls back to ``compact_json`` itself;
* a batch of records (saves, closes, games begun, moved in and finished, in any order)
  leaves the rows of writing each record in a batch of its own, through the fast path
  and through the slow one, and a save that cannot be stored fails its table alone.
"""

from __future__ import annotations

import itertools
import os
import random
from types import SimpleNamespace
from typing import Any, Iterator

import pytest

from noddy.engine import Claim, Discard, Go, Muggins, Pass, Play
from noddy.engine.cards import FULL_DECK
from noddy.protocol import compact_json
from noddy.server.storage import writes as storage_writes
from noddy.server.model.ratings import Change, Rated
from noddy.server.storage.records import ActionApplied, GameBegun, GameFinished, Record, TableClosed, TableSaved
from noddy.server.storage import Storage
from noddy.server.storage.writes import _action_text

#: Cases in each seeded soak (NODDY_STORAGE_SOAK raises it).
COUNT = int(os.environ.get("NODDY_STORAGE_SOAK", "3000"))

#: Strings that a format string could get wrong: quotes, backslashes, control characters,
#: non-ASCII (kept as it is), a line separator, an astral character.
_TEXTS = ["9H", "play", "go", "", 'é"\\\n\t\x01\x1f', "ünï 😀", "a\u2028b", "\x7f", "/"]
#: And in an action, lone surrogates too: the text has them as the encoder's has (both fail
#: to be stored, see test_a_lone_surrogate_in_an_action_fails_its_table_as_before).
_ACTION_TEXTS = [*_TEXTS, "\ud800", "x\udfff"]


# -- an action's text ------------------------------------------------------------------------
def _engine_actions() -> Iterator[dict[str, Any]]:
    """``to_dict()`` of every kind of action the engine makes, with and without the seat."""
    for seat in range(4):
        actions = [Play(seat, card) for card in FULL_DECK]
        actions += [Go(seat), Pass(seat)]
        actions += [Discard(seat, cards) for cards in itertools.islice(itertools.combinations(FULL_DECK, 2), 60)]
        actions += [Discard(seat, FULL_DECK[:1]), Discard(seat, FULL_DECK[3:7])]
        actions += [kind(seat, points) for kind in (Claim, Muggins) for points in (0, 1, 12, 29)]
        for action in actions:
            yield action.to_dict()
            yield action.to_dict(with_seat=False)


def test_the_text_of_every_engine_action_is_compact_json() -> None:
    for action in _engine_actions():
        assert _action_text(action) == compact_json(action), action


def _value(rng: random.Random, depth: int = 0) -> Any:
    """Any value, weighted toward those a format string would get wrong where an int or a
    str goes: a bool (an int to Python), a float, a str for an int, a huge int, None."""
    choice = rng.randrange(10 if depth < 2 else 8)
    if choice == 0:
        return rng.choice([0, 1, 3, -1, 10**6, 2**70, -(2**63)])
    if choice == 1:
        return rng.choice([True, False])
    if choice == 2:
        return None
    if choice == 3:
        return rng.choice([0.5, 1.0, -3.25, 1e21, float("inf"), float("nan")])
    if choice in (4, 5):
        return rng.choice(_ACTION_TEXTS)
    if choice == 6:
        return rng.choice(["0", "1", "TC", "KS"])
    if choice == 7:
        return rng.randrange(4)
    if choice == 8:
        return [_value(rng, depth + 1) for _ in range(rng.randrange(3))]
    return {rng.choice(["action", "seat", "card", "é"]): _value(rng, depth + 1) for _ in range(rng.randrange(3))}


def _twisted_action(rng: random.Random) -> Any:
    """A ``play`` or ``go`` as the engine makes it, mostly twisted: another value in a
    place, an extra, missing or moved key, a key of another type, or not a dict at all."""
    seat = rng.randrange(4)
    action: dict[Any, Any]
    if rng.random() < 0.7:
        action = {"action": rng.choice(["play", "go", "discard", "é\"\\"]), "seat": seat,
                  "card": rng.choice([c.text for c in FULL_DECK[:8]] + _ACTION_TEXTS)}
    else:
        action = {"action": rng.choice(["go", "play", "pass", "\n"]), "seat": seat}
    twist = rng.randrange(8)
    if twist in (0, 1):
        action[rng.choice(sorted(action))] = _value(rng)
    elif twist == 2:
        action[rng.choice(["extra", "seat2", "é"])] = _value(rng)
    elif twist == 3:
        del action[rng.choice(sorted(action))]
    elif twist == 4:
        items = list(action.items())
        rng.shuffle(items)
        action = dict(items)
    elif twist == 5:
        action = {rng.choice([1, 2.5, True, None, "seat"]): v for v in list(action.values())[:1]} | action
    elif twist == 6:
        return rng.choice([[action], _Dict(action), None, "play"])
    return action


class _Dict(dict):  # type: ignore[type-arg]
    """A dict subclass: not the shape the format string takes (``compact_json`` takes it)."""


def test_the_text_of_any_twisted_action_is_compact_json_or_the_same_error() -> None:
    rng = random.Random("storage-action-text")
    for _ in range(COUNT):
        action = _twisted_action(rng)
        try:
            expected = compact_json(action)
        except (TypeError, ValueError) as exc:  # not JSON: a key of no JSON type...
            with pytest.raises(type(exc)):
                _action_text(action)
            continue
        assert _action_text(action) == expected, action


@pytest.mark.parametrize("action", [{"action": "play", "seat": 0, "card": "\ud800"},
                                    {"action": "\udfff", "seat": 1}])
def test_a_lone_surrogate_in_an_action_fails_its_table_as_before(action: dict[str, Any]) -> None:
    text = _action_text(action)
    assert text == compact_json(action)
    with pytest.raises(UnicodeEncodeError):
        text.encode("utf-8")
    storage = Storage(":memory:")
    try:
        failed = storage.write([_game(1, table_id=7), ActionApplied(1, 1, action, [], 7), TableSaved(8, {"n": 1})])
        assert failed == {7}
        assert _dump(storage)["actions"] == [] and len(_dump(storage)["tables"]) == 1
    finally:
        storage.close()


# -- batches against one record at a time ------------------------------------------------------
@pytest.fixture(autouse=True)
def _one_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every write at the same time: rows written in other batches compare equal."""
    monkeypatch.setattr(storage_writes, "time", SimpleNamespace(time=lambda: 1.7e9))


def _dump(storage: Storage) -> dict[str, list[tuple[str, ...]]]:
    """Every row of every table, each value by its repr (so ``1`` is not ``1.0``, and a
    text is compared byte for byte)."""
    keys = {"tables": "id", "games": "id", "game_players": "game_id, seat", "actions": "game_id, n",
            "ratings": "family, kind, name"}
    return {name: [tuple(map(repr, row)) for row in storage.db.execute(f"SELECT * FROM {name} ORDER BY {key}")]
            for name, key in keys.items()}


def _game(game_id: int, table_id: int) -> GameBegun:
    return GameBegun(game_id, table_id, 1, "noddy", "noddy", 2, False, {}, [
        {"seat": 0, "name": "ann", "kind": "human", "level": None},
        {"seat": 1, "name": "greedy", "kind": "computer", "level": "greedy"}], 7, 1.6e9,
        [{"kind": "game_started", "preset": "noddy"}])


def _records(rng: random.Random, count: int) -> list[Record]:
    """``count`` records that can all be written, in a random order: saves (of states with
    text to escape), closes, and games begun, moved in and finished, over the last three
    tables made (a new one now and then, so that a table's first save, which makes its
    row, is often in the same batch as a close and another save)."""
    records: list[Record] = []
    playing: dict[int, tuple[int, int]] = {}  # game -> (table, actions so far)
    games = itertools.count(1)
    saves = itertools.count(1)
    tables = [1, 2, 3]
    for _ in range(count):
        if rng.random() < 0.05:
            tables.append(tables[-1] + 1)
        table = rng.choice(tables[-3:])
        kind = rng.randrange(10)
        if kind < 3:
            records.append(TableSaved(table, {"id": table, "n": next(saves), "name": rng.choice(_TEXTS),
                                              "seats": [rng.choice([None, {"ready": True}])]}))
        elif kind == 3:
            records.append(TableClosed(table))
        elif kind == 4 or not playing:
            game = next(games)
            records.append(_game(game, table))
            playing[game] = (table, 0)
        elif kind < 9:
            game = rng.choice(sorted(playing))
            table, done = playing[game]
            playing[game] = (table, done + 1)
            action = rng.choice([Play(done % 2, rng.choice(FULL_DECK)), Go(done % 2)]).to_dict()
            records.append(ActionApplied(game, done + 1, action, [], table))
        else:
            game = rng.choice(sorted(playing))
            table, _done = playing.pop(game)
            level = rng.choice(["greedy", "random"])
            records.append(GameFinished(game, 1.6e9 + game, {"winner": 0, "winning_seats": [0], "scores": [31, 4]},
                                        (Change("noddy", Rated("human", "ann"), 1500.0, 1500.0 + game, game, 1),
                                         Change("noddy", Rated("computer", level), 1500.0, 1500.0 - game, game, 0)),
                                        table))
    return records


def _batches(rng: random.Random, records: list[Record]) -> list[list[Record]]:
    """``records`` cut into batches of 1 to 12, in order."""
    batches, start = [], 0
    while start < len(records):
        size = rng.randrange(1, 13)
        batches.append(records[start:start + size])
        start += size
    return batches


def _one_by_one(records: list[Record]) -> dict[str, list[tuple[str, ...]]]:
    """The rows of writing each record in a batch of its own."""
    storage = Storage(":memory:")
    try:
        for record in records:
            assert storage.write([record]) == set()
        return _dump(storage)
    finally:
        storage.close()


@pytest.mark.parametrize("seed", range(8))
def test_batches_store_what_one_record_at_a_time_stores(seed: int) -> None:
    rng = random.Random(f"storage-batches-{seed}")
    records = _records(rng, COUNT // 8)
    storage = Storage(":memory:")
    try:
        for batch in _batches(rng, records):
            assert storage.write(batch) == set()  # the fast path, every time
        assert _dump(storage) == _one_by_one(records)
    finally:
        storage.close()


@pytest.mark.parametrize("seed", range(4))
def test_the_slow_path_stores_what_one_record_at_a_time_stores(seed: int) -> None:
    """A table whose state cannot be stored (table 0: ``_records`` never uses it) is in
    every batch, so each goes the slow way."""
    rng = random.Random(f"storage-slow-{seed}")
    records = _records(rng, COUNT // 8)
    storage = Storage(":memory:")
    try:
        for batch in _batches(rng, records):
            batch.insert(rng.randrange(len(batch) + 1), TableSaved(0, {"name": "\ud800"}))
            assert storage.write(batch) == {0}
        assert _dump(storage) == _one_by_one(records)
    finally:
        storage.close()


def test_a_save_then_a_close_then_a_save_leaves_the_table_closed() -> None:
    storage = Storage(":memory:")
    try:
        storage.write([TableSaved(1, {"n": 1}), TableClosed(1), TableSaved(1, {"n": 2}), TableSaved(1, {"n": 3}),
                       TableSaved(2, {"n": 1}), TableSaved(2, {"n": 2})])
        assert _dump(storage)["tables"] == [("1", "0", "'{\"n\":3}'", "1700000000.0"),
                                            ("2", "1", "'{\"n\":2}'", "1700000000.0")]
    finally:
        storage.close()


@pytest.mark.parametrize("bad", [{"name": "\ud800"}, {"what": object()}, {"n": [1, {"é": "\udc80"}]}])
def test_a_save_that_cannot_be_stored_fails_its_table_whatever_follows(bad: dict[str, Any]) -> None:
    """A later save of the table could be stored, but the earlier one fails the table: its
    records are all left out, and the table is refused until repaired; the other table's
    save is stored."""
    storage = Storage(":memory:")
    try:
        failed = storage.write([TableSaved(1, bad), _game(1, 1), TableSaved(2, {"n": 1}), TableSaved(1, {"n": 2})])
        assert failed == {1} and storage.broken == {1}
        assert _dump(storage)["tables"] == [("2", "1", "'{\"n\":1}'", "1700000000.0")]
        assert _dump(storage)["games"] == []
    finally:
        storage.close()
