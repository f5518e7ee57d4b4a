"""Accounts over real sockets: registering a name, logging in with and without its password,
wrong passwords slowed per address, changing and resetting a password, giving the account
up; a guest and an account at one table (unrated, saying why); and over nc, a refused name
that keeps the person asking instead of making them a guest (issue 24)."""

from __future__ import annotations

import asyncio
import io
import random
from pathlib import Path
from typing import Any

from noddy.server.cli import main as server_main

from .harness import Client, play_out, running_server, text_connection, text_line

SECRET = "correct horse"


async def _hello(port: int, name: str, **extra: Any) -> Client:
    client = await Client.connect(port)
    await client.hello(name, **extra)
    return client


async def _register(client: Client, password: str = SECRET) -> dict[str, Any]:
    reply = await client.request({"type": "register", "password": password})
    assert reply["type"] == "registered", reply
    return reply


async def test_a_registered_name_needs_its_password() -> None:
    async with running_server() as server:
        ann = await _hello(server.port, "ann")
        assert ann.received[-1]["registered"] is False
        assert (await _register(ann))["name"] == "ann"
        await ann.request({"type": "bye"})

        other = await Client.connect(server.port)
        hello = {"type": "hello", "name": "ann", "version": 1}
        refused = await other.request(hello)
        assert (refused["code"], refused["field"]) == ("password_required", "password")
        assert refused["message"] == ("'ann' is a registered name: give its password (in text mode: login "
                                      "ann PASSWORD), or choose another name")
        # A lookalike is the same name (Cyrillic а, capitals): the password is still needed.
        assert (await other.request({**hello, "name": "АNN"}))["code"] == "password_required"
        wrong = await other.request({**hello, "password": "battery staple"})
        assert (wrong["code"], wrong["field"]) == ("bad_password", "password")
        welcome = await other.request({**hello, "name": "ANN", "password": SECRET})
        assert (welcome["type"], welcome["name"], welcome["registered"], welcome["resumed"]) == (
            "welcome", "ann", True, False)
        await other.close()


async def test_wrong_account_passwords_do_not_lock_the_address_out_of_private_tables() -> None:
    """Account guesses are counted per name and per address over names (see
    test_password_limits.py), apart from a private table's wrong passwords: neither locks the
    other out."""
    async with running_server(password_attempts=2, password_window=60.0, password_lockout=60.0) as server:
        ann = await _hello(server.port, "ann")
        await _register(ann)
        await ann.request({"type": "bye"})
        guesser = await Client.connect(server.port, "127.0.0.2")
        hello = {"type": "hello", "name": "ann", "version": 1}
        for guess in ("one", "two", "three"):
            assert (await guesser.request({**hello, "password": guess}))["code"] == "bad_password"
        bob = await _hello(server.port, "bob")
        table = await bob.request({"type": "create_table", "private": True, "password": "owl"})
        await guesser.hello("eve")
        sit = await guesser.request({"type": "sit", "table": table["table"]["id"], "password": "owl"})
        assert sit["type"] == "table"
        for client in (guesser, bob):
            await client.close()


async def test_a_password_is_changed_and_the_account_given_up() -> None:
    async with running_server() as server:
        ann = await _hello(server.port, "ann")
        await _register(ann)
        wrong = await ann.request({"type": "change_password", "old": "nope", "new": "battery staple"})
        assert (wrong["code"], wrong["field"]) == ("bad_password", "old")
        short = await ann.request({"type": "change_password", "old": SECRET, "new": "abc"})
        assert (short["code"], short["field"]) == ("bad_field", "new")
        changed = await ann.request({"type": "change_password", "old": SECRET, "new": "battery staple"})
        assert changed == {"type": "password_changed", "name": "ann", "id": changed["id"]}
        await ann.request({"type": "bye"})
        ann = await Client.connect(server.port)
        hello = {"type": "hello", "name": "ann", "version": 1}
        assert (await ann.request({**hello, "password": SECRET}))["code"] == "bad_password"
        assert (await ann.request({**hello, "password": "battery staple"}))["registered"] is True

        assert (await ann.request({"type": "unregister", "password": SECRET}))["code"] == "bad_password"
        gone = await ann.request({"type": "unregister", "password": "battery staple"})
        assert gone == {"type": "unregistered", "name": "ann", "id": gone["id"]}
        assert (await ann.request({"type": "unregister", "password": "x"}))["code"] == "not_registered"
        await ann.request({"type": "bye"})
        guest = await _hello(server.port, "ann")  # a guest's name again: no password
        assert guest.received[-1]["registered"] is False
        await guest.close()


async def test_logging_in_takes_back_the_accounts_held_seat() -> None:
    async with running_server(grace_period=30.0) as server:
        ann, bob = await _hello(server.port, "ann"), await _hello(server.port, "bob")
        await _register(ann)
        created = await ann.request({"type": "create_table"})
        table_id = created["table"]["id"]
        await bob.request({"type": "sit", "table": table_id})
        await ann.close()  # the connection drops: her seat is held
        await bob.recv_until(lambda m: m["type"] == "player_away")
        back = await Client.connect(server.port)
        welcome = await back.request({"type": "hello", "name": "ann", "version": 1, "password": SECRET})
        assert (welcome["resumed"], welcome["table"], welcome["seat"], welcome["registered"]) == (True, table_id, 0, True)
        assert (await back.recv_until(lambda m: m["type"] == "snapshot"))["seat"] == 0
        assert (await bob.recv_until(lambda m: m["type"] == "player_back"))["name"] == "ann"
        for client in (back, bob):
            await client.close()


async def test_a_guest_and_an_account_at_one_table_play_unrated_and_are_told_why() -> None:
    async with running_server() as server:
        ann, ben = await _hello(server.port, "ann"), await _hello(server.port, "ben")
        await _register(ann)
        created = await ann.request({"type": "create_table", "preset": "noddy", "options": {"target": 15}})
        table = created["table"]
        assert (table["rated"], table["unrated_reasons"], table["unrated_why"]) == (True, [], None)
        assert table["seats"][0]["guest"] is False
        seated = (await ben.request({"type": "sit", "table": table["id"]}))["table"]
        assert (seated["rated"], seated["unrated_reasons"], seated["unrated_why"]) == (False, ["guest"], "ben is a guest")
        assert [seat["guest"] for seat in seated["seats"]] == [False, True]
        listed = (await ann.request({"type": "list_tables"}))["tables"][0]
        assert (listed["rated"], listed["unrated_reasons"]) == (False, ["guest"])
        await ann.request({"type": "ready"})
        await ben.request({"type": "ready"})
        await asyncio.gather(play_out(ann, random.Random(1)), play_out(ben, random.Random(2)))
        over = await ann.recv_until(lambda m: m["type"] == "table" and m["table"]["status"] == "finished")
        assert (over["table"]["rated"], over["table"]["unrated_why"]) == (False, "ben is a guest")
        board = await ann.request({"type": "leaderboard"})
        assert (board["players"], board["unrated"]) == ([], {"games": 1, "reasons": {"guest": 1}})
        assert board["why"].endswith("Since the server started, 1 noddy game was unrated: 1 with a guest "
                                     "(no account) at the table.")
        assert [s["rating"] for s in over["table"]["seats"]] == [1500, 1500]
        # ben registers at the table: it is pushed, and the next game would be rated.
        await _register(ben)
        pushed = await ann.recv_until(lambda m: m["type"] == "table" and m["table"]["rated"])
        assert [seat["guest"] for seat in pushed["table"]["seats"]] == [False, False]
        for client in (ann, ben):
            await client.close()


async def test_a_guest_does_not_read_a_former_guests_private_records_under_the_same_name() -> None:
    """Names were not accounts: whoever said hello as "ann" once ann had gone read the
    private games ann had played.  A guest's private games open to their password only."""
    async with running_server() as server:
        ann = await _hello(server.port, "ann")
        await ann.request({"type": "create_table", "private": True, "password": "owl",
                           "options": {"target": 15}})
        await ann.request({"type": "add_computer", "level": "random"})
        await ann.request({"type": "ready"})
        await play_out(ann, random.Random(3))
        game_id = (await ann.request({"type": "snapshot"}))["table"]["game_id"]
        await ann.request({"type": "bye"})
        impostor = await _hello(server.port, "ann")
        assert (await impostor.request({"type": "list_games"}))["games"] == []
        assert (await impostor.request({"type": "get_game", "game": game_id}))["code"] == "no_such_game"
        opened = await impostor.request({"type": "get_game", "game": game_id, "password": "owl"})
        assert opened["record"]["id"] == game_id
        await impostor.close()


async def test_the_host_resets_a_forgotten_password_with_the_server_stopped(tmp_path: Path, caplog: Any) -> None:
    db = str(tmp_path / "noddy.sqlite3")
    async with running_server(db=db) as server:
        ann = await _hello(server.port, "ann")
        await _register(ann)
        # While the server runs it holds the database: the reset refuses and says why.
        assert server_main(["reset-password", "ann", "--db", db]) == 2
        assert "in use by another noddy-server" in caplog.text
        await ann.close()
    from noddy.server import reset_password as module

    assert module.reset_password(["nobody", "--db", db], io.StringIO("whatever\n")) == 1
    assert module.reset_password(["ann", "--db", db], io.StringIO("ab\n")) == 1  # too short
    assert module.reset_password(["Ann", "--db", db], io.StringIO("a new one\n")) == 0
    async with running_server(db=db) as server:
        ann = await Client.connect(server.port)
        hello = {"type": "hello", "name": "ann", "version": 1}
        assert (await ann.request({**hello, "password": SECRET}))["code"] == "bad_password"
        assert (await ann.request({**hello, "password": "a new one"}))["registered"] is True
        await ann.close()


async def test_over_nc_a_refused_name_keeps_asking_instead_of_making_a_guest() -> None:
    """Issue 24: `name fay` got name_taken while fay's seat was held, and her next command,
    `new noddy`, created a table as "guest-1"."""
    async with running_server(grace_period=30.0) as server:
        fay = await _hello(server.port, "fay")
        await fay.request({"type": "create_table"})
        await fay.close()  # her seat is held: the name is in use
        reader, writer = await text_connection(server.port)
        writer.write(b"name fay\n")
        assert (await text_line(reader)).startswith("Error (name_taken): the name 'fay' ")
        await text_line(reader)
        writer.write(b"new noddy\n")  # (fay is no registered name: no login is suggested)
        assert await text_line(reader) + await text_line(reader) == (
            "Error (name_required): the name 'fay' was refused, so you have no name yet: type\n"
            "  name NAME with another name first\n")
        assert len(server.core.tables) == 1  # no table made by a guest
        writer.write(b"name fay2\n")
        assert (await text_line(reader)).startswith("Welcome, fay2! ")
        writer.close()


async def test_over_nc_a_person_registers_and_logs_in() -> None:
    async with running_server() as server:
        reader, writer = await text_connection(server.port)
        writer.write(b"name Cy\n")
        assert (await text_line(reader)).startswith("Welcome, Cy! ")
        await text_line(reader)
        assert await text_line(reader) == "You are a guest (unrated): register PASSWORD keeps your name.\n"
        writer.write(b"register my secret words\n")  # a password typed here is one word, as login takes it
        assert (await text_line(reader)).startswith("Error (bad_command): write register PASSWORD")
        await text_line(reader)
        writer.write(b"register sesame1 sesame1\n")
        assert await text_line(reader) + await text_line(reader) == (
            "Cy is registered: the name is yours, and your games with other registered people\n"
            "  are rated. Next time: login Cy PASSWORD.\n")
        writer.write(b"quit\n")
        assert await text_line(reader) == "Goodbye.\n"
        reader, writer = await text_connection(server.port)
        writer.write(b"name Cy\n")
        assert (await text_line(reader)).startswith("Error (password_required): 'Cy' is a registered name")
        await text_line(reader)
        writer.write(b"login Cy wrong\n")
        assert (await text_line(reader)).startswith("Error (bad_password): ")
        await text_line(reader)
        writer.write(b"login Cy ses ame1\n")  # "Cy ses" has no account: no guest of that name either
        assert (await text_line(reader)).startswith("Error (not_registered): no account is registered as 'Cy ses'")
        await text_line(reader), await text_line(reader)
        writer.write(b"look\n")  # no guest-1 in between
        assert (await text_line(reader)).startswith("Error (name_required): the name 'Cy ses' was refused")
        assert await text_line(reader) == "  type name NAME with another name first\n"  # no account is 'Cy ses'
        writer.write(b"login cy sesame1\n")
        assert (await text_line(reader)).startswith("Welcome, Cy! Your resume token is ")
        assert await text_line(reader) == ("Type tables to see the tables, new noddy to start one, "
                                       "help for all commands.\n")
        writer.write(b"password sesame1 sesame2\n")
        assert await text_line(reader) == "The password of Cy is changed.\n"
        writer.write(b"unregister sesame2\n")
        assert await text_line(reader) == "Cy is no longer registered: you are a guest, and its ratings are gone.\n"
        writer.close()


async def test_over_nc_a_watcher_renames_to_a_registered_name_with_its_password() -> None:
    """Renaming to a registered name needs its password too; until it is checked the old
    name stays, and the watcher watches on under the account's name."""
    async with running_server() as server:
        cy = await _hello(server.port, "Cy")
        await _register(cy, "sesame1")
        await cy.request({"type": "bye"})
        host = await _hello(server.port, "host")
        table_id = (await host.request({"type": "create_table"}))["table"]["id"]
        reader, writer = await text_connection(server.port)

        async def reply(command: str) -> str:
            """The first line after ``command`` that is not the table's news."""
            writer.write(command.encode() + b"\n")
            while True:
                line = await text_line(reader)
                if not line.startswith(("Table ", "Seat 2 is free", "Type tables", "You are a guest", "  ")):
                    return line

        assert (await reply(f"watch {table_id}")).startswith("Welcome, guest-1! ")
        assert (await reply("name cy")).startswith("Error (password_required): 'Cy' is a registered name")
        assert (await reply("login cy nope")).startswith("Error (bad_password): ")
        table = server.core.tables[table_id]
        assert [s.name for s in table.spectators] == ["guest-1"]
        assert (await reply("login cy sesame1")).startswith("Welcome, Cy! ")
        assert [(s.name, s.account is not None) for s in table.spectators] == [("Cy", True)]
        pushed = await host.recv_until(lambda m: m["type"] == "table" and m["table"]["spectators"] == ["Cy"])
        assert pushed["table"]["id"] == table_id
        for client in (host,):
            await client.close()
        writer.close()


async def test_a_registered_guest_number_is_never_given_to_a_later_guest(tmp_path: Path) -> None:
    """A guest-N who registered keeps the name; after a restart the guests' count starts
    again, and the next guest must not be handed a registered name (and refused)."""
    db = str(tmp_path / "noddy.sqlite3")
    async with running_server(db=db) as server:
        reader, writer = await text_connection(server.port)
        writer.write(b"tables\n")
        assert (await text_line(reader)).startswith("Welcome, guest-1! ")
        await text_line(reader), await text_line(reader)
        await text_line(reader)  # no tables yet
        writer.write(b"register sesame1 sesame1\n")
        assert (await text_line(reader)).startswith("guest-1 is registered")
        writer.close()
    async with running_server(db=db) as server:
        reader, writer = await text_connection(server.port)
        writer.write(b"tables\n")
        assert (await text_line(reader)).startswith("Welcome, guest-2! ")
        writer.close()
