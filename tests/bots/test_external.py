"""How the match runner starts an external bot, and how a server record becomes a match
record.  (tests/examples plays real games with real bot programs.)"""

from __future__ import annotations

import pytest

from noddy.bots.external import (SERVER_FLAGS, ExternalBotError, LocalServer, actions_of,
                                 bot_command, is_external, parse_command)
from noddy.bots.match import check_player


def test_where_to_sit_is_appended_when_the_command_has_no_placeholders() -> None:
    argv = parse_command("cmd:python 'my bot.py' --fast")
    assert argv == ["python", "my bot.py", "--fast"]
    assert bot_command(argv, "127.0.0.1", 4000, 2, 1, "bot-seat-1") == [
        "python", "my bot.py", "--fast", "127.0.0.1:4000", "--table", "2", "--seat", "1",
        "--name", "bot-seat-1"]


def test_placeholders_are_filled_in_instead() -> None:
    argv = parse_command("cmd:./bot --connect={address} -t {table} -s {seat} {name} {host} {port}")
    assert bot_command(argv, "127.0.0.1", 4000, 2, 1, "b") == [
        "./bot", "--connect=127.0.0.1:4000", "-t", "2", "-s", "1", "b", "127.0.0.1", "4000"]


def test_commands_are_checked() -> None:
    assert is_external("cmd:x") and not is_external("greedy")
    for bad in ("cmd:", "cmd:   ", "cmd:python 'unclosed"):
        with pytest.raises(ValueError):
            check_player(bad)
    check_player("cmd:python bot.py")
    check_player("expert")
    with pytest.raises(ValueError, match="unknown player"):
        check_player("grandmaster")


def test_the_servers_actions_give_the_match_record_actions() -> None:
    actions = [{"action": "discard", "seat": 1, "cards": ["5D", "KH"]},
               {"action": "play", "seat": 0, "card": "JD"}, {"action": "go", "seat": 1},
               {"action": "claim", "seat": 0, "points": 12}, {"action": "muggins", "seat": 1,
                                                              "points": 14},
               {"action": "pass", "seat": 0}]
    assert actions_of(actions) == [[1, "discard 5D KH"], [0, "play JD"], [1, "go"],
                                   [0, "claim 12"], [1, "muggins 14"], [0, "pass"]]


def test_a_server_that_does_not_start_says_why() -> None:
    """Its own error, not an error of the runner's (an unknown flag: argparse's complaint)."""
    with pytest.raises(ExternalBotError) as raised:
        LocalServer(1, [*SERVER_FLAGS, "--no-such-flag"])
    message = str(raised.value)
    assert message.startswith("the match server did not start (it exited with status 2): ")
    assert "noddy-server: error: unrecognized arguments: --no-such-flag" in message


def test_the_runners_server_lifts_the_limits_and_cannot_be_shadowed() -> None:
    server = LocalServer(1)
    try:
        assert server.host == "127.0.0.1" and server.port > 0
        assert server.process.args[1:4] == ["-P", "-m", "noddy.server.cli"]
        for flag in ("--rate", "--burst", "--grace", "--allow-deal-seeds"):
            assert flag in server.process.args
    finally:
        server.stop()
