"""One table, three languages (issue 36): each person reads the same game in their own.

RULES.md's worked example of counting by hand (the deal stacked as in
tests/server/test_counting_and_coach.py): Ben plays in German over JSON, a watcher follows in
English, and -- in text mode -- Ann plays in Spanish.  The shared messages are made once by
the core; the send path says them again for each reader, so a German reader's announcements
and errors are German while the watcher's stay English, from the very same events."""

from __future__ import annotations

import asyncio

import pytest

from noddy.protocol.calls import announce
from noddy.protocol.i18n import speaking

from .harness import Client, running_server
from .test_counting_and_coach import (MANUAL, TextPerson, _kind, _play_to_the_show, _seat_two,
                                      stacked, text_player_to_the_claim)

__all__ = ["stacked"]  # the fixture, used by name


async def test_a_german_player_and_an_english_watcher_read_one_count_each_in_their_own(
        stacked: None) -> None:
    async with running_server() as server:
        ben, ann, table_id = await _seat_two(server.port, MANUAL)
        dot = await Client.connect(server.port)
        await dot.hello("Dot")
        await dot.request({"type": "spectate", "table": table_id})
        assert (await ben.request({"type": "language", "language": "de"}))["language"] == "de"
        await _play_to_the_show(ben, ann)
        await ann.request({"type": "action", "action": "claim", "points": 12})
        await ben.recv_until(lambda m: m["type"] == "turn" and m["legal_actions"][:1] == [
            {"action": "muggins", "min": 13, "max": 29}])
        refused = await ben.request({"type": "action", "action": "muggins", "points": 30})
        assert (refused["code"], refused["message"]) == (
            "bad_claim", "Muggins muss sagen, dass die Hand mehr als die angesagten 12 bringt "
            "(bis 29), nicht 30")
        await ben.request({"type": "action", "action": "muggins", "points": 16})
        german = (await ben.recv_until(_kind("counted")))["event"]
        english = (await dot.recv_until(_kind("counted")))["event"]
        assert german["items"] == english["items"]
        assert english["announcement"] == ("fifteen two, fifteen four, fifteen six, fifteen eight, "
                                           "a pair ten, a run of three thirteen, a run of three sixteen")
        assert german["announcement"] == ("fünfzehn zwei, fünfzehn vier, fünfzehn sechs, fünfzehn acht, "
                                          "ein Paar zehn, eine Sequenz von drei dreizehn, "
                                          "eine Sequenz von drei sechzehn")
        with speaking("de"):
            assert german["announcement"] == announce(english["items"])
        for client in (ann, ben, dot):
            await client.close()


async def test_a_spanish_player_on_nc_a_german_one_on_json_and_an_english_watcher_at_one_count(
        stacked: None) -> None:
    """The worked example of counting by hand with Ann at a bare terminal in Spanish: her
    claim prompt, the refusal of 18, Ben's muggins and the count are all Spanish to her; Ben's
    error is German; the watcher's count is English."""
    async with running_server() as server:
        ann = TextPerson(*await asyncio.open_connection("127.0.0.1", server.port))
        say, read_until, reader = ann.say, ann.read_until, ann.reader
        ben = await Client.connect(server.port)
        await ben.hello("Ben", language="de")
        created = await ben.request({"type": "create_table", "preset": "cribbage", "options": MANUAL})
        dot = await Client.connect(server.port)
        await dot.hello("Dot")
        await say("width 1000")
        await say("lang es")
        await read_until("Idioma: Español.")
        await say("name Ann")
        await read_until("¡Bienvenido, Ann!")
        await dot.request({"type": "spectate", "table": created["table"]["id"]})
        text = await text_player_to_the_claim(ann, ben, created["table"]["id"], "Tu descarte",
                                              "Tu turno", "Tu canto")
        assert "Carta de arranque: 6C." in text
        assert "Ann juega 4C — cuatro" in text
        assert "La mano de Ann 4C 5H 5S JD + 6C se cuenta ahora." in text
        assert text.endswith(
            "Tu canto: cuenta las cartas de arriba con la carta de arranque y escribe claim N (un canto "
            "por encima de lo que valen se rechaza una vez y un segundo cuenta 0; los puntos que se te "
            "pasen te los pueden quitar con muggins).\n")
        await say("claim 18")
        told = await read_until("Tu canto")
        assert told.startswith("Esa mano no vale 18. Vuelve a cantar: un segundo canto por encima de "
                               "lo que vale cuenta como 0.\nTu canto: ")
        await say("claim 12")
        assert (await read_until("12")) == "Ann canta 12 por la mano.\n"
        await ben.recv_until(lambda m: m["type"] == "turn" and m["legal_actions"][:1] == [
            {"action": "muggins", "min": 13, "max": 29}])
        await ben.request({"type": "action", "action": "muggins", "points": 16})
        told = await read_until("Ben 10, Ann 12")
        told += (await asyncio.wait_for(reader.readline(), 10)).decode()
        assert told.splitlines()[-3:] == [
            "Ben: muggins, 16 — ¡correcto!",
            "Ben: muggins cuatro. Puntos: Ben 10, Ann 12",
            "La mano de Ann valía 16 (quince dos, quince cuatro, quince seis, quince ocho, una pareja "
            "diez, una escalera de tres trece, una escalera de tres dieciséis); canto 12, 4 para Ben "
            "por muggins."]
        english = (await dot.recv_until(_kind("counted")))["event"]
        assert english["announcement"].startswith("fifteen two, fifteen four")
        ann.writer.close()
        await ben.close()
        await dot.close()
