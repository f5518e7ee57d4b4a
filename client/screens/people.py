"""Who is online, and challenges, in the terminal client (issue 25).

:class:`PeopleView` sits beside the :class:`~noddy.client.model.ViewModel` as the records'
view does: it holds the list the server's ``who`` gave (``o`` in the lobby opens it), the
cursor on it, the preset a challenge asks for, the people-only toggle (``p``: bots left out,
here and in the lobby's list of tables), and the challenges sent to us that wait for an
answer (an invitation to a table, issue 26, is one of them: the same push, the same keys).
``t`` on a person starts a chat line that tells them (``/tell NAME ``).  A challenge that
comes in is said on the status line with its one-key answer,
``a`` to accept (and be ready at once) or ``d`` to decline, in the lobby and in this list;
``Enter`` on a person challenges them.  Once a challenge is accepted, the server's ``table``
message that carries our seat takes us to the table (:meth:`ViewModel._on_table`).

The rest of this module draws the screen and binds its keys; :mod:`noddy.client.app` adds
them with :func:`build_layout`; its keys are declared with it (:mod:`noddy.client.keymap`).
"""

from __future__ import annotations

from typing import Any, Callable

from prompt_toolkit.data_structures import Point
from prompt_toolkit.filters import Condition
from prompt_toolkit.layout import ConditionalContainer, HSplit, Window
from prompt_toolkit.layout.containers import Container
from prompt_toolkit.layout.controls import FormattedTextControl

from noddy.protocol.i18n import N_, _

from .. import render
from ..keymap import Screen, key
from ..model import LOBBY, ViewModel
from .windows import said_keys, status_height

PEOPLE = "people"

Fragments = list[tuple[str, str]]


class PeopleView(Screen):
    """Who is online, the challenge to send, the challenges to answer (module docstring)."""

    title = N_("Who is on")

    def __init__(self, model: ViewModel) -> None:
        self.model = model
        self.people: list[dict[str, Any]] | None = None  # None: asked for, not yet here
        self.cursor = 0
        self.preset_index = 0
        #: Challenges sent to us, oldest first, each waiting for a (one-key) answer.
        self.incoming: list[dict[str, Any]] = []
        #: The challenges and invitations we sent that are still open, by id.
        self.outgoing: dict[int, dict[str, Any]] = {}
        self._asked: dict[int, str] = {}

    @property
    def active(self) -> bool:
        return self.model.session.screen == PEOPLE

    @property
    def people_only(self) -> bool:
        return self.model.lobby.people_only

    def preset(self) -> str:
        names = [p.get("name") for p in self.model.session.presets if p.get("name")] or ["noddy"]
        return str(names[self.preset_index % len(names)])

    def _ask(self, kind: str, **fields: Any) -> None:
        self._asked[self.model.session.send(kind, **fields)] = kind

    # -- keys ---------------------------------------------------------------------------
    def open(self) -> None:
        """o in the lobby: who is online."""
        self.model.session.clear_status()
        self.model.session.screen = PEOPLE
        self.refresh()

    def refresh(self) -> None:
        self.people = None
        self._ask("who", people_only=self.people_only)

    def toggle_people_only(self) -> None:
        """p: people only, in the lobby's tables (none where a computer player or a bot
        sits), this list and the ratings (no bots); p again: everyone.  The status line says
        exactly what it hides, and the lobby shows it is on until it is turned off."""
        lobby = self.model.lobby
        lobby.people_only = not lobby.people_only
        lobby.clamp_cursor()
        if lobby.people_only:
            self.model.session.set_status(_(
                "People only: the tables where a computer player or a bot sits are hidden "
                "({n} now), and bots are left out of who is on and the "
                "ratings. p again shows everyone.").format(n=lobby.hidden_tables()))
        else:
            self.model.session.set_status(_("Showing everyone: people, computer players and bots."))
        if self.active:
            self.refresh()

    def move(self, delta: int) -> None:
        if self.people:
            self.cursor = (self.cursor + delta) % len(self.people)

    def other_preset(self, delta: int) -> None:
        self.preset_index += delta

    def selected(self) -> dict[str, Any] | None:
        return self.people[self.cursor] if self.people else None

    def challenge_selected(self) -> None:
        """Enter: challenge the person under the cursor to a game of the preset shown."""
        person = self.selected()
        if person is None:
            return
        if person.get("name") == self.model.session.name:
            self.model.session.set_status(_("That is you: choose someone else."), error=True)
            return
        self._ask("challenge", name=person["name"], preset=self.preset())

    def answer(self, accept: bool) -> None:
        """a / d: accept (ready at once) or decline the oldest challenge waiting."""
        if not self.incoming:
            return
        challenge = self.incoming.pop(0)
        invited = challenge.get("table") is not None
        if accept:
            self._ask("accept", challenge=challenge["id"], ready=True)
            said = (_("Accepted {name}'s invitation; the table follows…") if invited
                    else _("Accepted {name}'s challenge; the table follows…"))
            self.model.session.set_status(said.format(name=challenge['from']), until_game=True)
        else:
            self._ask("decline", challenge=challenge["id"])
            said = _("Declined {name}'s invitation.") if invited else _("Declined {name}'s challenge.")
            self.model.session.set_status(said.format(name=challenge['from']))
        self._say_next()

    def back(self) -> None:
        self.model.session.clear_status()
        self.model.session.screen = LOBBY
        self._say_next()

    # -- messages -----------------------------------------------------------------------
    # == keys ============================================================================
    def is_up(self) -> bool:
        return self.active or self.model.lobby.is_up()

    @key("o", help=N_("who is on (Enter challenges the one chosen)"), sends="who",
         when=lambda self: not self.active)
    def _open(self, pressed: str) -> None:
        self.open()

    @key("p", help=N_("people only: hide the tables where a computer or a bot sits, and bots (p again: everyone)"), sends="who")
    def _people_only(self, pressed: str) -> None:
        self.toggle_people_only()

    @key("a", help=N_("accept the challenge waiting"), sends="accept",
         when=lambda self: bool(self.incoming))
    def _accept(self, pressed: str) -> None:
        self.answer(True)

    @key("d", help=N_("decline it"), sends="decline", when=lambda self: bool(self.incoming))
    def _decline(self, pressed: str) -> None:
        self.answer(False)

    @key("up", "k", label="↑ ↓", help=N_("choose a person"), flush=False, when=lambda self: self.active)
    def _up(self, pressed: str) -> None:
        self.move(-1)

    @key("down", "j", help="", flush=False, when=lambda self: self.active)
    def _down(self, pressed: str) -> None:
        self.move(1)

    @key("left", "right", label="← →", help=N_("the game to challenge to"), flush=False,
         when=lambda self: self.active)
    def _preset(self, pressed: str) -> None:
        self.other_preset(-1 if pressed == "left" else 1)

    @key("enter", help=N_("challenge the one chosen"), sends="challenge", when=lambda self: self.active)
    def _challenge(self, pressed: str) -> None:
        self.challenge_selected()

    @key("r", help=N_("refresh the list"), sends="who", when=lambda self: self.active)
    def _refresh(self, pressed: str) -> None:
        self.refresh()

    @key("escape", "backspace", label=N_("Esc"), help=N_("back to the lobby"), eager=True,
         when=lambda self: self.active)
    def _back(self, pressed: str) -> None:
        self.back()

    def handle(self, message: dict[str, Any]) -> None:
        """A message from the server (the application passes every one)."""
        kind = message.get("type")
        if kind == "challenged":
            self.incoming.append(message["challenge"])
            self._say_next()
            return
        if kind == "challenge_over":
            self.incoming = [c for c in self.incoming if c.get("id") != message.get("challenge")]
            sent = self.outgoing.pop(message.get("challenge"), None)  # type: ignore[arg-type]
            if message.get("reason") == "accepted":
                self.model.session.set_status(self._accepted_words(message, sent), until_game=True)
            else:
                self.model.session.set_status(_("Challenge {id} is over: {why}.").format(
                    id=message.get('challenge'), why=message.get('message')))
            return
        if kind == "challenge":     # ours, sent (an invitation is sent as a chat line's /invite)
            self._sent(message["challenge"])
        request_id = message.get("id")
        asked = self._asked.pop(request_id, None) if isinstance(request_id, int) else None
        if asked == "who" and kind == "who":
            self.people = list(message.get("people") or [])
            self.cursor = max(0, min(self.cursor, len(self.people) - 1))
        elif asked == "who" and kind == "error":
            self.people = []

    def _sent(self, challenge: dict[str, Any]) -> None:
        """Our challenge or invitation is out: kept until it is over, and said."""
        if isinstance(challenge.get("id"), int):
            self.outgoing[challenge["id"]] = challenge
        if challenge.get("table") is not None:
            self.model.session.set_status(_("Invited {name} to table {table}; it lasts {seconds} s.").format(
                name=challenge['to'], table=challenge['table'], seconds=challenge['expires_in']))
        else:
            self.model.session.set_status(_("Challenge sent to {name} ({preset}); it lasts {seconds} s.").format(
                name=challenge['to'], preset=challenge['preset'], seconds=challenge['expires_in']))

    @staticmethod
    def _accepted_words(message: dict[str, Any], sent: dict[str, Any] | None) -> str:
        """What an accepted challenge or invitation of ours means for us, in words (the
        server's "ben accepted challenge 1" was followed by an odd ": to the table.")."""
        if sent is None:
            return f"{message.get('message')}."
        if sent.get("table") is not None:
            return _("{name} accepted your invitation to table {table}.").format(
                name=sent['to'], table=sent['table'])
        return _("{name} accepted your challenge: your game is at a new table.").format(name=sent['to'])

    def _say_next(self) -> None:
        """The oldest challenge waiting, on the status line with its keys."""
        words = self.waiting_words()
        if words is not None and self.model.game.table_id is None:
            self.model.session.set_status(words)

    def waiting_words(self) -> str | None:
        """The oldest challenge or invitation waiting, with its keys (None: none waits).

        The lobby shows it on a line of its own until it is answered, withdrawn or expired,
        whatever the status line says meanwhile: said only on the status line, an invitation
        that came to My games was gone once Esc cleared it (issue 33, item 3)."""
        if not self.incoming:
            return None
        challenge = self.incoming[0]
        who = challenge["from"] + (_(" (bot)") if challenge.get("from_bot") else "")
        options = ", ".join(f"{k} {v}" for k, v in (challenge.get("options") or {}).items())
        game = challenge["preset"] + (f" ({options})" if options else "")
        more = len(self.incoming) - 1
        after = " " + _("({n} more waiting)").format(n=more) if more else ""
        if challenge.get("table") is not None:
            private = ", " + _("private") if challenge.get("private") else ""
            return _("{who} invites you to table {table} ({game}): a accept · d decline").format(
                who=who, table=challenge['table'], game=game + private) + after
        return _("{who} challenges you to {game}: a accept · d decline").format(who=who, game=game) + after

    # -- what the screen shows -------------------------------------------------------------
    def person_line(self, person: dict[str, Any]) -> str:
        name = person["name"] + (_(" (bot)") if person.get("bot") else "")
        where = person.get("where")
        if where == "lobby":
            place = _("lobby")
        elif where == "watching":
            place = _("watching table {table}").format(table=person.get('table'))
        else:
            place = _("table {table}, seat {seat}").format(table=person.get('table'),
                                                          seat=int(person.get('seat') or 0) + 1)
        extra = []
        if person.get("away"):
            extra.append(_("away"))
        elif isinstance(person.get("idle"), int) and person["idle"] >= 60:
            extra.append(_("idle {minutes} min").format(minutes=person['idle'] // 60))
        seek = person.get("seeking")
        if seek:
            extra.append(_("seeking {preset}").format(preset=seek.get('preset')))
        return f"{name:<26} {place}" + (f"  ({', '.join(extra)})" if extra else "")


def people_fragments(view: PeopleView, width: int | None = None) -> Fragments:
    who = _("people only") if view.people_only else _("people and bots")
    out: Fragments = [("class:label", " " + _("Online · {who}").format(who=who)),
                      ("class:dim", "   " + _("Enter challenges to") + " "), ("class:key", f"‹ {view.preset()} ›"),
                      ("", "\n")]
    if view.people is None:
        return out + [("class:dim", "   " + _("Asking the server…") + "\n")]
    if not view.people:
        return out + [("class:dim", "   " + _("Nobody else is online.") + "\n")]
    return out + render.cursor_list([view.person_line(p) for p in view.people], view.cursor, width)


def keys_fragments(view: PeopleView, width: int = 80) -> Fragments:
    """The key hints, whole ones left out where the screen is narrow (never Esc)."""
    keys = [("↑↓", N_("choose")), ("←→", N_("game")), ("↵", N_("challenge")), ("t", N_("tell")),
            ("p", N_("people only")), ("r", N_("refresh")), (N_("Esc"), N_("lobby"))]
    if view.incoming:
        keys = [("a", N_("accept")), ("d", N_("decline"))] + keys
    return render.key_hints(render.fit_keys(said_keys(keys), width - render.EDGE))


def build_layout(view: PeopleView, width: Callable[[], int]) -> Container:
    return ConditionalContainer(HSplit([
        Window(FormattedTextControl(lambda: people_fragments(view, width()), focusable=False,
                                    get_cursor_position=lambda: Point(0, view.cursor + 1)),
               always_hide_cursor=True),
        # The status wraps rather than running off the edge (a challenge's words are long).
        Window(FormattedTextControl(lambda: render.status_line(view.model, [("", "")], width()),
                                    focusable=False), height=status_height, wrap_lines=True),
    ]), filter=Condition(lambda: view.active))


__all__ = ["PeopleView", "PEOPLE", "build_layout", "keys_fragments", "people_fragments"]
