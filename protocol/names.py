"""Player names: what a name may hold, the form it is shown in, and when two look alike.

A name is shown to everyone, in JSON and at bare terminals, and it is how people know who
they play.  So :func:`normal_name` accepts only printable characters -- no control
characters (an escape sequence would reach every text-mode reader), no bidirectional
controls (U+202E turns the text around), no zero-width or blank-looking characters -- and
returns the name in NFKC form with runs of spaces made one (full-width ``Ａｎｎ`` is shown as
``Ann``), or raises ``bad_name``:

>>> normal_name("  Ｅｖｅ\\u3000 Lyn ")
'Eve Lyn'
>>> normal_name("ev\\u202ee")
Traceback (most recent call last):
...
noddy.protocol.errors.ProtocolError: a name may not hold U+202E (a bidirectional control); choose another

Two names are the same name when their :func:`skeleton` is: the skeleton ignores case,
width, accents, spacing and the Cyrillic and Greek letters that look like Latin ones, so
nobody can pass for someone else (or for a computer player) with a lookalike:

>>> skeleton("Ann") == skeleton("\\u0430NN") == skeleton("Ａｎｎ") == skeleton("ÀNN")
True
>>> skeleton("random computer") == skeleton("R\\u0430ndom  C\\u043emputer")
True
>>> skeleton("ann") == skeleton("anna")
False

The skeleton is only for comparing: a name is always shown as its owner wrote it (normalised).
"""

from __future__ import annotations

import unicodedata

from .errors import ProtocolError

#: The longest name, in characters of its normalised form (the request schema limits what is
#: sent to the same number, but NFKC can lengthen a name: one U+FDFA is eighteen letters).
MAX_NAME_LENGTH = 32

#: Characters that show as nothing or as blank space although Unicode calls them letters or
#: marks (Hangul fillers, the braille blank, the combining grapheme joiner...).
_INVISIBLE = frozenset("\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0\u034f\u180b\u180c\u180d\u180e")

#: Unicode categories a name may not hold: controls, format characters (bidirectional
#: controls, zero-width spaces and joiners, the byte order mark...), surrogates, private use,
#: unassigned code points, and line and paragraph separators.
_REFUSED_CATEGORIES = {
    "Cc": "a control character", "Cf": "an invisible formatting character", "Cs": "a lone surrogate",
    "Co": "a private-use character", "Cn": "an unassigned code point",
    "Zl": "a line separator", "Zp": "a paragraph separator",
}
_BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")

#: Letters that look like Latin ones, by their lower-case form (the skeleton is made from the
#: casefolded name, so an upper-case lookalike is caught through its lower-case letter):
#: Cyrillic, Greek, and a few Latin letters that pass for others.
_CONFUSABLES = str.maketrans({
    # Cyrillic
    "а": "a", "в": "b", "с": "c", "ԁ": "d", "е": "e", "ё": "e", "һ": "h", "н": "h", "і": "i",
    "ї": "i", "ј": "j", "к": "k", "ӏ": "l", "м": "m", "о": "o", "р": "p", "ԛ": "q", "ѕ": "s",
    "т": "t", "у": "y", "ү": "y", "х": "x", "ԝ": "w", "ѡ": "w", "ɡ": "g",
    # Greek
    "α": "a", "β": "b", "ε": "e", "ζ": "z", "η": "h", "ι": "i", "κ": "k", "μ": "m", "ν": "n",
    "ο": "o", "ρ": "p", "τ": "t", "υ": "y", "χ": "x", "ϲ": "c", "ϳ": "j",
    # Latin letters and digits that pass for others
    "ı": "i", "ɩ": "i", "ɑ": "a", "ʋ": "u", "0": "o",
})


def normal_name(name: str) -> str:
    """``name`` as it will be shown (NFKC, trimmed, single spaces), or ``bad_name``."""
    normal = unicodedata.normalize("NFKC", name)
    for char in normal:
        what = _refused(char)
        if what is not None:
            raise ProtocolError("bad_name", f"a name may not hold U+{ord(char):04X} ({what}); "
                                "choose another", field="name")
    normal = " ".join(part for part in normal.split(" ") if part)
    if not normal:
        raise ProtocolError("bad_name", "a name needs at least one visible character", field="name")
    if len(normal) > MAX_NAME_LENGTH:
        raise ProtocolError("bad_name", f"the name is {len(normal)} characters long once normalised; "
                            f"a name may have at most {MAX_NAME_LENGTH}", field="name")
    if unicodedata.category(normal[0]).startswith("M"):
        raise ProtocolError("bad_name", "a name may not begin with a combining mark", field="name")
    return normal


def _refused(char: str) -> str | None:
    """Why ``char`` may not be in a name, or None if it may."""
    if char == " ":
        return None
    if char in _BIDI_CONTROLS:
        return "a bidirectional control"
    category = unicodedata.category(char)
    if category in _REFUSED_CATEGORIES:
        return _REFUSED_CATEGORIES[category]
    if category == "Zs":
        return "a space other than the plain one"
    if char in _INVISIBLE:
        return "a character that shows as blank"
    return None


def skeleton(name: str) -> str:
    """What ``name`` looks like, for comparing: two names with the same skeleton are one.

    NFKC then casefold (case and width), accents and other combining marks dropped, the
    lookalikes of :data:`_CONFUSABLES` mapped to the letters they look like, spaces ignored.
    """
    folded = unicodedata.normalize("NFKC", name).casefold()
    bare = "".join(c for c in unicodedata.normalize("NFD", folded) if not unicodedata.combining(c))
    return "".join(bare.translate(_CONFUSABLES).split())
