"""Accounts in the terminal client, by keys against a real server: registering in the lobby
(``a`` and a masked password line), and logging in when the server says the name needs its
password -- which the client sends once and never keeps (issue 24)."""

from __future__ import annotations

from noddy.client.render import keys_fragments, password_prefix, plain, title_fragments
from noddy.server import NoddyServer

from ..server.harness import Client
from .test_app import ENTER, running_client, server, wait_for  # noqa: F401

SECRET = "owls at night"


def _holds(obj: object, secret: str) -> bool:
    """Whether ``secret`` is anywhere in ``obj``'s attributes (a shallow walk of its
    containers), as a check that the client did not keep a password it sent."""
    seen: set[int] = set()

    def walk(value: object, depth: int) -> bool:
        if id(value) in seen or depth > 4:
            return False
        seen.add(id(value))
        if isinstance(value, str):
            return secret in value
        if isinstance(value, dict):
            return any(walk(k, depth + 1) or walk(v, depth + 1) for k, v in value.items())
        if isinstance(value, (list, tuple, set)):
            return any(walk(v, depth + 1) for v in value)
        if hasattr(value, "__dict__"):
            return any(walk(v, depth + 1) for v in vars(value).values())
        return False
    return walk(obj, 0)


async def test_register_in_the_lobby_then_log_in_with_the_password(server: NoddyServer) -> None:  # noqa: F811
    async with running_client(server.port, name="ann") as (app, keys):
        model = app.model
        await wait_for(lambda: model.session.registered is False, "the welcome of a guest")
        assert " Noddy · ann (guest) @ " in plain(title_fragments(model, "here"))
        keys.send_text("a")
        await wait_for(lambda: model.lobby.password_prompt is not None, "the password line")
        assert plain(password_prefix(model)) == " New password for ann (Esc cancels): "
        keys.send_text(SECRET + ENTER)
        await wait_for(lambda: model.lobby.password_prompt is not None
                       and model.lobby.password_prompt.confirming, "the password asked again")
        assert plain(password_prefix(model)) == " The same password again (Esc cancels): "
        keys.send_text(SECRET + ENTER)
        await wait_for(lambda: model.session.registered is True, "registered")
        assert model.session.status.startswith("ann is registered: the name is yours")
        assert not _holds(model.session, SECRET) and not _holds(model.lobby, SECRET)
    async with running_client(server.port, name="ann") as (app, keys):
        model = app.model
        await wait_for(lambda: model.lobby.password_prompt is not None, "the password asked for")
        assert model.session.status == "ann is a registered name: type its password, or Esc for another name."
        assert plain(password_prefix(model)) == " Password for ann (Esc: another name): "
        assert "send" in plain(keys_fragments(model))
        keys.send_text("not it" + ENTER)
        await wait_for(lambda: model.lobby.password_prompt is not None and model.lobby.password_prompt.retry, "again")
        assert model.session.status == "Wrong password for ann: type it again, or Esc for another name."
        keys.send_text(SECRET + ENTER)
        await wait_for(lambda: model.session.welcomed and model.session.registered is True, "logged in")
        assert " Noddy · ann @ " in plain(title_fragments(model, "here"))
        assert not _holds(model.session, SECRET) and not _holds(model.lobby, SECRET)


async def test_esc_at_the_password_asks_for_another_name(server: NoddyServer) -> None:  # noqa: F811
    ann = await Client.connect(server.port)
    await ann.hello("ann")
    assert (await ann.request({"type": "register", "password": SECRET}))["type"] == "registered"
    await ann.request({"type": "bye"})
    async with running_client(server.port, name="ann") as (app, keys):
        model = app.model
        await wait_for(lambda: model.lobby.password_prompt is not None, "the password asked for")
        keys.send_text("\x1b")
        await wait_for(lambda: model.session.name_prompt is not None, "the name line")
        keys.send_text("\x7f" * 3 + "bea" + ENTER)
        await wait_for(lambda: model.session.welcomed and model.session.name == "bea", "welcomed as bea")
        assert model.session.registered is False


async def test_registering_asks_twice_and_sends_nothing_when_the_two_differ(server: NoddyServer) -> None:  # noqa: F811
    """Issue 33, item 12: the password was asked once, so a typo locked the person out of
    their own name until the host reset it."""
    async with running_client(server.port, name="ann") as (app, keys):
        model = app.model
        await wait_for(lambda: model.session.registered is False, "the welcome of a guest")
        sent: list[str] = []
        real_send = app.connection.send
        app.connection.send = lambda message: (sent.append(message["type"]), real_send(message))[1]  # type: ignore[method-assign]
        keys.send_text("a")
        await wait_for(lambda: model.lobby.password_prompt is not None, "the password line")
        keys.send_text(SECRET + ENTER)
        await wait_for(lambda: model.lobby.password_prompt is not None
                       and model.lobby.password_prompt.confirming, "the password asked again")
        assert model.session.status == "Type the same password again to be sure of it (Esc cancels)."
        keys.send_text("owls at nihgt" + ENTER)
        await wait_for(lambda: model.lobby.password_prompt is not None
                       and not model.lobby.password_prompt.confirming, "the first password asked again")
        assert model.session.status == ("The two passwords differ, so nothing was sent: choose a "
                                        "password again (Esc cancels).")
        assert model.session.status_is_error
        assert plain(password_prefix(model)) == " New password for ann (Esc cancels): "
        assert "register" not in sent and model.session.registered is False
        assert not _holds(model.lobby, SECRET)      # the first typing is forgotten
        keys.send_text(SECRET + ENTER)
        await wait_for(lambda: model.lobby.password_prompt is not None
                       and model.lobby.password_prompt.confirming, "the password asked again")
        keys.send_text(SECRET + ENTER)
        await wait_for(lambda: model.session.registered is True, "registered")
        assert sent.count("register") == 1
        assert not _holds(model.session, SECRET) and not _holds(model.lobby, SECRET)
