"""A failing disk, a removed database, a second server: real file-system faults under a real
``noddy-server`` process.  What a player was told is saved must be saved; what could not be
saved is refused, the table waits, and it goes on by itself once the disk works again.

The disk is made to fail with the process's file-size limit (``prlimit`` on the running
server, ``RLIMIT_FSIZE`` 0): every write SQLite makes then fails with ``EFBIG``, exactly as
on a full disk, and lifting the limit is the disk coming back.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from noddy.server.storage.records import TableSaved, replay
from noddy.server.storage import Storage
from tests.server.harness import Client, play_out

from .test_network import _start, _stop

pytestmark = pytest.mark.skipif(not hasattr(resource, "prlimit"), reason="needs Linux prlimit")


def _disk(pid: int, working: bool) -> None:
    """Make every file write of process ``pid`` fail (``working=False``), or work again."""
    _soft, hard = resource.prlimit(pid, resource.RLIMIT_FSIZE)
    resource.prlimit(pid, resource.RLIMIT_FSIZE, (hard if working else 0, hard))


async def _only_ann_to_act(ann: Client) -> dict[str, Any]:
    """A snapshot in which only ann (seat 0) may act: nothing changes until she does."""
    while True:
        snap = await ann.request({"type": "snapshot"})
        if snap.get("turn") and snap["turn"]["awaiting"] == [0] and snap["game"]["legal_actions"]:
            return snap
        await ann.recv_until(lambda m: m["type"] == "turn" and m["awaiting"] == [0])


async def _versus_greedy(port: int, name: str) -> Client:
    client = await Client.connect(port)
    await client.hello(name)
    await client.request({"type": "create_table", "preset": "cribbage"})
    await client.request({"type": "add_computer", "level": "greedy"})
    await client.request({"type": "ready"})
    return client


async def _seen_or_next(client: Client, since: int, predicate: Any, timeout: float = 10) -> dict[str, Any]:
    """The first message after ``client.received[since]`` that fits, waiting for it if needed."""
    for message in client.received[since:]:
        if predicate(message):
            return message
    return await client.recv_until(predicate, timeout=timeout)


def _action(snapshot: dict[str, Any]) -> dict[str, Any]:
    action = dict(snapshot["game"]["legal_actions"][0])
    action.pop("seat", None)
    return {"type": "action", **action}


async def test_a_failed_write_is_refused_the_table_waits_and_goes_on_when_the_disk_is_back(
        tmp_path: Path) -> None:
    db = tmp_path / "noddy.sqlite3"
    proc, port = _start(db)
    try:
        ann = await _versus_greedy(port, "ann")
        bob = await _versus_greedy(port, "bob")  # another table, on the same failing disk
        before = await _only_ann_to_act(ann)
        bob_snap = await _only_ann_to_act(bob)
        _disk(proc.pid, working=False)
        since = len(ann.received)
        refused = await ann.request(_action(before))
        assert refused["type"] == "error" and refused["code"] == "storage_unavailable"
        assert "did not happen" in refused["message"]
        paused = await _seen_or_next(ann, since, lambda m: m["type"] == "error" and m.get("table") == 1)
        assert paused["code"] == "storage_unavailable" and "paused" in paused["message"]
        # The table is rolled back to what is stored: ann's card is still in her hand.
        rolled_back = await _seen_or_next(ann, since, lambda m: m["type"] == "snapshot")
        assert rolled_back["game"] == before["game"]
        again = await ann.request(_action(before))
        assert again["code"] == "storage_unavailable" and "table 1 is paused" in again["message"]
        # bob's table is paused at its own first unsaved write, not before
        since_bob = len(bob.received)
        assert (await bob.request(_action(bob_snap)))["code"] == "storage_unavailable"

        _disk(proc.pid, working=True)
        back = await ann.recv_until(lambda m: m["type"] == "snapshot" and m is not rolled_back, timeout=10)
        assert back["game"] == before["game"]
        assert (await ann.request(_action(before)))["type"] == "ok"
        over = await play_out(ann, random.Random(5), timeout=60)
        assert over["kind"] == "game_over"
        # bob's table too: rolled back (a first snapshot), then going on (a second)
        while sum(m["type"] == "snapshot" for m in bob.received[since_bob:]) < 2:
            await bob.recv_until(lambda m: m["type"] == "snapshot", timeout=10)
        assert [m["game"] for m in bob.received[since_bob:] if m["type"] == "snapshot"] == [bob_snap["game"]] * 2
        await bob.send({"type": "snapshot"})  # play_out answers the turn in it
        over_bob = await play_out(bob, random.Random(6), timeout=60)
        # Every event each player was sent is in the stored game, in order, without a gap.
        for client, game_over in ((ann, over), (bob, over_bob)):
            games = (await client.request({"type": "list_games"}))["games"]
            record = (await client.request({"type": "get_game", "game": games[0]["id"]}))["record"]
            assert replay(record).scores == game_over["scores"]
        for client in (ann, bob):
            await client.close()
        proc.send_signal(signal.SIGTERM)
        assert await asyncio.to_thread(proc.wait, 10) == 0
        assert proc.stderr is not None
        log = proc.stderr.read()
        assert "could not be written" in log and "takes writes again" in log
        assert "Traceback" not in log
    finally:
        _stop(proc)


async def test_a_database_removed_while_running_is_never_silently_lost(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    proc, port = _start(folder / "noddy.sqlite3")
    try:
        ann = await _versus_greedy(port, "ann")
        before = await _only_ann_to_act(ann)
        shutil.rmtree(folder)
        refused = await ann.request(_action(before))
        assert refused["code"] == "storage_unavailable"
        await asyncio.sleep(1.5)  # a try to take the table back fails the same way
        assert (await ann.request(_action(before)))["code"] == "storage_unavailable"
        await ann.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        await asyncio.to_thread(proc.wait, 10)
        assert proc.stderr is not None
        log = proc.stderr.read()
        _stop(proc)
    assert log.count("was removed or replaced while the server was running") == 1
    assert "ERROR" in log


def _run(*args: str, **kw: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "noddy.server.cli", "--host", "127.0.0.1",
                           "--port", "0", *args], capture_output=True, text=True, timeout=30, **kw)


def test_a_second_server_on_the_same_database_refuses_to_start(tmp_path: Path) -> None:
    db = tmp_path / "noddy.sqlite3"
    proc, _port = _start(db)
    try:
        second = _run("--db", str(db))
        assert second.returncode == 2
        assert second.stdout == ""
        assert f"the database {db} is in use by another noddy-server (process {proc.pid})" in second.stderr
    finally:
        _stop(proc)
    # once the first is gone (even killed), the file is free
    proc, _port = _start(db)
    _stop(proc)


def _no_file_writes() -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))


@pytest.mark.parametrize("existing", [False, True])
def test_a_disk_that_takes_no_writes_is_an_error_at_start(tmp_path: Path, existing: bool) -> None:
    db = tmp_path / "noddy.sqlite3"
    if existing:
        proc, _port = _start(db)
        _stop(proc)
    result = _run("--db", str(db), preexec_fn=_no_file_writes)
    assert result.returncode == 2
    assert result.stdout == ""
    assert f"the database {db}" in result.stderr and "File too large" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_read_only_database_is_an_error_at_start(tmp_path: Path) -> None:
    db = tmp_path / "noddy.sqlite3"
    proc, _port = _start(db)
    _stop(proc)
    # root may write to any file whatever its mode: make it immutable instead
    immutable = os.geteuid() == 0
    if immutable and (shutil.which("chattr") is None
                      or subprocess.run(["chattr", "+i", str(db)], capture_output=True).returncode != 0):
        pytest.skip("running as root where chattr +i is not possible: a read-only file cannot be made")
    if not immutable:
        os.chmod(db, 0o444)
    try:
        data = db.read_bytes()
        result = _run("--db", str(db))
        assert result.returncode == 2
        assert result.stdout == ""
        assert f"the database {db} cannot be written (read-only file" in result.stderr
        assert db.read_bytes() == data
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(db)], check=True)


async def test_a_game_dealt_while_the_disk_fails_is_dealt_again_once_it_works(tmp_path: Path) -> None:
    proc, port = _start(tmp_path / "noddy.sqlite3")
    try:
        ann = await Client.connect(port)
        await ann.hello("ann")
        await ann.request({"type": "create_table", "preset": "noddy"})
        await ann.request({"type": "add_computer", "level": "random"})
        _disk(proc.pid, working=False)
        since = len(ann.received)
        assert (await ann.request({"type": "ready"}))["code"] == "storage_unavailable"
        rolled_back = await _seen_or_next(ann, since, lambda m: m["type"] == "snapshot")
        assert rolled_back["game"] is None and rolled_back["table"]["status"] == "waiting"
        assert not any(m["type"] == "event" for m in ann.received[since:])  # no unsaved deal was shown
        _disk(proc.pid, working=True)
        await ann.recv_until(lambda m: m["type"] == "snapshot" and m is not rolled_back)
        await ann.send({"type": "ready"})
        over = await play_out(ann, random.Random(2), timeout=60)
        games = (await ann.request({"type": "list_games"}))["games"]
        assert [g["result"]["scores"] for g in games] == [over["scores"]]
        record = (await ann.request({"type": "get_game", "game": games[0]["id"]}))["record"]
        assert replay(record).scores == over["scores"]
        await ann.close()
    finally:
        _stop(proc)


# -- one table's records never fail because of another's (the storage itself) ---------------
def test_a_bad_record_fails_its_own_table_only_until_the_table_is_repaired(tmp_path: Path) -> None:
    storage = Storage(tmp_path / "noddy.sqlite3")
    try:
        unencodable = {"id": 2, "name": "\ud800"}
        failed = storage.write([TableSaved(1, {"id": 1, "n": 1}), TableSaved(2, unencodable),
                                TableSaved(3, {"id": 3, "n": 1})])
        assert failed == {2}
        assert _stored(storage) == {1: {"id": 1, "n": 1}, 3: {"id": 3, "n": 1}}
        # nothing is written on top of the gap: table 2 is refused until repaired
        assert storage.write([TableSaved(2, {"id": 2, "n": 2}), TableSaved(1, {"id": 1, "n": 2})]) == {2}
        assert _stored(storage) == {1: {"id": 1, "n": 2}, 3: {"id": 3, "n": 1}}
        assert storage.repair(2, write=False)["table"] is None  # a look does not take it back
        assert storage.write([TableSaved(2, {"id": 2, "n": 3})]) == {2}
        repaired = storage.repair(2, write=True)
        assert repaired["table"] is None and repaired["writable"] is True
        assert storage.write([TableSaved(2, {"id": 2, "n": 4})]) == set()
        assert _stored(storage)[2] == {"id": 2, "n": 4}
    finally:
        storage.close()


def _stored(storage: Storage) -> dict[int, Any]:
    return {row[0]: json.loads(row[1]) for row in storage.db.execute("SELECT id, state FROM tables")}


async def test_no_shared_memory_file_that_could_bring_the_server_down(tmp_path: Path) -> None:
    """SQLite's WAL index is a memory-mapped ``-shm`` file by default: when that file is cut
    short (or cannot grow on a full disk), touching the mapping raises SIGBUS and the whole
    server dies.  The server keeps the index in its own memory instead."""
    db = tmp_path / "noddy.sqlite3"
    proc, port = _start(db)
    try:
        ann = await _versus_greedy(port, "ann")
        await play_out(ann, random.Random(4), stop_after=lambda m: m["type"] == "turn" and m["awaiting"] == [0])
        shm = Path(f"{db}-shm")
        if shm.exists():
            os.truncate(shm, 0)
        await ann.send({"type": "snapshot"})  # play_out answers the turn in it
        over = await play_out(ann, random.Random(4), timeout=60)
        assert over["kind"] == "game_over"
        assert proc.poll() is None
        assert not shm.exists()
        await ann.close()
    finally:
        _stop(proc)
