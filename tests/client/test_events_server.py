"""Club nights in the full-screen client against a real server on 127.0.0.1 (issue 35): a
person opens the events list with ``e``, opens a private event, joins it with its password
(asked on the password line), sees the news, and when the director starts it, the
``event_table`` push takes them to their board's table, seated."""

from __future__ import annotations

from prompt_toolkit.keys import Keys

from noddy.client.model import TABLE
from noddy.client.screens.events import EVENT, EVENTS

from ..server.club_play import PRESET, person
from ..server.harness import running_server
from .test_app import running_client, wait_for
from .test_scrolling import press


async def test_a_person_joins_a_private_event_from_the_client_and_is_taken_to_their_board() -> None:
    async with running_server() as server:
        ann = await person(server.port, "ann", "127.0.0.2")
        assert (await ann.request({"type": "register", "password": "sesame"}))["type"] == "registered"
        announced = await ann.request({"type": "announce_event", "title": "Tuesday club", "format": "swiss",
                                       "rounds": 1, "games": 2, "password": "clubpw", **PRESET})
        assert announced["type"] == "club_event"
        assert (await ann.request({"type": "join_event", "event": 1, "password": "clubpw"}))["type"] == "ok"
        async with running_client(server.port, name="Bea") as (app, keys):
            model, events = app.model, app.events
            await wait_for(lambda: model.session.welcomed, "the welcome")
            press(app, "e")
            await wait_for(lambda: events.events, "the events list")
            assert model.session.screen == EVENTS
            assert [(e["id"], e["title"], e["state"], e["entrants"], e["private"]) for e in events.events] == [
                (1, "Tuesday club", "announced", 1, True)]
            press(app, Keys.ControlM)
            await wait_for(lambda: events.event is not None, "the event")
            assert (model.session.screen, [e["name"] for e in events.event["entrants"]]) == (EVENT, ["ann"])
            press(app, "j")
            assert model.lobby.password_prompt is not None
            keys.send_text("wrong\r")
            await wait_for(lambda: model.lobby.password_prompt is not None and model.lobby.password_prompt.retry,
                           "the password asked again")
            assert model.session.status == "Wrong password for club night 1: type it again, or Esc."
            keys.send_text("clubpw\r")
            await wait_for(lambda: events.event is not None and len(events.event["entrants"]) == 2,
                           "the event shown again with Bea in it")
            assert [(e["name"], e["kind"]) for e in events.event["entrants"]] == [("ann", "person"),
                                                                                  ("Bea", "person")]
            assert model.lobby.lobby_chat[-1].text == "[club night 1] Bea entered Tuesday club"
            assert (await ann.request({"type": "direct_event", "event": 1, "command": "start"}))["type"] == "ok"
            await wait_for(lambda: model.session.screen == TABLE, "Bea's board's table")
            told = await ann.recv_until(lambda m: m["type"] == "event_table")
            assert (model.game.table_id, model.game.table["event"]) == (told["table"], {"id": 1, "round": 1,
                                                                                       "board": 1})
            assert model.game.seat == 1 - told["seat"]
            assert model.session.status == (f"Club night 1, round 1, board 1: your table is {told['table']}, "
                                            f"seat {model.game.seat + 1}, against ann (2 games).")
        await ann.close()
