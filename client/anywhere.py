"""The keys that belong to no one screen: the help, chat, the language, quitting.

:class:`Anywhere` declares them as a screen declares its own (:mod:`noddy.client.keymap`), so
the help and the list of requests the client sends read them the same way; what they do is
the application's (the chat line, the help box, the quit question), which it gives as a
:class:`Desk`.  The keys that take the keyboard while a line or a box is open (the chat line,
the password, the quit question, the help itself) are the application's own
(:mod:`noddy.client.bindings`): they are no screen's.
"""

from __future__ import annotations

from typing import Protocol

from noddy.protocol.i18n import N_

from .keymap import Screen, key


class Desk(Protocol):
    """What the keys of :class:`Anywhere` do to the application."""

    def form_open(self) -> bool:
        """The new-table form is open: q and c are its own, and typing may be on."""

    def typing(self) -> bool:
        """A text line of the form is current: ? types."""

    def open_help(self) -> None: ...

    def open_chat(self, tell_chosen: bool) -> None:
        """The chat line; ``tell_chosen``: start it with ``/tell`` the person chosen."""

    def ask_to_quit(self) -> None: ...

    def switch_language(self) -> None:
        """The next language the client speaks (English, Deutsch, Español, and round)."""


class Anywhere(Screen):
    """Help, chat and quit, on every screen (module docstring)."""

    title = N_("Anywhere")

    def __init__(self, desk: Desk) -> None:
        self.desk = desk

    def is_up(self) -> bool:
        return True

    @key("?", help=N_("this help"), when=lambda self: not self.desk.typing(), flush=False)
    def _help(self, pressed: str) -> None:
        self.desk.open_help()

    @key("c", "t", label=N_("c or t"),
         help=N_("chat; /tell NAME …, /w … (watchers), /invite NAME, /mute NAME, /muted"),
         sends=("chat", "tell", "invite", "mute", "unmute", "muted"),
         when=lambda self: not self.desk.form_open(), flush=False)
    def _chat(self, pressed: str) -> None:
        self.desk.open_chat(tell_chosen=pressed == "t")

    @key("L", help=N_("language: English, Deutsch, Español (in turn)"), sends="language",
         when=lambda self: not self.desk.form_open())
    def _language(self, pressed: str) -> None:
        self.desk.switch_language()

    @key("q", help=N_("quit (in a game the seat is held a while: start again to resume)"),
         sends="bye", when=lambda self: not self.desk.form_open(), flush=False)
    def _quit(self, pressed: str) -> None:
        self.desk.ask_to_quit()


#: Keys the application binds itself, declared here only for the help.
QUIT_AT_ONCE = ("Ctrl-Q", N_("quit at once"))

__all__ = ["Anywhere", "Desk", "QUIT_AT_ONCE"]
