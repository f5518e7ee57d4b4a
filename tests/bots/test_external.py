"""How the match runner starts an external bot, and how a server record becomes a match
record.  (tests/examples plays real games with real bot programs.)"""

from __future__ import annotations

import pytest

from noddy.bots.external import actions_of, bot_command, is_external, parse_command
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
