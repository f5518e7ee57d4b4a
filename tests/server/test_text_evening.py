"""Netcat through an evening (issue 33): ``quit`` always works, lines wrap between words at
the person's width (``width N``), a quiet lobby that tells of tables one can join, a
password typed twice, a private table's waiting line, and a plain rating line."""

from __future__ import annotations

import asyncio
import re

from noddy.protocol.stats_view import rating_summary
from noddy.server import ServerCore
from noddy.server.text import render

from .harness import Client, running_server, text_connection, text_line, text_until
from .harness import test_config as config_for_tests

#: What follows every goodbye in text mode: nc may stay open after the server closes.
LEAVE = "(If your terminal stays open, press Ctrl-C.)"


async def _lines(reader: asyncio.StreamReader, count: int) -> list[str]:
    return [await text_line(reader) for _ in range(count)]


async def _named(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, name: str) -> None:
    """``width 1000`` (one line a message: these tests are about what is said, not about
    wrapping), then ``name NAME``, read up to the guest's note."""
    writer.write(f"width 1000\nname {name}\n".encode())
    assert await text_line(reader) == "Lines are wrapped at 1000 columns now.\n"
    await text_until(reader, f"Welcome, {name}!")
    assert await text_line(reader) == ("Type tables to see the tables, new noddy to start one, "
                                       "help for all commands.\n")
    assert await text_line(reader) == "You are a guest (unrated): register PASSWORD keeps your name.\n"


async def _registered(port: int, name: str, password: str) -> None:
    client = await Client.connect(port)
    await client.hello(name)
    assert (await client.request({"type": "register", "password": password}))["type"] == "registered"
    await client.request({"type": "bye"})
    await client.close()


async def test_quit_after_a_refused_name_says_goodbye_and_closes_at_once() -> None:
    """Issue 33, item 1: ``quit`` after a refused name was answered name_required, and the
    connection stayed open until the idle limit."""
    async with running_server() as server:
        await _registered(server.port, "cy", "sesame")
        for refused in ("c y", "c\u0443"):  # cy spaced out; with a Cyrillic у
            reader, writer = await text_connection(server.port)
            writer.write(f"width 1000\nname {refused}\n".encode())  # (width: one line a message)
            await text_line(reader)
            assert (await text_line(reader)).startswith("Error (password_required): 'cy' is a registered name")
            writer.write(b"quit\n")
            assert (await asyncio.wait_for(reader.read(), 5)).decode() == f"Goodbye.\n{LEAVE}\n"
            writer.close()


async def test_a_refused_names_hint_names_the_registered_spelling() -> None:
    async with running_server() as server:
        await _registered(server.port, "cy", "sesame")
        reader, writer = await text_connection(server.port)
        writer.write(b"width 1000\nname c y\n")  # (width: one line a message)
        await text_line(reader)
        assert await text_line(reader) == ("Error (password_required): 'cy' is a registered name: give its "
                                           "password (in text mode: login cy PASSWORD), or choose another name\n")
        writer.write(b"look\n")  # the hint names the registered spelling, cy, not 'c y'
        assert await text_line(reader) == (
            "Error (name_required): the name 'c y' was refused, so you have no name yet: type name NAME "
            "with another name (or login cy PASSWORD if cy is your registered name) first\n")
        writer.write(b"quit\n")
        assert (await asyncio.wait_for(reader.read(), 5)).decode() == f"Goodbye.\n{LEAVE}\n"
        writer.close()


async def test_a_name_refused_for_a_guest_holding_it_suggests_no_login() -> None:
    async with running_server(grace_period=30.0) as server:
        fay = await Client.connect(server.port)
        await fay.hello("fay")
        await fay.request({"type": "create_table"})
        await fay.close()  # her seat is held: the name is in use, and it is no registered name
        reader, writer = await text_connection(server.port)
        writer.write(b"name fay\n")
        await text_until(reader, "Error (name_taken)")
        await text_line(reader)
        writer.write(b"new noddy\n")
        assert await _lines(reader, 2) == [
            "Error (name_required): the name 'fay' was refused, so you have no name yet: type\n",
            "  name NAME with another name first\n"]
        writer.close()


async def test_quit_as_the_first_line_makes_no_guest() -> None:
    async with running_server() as server:
        reader, writer = await text_connection(server.port)
        writer.write(b"quit\n")
        assert (await asyncio.wait_for(reader.read(), 5)).decode() == f"Goodbye.\n{LEAVE}\n"
        assert server.core.sessions == {} or not server.core.sessions
        writer.close()


async def test_the_idle_goodbye_of_a_nameless_person_who_typed_lines_is_true() -> None:
    now = [0.0]
    core = ServerCore(config_for_tests(idle_timeout=90.0), clock=lambda: now[0])
    async with running_server(core=core) as server:
        await _registered(server.port, "cy", "sesame")
        reader, writer = await text_connection(server.port)
        writer.write(b"width 1000\nname c y\nlook\n")  # lines typed, and no name taken
        await text_until(reader, "Error (name_required): ")
        now[0] += 89.0
        writer.write(b"look\n")  # a line typed: the 90 s start again
        await text_until(reader, "Error (name_required): ")
        now[0] += 89.0
        writer.write(b"name c y\n")
        await text_until(reader, "Error (password_required): ")
        now[0] += 90.0
        text = (await asyncio.wait_for(reader.read(), 5)).decode()
        assert text == f"Goodbye (still no name 90 s after your last line; closing the connection).\n{LEAVE}\n"
        writer.close()


async def test_width_wraps_every_line_between_words() -> None:
    async with running_server() as server:
        await _registered(server.port, "ann", "sesame")
        reader, writer = await text_connection(server.port)
        writer.write(b"width\n")  # before a name: no guest is made
        assert await text_line(reader) == ("Lines are wrapped at 80 columns; width N changes it "
                                           "(20 to 1000).\n")
        assert not server.core.sessions
        writer.write(b"login ann wrong\n")
        assert await _lines(reader, 2) == [
            "Error (bad_password): that is not the name's password (each check counts against\n",
            "  the name and your address)\n"]
        for bad, said in ((b"width 5", "width must be from 20 to 1000, not 5"),
                          (b"width wide", "width must be a number from 20 to 1000, not 'wide'")):
            writer.write(bad + b"\n")
            assert await text_line(reader) == f"Error (bad_field): {said}\n"
        writer.write(b"width 1 2\n")
        assert await text_line(reader) == ("Error (bad_command): write width, or width N; type help "
                                           "for all commands\n")
        writer.write(b"name Dora\nnew cribbage counting=manual hints=true\n")
        await text_until(reader, "You are a guest")
        assert await _lines(reader, 2) == [
            "Table 1 cribbage 2p (counting=manual hints=true, unrated: the coach is on; Dora\n",
            "  is a guest) [waiting] 1: Dora (guest) | 2: empty\n"]
        await text_until(reader, "  a computer player, or wait")
        writer.write(b"width 40\n")
        assert await text_line(reader) == "Lines are wrapped at 40 columns now.\n"
        writer.write(b"look\n")
        assert await _lines(reader, 4) == [
            "Table 1 cribbage 2p (counting=manual\n",
            "  hints=true, unrated: the coach is on;\n",
            "  Dora is a guest) [waiting] 1: Dora\n",
            "  (guest) | 2: empty\n"]
        writer.close()


def test_prompts_wrap_between_cards_and_words() -> None:
    names = ("Ada", "Ben")
    legal = [{"action": "discard", "cards": [a, b]}
             for i, a in enumerate(["3C", "4H", "8C", "9S", "QH", "KD"])
             for b in ["3C", "4H", "8C", "9S", "QH", "KD"][i + 1:]]
    discard = {"type": "turn", "awaiting": [0, 1], "count": 0, "legal_actions": legal}
    assert render(discard, names) == (
        "Your discard: choose 2 cards for the crib from 1:3C 2:4H 3:8C 4:9S 5:QH 6:KD\n"
        "  (type discard 3C 4H, or discard 1 2).\n")
    claim = {"type": "turn", "awaiting": [0], "count": 0,
             "legal_actions": [{"action": "claim", "min": 0, "max": 29}]}
    assert render(claim, names) == (
        "Your claim: count the cards to be counted above, with the turn-up, and type\n"
        "  claim N (a claim above what they hold is refused once, and a second one counts\n"
        "  as 0; points you miss may be taken by muggins).\n")
    url = "see https://example.org/" + "x" * 90
    assert render({"type": "help", "text": url}) == f"see\n  {url[4:82]}\n  {url[82:]}\n"


async def test_registering_over_nc_asks_for_the_password_twice() -> None:
    async with running_server() as server:
        reader, writer = await text_connection(server.port)
        await _named(reader, writer, "Ada")
        writer.write(b"register sesame\n")
        assert await text_line(reader) == ("To be sure of it, type the password again: register sesame "
                                           "(a mistyped password would keep you out of your name).\n")
        writer.write(b"register sesamr\n")
        assert await text_line(reader) == ("Error (bad_field): the two passwords differ, so nothing is "
                                           "registered; type register PASSWORD again\n")
        assert not server.core.accounts.registered_as("Ada")
        writer.write(b"register sesame sesamr\n")  # on one line: the same
        assert await text_line(reader) == ("Error (bad_field): the two passwords differ, so nothing is "
                                           "registered; type register PASSWORD again\n")
        writer.write(b"register sesame\nregister sesame\n")
        await text_until(reader, "To be sure")
        done = ("Ada is registered: the name is yours, and your games with other registered people are "
                "rated. Next time: login Ada PASSWORD.\n")
        assert await text_line(reader) == done
        writer.close()
        reader, writer = await text_connection(server.port)
        await _named(reader, writer, "Bea")
        writer.write(b"register sesame sesame\n")  # both on one line
        assert await text_line(reader) == done.replace("Ada", "Bea")
        writer.close()


async def test_a_private_tables_waiting_line_asks_for_its_password() -> None:
    async with running_server() as server:
        reader, writer = await text_connection(server.port)
        await _named(reader, writer, "Ada")
        writer.write(b"new noddy password=pw\n")
        assert await _lines(reader, 2) == [
            "Table 1 noddy 2p (private, unrated: Ada is a guest) [waiting] 1: Ada (guest) | 2: empty\n",
            "Seat 2 is free. The game begins when every seat is taken and ready: type bot for a computer "
            "player, or invite NAME: the table is private, so anyone else needs its password (join 1 "
            "PASSWORD).\n"]
        writer.close()


def test_a_rating_line_says_one_game_and_no_change_plainly() -> None:
    def summary(*ratings: float) -> str:
        return rating_summary({"family": "noddy", "history": [{"rating": r} for r in ratings]})
    assert summary(1516) == "noddy rating 1516 (after 1 rated game)"
    assert summary(1500, 1500.2) == "noddy rating 1500 (the same over the last 2 rated games)"
    assert summary(1484, 1500, 1516) == "noddy rating 1516 (1484-1516 over the last 3 rated games)"


async def test_the_lobby_tells_a_text_person_only_of_tables_they_can_join() -> None:
    """Issue 33, item 11: ~10 lines of table changes while others played.  A lobby push goes
    to every lobby connection in one batch, so once ``obs`` (JSON, in the lobby) has read a
    push, a ``ping`` typed by cy is answered after whatever that push told cy."""
    async with running_server() as server:
        obs, ann, ben, dee, eve = [await Client.connect(server.port) for _ in range(5)]
        for client, name in ((obs, "obs"), (ann, "ann"), (ben, "ben"), (dee, "dee"), (eve, "eve")):
            await client.hello(name)
        reader, writer = await text_connection(server.port)
        await _named(reader, writer, "cy")

        async def pushed(check) -> None:  # obs has read a push of which ``check`` is true
            await obs.recv_until(lambda m: m["type"] in ("table", "table_closed") and check(m))

        async def nothing_more() -> None:
            writer.write(b"ping\n")
            assert await text_line(reader) == "pong\n"

        await ann.request({"type": "create_table", "preset": "noddy"})
        await pushed(lambda m: m["type"] == "table" and m["table"]["id"] == 1)
        assert await text_line(reader) == ("Table 1 has a free seat (type join 1): noddy 2p (unrated: ann "
                                           "is a guest) [waiting] 1: ann (guest) | 2: empty\n")
        await ben.request({"type": "sit", "table": 1})
        await ann.request({"type": "ready"})
        await ben.request({"type": "ready"})
        await dee.request({"type": "spectate", "table": 1})
        await pushed(lambda m: m["type"] == "table" and m["table"]["spectators"] == ["dee"])
        await eve.request({"type": "create_table", "preset": "noddy", "private": True, "password": "pw"})
        await pushed(lambda m: m["type"] == "table" and m["table"]["id"] == 2)
        await nothing_more()  # a full table, a game begun, a watcher, a private table: no word
        await eve.request({"type": "leave"})
        await pushed(lambda m: m["type"] == "table_closed" and m["table"] == 2)
        await nothing_more()  # a table cy could not join closed
        await obs.request({"type": "create_table", "preset": "cribbage"})  # a table cy can join
        assert await text_line(reader) == ("Table 3 has a free seat (type join 3): cribbage 2p (unrated: "
                                           "obs is a guest) [waiting] 1: obs (guest) | 2: empty\n")
        await obs.request({"type": "leave"})  # ... closed before anyone joined it: cy is told
        assert await text_line(reader) == "Table 3 is closed: everyone has left.\n"
        writer.write(b"tables\n")  # still the whole picture on request
        assert await text_line(reader) == ("Table 1 noddy 2p (unrated: ann and ben are guests) [playing] "
                                           "1: ann (guest) | 2: ben (guest); watching: dee\n")
        writer.close()


def test_render_wraps_at_the_width_it_is_given() -> None:
    """The width is the renderer's own argument (``Send.width``), not a property smuggled in
    with the names (issue 33's first pass carried it in a tuple subclass of the names)."""
    note = {"type": "note", "text": "one two three four five six seven eight nine ten eleven"}
    assert render(note, ("Ada", "Ben"), 20) == (
        "one two three four\n  five six seven\n  eight nine ten\n  eleven\n")
    assert render(note, ("Ada", "Ben")) == f"{note['text']}\n"  # (80 when not said)


async def test_two_people_at_one_table_each_read_at_their_own_width() -> None:
    """One message object to both players of a table (the send path encodes it once per
    names and width): Ada reads at 30 columns, Ben at 80, and each is sent their own."""
    async with running_server() as server:
        ada, ada_w = await text_connection(server.port)
        await _named(ada, ada_w, "Ada")
        ada_w.write(b"width 30\n")
        assert await _lines(ada, 2) == ["Lines are wrapped at 30\n", "  columns now.\n"]
        ben, ben_w = await text_connection(server.port)
        await _named(ben, ben_w, "Ben")
        ben_w.write(b"width 80\n")
        assert await text_line(ben) == "Lines are wrapped at 80 columns now.\n"
        ada_w.write(b"new noddy\n")
        await text_until(ada, "Seat 2 is free")
        ben_w.write(b"join 1\nsay hello everyone at this table, and good luck to us both\n")
        said = "[table 1] Ben: hello everyone at this table, and good luck to us both"
        assert await text_until(ben, "[table 1] Ben:") == f"{said}\n"
        assert await text_until(ada, "[table 1] Ben:") == "[table 1] Ben: hello everyone\n"
        assert await _lines(ada, 2) == ["  at this table, and good luck\n", "  to us both\n"]
        ada_w.close()
        ben_w.close()


async def test_leave_says_where_the_person_is_now() -> None:
    """Seen in tmux (issue 33's last evening): cy typed ``leave`` at a table over nc and was
    told nothing at all (the request's ``ok`` prints nothing; only the others hear of it)."""
    async with running_server() as server:
        reader, writer = await text_connection(server.port)
        await _named(reader, writer, "cy")
        writer.write(b"new noddy\n")
        await text_until(reader, "Seat 2 is free.")
        writer.write(b"leave\nping\n")
        assert await text_line(reader) == "You left table 1: you are in the lobby (tables lists the tables).\n"
        assert await text_line(reader) == "pong\n"
        writer.write(b"quit\n")
        assert (await asyncio.wait_for(reader.read(), 5)).decode() == f"Goodbye.\n{LEAVE}\n"
        writer.close()
