"""The example bots' ``--accept-challenges`` (issue 25): a bot waits in the lobby of a real
``noddy-server`` (default flow control), accepts a person's challenge, plays the game, goes
back to the lobby and, after its last game, says goodbye and waits for the answer, so its
name is free at once."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import time
from typing import Any

import pytest

from .test_bots import JS_BOT, NODE, PYTHON_BOT, ROOT, TIMEOUT, address, needs_node  # noqa: F401


class Person:
    """A plain JSON connection that challenges a bot and plays the first legal action."""

    def __init__(self, address: str, name: str) -> None:
        host, _, port = address.rpartition(":")
        self.sock = socket.create_connection((host, int(port)), timeout=TIMEOUT)
        self.lines = self.sock.makefile("r", encoding="utf-8")
        self.next_id = 0
        self.read()  # the greeting
        assert self.request({"type": "hello", "name": name, "version": 1})["type"] == "welcome"

    def read(self) -> dict[str, Any]:
        line = self.lines.readline()
        assert line, "the server closed the connection"
        return json.loads(line)

    def send(self, message: dict[str, Any]) -> int:
        self.next_id += 1
        self.sock.sendall((json.dumps({**message, "id": self.next_id}) + "\n").encode())
        return self.next_id

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """The reply to ``message`` (sent again after ``retry_after`` when rate-limited)."""
        while True:
            rid = self.send(message)
            while (reply := self.read()).get("id") != rid:
                pass
            if reply["type"] != "error" or reply["code"] != "rate_limited":
                return reply
            time.sleep(reply["retry_after"])

    def wait_for_lobby(self, name: str) -> None:
        """Until ``name`` is in the lobby (the bot has said hello, or left its last table)."""
        for _ in range(200):
            people = self.request({"type": "who"})["people"]
            if any(p["name"] == name and p["where"] == "lobby" and p["bot"] for p in people):
                return
            time.sleep(0.05)
        raise AssertionError(f"{name} never came to the lobby")

    def play_to_the_end(self) -> dict[str, Any]:
        """Answer every turn with its first legal action until game_over; return it."""
        pending: dict[str, Any] | None = None
        while True:
            message = self.read()
            if message["type"] == "event" and message["event"]["kind"] == "game_over":
                return message["event"]
            if pending is not None and message.get("id") == pending["id"]:
                if message["type"] == "error":
                    assert message["code"] == "rate_limited", message
                    time.sleep(message["retry_after"])
                    pending = {"id": self.send(pending["action"]), "action": pending["action"]}
                else:
                    pending = None
            elif message["type"] == "turn" and message["legal_actions"] and pending is None:
                action = {"type": "action", **message["legal_actions"][0]}
                if "min" in action:
                    action["points"] = action.pop("min")
                    action.pop("max")
                pending = {"id": self.send(action), "action": action}


def _bot(command: list[str]) -> subprocess.Popen[str]:
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)


def _challenge_and_play(address: str, bot: subprocess.Popen[str], name: str, games: int) -> str:
    person = Person(address, f"challenger-of-{name}")
    try:
        for game in range(games):
            person.wait_for_lobby(name)
            sent = person.request({"type": "challenge", "name": name, "preset": "noddy", "ready": True})
            assert sent["type"] == "challenge", sent
            placed = person.read()
            while not (placed["type"] == "table" and "seat" in placed):
                placed = person.read()
            assert [(s["name"], s["bot"]) for s in placed["table"]["seats"]] == [
                (f"challenger-of-{name}", False), (name, True)]
            over = person.play_to_the_end()
            assert over["kind"] == "game_over"
            assert person.request({"type": "leave"})["type"] == "ok"
        out, err = bot.communicate(timeout=TIMEOUT)
        assert bot.returncode == 0, err
        # Its bye was answered before it closed: the name is free at once.
        again = Person(address, name)
        again.sock.close()
        return out
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.communicate()
        person.sock.close()


def _check(out: str, name: str, games: int) -> None:
    assert out.startswith("waiting in the lobby for challenges\n"), out
    accepted = re.findall(rf"^accepted challenge \d+ from challenger-of-{name}: table \d+ in seat 1$", out, re.M)
    assert len(accepted) == games, out
    assert len(re.findall(r"^game over: (won|lost) in seat 1, scores \[\d+, \d+\]$", out, re.M)) == games, out
    assert re.search(rf"^won \d of {games} games$", out, re.M), out


def test_the_python_bot_accepts_challenges_in_the_lobby(address: str) -> None:
    bot = _bot([sys.executable, str(PYTHON_BOT), address, "--name", "py-lobby", "--accept-challenges",
                "--games", "2"])
    _check(_challenge_and_play(address, bot, "py-lobby", 2), "py-lobby", 2)


@needs_node
def test_the_javascript_bot_accepts_challenges_in_the_lobby(address: str) -> None:
    assert NODE is not None
    bot = _bot([NODE, str(JS_BOT), address, "--name", "js-lobby", "--accept-challenges", "--games", "1"])
    _check(_challenge_and_play(address, bot, "js-lobby", 1), "js-lobby", 1)


@pytest.mark.parametrize("which", ["python", "javascript"])
def test_the_bots_say_how_they_are_used(which: str) -> None:
    if which == "javascript" and NODE is None:
        pytest.skip("node is not installed")
    command = [sys.executable, str(PYTHON_BOT), "--help"] if which == "python" else [NODE, str(JS_BOT)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT, cwd=ROOT)
    assert "--accept-challenges" in result.stdout + result.stderr


def test_a_bot_whose_challenger_walks_away_waits_for_the_next(address: str) -> None:  # noqa: F811
    name = "py-patient"
    bot = _bot([sys.executable, str(PYTHON_BOT), address, "--name", name, "--accept-challenges",
                "--games", "1"])
    person = Person(address, "fickle")
    try:
        person.wait_for_lobby(name)
        person.request({"type": "challenge", "name": name})
        while not ((placed := person.read())["type"] == "table" and "seat" in placed):
            pass
        assert person.request({"type": "leave"})["type"] == "ok"  # before the game began
    except BaseException:
        bot.kill()
        bot.communicate()
        raise
    finally:
        person.sock.close()
    # Back in the lobby, it plays the next challenger's game, and that one counts.
    out = _challenge_and_play(address, bot, name, 1)
    assert "the opponent left before the game began\n" in out, out
    assert out.count("accepted challenge") == 2, out
    assert re.search(r"^won \d of 1 games$", out, re.M), out
