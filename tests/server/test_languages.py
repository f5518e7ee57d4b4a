"""Each reader's language, end to end (issue 36): chosen in ``hello`` or by the ``language``
request (text mode: ``lang``), listed in the greeting and the welcome, carried by every Send
of the core and said at the send path -- a text connection's lines rendered in it, a JSON
connection's Phrases said in it -- with the send caches kept apart per language.

Real sockets on 127.0.0.1 port 0 (tests/server/harness.py); the core alone where what is
checked is the core's marking of its Sends."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from noddy.protocol import ProtocolError
from noddy.server import NoddyServer, ServerConfig, ServerCore
from noddy.server.core.instructions import Lines, Send
from noddy.server.core.languages import spoken

from .harness import Client, running_server, text_connection, text_line, text_until

LANGUAGES = {"en": "English", "de": "Deutsch", "es": "Español"}
#: What a language Noddy does not speak is told, in English, German and Spanish.
NOT_FRENCH = {
    "en": "Noddy does not speak 'fr'; it speaks en (English), de (Deutsch), es (Español)",
    "de": "Noddy spricht 'fr' nicht; es spricht en (English), de (Deutsch), es (Español)",
    "es": "Noddy no habla 'fr'; habla en (English), de (Deutsch), es (Español)",
}


@pytest.fixture
async def server() -> Any:
    async with running_server() as running:
        yield running


def _conn_languages(server: NoddyServer) -> list[str]:
    assert server.core is not None
    return [conn.language for conn in server.core.connections.all()]


async def _typed(writer: asyncio.StreamWriter, line: str) -> None:
    writer.write(line.encode() + b"\n")
    await writer.drain()


# -- hello, the greeting and the welcome ---------------------------------------------------

async def test_the_greeting_lists_the_languages_and_tells_nc_how_to_switch(server: NoddyServer) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    greeting = json.loads(await asyncio.wait_for(reader.readline(), 5))
    assert greeting["languages"] == LANGUAGES
    assert greeting["help"] == ("Type help and press Enter to play by text; programs send a JSON hello "
                                "(see docs/PROTOCOL.md). Deutsch: lang de · Español: lang es")
    writer.close()


@pytest.mark.parametrize("tag, language", [("de", "de"), ("es", "es"), ("de_AT.UTF-8", "de"),
                                           ("es-MX", "es"), ("EN", "en")])
async def test_hello_takes_a_language_tag_or_locale_name(server: NoddyServer, tag: str, language: str) -> None:
    client = await Client.connect(server.port)
    welcome = await client.hello("ann", language=tag)
    assert (welcome["language"], welcome["languages"]) == (language, LANGUAGES)
    assert _conn_languages(server) == [language]
    await client.close()


async def test_a_hello_without_a_language_is_welcomed_in_english(server: NoddyServer) -> None:
    client = await Client.connect(server.port)
    welcome = await client.hello("ann")
    assert (welcome["language"], welcome["languages"]) == ("en", LANGUAGES)
    await client.close()


async def test_a_hello_in_a_language_noddy_does_not_speak_is_refused_whole(server: NoddyServer) -> None:
    client = await Client.connect(server.port)
    reply = await client.request({"type": "hello", "name": "ann", "version": 1, "language": "fr"})
    assert reply == {"type": "error", "code": "bad_field", "message": NOT_FRENCH["en"], "id": 1,
                     "field": "language"}
    # Nothing happened: no name, still English, and the name is free.
    welcome = await client.hello("ann")
    assert (welcome["name"], welcome["language"]) == ("ann", "en")
    await client.close()


async def test_a_refused_hello_is_said_in_the_language_it_chose(server: NoddyServer) -> None:
    """The language is the connection's at once: the refusal of the name that follows is
    read in it (and the next hello need not ask again)."""
    first = await Client.connect(server.port)
    await first.hello("ann")
    second = await Client.connect(server.port)
    refused = await second.request({"type": "hello", "name": "ann", "version": 1, "language": "de"})
    assert (refused["code"], refused["field"]) == ("name_taken", "name")
    welcome = await second.hello("bea")
    assert welcome["language"] == "de"
    await first.close()
    await second.close()


# -- the language request ------------------------------------------------------------------

async def test_the_language_request_before_and_after_hello(server: NoddyServer) -> None:
    client = await Client.connect(server.port)
    assert await client.request({"type": "language", "language": "es_ES.UTF-8"}) == {
        "type": "language", "language": "es", "id": 1}
    welcome = await client.hello("ann")  # the hello keeps what the request chose
    assert welcome["language"] == "es"
    assert await client.request({"type": "language", "language": "de"}) == {
        "type": "language", "language": "de", "id": 3}
    assert await client.request({"type": "language"}) == {"type": "language", "language": "de", "id": 4}
    assert _conn_languages(server) == ["de"]
    await client.close()


async def test_a_json_reader_gets_an_error_in_its_language_and_an_english_one_in_english(
        server: NoddyServer) -> None:
    german, english, spanish = [await Client.connect(server.port) for _ in range(3)]
    await german.hello("ann", language="de")
    await english.hello("ben")
    await spanish.request({"type": "language", "language": "es"})  # before any hello
    for client, language in ((german, "de"), (english, "en"), (spanish, "es")):
        reply = await client.request({"type": "language", "language": "fr"})
        assert (reply["code"], reply["field"], reply["message"]) == ("bad_field", "language",
                                                                     NOT_FRENCH[language])
    assert sorted(_conn_languages(server)) == ["de", "en", "es"]
    for client in (german, english, spanish):
        await client.close()


def test_spoken_reads_what_programs_write_and_refuses_the_rest() -> None:
    assert [spoken(tag) for tag in ("de", "DE", "de-CH", "es_AR.UTF-8", "C", "POSIX")] == [
        "de", "de", "de", "es", "en", "en"]
    with pytest.raises(ProtocolError) as refused:
        spoken("pt_BR")
    assert (refused.value.code, refused.value.field, refused.value.message) == (
        "bad_field", "language", "Noddy does not speak 'pt_BR'; it speaks en (English), de (Deutsch), es (Español)")


# -- text mode -----------------------------------------------------------------------------

async def test_text_mode_lang_de_works_before_a_name_and_makes_nobody_a_guest(server: NoddyServer) -> None:
    reader, writer = await text_connection(server.port)
    await _typed(writer, "lang de")
    assert await text_line(reader) == "Sprache: Deutsch.  English: lang en · Español: lang es\n"
    await _typed(writer, "lang")
    assert await text_line(reader) == "Sprache: Deutsch.  English: lang en · Español: lang es\n"
    assert server.core is not None
    assert [conn.session for conn in server.core.connections.all()] == [None]  # no guest was made
    await _typed(writer, "name bob")
    await _typed(writer, "lang español")  # a language's own name is taken too
    assert await text_until(reader, "Idioma") == "Idioma: Español.  English: lang en · Deutsch: lang de\n"
    assert [conn.session.name for conn in server.core.connections.all()] == ["bob"]  # type: ignore[union-attr]
    await _typed(writer, "lang en")
    assert await text_line(reader) == "Language: English.  Deutsch: lang de · Español: lang es\n"
    writer.close()


# -- the send path: one message, each reader's language ------------------------------------

async def test_the_send_caches_keep_languages_apart(server: NoddyServer) -> None:
    """One message object (and one game batch) written to four connections at once, text and
    JSON, German and English: each reads its own language.  The caches key on the message's
    id (and the names and width for text), so without the language in the key the second
    reader of each kind was sent the first one's bytes."""
    german_text, english_text = await text_connection(server.port), await text_connection(server.port)
    await _typed(german_text[1], "lang de")
    assert (await text_line(german_text[0])).startswith("Sprache: Deutsch.")
    await _typed(english_text[1], "lang en")
    assert (await text_line(english_text[0])).startswith("Language: English.")
    german_json, english_json = await Client.connect(server.port), await Client.connect(server.port)
    await german_json.hello("ann", language="de")
    await english_json.hello("ben")
    assert server.core is not None
    ids = {conn.language + ("-text" if conn.text else "-json"): conn.id for conn in server.core.connections.all()}
    with pytest.raises(ProtocolError) as refused:
        spoken("fr")
    refusal = refused.value.to_message()  # an error whose message is a Phrase
    reply = {"type": "language", "language": "es"}  # said by text mode in the reader's language
    batch = Lines((refusal,), True)  # a member's game batch: cached message by message
    server._carry_out([Send(ids["de-text"], reply, True, language="de"),
                       Send(ids["en-text"], reply, True, language="en"),
                       Send(ids["de-json"], refusal, language="de"),
                       Send(ids["en-json"], refusal, language="en"),
                       Send(ids["de-json"], batch, language="de"),
                       Send(ids["en-json"], batch, language="en")])
    assert await text_line(german_text[0]) == "Sprache: Español.  English: lang en · Deutsch: lang de\n"
    assert await text_line(english_text[0]) == "Language: Español.  English: lang en · Deutsch: lang de\n"
    for client, language in ((german_json, "de"), (english_json, "en")):
        for _ in range(2):  # the message alone, then in the batch
            message = await client.recv()
            assert (message["code"], message["message"]) == ("bad_field", NOT_FRENCH[language])
    for _, writer in (german_text, english_text):
        writer.close()
    await german_json.close()
    await english_json.close()


def test_every_send_of_a_call_carries_its_connections_language() -> None:
    """The core's own batches (a game's events, the lobby's news) are put without the outbox's
    send: the outbox marks them with their connection's language when the call ends, and
    only while some connection reads another language than English."""
    core = ServerCore(ServerConfig(seed=7), clock=lambda: 0.0)
    ann, _ = core.connect()
    ben, _ = core.connect()

    def said(conn: int, message: dict[str, Any]) -> list[Send]:
        out = core.receive(conn, json.dumps(message).encode() + b"\n").out
        return [o for o in out if isinstance(o, Send)]

    said(ann, {"type": "hello", "name": "ann", "version": 1, "language": "de"})
    said(ben, {"type": "hello", "name": "ben", "version": 1})
    said(ann, {"type": "create_table", "preset": "noddy"})
    said(ben, {"type": "sit", "table": 1})
    said(ann, {"type": "ready"})
    sends = said(ben, {"type": "ready"})  # the game starts: each member's batch of events
    batches = {(s.conn, s.language) for s in sends if isinstance(s.message, Lines)}
    assert batches == {(ann, "de"), (ben, "en")}
    assert core.connections.not_english == 1
    core.disconnect(ann)
    assert core.connections.not_english == 0


def test_what_text_mode_says_of_languages_is_all_marked() -> None:
    """In a made-up language every marked string is bracketed: the ``lang`` reply, its help
    and the refusal of a language leave nothing outside a catalog but the languages' names
    and the command word (never translated)."""
    from noddy.protocol.i18n import speaking
    from noddy.server.text.language_commands import LANG_HELP, LANG_USAGE
    from noddy.server.text.render import render

    from ..pseudo_language import pseudo_language, unmarked_words

    with pseudo_language() as qq, speaking(qq):
        said = [render({"type": "language", "language": code}) for code in ("en", "de", "es", qq)]
        with pytest.raises(ProtocolError) as refused:
            spoken("fr")
        said += [refused.value.message.said(), *map(_said, LANG_HELP[1]), _said(LANG_USAGE)]
    names = ("English", "Deutsch", "Español", "Pseudo", "lang", "en", "de", "es", "qq")
    assert [unmarked_words(text, allowed=names) for text in said] == [[]] * len(said)
    assert said[1] == "⟪Language: Deutsch.⟫  English: lang en · Español: lang es · Pseudo: lang qq\n"


def _said(text: str) -> str:
    from noddy.protocol.i18n import _
    return _(text)
