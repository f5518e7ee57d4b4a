"""A made-up language for finding text that no catalog holds.

Under :func:`pseudo_language`, every marked string (:mod:`noddy.protocol.make_catalogs`) is
said wrapped in ``⟪ ⟫``, so a screen, a text-mode line or a message read in it shows at once
which words came through a catalog and which did not: :func:`unmarked_words` lists the words
left outside the brackets.  A test walks the screens or plays a game in it and asserts that
nothing is left but names, cards and numbers -- the test that fails when a string a person
reads is not in the catalogs, whichever part of the program says it.
"""

from __future__ import annotations

import gettext
import re
from contextlib import contextmanager
from functools import cache
from typing import Iterable, Iterator

from noddy.protocol import i18n
from noddy.protocol.make_catalogs import marked

#: The made-up language's code (no real language has it: ISO 639 reserves qaa-qtz for local use).
PSEUDO = "qq"
OPEN, CLOSE = "⟪", "⟫"


@cache
def _marked_keys() -> frozenset[tuple[str | None, str]]:
    """Every marked string of the source, read once a run (reading it parses every module:
    half a second, and many tests speak the made-up language)."""
    return frozenset(marked())


class PseudoTranslations(gettext.NullTranslations):
    """Says each marked string in brackets; anything else (a name passed to ``_``) as it is."""

    def __init__(self) -> None:
        super().__init__()
        self._known = _marked_keys()

    def _say(self, context: str | None, key: str, text: str) -> str:
        return f"{OPEN}{text}{CLOSE}" if (context, key) in self._known else text

    def gettext(self, message: str) -> str:
        return self._say(None, message, message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self._say(None, f"{singular}\x00{plural}", singular if n == 1 else plural)

    def pgettext(self, context: str, message: str) -> str:
        return self._say(context, message, message)


@contextmanager
def pseudo_language() -> Iterator[str]:
    """Make :data:`PSEUDO` a language the program speaks, for the ``with`` block."""
    i18n.LANGUAGES[PSEUDO] = "Pseudo"
    i18n.use_catalog(PSEUDO, PseudoTranslations())
    try:
        yield PSEUDO
    finally:
        del i18n.LANGUAGES[PSEUDO]
        i18n.use_catalog(PSEUDO, None)


def outside_brackets(text: str) -> str:
    """``text`` without what stands inside (possibly nested) ``⟪ ⟫``.  A ``⟫`` with no ``⟪``
    before it closes a text whose start is out of sight (scrolled or cut off above): what
    stands before it on its line is inside too."""
    depth, kept, line_start = 0, [], 0
    for ch in text:
        if ch == OPEN:
            depth += 1
        elif ch == CLOSE:
            if depth == 0:
                del kept[line_start:]
            depth = max(0, depth - 1)
        elif depth == 0:
            kept.append(ch)
            if ch == "\n":
                line_start = len(kept)
    return "".join(kept)


#: A card as the wire and text mode write it, as the client shows it, or a rank alone.
_CARD = re.compile(r"^(?:10|[A2-9TJQK])[CDHS♣♦♥♠]?$")


def unmarked_words(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """The words of ``text`` outside the brackets that are not names (``allowed``), cards or
    numbers: each is text a person reads that no catalog holds."""
    allow = {a.lower() for a in allowed}
    words = re.findall(r"[^\W\d_][\w'’-]*", outside_brackets(text))
    return [w for w in words if w.lower() not in allow and not _CARD.match(w) and len(w) > 1]
