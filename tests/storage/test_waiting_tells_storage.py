"""The tells and mutes storage keeps for an account (issue 31), through its queries (with a
small inbox, 5, to see the rule at work): which tell gives way when it is full, the bound
per sender, a stored mute keeping a tell
out, the bound on stored mutes, and what giving the account up deletes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from noddy.server.storage import Storage
from noddy.server.storage.tells import forget_account


def _leave(storage: Storage, sender: int, text: str, account: int = 1, limit: int = 5) -> Any:
    return storage.read("leave_tell", {"account": account, "from": f"s{sender}", "sender": sender,
                                       "sender_key": f"s{sender}", "text": text, "sent_at": 1.0,
                                       "per_sender": 3, "limit": limit})


def _waiting(storage: Storage, account: int = 1) -> list[str]:
    return [told["text"] for told in storage.read("take_tells", {"account": account})["tells"]]


def test_the_oldest_tell_of_whoever_has_most_waiting_gives_way(tmp_path: Path) -> None:
    storage = Storage(tmp_path / "n.db")
    for sender, text in ((2, "b1"), (3, "c1"), (3, "c2"), (2, "b2"), (4, "d1")):
        assert _leave(storage, sender, text) == {"kept": True}
    # Full (5): senders 2 and 3 have two each; 2's oldest (b1) is older than 3's (c1).
    assert _leave(storage, 5, "e1") == {"kept": True}
    assert _leave(storage, 3, "c3") == {"kept": True}  # then 3 has the most: c1 gives way
    assert _leave(storage, 3, "c4") == {"kept": True}  # and again: a flooder displaces its own
    assert _waiting(storage) == ["b2", "d1", "e1", "c3", "c4"]
    assert _waiting(storage) == []  # handed over once
    storage.close()


def test_one_sender_leaves_at_most_three_for_one_person(tmp_path: Path) -> None:
    storage = Storage(tmp_path / "n.db")
    for number in range(3):
        assert _leave(storage, 2, f"b{number}", limit=20) == {"kept": True}
    assert _leave(storage, 2, "b3", limit=20) == {"full": True}
    assert _leave(storage, 2, "to another", account=4, limit=20) == {"kept": True}
    assert _waiting(storage) == ["b0", "b1", "b2"]
    storage.close()


def test_a_stored_mute_keeps_a_tell_out_and_mutes_are_bounded(tmp_path: Path) -> None:
    storage = Storage(tmp_path / "n.db")
    for key, name in (("s7", "S7"), ("s8", "s8"), ("s7", "s7"), ("s9", "s9")):
        storage.read("keep_mute", {"account": 1, "key": key, "name": name, "limit": 2})
    assert _leave(storage, 7, "hi") == {"muted": True}
    assert _leave(storage, 9, "hi") == {"kept": True}  # the third name was beyond the limit
    storage.read("drop_mute", {"account": 1, "key": "s8", "name": "S8"})
    assert storage.read("take_tells", {"account": 1}) == {
        "tells": [{"from": "s9", "text": "hi", "sent_at": 1.0}], "muted": ["s7"]}
    storage.close()


def test_giving_an_account_up_deletes_its_tells_both_ways_and_its_mutes(tmp_path: Path) -> None:
    storage = Storage(tmp_path / "n.db")
    _leave(storage, 2, "to one from two", account=1)
    _leave(storage, 1, "to three from one", account=3)
    _leave(storage, 2, "to three from two", account=3)
    storage.read("keep_mute", {"account": 1, "key": "s4", "name": "s4", "limit": 100})
    storage.db.execute("BEGIN")
    forget_account(storage.db, 1)
    storage.db.execute("COMMIT")
    assert storage.read("take_tells", {"account": 1}) == {"tells": [], "muted": []}
    assert _waiting(storage, 3) == ["to three from two"]
    storage.close()
