"""The connection and the session: who we are to the server, and how requests reach it.

:class:`Session` owns what every screen shares: the state of the link (``connection``,
``connection_detail``), the ``hello``/``welcome`` exchange (the name, the resume token, the
server's presets, table options and computer levels, the grace period), the name line shown
when the server refuses a name, the one-line status under the screen, which screen is up
(``screen``), and the outbox.  Nothing here does I/O: :meth:`Session.send` appends a request
with a fresh ``id`` to :attr:`Session.outbox` and remembers it, so that the reply (which
echoes the id) can be matched to its request by :meth:`Session.take_request`; the
application drains the outbox and writes it to the connection.

The other screens' models (:mod:`~noddy.client.screens.lobby`,
:mod:`~noddy.client.screens.form`, :mod:`~noddy.client.screens.game`,
:mod:`~noddy.client.screens.table`) hold a reference to the one session and call ``send`` and
``set_status`` on it; :class:`~noddy.client.model.ViewModel` composes
them and routes the server's messages.
"""

from __future__ import annotations

from typing import Any

from noddy.protocol import PROTOCOL_VERSION, REQUESTS, FieldSpec
from noddy.protocol.i18n import (DEFAULT_LANGUAGE, LANGUAGES, N_, Phrase, _, current_language, say,
                                 set_language)

LOBBY = "lobby"
TABLE = "table"
CONNECTING = "connecting"

#: What a request before the server's welcome gets instead of being sent (the server would
#: answer ``hello_required``, which is no word for a person).  A Phrase: whoever sets it as
#: the status, it is said in the language of the moment (:meth:`Session.set_status`).
NOT_CONNECTED = Phrase("Not connected yet: wait a moment (q quits).")


def request_field(kind: str, name: str) -> FieldSpec:
    """The protocol's schema of one field of a request: its limits are the client's too."""
    return next(spec for spec in REQUESTS[kind] if spec.name == name)


#: Used when the server's welcome lists no presets (an older server): the common ones.
FALLBACK_PRESETS: list[dict[str, Any]] = [
    {"name": "noddy", "title": "Noddy", "players": [2], "partnership_players": [4],
     "options": {"target": {"type": "int", "min": 15, "max": 500, "default": 31},
                 "knave_noddy": {"type": "bool", "default": True}}},
]
#: What the chat line takes besides chat (see :meth:`Session.chat`).
SLASH_COMMANDS = N_("/tell NAME text, /w text (watchers), /invite NAME, /mute NAME, /unmute NAME or /muted")
#: The longest chat line the protocol accepts.
CHAT_LIMIT = request_field("chat", "text").max_length
#: The longest name a ``hello`` may give.
NAME_LIMIT = request_field("hello", "name").max_length


class Session:
    """The link, the name and token, the status line and the outbox (module docstring)."""

    def __init__(self, name: str = "player") -> None:
        self.name = name
        self.screen = CONNECTING
        self.connection = "connecting"   # connecting | online | reconnecting | offline
        self.connection_detail = ""
        #: The connection is down because the server cannot be reached at all (the detail
        #: says why, a whole sentence), not lost after it was made (set by the application).
        self.unreachable = False
        self.token: str | None = None
        self.server = ""
        self.presets: list[dict[str, Any]] = []
        #: The server's own table options, as its welcome declares them (None: it declares
        #: none, an older server; the create-table form then offers what it always did).
        self.table_options: dict[str, dict[str, Any]] | None = None
        self.levels: list[str] = []
        self.default_level: str | None = None
        #: The level of the next computer player added at the table (v cycles it) or by
        #: the create-table form.
        self.computer_level: str | None = None
        #: Whether the server welcomed us into an account (None: not said, an older server).
        self.registered: bool | None = None
        #: The last hello carried a password (the password itself is never kept).
        self.sent_password = False
        #: Set (to why) while another name is asked for: the server refused this one.
        self.name_prompt: str | None = None
        #: The name the last hello asked for (the resume token is kept under it).
        self.requested_name = name
        #: The server has welcomed this connection: requests may be sent.
        self.welcomed = False
        #: How many welcomes this client has had (0: not yet connected since it started).
        self.welcomes = 0
        #: How long the server holds a dropped player's seat (its welcome says).
        self.grace: float | None = None
        #: How much longer the server holds a seat between two games of a match, past the
        #: grace (its welcome's ``limits.keep_away``; None: an older server that does not say).
        self.keep_away: float | None = None
        self.status = ""          # the one-line message under the board (errors, hints)
        self.status_is_error = False
        #: The status is news that lasts until a game starts (a challenge accepted: it said so
        #: all through the game, issue 33, item 15).
        self.status_until_game = False
        self.outbox: list[dict[str, Any]] = []
        self._next_id = 1
        self._pending: dict[int, dict[str, Any]] = {}

    # == requests ========================================================================
    def send(self, kind: str, **fields: Any) -> int:
        """Queue a request; returns its id (0: not sent, there is no welcomed connection)."""
        if not self.welcomed:
            self.set_status(NOT_CONNECTED, error=True)
            return 0
        request_id = self._next_id
        self._next_id += 1
        message = {"type": kind, **fields, "id": request_id}
        self._pending[request_id] = message
        self.outbox.append(message)
        return request_id

    def take_outbox(self) -> list[dict[str, Any]]:
        out, self.outbox = self.outbox, []
        return out

    def take_request(self, message: dict[str, Any]) -> dict[str, Any] | None:
        """The request a reply answers (its ``id`` echoed), forgotten now it is answered."""
        request_id = message.get("id")
        return self._pending.pop(request_id, None) if isinstance(request_id, int) else None

    def awaits(self, kind: str) -> bool:
        """A request of this kind has been sent and not yet answered."""
        return any(p["type"] == kind for p in self._pending.values())

    def hello(self, password: str | None = None) -> dict[str, Any]:
        """The hello for a new connection: with the resume token when we hold a seat, and
        a registered name's ``password`` when the person has just typed it (it is not kept)."""
        message: dict[str, Any] = {"type": "hello", "name": self.name, "version": PROTOCOL_VERSION}
        language = current_language()
        if language != DEFAULT_LANGUAGE:  # (English: the hello as it always was)
            message["language"] = language
        self.requested_name = self.name
        if self.token is not None:
            message["resume"] = self.token
        if password is not None:
            message["password"] = password
        self.sent_password = password is not None
        return message

    def say_hello(self, password: str | None = None) -> None:
        """Queue the hello (it goes out before any welcome, so not through :meth:`send`)."""
        self.outbox.append(self.hello(password))

    # == the status line =================================================================
    def set_status(self, text: str, error: bool = False, until_game: bool = False) -> None:
        """Say ``text`` under the screen (red when ``error``); ``until_game``: only until a
        game starts or we make a move (:meth:`game_moved_on`): news stale once play begins.
        A :class:`~noddy.protocol.i18n.Phrase` (:data:`NOT_CONNECTED`) is said in the language
        of the moment; any other text was said already by whoever made it."""
        self.status = say(text)
        self.status_is_error = error
        self.status_until_game = until_game

    def clear_status(self) -> None:
        self.set_status("")

    def game_moved_on(self) -> None:
        """A game began at our table, or we made a move: news meant only until then goes."""
        if self.status_until_game:
            self.clear_status()

    # == the connection ==================================================================
    def connection_up(self) -> None:
        self.connection = "online"
        self.connection_detail = ""
        self.welcomed = False
        if self.status == say(NOT_CONNECTED):
            self.clear_status()
        self.say_hello()

    def connection_lost(self, detail: str) -> None:
        self.connection = "reconnecting"
        self.connection_detail = detail
        self.welcomed = False
        self._pending.clear()
        self.outbox.clear()

    def connection_failed(self, detail: str) -> None:
        self.connection = "offline"
        self.connection_detail = detail

    def connection_words(self) -> str:
        """The connection is down: what happened, in words, and the two ways on."""
        detail = self.connection_detail
        if self.unreachable or detail.startswith("cannot reach"):  # (said in English: the tests' way in)
            said = detail[:1].upper() + detail[1:]
        elif detail:
            said = _("Connection lost ({detail}); reconnecting by itself").format(detail=detail)
        else:
            said = _("Connection lost; reconnecting by itself")
        return _("{said}. r tries now, q quits.").format(said=said)

    # == messages about the session ======================================================
    def on_greeting(self, m: dict[str, Any]) -> None:
        self.server = str(m.get("server", ""))

    def on_welcome(self, m: dict[str, Any]) -> None:
        """Take what the welcome says about us and the server (the caller places us)."""
        self.welcomed = True
        self.welcomes += 1
        self.name_prompt = None
        if self.status == say(NOT_CONNECTED):
            self.clear_status()
        limits = m.get("limits") or {}
        if isinstance(limits.get("grace_period"), (int, float)):
            self.grace = float(limits["grace_period"])
        if isinstance(limits.get("keep_away"), (int, float)):
            self.keep_away = float(limits["keep_away"])
        self.name = m.get("name", self.name)
        self.token = m.get("token")
        registered = m.get("registered")
        self.registered = registered if isinstance(registered, bool) else None
        self.server = m.get("server", self.server)
        self.presets = list(m.get("presets") or FALLBACK_PRESETS)
        declared = m.get("table_options")
        self.table_options = ({str(name): dict(spec) for name, spec in declared.items()
                               if isinstance(spec, dict)}
                              if isinstance(declared, dict) else None)
        self.levels = list(m.get("levels") or [])
        self.default_level = m.get("default_level")
        if self.computer_level not in self.levels:
            self.computer_level = (self.default_level if self.default_level in self.levels
                                   else (self.levels[0] if self.levels else None))


    def preset_target(self, name: str | None) -> int | None:
        """A preset's default target as the server's welcome describes it (None: unknown)."""
        for preset in self.presets:
            if preset.get("name") == name:
                default = ((preset.get("options") or {}).get("target") or {}).get("default")
                if isinstance(default, int):
                    return default
        return None
    def on_name_refused(self, m: dict[str, Any]) -> None:
        """The hello was refused for its name: ask for another here, not on the command line."""
        code = m.get("code", "")
        if code == "name_taken":
            self.name_prompt = _("The name {name!r} is taken. Type another name and press "
                                 "Enter (Ctrl-Q quits).").format(name=self.name)
        else:
            self.name_prompt = _("The name {name!r} cannot be used: {why}. Type another name and "
                                 "press Enter (Ctrl-Q quits).").format(name=self.name,
                                                                       why=m.get("message", ""))
        self.set_status(self.name_prompt, error=True)

    def on_shutdown(self, m: dict[str, Any]) -> None:
        self.set_status(m.get("message") or _("the server is shutting down"), error=True)

    def on_bye(self, m: dict[str, Any]) -> None:
        if m.get("reason") and m.get("reason") != "goodbye":
            self.set_status(_("The server said goodbye: {reason}").format(reason=m["reason"]), error=True)

    # == keys ============================================================================
    def switch_language(self) -> str:
        """L: the next language the client speaks (English, Deutsch, Español, and round),
        from now on; the server is asked for it too (a connection not welcomed yet asks in
        its hello).  Gives the language's code."""
        codes = list(LANGUAGES)
        current = current_language()
        language = codes[(codes.index(current) + 1) % len(codes)] if current in codes else DEFAULT_LANGUAGE
        set_language(language)
        if self.welcomed:
            self.send("language", language=language)
        self.set_status(_("Language: {language}.").format(language=LANGUAGES[language]))
        return language

    def submit_name(self, text: str) -> None:
        """Enter on the name line: say hello again under the name typed."""
        name = " ".join(text.split())
        if not name:
            self.set_status(_("Type a name first (Ctrl-Q quits)."), error=True)
            return
        self.name = name[:NAME_LIMIT]
        self.name_prompt = None
        self.token = None
        self.clear_status()
        self.say_hello()

    def chat(self, text: str, at_table: bool) -> None:
        """Say something to the table (when at one) or to the lobby; a line that starts with
        a slash command talks another way (:data:`SLASH_COMMANDS`): ``/tell NAME text``,
        ``/w text`` (to the watchers), ``/invite NAME``, ``/mute NAME``, ``/unmute NAME``."""
        text = text.strip()
        if text.startswith("/"):
            self._slash(text)
        elif text:
            self.send("chat", text=text[:CHAT_LIMIT], to="table" if at_table else "lobby")

    def _slash(self, text: str) -> None:
        verb, _sep, rest = text[1:].partition(" ")
        name, _sep, said = rest.strip().partition(" ")
        verb = verb.lower()
        if verb in ("tell", "t", "msg") and name and said.strip():
            self.send("tell", name=name, text=said.strip()[:CHAT_LIMIT])
        elif verb in ("w", "whisper") and rest.strip():
            self.send("chat", text=rest.strip()[:CHAT_LIMIT], to="watchers")
        elif verb in ("invite", "mute", "unmute") and name and not said:
            self.send(verb, name=name)
        elif verb == "muted" and not rest.strip():
            self.send("muted")
        else:
            self.set_status(_("Write {commands}.").format(commands=_(SLASH_COMMANDS)), error=True)


__all__ = ["Session", "LOBBY", "TABLE", "CONNECTING", "NOT_CONNECTED", "request_field",
           "CHAT_LIMIT", "NAME_LIMIT", "FALLBACK_PRESETS"]
