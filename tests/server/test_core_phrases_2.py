"""The server core's words for people, second half (issue 36): seating, the lobby, matchmaking,
gameplay, stand-ins, club nights and the model's refusals are Phrases, said again in each
reader's language.

An AST check walks the area's modules: every ``ProtocolError(...)`` (and the model's
``ClubError(...)``, which becomes one, and a club night's ``Announce(...)`` news) and every
``"message"``/``"counts"`` a pushed message carries must be built from a
:class:`~noddy.protocol.i18n.Phrase`, so a refusal written as a plain string or an f-string
fails here.  Then real refusals and pushes, made by the sans-IO core, are pinned in German and
Spanish, and said in the made-up language of tests/pseudo_language.py leave no word outside
the catalogs but names and numbers.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

import noddy.server
from noddy.server import ServerConfig
from noddy.protocol.closing import CLOSE_REASONS, closed_message
from noddy.protocol.i18n import Phrase
from noddy.server.core.club_nights import protocol_error
from noddy.server.model.club import Event, EventDefinition, starting_time
from noddy.server.model.club_types import MAX_ROUNDS, ClubError

from ..pseudo_language import pseudo_language, unmarked_words
from .test_core import Harness

SERVER = Path(noddy.server.__file__).resolve().parent
#: The modules of this half of the core (the other half is test_core_phrases.py's), and the model.
CORE = ("seating", "leaving", "lobby", "lobby_board", "lobby_push", "matchmaking", "challenge_words",
        "tables", "table_closing", "table_state", "gameplay", "game_ending", "publishing", "stand_ins",
        "computer_players", "club_nights", "club_tables", "turn_timers")
FILES = [SERVER / "core" / f"{name}.py" for name in CORE] + sorted((SERVER / "model").glob("*.py"))
#: Calls whose second argument a person reads.
CALLS = ("ProtocolError", "ClubError", "Announce")
#: Keys of a pushed message whose value a person reads.
KEYS = ("message", "counts")
#: The messages left English on purpose, each with why: (file name, the argument as written).
EXEMPT = {
    # GameRow refused a result the server itself made (a bug, never a person's request).
    ("club_course.py", "str(exc)"),
}


def _name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _says_a_phrase(annotation: ast.AST | None) -> bool:
    return annotation is not None and ast.unparse(annotation) in ("Phrase", "Phrase | None", "'Phrase'")


def phrase_functions(trees: list[ast.Module]) -> set[str]:
    """The functions of the checked modules that say they return a Phrase."""
    return {node.name for tree in trees for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _says_a_phrase(node.returns)}


class Checker:
    """Finds, in one module, the texts for people that are not built from a Phrase."""

    def __init__(self, where: str, functions: set[str]) -> None:
        self.where = where
        self.functions = functions
        self.problems: list[str] = []

    def check(self, tree: ast.Module) -> list[str]:
        for function in [tree, *(n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))]:
            for node in self._own_nodes(function):
                if isinstance(node, ast.Call) and _name(node.func) in CALLS:
                    text = node.args[1] if len(node.args) > 1 else next(
                        (k.value for k in node.keywords if k.arg in ("message", "text")), None)
                    if text is not None:
                        self._check(text, function, f"{_name(node.func)}(...)", node.lineno)
                elif isinstance(node, ast.Dict):
                    for key, value in zip(node.keys, node.values):
                        if isinstance(key, ast.Constant) and key.value in KEYS:
                            self._check(value, function, f'"{key.value}": ...', value.lineno)
        return self.problems

    @staticmethod
    def _own_nodes(function: ast.AST) -> list[ast.AST]:
        """The nodes of ``function`` outside the functions it holds (each is checked apart)."""
        found, stack = [], list(ast.iter_child_nodes(function))
        while stack:
            node = stack.pop()
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                if isinstance(node, ast.ClassDef):
                    stack.extend(n for n in node.body if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))
                continue
            found.append(node)
            stack.extend(ast.iter_child_nodes(node))
        return found

    def _check(self, text: ast.AST, function: ast.AST, what: str, line: int) -> None:
        if (self.where.rsplit("/", 1)[-1], ast.unparse(text)) in EXEMPT or self._phrase(text, function, 0):
            return
        self.problems.append(f"{self.where}:{line}: {what} is {ast.unparse(text)!r}, not a Phrase")

    def _phrase(self, node: ast.AST, function: ast.AST, depth: int) -> bool:
        if isinstance(node, ast.IfExp):
            return self._phrase(node.body, function, depth) and self._phrase(node.orelse, function, depth)
        if isinstance(node, ast.Call):
            return _name(node.func) == "Phrase" or _name(node.func) in self.functions
        if isinstance(node, ast.Attribute):
            return node.attr == "phrase"  # ClubError.phrase: the model's refusal, a Phrase
        if isinstance(node, ast.Name) and depth < 3 and not isinstance(function, ast.Module):
            args = function.args  # type: ignore[attr-defined]
            for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
                if arg.arg == node.id:
                    return _says_a_phrase(arg.annotation)
            values = [n.value for n in self._own_nodes(function)
                      if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == node.id
                                                          for t in n.targets)]
            typed = [n for n in self._own_nodes(function) if isinstance(n, ast.AnnAssign)
                     and isinstance(n.target, ast.Name) and n.target.id == node.id]
            if typed:
                return all(_says_a_phrase(n.annotation) for n in typed)
            return bool(values) and all(self._phrase(v, function, depth + 1) for v in values)
        return False


def problems_in(sources: dict[str, str]) -> list[str]:
    """Every text for people in ``sources`` (where -> source) not built from a Phrase."""
    trees = {where: ast.parse(source) for where, source in sources.items()}
    functions = phrase_functions(list(trees.values()))
    found = [problem for where, tree in trees.items() for problem in Checker(where, functions).check(tree)]
    return sorted(found, key=lambda problem: (problem.split(":")[0], int(problem.split(":")[1])))


def test_every_refusal_and_text_of_the_area_is_a_phrase() -> None:
    sources = {str(path.relative_to(SERVER.parent)): path.read_text(encoding="utf-8") for path in FILES}
    assert problems_in(sources) == []
    # (and the check looked at them: the area raises many refusals and says many club news)
    calls = sum(1 for source in sources.values() for node in ast.walk(ast.parse(source))
                if isinstance(node, ast.Call) and _name(node.func) in CALLS)
    assert calls > 100


def test_the_check_finds_a_text_that_is_not_a_phrase() -> None:
    source = '''
def refuse(table, seat, words: str, said: Phrase):
    if seat:
        raise ProtocolError("seat_taken", f"seat {seat} at table {table} is taken", field="seat")
    if table:
        raise ProtocolError("table_full", "no free seat")
    raise ProtocolError("no_game", Phrase("no game") if seat else "none")

def push(name, said: Phrase, words: str):
    plain = "left"
    chosen = Phrase("{name} left", name=name)
    send({"type": "x", "message": words})
    send({"type": "x", "message": plain})
    send({"type": "x", "message": said})
    send({"type": "x", "message": chosen})
    send({"type": "stand_in", "counts": name + " may come back"})
    return [Announce("joined", f"{name} entered"), Announce("joined", Phrase("{name} entered", name=name))]
'''
    found = problems_in({"server/core/example.py": source})
    assert [problem.split(": ", 1)[1] for problem in found] == [
        "ProtocolError(...) is \"f'seat {seat} at table {table} is taken'\", not a Phrase",
        "ProtocolError(...) is \"'no free seat'\", not a Phrase",
        "ProtocolError(...) is \"Phrase('no game') if seat else 'none'\", not a Phrase",
        "\"message\": ... is 'words', not a Phrase",
        "\"message\": ... is 'plain', not a Phrase",
        "\"counts\": ... is \"name + ' may come back'\", not a Phrase",
        "Announce(...) is \"f'{name} entered'\", not a Phrase",
    ]
    assert [int(problem.split(":")[1]) for problem in found] == [4, 6, 7, 12, 13, 16, 17]


# -- real refusals and pushes, in each language -------------------------------------------------

def _said(message: str) -> dict[str, str]:
    assert isinstance(message, Phrase), message
    return {language: message.said_in(language) for language in ("en", "de", "es")}


def _seated() -> tuple[Harness, int, int, int]:
    """ann created table 1 (two players), ben sits in seat 1, cy is in the lobby."""
    h = Harness()
    ann, ben, cy = h.connect("ann"), h.connect("ben"), h.connect("cy")
    assert h.send(ann, {"type": "create_table", "preset": "cribbage", "players": 2})["type"] == "table"
    assert h.send(ben, {"type": "sit", "table": 1, "seat": 1})["type"] == "table"
    return h, ann, ben, cy


def test_seating_refusals_in_german_and_spanish() -> None:
    h, ann, ben, cy = _seated()
    full = h.send(cy, {"type": "sit", "table": 1})
    assert full["code"] == "table_full"
    assert _said(full["message"]) == {"en": "table 1 has no free seat", "de": "Tisch 1 hat keinen freien Platz",
                                      "es": "la mesa 1 no tiene ningún asiento libre"}
    assert h.send(cy, {"type": "create_table", "preset": "cribbage", "players": 3})["table"]["id"] == 2
    taken = h.send(h.connect("dee"), {"type": "sit", "table": 2, "seat": 0})
    assert (taken["code"], taken["field"]) == ("seat_taken", "seat")
    assert _said(taken["message"]) == {"en": "seat 0 at table 2 is taken", "de": "Platz 0 an Tisch 2 ist besetzt",
                                       "es": "el asiento 0 de la mesa 2 está ocupado"}
    again = h.send(ann, {"type": "create_table", "preset": "cribbage", "players": 2})
    assert again["code"] == "already_at_table"
    assert _said(again["message"]) == {"en": "you are already at table 1", "de": "du bist schon an Tisch 1",
                                       "es": "ya estás en la mesa 1"}


def test_the_unrated_reason_in_german_and_spanish() -> None:
    h, ann, ben, cy = _seated()
    summary = h.core.tables[1].summary()
    assert summary["unrated_reasons"] == ["guest"]
    assert _said(summary["unrated_why"]) == {"en": "ann and ben are guests", "de": "ann und ben sind Gäste",
                                             "es": "ann y ben son invitados"}
    h.send(ann, {"type": "configure_table", "options": {"hints": True}})
    assert _said(h.core.tables[1].summary()["unrated_why"]) == {
        "en": "the coach is on; ann and ben are guests", "de": "der Trainer ist an; ann und ben sind Gäste",
        "es": "el entrenador está activado; ann y ben son invitados"}


def test_a_declined_challenge_is_told_in_each_language() -> None:
    h = Harness()
    ann, ben = h.connect("ann"), h.connect("ben")
    offered = h.send(ann, {"type": "challenge", "name": "ben", "preset": "cribbage"})
    assert offered["type"] == "challenge"
    assert h.send(ben, {"type": "decline", "challenge": offered["challenge"]["id"]})["type"] == "ok"
    over = h.inbox[ann][-1]
    assert (over["type"], over["reason"]) == ("challenge_over", "declined")
    assert _said(over["message"]) == {"en": "ben declined challenge 1", "de": "ben hat Herausforderung 1 abgelehnt",
                                      "es": "ben rechazó el desafío 1"}


def test_the_abandoned_seat_notice_in_each_language() -> None:
    h, ann, ben, cy = _seated()
    h.send(ann, {"type": "ready", "ready": True})
    h.send(ben, {"type": "ready", "ready": True})
    h.take(h.core.disconnect(ben))
    h.tick(ServerConfig().grace_period + 1)
    [stand_in] = [m for m in h.inbox[ann] if m["type"] == "stand_in"]
    assert _said(stand_in["counts"]) == {
        "en": "If ben does not take the seat back before the game ends, it counts as ben's resignation now, "
              "at ann 0, ben 0: the deals played from here count only if ben comes back.",
        "de": "Wenn ben den Platz nicht vor dem Ende der Partie zurücknimmt, zählt das als Aufgabe von ben jetzt, "
              "bei ann 0, ben 0: die Runden ab hier zählen nur, wenn ben zurückkommt.",
        "es": "Si ben no recupera el asiento antes de que acabe la partida, cuenta como abandono de ben ahora, "
              "con ann 0, ben 0: las manos jugadas desde aquí solo cuentan si ben vuelve."}


def _club_night(**changes: Any) -> tuple[Event, list[Any]]:
    words: dict[str, Any] = dict(id=1, title="Friday", director="ann", format="swiss", preset="cribbage",
                                 rounds=3, starts_at=1733340600.0)
    words.update(changes)
    return Event.announce(EventDefinition(**words), 1733340000.0)


def test_club_night_refusals_and_news_in_each_language() -> None:
    event, [news] = _club_night()
    assert _said(news.text) == {
        "en": "Friday: a swiss directed by ann, starting in 10 minutes, at 19:30 UTC",
        "de": "Friday: ein Schweizer System unter der Leitung von ann, Beginn in 10 Minuten, um 19:30 UTC",
        "es": "Friday: un suizo dirigido por ann, empieza dentro de 10 minutos, a las 19:30 UTC"}
    with pytest.raises(ClubError) as refused:
        event.start(1733340000.0, "ben")
    error = protocol_error(refused.value)
    assert error.code == "not_director"
    assert _said(error.message) == {"en": "only the director, ann, may do that",
                                    "de": "das darf nur der Turnierleiter, ann",
                                    "es": "solo el director, ann, puede hacer eso"}
    with pytest.raises(ClubError) as refused:
        _club_night(rounds=0)
    assert (refused.value.code, str(refused.value)) == ("bad-definition", f"a Swiss has 1 to {MAX_ROUNDS} rounds, not 0")
    assert _said(protocol_error(refused.value).message) == {
        "en": f"a Swiss has 1 to {MAX_ROUNDS} rounds, not 0",
        "de": f"ein Schweizer System hat 1 bis {MAX_ROUNDS} Runden, nicht 0",
        "es": f"un suizo tiene de 1 a {MAX_ROUNDS} rondas, no 0"}
    assert _said(starting_time(1733340000.0 + 3 * 3600 + 60, 1733340000.0)) == {
        "en": "in 3 hours 1 minute, at 22:21 UTC", "de": "in 3 Stunden 1 Minute, um 22:21 UTC",
        "es": "dentro de 3 horas 1 minuto, a las 22:21 UTC"}


def test_table_closed_words_in_each_language() -> None:
    assert all(isinstance(words, Phrase) for words in CLOSE_REASONS.values())
    assert _said(closed_message(4, "empty")["message"]) == {"en": "everyone has left", "de": "alle sind gegangen",
                                                          "es": "todos se han ido"}


def test_every_refusal_of_a_game_night_is_in_the_catalogs() -> None:
    """Refusals and pushes of a short evening, said in the made-up language: nothing is left
    outside the brackets but names, numbers and the protocol's own words (field names)."""
    h, ann, ben, cy = _seated()
    said: list[str] = []
    codes: list[str] = []
    for conn, request in ((cy, {"type": "sit", "table": 1}), (cy, {"type": "sit", "table": 1, "seat": 0}),
                          (ann, {"type": "create_table", "preset": "cribbage", "players": 2}),
                          (cy, {"type": "sit", "table": 9}), (cy, {"type": "challenge", "name": "cy",
                                                                    "preset": "cribbage"}),
                          (cy, {"type": "challenge", "name": "ann", "preset": "cribbage"}),
                          (cy, {"type": "accept", "challenge": 5}), (ann, {"type": "remove_computer", "seat": 1}),
                          (ben, {"type": "action", "action": "go"}), (ann, {"type": "resign_match"}),
                          (ben, {"type": "configure_table", "options": {}})):
        reply = h.send(conn, request)
        assert reply["type"] == "error", reply
        said.append(reply["message"])
        codes.append(reply["code"])
    assert codes == ["table_full", "table_full", "already_at_table", "no_such_table", "bad_field", "player_busy",
                     "no_such_challenge", "not_a_computer", "no_game", "no_match", "not_creator"]
    said.append(h.core.tables[1].summary()["unrated_why"])
    said.append(closed_message(1, "event_board")["message"])
    with pseudo_language() as qq:
        leftover = {text: unmarked_words(text.said_in(qq) if isinstance(text, Phrase) else text,
                                         allowed=("ann", "ben", "cy")) for text in said}
    assert {text: words for text, words in leftover.items() if words} == {}
