"""The engine side of ``noddy-bot``: what a seat knows, folded into one line for an engine.

An *engine* is a program that reads one JSON object a line on its standard input -- a
decision, everything the seat knows when it must act -- and writes one line back: its
choice (docs/PROTOCOL.md, "Engines (noddy-bot)").  It never sees the network: the bridge
(:mod:`noddy.bots.bridge`) connects, sits, resumes and answers pings.

**Theory of operation.**  :class:`SeatState` follows one seat through a game from the
server's pushes: ``event`` messages update it (:meth:`SeatState.apply`), a ``snapshot``
(after a resume) replaces it (:meth:`SeatState.load`), and a ``turn`` with legal actions
becomes a decision (:meth:`SeatState.decision`).  So the line is the same whether the state
was folded from events or read from a snapshot, and a ``state`` object in the ``turn``
(should the server send one) would change nothing an engine sees.  :class:`Engine` runs the
program and reads its choice (:func:`read_choice` checks it against the offer).
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass, field
from typing import Any, Sequence

#: Presets whose dealer owns a crib (the others have none: ``crib`` is null in a decision).
CRIB_PRESETS = frozenset({"cribbage", "five-card-cribbage"})


class EngineError(RuntimeError):
    """The engine exited, or answered something that is not one of the legal actions."""


@dataclass
class SeatState:
    """What one seat knows of the game in progress (its own hand, never another's)."""

    seat: int
    preset: str = "noddy"
    players: int = 2
    partnerships: bool = False
    target: int | None = None
    dealer: int | None = None
    hand: list[str] = field(default_factory=list)
    laid_away: list[str] = field(default_factory=list)
    turn_up: str | None = None
    pile: list[str] = field(default_factory=list)
    played: list[dict[str, Any]] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    hand_sizes: list[int] = field(default_factory=list)
    passed: list[int] = field(default_factory=list)

    def apply(self, event: dict[str, Any]) -> None:
        """Fold one event (the ``event`` object of an ``event`` message) into the state."""
        kind = event["kind"]
        if kind == "game_started":
            self.preset, self.players = event["preset"], event["players"]
            self.partnerships, self.target = event["partnerships"], event["target"]
            self.scores = [0] * (2 if self.partnerships else self.players)
        elif kind == "deal_started":
            self.dealer, self.turn_up = event["dealer"], None
            self.hand, self.laid_away, self.pile, self.played = [], [], [], []
            self.hand_sizes, self.passed = [0] * self.players, []
        elif kind == "cards_dealt":
            self._resize(event["seat"], event["count"])
            if event["seat"] == self.seat and event["cards"]:
                self.hand = list(event["cards"])
        elif kind == "discarded" and event["seat"] is not None:
            self._resize(event["seat"], -event["count"])
            if event["seat"] == self.seat and event["cards"]:
                self.hand = [card for card in self.hand if card not in event["cards"]]
                self.laid_away += event["cards"]
        elif kind == "turned_up":
            self.turn_up = event["card"]
        elif kind == "played":
            self.pile.append(event["card"])
            self.played.append({"seat": event["seat"], "card": event["card"]})
            self._resize(event["seat"], -1)
            if event["seat"] == self.seat and event["card"] in self.hand:
                self.hand.remove(event["card"])
        elif kind == "go" and event["seat"] not in self.passed:
            self.passed.append(event["seat"])
        elif kind == "count_reset":
            self.pile, self.passed = [], []
        elif kind == "scored" or kind == "deal_ended" or kind == "game_over":
            self.scores = list(event["scores"])

    def _resize(self, seat: int, change: int) -> None:
        if len(self.hand_sizes) < self.players:
            self.hand_sizes += [0] * (self.players - len(self.hand_sizes))
        self.hand_sizes[seat] = max(0, self.hand_sizes[seat] + change)

    def load(self, game: dict[str, Any]) -> None:
        """Replace the state by a ``snapshot``'s ``game`` (what a resumed seat is sent)."""
        self.preset, self.players = game["preset"], game["players"]
        self.partnerships, self.target = game["partnerships"], game["target"]
        self.dealer, self.turn_up = game["dealer"], game["turn_up"]
        self.hand = list(game["hand"] or [])
        self.laid_away = list(game.get("laid_away") or [])
        self.pile, self.played = list(game["pile"]), list(game["played"])
        self.scores = list(game["scores"])
        self.hand_sizes, self.passed = list(game["hand_sizes"]), list(game["passed"])

    def decision(self, turn: dict[str, Any], legal: Sequence[dict[str, Any]] | None = None) -> dict[str, Any]:
        """The engine's line for a ``turn`` that offers this seat ``legal`` (by default the
        turn's own ``legal_actions``)."""
        return {"type": "decide", "preset": self.preset, "players": self.players,
                "partnerships": self.partnerships, "target": self.target, "seat": self.seat,
                "dealer": self.dealer,
                "crib": self.dealer if self.preset in CRIB_PRESETS else None,
                "hand": list(self.hand), "laid_away": list(self.laid_away),
                "turn_up": self.turn_up, "pile": list(self.pile), "count": turn["count"],
                "played": list(self.played), "passed": list(self.passed),
                "hand_sizes": list(self.hand_sizes), "scores": list(self.scores),
                "legal": list(turn["legal_actions"] if legal is None else legal)}


def read_choice(line: str, legal: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The action an engine's answer names: a whole number (the index of a legal action) or
    a JSON object, one of the legal actions (a claim or muggins call, offered as a range
    ``min``..``max``, is answered with ``points`` in it).

    >>> legal = [{"action": "play", "card": "5H"}, {"action": "play", "card": "KD"}]
    >>> read_choice("1", legal)
    {'action': 'play', 'card': 'KD'}
    >>> read_choice('{"action": "play", "card": "5H"}', legal)
    {'action': 'play', 'card': '5H'}
    >>> read_choice('{"action": "claim", "points": 8}', [{"action": "claim", "min": 0, "max": 29}])
    {'action': 'claim', 'points': 8}
    """
    try:
        choice = json.loads(line)
    except ValueError:
        raise EngineError(f"the engine answered {line.strip()!r}: not JSON") from None
    if isinstance(choice, int) and not isinstance(choice, bool):
        if 0 <= choice < len(legal):
            return dict(legal[choice])
        raise EngineError(f"the engine chose action {choice}, but only 0..{len(legal) - 1} were offered")
    if isinstance(choice, dict):
        for offered in legal:
            if "min" in offered and choice.get("action") == offered["action"]:
                points = choice.get("points")
                if isinstance(points, int) and offered["min"] <= points <= offered["max"]:
                    return {"action": offered["action"], "points": points}
            elif choice == offered:
                return dict(choice)
    raise EngineError(f"the engine answered {line.strip()!r}: not one of the legal actions")


class Engine:
    """The engine program, started once and asked decision after decision."""

    def __init__(self, argv: Sequence[str]) -> None:
        try:
            self.process = subprocess.Popen(list(argv), stdin=subprocess.PIPE,
                                            stdout=subprocess.PIPE, text=True, bufsize=1)
        except OSError as error:
            raise EngineError(f"cannot start the engine {argv[0]!r}: {error.strerror}") from None

    def choose(self, decision: dict[str, Any]) -> dict[str, Any]:
        """Write the decision, read the engine's answer: one of ``decision["legal"]``."""
        assert self.process.stdin is not None and self.process.stdout is not None
        try:
            self.process.stdin.write(json.dumps(decision, separators=(",", ":")) + "\n")
            self.process.stdin.flush()
            line = self.process.stdout.readline()
        except (BrokenPipeError, OSError):
            line = ""
        if not line:
            raise EngineError(f"the engine exited (status {self.process.poll()})")
        return read_choice(line, decision["legal"])

    def close(self) -> None:
        """Close its input (its end-of-file: time to exit) and wait for it."""
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
