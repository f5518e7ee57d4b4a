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
width, accents and every other mark (enclosing circles, variation selectors), invisible
characters and spacing, and maps each letter that looks like a Latin one -- in Cyrillic,
Greek, Armenian, Cherokee..., after Unicode's confusables data -- to the letter it looks like,
so nobody can pass for someone else (or for a computer player) with a lookalike:

>>> skeleton("Ann") == skeleton("\\u0430NN") == skeleton("Ａｎｎ") == skeleton("ÀNN")
True
>>> skeleton("ann") == skeleton("ann\\ufe0f") == skeleton("\\u13aann") == skeleton("a\\u0578n")
True
>>> skeleton("random computer") == skeleton("R\\u0430ndom  C\\u043emputer")
True
>>> skeleton("ann") == skeleton("anna")
False

The skeleton is only for comparing: a name is always shown as its owner wrote it (normalised).
"""

from __future__ import annotations

import functools
import os
import unicodedata

from .errors import ProtocolError
from .i18n import N_, Phrase

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
    "Cc": N_("a control character"), "Cf": N_("an invisible formatting character"),
    "Cs": N_("a lone surrogate"), "Co": N_("a private-use character"),
    "Cn": N_("an unassigned code point"), "Zl": N_("a line separator"),
    "Zp": N_("a paragraph separator"),
}
_BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")

#: The look-alike table (see :func:`skeleton`), shipped beside this module as package data and
#: written by :mod:`noddy.protocol.make_confusables` from Unicode's confusables data (UTS #39).
DATA_PATH = os.path.join(os.path.dirname(__file__), "data", "confusables.txt")

#: Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt, Unicode 15): code
#: points a text renderer shows as nothing when it has no glyph for them -- variation
#: selectors (U+FE00..FE0F, U+E0100..E01EF, the Mongolian U+180B..180F), tags (U+E0000..E007F),
#: joiners, Hangul fillers...  The skeleton drops them.  The property is stable: Unicode
#: never takes a code point out of it.
_DEFAULT_IGNORABLE_RANGES = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)
_DEFAULT_IGNORABLE = frozenset(chr(code) for first, last in _DEFAULT_IGNORABLE_RANGES
                               for code in range(first, last + 1))

def normal_name(name: str) -> str:
    """``name`` as it will be shown (NFKC, trimmed, single spaces), or ``bad_name``."""
    normal = unicodedata.normalize("NFKC", name)
    for char in normal:
        what = _refused(char)
        if what is not None:
            raise ProtocolError("bad_name", Phrase("a name may not hold U+{code:04X} ({what}); choose "
                                                   "another", code=ord(char), what=Phrase(what)),
                                field="name")
    normal = " ".join(part for part in normal.split(" ") if part)
    if not normal:
        raise ProtocolError("bad_name", Phrase("a name needs at least one visible character"),
                            field="name")
    if len(normal) > MAX_NAME_LENGTH:
        raise ProtocolError("bad_name", Phrase("the name is {length} characters long once normalised; "
                                               "a name may have at most {most}", length=len(normal),
                                               most=MAX_NAME_LENGTH), field="name")
    if unicodedata.category(normal[0]).startswith("M"):
        raise ProtocolError("bad_name", Phrase("a name may not begin with a combining mark"),
                            field="name")
    return normal


def _refused(char: str) -> str | None:
    """Why ``char`` may not be in a name, or None if it may."""
    if char == " ":
        return None
    if char in _BIDI_CONTROLS:
        return N_("a bidirectional control")
    category = unicodedata.category(char)
    if category in _REFUSED_CATEGORIES:
        return _REFUSED_CATEGORIES[category]
    if category == "Zs":
        return N_("a space other than the plain one")
    if char in _INVISIBLE:
        return N_("a character that shows as blank")
    return None


def apart_key(name: str) -> str:
    """The key of an account set apart when the skeleton changed (see the storage schema's
    version 9): a space and the exact name, which no :func:`skeleton` can be (skeletons hold
    no white space), so that only the exact name finds it."""
    return " " + name


def bare(text: str) -> str:
    """``text`` decomposed (NFD) without what shows as nothing of its own: every mark
    (categories Mn, Mc, Me: accents, enclosing circles, variation selectors), the default
    ignorable code points, and white space.  What is left is what a reader tells names by."""
    return "".join(char for char in unicodedata.normalize("NFD", text)
                   if not (unicodedata.category(char)[0] == "M" or char in _DEFAULT_IGNORABLE
                           or char.isspace()))


#: How many names' skeletons are kept once worked out: the names in play (every session's,
#: every muted one) are compared again and again -- a tell or a challenge compares its target
#: with every session's name -- while a name's skeleton never changes.  A few thousand short
#: strings; beyond them the least recently used are forgotten, so a stream of made-up names
#: costs memory no more than this.
SKELETON_CACHE = 4096


def read_lookalikes(path: str) -> dict[int, str]:
    """A look-alike table as :mod:`noddy.protocol.make_confusables` writes it (``#`` comment
    lines, then ``XXXX target`` lines), as :meth:`str.translate` takes it."""
    table: dict[int, str] = {}
    with open(path, encoding="utf-8") as data:
        for line in data:
            if line.startswith("#") or not line.strip():
                continue
            code, _, target = line.rstrip("\n").partition(" ")
            table[int(code, 16)] = target
    return table


@functools.cache
def lookalikes() -> dict[int, str]:
    """The look-alike table: code point -> the ASCII it looks like (lower case).  Read from
    :data:`DATA_PATH` at the first call (under a millisecond), then kept."""
    return read_lookalikes(DATA_PATH)


@functools.lru_cache(maxsize=SKELETON_CACHE)
def skeleton(name: str) -> str:
    """What ``name`` looks like, for comparing: two names with the same skeleton are one.

    NFKC (width, ligatures), then :func:`bare` (accents, enclosing marks, variation
    selectors, invisible characters and spaces dropped), then each look-alike replaced by the
    ASCII it looks like (:func:`lookalikes`: Unicode's confusables, so Cyrillic ``а``,
    Cherokee ``Ꭺ``, Armenian ``օ``, Greek ``ν`` (``v``), the small capital ``ᴇ``, the digits
    ``0`` and ``1`` and the capital ``I``), case folded, and the table applied once more for
    the letters that only case folding brings out.  The table is applied to the letters as
    written, before case folding, because a capital and its small letter may look like two
    different Latin letters (Greek ``Ν`` is ``N``, ``ν`` is ``v``: so ``ΝΑΝ`` is ``nan`` and
    ``ναν`` is ``vav``, each caught as what it looks like).  Since ``I`` looks like ``l`` and case is
    ignored, ``i``, ``I``, ``l``, ``L``, ``1`` and ``|`` are all one letter here, as are ``o``
    and ``0``, and ``m`` and ``rn``:

    >>> skeleton("AI") == skeleton("Al") == skeleton("ai") and skeleton("bi11") == skeleton("Bill")
    True
    >>> skeleton("Jürgen"), skeleton("Иван")
    ('jurgen', 'иbah')
    """
    table = lookalikes()
    text = unicodedata.normalize("NFKC", name)
    if text.isascii():  # most names: no marks to drop, and case folding is lower()
        return "".join(text.translate(table).lower().translate(table).split())
    # Case folding may bring out a letter with a mark (U+01F0), or one the table maps (Cherokee).
    return bare(bare(text).translate(table).casefold()).translate(table)
