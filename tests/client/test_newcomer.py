"""The client as a newcomer meets it (issue 12): no dead ends, no tracebacks, no protocol words.

The command line is checked by calling ``noddy.play.main`` with the game itself replaced (a
refused option must never get that far); the screens by driving :class:`ClientApp` with
keys against a real server on 127.0.0.1, as in ``test_app.py``; the rest on the view model.
"""

from __future__ import annotations

import asyncio
import io
import os
import stat
from pathlib import Path
from typing import Any

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from noddy import play
from noddy.client import cli
from noddy.client.app import ClientApp
from noddy.client.model import CONNECTING, ViewModel
from noddy.client.render import keys_fragments, plain
from noddy.client.screens.lobby_layout import lobby_fragments
from noddy.client.state import ResumeTokens, state_directory

from ..server.harness import running_server
from .test_app import ENTER, running_client, wait_for

ESC = "\x1b"


# == the command line ======================================================================

@pytest.fixture
def no_game(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Replace the game: whatever reaches it is recorded instead of opening a screen."""
    started: list[Any] = []

    async def fake_local(*args: Any, **kwargs: Any) -> int:
        started.append(("local", args, kwargs))
        return 0

    async def fake_client(*args: Any, **kwargs: Any) -> int:
        started.append(("client", args, kwargs))
        return 0

    monkeypatch.setattr(play, "play_local", fake_local)
    monkeypatch.setattr(cli, "run_client", fake_client)
    return started


@pytest.mark.parametrize("argv, words", [
    (["--preset", "bogus"], "unknown preset 'bogus'"),
    (["--target", "5"], "option 'target' must be a whole number from 15 to 500, not 5"),
    (["--players", "3", "--preset", "noddy"], "3 players each alone is not allowed"),
    (["--level", "godlike"], "no computer level 'godlike'; the levels are: random, greedy, expert"),
    (["--players", "7"], "--players must be 2, 3 or 4"),
    (["127.0.0.1:99999"], "port 99999 is out of range (1 to 65535)"),
    (["127.0.0.1:-1"], "not a port number: '-1'"),
    (["127.0.0.1:0"], "port 0 is out of range (1 to 65535)"),
    (["127.0.0.1:3131", "--preset", "cribbage"], "--preset, --players, --target, --level, "
                                                 "--counting and --no-hints are for a game "
                                                 "without an address"),
    (["127.0.0.1:3131", "--counting", "manual"], "are for a game without an address"),
    (["--counting", "manual"], "counting by hand does not apply to noddy"),
    (["--counting", "sometimes"], "argument --counting: invalid choice: 'sometimes'"),
])
def test_a_bad_option_is_a_usage_error_before_any_screen(
        argv: list[str], words: str, no_game: list[Any], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        play.main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: noddy-client")
    assert words in err
    assert no_game == []


def test_without_a_terminal_the_client_says_so(no_game: list[Any], monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert play.main(["127.0.0.1:3131"]) == 2
    assert play.main(["--preset", "cribbage"]) == 2
    err = capsys.readouterr().err
    assert err == ("noddy-client: the full-screen client needs a terminal (standard input is "
                   "not one); to play from a script or a pipe, talk to the server directly: "
                   "nc HOST PORT\n") * 2
    assert no_game == []


def test_version(no_game: list[Any], capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    with pytest.raises(SystemExit) as exit_:
        play.main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out == f"noddy-client {version('noddy')}\n"


def test_good_options_reach_the_game(no_game: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", type("Tty", (io.StringIO,), {"isatty": lambda self: True})())
    monkeypatch.setattr("sys.stdout", type("Tty", (io.StringIO,), {"isatty": lambda self: True})())
    assert play.main(["--preset", "noddy", "--players", "4", "--target", "61", "--level", "expert",
                      "--name", "Ann"]) == 0
    assert play.main(["example.org:4000", "--name", "Ann"]) == 0
    assert [entry[0] for entry in no_game] == ["local", "client"]
    assert no_game[0][1] == ("Ann", "noddy", 4)
    assert no_game[0][2] == {"target": 61, "level": "expert", "table_options": {"hints": True}}
    assert no_game[1][1] == ("example.org", 4000, "Ann")
    assert isinstance(no_game[1][2]["tokens"], ResumeTokens)


# == the resume token on disk ==============================================================

def test_resume_tokens_are_kept_per_server_and_name_readable_only_by_the_user(tmp_path: Path) -> None:
    assert state_directory({"XDG_STATE_HOME": str(tmp_path)}) == tmp_path / "noddy"
    assert state_directory({"HOME": "/home/ann"}) == Path("/home/ann/.local/state/noddy")
    tokens = ResumeTokens(tmp_path / "noddy")
    assert tokens.get("a:1", "Ann") is None
    tokens.put("a:1", "Ann", "t1")
    tokens.put("a:1", "Bob", "t2")
    tokens.put("b:2", "Ann", "t3")
    again = ResumeTokens(tmp_path / "noddy")
    assert (again.get("a:1", "Ann"), again.get("a:1", "Bob"), again.get("b:2", "Ann")) == ("t1", "t2", "t3")
    assert stat.S_IMODE(os.stat(again.path).st_mode) == 0o600
    again.forget("a:1", "Ann")
    assert ResumeTokens(tmp_path / "noddy").get("a:1", "Ann") is None
    assert ResumeTokens(tmp_path / "noddy").get("a:1", "Bob") == "t2"
    again.path.write_text("not json")                   # a damaged file is a fresh start
    assert ResumeTokens(tmp_path / "noddy").get("a:1", "Bob") is None


@pytest.mark.parametrize("how", ["q y", "ctrl-q"])
async def test_a_restarted_client_takes_its_seat_back(how: str, tmp_path: Path) -> None:
    tokens = ResumeTokens(tmp_path)
    async with running_server(grace_period=5.0) as server:
        async with running_client(server.port, name="Ann", tokens=tokens,
                                  quick_start={"preset": "noddy", "players": 2}) as (app, keys):
            model = app.model
            await wait_for(lambda: model.game.in_game and model.game.hand, "the game")
            table, hand = model.game.table_id, list(model.game.hand)
            if how == "q y":
                keys.send_text("q")
                await wait_for(lambda: app.confirm_quit, "the question")
                assert "held for 5 s" in plain(app.confirm_text())
                keys.send_text("y")
            else:
                keys.send_text("\x11")
            await wait_for(lambda: not app.application.is_running, "the client to quit")
        core = server.core
        seat = core.tables[table].seats[0]
        assert seat is not None and not seat.is_computer and seat.name == "Ann"  # held, not given away
        async with running_client(server.port, name="Ann", tokens=tokens) as (again, _):
            model = again.model
            await wait_for(lambda: model.session.screen == "table" and model.game.hand, "the seat taken back")
            assert (model.game.table_id, model.game.seat, model.game.hand) == (table, 0, hand)
            assert model.session.status == f"Back at table {table} (your seat was held)."  # (a restart: nothing was lost)


async def test_a_stale_token_is_dropped_and_the_client_starts_afresh(tmp_path: Path) -> None:
    tokens = ResumeTokens(tmp_path)
    async with running_server() as server:
        key = f"127.0.0.1:{server.port}"
        tokens.put(key, "Ann", "0" * 32)                 # a seat long given up
        async with running_client(server.port, name="Ann", tokens=tokens) as (app, keys):
            await wait_for(lambda: app.model.session.screen == "lobby", "the lobby")
            assert tokens.get(key, "Ann") == app.model.session.token != "0" * 32
            keys.send_text("q")
            await wait_for(lambda: not app.application.is_running, "the client to quit")
        assert tokens.get(key, "Ann") is None             # a clean quit holds nothing


async def test_resign_gives_the_seat_away_after_asking(tmp_path: Path) -> None:
    tokens = ResumeTokens(tmp_path)
    async with running_server() as server:
        async with running_client(server.port, name="Ann", tokens=tokens,
                                  quick_start={"preset": "noddy", "players": 2}) as (app, keys):
            model = app.model
            await wait_for(lambda: model.game.in_game and model.game.hand, "the game")
            table = model.game.table_id
            assert "l resign" in plain(keys_fragments(model))
            keys.send_text("l")
            await wait_for(lambda: app.confirm_resign, "the question")
            assert "a loss for your side" in plain(app.confirm_text())
            keys.send_text("n")
            await wait_for(lambda: not app.confirm_resign, "the question gone")
            assert model.session.screen == "table"
            keys.send_text("l")
            await wait_for(lambda: app.confirm_resign, "the question again")
            keys.send_text("y")
            await wait_for(lambda: model.session.screen == "lobby", "back in the lobby")
            # The result she caused, not only "You left the table." (issue 33, item 4).
            await wait_for(lambda: model.session.status.startswith(
                "You resigned: greedy computer 2 wins the game, "), "the result")
            # Given away for good: with no person left, the table closed at once (a quit
            # would have held the seat; see the test above).
            assert table not in server.core.tables
            keys.send_text("q")                           # in the lobby q quits at once
            await wait_for(lambda: not app.application.is_running, "the client to quit")
        assert tokens.get(f"127.0.0.1:{server.port}", "Ann") is None   # nothing left to resume


async def test_a_refused_name_asks_for_another_in_the_client(tmp_path: Path) -> None:
    async with running_server() as server:
        async with running_client(server.port, name="Ann") as (first, _):
            await wait_for(lambda: first.model.session.screen == "lobby", "the first Ann")
            async with running_client(server.port, name="Ann") as (app, keys):
                model = app.model
                await wait_for(lambda: model.session.name_prompt is not None, "the name line")
                assert model.session.screen == CONNECTING
                assert "The name 'Ann' is taken" in model.session.name_prompt
                assert "name_taken" not in model.session.status + model.session.name_prompt
                assert app.name_buffer.text == "Ann"      # the line starts with the old name
                keys.send_text("r")                       # typed into the name line, not sent
                await wait_for(lambda: app.name_buffer.text == "Annr", "r typed")
                keys.send_text("\x7f" + "2" + ENTER)
                await wait_for(lambda: model.session.screen == "lobby", "the lobby as Ann2")
                assert model.session.name == "Ann2" and model.session.name_prompt is None


# == the model: never a protocol word, never a dead key ====================================

def test_before_the_welcome_the_lobby_says_it_is_connecting_and_sends_nothing() -> None:
    model = ViewModel("Ann")
    text = plain(lobby_fragments(model))
    assert "No tables yet" not in text and "Connecting to the server" in text
    footer = plain(keys_fragments(model))
    assert "card" not in footer and "ready" not in footer and "q quit" in footer
    model.connection_up()
    model.session.take_outbox()
    model.session.send("list_tables")
    assert model.session.take_outbox() == []
    assert model.session.status == "Not connected yet: wait a moment (q quits)."
    model.handle({"type": "error", "code": "hello_required",
                  "message": "say hello before list_tables"})
    assert "hello_required" not in model.session.status


def test_errors_are_shown_in_words_without_their_codes() -> None:
    model = ViewModel("Ann")
    model.handle({"type": "welcome", "name": "Ann", "token": "t", "presets": [], "levels": []})
    model.handle({"type": "error", "code": "table_full", "message": "table 3 is full", "id": 99})
    assert model.session.status == "table 3 is full"


def test_an_unreachable_server_is_said_plainly_with_retry_and_quit() -> None:
    model = ViewModel("Ann")
    model.connection_lost("cannot reach 127.0.0.1:1: nothing is listening there "
                          "(connection refused); trying again in 2 s")
    assert model.prompt() == ("Cannot reach 127.0.0.1:1: nothing is listening there (connection "
                              "refused); trying again in 2 s. r tries now, q quits.")
    footer = plain(keys_fragments(model))
    assert "r retry now" in footer and "q quit" in footer and "card" not in footer


async def test_the_connection_explains_a_refused_connection() -> None:
    states: list[tuple[str, str]] = []
    server = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    server.close()
    await server.wait_closed()
    from noddy.client.connection import Connection

    connection = Connection("127.0.0.1", port, lambda m: None, lambda s, d: states.append((s, d)),
                            backoff=(30.0,))
    task = asyncio.create_task(connection.run())
    await wait_for(lambda: states, "the first failure")
    connection.retry_now()
    await wait_for(lambda: len(states) >= 2, "a retry at once")
    connection.stop()
    await asyncio.wait_for(task, 5)
    assert states[0] == ("failed", f"cannot reach 127.0.0.1:{port}: nothing is listening there "
                                   "(connection refused); trying again in 30 s")


def _at_table(model: ViewModel, seats: list[dict[str, Any] | None], hand: list[str],
              status: str = "playing") -> None:
    model.handle({"type": "welcome", "name": "Ann", "token": "t", "presets": [], "levels": ["random"],
                  "default_level": "random"})
    model.session.take_outbox()
    summary = {"id": 1, "preset": "noddy", "players": len(seats), "status": status, "seats": seats,
               "options": {}, "spectators": []}
    model.handle({"type": "table", "table": summary, "seat": 0, "id": model.session.send("sit", table=1, seat=0)})
    if status == "playing":
        model.handle({"type": "event", "table": 1, "seq": 1, "event": {
            "kind": "game_started", "preset": "noddy", "players": len(seats), "partnerships": False,
            "target": 31}})
        model.game.hand = list(hand)
        model.game.view.hand_sizes = [len(hand)] * len(seats)
        model.handle({"type": "turn", "table": 1, "to_move": 0, "awaiting": [0],
                      "legal_actions": [{"action": "play", "card": c} for c in hand]})


def test_the_footer_and_prompt_fit_the_hand_and_the_moment() -> None:
    ann = {"name": "Ann", "kind": "human", "ready": False}
    bot = {"name": "random computer 2", "kind": "computer", "level": "random", "ready": True}
    model = ViewModel("Ann")
    _at_table(model, [ann, bot], ["5H", "9S", "KD"])
    footer = plain(keys_fragments(model))
    assert "1-3 card" in footer and "1-6" not in footer and "r ready" not in footer
    assert "g go" not in footer  # a card can be played, so go is not offered
    model.handle({"type": "turn", "table": 1, "to_move": 0, "awaiting": [0],
                  "legal_actions": [{"action": "go"}]})
    assert "g go" in plain(keys_fragments(model))
    model.handle({"type": "turn", "table": 1, "to_move": 0, "awaiting": [0],
                  "legal_actions": [{"action": "play", "card": c} for c in model.game.hand]})
    model.game.hand = ["5H"]
    assert model.prompt() == "Your turn: play your card with 1, or Enter."
    assert "1 card" in plain(keys_fragments(model))
    model.handle({"type": "event", "table": 1, "seq": 2, "event": {
        "kind": "game_over", "winner": 0, "scores": [31, 20], "winning_seats": [0]}})
    footer = plain(keys_fragments(model))
    assert "card" not in footer and "r play again" in footer and "l leave" in footer

    full = ViewModel("Ann")
    _at_table(full, [ann, bot], [], status="waiting")
    assert full.prompt() == "Every seat is taken: r says you are ready, and the game begins."
    assert "a/x" not in plain(keys_fragments(full))
    open_ = ViewModel("Ann")
    _at_table(open_, [ann, None], [], status="waiting")
    assert open_.prompt() == "Waiting for players: a adds a computer (random), r says you are ready."


# == help ==================================================================================

@pytest.mark.parametrize("key", [ESC, ENTER, "\t", " ", "x", "\x1b[A"])
async def test_any_key_closes_the_help_and_does_nothing_else(key: str) -> None:
    async with running_server() as server:
        async with running_client(server.port, name="Ann") as (app, keys):
            model = app.model
            await wait_for(lambda: model.session.screen == "lobby" and model.session.presets, "the lobby")
            model.lobby.tables = {7: {"id": 7, "preset": "noddy", "players": 2, "status": "waiting",
                                "seats": [None, None]}}
            keys.send_text("?")
            await wait_for(lambda: app.show_help, "the help")
            keys.send_text(key)
            await wait_for(lambda: not app.show_help, "the help to close")
            await asyncio.sleep(0.1)
            assert model.session.screen == "lobby" and model.new_table.form is None and not app.chatting
            assert not any(m["type"] == "sit" for m in model.session._pending.values())


async def test_q_in_the_help_quits() -> None:
    async with running_server() as server:
        async with running_client(server.port, name="Ann") as (app, keys):
            await wait_for(lambda: app.model.session.screen == "lobby", "the lobby")
            keys.send_text("?")
            await wait_for(lambda: app.show_help, "the help")
            keys.send_text("q")
            await wait_for(lambda: not app.application.is_running, "the client to quit")


def test_the_help_fits_a_small_screen() -> None:
    from noddy.client.keys import help_fragments

    for width in (40, 60, 79):
        lines = plain(help_fragments(width)).splitlines()
        assert max(len(line) for line in lines) <= width - 2, width
        assert any("any key closes" in line for line in lines[:2])
    wide = plain(help_fragments(100)).splitlines()
    assert max(len(line) for line in wide) <= 78


def test_a_long_status_wraps_instead_of_being_cut() -> None:
    with create_pipe_input() as keys:
        app = ClientApp("127.0.0.1", 9, "Ann", input=keys, output=DummyOutput())
        app.model.connection_lost("cannot reach 127.0.0.1:40627: nothing is listening there "
                                  "(connection refused); trying again in 2 s")
        window = app.lobby_status_window
        assert window.preferred_height(80, 24).preferred >= 2
        assert "q quits" in plain(app.lobby_status_fragments())


# == computers have their own names ========================================================

async def test_each_computer_seat_has_its_own_name() -> None:
    async with running_server() as server:
        async with running_client(server.port, name="Ann", quick_start={
                "preset": "cribbage", "players": 4, "computers": 3}) as (app, keys):
            model = app.model
            await wait_for(lambda: model.game.in_game, "the game")
            level = server.core.config.computer_level
            names = [model.game.seat_name(s) for s in range(4)]
            assert names == ["Ann", f"{level} computer 2", f"{level} computer 3", f"{level} computer 4"]
            assert model.game.team_labels() == [f"Ann & {level} computer 3", f"{level} computer 2 & "
                                                                        f"{level} computer 4"]


# == the count at the end of a deal ========================================================

def _a_deal_counted(model: ViewModel) -> None:
    ann = {"name": "Ann", "kind": "human", "ready": True}
    bot = {"name": "random computer 2", "kind": "computer", "level": "random", "ready": True}
    _at_table(model, [ann, bot], ["5H", "5S", "KD"])
    for seq, event in enumerate([
            {"kind": "deal_started", "deal": 1, "dealer": 1},
            {"kind": "turned_up", "card": "6H"},
            {"kind": "scored", "seat": 0, "reason": "show", "points": 4,
             "announcement": "fifteen two, a pair four", "scores": [4, 0]},
            {"kind": "scored", "seat": 1, "reason": "show", "points": 0, "announcement": "",
             "scores": [4, 0]},
            {"kind": "scored", "seat": 1, "reason": "crib", "points": 2,
             "announcement": "fifteen two", "scores": [4, 2]},
            {"kind": "hands_revealed", "hands": [["5H", "5S", "KD"], ["2C", "3D", "9S"]],
             "crib": ["4C", "QS"]},
            {"kind": "deal_ended", "deal": 1, "scores": [4, 2]}], start=2):
        model.handle({"type": "event", "table": 1, "seq": seq, "event": event}, now=100.0)


def test_the_count_of_a_deal_is_shown_hand_by_hand() -> None:
    from noddy.client.render import count_fragments

    model = ViewModel("Ann")
    _a_deal_counted(model)
    assert model.game.deal_count is not None
    lines = plain(count_fragments(model, 80)).splitlines()
    assert lines[0] == " The count of deal 1 · turn-up 6♥  — any key goes on —"
    assert lines[1].split() == ["Ann", "5♥", "5♠", "K♦", "+", "6♥", "4", "fifteen", "two,", "a",
                                "pair", "four"]
    assert lines[2].split() == ["random", "computer", "2", "2♣", "3♦", "9♠", "+", "6♥", "0", "nothing"]
    assert lines[3].split()[:5] == ["crib", "4♣", "Q♠", "+", "6♥"]
    assert lines[3].split()[5:] == ["2", "fifteen", "two"]
    assert lines[4:] == [" After deal 1: Ann 4, random computer 2 2."]
    # The game goes on underneath: the next deal's events do not take the count away ...
    model.handle({"type": "event", "table": 1, "seq": 9, "event": {
        "kind": "deal_started", "deal": 2, "dealer": 0}}, now=101.0)
    assert model.game.deal_count is not None and model.game.deal_count.deal == 1
    # ... a few seconds do, once the player is the one being waited for ...
    assert not model.game.count_expired(102.0)
    model.handle({"type": "turn", "table": 1, "to_move": 0, "awaiting": [0, 1],
                  "legal_actions": [{"action": "discard", "cards": ["5H"]}]}, now=102.0)
    assert not model.game.count_expired(101.0 + 2)
    assert model.game.count_expired(100.0 + 8.5)
    model.game.dismiss_count()
    assert model.game.deal_count is None


async def test_a_key_closes_the_count_and_is_not_played() -> None:
    with create_pipe_input() as keys:
        app = ClientApp("127.0.0.1", 9, "Ann", input=keys, output=DummyOutput(), backoff=(5.0,))
        model = app.model
        _a_deal_counted(model)
        model.game.hand = ["5H", "5S", "KD", "2C"]       # the next deal, waiting for a discard
        model.handle({"type": "turn", "table": 1, "to_move": None, "awaiting": [0],
                      "legal_actions": [{"action": "discard", "cards": ["5H"]}]}, now=100.0)
        model.session.take_outbox()
        task = asyncio.create_task(app.run())
        try:
            await asyncio.sleep(0.05)
            keys.send_text("1")
            await wait_for(lambda: app.model.game.deal_count is None, "the count to close")
            assert model.game.selected == set() and model.session.take_outbox() == []   # "1" only closed it
            # (no server here: the failed connection took the turn away; give it back)
            model.handle({"type": "turn", "table": 1, "to_move": None, "awaiting": [0],
                          "legal_actions": [{"action": "discard", "cards": ["5H"]}]}, now=100.0)
            keys.send_text("1")
            await wait_for(lambda: model.game.selected == {"5H"}, "the next 1 to pick a card")
        finally:
            app.application.exit(result=0)
            await asyncio.wait_for(task, 5)


def test_the_key_line_leaves_out_whole_hints_on_a_narrow_terminal() -> None:
    """On a 60-column terminal the lobby's key line was cut in the middle of its last hint
    ("? hel", seen in tmux in session 9): the way to the help was the part lost.  Hints that
    do not fit are left out whole, chat and the records first; help and quit stay."""
    model = ViewModel("Ann")
    model.connection_up()
    model.handle({"type": "welcome", "name": "Ann", "token": "t", "resumed": False, "presets": []})
    assert plain(keys_fragments(model)) == \
        " n new  ↵ sit  w watch  o who  m my games  e clubs  b ratings  ? help  q quit "   # 78 fit 80 (chat, stats: in ?)
    assert plain(keys_fragments(model, 60)) == " n new  ↵ sit  w watch  o who  m my games  ? help  q quit "
    assert plain(keys_fragments(model, 30)) == " n new  ↵ sit  ? help  q quit "
    assert plain(keys_fragments(model, 10)) == " n new  ? help  q quit "  # never less than this
