"""How a screen declares its keys: each key once, beside what it does, with its help line.

A screen is an object (prompt_toolkit's full-screen examples): it holds its state and owns its
keys.  A key is a method of the screen marked with :func:`key`, which says which keys press it,
how the help writes them, the help's line, which protocol requests it may send and when it is
live (besides its screen being up).  From those marks, and nothing else:

* :func:`bind` adds the screen's keys to the application's :class:`KeyBindings`;
* :mod:`noddy.client.keys` writes the help and lists the requests the client can send.

So a new key is one edit: a method with its mark.

A key's method is called with the key pressed (``"1"``, ``"up"``), so that ``1-4`` is one
declaration.  What a screen needs of the application (retry the connection now, the log
window's height, a question asked before something that cannot be undone) it asks of its
:class:`Host`, which the application gives it when it binds the keys.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar, Protocol

from prompt_toolkit.filters import Condition, Filter
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

from noddy.protocol.i18n import N_, _


class Host(Protocol):
    """What a screen's keys may ask of the application."""

    def retry_now(self) -> None:
        """Try the connection again at once (r while it is down)."""

    def log_height(self) -> int:
        """Rows of the table's log window as last drawn (PgUp/PgDn go by it)."""

    def confirm(self, question: str, then: Callable[[], None]) -> None:
        """Ask ``question``; y calls ``then``, any other key forgets it."""


@dataclass(frozen=True)
class Key:
    """One key of a screen (module docstring)."""

    #: prompt_toolkit's names of the keys that press it (``"up"``, ``"k"``, ``"1"``).
    keys: tuple[str, ...]
    #: What it does, as the help says it (marked ``N_`` where it is written; the help says it
    #: with ``_`` when it is shown, in the language of the moment).
    help: str
    #: The keys as the help writes them (``"↑ ↓"``, ``"1-4"``).
    label: str
    #: The protocol requests it may send (``docs/PROTOCOL.md``'s ``type``).
    sends: tuple[str, ...] = ()
    #: When it is live, besides the screen being up (None: always).
    when: Callable[[Any], bool] | None = None
    eager: bool = False
    #: After it: write the queued requests and redraw at once.
    flush: bool = True
    #: The method of the screen it calls (set by :func:`key`).
    method: str = ""


#: How the help writes a key prompt_toolkit names (the words are said in the reader's
#: language at display: :func:`said_label`).
_SHOWN = {"up": "↑", "down": "↓", "left": "←", "right": "→", "enter": N_("Enter"), "escape": N_("Esc"),
          "pageup": N_("PgUp"), "pagedown": N_("PgDn"), "home": N_("Home"), "end": N_("End"),
          "space": N_("Space"), "tab": N_("Tab"), "backspace": N_("Backspace"), "c-c": N_("Ctrl-C"),
          "c-q": N_("Ctrl-Q")}
#: The key words of :data:`_SHOWN` (a label is said word by word when not as a whole).
_KEY_WORDS = frozenset(_SHOWN.values())


def said_label(label: str) -> str:
    """A key's label as the help shows it in the current language: the whole label if a
    catalog has it (``"c or t"``), else each key word in it (``"Enter"``, ``"PgUp PgDn"``)."""
    said = _(label)
    if said is not label and said != label:
        return said
    return " ".join(_(word) if word in _KEY_WORDS else word for word in label.split(" "))


def key(*keys: str, help: str, label: str | None = None, sends: tuple[str, ...] | str = (),
        when: Callable[[Any], bool] | None = None, eager: bool = False,
        flush: bool = True) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Mark a screen's method as the key(s) ``keys`` (module docstring); marks stack."""
    shown = label if label is not None else " ".join(_SHOWN.get(k, k) for k in keys)
    requests = (sends,) if isinstance(sends, str) else tuple(sends)

    def mark(method: Callable[..., None]) -> Callable[..., None]:
        declared = Key(tuple(keys), help, shown, requests, when, eager, flush, method.__name__)
        marks: list[Key] = list(getattr(method, "__keys__", []))
        method.__keys__ = [declared, *marks]  # type: ignore[attr-defined]
        return method
    return mark


class Screen:
    """A screen that owns keys: :attr:`title` heads its part of the help, :meth:`is_up` says
    when its keys are live (no line or box having the keyboard is the caller's filter)."""

    #: How the help heads this screen's keys.
    title: ClassVar[str] = ""
    #: The application, for what a key needs of it (set by :func:`bind`).
    host: Host | None = None

    def is_up(self) -> bool:
        return False

    @classmethod
    def declared_keys(cls) -> list[Key]:
        """This screen's keys, in the order the class declares them (its bases' first)."""
        out: list[Key] = []
        seen: set[str] = set()
        for klass in reversed(cls.__mro__):
            for name, value in vars(klass).items():
                if name in seen:
                    continue
                marks = getattr(value, "__keys__", None)
                if marks:
                    seen.add(name)
                    out += marks
        return out


def bind(kb: KeyBindings, screen: Screen, free: Filter, after: Callable[[], None],
         host: Host) -> None:
    """Add ``screen``'s declared keys to ``kb``, live under ``free`` while it is up."""
    screen.host = host
    up = free & Condition(screen.is_up)
    for declared in screen.declared_keys():
        live = up if declared.when is None else up & Condition(
            lambda when=declared.when: bool(when(screen)))
        method = getattr(screen, declared.method)

        def handler(event: KeyPressEvent, method: Callable[[str], None] = method,
                    flush: bool = declared.flush) -> None:
            pressed = event.key_sequence[0].key
            method(pressed.value if isinstance(pressed, Enum) else pressed)
            if flush:
                after()
        for name in declared.keys:
            kb.add(name, filter=live, eager=declared.eager)(handler)


__all__ = ["Key", "Screen", "Host", "key", "bind", "said_label"]
