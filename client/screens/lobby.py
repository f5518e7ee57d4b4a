"""The lobby: the list of tables, sitting down or watching, and the password of a private table.

:class:`Lobby` owns the tables the server has described (``tables``, from ``tables``,
``table`` and ``table_closed`` messages), the cursor on their list, the lobby's chat, and the
password prompt of a private table (:class:`PasswordPrompt`, opened again by a
``wrong_password`` error).  Its keys (``lobby_move``, ``sit``, ``spectate``,
``submit_password``, ``cancel_password``) only queue requests on the
:class:`~noddy.client.session.Session`; the ``table`` reply that seats us is handled by
:class:`~noddy.client.model.ViewModel`, which moves us to the table screen.  Its windows are
:class:`~noddy.client.screens.lobby_layout.LobbyLayout`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from noddy.protocol.i18n import N_, _

from ..keymap import Screen, key
from ..lines import LOG_LIMIT, LogLine
from ..session import CONNECTING, LOBBY, Session, request_field

#: The parts of a lobby row that give way on a narrow screen (:meth:`Lobby.table_line`).
ROW_PARTS = 7
#: The longest table password the protocol accepts (``password`` of create_table/sit).
PASSWORD_LIMIT = request_field("sit", "password").max_length
#: A table's status as a lobby row says it (the wire's word, for one the client does not know).
STATUS_WORDS = {"waiting": N_("waiting"), "playing": N_("playing"), "finished": N_("finished")}


def status_word(status: str) -> str:
    """A table's ``status`` in the reader's language."""
    return _(STATUS_WORDS[status]) if status in STATUS_WORDS else status


@dataclass(frozen=True)
class PasswordPrompt:
    """A password is asked for: what to send once it is typed (and then forgotten: the
    client never keeps a password, only resume tokens).

    ``verb`` is ``sit`` or ``spectate`` (a private ``table``), ``join_event`` (a private club
    night: ``table`` holds the event's id), ``login`` (the server said the
    name is registered: the hello is said again with the password) or ``register`` (the
    person keeps their name: ``a`` in the lobby); ``seat`` is the seat asked for (sit only);
    ``retry`` says the last password was refused, so the screen can say so; ``first`` is,
    while registering, the password typed once, to be typed again (asked once, a typo locked
    the person out of their own name: issue 33, item 12).
    """

    table: int | None
    verb: str
    seat: int | None = None
    retry: bool = False
    first: str | None = field(default=None, repr=False)

    @property
    def confirming(self) -> bool:
        """The password is asked the second time (registering)."""
        return self.first is not None


def has_machine(summary: dict[str, Any]) -> bool:
    """A computer player or a bot sits at the table (what people only hides)."""
    return any(seat and (seat.get("bot") or seat.get("kind") == "computer")
               for seat in summary.get("seats", []))


def free_seats(summary: dict[str, Any]) -> list[int]:
    """The empty seats of a table summary, in order."""
    return [i for i, s in enumerate(summary.get("seats", [])) if s is None]


class Lobby(Screen):
    """The tables, the cursor on them, the lobby chat and the password line (module docstring)."""

    title = N_("In the lobby")

    def __init__(self, session: Session) -> None:
        self.session = session
        #: The new-table form: whether it is open (then its keys, not these, are live), and
        #: opening it (``n``); the composition gives them (:class:`~noddy.client.model.ViewModel`).
        self.form_open: Callable[[], bool] = lambda: False
        self.open_form: Callable[[], None] = lambda: None
        self.tables: dict[int, dict[str, Any]] = {}
        self.lobby_cursor = 0
        self.lobby_chat: list[LogLine] = []
        #: Set while the password of a private table is being asked for.
        self.password_prompt: PasswordPrompt | None = None
        #: People only (p): the tables where a computer player or a bot sits are left out of
        #: the list (and bots out of who is on and the ratings).
        self.people_only = False

    # == keys ============================================================================
    def is_up(self) -> bool:
        return self.session.screen in (LOBBY, CONNECTING) and not self.form_open()

    @key("up", "k", label="↑ ↓", help=N_("choose a table"), flush=False)
    def _up(self, pressed: str) -> None:
        self.lobby_move(-1)

    @key("down", "j", help="", flush=False)
    def _down(self, pressed: str) -> None:
        self.lobby_move(1)

    @key("enter", "s", label=N_("Enter"), help=N_("sit (first free seat)"), sends=("sit", "spectate"))
    def _sit(self, pressed: str) -> None:
        self.session.clear_status()
        self.sit()

    @key("1", "2", "3", "4", label="1-4", help=N_("sit in that seat"), sends="sit")
    def _sit_in(self, pressed: str) -> None:
        self.session.clear_status()
        self.sit(int(pressed) - 1)

    @key("w", help=N_("watch"), sends="spectate")
    def _watch(self, pressed: str) -> None:
        self.session.clear_status()
        self.spectate()

    @key("n", help=N_("new table (a form)"), flush=False)
    def _new(self, pressed: str) -> None:
        self.session.clear_status()
        self.open_form()

    @key("a", help=N_("register your name"), sends="register",
         when=lambda self: self.session.registered is not True)  # (a guest's key: issue 33)
    def _register(self, pressed: str) -> None:
        self.session.clear_status()
        self.ask_to_register()

    @key("r", help=N_("refresh the list"), sends="list_tables")
    def _refresh(self, pressed: str) -> None:
        if self.session.connection != "online":
            if self.host is not None:
                self.host.retry_now()
            return
        self.session.send("list_tables")

    # == messages ========================================================================
    def on_tables(self, m: dict[str, Any]) -> None:
        self.tables = {t["id"]: t for t in m.get("tables", [])}
        self.clamp_cursor()

    def on_chat(self, line: LogLine) -> None:
        self.lobby_chat.append(line)
        del self.lobby_chat[:-LOG_LIMIT]

    def on_wrong_password(self, request: dict[str, Any]) -> None:
        """Ask again: a mistyped password should cost one more try, not a trip back."""
        self.password_prompt = PasswordPrompt(request["table"], request["type"],
                                              request.get("seat"), retry=True)
        self.session.set_status(_("Wrong password for table {table}: type it again, "
                                  "or Esc.").format(table=request['table']), error=True)

    def clamp_cursor(self) -> None:
        self.lobby_cursor = max(0, min(self.lobby_cursor, len(self.sorted_tables()) - 1))

    # == keys ============================================================================
    def lobby_move(self, delta: int) -> None:
        shown = len(self.sorted_tables())
        if shown:
            self.lobby_cursor = (self.lobby_cursor + delta) % shown

    def selected_table(self) -> dict[str, Any] | None:
        tables = self.sorted_tables()
        return tables[self.lobby_cursor] if tables else None

    def sit(self, seat: int | None = None) -> None:
        """Sit at the table under the cursor: in ``seat`` (0-based; the screen and the keys
        say 1, 2...), or in the first free one.  A private table asks for its password first."""
        status = self.session.set_status
        table = self.selected_table()
        if table is None:
            status(_("There is no table yet: n creates one."), error=True)
            return
        seats = table.get("seats", [])
        free = free_seats(table)
        if seat is None:
            if not free:
                status(_("Table {table} has no free seat; w watches it.").format(table=table['id']), error=True)
                return
            seat = free[0]
        elif not 0 <= seat < len(seats):
            status(_("Table {table} has seats 1 to {seats}.").format(table=table['id'], seats=len(seats)),
                   error=True)
            return
        elif seats[seat] is not None:
            status(_("{name} sits in seat {seat} of table {table}.").format(
                name=seats[seat].get('name') or _("Someone"), seat=seat + 1, table=table['id']),
                error=True)
            return
        if table.get("private"):
            self.password_prompt = PasswordPrompt(table["id"], "sit", seat)
            return
        self.session.send("sit", table=table["id"], seat=seat)

    def spectate(self) -> None:
        """Watch the table under the cursor (a private one asks for its password first)."""
        table = self.selected_table()
        if table is None:
            self.session.set_status(_("There is no table to watch."), error=True)
            return
        if table.get("private"):
            self.password_prompt = PasswordPrompt(table["id"], "spectate")
            return
        self.session.send("spectate", table=table["id"])

    def ask_account_password(self, code: str, message: str) -> None:
        """The server wants the name's password (``password_required``) or refused the one
        given (``bad_password``, ``too_many_attempts``): ask for it on the masked line."""
        self.password_prompt = PasswordPrompt(None, "login", retry=code != "password_required")
        if code == "password_required":
            said = _("{name} is a registered name: type its password, or Esc for another "
                     "name.").format(name=self.session.name)
        elif code == "bad_password":
            said = _("Wrong password for {name}: type it again, or Esc for another "
                     "name.").format(name=self.session.name)
        else:
            said = _("{message}; then type the password, or Esc.").format(
                message=f"{message[:1].upper()}{message[1:]}")
        self.session.set_status(said, error=True)

    def ask_to_register(self) -> None:
        """``a`` in the lobby: keep this name for good, with a password (asked masked)."""
        if self.session.registered:
            self.session.set_status(_("You are registered as {name}: the name is yours.").format(
                name=self.session.name))
            return
        self.password_prompt = PasswordPrompt(None, "register")
        self.session.set_status(_("Register {name}: choose a password (4 or more characters; "
                                  "it is asked when you come back). Esc cancels.").format(
                                      name=self.session.name))

    def submit_password(self, password: str) -> None:
        """Enter on the password line: send the sit, spectate, hello or register it was
        asked for."""
        prompt = self.password_prompt
        if prompt is None:
            return
        if prompt.table is None:
            if not password:
                self.session.set_status(_("Type the password first, or Esc."), error=True)
                return
            if prompt.verb == "register" and not self._confirmed(prompt, password):
                return
            self.password_prompt = None
            self.session.clear_status()
            if prompt.verb == "login":
                self.session.say_hello(password[:PASSWORD_LIMIT])
            else:
                self.session.send("register", password=password[:PASSWORD_LIMIT])
            return
        if prompt.verb == "join_event":  # a private club night (the events screen's j)
            if not password:
                self.session.set_status(_("Club night {event} is private: type its "
                                          "password, or Esc.").format(event=prompt.table), error=True)
                return
            self.password_prompt = None
            self.session.clear_status()
            self.session.send("join_event", event=prompt.table, password=password[:PASSWORD_LIMIT])
            return
        if not password:
            self.session.set_status(_("Table {table} is private: type its password, "
                                      "or Esc.").format(table=prompt.table), error=True)
            return
        self.password_prompt = None
        self.session.clear_status()
        fields: dict[str, Any] = {"table": prompt.table, "password": password[:PASSWORD_LIMIT]}
        if prompt.verb == "sit":
            fields["seat"] = prompt.seat
        self.session.send(prompt.verb, **fields)

    def _confirmed(self, prompt: PasswordPrompt, password: str) -> bool:
        """Registering: the first typing is asked again; the second must match it, else
        nothing is sent and the password is chosen afresh."""
        if prompt.first is None:
            self.password_prompt = PasswordPrompt(None, "register", first=password)
            self.session.set_status(_("Type the same password again to be sure of it (Esc cancels)."))
            return False
        if password != prompt.first:
            self.password_prompt = PasswordPrompt(None, "register")
            self.session.set_status(_("The two passwords differ, so nothing was sent: choose a "
                                      "password again (Esc cancels)."), error=True)
            return False
        return True

    def cancel_password(self) -> None:
        prompt, self.password_prompt = self.password_prompt, None
        self.session.clear_status()
        if prompt is not None and prompt.verb == "login":  # not this name, then: another
            self.session.on_name_refused({"code": "name_taken"})

    # == what the screen shows ===========================================================
    def table_line(self, summary: dict[str, Any], dropped: int = 0) -> str:
        """One row of the lobby's table list, in plain text: each seated player with their
        rating in the table's family (docs/PROTOCOL.md "Ratings") when the server gives it.

        ``dropped``: how many of the least important parts to leave out, for a narrow screen
        (up to :data:`ROW_PARTS`): the watchers, whether it is rated, the columns' padding,
        the timer and the options' words, the seats' ratings, computer players' names said
        short ("greedy cpu 2"), the "(guest)" marks; never
        the target, a match, "private", who sits or is away (a row cut at the edge read
        ``cy (1500) (aw…``: issue 33, item 8)."""
        options = summary.get("options") or {}
        # Always the target, the preset's default too: a row that said nothing of it left a
        # cribbage table to be guessed at 31 (issue 27, item 1).
        target = options.get("target", self.session.preset_target(summary.get("preset")))
        seats = []
        for seat in summary.get("seats", []):
            if seat is None:
                seats.append(_("·free·"))
            else:
                mark = (_(" (bot)") if seat.get("bot") else "") + ("" if seat.get("connected", True) else _(" (away)"))
                mark += _(" (guest)") if seat.get("guest") and dropped < 7 else ""
                # A guest's games are not rated: a "(1500)" beside them said otherwise (and
                # pushed the row's target and match past 80 columns).
                rated = isinstance(seat.get("rating"), int) and not seat.get("guest") and dropped < 5
                rating = f" ({seat['rating']})" if rated else ""
                name = seat["name"] if dropped < 6 or seat.get("kind") != "computer" else \
                    seat["name"].replace(" computer ", " cpu ")  # (as the peg board says it)
                seats.append(f"{name}{rating}{mark}")
        who = (_("{n}p pairs") if summary.get("partnerships") else _("{n}p")).format(n=summary['players'])
        extra = []
        if target is not None:
            extra.append(_("to {target}").format(target=target))
        if options.get("match"):  # a match table, with its running score once it has begun
            match = summary.get("match") or {}
            points = "-".join(str(p) for p in match.get("points") or []) + " " if match else ""
            extra.append(_("match {points}to {match}").format(points=points, match=options['match']))
        if dropped < 4:
            extra += [name for name, value in options.items() if name != "target" and value is True]
            extra += [_("no {option}").format(option=name) for name, value in options.items() if value is False]
            if summary.get("turn_timer"):
                extra.append(_("{seconds}s timer").format(seconds=f"{summary['turn_timer']:g}"))
        if summary.get("private"):
            extra.append(_("private"))
        if dropped < 2 and summary.get("rated") is False:
            extra.append(_("unrated"))
        elif dropped < 2 and summary.get("rated"):
            extra.append(_("rated"))
        watchers = len(summary.get("spectators", [])) if dropped < 1 else 0
        status = status_word(str(summary.get('status', '')))
        head = (f"#{summary['id']:<3} {summary['preset']:<18} {who:<8} {status:<9} " if dropped < 3
                else f"#{summary['id']} {summary['preset']} {who} {status}  ")
        return (head + f"{', '.join(seats)}" + (f"  [{'; '.join(extra)}]" if extra else "")
                + ("  " + _("{n} watching").format(n=watchers) if watchers else ""))

    def sorted_tables(self) -> list[dict[str, Any]]:
        """The tables listed, by number: people only (``p``) leaves out those where a computer
        player or a bot sits (computer players are not bots: their tables stayed listed,
        issue 33, item 13)."""
        tables = [self.tables[k] for k in sorted(self.tables)]
        if self.people_only:
            tables = [t for t in tables if not has_machine(t)]
        return tables

    def hidden_tables(self) -> int:
        """How many tables people only leaves out now (0 when it is off)."""
        return len(self.tables) - len(self.sorted_tables())


__all__ = ["Lobby", "PasswordPrompt", "free_seats", "has_machine", "PASSWORD_LIMIT"]
