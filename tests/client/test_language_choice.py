"""The client's language (issue 36): from ``--lang``, else the locale (LC_ALL, LC_MESSAGES,
LANG), else English; carried by the hello; switched at any time with L (English, Deutsch,
Español, and round), which asks the server for it too; and the client's own words (the
help box, the connection's state, the name line) said in it."""

from __future__ import annotations

from typing import Iterator

import pytest

from noddy.client.cli import build_parser, choose_language, language_choice
from noddy.client.keys import help_text, sections
from noddy.client.model import ViewModel
from noddy.client.session import NOT_CONNECTED, Session
from noddy.protocol import i18n
from noddy.server import NoddyServer

from ..pseudo_language import pseudo_language, unmarked_words
from .test_app import running_client, server, wait_for  # noqa: F401


@pytest.fixture(autouse=True)
def english_again() -> Iterator[None]:
    """Each test starts, and leaves the process, in English (the language is process-wide)."""
    i18n.set_language("en")
    yield
    i18n.set_language("en")


# -- where the language comes from ---------------------------------------------------------

@pytest.mark.parametrize("argv, environ, language", [
    (["--lang", "de"], {"LANG": "es_ES.UTF-8"}, "de"),          # the flag first
    (["--lang=es-MX", "host:1"], {}, "es"),
    ([], {"LANG": "de_DE.UTF-8"}, "de"),                      # else the locale
    ([], {"LC_ALL": "es_ES.UTF-8", "LANG": "de_DE.UTF-8"}, "es"),  # LC_ALL before LANG
    ([], {"LC_MESSAGES": "de_AT", "LANG": "es_ES"}, "de"),    # LC_MESSAGES before LANG
    ([], {"LC_ALL": "", "LANG": "es"}, "es"),                 # an empty one is not set
    ([], {"LC_ALL": "fr_FR.UTF-8", "LANG": "de_DE.UTF-8"}, "en"),  # the first set decides
    ([], {"LANG": "C.UTF-8"}, "en"),
    ([], {}, "en"),                                           # else English
])
def test_the_language_comes_from_the_flag_then_the_locale_then_english(
        argv: list[str], environ: dict[str, str], language: str) -> None:
    assert language_choice(argv, environ) == language


def test_choose_language_makes_it_the_clients_and_the_parser_speaks_it() -> None:
    assert choose_language(["--lang", "es"], {}) == "es"
    assert i18n.current_language() == "es"
    assert build_parser().description == (
        "Juega a Noddy y al Cribbage en una terminal.  Sin dirección, el programa arranca un "
        "servidor privado y juegas contra un jugador de la computadora.")


def test_a_lang_noddy_does_not_speak_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert choose_language(["--lang", "fr"], {"LANG": "de_DE"}) == "de"  # the locale meanwhile
    with pytest.raises(SystemExit) as stopped:
        build_parser().parse_args(["--lang", "fr"])
    assert stopped.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1].endswith(
        "Noddy spricht 'fr' nicht; es spricht en (English), de (Deutsch), es (Español)")


# -- the hello and the key -----------------------------------------------------------------

def test_the_hello_carries_the_language_unless_it_is_english() -> None:
    session = Session("ann")
    assert "language" not in session.hello()
    i18n.set_language("de")
    assert session.hello() == {"type": "hello", "name": "ann", "version": 1, "language": "de"}


def _welcomed() -> ViewModel:
    model = ViewModel("ann")
    model.connection_up()
    model.handle({"type": "welcome", "name": "ann", "token": "t", "resumed": False,
                  "presets": [{"name": "noddy"}]})
    model.session.take_outbox()
    return model


def test_l_goes_round_the_languages_and_asks_the_server_for_each() -> None:
    model = _welcomed()
    said = []
    for _ in range(3):
        language = model.session.switch_language()
        [request] = model.session.take_outbox()
        said.append((language, request["type"], request["language"], model.session.status))
    assert said == [("de", "language", "de", "Sprache: Deutsch."),
                    ("es", "language", "es", "Idioma: Español."),
                    ("en", "language", "en", "Language: English.")]


def test_l_before_the_welcome_waits_for_the_hello() -> None:
    session = Session("ann")
    assert session.switch_language() == "de"
    assert session.take_outbox() == []  # nothing is sent before a welcome...
    session.connection_up()
    [hello] = session.take_outbox()     # ...the hello carries it
    assert (hello["type"], hello["language"]) == ("hello", "de")


async def test_l_in_the_lobby_switches_the_client_and_the_server(server: NoddyServer) -> None:  # noqa: F811
    async with running_client(server.port, "Ann") as (app, keys):
        await wait_for(lambda: app.model.session.welcomed, "the welcome")
        keys.send_text("L")
        await wait_for(lambda: [c.language for c in server.core.connections.all()] == ["de"],
                       "the server to read German for the client")
        assert (i18n.current_language(), app.model.session.status) == ("de", "Sprache: Deutsch.")
        keys.send_text("L")
        await wait_for(lambda: [c.language for c in server.core.connections.all()] == ["es"],
                       "the server to read Spanish for the client")
        assert app.model.session.status == "Idioma: Español."


# -- the client's own words in the language -----------------------------------------------

def test_the_help_box_says_its_title_labels_and_lines_in_the_language() -> None:
    i18n.set_language("de")
    text = help_text(80)
    assert text.splitlines()[0] == " Tasten · jede Taste schließt diese Hilfe"
    anywhere = dict(sections())["Überall"]
    assert ("L", "Sprache: English, Deutsch, Español (der Reihe nach)") in anywhere
    assert ("Strg-Q", "sofort beenden") in anywhere
    assert max(map(len, text.splitlines())) <= 78
    i18n.set_language("es")
    assert help_text(80).splitlines()[0] == " Teclas · cualquier tecla cierra esta ayuda"


def test_the_connection_state_and_name_line_in_german() -> None:
    i18n.set_language("de")
    session = Session("ann")
    session.connection_lost("der Server antwortet nicht mehr")
    assert session.connection_words() == ("Verbindung verloren (der Server antwortet nicht mehr); sie "
                                          "wird von selbst wiederhergestellt. r versucht es jetzt, q beendet.")
    session.unreachable = True
    session.connection_lost("127.0.0.1:1 nicht erreichbar: dort lauscht nichts (Verbindung abgelehnt); "
                            "neuer Versuch in 1 s")
    assert session.connection_words().startswith("127.0.0.1:1 nicht erreichbar")
    session.on_name_refused({"type": "error", "code": "name_taken"})
    assert session.name_prompt == ("Der Name 'ann' ist vergeben. Tippe einen anderen Namen und drücke "
                                   "Enter (Strg-Q beendet).")
    session.send("chat", text="hi")  # before a welcome: the status says so, in German
    assert (session.status, NOT_CONNECTED) == ("Noch nicht verbunden: einen Moment (q beendet).",
                                               "Not connected yet: wait a moment (q quits).")
    session.connection_up()
    assert session.status == ""  # taken down by the connection, in any language


def test_nothing_the_anywhere_keys_say_is_left_unmarked() -> None:
    """In a made-up language every marked string is bracketed: the help of the keys that
    belong to no screen (and the help box's title) has no word outside a catalog."""
    with pseudo_language() as qq:
        i18n.set_language(qq)
        title = help_text(80).splitlines()[0]
        lines = [f"{label} {said}" for heading, entries in sections() if heading == "⟪Anywhere⟫"
                 for label, said in entries]
    assert lines and unmarked_words(title) == []
    assert unmarked_words(" ".join(lines)) == []

