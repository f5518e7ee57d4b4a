"""The server core's words in each reader's language (issue 36), first half of the core: every
error it makes and every person-facing text of a message it pushes is a Phrase, said again in
the connection's language; the engine's refusals keep their English template and parameters
apart, so the server can say them in German or Spanish too.

Three kinds of test: a reading of the source (an error or a message made from a bare string
or an f-string fails, whoever adds it), the real errors of a running core said in German and
Spanish word for word, and a sweep of refused requests in a made-up language in which every
word a catalog holds is bracketed (a word outside the brackets reached a person unmarked).
"""

from __future__ import annotations

import ast
import pathlib
from typing import Any

import pytest

from noddy.engine import Game, NoddyError
from noddy.engine.actions import Play
from noddy.protocol import PROTOCOL_VERSION
from noddy.protocol.i18n import Phrase
from noddy.protocol.requests import read_request
from noddy.protocol.errors import ProtocolError
from noddy.server.core.queries import empty_leaderboard
from noddy.server.core.reception import engine_refusal
from noddy.server.lan import join_lines
from noddy.protocol.i18n import speaking

from ..pseudo_language import pseudo_language, unmarked_words
from .test_core import Harness
from .test_password_limits import _Core

ROOT = pathlib.Path(__file__).resolve().parents[2]
#: The files of this part of the core (the other half's are checked by its own test).
CORE_FILES = ["protocol/fields.py", "protocol/names.py", "protocol/requests.py", "protocol/errors.py"] + [
    f"server/core/{name}.py" for name in (
        "reception", "accounts", "talk", "queries", "facade", "connections", "sessions", "names", "mutes",
        "silence", "outages", "recovery", "held_seats", "places", "instructions", "outbox", "results",
        "reviews", "coaching")]
#: The keys of a message whose value a person reads (``reason``'s ``"goodbye"`` is a code).
PERSON_KEYS = {"message", "reason", "help", "why"}
CODE_VALUES = {"goodbye"}


def _name(func: ast.AST) -> str | None:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


class _Module:
    """One module's source, read for what makes a Phrase."""

    def __init__(self, source: str) -> None:
        self.tree = ast.parse(source)
        #: Functions of the module that say they return a Phrase.
        self.phrase_functions = {
            node.name for node in ast.walk(self.tree) if isinstance(node, ast.FunctionDef)
            and isinstance(node.returns, (ast.Name, ast.Constant))
            and getattr(node.returns, "id", getattr(node.returns, "value", None)) == "Phrase"}
        self.assigned: dict[str, list[ast.AST]] = {}
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                self.assigned.setdefault(node.targets[0].id, []).append(node.value)

    def is_phrase(self, node: ast.AST, names: frozenset[str] = frozenset()) -> bool:
        """Whether ``node`` is sure to be a Phrase: ``Phrase(...)``, a call of a function
        annotated ``-> Phrase``, either branch of an ``if`` one, or a name only ever given one."""
        if isinstance(node, ast.Call):
            return _name(node.func) == "Phrase" or _name(node.func) in self.phrase_functions
        if isinstance(node, ast.IfExp):
            return self.is_phrase(node.body, names) and self.is_phrase(node.orelse, names)
        if isinstance(node, ast.Name) and node.id not in names and node.id in self.assigned:
            return all(self.is_phrase(value, names | {node.id}) for value in self.assigned[node.id])
        return False

    def unmarked(self, where: str) -> list[str]:
        """Every error or person-facing message text of the module not made from a Phrase."""
        found: list[tuple[int, str]] = []
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Call) and _name(node.func) == "ProtocolError":
                message = node.args[1] if len(node.args) > 1 else next(
                    (k.value for k in node.keywords if k.arg == "message"), None)
                if message is not None and not self.is_phrase(message):
                    said = f"ProtocolError({ast.unparse(message)[:60]})"
                    found.append((node.lineno, f"{where}:{node.lineno}: {said}"))
            pairs: list[tuple[ast.AST | None, ast.AST]] = []
            if isinstance(node, ast.Dict):
                pairs = list(zip(node.keys, node.values))
            elif isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Subscript):
                pairs = [(node.targets[0].slice, node.value)]
            for key, value in pairs:
                if (isinstance(key, ast.Constant) and key.value in PERSON_KEYS
                        and not (isinstance(value, ast.Constant) and value.value in CODE_VALUES)
                        and not self.is_phrase(value)):
                    said = f"{key.value!r}: {ast.unparse(value)[:60]}"
                    found.append((value.lineno, f"{where}:{value.lineno}: {said}"))
        return [line for _, line in sorted(found)]


def _read(path: str) -> str:
    return (ROOT / path).read_text(encoding="utf-8")


def test_every_error_and_message_text_of_this_part_of_the_core_is_a_phrase() -> None:
    found = [line for path in CORE_FILES if path != "protocol/errors.py"  # the plumbing: takes a message
             for line in _Module(_read(path)).unmarked(path)]
    assert found == []


def test_the_source_check_finds_a_message_left_unmarked() -> None:
    """The check itself: a bare string, an f-string and a joined one are each found."""
    source = '''
def refuse(name):
    if name:
        raise ProtocolError("bad_name", f"no {name}")
    send({"type": "shutdown", "message": "going down"})
    raise ProtocolError("bad_name", Phrase("no {name}", name=name) + "!")

def fine(name) -> Phrase:
    reason = Phrase("gone")
    send({"type": "bye", "reason": reason})
    send({"type": "bye", "reason": "goodbye"})
    raise ProtocolError("bad_name", fine(name) if name else Phrase("none"))
'''
    assert _Module(source).unmarked("x.py") == [
        "x.py:4: ProtocolError(f'no {name}')", "x.py:5: 'message': 'going down'",
        "x.py:6: ProtocolError(Phrase('no {name}', name=name) + '!')"]


#: The engine's error classes (every NoddyError the engine raises refuses something a person did).
ENGINE_ERRORS = {node.name for node in ast.walk(ast.parse(_read("engine/errors.py")))
                 if isinstance(node, ast.ClassDef) and node.name.endswith("Error")}


def _marked_template(node: ast.AST, module: ast.Module) -> bool:
    """``N_("...")``, either branch of an ``if`` of two, or a subscript of a module table of them."""
    if isinstance(node, ast.Call):
        return _name(node.func) == "N_" and isinstance(node.args[0], ast.Constant)
    if isinstance(node, ast.IfExp):
        return _marked_template(node.body, module) and _marked_template(node.orelse, module)
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        tables = [n.value for n in module.body if isinstance(n, (ast.Assign, ast.AnnAssign))
                  and isinstance(n.value, ast.Dict)
                  and node.value.id in [t.id for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
                                        if isinstance(t, ast.Name)]]
        return len(tables) == 1 and all(_marked_template(v, module) for v in tables[0].values)  # type: ignore[union-attr]
    return False


def test_every_refusal_of_the_engine_keeps_a_marked_english_template() -> None:
    found = []
    for path in sorted((ROOT / "engine").glob("*.py")):
        module = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(module):
            if (isinstance(node, ast.Call) and _name(node.func) in ENGINE_ERRORS | {"EngineText"}
                    and not (node.args and _marked_template(node.args[0], module))
                    and path.name != "errors.py"):
                found.append(f"{path.name}:{node.lineno}: {ast.unparse(node)[:70]}")
    assert found == []


# -- real errors, said in German and Spanish ------------------------------------------------------

def test_a_field_too_long_in_german_and_spanish() -> None:
    with pytest.raises(ProtocolError) as caught:
        read_request({"type": "hello", "name": "x" * 40, "version": PROTOCOL_VERSION})
    message = caught.value.message
    assert (caught.value.code, message) == ("bad_field", "field 'name' is longer than 32")
    assert message.said_in("de") == "das Feld 'name' ist länger als 32"
    assert message.said_in("es") == "el campo 'name' supera la longitud de 32"


def test_a_field_of_the_wrong_kind_says_its_kind_in_the_same_language() -> None:
    with pytest.raises(ProtocolError) as caught:
        read_request({"type": "create_table", "players": "two"})
    message = caught.value.message
    assert message == "field 'players' must be a whole number, not 'two'"
    assert message.said_in("de") == "das Feld 'players' muss eine ganze Zahl sein, nicht 'two'"
    assert message.said_in("es") == "el campo 'players' debe ser un número entero, no 'two'"


def _dealt(h: Harness) -> tuple[Game, dict[int, int]]:
    """A two-player cribbage game of ann and ben, both laid away; the seats' connections."""
    ann, ben = h.connect("ann"), h.connect("ben")
    h.send(ann, {"type": "create_table", "preset": "cribbage"})
    h.send(ben, {"type": "sit", "table": 1})
    h.send(ann, {"type": "ready"})
    h.send(ben, {"type": "ready"})
    game = h.core.tables[1].game
    assert game is not None
    conns = {0: ann, 1: ben}
    for seat in (0, 1):
        reply = h.send(conns[seat], {"type": "action", "action": "discard",
                                     "cards": [str(card) for card in game.hands[seat][:2]]})
        assert reply == {"type": "ok"}
    return game, conns


def test_not_your_turn_from_the_engine_in_german_and_spanish() -> None:
    h = Harness()
    game, conns = _dealt(h)
    waiting = 1 - game.to_move
    error = h.send(conns[waiting], {"type": "action", "action": "play", "card": str(game.hands[waiting][0])})
    assert isinstance(error["message"], Phrase)
    assert (error["code"], error["message"]) == (
        "not_your_turn", f"it is seat {game.to_move}'s turn, not seat {waiting}'s")
    assert error["message"].said_in("de") == f"Platz {game.to_move} ist am Zug, nicht Platz {waiting}"
    assert error["message"].said_in("es") == f"le toca al asiento {game.to_move}, no al asiento {waiting}"


def test_would_pass_31_from_the_engine_in_german_and_spanish() -> None:
    h = Harness()
    game, conns = _dealt(h)
    while True:  # play the highest card that fits until the seat to play holds one that does not
        seat, room = game.to_move, 31 - game.count
        too_big = [card for card in game.hands[seat] if card.value > room]
        if too_big:
            break
        card = max(game.hands[seat], key=lambda c: c.value)
        assert h.send(conns[seat], {"type": "action", "action": "play", "card": str(card)}) == {"type": "ok"}
    card, count = too_big[0], game.count
    error = h.send(conns[seat], {"type": "action", "action": "play", "card": str(card)})
    assert (error["code"], error["message"]) == (
        "would_pass_31", f"{card} would take the count from {count} to {count + card.value}, past 31")
    assert error["message"].said_in("de") == f"{card} brächte den Stand von {count} auf {count + card.value}, über 31"
    assert error["message"].said_in("es") == (
        f"{card} llevaría la cuenta de {count} a {count + card.value}, por encima de 31")


def test_an_option_refused_by_the_engine_says_what_it_must_be_in_the_same_language() -> None:
    h = Harness()
    ann = h.connect("ann")
    error = h.send(ann, {"type": "create_table", "preset": "cribbage", "options": {"target": 5}})
    assert (error["code"], error["message"]) == (
        "invalid_option", "option 'target' must be a whole number from 15 to 500, not 5")
    assert error["message"].said_in("de") == (
        "die Option 'target' muss eine ganze Zahl von 15 bis 500 sein, nicht 5")
    assert error["message"].said_in("es") == "la opción 'target' debe ser un número entero de 15 a 500, no 5"


def test_a_player_count_refused_by_the_engine_in_german_and_spanish() -> None:
    h = Harness()
    ann = h.connect("ann")
    error = h.send(ann, {"type": "create_table", "preset": "cribbage", "players": 5})
    assert (error["code"], error["message"]) == (
        "invalid_player_count", "cribbage is played by 2 or 3 players each alone, or by 4 in partnerships; "
        "5 players each alone is not allowed")
    assert error["message"].said_in("de") == (
        "cribbage wird von 2 oder 3 Spielern, jeder für sich, oder von 4 in Partnerschaften gespielt; "
        "5 Spieler, jeder für sich, sind nicht erlaubt")
    assert error["message"].said_in("es") == (
        "cribbage se juega con 2 o 3 jugadores, cada uno por su cuenta, o 4 por parejas; "
        "no se admiten 5 jugadores, cada uno por su cuenta")


def test_too_many_attempts_with_its_wait_in_german_and_spanish() -> None:
    h = _Core(login_checks_per_name=2)
    hello = {"type": "hello", "name": "ann", "version": PROTOCOL_VERSION, "password": "a guess", "id": 1}
    for i in range(3):
        conn = h.connect(f"10.0.3.{i}")
        h.send(conn, hello)
        while h.work:
            h.finish(h.work[0])
    error = h.last(conn)
    assert (error["code"], error["retry_after"]) == ("too_many_attempts", 900.0)
    assert error["message"] == (
        "too many password checks for 'ann' lately from addresses it was not logged in from; wait 900.00 s "
        "(or log in from an address you used before, or resume with your token)")
    assert error["message"].said_in("de") == (
        "zu viele Passwortprüfungen für 'ann' in letzter Zeit von Adressen, von denen es nie angemeldet "
        "war; warte 900.00 s (oder melde dich von einer Adresse an, die du schon benutzt hast, oder mach "
        "mit deinem Token weiter)")
    assert error["message"].said_in("es") == (
        "demasiadas comprobaciones de contraseña para 'ann' últimamente desde direcciones desde las que no "
        "inició sesión; espera 900.00 s (o inicia sesión desde una dirección que ya usaste, o reanuda con "
        "tu token)")


def test_an_empty_leaderboard_says_why_with_each_reason_in_the_same_language() -> None:
    why = empty_leaderboard("cribbage", 1, {"coach": 1})
    assert why.endswith("Since the server started, 1 cribbage game was unrated: 1 with the coach on.")
    assert why.said_in("de").endswith(
        "Seit dem Start des Servers war 1 cribbage-Partie ungewertet: 1 mit eingeschaltetem Trainer.")
    assert empty_leaderboard("noddy", 2, {"guest": 2}).said_in("es").endswith(
        "Desde que arrancó el servidor, 2 partidas de noddy no fueron puntuables: 2 con un invitado "
        "(sin cuenta) en la mesa.")


def test_the_hosts_first_screen_in_german_and_spanish() -> None:
    with speaking("de"):
        german = join_lines("127.0.0.1", 3131, [])
    with speaking("es"):
        spanish = join_lines("0.0.0.0", 3131, ["192.168.1.20"])
    assert german[0] == "Nur dieser Rechner kann beitreten (der Server hört nur auf 127.0.0.1):"
    assert spanish == ["Tus amigos de la red se unen con cualquiera de estas líneas:",
                       "    noddy-client 192.168.1.20:3131", "    nc 192.168.1.20 3131"]
    assert join_lines("127.0.0.1", 3131, [])[0] == (
        "Only this machine can join (the server listens on 127.0.0.1 only):")
    assert all(len(line) <= 80 for line in german + spanish)


def test_an_engine_refusal_becomes_the_same_phrase() -> None:
    """engine_refusal, where the server turns the engine's error into its own: the code kept,
    the English the engine's, the words said again from its template."""
    game = Game("cribbage", seed=1)
    with pytest.raises(NoddyError) as caught:
        game.apply(Play(0, game.hands[0][0]))
    error = engine_refusal(caught.value)
    assert (error.code, error.message) == ("wrong_phase", "the play has not begun (phase: discard)")
    assert error.message == str(caught.value)
    assert error.message.said_in("es") == "el juego aún no ha empezado (fase: discard)"


# -- a sweep in a made-up language ----------------------------------------------------------------

#: Refused requests, each from a fresh person (the first from one with no name yet).
REFUSED: list[dict[str, Any]] = [
    {"type": "nope"}, {"id": 1}, {"type": "create_table", "players": "two"},
    {"type": "create_table", "preset": "nope"}, {"type": "create_table", "options": {"target": 5}},
    {"type": "create_table", "options": {"colour": "red"}}, {"type": "create_table", "players": 3},
    {"type": "create_table", "preset": "cribbage", "options": {"counting": "sometimes"}},
    {"type": "create_table", "preset": "noddy", "options": {"counting": "manual"}},
    {"type": "hint"}, {"type": "mute", "name": "ann"}, {"type": "unmute", "name": "zed"},
    {"type": "tell", "name": "ann", "text": "hi"}, {"type": "tell", "name": "zed", "text": "hi"},
    {"type": "unregister", "password": "whatever"}, {"type": "register", "password": "ab"},
    {"type": "leaderboard", "family": "nope"}, {"type": "chat", "text": 3},
]


def test_every_refusal_of_the_sweep_is_said_through_the_catalogs() -> None:
    h = Harness()
    stranger, _ = h.core.connect()
    h.take(_)
    said = [h.send(stranger, {"type": "list_tables"})]
    ann = h.connect("ann")
    said += [h.send(ann, request) for request in REFUSED]
    assert [m["type"] for m in said] == ["error"] * len(said), said
    with pseudo_language() as qq:
        with speaking(qq):
            lines = [m["message"].said() for m in said]
    names = {"ann", "zed", "nope", "colour", "red", "sometimes", "two", "players", "preset", "options",
             "name", "type", "text", "list_tables", "target", "counting", "family", "id", "hint"}
    assert [(line, unmarked_words(line, names)) for line in lines if unmarked_words(line, names)] == []
    assert all(line.startswith("⟪") for line in lines)
