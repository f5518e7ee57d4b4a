"""The table's news in the log: who lost the connection, came back, went silent or ran out
of time, and the computer that stands in.

These are the server's messages about the people at the table (``player_away``,
``player_back``, ``player_replaced``, ``stand_in``, ``seat_silent``, ``timed_out``), not
the game's events (told by :mod:`noddy.protocol.narration`): the client says them itself,
in its reader's language, as lines of the log.  :class:`TableNews` is a room of its own,
held by :class:`~noddy.client.screens.game.Game` (``game.news``), because it is the table's
people, not its game: it owns who the table waits for and who is silent (which the ``w`` key
reads), and writes its lines through the log and the seats' names the game passes in.
"""

from __future__ import annotations

from typing import Any, Callable

from noddy.protocol.i18n import _

from ..lines import LogLine, line


class TableNews:
    """The people's news at the table, as log lines (module docstring)."""

    def __init__(self, log_line: Callable[[LogLine], None], seat_name: Callable[[int | None], str]) -> None:
        self.log_line = log_line
        self.seat_name = seat_name
        #: Seats whose away person the table has chosen to wait for (``stand_in`` off), by seat.
        self.waiting_for: dict[int, str] = {}
        #: Seats whose person is here but has said nothing on their turn for the table's
        #: ``seat_silence`` (``seat_silent``), by seat: ``w`` may call in a computer for them.
        self.silent: dict[int, str] = {}

    def on_player_away(self, m: dict[str, Any]) -> None:
        grace, name = m.get("grace"), _player(m)
        if isinstance(grace, (int, float)):
            said = _("{name} lost the connection; the seat is held for {grace} s.").format(
                name=name, grace=f"{grace:g}")
        else:
            said = _("{name} lost the connection.").format(name=name)
        self.log_line(line("info", said))

    def on_player_back(self, m: dict[str, Any]) -> None:
        self.silent.pop(m.get("seat"), None)  # type: ignore[arg-type]
        self.log_line(line("info", _("{name} is back.").format(name=_player(m))))

    def on_player_replaced(self, m: dict[str, Any]) -> None:
        if m.get("resigned"):
            self.log_line(line("info", _("{name} resigned (a loss); a {level} computer plays the "
                                         "seat on.").format(name=_player(m), level=m.get("level", ""))))
            return
        self.log_line(line("info", _("{name} has gone; a {level} computer player takes the "
                                     "seat.").format(name=_player(m), level=m.get("level", ""))))

    def on_stand_in(self, m: dict[str, Any]) -> None:
        """A computer stands in for a person who has not come back (they may still take the
        seat back), or the table now waits for them (``level`` null)."""
        name = _player(m)
        seat = m.get("seat")
        if isinstance(seat, int) and m.get("level") is None:
            self.waiting_for[seat] = str(name)
        elif isinstance(seat, int):
            self.waiting_for.pop(seat, None)
        self.silent.pop(seat, None)  # type: ignore[arg-type]
        if m.get("level") is None:
            said = _("The table waits for {name} (w: a computer plays meanwhile).")
        elif m.get("silent"):
            said = _("{name} has said nothing; a {level} computer stands in until {name} "
                     "returns (w: wait for {name} instead).")
        else:
            said = _("{name} has not come back; a {level} computer stands in until {name} "
                     "returns (w: wait for {name} instead).")
        self.log_line(line("info", said.format(name=name, level=m.get("level"))))
        if m.get("counts"):  # what counts if they never come back (issue 33)
            self.log_line(line("info", str(m["counts"])))

    def on_seat_silent(self, m: dict[str, Any]) -> None:
        """The person to move in ``seat`` is here but has said nothing for the table's limit:
        ``w`` may call in a computer for them (until they say something)."""
        name, seat, silent = _player(m), m.get("seat"), m.get("silent")
        if isinstance(seat, int):
            self.silent[seat] = str(name)
        if isinstance(silent, (int, float)):
            said = _("{name} has said nothing for {silent} s on their turn (w: a computer plays "
                     "for {name} until they say something).")
        else:
            said = _("{name} has said nothing on their turn (w: a computer plays for {name} "
                     "until they say something).")
        self.log_line(line("info", said.format(name=name, silent=f"{silent:g}" if isinstance(silent, (int, float)) else "")))

    def on_timed_out(self, m: dict[str, Any]) -> None:
        who = self.seat_name(m.get("seat"))
        self.log_line(line("info", _("{name} ran out of time; a move was made for them.").format(
            name=who)))


def _player(m: dict[str, Any]) -> str:
    """The name a message gives, or "A player" in words when it gives none."""
    return m["name"] if "name" in m else _("A player")


__all__ = ["TableNews"]
