"""Screens own their keys (issue 32): a key is declared once, with its screen, its help line
and the requests it sends; the bindings, the help and :func:`noddy.client.keys.requests_sent`
all read that one declaration.  Also the ``resign_match`` key, and the help at 60x20."""

from __future__ import annotations

import ast
import inspect
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from prompt_toolkit.filters import Always
from prompt_toolkit.input import PipeInput
from prompt_toolkit.key_binding import KeyBindings, KeyPress
from prompt_toolkit.keys import Keys

from noddy.client import keys as client_keys
from noddy.client.app import ClientApp
from noddy.client.keymap import bind, key
from noddy.client.screens import form as form_module
from noddy.client.screens.people import PEOPLE, PeopleView
from noddy.client.screens.table import TableScreen
from noddy.server.model.table_options import advertised_options

from ..server.harness import running_server
from .test_app import running_client, wait_for
from .test_idle import SizedOutput, screen_text
from .test_model import seated_ben


def test_requests_sent_names_each_request_by_its_screen_and_key() -> None:
    sent = client_keys.requests_sent()
    assert sent["resign_match"] == "At a table: m"
    assert sent["leave"] == "At a table: l"
    assert sent["create_table"] == "In the new-table form: Enter"
    assert sent["sit"] == "In the lobby: Enter"
    assert sent["hint"] == "At a table: h"
    assert sent["get_game"] == "My games and the ratings: Enter"
    assert sent["challenge"] == "Who is on: Enter"
    assert sent["bye"] == "Anywhere: q"
    assert sent["spectate"] == "In the lobby: w"        # its main key, not Enter's fallback
    assert sent["remove_computer"] == "At a table: x"
    assert "hello" not in sent          # said by the connection, never by a key


class _Host:
    def retry_now(self) -> None: ...

    def log_height(self) -> int:
        return 5

    def confirm(self, question: str, then: Any) -> None: ...


def test_a_new_key_is_one_declaration() -> None:
    """A method with its mark is bound, written in the help, and listed as what it sends."""
    class Zapping(TableScreen):
        @key("z", help="zap the table", sends="zap")
        def _zap(self, pressed: str) -> None:
            self.session.send("zap")

    model = seated_ben()
    screen = Zapping(model.session, model.game)
    kb = KeyBindings()
    flushed: list[bool] = []
    bind(kb, screen, Always(), lambda: flushed.append(True), _Host())
    binding = kb.get_bindings_for_keys(("z",))[0]
    assert binding.filter()
    model.session.take_outbox()

    class Event:
        key_sequence = [KeyPress("z")]
    binding.handler(Event())  # type: ignore[arg-type]
    assert [m["type"] for m in model.session.take_outbox()] == ["zap"] and flushed == [True]
    assert "  z         zap the table" in client_keys.help_text(60, [screen]).splitlines()
    assert ("z", "zap the table") in dict(client_keys.sections([screen]))["At a table"]


def test_the_form_code_names_no_option() -> None:
    """The form reads the declarations: no option's name is written in its code (its words
    for people are :mod:`noddy.client.option_words`'s)."""
    names = set(advertised_options()) | {"target", "knave_noddy", "counting", "four_card",
                                         "hitter_counts_thirty_one", "max_spectators"}
    strings = {node.value for node in ast.walk(ast.parse(inspect.getsource(form_module)))
               if isinstance(node, ast.Constant) and isinstance(node.value, str)}
    assert names.isdisjoint(strings), names & strings


@asynccontextmanager
async def sized_client(port: int, rows: int, columns: int, **options: Any) -> AsyncIterator[
        tuple[ClientApp, PipeInput]]:
    async with running_client(port, "Ann", output=SizedOutput(rows, columns), **options) as client:
        yield client


async def test_m_gives_up_a_match_after_asking() -> None:
    async with running_server() as server:
        async with sized_client(server.port, 24, 80, quick_start={
                "preset": "noddy", "players": 2, "options": {"match": 3}}) as (app, keys):
            model = app.model
            await wait_for(lambda: model.game.in_game and model.game.hand, "the game")
            sent: list[dict[str, Any]] = []
            send = app.connection.send
            app.connection.send = lambda message: (sent.append(message), send(message))[1]  # type: ignore[method-assign]
            keys.send_text("m")
            await wait_for(lambda: app.confirm_resign, "the question")
            assert "Give up the match?" in "\n".join(screen_text(app))
            keys.send_text("n")
            await wait_for(lambda: not app.confirm_resign, "the question gone")
            assert not any(m["type"] == "resign_match" for m in sent)
            keys.send_text("m")
            await wait_for(lambda: app.confirm_resign, "the question again")
            keys.send_text("y")
            await wait_for(lambda: any(m["type"] == "resign_match" for m in sent), "the request")
            assert [m for m in sent if m["type"] == "resign_match"][0].keys() == {"type", "id"}
            assert model.session.screen == "table"    # (staying at the table)


async def test_m_asks_nothing_at_a_table_of_single_games() -> None:
    async with running_server() as server:
        async with sized_client(server.port, 24, 80,
                                quick_start={"preset": "noddy", "players": 2}) as (app, keys):
            model = app.model
            await wait_for(lambda: model.game.in_game and model.game.hand, "the game")
            keys.send_text("m?")
            await wait_for(lambda: app.show_help, "the help")
            assert not app.confirm_resign
            assert "give up the match" not in "".join(screen_text(app))


async def test_the_help_scrolls_at_60x20_and_any_other_key_closes_it() -> None:
    async with running_server() as server:
        async with sized_client(server.port, 20, 60,
                                quick_start={"preset": "noddy", "players": 2}) as (app, keys):
            model = app.model
            await wait_for(lambda: model.game.in_game and model.game.hand, "the game")
            keys.send_text("?")
            await wait_for(lambda: app.show_help, "the help")
            rows = screen_text(app)
            assert max(len(row) for row in rows) <= 60
            assert any("more rows · ↑↓ PgUp PgDn scroll" in row for row in rows), rows
            assert not any("Ctrl-Q   " in row for row in rows)    # the last line, below
            keys.send_text("\x1b[6~")                              # PgDn
            await wait_for(lambda: app.help_view.top > 0, "the help scrolled")
            keys.send_text("\x1b[F")                               # End
            await wait_for(lambda: any("Ctrl-Q" in row and "quit at once" in row
                                       for row in screen_text(app)), "the last line")
            assert app.show_help
            keys.send_text("x")
            await wait_for(lambda: not app.show_help, "the help closed")
            assert model.session.screen == "table"


def test_the_servers_ok_to_resign_match_is_said_and_we_stay_at_the_table() -> None:
    model = seated_ben()
    model.game.table = (model.game.table or {}) | {"match": {
        "to": 3, "points": [1, 0], "game": 2, "id": 1, "winner": None}}
    assert model.table_screen.in_match()
    model.session.take_outbox()
    model.table_screen.resign_match()
    request = model.session.take_outbox()
    assert [m["type"] for m in request] == ["resign_match"] and set(request[0]) == {"type", "id"}
    model.handle({"type": "ok", "id": request[0]["id"]})
    assert model.session.status == "You gave up the match; the other side wins it."
    assert model.session.screen == "table" and model.game.table_id == 1


def test_a_key_is_told_which_key_was_pressed() -> None:
    """← and → share one declaration on the list of who is on; prompt_toolkit names them
    ``Keys.Left``/``Keys.Right`` (an Enum, whose str() is not "left"), and ← went right."""
    model = seated_ben()
    people = PeopleView(model)
    kb = KeyBindings()
    bind(kb, people, Always(), lambda: None, _Host())
    model.session.screen = PEOPLE
    model.session.presets = [{"name": "noddy"}, {"name": "cribbage"}, {"name": "five-card-cribbage"}]
    names = ["noddy", "cribbage", "five-card-cribbage"]

    class Event:
        key_sequence = [KeyPress(Keys.Left)]
    kb.get_bindings_for_keys((Keys.Left,))[-1].handler(Event())  # type: ignore[arg-type]
    assert people.preset() == names[-1]
    Event.key_sequence = [KeyPress(Keys.Right)]
    kb.get_bindings_for_keys((Keys.Right,))[-1].handler(Event())  # type: ignore[arg-type]
    assert people.preset() == names[0]
