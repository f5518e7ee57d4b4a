"""What an idle or busy client draws (issue 15): the log's visible lines only, nothing on a
timer unless a clock is shown, one redraw for a burst of messages.

These count what is done (lines formatted, redraws asked for); none times anything.  The
CPU figures themselves are measured by ``bench/client_idle.py``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from prompt_toolkit.application.current import set_app
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.layout.mouse_handlers import MouseHandlers
from prompt_toolkit.layout.screen import Screen, WritePosition
from prompt_toolkit.output import DummyOutput

from noddy.client import app as app_module
from noddy.client import render
from noddy.client.app import ClientApp
from noddy.client.lines import LOG_LIMIT, line

ROWS, COLUMNS = 24, 80


class SizedOutput(DummyOutput):
    """A terminal of ``rows`` by ``columns`` that draws nothing (the tests draw the screen
    themselves with :func:`screen_text`)."""

    def __init__(self, rows: int = ROWS, columns: int = COLUMNS) -> None:
        self.rows, self.columns = rows, columns

    def get_size(self) -> Any:
        from prompt_toolkit.data_structures import Size
        return Size(rows=self.rows, columns=self.columns)


@pytest.fixture
def client() -> Iterator[ClientApp]:
    with create_pipe_input() as keys:
        yield ClientApp("127.0.0.1", 1, "Me", input=keys, output=SizedOutput())


def at_table_with_a_long_log(client: ClientApp) -> None:
    model = client.model
    model.game.table_id = 1
    model.game.table = {"id": 1, "preset": "noddy", "players": 2, "seats": [], "status": "playing"}
    model.session.screen = "table"
    for i in range(LOG_LIMIT + 20):
        # Some lines wider than the screen, so that they wrap onto a second row.
        text = f"line {i} " + ("and a long tail of words " * 4 if i % 7 == 0 else "")
        model.game.log_line(line("event", text))


def screen_text(client: ClientApp) -> list[str]:
    """The whole screen as drawn, row by row (at the size of the client's output)."""
    screen = Screen()
    size = client.application.output.get_size()
    with set_app(client.application):
        client.application.render_counter += 1
        client.application.layout.container.write_to_screen(
            screen, MouseHandlers(), WritePosition(0, 0, size.columns, size.rows), parent_style="",
            erase_bg=False, z_index=None)
        screen.draw_all_floats()
    return ["".join(screen.data_buffer[y][x].char for x in range(size.columns)).rstrip()
            for y in range(size.rows)]


def test_the_log_formats_only_the_lines_the_screen_can_show(client: ClientApp,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    at_table_with_a_long_log(client)
    formatted: list[int] = []
    real = render.log_fragments

    def counting(lines: list[Any], *width: Any) -> Any:
        formatted.append(len(lines))
        return real(lines, *width)

    monkeypatch.setattr(render, "log_fragments", counting)
    rows = screen_text(client)
    assert formatted and max(formatted) <= ROWS          # not the 500 lines of the log
    assert any(row.startswith(f" line {LOG_LIMIT + 19}") for row in rows)


@pytest.mark.parametrize("scrolled", [0, 3, 40])
def test_the_screen_is_the_same_as_with_the_whole_log_formatted(
        client: ClientApp, monkeypatch: pytest.MonkeyPatch, scrolled: int) -> None:
    at_table_with_a_long_log(client)
    client.model.game.log_scroll = scrolled
    shown = screen_text(client)
    monkeypatch.setattr(render, "log_tail", lambda lines, rows: lines)
    assert client.log_window is not None
    client.log_window.vertical_scroll = 0               # (a fresh window draws it the same)
    assert screen_text(client) == shown
    assert any(row.startswith(f" line {LOG_LIMIT + 19 - scrolled}") for row in shown)


def test_no_redraw_on_a_timer_unless_a_clock_is_shown(client: ClientApp) -> None:
    assert client.application.refresh_interval in (None, 0)
    at_table_with_a_long_log(client)
    model = client.model
    model.game.in_game = True
    model.game.view.awaiting = [1]
    assert client.clock_shown() is None                  # no turn timer at this table
    model.game.view.time_left = 30.0
    model.game._time_at = 100.0
    assert client.clock_shown(100.2) == "30"
    assert client.clock_shown(101.6) == "28"
    model.game.view.awaiting = []                       # nobody to move: no clock
    assert client.clock_shown(101.6) is None


async def test_the_tick_sleeps_while_nothing_timed_is_shown(client: ClientApp,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app_module, "TICK", 0.001)
    drawn: list[int] = []
    monkeypatch.setattr(client.application, "invalidate", lambda: drawn.append(1))
    looks: list[int] = []
    real = client.clock_shown

    def looking(now: float | None = None) -> str | None:
        looks.append(1)
        return real(now)

    monkeypatch.setattr(client, "clock_shown", looking)
    task = asyncio.create_task(client._tick())
    await asyncio.sleep(0.05)
    assert len(looks) <= 1 and not drawn                # asleep: nothing looked at, or drawn
    client._flush()                                     # a key or a message wakes it...
    await asyncio.sleep(0.05)
    assert 2 <= len(looks) <= 3                         # ...to look once, and sleep again
    task.cancel()


async def test_a_burst_of_messages_is_drawn_once(client: ClientApp,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app_module, "MESSAGE_DRAW_DELAY", 0.01)
    drawn: list[int] = []
    monkeypatch.setattr(client.application, "invalidate", lambda: drawn.append(1))
    for i in range(20):
        client._on_message({"type": "chat", "from": "Ann", "text": f"hello {i}", "to": "lobby"})
    assert not drawn
    await asyncio.sleep(0.1)
    assert len(drawn) == 1
    # Messages that keep coming are drawn at most every MESSAGE_FRAME_INTERVAL after the
    # last frame drawn for messages.
    monkeypatch.setattr(app_module, "MESSAGE_FRAME_INTERVAL", 60.0)
    client._on_message({"type": "chat", "from": "Ann", "text": "again", "to": "lobby"})
    await asyncio.sleep(0.05)
    assert len(drawn) == 1
    assert client._draw_timer is not None
    assert client._draw_timer.when() - client._message_drawn == pytest.approx(60.0)
    client._draw_timer.cancel()
