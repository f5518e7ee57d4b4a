"""The full-screen client driven by keys (prompt_toolkit's pipe input, ``DummyOutput``)
against a real server on 127.0.0.1, started in the test.

Every wait is bounded; nothing asserts how long anything took.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output import DummyOutput

from noddy.client.app import ClientApp
from noddy.client.model import ViewModel
from noddy.client.render import board_fragments, plain
from noddy.server import NoddyServer, ServerConfig

from ..server.harness import Client

ENTER = "\r"


async def wait_for(condition: Callable[[], object], what: str, timeout: float = 30.0) -> None:
    """Poll until `condition` holds; generous, since CI machines are shared and slow."""
    async def poll() -> None:
        while not condition():
            await asyncio.sleep(0.01)
    try:
        await asyncio.wait_for(poll(), timeout)
    except asyncio.TimeoutError:
        raise AssertionError(f"timed out waiting for {what}") from None


@pytest.fixture
async def server() -> AsyncIterator[NoddyServer]:
    config = ServerConfig(host="127.0.0.1", port=0, seed=2024, tick_interval=0.05,
                          default_level="random")
    async with NoddyServer(config) as running:
        yield running


@contextlib.asynccontextmanager
async def running_client(port: int, name: str = "Me", output: Any = None, **options: object) -> AsyncIterator[
        tuple[ClientApp, PipeInput]]:
    """The client on a server at ``port``, keys from a pipe, drawn to ``output`` (nowhere by
    default); it is stopped when the block ends."""
    with create_pipe_input() as keys:
        app = ClientApp("127.0.0.1", port, name, input=keys, output=output or DummyOutput(),
                        backoff=(0.05, 0.1), **options)  # type: ignore[arg-type]
        task = asyncio.create_task(app.run())
        try:
            yield app, keys
        finally:
            if not task.done():
                app.application.exit(result=0)
            await asyncio.wait_for(task, 15)


async def play_one_move(model: ViewModel, keys: PipeInput) -> None:
    """Press the keys a player would for the move the model offers (a key first to go on
    from the count of the last deal, when it is on the screen)."""
    if model.game.deal_count is not None:
        keys.send_text(" ")
        await wait_for(lambda: model.game.deal_count is None, "the count of the deal to close")
    if model.game.discard_size:
        for i in range(model.game.discard_size):
            keys.send_text(str(i + 1))
        await wait_for(lambda: len(model.game.selected) == model.game.discard_size, "the crib cards picked")
        keys.send_text(ENTER)
    elif model.game.go_is_legal:
        keys.send_text("g")
    else:
        playable = model.game.playable()
        index = next(i for i, card in enumerate(model.game.hand) if card in playable)
        keys.send_text(str(index + 1))


async def play_until(model: ViewModel, keys: PipeInput, done: Callable[[], bool]) -> None:
    while not done():
        await wait_for(lambda: done() or (model.game.can_act and not model.game.sending_action),
                       "my turn or the end")
        if done():
            break
        before = model.game.view.seq, len(model.game.hand), len(model.game.selected)
        await play_one_move(model, keys)
        await wait_for(lambda: (model.game.view.seq, len(model.game.hand)) != before[:2] or done(),
                       "the move to be made")


async def test_start_a_game_from_the_lobby_and_play_a_deal_by_keys(server: NoddyServer) -> None:
    async with running_client(server.port) as (app, keys):
        model = app.model
        await wait_for(lambda: model.session.screen == "lobby" and model.session.presets, "the lobby")
        keys.send_text("n")
        await wait_for(lambda: model.new_table.form is not None, "the create-table form")
        assert model.new_table.form is not None and model.new_table.form.preset["name"] == "noddy"
        keys.send_text(ENTER)
        await wait_for(lambda: model.game.in_game and model.game.hand, "the first deal")
        assert model.game.table is not None and model.game.table["status"] == "playing"
        assert model.game.seat == 0
        start = list(model.game.view.scores)
        deal_over = lambda: any(line.text.startswith("After deal 1") for line in model.game.log) \
            or model.game.view.winner is not None  # noqa: E731
        await play_until(model, keys, deal_over)
        assert model.game.view.scores != start and sum(model.game.view.scores) > 0
        board = plain(board_fragments(model, 80))
        for score in model.game.view.scores:
            assert f"{score:>3}/31" in board
        revealed = [line.text for line in model.game.log if "'s hand " in line.text]
        assert len(revealed) == 2 or model.game.view.winner is not None


async def test_a_whole_cribbage_game_with_discards(server: NoddyServer) -> None:
    async with running_client(server.port, quick_start={
            "preset": "cribbage", "players": 2, "computers": 1, "options": {"target": 31}}) as (app, keys):
        model = app.model
        await wait_for(lambda: model.game.in_game, "the game to start")
        await play_until(model, keys, lambda: model.game.view.winner is not None)
        assert max(model.game.view.scores) >= 31
        assert any("wins the game" in line.text for line in model.game.log)
        # play again: r, and a new game begins at the same table
        games = sum(1 for line in model.game.log if line.text.startswith("A game of"))
        keys.send_text("r")
        await wait_for(lambda: sum(1 for line in model.game.log if line.text.startswith("A game of")) > games,
                       "a second game")
        assert model.game.view.winner is None


class Proxy:
    """A TCP relay between the client and the server that can cut every connection."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.writers: list[asyncio.StreamWriter] = []
        self.server: asyncio.Server | None = None

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        return int(self.server.sockets[0].getsockname()[1])

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        self.writers += [writer, up_writer]

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            with contextlib.suppress(Exception):
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            dst.close()
        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    def cut(self) -> None:
        for writer in self.writers:
            writer.transport.abort()
        self.writers.clear()

    async def close(self) -> None:
        self.cut()
        if self.server is not None:
            self.server.close()


async def test_reconnects_and_resumes_after_the_connection_drops(server: NoddyServer) -> None:
    proxy = Proxy(server.port)
    port = await proxy.start()
    try:
        async with running_client(port, quick_start={"preset": "noddy", "players": 2,
                                                     "computers": 1}) as (app, keys):
            model = app.model
            await wait_for(lambda: model.game.can_act, "my first turn")
            table, hand, scores = model.game.table_id, list(model.game.hand), list(model.game.view.scores)
            token = model.session.token
            proxy.cut()
            await wait_for(lambda: app.connection.connections_made >= 2 and model.session.connection == "online"
                           and "Connection restored" in model.session.status and model.game.can_act,
                           "the client to come back by itself")
            assert model.session.token == token
            assert model.game.table_id == table and model.session.screen == "table"
            assert model.game.hand == hand and model.game.view.scores == scores
            assert "Connection restored" in model.session.status
            # and the game goes on from where it was
            seq = model.game.view.seq
            await play_one_move(model, keys)
            await wait_for(lambda: model.game.view.seq > seq, "the move after the reconnection")
    finally:
        await proxy.close()


async def test_q_asks_during_a_game_and_help_opens_and_closes(server: NoddyServer) -> None:
    async with running_client(server.port, quick_start={"preset": "noddy", "players": 2}) as (app, keys):
        model = app.model
        await wait_for(lambda: model.game.in_game, "the game to start")
        keys.send_text("?")
        await wait_for(lambda: app.show_help, "the help")
        keys.send_text("x")
        await wait_for(lambda: not app.show_help, "the help to close")
        keys.send_text("q")
        await wait_for(lambda: app.confirm_quit, "the question")
        keys.send_text("n")
        await wait_for(lambda: not app.confirm_quit, "the question to go")
        assert app.application.is_running
        keys.send_text("\x03")          # Ctrl-C asks too ...
        await wait_for(lambda: app.confirm_quit, "the question again")
        keys.send_text("n")
        await wait_for(lambda: not app.confirm_quit, "the question to go again")
        keys.send_text("q")
        await wait_for(lambda: app.confirm_quit, "the question once more")
        keys.send_text("y")
        await wait_for(lambda: not app.application.is_running, "the client to quit")


async def test_table_chat_and_a_second_player_watching(server: NoddyServer) -> None:
    async with running_client(server.port, quick_start={"preset": "noddy", "players": 2}) as (app, keys):
        await wait_for(lambda: app.model.game.in_game, "the game to start")
        async with running_client(server.port, name="Watcher") as (watcher, wkeys):
            await wait_for(lambda: watcher.model.session.screen == "lobby" and watcher.model.lobby.tables,
                           "the watcher's lobby")
            wkeys.send_text("w")
            await wait_for(lambda: watcher.model.game.in_game and watcher.model.session.screen == "table",
                           "the watcher at the table")
            assert watcher.model.game.seat is None and watcher.model.game.hand == []
            keys.send_text("c")
            await wait_for(lambda: app.chatting, "the chat line")
            keys.send_text("good luck" + ENTER)
            await wait_for(lambda: any("<Me> good luck" in line.text for line in watcher.model.game.log),
                           "the chat at the watcher's")


async def test_no_address_starts_a_private_server_and_seats_you_against_computers() -> None:
    """``noddy-client --preset cribbage --players 3``: one command gives a game."""
    from noddy.play import play_local

    apps: list[ClientApp] = []
    with create_pipe_input() as keys:
        task = asyncio.create_task(play_local("Me", "cribbage", 3, target=31, level="random",
                                              on_app=apps.append, input=keys,
                                              output=DummyOutput()))
        await wait_for(lambda: apps and apps[0].model.game.in_game, "the private game to start")
        model = apps[0].model
        assert model.game.view.players == 3 and model.game.target == 31 and model.game.seat == 0
        assert [model.game.seat_name(s) for s in (1, 2)] == ["random computer 2", "random computer 3"]
        await wait_for(lambda: model.game.discard_size == 1, "my discard")
        keys.send_text("1" + ENTER)
        await wait_for(lambda: len(model.game.hand) == 4, "the discard to be made")
        keys.send_text("\x11")   # Ctrl-Q quits at once, even in a game
        assert await asyncio.wait_for(task, 10) == 0


PAGE_UP, END, ESC, BACKSPACE = "\x1b[5~", "\x1b[F", "\x1b", "\x7f"


async def open_form_for(app: ClientApp, keys: PipeInput, *, preset_steps: int = 0,
                        players_steps: int = 0) -> None:
    """n, then the preset and player count; no computer players, the Password row current."""
    model = app.model
    keys.send_text("n")
    await wait_for(lambda: model.new_table.form is not None, "the create-table form")
    form = model.new_table.form
    assert form is not None
    keys.send_text("\x1b[C" * preset_steps + "\x1b[B" + "\x1b[C" * players_steps)
    await wait_for(lambda: form.preset_index == preset_steps and form.row == 1
                   and form.players_index == players_steps, "the preset and players")
    while form.current() != "computers":
        keys.send_text("\t")
        row = form.row
        await wait_for(lambda: form.row != row, "the next row")
    keys.send_text("\x1b[D" * 3)
    await wait_for(lambda: form.computers == 0, "no computer players")
    while not form.on_text:
        keys.send_text("\t")
        row = form.row
        await wait_for(lambda: form.row != row, "the next row")


async def test_a_private_table_by_keys_and_a_wrong_password_asks_again(server: NoddyServer) -> None:
    async with running_client(server.port, name="Host") as (host, hkeys):
        await wait_for(lambda: host.model.session.screen == "lobby" and host.model.session.presets, "the lobby")
        await open_form_for(host, hkeys)
        hkeys.send_text("owq" + BACKSPACE + "l q")    # q and space type into the field
        await wait_for(lambda: host.model.new_table.form is not None and host.model.new_table.form.option("password").value == "owl q",
                       "the typed password")
        hkeys.send_text(BACKSPACE + BACKSPACE + ENTER)
        await wait_for(lambda: host.model.session.screen == "table", "the private table")
        assert host.model.game.table is not None and host.model.game.table["private"] is True
        async with running_client(server.port, name="Guest") as (guest, gkeys):
            model = guest.model
            await wait_for(lambda: model.lobby.tables and model.session.screen == "lobby", "the guest's lobby")
            gkeys.send_text("w")
            await wait_for(lambda: model.lobby.password_prompt is not None, "the password line")
            gkeys.send_text("zz" + ESC)                 # Esc: never mind
            await wait_for(lambda: model.lobby.password_prompt is None, "the password line to go")
            assert model.session.screen == "lobby"
            gkeys.send_text(ENTER)                      # sit: asks again, the line starts empty
            await wait_for(lambda: model.lobby.password_prompt is not None, "the password line again")
            assert guest.password_buffer.text == ""
            gkeys.send_text("owk" + ENTER)
            await wait_for(lambda: model.lobby.password_prompt is not None and model.lobby.password_prompt.retry,
                           "the wrong password refused")
            assert model.session.status == "Wrong password for table 1: type it again, or Esc."
            gkeys.send_text("owl" + ENTER)
            await wait_for(lambda: model.session.screen == "table" and model.game.seat == 1, "the guest seated")
            await wait_for(lambda: host.model.game.table is not None
                           and host.model.game.table["seats"][1] is not None, "the host to see the guest")
            assert host.model.game.table["seats"][1]["name"] == "Guest"


async def test_seats_computers_and_standing_by_keys(server: NoddyServer) -> None:
    async with running_client(server.port) as (app, keys):
        model = app.model
        await wait_for(lambda: model.session.screen == "lobby" and model.session.presets, "the lobby")
        cribbage = [p["name"] for p in model.session.presets].index("cribbage")
        await open_form_for(app, keys, preset_steps=cribbage, players_steps=1)   # 3 players
        keys.send_text(ENTER)
        await wait_for(lambda: model.session.screen == "table" and model.game.table is not None, "the table")
        assert (model.game.table["players"], model.game.seat) == (3, 0)

        def seats() -> list[str | None]:
            table = model.game.table or {}
            return [s and f"{s['name']}" for s in table.get("seats", [])]

        keys.send_text("3")                                  # move to seat 3
        await wait_for(lambda: model.game.seat == 2 and seats() == [None, None, "Me"], "the move")
        assert (model.session.levels, model.session.computer_level) == (["random", "greedy", "expert"], "random")
        keys.send_text("vv")                                 # the server's default, random -> expert
        await wait_for(lambda: model.session.computer_level == "expert", "the level two along")
        keys.send_text("a")
        await wait_for(lambda: seats() == ["expert computer 1", None, "Me"], "an expert computer")
        keys.send_text("vva")                                # expert -> random -> greedy
        await wait_for(lambda: seats() == ["expert computer 1", "greedy computer 2", "Me"],
                       "a greedy computer")
        assert model.game.table["status"] == "waiting"            # Me is not ready: no game yet
        keys.send_text("x")                                  # two computers: which one?
        await wait_for(lambda: model.table_screen.seats.picking == "remove", "the question")
        keys.send_text("1")
        await wait_for(lambda: seats() == [None, "greedy computer 2", "Me"], "seat 1 emptied")
        keys.send_text("s")                                  # stand up and watch
        await wait_for(lambda: model.game.seat is None and seats() == [None, "greedy computer 2", None],
                       "standing")
        assert model.session.screen == "table" and model.game.table["spectators"] == ["Me"]
        keys.send_text("s")                                  # and sit in the first free seat
        await wait_for(lambda: model.game.seat == 0 and seats() == ["Me", "greedy computer 2", None],
                       "seated again")


async def test_the_log_scrolls_back_with_page_up_and_end_returns(server: NoddyServer) -> None:
    async with running_client(server.port, quick_start={"preset": "noddy", "players": 2}) as (app, keys):
        model = app.model
        await wait_for(lambda: model.game.in_game, "the game")
        # play on until the log is longer than its window (the screen is 80x40 here)
        await play_until(model, keys, lambda: len(model.game.log) > app._log_height() + 2
                         or model.game.view.winner is not None)
        assert len(model.game.log) > app._log_height()
        keys.send_text(PAGE_UP)
        await wait_for(lambda: model.game.log_scroll > 0, "the log scrolled back")
        assert model.game.visible_log() == model.game.log[:len(model.game.log) - model.game.log_scroll]
        keys.send_text(END)
        await wait_for(lambda: model.game.log_scroll == 0, "the log back at its end")


async def test_ctrl_z_and_a_stop_signal_give_the_terminal_back_and_take_it_again(
        server: NoddyServer, monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 27, item 10: stopped (Ctrl-Z or SIGTSTP) and brought back with fg, the client
    # left the terminal in cooked mode, keys echoing into the header.  Now each stops the
    # process group from inside run_in_terminal (cooked mode, then raw again and a redraw).
    import os
    import signal

    from noddy.client import app as app_module
    stops: list[tuple[int, int]] = []
    monkeypatch.setattr(os, "kill", lambda pid, sig: stops.append((pid, sig)))
    in_terminal: list[str] = []
    real = app_module.run_in_terminal

    def watched(func: Callable[[], None]) -> object:
        in_terminal.append(func.__name__)
        return real(func)
    monkeypatch.setattr(app_module, "run_in_terminal", watched)
    async with running_client(server.port) as (app, keys):
        await wait_for(lambda: app.model.game.table_id is not None or app.model.session.screen != "connecting",
                       "the client to start")
        keys.send_text("\x1a")  # Ctrl-Z
        await wait_for(lambda: stops, "Ctrl-Z to stop the process group")
        assert stops == [(0, signal.SIGTSTP)] and in_terminal == ["stop"]
        # A stop signal from outside is caught the same way (the handler was put back).
        loop = asyncio.get_running_loop()
        assert loop.remove_signal_handler(signal.SIGTSTP)  # installed again after the stop
        loop.add_signal_handler(signal.SIGTSTP, app.suspend)
        signal.raise_signal(signal.SIGTSTP)
        await wait_for(lambda: len(stops) == 2, "SIGTSTP to stop the process group")
        assert stops == [(0, signal.SIGTSTP)] * 2 and in_terminal == ["stop", "stop"]


async def test_q_between_two_games_of_a_match_asks_and_keeps_the_match(server: NoddyServer) -> None:
    """Seen in tmux (issue 33's last evening, item 2 again): ann won game 1 of a match to 2
    against a computer and pressed q before game 2; the client quit without a question and
    said bye, so the server gave the match to the computer and closed the table.  Quitting is
    not resigning: between games of a match going on it asks, as in a game, and only closes
    the connection, so the seat and the match are held."""
    async with running_client(server.port, "ann", quick_start={
            "preset": "noddy", "players": 2, "computers": 1,
            "options": {"target": 15, "match": 2}}) as (app, keys):
        model = app.model
        await wait_for(lambda: model.game.in_game, "the game to start")
        await play_until(model, keys, lambda: model.game.view.winner is not None)
        table_id = model.game.table_id
        await wait_for(lambda: (model.game.table or {}).get("match", {}).get("points", [0, 0]) != [0, 0],
                       "the match score after game 1")
        assert model.table_screen.in_match()
        keys.send_text("q")
        await wait_for(lambda: app.confirm_quit or not app.application.is_running, "the question")
        assert app.confirm_quit, "q between games of a match quit without asking"
        keys.send_text("y")
        await wait_for(lambda: not app.application.is_running, "the client to quit")
    dee = await Client.connect(server.port)
    await dee.hello("dee")
    tables = (await dee.request({"type": "list_tables"}))["tables"]
    kept = [t for t in tables if t["id"] == table_id]
    assert len(kept) == 1, "the table was closed: the match was given away"
    assert kept[0]["seats"][0]["name"] == "ann"
    assert kept[0]["match"]["winner"] is None and "resigned" not in kept[0]["match"]
    await dee.close()
