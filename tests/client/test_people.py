"""Who is online and challenges in the full-screen client (issue 25): the list opens with
``o`` and marks bots, ``Enter`` challenges the person under the cursor, ``p`` shows people
only, and a challenge that comes in is accepted with one key (``a``) and seats us at the new
table.  Keys go through prompt_toolkit's pipe input against a real server on 127.0.0.1."""

from __future__ import annotations

import json
from typing import Any

import pytest

from noddy.client.model import LOBBY, TABLE, ViewModel
from noddy.client.render import plain
from noddy.client.screens.people import PEOPLE, PeopleView, people_fragments
from noddy.server import NoddyServer

from ..server.harness import Client
from .test_app import ENTER, running_client, server, wait_for  # noqa: F401
from .test_idle import SizedOutput, screen_text

ESCAPE = "\x1b"


def _welcomed(name: str = "Ann") -> tuple[ViewModel, PeopleView]:
    model = ViewModel(name)
    model.connection_up()
    model.handle({"type": "welcome", "name": name, "token": "t", "resumed": False,
                  "presets": [{"name": "noddy"}, {"name": "cribbage"}]})
    model.session.take_outbox()
    return model, PeopleView(model)


def test_a_challenge_coming_in_is_answered_with_one_key_and_the_table_follows() -> None:
    model, view = _welcomed()
    challenge = {"id": 4, "from": "pybot", "from_bot": True, "to": "Ann", "to_bot": False,
                 "preset": "cribbage", "options": {"target": 61}, "text": None, "expires_in": 120}
    view.handle({"type": "challenged", "challenge": challenge})
    assert model.session.status == "pybot (bot) challenges you to cribbage (target 61): a accept · d decline"
    view.answer(True)
    [accept] = model.session.take_outbox()
    assert {k: accept[k] for k in ("type", "challenge", "ready")} == {"type": "accept", "challenge": 4,
                                                                      "ready": True}
    summary = {"id": 2, "preset": "cribbage", "players": 2, "status": "waiting",
               "seats": [{"seat": 0, "name": "pybot", "kind": "human", "bot": True, "ready": True},
                         {"seat": 1, "name": "Ann", "kind": "human", "bot": False, "ready": True}]}
    model.handle({"type": "table", "table": summary, "seat": 1, "id": accept["id"]})
    assert (model.session.screen, model.game.table_id, model.game.seat) == (TABLE, 2, 1)
    assert "pybot (bot)" in model.lobby.table_line(summary)


def test_the_list_marks_bots_and_people_only_leaves_them_out() -> None:
    model, view = _welcomed()
    view.open()
    [who] = model.session.take_outbox()
    assert (model.session.screen, who["type"], who["people_only"]) == (PEOPLE, "who", False)
    view.handle({"type": "who", "id": who["id"], "people": [
        {"name": "Ann", "bot": False, "where": "lobby", "table": None, "seat": None, "away": False,
         "idle": 0, "seeking": None},
        {"name": "pybot", "bot": True, "where": "seated", "table": 3, "seat": 1, "away": False,
         "idle": 75, "seeking": None}]})
    text = plain(people_fragments(view, 80))
    assert "Online · people and bots   Enter challenges to ‹ noddy ›" in text
    assert "pybot (bot)                table 3, seat 2  (idle 1 min)" in text
    view.move(1)
    view.other_preset(1)
    view.challenge_selected()
    [sent] = model.session.take_outbox()
    assert {k: sent[k] for k in ("type", "name", "preset")} == {"type": "challenge", "name": "pybot",
                                                               "preset": "cribbage"}
    view.toggle_people_only()
    [again] = model.session.take_outbox()
    assert (again["type"], again["people_only"]) == ("who", True)
    model.lobby.tables = {1: {"id": 1, "seats": [{"name": "pybot", "bot": True}, None]},
                          2: {"id": 2, "seats": [{"name": "cy", "bot": False}, None]}}
    assert [t["id"] for t in model.lobby.sorted_tables()] == [2]


async def test_who_list_and_an_incoming_challenge_accepted_by_key(server: NoddyServer) -> None:  # noqa: F811
    bot = await Client.connect(server.port)
    await bot.hello("pybot", bot=True)
    async with running_client(server.port, "Ann") as (app, keys):
        model = app.model
        await wait_for(lambda: model.session.welcomed, "the welcome")
        keys.send_text("o")
        await wait_for(lambda: app.people.people, "the list of who is online")
        assert [(p["name"], p["bot"]) for p in app.people.people] == [("Ann", False), ("pybot", True)]
        await bot.request({"type": "challenge", "name": "Ann", "preset": "noddy", "ready": True})
        await wait_for(lambda: app.people.incoming, "the challenge")
        keys.send_text("a")
        await wait_for(lambda: model.session.screen == TABLE, "the table of the challenge")
        await wait_for(lambda: model.game.in_game, "the game to start (both ready)")
        assert [s["name"] for s in model.game.table["seats"]] == ["pybot", "Ann"]
        assert json.dumps(model.game.table["seats"][0]).count('"bot": true') == 1
    await bot.close()


async def test_a_in_the_lobby_accepts_a_waiting_challenge_rather_than_registering(server: NoddyServer) -> None:  # noqa: F811
    # The merge of accounts (a registers a guest's name) and challenges (a accepts): with a
    # challenge waiting, a in the lobby accepts it; the password line is not opened.
    bot = await Client.connect(server.port)
    await bot.hello("pybot", bot=True)
    async with running_client(server.port, "Ann") as (app, keys):
        model = app.model
        await wait_for(lambda: model.session.welcomed, "the welcome")
        assert model.session.registered is False and not app.people.active
        await bot.request({"type": "challenge", "name": "Ann", "preset": "noddy", "ready": True})
        await wait_for(lambda: app.people.incoming, "the challenge")
        keys.send_text("a")
        await wait_for(lambda: model.session.screen == TABLE, "the table of the challenge")
        assert model.lobby.password_prompt is None
    await bot.close()


async def _invited_while_on(server: NoddyServer, app: Any, keys: Any, opening: str) -> Client:  # noqa: F811
    """fay sits at a new table and invites dee (the client) while dee is on the screen
    ``opening`` opens (m: My games, i: the statistics)."""
    model = app.model
    await wait_for(lambda: model.session.welcomed and model.session.screen == LOBBY, "the lobby")
    keys.send_text(opening)
    await wait_for(lambda: model.session.screen not in (LOBBY, TABLE), "the screen opened")
    fay = await Client.connect(server.port)
    await fay.hello("fay")
    await fay.request({"type": "create_table", "preset": "noddy"})
    assert (await fay.request({"type": "invite", "name": "dee"}))["type"] == "challenge"
    await wait_for(lambda: app.people.incoming, "the invitation")
    return fay


INVITED = "fay invites you to table 1 (noddy): a accept · d decline"


@pytest.mark.parametrize("opening", ["m", "i"])
@pytest.mark.parametrize("size", [(24, 80), (20, 60)])
async def test_an_invitation_stays_in_the_lobby_whichever_screen_it_came_to(
        server: NoddyServer, opening: str, size: tuple[int, int]) -> None:  # noqa: F811
    """Issue 33, item 3: dee was invited in My games (or the statistics), pressed Esc, and the
    lobby showed no invitation, only ``a accept  d decline`` in the footer."""
    async with running_client(server.port, "dee", output=SizedOutput(*size)) as (app, keys):
        fay = await _invited_while_on(server, app, keys, opening)
        keys.send_text(ESCAPE)
        await wait_for(lambda: app.model.session.screen == LOBBY, "back in the lobby")
        text = " ".join(" ".join(screen_text(app)).split())
        assert INVITED in text
        # Other keys and messages do not take it away: it stays until it is answered.
        keys.send_text("r")
        await wait_for(lambda: app.model.lobby.tables, "the list of tables")
        assert INVITED in " ".join(" ".join(screen_text(app)).split())
        keys.send_text("a")
        await wait_for(lambda: app.model.session.screen == TABLE, "the table of the invitation")
        assert app.model.game.table_id == 1 and not app.people.incoming
    await fay.close()


async def test_a_withdrawn_invitation_leaves_the_lobby(server: NoddyServer) -> None:  # noqa: F811
    async with running_client(server.port, "dee", output=SizedOutput(20, 60)) as (app, keys):
        fay = await _invited_while_on(server, app, keys, "m")
        keys.send_text(ESCAPE)
        await wait_for(lambda: app.model.session.screen == LOBBY, "back in the lobby")
        assert INVITED in " ".join(" ".join(screen_text(app)).split())
        await fay.request({"type": "leave"})
        await wait_for(lambda: not app.people.incoming, "the invitation withdrawn")
        text = " ".join(" ".join(screen_text(app)).split())
        assert "invites you" not in text and " a accept" not in text
        assert "Invitation 1 from fay is over" in text or "withdrawn" in text
    await fay.close()


def _rows_of_tables(rows: list[str]) -> list[str]:
    """The table numbers the lobby lists, in order (``#2`` of `` ▶ #2   noddy ...``)."""
    return [word for row in rows for word in row.split()[:2] if word.startswith("#")]


@pytest.mark.parametrize("size", [(24, 80), (20, 60)])
async def test_people_only_hides_the_tables_of_computers_and_bots_and_says_so(
        server: NoddyServer, size: tuple[int, int]) -> None:  # noqa: F811
    """Issue 33, item 13: p changed nothing to be seen and nothing said it was on; the
    tables where a computer player sat stayed listed."""
    cy, dee, pybot = [await Client.connect(server.port) for _ in range(3)]
    await cy.hello("cy")
    await dee.hello("dee")
    await pybot.hello("pybot", bot=True)
    await cy.request({"type": "create_table", "preset": "noddy"})
    assert (await cy.request({"type": "add_computer", "seat": 1}))["type"] == "table"
    await dee.request({"type": "create_table", "preset": "noddy"})
    await pybot.request({"type": "create_table", "preset": "noddy"})
    async with running_client(server.port, "ann", output=SizedOutput(*size)) as (app, keys):
        model = app.model
        await wait_for(lambda: len(model.lobby.tables) == 3, "the three tables")
        assert _rows_of_tables(screen_text(app)) == ["#1", "#2", "#3"]
        keys.send_text("p")
        await wait_for(lambda: model.lobby.people_only, "people only")
        assert model.session.status == (
            "People only: the tables where a computer player or a bot sits are hidden (2 now), "
            "and bots are left out of who is on and the ratings. p again shows everyone.")
        rows = screen_text(app)
        assert _rows_of_tables(rows) == ["#2"]
        assert rows[0].startswith(" Noddy · ann (guest) ") and rows[0].endswith("· Lobby · people only")
        assert rows[1] == " Tables · people only (2 hidden) · p shows all"
        keys.send_text("m")      # it stays on, and says so, after other screens
        await wait_for(lambda: model.session.screen != LOBBY, "My games")
        keys.send_text(ESCAPE)
        await wait_for(lambda: model.session.screen == LOBBY, "back in the lobby")
        rows = screen_text(app)
        assert _rows_of_tables(rows) == ["#2"] and rows[1] == " Tables · people only (2 hidden) · p shows all"
        keys.send_text("p")
        await wait_for(lambda: not model.lobby.people_only, "everyone again")
        assert model.session.status == "Showing everyone: people, computer players and bots."
        rows = screen_text(app)
        assert _rows_of_tables(rows) == ["#1", "#2", "#3"] and rows[1] == " Tables"
        assert rows[0].endswith("· Lobby")
    for client in (cy, dee, pybot):
        await client.close()


async def test_an_accepted_challenge_is_said_plainly_and_not_through_the_game(server: NoddyServer) -> None:  # noqa: F811
    """Issue 33, item 15: ``ben accepted challenge 1: to the table.`` stayed on ann's status
    line through the game, and "to the table" read oddly."""
    ben = await Client.connect(server.port)
    await ben.hello("ben")
    async with running_client(server.port, "ann") as (app, keys):
        model = app.model
        await wait_for(lambda: model.session.welcomed, "the welcome")
        keys.send_text("o")
        await wait_for(lambda: app.people.people, "the list of who is online")
        keys.send_text("j" * [p["name"] for p in app.people.people].index("ben") + ENTER)
        challenged = await ben.recv_until(lambda m: m["type"] == "challenged")
        await ben.request({"type": "accept", "challenge": challenged["challenge"]["id"], "ready": True})
        await wait_for(lambda: model.session.screen == TABLE, "the table of the challenge")
        await wait_for(lambda: "accepted" in model.session.status, "the news")
        assert model.session.status == "ben accepted your challenge: your game is at a new table."
        keys.send_text("r")
        await wait_for(lambda: model.game.in_game, "the game to start")
        assert "accepted" not in model.session.status
    await ben.close()


async def test_an_accepted_invitation_is_said_until_the_game_starts(server: NoddyServer) -> None:  # noqa: F811
    dee = await Client.connect(server.port)
    await dee.hello("dee")
    async with running_client(server.port, "fay", quick_start={
            "preset": "noddy", "players": 2, "computers": 0}) as (app, keys):
        model = app.model
        await wait_for(lambda: model.session.screen == TABLE, "at the new table")
        app.chat_buffer.text = "/invite dee"
        app.chat_buffer.validate_and_handle()
        invited = await dee.recv_until(lambda m: m["type"] == "challenged")
        await dee.request({"type": "accept", "challenge": invited["challenge"]["id"], "ready": False})
        await wait_for(lambda: "accepted" in model.session.status, "the news")
        assert model.session.status == "dee accepted your invitation to table 1."
        await dee.request({"type": "ready", "ready": True})
        await wait_for(lambda: model.game.in_game, "the game to start")
        assert "accepted" not in model.session.status
    await dee.close()
