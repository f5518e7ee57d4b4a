"""The result of a seat left and never taken back agrees with the board (issue 33, item 5),
over real sockets on the core's injected clock.

The rule (docs/PROTOCOL.md, "Stand-ins and results that count"): when a seat's grace period
runs out mid-game, the table is told at that moment, by name, what counts if its person never
takes it back -- in a game of two sides, a resignation at the scores of that moment, the
deals from then on counting only if they come back; with three alone, a loss for them, the
game going on to the target.  At the end the result names the person (not the computer that
played the seat on), the board stays as played (``played_to``), and the summary adds up.
"""

from __future__ import annotations

import asyncio
import random
import re

from noddy.protocol.story import TableView, narrate
from noddy.server import ServerCore

from .harness import Client, play_out, running_server, text_connection, text_until
from .harness import test_config as config_for_tests
from .test_stand_ins import registered_table, scores_now

GRACE = 5.0


def _core(now: list[float]) -> ServerCore:
    return ServerCore(config_for_tests(grace_period=GRACE), clock=lambda: now[0])


def _summary_adds_up(text: str) -> None:
    """Each summary line's total is the sum of its parts (``ann: 31 (play 6, show 25; ...)``)."""
    rows = re.findall(r"^  (.+?): (\d+) \((.*?); best hand", text, flags=re.M)
    assert rows, text
    for _side, total, parts in rows:
        figures = [int(n) for n in re.findall(r" (\d+)", " " + parts)] if parts != "nothing" else []
        assert sum(figures) == int(total), text


async def test_two_handed_the_table_is_told_at_once_and_the_end_keeps_the_board() -> None:
    now = [0.0]
    async with running_server(core=_core(now)) as server:
        ann, ben, table_id = await registered_table(server.port)
        reader, writer = await text_connection(server.port)  # dee watches by text
        writer.write(f"width 1000\nname dee\nwatch {table_id}\n".encode())  # (width: one line a message)
        await text_until(reader, f"Table {table_id}")
        await ann.recv_until(lambda m: m["type"] == "turn")
        await ben.close()
        await ann.recv_until(lambda m: m["type"] == "player_away")
        now[0] += GRACE + 1
        stand_in = await ann.recv_until(lambda m: m["type"] == "stand_in")
        then = scores_now(ann)
        counts = (f"If ben does not take the seat back before the game ends, it counts as ben's resignation "
                  f"now, at ann {then[0]}, ben {then[1]}: the deals played from here count only if ben comes back.")
        assert stand_in["counts"] == counts
        line = await text_until(reader, "ben (seat 2) has not come back")
        assert line.endswith(f"(type wait 2 to wait for ben instead). {counts}\n")
        over = await play_out(ann, random.Random(4))
        board = scores_now(ann)  # the last deal's scores as played
        assert (over["ending"], over["scores"], over["abandoned"]) == ("abandoned", then, [1])
        assert over["names"] == ["ann", "ben"] and over["played_to"] == board != then
        # The client's view: the board stays as played; the words name ben; the summary adds up.
        view = TableView(seat=0)
        told: list[str] = []
        for message in ann.received:
            told += [line.text() for line in view.apply(message)]
        assert view.scores == board and view.winner == 0
        said = narrate(over, ["ann", "greedy computer 2"])
        assert said == (f"ann wins the game: ben left and never came back, which counts as a resignation at "
                        f"{then[0]} to {then[1]}, the score then; the deals played since, to {board[0]} to "
                        f"{board[1]}, do not count!")
        end = "\n".join(told[told.index(said):])
        assert f"Summary after {view.deal} deals (as played):" in end and "\n  ben: " in end
        _summary_adds_up(end)
        writer.close()
        await ann.close()


async def test_three_handed_the_loss_names_the_person_not_the_seat() -> None:
    now = [0.0]
    async with running_server(core=_core(now)) as server:
        ann, cy, dee = [await Client.connect(server.port) for _ in range(3)]
        for client, name in ((ann, "ann"), (cy, "cy"), (dee, "dee")):
            await client.hello(name)
        table_id = (await ann.request({"type": "create_table", "preset": "noddy-modern", "players": 3,
                                       "options": {"target": 15}}))["table"]["id"]
        for client in (cy, dee):
            await client.request({"type": "sit", "table": table_id})
        for client in (ann, cy, dee):
            await client.request({"type": "ready"})
        await ann.recv_until(lambda m: m["type"] == "turn")
        await dee.close()
        await ann.recv_until(lambda m: m["type"] == "player_away")
        now[0] += GRACE + 1
        stand_in = await ann.recv_until(lambda m: m["type"] == "stand_in")
        assert stand_in["counts"] == ("If dee does not take the seat back before the game ends, it is a loss for "
                                      "dee; the game goes on to the target for the others.")
        for client in (ann, cy):
            await client.send({"type": "snapshot"})
        over, over_cy = await asyncio.gather(play_out(ann, random.Random(1)), play_out(cy, random.Random(2)))
        assert over == over_cy and over["abandoned"] == [2] and over["names"] == ["ann", "cy", "dee"]
        said = narrate(over, ["ann", "cy", "greedy computer 3"]).splitlines()
        assert said[1] == "(dee left and never came back: a loss.)"
        await ann.close()
        await cy.close()
