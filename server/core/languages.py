"""The language each connection reads: chosen in ``hello`` or by the ``language`` request.

A connection's language (:attr:`~noddy.server.model.session.Connection.language`, English until
it chooses) is what the send path says its text in: a JSON connection's ``message`` fields
and narration, a text-mode person's every line (docs/PROTOCOL.md, "Languages").  The core
only records it here; nothing the core builds depends on it, so a message shared by a table's
members stays one object, said again per connection at the edge.

Why a part of its own: ``hello`` (the lobby) and ``language`` (reception) both take a
language, from a tag or a locale name a stranger's program may write many ways (``"de"``,
``"es-MX"``, ``"de_AT.UTF-8"``), and refuse one Noddy does not speak in one way.
"""

from __future__ import annotations

from typing import Any

from noddy.protocol import ProtocolError
from noddy.protocol.i18n import LANGUAGES, Phrase, language_of


def languages() -> dict[str, str]:
    """The languages the server speaks, code -> its name in itself (``greeting``,
    ``welcome``): read at each call, so a language added for a test is listed too."""
    return dict(LANGUAGES)


def spoken(tag: str) -> str:
    """The code of the language ``tag`` names (``"de_DE.UTF-8"`` -> ``"de"``), or
    ``bad_field`` (field ``language``) listing the languages there are."""
    found = language_of(tag)
    if found is None:
        listed = ", ".join(f"{code} ({name})" for code, name in LANGUAGES.items())
        raise ProtocolError("bad_field", Phrase("Noddy does not speak {tag!r}; it speaks {listed}",
                                                tag=tag, listed=listed), field="language")
    return found


def lang_commands(current: str) -> str:
    """The other languages, each as its readers would choose it in text mode: ``"Deutsch:
    lang de · Español: lang es"`` (the greeting's line for a newcomer who does not read
    English; names in themselves and command words are never translated)."""
    return " · ".join(f"{name}: lang {code}" for code, name in LANGUAGES.items() if code != current)


def language_reply(language: str) -> dict[str, Any]:
    """The reply to a ``language`` request (its ``id`` is added by the outbox)."""
    return {"type": "language", "language": language}
