"""The languages people read Noddy in: message catalogs, the reader's language, and phrases
that wait to be said.

Theory of operation
-------------------
Every string a person reads is written in English in the source and looked up, when it is
said, in a message catalog of the reader's language (the standard library's :mod:`gettext`).
Three ways to mark one, each read by the catalog tool (``python -m
noddy.protocol.make_catalogs``) and by the test that keeps the catalogs complete:

* ``_("You lay away {cards}.").format(cards=...)``: said now, in the current language.
  Placeholders are named, so a translation may put them in its own order; an f-string is
  never passed to ``_`` (the catalog could not hold it).
* ``N_("...")``: a constant (a table of help lines, a label) marked where it is written and
  said later with ``_(CONSTANT)``; ``ngettext``/``pgettext`` for plurals and for a word whose
  translation depends on where it stands (``pgettext("card rank", "jack")``).
* ``Phrase("the name {name!r} is registered already", name=...)``: text made once and read by
  many, each in their own language -- a server's error or push is built in the core, and the
  send path says it again for each connection in its language (:func:`localized`).  A Phrase
  *is* its English text (a ``str``), so code and tests that read English are unchanged.

Which language is "current": a process-wide default (:func:`set_language`: the client, which
has one reader), overridden within :func:`speaking` (the server renders each connection's
lines inside ``with speaking(lang):``).  English is the default and needs no catalog: its
lookups return the English source text unchanged, at the cost of one dictionary access.

The catalogs are ``protocol/locale/<lang>/*.po`` files, one per part of the program (the
narration, text mode, the client...), so that parts are translated without touching each
other's files.  They are read as text and compiled in memory (:func:`compile_po`), so no
build step or compiled ``.mo`` file is needed.  Standard library only, no I/O but reading the
catalogs once.
"""

from __future__ import annotations

import ast
import gettext
import io
import pathlib
import struct
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Iterator, Mapping

#: The languages Noddy speaks, by their ISO 639-1 code, each named in itself (as a menu shows
#: it to someone who reads only that language).  English is the source language.
LANGUAGES: dict[str, str] = {"en": "English", "de": "Deutsch", "es": "Español"}
#: The language of the source text, and everyone's until they choose another.
DEFAULT_LANGUAGE = "en"
#: Where the catalogs are: ``<lang>/<part>.po``.
LOCALE_DIR = pathlib.Path(__file__).resolve().parent / "locale"
#: gettext's plural rule for every language here but English (which needs none): one, else
#: many (German and Spanish both say "1 Karte" / "2 Karten", "1 carta" / "2 cartas").
PLURAL_FORMS = "nplurals=2; plural=(n != 1);"


def language_of(tag: str | None) -> str | None:
    """The language Noddy speaks for a language tag or locale name, or None.

    Takes what people and systems write: ``"de"``, ``"de-AT"``, ``"es_ES.UTF-8"``,
    ``"DE"``; the POSIX ``"C"`` and ``"POSIX"`` locales mean English.

    >>> language_of("de_DE.UTF-8"), language_of("es-MX"), language_of("C"), language_of("fr")
    ('de', 'es', 'en', None)
    """
    if not tag:
        return None
    base = tag.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    if base in ("c", "posix"):
        return DEFAULT_LANGUAGE
    return base if base in LANGUAGES else None


# -- catalogs --------------------------------------------------------------------------------

def read_po(text: str) -> dict[tuple[str | None, str], list[str]]:
    """The entries of a ``.po`` file: ``(msgctxt, msgid) -> [msgstr, ...]`` (one msgstr, or
    one per plural form, the plural's msgid at ``(ctxt, msgid + "\\x00" + msgid_plural)``
    as gettext keeps it).  Entries marked ``#, fuzzy`` are left out, as gettext does."""
    entries: dict[tuple[str | None, str], list[str]] = {}
    fields: dict[str, str] = {}
    current: str | None = None
    fuzzy = False

    def flush() -> None:
        nonlocal fields, fuzzy, current
        if "msgid" in fields and not fuzzy:
            msgid = fields["msgid"]
            if "msgid_plural" in fields:
                msgid += "\x00" + fields["msgid_plural"]
                strs = [fields[k] for k in sorted((k for k in fields if k.startswith("msgstr[")),
                                                  key=lambda k: int(k[7:-1]))]
            else:
                strs = [fields.get("msgstr", "")]
            entries[(fields.get("msgctxt"), msgid)] = strs
        fields, current, fuzzy = {}, None, False

    def has_msgstr() -> bool:
        return any(key.startswith("msgstr") for key in fields)

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            flush()
        elif line.startswith("#"):  # comments come before their entry's keywords
            if has_msgstr():
                flush()
            if line.startswith("#,") and "fuzzy" in line:
                fuzzy = True
        elif line.startswith('"'):
            if current is None:
                raise ValueError(f"line {number}: a string with no keyword before it")
            fields[current] += ast.literal_eval(line)
        else:
            keyword, _, rest = line.partition(" ")
            if not (keyword in ("msgctxt", "msgid", "msgid_plural", "msgstr")
                    or (keyword.startswith("msgstr[") and keyword.endswith("]"))):
                raise ValueError(f"line {number}: unknown keyword {keyword!r}")
            if keyword in ("msgctxt", "msgid") and has_msgstr():
                flush()
            current = keyword
            fields[keyword] = ast.literal_eval(rest)
    flush()
    return entries


def compile_po(entries: Mapping[tuple[str | None, str], list[str]]) -> bytes:
    """The entries as a GNU ``.mo`` file's bytes, which :class:`gettext.GNUTranslations`
    reads (the format is gettext's: a header, two tables of lengths and offsets, the strings).
    Untranslated entries (an empty msgstr) are left out, so lookups fall back to English."""
    keyed: dict[bytes, bytes] = {}
    for (ctxt, msgid), strs in entries.items():
        if msgid and not all(strs):
            continue
        key = (f"{ctxt}\x04{msgid}" if ctxt is not None else msgid).encode("utf-8")
        keyed[key] = "\x00".join(strs).encode("utf-8")
    keys = sorted(keyed)
    ids = b"".join(k + b"\x00" for k in keys)
    strs = b"".join(keyed[k] + b"\x00" for k in keys)
    start = 7 * 4 + 16 * len(keys)
    offsets_ids, offsets_strs, position = [], [], 0
    for k in keys:
        offsets_ids += [len(k), start + position]
        position += len(k) + 1
    base = start + len(ids)
    position = 0
    for k in keys:
        offsets_strs += [len(keyed[k]), base + position]
        position += len(keyed[k]) + 1
    header = struct.pack("Iiiiiii", 0x950412DE, 0, len(keys), 7 * 4, 7 * 4 + 8 * len(keys), 0, 0)
    return (header + struct.pack(f"{len(offsets_ids)}i", *offsets_ids)
            + struct.pack(f"{len(offsets_strs)}i", *offsets_strs) + ids + strs)


def catalog_files(language: str) -> list[pathlib.Path]:
    """The ``.po`` files of ``language``, in the order they are read (by name)."""
    return sorted((LOCALE_DIR / language).glob("*.po"))


def _header() -> str:
    return f"Content-Type: text/plain; charset=UTF-8\nPlural-Forms: {PLURAL_FORMS}\n"


def load_catalog(language: str) -> gettext.NullTranslations:
    """All of ``language``'s catalog files as one translation (English: none needed)."""
    if language == DEFAULT_LANGUAGE:
        return gettext.NullTranslations()
    merged: dict[tuple[str | None, str], list[str]] = {(None, ""): [_header()]}
    for path in catalog_files(language):
        for key, strs in read_po(path.read_text(encoding="utf-8")).items():
            if key[1]:
                merged.setdefault(key, strs)
    return gettext.GNUTranslations(io.BytesIO(compile_po(merged)))


_catalogs: dict[str, gettext.NullTranslations] = {}


def catalog(language: str) -> gettext.NullTranslations:
    """``language``'s translation, read once (an unknown language reads as English)."""
    found = _catalogs.get(language)
    if found is None:
        found = _catalogs[language] = (load_catalog(language) if language in LANGUAGES
                                       else gettext.NullTranslations())
    return found


def use_catalog(language: str, translation: gettext.NullTranslations | None) -> None:
    """Put ``translation`` in place of ``language``'s catalog (None: read it again when next
    needed).  For tests, which speak a made-up language to find text no catalog holds."""
    if translation is None:
        _catalogs.pop(language, None)
    else:
        _catalogs[language] = translation


# -- the current language ---------------------------------------------------------------------

_default = DEFAULT_LANGUAGE
_speaking: ContextVar[str | None] = ContextVar("noddy_speaking", default=None)


def set_language(language: str) -> None:
    """Make ``language`` the process's own (the client: its one reader's)."""
    global _default
    _default = language


def current_language() -> str:
    """The language text is said in here and now."""
    return _speaking.get() or _default


@contextmanager
def speaking(language: str) -> Iterator[None]:
    """Say everything within in ``language`` (the server, rendering one connection's lines)."""
    token = _speaking.set(language)
    try:
        yield
    finally:
        _speaking.reset(token)


def _(message: str) -> str:
    """``message`` in the current language (the English itself when no catalog has it)."""
    language = _speaking.get() or _default
    if language == DEFAULT_LANGUAGE:
        return message
    return catalog(language).gettext(message)


def N_(message: str) -> str:
    """Marks ``message`` for the catalogs where it is written; it is said later with ``_``."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """``singular`` or ``plural`` as ``n`` needs, in the current language."""
    language = _speaking.get() or _default
    if language == DEFAULT_LANGUAGE:
        return singular if n == 1 else plural
    return catalog(language).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, as it is said in ``context`` (a card's rank, a
    key's label...): one English word may be two in another language."""
    language = _speaking.get() or _default
    if language == DEFAULT_LANGUAGE:
        return message
    return catalog(language).pgettext(context, message)


class Phrase(str):
    """Text made once and said again in each reader's language: it is its English text.

    ``Phrase("{who} left the table", who="ann")`` is ``"ann left the table"``; in German it is
    the catalog's ``"{who}"``-sentence with ann put in.  A parameter that is a Phrase is said in
    the same language; ``plural`` and ``count`` choose between two forms as ``ngettext`` does.

    >>> p = Phrase("{n} cards", plural="{n} cards", singular="{n} card", count=1, n=1)
    >>> str(p), p.said_in("en")
    ('1 card', '1 card')
    """

    msgid: str
    params: dict[str, Any]
    plural: tuple[str, str, int] | None

    def __new__(cls, msgid: str, /, *, singular: str | None = None, plural: str | None = None,
                count: int | None = None, **params: Any) -> "Phrase":
        forms = (singular, plural, count) if plural is not None and singular is not None else None
        english = (forms[0] if forms[2] == 1 else forms[1]) if forms is not None else msgid
        self = super().__new__(cls, english.format(**params) if params else english)
        self.msgid = msgid if forms is None else forms[0]
        self.params = params
        self.plural = forms  # type: ignore[assignment]
        return self

    def said_in(self, language: str) -> str:
        """This text in ``language``."""
        if language == DEFAULT_LANGUAGE:
            return str.__str__(self)
        with speaking(language):
            return self.said()

    def said(self) -> str:
        """This text in the current language."""
        if self.plural is not None:
            template = ngettext(self.plural[0], self.plural[1], self.plural[2])
        else:
            template = _(self.msgid)
        if not self.params:
            return template
        params = {k: (v.said() if isinstance(v, Phrase) else v) for k, v in self.params.items()}
        return template.format(**params)

    def __reduce__(self) -> Any:  # a copy or a pickle stays a Phrase, said the same way
        return (_remake, (self.msgid, self.params, self.plural))


def _remake(msgid: str, params: dict[str, Any], plural: tuple[str, str, int] | None) -> Phrase:
    if plural is None:
        return Phrase(msgid, **params)
    return Phrase(msgid, singular=plural[0], plural=plural[1], count=plural[2], **params)


def say(text: str) -> str:
    """``text`` in the current language if it is a :class:`Phrase`, else as it is (a name, a
    player's chat, text from elsewhere)."""
    return text.said() if isinstance(text, Phrase) else text


def localized(value: Any, language: str) -> Any:
    """``value`` (a message, or anything in one) with every :class:`Phrase` in it said in
    ``language``: what a connection that reads ``language`` is sent.  Containers are copied
    only where something in them changed; English returns ``value`` itself."""
    if language == DEFAULT_LANGUAGE:
        return value
    return _localized(value, language)


def _localized(value: Any, language: str) -> Any:
    if isinstance(value, Phrase):
        return value.said_in(language)
    if isinstance(value, dict):
        changed = None
        for key, item in value.items():
            new = _localized(item, language)
            if new is not item:
                if changed is None:
                    changed = dict(value)
                changed[key] = new
        return value if changed is None else changed
    if isinstance(value, list):
        items = [_localized(item, language) for item in value]
        return value if all(a is b for a, b in zip(items, value)) else items
    return value
