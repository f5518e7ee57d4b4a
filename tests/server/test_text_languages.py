"""Text mode in German and Spanish (issue 36): what a person on ``nc`` reads, said in their
language at render time (the send path renders a text connection's lines inside ``with
speaking(lang):``).

Representative lines are pinned word for word in each language (a table line, the turn
prompts, a game over's next step, a records line, club-night lines, a ``bad_command``'s
usage, an error a core Phrase carries); the help fits 80 columns in each language without a
word cut; and English stays as it was.
"""

from __future__ import annotations

from typing import Any

import pytest

from noddy.protocol import ProtocolError
from noddy.protocol.i18n import Phrase, speaking
from noddy.server.text import render
from noddy.server.text.adapter import _answer, _Person
from noddy.server.text.commands import BY_VERB, COMMANDS, parse_command
from noddy.server.text.help import HELP, HELP_LINES, HELP_WIDTH, help_reply
from noddy.server.text.render import person_error

NAMES = ("ann", "ben")
#: What may stand on either side of a word in a line of help.
PUNCTUATION = ".,;:()[]"
TABLE = {"id": 3, "preset": "cribbage", "players": 2, "partnerships": False, "options": {"target": 61},
         "private": False, "status": "waiting", "spectators": ["cy"], "rated": True,
         "seats": [{"name": "ann", "kind": "person", "ready": True, "connected": True}, None]}
DISCARD = {"type": "turn", "awaiting": [0, 1], "count": 0,
           "legal_actions": [{"action": "discard", "cards": [a, b]}
                             for i, a in enumerate(["3C", "4H", "8C", "9S"]) for b in ["3C", "4H", "8C", "9S"][i + 1:]]}
PLAY = {"type": "turn", "awaiting": [0], "count": 12,
        "legal_actions": [{"action": "play", "card": "5H"}, {"action": "play", "card": "2C"}]}
OVER = {"type": "event", "event": {"kind": "game_over", "winner": 0, "scores": [31, 12], "ending": "target"}}
GAME = {"id": 7, "preset": "noddy", "players": 2, "partnerships": False, "finished_at": 0,
        "seats": [{"seat": 0, "name": "ann"}, {"seat": 1, "name": "ben"}],
        "result": {"scores": [31, 20], "winner": 0, "skunk": "skunk", "ending": "target"}}
CLUB_TABLE = {"type": "event_table", "event": 2, "round": 1, "table": 4, "seat": 1, "opponent": "ben", "games": 2}
EVENTS = {"type": "club_events", "events": [{
    "id": 2, "title": "Tuesday", "format": "swiss", "rounds": 3, "preset": "cribbage", "games": 2, "rated": True,
    "private": False, "state": "announced", "starts_at": None, "round": 0, "entrants": 1, "director": "dee"}]}


def refused(line: str) -> dict[str, Any]:
    """The error a text line is refused with, as the adapter hands it to the send path."""
    with pytest.raises(ProtocolError) as caught:
        parse_command(line)
    return person_error({"type": "error", "code": caught.value.code, "message": caught.value.message}, 0)


def said(language: str, message: dict[str, Any], names: tuple[str, ...] = ()) -> str:
    with speaking(language):
        return render(message, names)


# -- pinned lines --------------------------------------------------------------------------------

def test_a_table_line_in_german_and_spanish() -> None:
    assert said("de", {"type": "table", "table": TABLE}, NAMES) == (
        "Tisch 3 cribbage 2 Sp. (target=61, gewertet) [wartet] 1: ann (bereit) | 2: leer;\n"
        "  Zuschauer: cy\n"
        "Platz 2 ist frei. Die Partie beginnt, wenn alle Plätze besetzt und bereit sind:\n"
        "  tippe bot für einen Computerspieler, oder warte, bis jemand join 3 tippt.\n")
    assert said("es", {"type": "table", "table": TABLE}, NAMES) == (
        "Mesa 3 cribbage 2j (target=61, puntuable) [esperando] 1: ann (listo) | 2: vacío;\n"
        "  miran: cy\n"
        "El asiento 2 está libre. La partida empieza cuando todos los asientos están\n"
        "  ocupados y listos: escribe bot para un jugador de la computadora, o espera a\n"
        "  que alguien escriba join 3.\n")
    assert said("en", {"type": "table", "table": TABLE}, NAMES).startswith(
        "Table 3 cribbage 2p (target=61, rated) [waiting] 1: ann (ready) | 2: empty;")


def test_the_turn_prompts_in_german_and_spanish_keep_the_command_words() -> None:
    assert said("de", DISCARD, NAMES) == (
        "Dein Ablegen: wähle 2 Karten für die Krippe aus 1:3C 2:4H 3:8C 4:9S (tippe\n"
        "  discard 3C 4H, oder discard 1 2).\n")
    assert said("es", DISCARD, NAMES) == (
        "Tu descarte: elige 2 cartas de entre 1:3C 2:4H 3:8C 4:9S para la cuna (escribe\n"
        "  discard 3C 4H, o discard 1 2).\n")
    assert said("de", PLAY, NAMES) == "Du bist dran (Stand 12): play 2C | play 5H\n"
    assert said("es", PLAY, NAMES) == "Tu turno (cuenta 12): play 2C | play 5H\n"


def test_after_a_game_over_the_next_step_in_german_and_spanish() -> None:
    # The first line is the narration's (protocol/narration.py); the next step is text mode's.
    assert said("de", OVER, NAMES).splitlines()[-1] == (
        "Für eine neue Partie tippt jeder Spieler ready; leave führt zurück in die Lobby.")
    assert said("es", OVER, NAMES).splitlines()[-1] == (
        "Para jugar otra vez, cada jugador escribe ready; leave vuelve a la sala.")


def test_a_records_line_in_german_and_spanish() -> None:
    games = {"type": "games", "name": "ann", "games": [GAME]}
    assert said("de", games) == (
        "Partien von ann, neueste zuerst (game ID zeigt eine):\n"
        "Partie 7: noddy 2 Sp., 1970-01-01 00:00 UTC: ann 31, ben 20; ann gewinnt,\n"
        "  Schneider.\n")
    assert said("es", games) == (
        "Partidas de ann, las más nuevas primero (game ID muestra una):\n"
        "Partida 7: noddy 2j, 1970-01-01 00:00 UTC: ann 31, ben 20; ann gana, zapatero.\n")


def test_club_night_lines_in_german_and_spanish() -> None:
    assert said("de", CLUB_TABLE) == (
        "Clubabend 2, Runde 1: dein Tisch ist 4, Platz 2, gegen ben (2 Partien). Du sitzt\n"
        "  jetzt dort (von einem anderen Tisch aus: sobald du ihn verlässt); jede Partie\n"
        "  beginnt von selbst.\n")
    assert said("es", CLUB_TABLE) == (
        "Noche de club 2, ronda 1: tu mesa es la 4, asiento 2, contra ben (2 partidas).\n"
        "  Ya estás sentado allí (desde otra mesa: en cuanto la dejes); cada partida\n"
        "  empieza sola.\n")
    assert said("de", EVENTS) == (
        "Clubabende (event N zeigt einen, enter N tritt ein):\n"
        "  2. Tuesday: Schweizer System mit 3 Runden, cribbage, 2 Partien je Paarung,\n"
        "    gewertet; angekündigt, beginnt, wenn die Leitung es sagt; 1 Teilnehmer;\n"
        "    Leitung dee\n")
    assert said("es", EVENTS) == (
        "Noches de club (event N muestra una, enter N te inscribe):\n"
        "  2. Tuesday: suizo de 3 rondas, cribbage, 2 partidas por pareo, puntuable;\n"
        "    anunciada, empieza cuando diga el director; 1 participante; director dee\n")


def test_a_bad_command_says_its_usage_in_the_readers_language() -> None:
    error = refused("play")
    assert said("en", error) == "Error (bad_command): write play CARD, e.g. play 5H; type help for all commands\n"
    assert said("de", error) == "Fehler (bad_command): schreib play KARTE, z. B. play 5H; help zeigt alle Befehle\n"
    assert said("es", error) == (
        "Error (bad_command): se escribe play CARTA, p. ej. play 5H; help muestra todos\n"
        "  los comandos\n")
    assert said("de", refused("sit x")) == "Fehler (bad_field): der Platz muss eine Zahl sein, nicht 'x'\n"
    assert said("es", refused("xyzzy")) == (
        "Error (unknown_command): no es un comando: 'xyzzy'; escribe help para ver la\n  lista\n")


def test_a_core_phrase_reworded_for_its_reader_counts_seats_from_1_in_every_language() -> None:
    """An error's Phrase (the core's) that person_error rewords stays a Phrase: English
    reads the rewording, another language the Phrase with its seats counted from 1."""
    error = {"type": "error", "code": "seat_taken",
             "message": Phrase("seat {seat} at table {table} is taken", seat=1, table=3)}
    told = person_error(error, None)
    assert told["message"] == "seat 2 at table 3 is taken" and isinstance(told["message"], Phrase)
    assert said("de", told) == "Fehler (seat_taken): Platz 2 an Tisch 3 ist besetzt\n"
    assert said("en", told) == "Error (seat_taken): seat 2 at table 3 is taken\n"


def test_text_modes_own_notes_are_said_when_rendered() -> None:
    person = _Person(width=72)
    note = {"type": "note", "text": _answer("width", person)}
    assert said("de", note) == "Zeilen werden bei 72 Spalten umbrochen; width N ändert das (20 bis 1000).\n"
    assert said("es", note) == "Las líneas se cortan a 72 columnas; width N lo cambia (de 20 a 1000).\n"
    assert said("en", note) == "Lines are wrapped at 72 columns; width N changes it (20 to 1000).\n"


# -- the help at 80 columns ------------------------------------------------------------------------

def _catalog_words(language: str) -> set[str]:
    """Every word the help may hold in ``language``: the words of text mode's own strings
    (English and translated), the presets, the numbers the help says."""
    from noddy.engine import PRESETS
    from noddy.protocol.i18n import LOCALE_DIR, read_po
    words: set[str] = set(PRESETS)
    entries = {}
    for path in sorted((LOCALE_DIR / language).glob("*.po")):  # text mode says some of the others' too
        entries.update(read_po(path.read_text(encoding="utf-8")))
    for strings in entries.items():
        (_, msgid), translations = strings
        for text in [msgid, *translations]:
            words.update(text.replace("\x00", " ").split())
    return {w.replace("{least}", "20").replace("{most}", "1000") for w in words}


@pytest.mark.parametrize("language", ["de", "es", "en"])
def test_the_help_fits_80_columns_and_cuts_no_word(language: str) -> None:
    known = {word.strip(PUNCTUATION) for word in
             _catalog_words("de" if language == "en" else language) | set(HELP.split()) | set(BY_VERB)}
    texts = {"help": help_reply("help")}
    texts.update({verb: help_reply(f"help {verb}") for command in COMMANDS for verb in command.verbs})
    for verb, text in texts.items():
        with speaking(language):
            lines = render({"type": "help", "text": text}, (), 80).splitlines()
        if verb == "help":
            assert len(lines) <= HELP_LINES, lines
        for line in lines:
            assert len(line) <= HELP_WIDTH, (verb, line)
            cut = [word for word in line.split() if word.strip(PUNCTUATION) not in known]
            assert cut == [], (verb, line)


def test_help_for_every_command_is_told_in_german_and_spanish() -> None:
    with speaking("de"):
        assert render({"type": "help", "text": help_reply("help play")}).splitlines() == [
            "play KARTE | go | discard KARTE KARTE",
            "    Karten sind Rang+Farbe: A 2-9 T J Q K und C D H S (Kreuz, Karo, Herz,",
            "    Pik), z. B. 5H TC; discard nimmt auch die Nummern der Aufforderung:",
            "    discard 1 2",
            "Geschrieben: play KARTE, z. B. play 5H."]
    with speaking("es"):
        assert render({"type": "help", "text": help_reply("help watch")}).splitlines() == [
            "watch MESA [CONTRASEÑA]", "    mira una mesa", "Se escribe: watch MESA, o watch MESA CONTRASEÑA."]
    for command in COMMANDS:  # every command word is in its help as typed, in each language
        for language in ("de", "es"):
            with speaking(language):
                text = render({"type": "help", "text": help_reply(f"help {command.verbs[0]}")})
            assert command.verbs[0] in text.split() or any(command.verbs[0] in w for w in text.split()), text
    assert set(BY_VERB) >= {"play", "discard", "join"}
