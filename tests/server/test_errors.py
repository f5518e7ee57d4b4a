"""Every error code, provoked over a real socket; after each, nothing has changed and the
connection still answers."""

from __future__ import annotations

import asyncio
from typing import Any

from noddy.engine import Card, IllegalActionError
from noddy.protocol import ERROR_CODES
from noddy.server import ServerCore

from .harness import Client, running_server, stuck_hashing
from .harness import test_config as config_for_tests

PROVOKED: set[str] = set()


async def refused(client: Client, request: dict[str, Any], code: str, field: str | None = None,
                  state: dict[str, Any] | None = None) -> dict[str, Any]:
    """Send ``request``; the reply must be error ``code`` with the request's id, and ``state``
    (a snapshot or tables request) must answer the same afterwards as before."""
    before = await client.request(state) if state else None
    reply = await client.request(request)
    assert reply["type"] == "error", reply
    assert reply["code"] == code, reply
    assert isinstance(reply["message"], str) and reply["message"]
    if field is not None:
        assert reply["field"] == field
    if state:
        after = await client.request(state)
        before.pop("id"), after.pop("id")
        assert after == before
    PROVOKED.add(code)
    return reply


SNAPSHOT = {"type": "snapshot"}
TABLES = {"type": "list_tables"}


async def test_every_error_code() -> None:
    async with running_server() as server:
        ann, ben, cat = [await Client.connect(server.port) for _ in range(3)]

        # -- before and at the handshake --
        await refused(cat, TABLES, "hello_required")
        reply = await refused(cat, {"type": "hello", "name": "cat", "version": 99}, "unsupported_version",
                              field="version")
        assert reply["supported"] == [1]
        await refused(cat, {"type": "hello", "name": "cat", "version": 1, "resume": "nope"}, "bad_token")
        await refused(cat, {"type": "hello", "version": 1}, "missing_field", field="name")
        await refused(cat, {"type": "hello", "name": 5, "version": 1}, "bad_field", field="name")
        await refused(cat, {"type": "hello", "name": "c\u202eat", "version": 1}, "bad_name", field="name")
        await refused(cat, {"type": "hello", "name": "c\ud800t", "version": 1}, "bad_text", field="name")
        await refused(cat, {"type": "dance"}, "unknown_type", field="type")
        await cat.send_raw(b"{not json\n")
        assert (await cat.recv()) == {"type": "error", "code": "bad_json", "id": None,
                                      "message": (await_msg := cat.received[-1]["message"])}
        assert await_msg.startswith("the line is not valid JSON")
        await cat.send_raw(b"[1, 2]\n")
        assert (await cat.recv())["code"] == "bad_json"
        PROVOKED.add("bad_json")
        await ann.hello("ann")
        await ben.hello("ben")
        await cat.hello("cat")
        await refused(ann, {"type": "hello", "name": "ann", "version": 1}, "already_hello")

        # -- the lobby: nothing changes --
        await refused(ben, {"type": "sit", "table": 99}, "no_such_table", state=TABLES)
        await refused(ben, {"type": "create_table", "preset": "whist"}, "unknown_preset", state=TABLES)
        await refused(ben, {"type": "create_table", "preset": "cribbage", "players": 4},
                      "invalid_player_count", state=TABLES)
        await refused(ben, {"type": "create_table", "preset": "noddy", "options": {"four_card": True}},
                      "invalid_option", state=TABLES)
        await refused(ben, {"type": "create_table", "preset": "noddy", "private": True},
                      "missing_field", field="password", state=TABLES)
        await refused(ben, {"type": "create_table", "players": 2, "seat": 2}, "no_such_seat", state=TABLES)
        await refused(ben, {"type": "stand"}, "not_at_table", state=TABLES)
        await refused(ben, {"type": "chat", "text": "hi", "to": "table"}, "not_at_table", state=TABLES)

        created = await ann.request({"type": "create_table", "preset": "noddy", "private": True,
                                     "password": "pw"})
        table_id = created["table"]["id"]
        assert created["table"]["private"] is True
        await refused(ben, {"type": "sit", "table": table_id, "password": "x"}, "wrong_password",
                      field="password", state=TABLES)
        await refused(ben, {"type": "spectate", "table": table_id}, "wrong_password", state=TABLES)
        await refused(ben, {"type": "sit", "table": table_id, "seat": 5, "password": "pw"},
                      "no_such_seat", state=TABLES)
        await refused(ben, {"type": "sit", "table": table_id, "seat": 0, "password": "pw"},
                      "seat_taken", state=TABLES)
        await refused(ann, {"type": "add_computer", "seat": 1, "level": "genius"}, "unknown_level",
                      state=TABLES)
        await refused(ann, {"type": "remove_computer", "seat": 1}, "not_a_computer", state=TABLES)
        await refused(ann, {"type": "action", "action": "go"}, "no_game", state=TABLES)
        await refused(ann, {"type": "resign_match"}, "no_match", state=TABLES)
        assert (await ben.request({"type": "spectate", "table": table_id, "password": "pw"}))["type"] == "table"
        await refused(ben, {"type": "ready"}, "not_seated", state=TABLES)
        await refused(ben, {"type": "create_table"}, "already_at_table", state=TABLES)
        seated = await ben.request({"type": "sit", "seat": 1})
        assert [s["name"] for s in seated["table"]["seats"]] == ["ann", "ben"]
        await ann.request({"type": "ready"})
        started = await ben.request({"type": "ready"})
        assert started["table"]["status"] == "playing"
        await refused(cat, {"type": "sit", "table": table_id, "password": "pw"}, "table_full", state=TABLES)
        await refused(ann, {"type": "stand"}, "game_in_progress", state=TABLES)

        # -- the game: the state (a full snapshot) is the same after every refusal --
        clients = {0: ann, 1: ben}
        snap = await ann.request(SNAPSHOT)
        mover = snap["game"]["to_move"]
        other = 1 - mover
        mine = (await clients[mover].request(SNAPSHOT))["game"]["hand"]
        theirs = (await clients[other].request(SNAPSHOT))["game"]["hand"]
        absent = next(str(c) for c in map(Card.parse, ["AC", "AD", "AH", "AS", "2C"])
                      if str(c) not in mine)
        await refused(clients[other], {"type": "action", "action": "play", "card": theirs[0]},
                      "not_your_turn", state=SNAPSHOT)
        await refused(clients[mover], {"type": "action", "action": "play", "card": absent},
                      "card_not_in_hand", state=SNAPSHOT)
        await refused(clients[mover], {"type": "action", "action": "play", "card": "ZZ"},
                      "invalid_card", state=SNAPSHOT)
        await refused(clients[mover], {"type": "action", "action": "play"}, "missing_field",
                      field="card", state=SNAPSHOT)
        await refused(clients[mover], {"type": "action", "action": "jump"}, "bad_field",
                      field="action", state=SNAPSHOT)
        await refused(clients[mover], {"type": "action", "action": "play", "card": mine[0], "seat": other},
                      "bad_field", field="seat", state=SNAPSHOT)
        await refused(clients[mover], {"type": "action", "action": "go"}, "must_play", state=SNAPSHOT)
        await refused(clients[mover], {"type": "stand_in", "seat": other}, "not_away",
                      field="seat", state=SNAPSHOT)
        await refused(clients[mover], {"type": "action", "action": "discard", "cards": mine[:1]},
                      "wrong_phase", state=SNAPSHOT)

        # Play the highest card each turn until someone holds a card that would pass 31.
        for _ in range(200):
            snap = await ann.request(SNAPSHOT)
            game = snap["game"]
            if game["winner"] is not None:
                break
            if game["to_move"] is None:
                await asyncio.sleep(0.01)
                continue
            client = clients[game["to_move"]]
            view = (await client.request(SNAPSHOT))["game"]
            room = 31 - view["count"]
            too_big = [c for c in view["hand"] if Card.parse(c).value > room]
            if too_big and "would_pass_31" not in PROVOKED:
                await refused(client, {"type": "action", "action": "play", "card": too_big[0]},
                              "would_pass_31", state=SNAPSHOT)
            legal = view["legal_actions"]
            best = max(legal, key=lambda a: Card.parse(a["card"]).value if a["action"] == "play" else -1)
            assert (await client.request({"type": "action", **best}))["type"] == "ok"
            if "would_pass_31" in PROVOKED:
                break
        assert "would_pass_31" in PROVOKED

        # -- the crib: discards --
        dan = await Client.connect(server.port)
        await dan.hello("dan")
        crib = await cat.request({"type": "create_table", "preset": "cribbage"})
        await dan.request({"type": "sit", "table": crib["table"]["id"]})
        await cat.request({"type": "ready"})
        await dan.request({"type": "ready"})
        hand = (await cat.request(SNAPSHOT))["game"]["hand"]
        assert len(hand) == 6
        await refused(cat, {"type": "action", "action": "discard", "cards": hand[:1]}, "wrong_discard",
                      state=SNAPSHOT)
        await refused(cat, {"type": "action", "action": "play", "card": hand[0]}, "wrong_phase",
                      state=SNAPSHOT)
        assert (await cat.request({"type": "action", "action": "discard", "cards": hand[:2]}))["type"] == "ok"
        await refused(cat, {"type": "action", "action": "discard", "cards": hand[2:4]}, "already_discarded",
                      state=SNAPSHOT)

        # -- the engine's catch-all, passed on unchanged (cannot happen with today's engine) --
        table = server.core.tables[crib["table"]["id"]]

        def refuse(action: object) -> list:
            raise IllegalActionError("a refusal without a code of its own")
        table.game.apply = refuse  # type: ignore[method-assign]
        await refused(dan, {"type": "action", "action": "discard", "cards": ["AC", "2C"]}, "illegal_action")
        del table.game.apply

        # -- text mode --
        eve = await Client.connect(server.port)
        await eve.send_raw(b"dance wildly\n")
        line = await asyncio.wait_for(eve.reader.readline(), 5)
        assert line == b"Error (unknown_command): not a command: 'dance wildly'; type help for the list\n"
        PROVOKED.add("unknown_command")
        await eve.send_raw(b"play\n")  # a command, but without its card
        line = await asyncio.wait_for(eve.reader.readline(), 5)
        assert line == b"Error (bad_command): write play CARD, e.g. play 5H; type help for all commands\n"
        PROVOKED.add("bad_command")

        # every connection is still open and answering
        for client in (ann, ben, cat, dan):
            assert (await client.request({"type": "ping"}))["type"] == "pong"

        # -- an over-long line closes only that connection --
        long = await Client.connect(server.port)
        await long.send_raw(b'{"type":"ping","pad":"' + b"x" * 9000 + b'"}\n')
        reply = await long.recv()
        assert reply == {"type": "error", "code": "line_too_long", "id": None,
                         "message": "a line may hold at most 8192 bytes; closing"}
        assert await long.closed()
        PROVOKED.add("line_too_long")
        assert (await ann.request({"type": "ping"}))["type"] == "pong"
        for client in (ann, ben, cat, dan, eve, long):
            await client.close()


async def test_rate_limit_then_flood() -> None:
    # The clock stands still, so no token comes back however slowly the lines are read.
    core = ServerCore(config_for_tests(rate=0.5, burst=2, flood_strikes=3), clock=lambda: 0.0)
    async with running_server(core=core) as server:
        client = await Client.connect(server.port)
        await client.send_raw(b"".join(b'{"type":"ping","id":%d}\n' % i for i in range(1, 7)))
        replies = [await client.recv() for _ in range(6)]
        assert [(r["type"], r.get("code"), r["id"]) for r in replies] == [
            ("pong", None, 1), ("pong", None, 2),
            ("error", "rate_limited", 3), ("error", "rate_limited", 4), ("error", "rate_limited", 5),
            ("error", "flood", 6)]
        assert [r["retry_after"] for r in replies[2:5]] == [2.0] * 3  # a token in 1 / 0.5 s
        assert await client.closed()
        PROVOKED.update({"rate_limited", "flood"})
        # the server itself is fine
        other = await Client.connect(server.port)
        assert (await other.request({"type": "ping"}))["type"] == "pong"
        await other.close()


async def test_resource_limits() -> None:
    """The per-address connection limit and the per-connection table limit (more in
    tests/robustness/test_limits.py)."""
    async with running_server(max_connections_per_address=2, max_tables_per_connection=1) as server:
        ann, ben = [await Client.connect(server.port) for _ in range(2)]
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        refusal = await asyncio.wait_for(reader.readline(), 10)
        assert b'"code":"too_many_connections"' in refusal
        assert await asyncio.wait_for(reader.read(), 10) == b""
        writer.close()
        PROVOKED.add("too_many_connections")
        await ann.hello("ann")
        await ben.hello("ben")
        table = (await ann.request({"type": "create_table"}))["table"]["id"]
        await ben.request({"type": "sit", "table": table})
        await ann.request({"type": "leave"})
        await refused(ann, {"type": "create_table"}, "too_many_tables", state=TABLES)
        PROVOKED.add("too_many_tables")
        await ann.close()
        await ben.close()


async def test_names_access_and_records() -> None:
    """The codes of names, the creator's rights and stored records (more in tests/storage/)."""
    async with running_server() as server:
        ann, ben = [await Client.connect(server.port) for _ in range(2)]
        await ann.hello("ann")
        await refused(ben, {"type": "hello", "name": "ann", "version": 1}, "name_taken", field="name")
        await ben.hello("ben")
        table = (await ann.request({"type": "create_table"}))["table"]["id"]
        await ann.request({"type": "add_computer", "level": "random"})
        await ben.request({"type": "spectate", "table": table})
        await refused(ben, {"type": "remove_computer", "seat": 1}, "not_creator", state=SNAPSHOT)
        await refused(ben, {"type": "configure_table", "options": {"target": 61}}, "not_creator",
                      state=SNAPSHOT)
        await refused(ann, {"type": "get_game", "game": 7}, "no_such_game", field="game")
        real_read = server._store.read

        def failing_read(kind: str, args: dict[str, Any]) -> Any:
            def fail() -> None:
                raise OSError("disk on fire")
            return server._store._call(fail)
        server._store.read = failing_read  # type: ignore[method-assign]
        await refused(ann, {"type": "list_games"}, "storage_unavailable")
        server._store.read = real_read  # type: ignore[method-assign]
        assert (await ann.request({"type": "list_games"}))["games"] == []
        await ann.close()
        await ben.close()


async def test_too_many_wrong_passwords() -> None:
    async with running_server(password_attempts=1) as server:
        ann, ben = [await Client.connect(server.port) for _ in range(2)]
        await ann.hello("ann")
        await ben.hello("ben")
        table_id = (await ann.request({"type": "create_table", "private": True, "password": "pw"}))["table"]["id"]
        await refused(ben, {"type": "sit", "table": table_id, "password": "x"}, "wrong_password", state=TABLES)
        reply = await refused(ben, {"type": "sit", "table": table_id, "password": "pw"}, "too_many_attempts",
                              field="password", state=TABLES)
        assert reply["retry_after"] > 0
        await ann.close()
        await ben.close()


async def test_account_limits(monkeypatch: Any) -> None:
    """``too_many_accounts`` (one a day from this address, here), and ``busy`` while the
    hashing worker is stuck on a check and the queue (one, here) is full."""
    async with running_server(accounts_per_address_per_day=1, password_queue=1) as server:
        ann, ben = [await Client.connect(server.port) for _ in range(2)]
        await ann.hello("ann")
        await ben.hello("ben")
        assert (await ann.request({"type": "register", "password": "a secret"}))["type"] == "registered"
        reply = await refused(ben, {"type": "register", "password": "a secret"}, "too_many_accounts",
                              state=TABLES)
        assert reply["retry_after"] > 86_000
        release = stuck_hashing(monkeypatch)
        waiting = asyncio.ensure_future(ann.request({"type": "change_password", "old": "a secret",
                                                     "new": "another"}))
        other = await Client.connect(server.port, "127.0.0.2")  # not ann's own address
        reply = await refused(other, {"type": "hello", "name": "ann", "version": 1, "password": "x"}, "busy")
        assert reply["retry_after"] == 0.05
        release.set()
        assert (await waiting)["type"] == "password_changed"
        for client in (ann, ben, other):
            await client.close()


async def test_counting_by_hand_and_the_coach() -> None:
    """The codes of a show counted by hand and of the coach, at a table that has both."""
    async with running_server() as server:
        ann = await Client.connect(server.port)
        await ann.hello("ann")
        await ann.request({"type": "create_table", "preset": "noddy-modern",
                           "options": {"counting": "manual", "hints": True}})
        await ann.request({"type": "add_computer", "level": "greedy"})
        await ann.request({"type": "ready"})
        while True:  # play the first card offered until ann is to claim
            turn = (await ann.request(SNAPSHOT)).get("turn") or {}
            legal = turn.get("legal_actions") or []
            if legal[:1] == [{"action": "claim", "min": 0, "max": 29}]:
                break
            if legal:  # (a computer's show first: ann lets its claim stand)
                action = {"action": "pass"} if {"action": "pass"} in legal else legal[0]
                reply = await ann.request({"type": "action", **action})
                assert reply["type"] == "ok", reply
            else:
                await asyncio.sleep(0.02)
        # Now nobody moves until ann claims, so each refusal can be seen to change nothing.
        await refused(ann, {"type": "review"}, "no_such_deal", field="deal", state=SNAPSHOT)
        await refused(ann, {"type": "hint"}, "no_hint", state=SNAPSHOT)
        await refused(ann, {"type": "action", "action": "claim", "points": 30}, "bad_claim", state=SNAPSHOT)
        other = await Client.connect(server.port)
        await other.hello("ben")
        await other.request({"type": "create_table"})
        await refused(other, {"type": "hint"}, "hints_off", state=SNAPSHOT)
        await ann.close()
        await other.close()


async def test_the_account_codes() -> None:
    """The codes of accounts: a registered name without (or with a wrong) password, a second
    register, a guest changing a password, and over nc a command after a refused name."""
    async with running_server() as server:
        ann, ben = [await Client.connect(server.port) for _ in range(2)]
        await ann.hello("ann")
        assert (await ann.request({"type": "register", "password": "sesame"}))["type"] == "registered"
        await refused(ann, {"type": "register", "password": "sesame"}, "already_registered", state=TABLES)
        await ben.hello("ben")
        await refused(ben, {"type": "change_password", "old": "x", "new": "whatever"}, "not_registered",
                      state=TABLES)
        await ben.request({"type": "bye"})
        cat = await Client.connect(server.port)
        await refused(cat, {"type": "hello", "name": "ann", "version": 1}, "password_required", field="password")
        await refused(cat, {"type": "hello", "name": "ANN", "version": 1, "password": "open sesame"},
                      "bad_password", field="password")
        eve = await Client.connect(server.port)
        await eve.send_raw(b"name ann\n")
        assert (await asyncio.wait_for(eve.reader.readline(), 5)).startswith(b"Error (password_required): ")
        await asyncio.wait_for(eve.reader.readline(), 5)  # (the error's second line)
        await eve.send_raw(b"new noddy\n")
        lines = [await asyncio.wait_for(eve.reader.readline(), 5) for _ in range(3)]
        assert lines == [b"Error (name_required): the name 'ann' was refused, so you have no name yet: type\n",
                         b"  name NAME with another name (or login ann PASSWORD if ann is your registered\n",
                         b"  name) first\n"]
        PROVOKED.add("name_required")
        for client in (ann, cat, eve):
            await client.close()


async def test_the_codes_of_meeting_in_the_lobby() -> None:
    async with running_server() as server:
        ann, *others = [await Client.connect(server.port) for _ in range(7)]
        await ann.hello("ann")
        for number, other in enumerate(others):
            await other.hello(f"p{number}")
        WHO = {"type": "who"}
        await refused(ann, {"type": "challenge", "name": "nobody"}, "no_such_player", field="name", state=WHO)
        await refused(ann, {"type": "accept", "challenge": 3}, "no_such_challenge", field="challenge", state=WHO)
        await others[0].request({"type": "create_table"})
        await refused(ann, {"type": "challenge", "name": "p0"}, "player_busy", field="name", state=WHO)
        for number in range(1, 5):
            assert (await ann.request({"type": "challenge", "name": f"p{number}"}))["type"] == "challenge"
        await refused(ann, {"type": "challenge", "name": "p5"}, "too_many_challenges")
        for client in (ann, *others):
            await client.close()


async def test_the_errors_of_people_talking() -> None:
    async with running_server() as server:
        ann, wes = await Client.connect(server.port), await Client.connect(server.port)
        await ann.hello("ann")
        await wes.hello("wes")
        await ann.request({"type": "create_table"})
        MUTED = {"type": "muted"}
        await refused(ann, {"type": "chat", "text": "psst", "to": "watchers"}, "not_watching", field="to",
                      state=SNAPSHOT)
        await refused(wes, {"type": "unmute", "name": "ann"}, "not_muted", field="name", state=MUTED)
        for number in range(100):
            await wes.request({"type": "mute", "name": f"pest{number}"})
        await refused(wes, {"type": "mute", "name": "ann"}, "too_many_muted", field="name", state=MUTED)
        await refused(wes, {"type": "tell", "name": "nobody", "text": "hi"}, "no_such_player", field="name")
        for client in (ann, wes):
            await client.close()


async def test_a_tell_too_many_for_an_absent_account(tmp_path: Any) -> None:
    async with running_server(db=str(tmp_path / "n.db"), chat_rate_per_address=1000.0,
                              chat_burst_per_address=1000) as server:
        ann, ben = await Client.connect(server.port), await Client.connect(server.port)
        await ann.hello("ann")
        await ann.request({"type": "register", "password": "correct horse"})
        await ann.request({"type": "bye"})
        await ben.hello("ben")  # a guest leaves no tell for someone away (issue 31)
        await refused(ben, {"type": "tell", "name": "ann", "text": "hi"}, "not_registered", field="name")
        await ben.request({"type": "register", "password": "correct horse"})
        for number in range(3):  # one sender leaves at most 3 for one person
            assert (await ben.request({"type": "tell", "name": "ann", "text": f"{number}"}))["waiting"] is True
        await refused(ben, {"type": "tell", "name": "ann", "text": "one more"}, "too_many_waiting", field="name")
        await ben.close()


async def test_a_watcher_past_max_spectators() -> None:
    async with running_server() as server:
        ann, ben = await Client.connect(server.port), await Client.connect(server.port)
        await ann.hello("ann")
        await ben.hello("ben")
        await ann.request({"type": "create_table", "options": {"max_spectators": 0}})
        await refused(ben, {"type": "spectate", "table": 1}, "too_many_watchers", state=TABLES)
        await ann.close()
        await ben.close()


async def test_club_night_codes() -> None:
    """The club nights' codes (docs/PROTOCOL.md "Club nights"), each from its request."""
    async with running_server() as server:
        ann, ben, cal = [await Client.connect(server.port, f"127.0.0.{i}") for i in (2, 3, 4)]
        for client, name in ((ann, "ann"), (ben, "ben"), (cal, "cal")):
            await client.hello(name)
        night = {"type": "announce_event", "title": "Tuesday", "format": "round-robin", "preset": "cribbage"}
        await refused(ann, night, "not_registered")
        assert (await ann.request({"type": "register", "password": "sesame"}))["type"] == "registered"
        event = (await ann.request(night))["event"]["id"]
        await refused(ann, night, "too_many_events")
        await refused(ben, {"type": "event", "event": event + 1}, "no_such_event", "event")
        await refused(ben, {"type": "direct_event", "event": event, "command": "start"}, "not_director")
        await refused(ann, {"type": "direct_event", "event": event, "command": "start"}, "too_few_entrants")
        await refused(ann, {"type": "direct_event", "event": event, "command": "resume"}, "event_state")
        await refused(ben, {"type": "withdraw_event", "event": event}, "not_entered")
        assert (await ben.request({"type": "join_event", "event": event}))["type"] == "ok"
        await refused(ben, {"type": "join_event", "event": event}, "already_entered")
        assert (await ann.request({"type": "direct_event", "event": event, "command": "remove",
                                   "name": "ben"}))["type"] == "ok"
        await refused(ben, {"type": "join_event", "event": event}, "removed_from_event")
        others = [await Client.connect(server.port, f"127.0.1.{i}") for i in range(64)]
        for i, client in enumerate(others):
            await client.hello(f"p{i}")
            assert (await client.request({"type": "join_event", "event": event}))["type"] == "ok"
        await refused(cal, {"type": "join_event", "event": event}, "event_full")
        assert (await others[0].request({"type": "withdraw_event", "event": event}))["type"] == "ok"
        assert (await ann.request({"type": "direct_event", "event": event, "command": "start"}))["type"] == "ok"
        await refused(cal, {"type": "join_event", "event": event}, "too_late")
        assert (await ben.request({"type": "register", "password": "sesame"}))["type"] == "registered"
        private = (await ben.request({**night, "password": "club"}))["event"]["id"]
        await refused(cal, {"type": "join_event", "event": private, "password": "pub"}, "bad_password", "password")
        for client in [ann, ben, cal, *others]:
            await client.close()


def test_every_code_was_provoked() -> None:
    """Runs after the tests above (pytest keeps file order)."""
    assert PROVOKED == set(ERROR_CODES)
