"""People talking in the terminal client (issue 26): tells in and out (a ``/tell`` chat line,
or ``t`` on a person in the who list), an invitation accepted with one key, the watchers'
chat and the lobby's history in the logs; over a real server with pipe input and
DummyOutput, and on the model alone."""

from __future__ import annotations

from prompt_toolkit.input import create_pipe_input

from noddy.client.app import ClientApp
from noddy.client.model import TABLE, ViewModel
from noddy.client.screens.people import PeopleView
from noddy.server import NoddyServer

from ..server.harness import Client
from .test_app import ENTER, running_client, server, wait_for  # noqa: F401
from .test_idle import SizedOutput, screen_text


def _welcomed(name: str = "Ann") -> tuple[ViewModel, PeopleView]:
    model = ViewModel(name)
    model.connection_up()
    model.handle({"type": "welcome", "name": name, "token": "t", "resumed": False,
                  "presets": [{"name": "noddy"}]})
    model.session.take_outbox()
    return model, PeopleView(model)


def test_slash_commands_in_the_chat_line_become_tell_invite_mute_and_watchers_chat() -> None:
    model, _view = _welcomed()
    for text in ("/tell ben  fancy a game?", "/w keep the five", "/invite ben", "/mute dan",
                 "/unmute dan", "/muted", "hello all"):
        model.chat(text)
    sent = [{k: v for k, v in m.items() if k != "id"} for m in model.session.take_outbox()]
    assert sent == [{"type": "tell", "name": "ben", "text": "fancy a game?"},
                    {"type": "chat", "text": "keep the five", "to": "watchers"},
                    {"type": "invite", "name": "ben"}, {"type": "mute", "name": "dan"},
                    {"type": "unmute", "name": "dan"}, {"type": "muted"},
                    {"type": "chat", "text": "hello all", "to": "lobby"}]
    model.chat("/tell ben")
    assert model.session.take_outbox() == []
    assert model.session.status == ("Write /tell NAME text, /w text (watchers), /invite NAME, /mute NAME, "
                            "/unmute NAME or /muted.")


def test_tells_history_and_the_watchers_chat_are_shown_where_they_belong() -> None:
    model, view = _welcomed()
    model.handle({"type": "chat_history", "lines": [
        {"type": "chat", "to": "lobby", "table": None, "from": "cy", "seat": None, "text": "hi"}]})
    model.handle({"type": "tell", "from": "ben", "to": "Ann", "text": "a game?", "waiting": False,
                  "echo": False})
    assert model.session.status == "ben tells you: a game? (t, then /tell ben … to answer)"
    model.handle({"type": "tell", "from": "Ann", "to": "ben", "text": "yes", "waiting": False, "echo": True})
    assert [entry.text for entry in model.lobby.lobby_chat] == ["<cy> hi", "[from ben] a game?", "[to ben] yes"]
    invitation = {"id": 3, "from": "ben", "from_bot": False, "to": "Ann", "to_bot": False, "preset": "noddy",
                  "options": {}, "text": None, "expires_in": 120, "table": 2, "private": True}
    view.handle({"type": "challenged", "challenge": invitation})
    assert model.session.status == "ben invites you to table 2 (noddy, private): a accept · d decline"
    view.answer(True)
    [accept] = model.session.take_outbox()
    assert (accept["type"], accept["challenge"]) == ("accept", 3)
    assert model.session.status == "Accepted ben's invitation; the table follows…"
    summary = {"id": 2, "preset": "noddy", "players": 2, "status": "waiting",
               "seats": [{"seat": 0, "name": "ben", "kind": "human", "ready": False},
                         {"seat": 1, "name": "Ann", "kind": "human", "ready": True}]}
    model.handle({"type": "table", "table": summary, "seat": 1, "id": accept["id"]})
    assert (model.session.screen, model.game.table_id) == (TABLE, 2)
    model.handle({"type": "chat_history", "lines": [
        {"type": "chat", "to": "watchers", "table": 2, "from": "wes", "seat": None, "text": "nice"}]})
    assert [entry.text for entry in model.game.log][-2:] == ["The watchers said during the game:",
                                                              "(watchers) <wes> nice"]


async def test_a_tell_by_key_and_an_invitation_accepted_with_one_key(server: NoddyServer) -> None:  # noqa: F811
    ben = await Client.connect(server.port)
    await ben.hello("ben")
    async with running_client(server.port, "Ann") as (app, keys):
        model = app.model
        await wait_for(lambda: model.session.welcomed, "the welcome")
        keys.send_text("o")
        await wait_for(lambda: app.people.people, "the list of who is online")
        assert [p["name"] for p in app.people.people] == ["Ann", "ben"]
        keys.send_text("j")  # ben, under the cursor
        keys.send_text("t")
        await wait_for(lambda: app.chat_buffer.text == "/tell ben ", "the tell started in the chat line")
        keys.send_text("see you at table 1" + ENTER)
        told = await ben.recv_until(lambda m: m["type"] == "tell")
        assert (told["from"], told["text"]) == ("Ann", "see you at table 1")
        await wait_for(lambda: any(e.text == "[to ben] see you at table 1" for e in model.lobby.lobby_chat),
                       "the echo of the tell")
        await ben.request({"type": "tell", "name": "ann", "text": "coming"})
        await wait_for(lambda: model.session.status == "ben tells you: coming (t, then /tell ben … to answer)",
                       "the tell on the status line")
        await ben.request({"type": "create_table", "preset": "noddy", "private": True, "password": "pw"})
        await ben.request({"type": "invite", "name": "Ann"})
        await wait_for(lambda: app.people.incoming, "the invitation")
        assert model.session.status == "ben invites you to table 1 (noddy, private): a accept · d decline"
        keys.send_text("a")
        await wait_for(lambda: model.session.screen == TABLE, "the table of the invitation, without its password")
        assert [s["name"] for s in model.game.table["seats"]] == ["ben", "Ann"]
    await ben.close()


def test_the_lobby_key_line_offers_accept_while_an_invitation_waits() -> None:
    """Seen in tmux at 80x24 (issue 26's acceptance): ben invited ann, then told her
    something; the tell took the status line, and the key line still said ``a register``
    while ``a`` accepted the invitation (nothing on the screen said one waited)."""
    with create_pipe_input() as keys:
        client = ClientApp("127.0.0.1", 1, "ann", input=keys, output=SizedOutput())
        model = client.model
        model.connection_up()
        model.handle({"type": "welcome", "name": "ann", "token": "t", "resumed": False, "registered": False,
                      "presets": [{"name": "noddy"}]})
        assert screen_text(client)[-1] == " n new  ↵ sit  w watch  o who  m my games  a register  ? help  q quit"
        client.people.handle({"type": "challenged", "challenge": {
            "id": 1, "from": "ben", "from_bot": False, "to": "ann", "to_bot": False, "preset": "noddy",
            "options": {"match": 2, "target": 15}, "text": None, "expires_in": 120, "table": 1, "private": False}})
        model.handle({"type": "tell", "from": "ben", "to": "ann", "text": "sure", "waiting": False, "echo": False})
        rows = screen_text(client)
        assert model.session.status == "ben tells you: sure (t, then /tell ben … to answer)"
        assert rows[-1] == " a accept  d decline  n new  ↵ sit  w watch  o who  m my games  ? help  q quit"
