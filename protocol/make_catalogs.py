"""Finds every marked string of the source and compares it with the catalogs.

    python -m noddy.protocol.make_catalogs missing de [--under server/text]   # .po entries to translate
    python -m noddy.protocol.make_catalogs stale de                          # entries no code uses
    python -m noddy.protocol.make_catalogs check                             # what the test checks

A string is marked (see :mod:`noddy.protocol.i18n`) when it is the first argument of ``_``,
``N_`` or :class:`~noddy.protocol.i18n.Phrase`, the first two of ``ngettext`` (or ``Phrase``'s
``singular``/``plural``), or the second of ``pgettext`` (the first is its context).  The
source is read, not imported, with :mod:`ast`, the way ``xgettext`` reads it.  ``missing``
prints ``.po`` entries, each with where it is used, ready to be translated and put into the
language's catalog of that part (``protocol/locale/de/text.po``...).  tests/protocol/
test_catalogs.py runs :func:`problems`; nothing in the program imports this module.
"""

from __future__ import annotations

import argparse
import ast
import pathlib
import string
import sys
from dataclasses import dataclass, field

from .i18n import DEFAULT_LANGUAGE, LANGUAGES, catalog_files, read_po

#: The folders whose modules may hold text a person reads (the repository's, as laid out).
ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCE_DIRS = ("engine", "protocol", "server", "client", "noddy")
#: Catalog keys: (context, msgid), the plural's msgid joined to its plural by NUL (gettext's way).
Key = tuple[str | None, str]


@dataclass
class Marked:
    """One marked string and every place that uses it."""

    key: Key
    places: list[str] = field(default_factory=list)


def _text(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _name(func: ast.AST) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def marked_in(source: str, where: str) -> list[tuple[Key, str]]:
    """The marked strings of one module's source, each with its ``file:line``."""
    found: list[tuple[Key, str]] = []
    calls = sorted((n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Call)),
                   key=lambda n: (n.lineno, n.col_offset))
    for node in calls:
        name, args = _name(node.func), node.args
        place = f"{where}:{node.lineno}"
        if name in ("_", "N_") and args and _text(args[0]) is not None:
            found.append(((None, _text(args[0])), place))  # type: ignore[arg-type]
        elif name == "ngettext" and len(args) >= 2 and _text(args[0]) and _text(args[1]):
            found.append(((None, f"{_text(args[0])}\x00{_text(args[1])}"), place))
        elif name == "pgettext" and len(args) >= 2 and _text(args[0]) and _text(args[1]):
            found.append(((_text(args[0]), _text(args[1])), place))  # type: ignore[arg-type]
        elif name == "Phrase":
            words = {k.arg: _text(k.value) for k in node.keywords if k.arg}
            if words.get("singular") and words.get("plural"):
                found.append(((None, f"{words['singular']}\x00{words['plural']}"), place))
            elif args and _text(args[0]) is not None:
                found.append(((None, _text(args[0])), place))  # type: ignore[arg-type]
    return found


def marked(root: pathlib.Path = ROOT, under: str | None = None) -> dict[Key, Marked]:
    """Every marked string of the source (or of the part of it ``under`` a path)."""
    found: dict[Key, Marked] = {}
    for folder in SOURCE_DIRS:
        for path in sorted((root / folder).rglob("*.py")):
            where = path.relative_to(root).as_posix()
            if under and not where.startswith(under):
                continue
            for key, place in marked_in(path.read_text(encoding="utf-8"), where):
                if key[1]:
                    found.setdefault(key, Marked(key)).places.append(place)
    return found


def catalog_entries(language: str) -> dict[Key, tuple[list[str], str]]:
    """Every entry of ``language``'s catalogs: its translations and the file holding it."""
    entries: dict[Key, tuple[list[str], str]] = {}
    for path in catalog_files(language):
        for key, strs in read_po(path.read_text(encoding="utf-8")).items():
            if key[1]:
                entries.setdefault(key, (strs, path.name))
    return entries


def fields_of(text: str) -> set[str]:
    """The ``{placeholders}`` of a template (by name, conversions and format specs included,
    so a translation cannot drop ``!r`` or ``:.2f``)."""
    try:
        return {f"{name}!{conv or ''}:{spec or ''}" for _, name, spec, conv
                in string.Formatter().parse(text) if name is not None}
    except ValueError:
        return {"<not a template: unbalanced braces>"}


def problems(root: pathlib.Path = ROOT) -> list[str]:
    """Everything wrong between the source and the catalogs, one sentence each: a marked
    string a catalog lacks or leaves untranslated, a translation whose placeholders differ
    from the English, an entry no code uses, one string translated twice differently."""
    wanted = marked(root)
    said: list[str] = []
    for language in LANGUAGES:
        if language == DEFAULT_LANGUAGE:
            continue
        entries = catalog_entries(language)
        seen_in: dict[Key, tuple[list[str], str]] = {}
        for path in catalog_files(language):
            for key, strs in read_po(path.read_text(encoding="utf-8")).items():
                if key[1] and key in seen_in and seen_in[key][0] != strs:
                    said.append(f"{language}: {key[1]!r} is translated in both {seen_in[key][1]} "
                                f"and {path.name}, differently")
                seen_in.setdefault(key, (strs, path.name))
        for key, mark in sorted(wanted.items(), key=lambda kv: kv[1].places[0]):
            entry = entries.get(key)
            if entry is None or not all(entry[0]):
                said.append(f"{language}: no translation of {key[1]!r} ({mark.places[0]})")
                continue
            english = key[1].split("\x00")
            for text in entry[0]:
                if fields_of(text) - set().union(*map(fields_of, english)):
                    said.append(f"{language}: {text!r} ({entry[1]}) has placeholders the "
                                f"English {key[1]!r} does not")
            if fields_of(entry[0][-1]) != fields_of(english[-1]):
                said.append(f"{language}: {entry[0][-1]!r} ({entry[1]}) does not have the "
                            f"placeholders of {english[-1]!r}")
        for key, (_, name) in entries.items():
            if key not in wanted:
                said.append(f"{language}: {name} translates {key[1]!r}, which no code says")
    return said


def _po_string(text: str) -> str:
    body = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return f'"{body}"'


def po_entry(key: Key, places: list[str], strs: list[str] | None = None) -> str:
    """One ``.po`` entry (untranslated unless ``strs``)."""
    lines = [f"#: {' '.join(places[:3])}"]
    if key[0] is not None:
        lines.append(f"msgctxt {_po_string(key[0])}")
    singular, _, plural = key[1].partition("\x00")
    lines.append(f"msgid {_po_string(singular)}")
    if plural:
        lines.append(f"msgid_plural {_po_string(plural)}")
        forms = strs or ["", ""]
        lines += [f"msgstr[{i}] {_po_string(s)}" for i, s in enumerate(forms)]
    else:
        lines.append(f"msgstr {_po_string((strs or [''])[0])}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("missing", "stale", "check"))
    parser.add_argument("language", nargs="?", default="de")
    parser.add_argument("--under", help="only strings of the source under this path (server/text)")
    args = parser.parse_args(argv)
    if args.what == "check":
        found = problems()
        print("\n".join(found) or "The catalogs hold every marked string.")
        return 1 if found else 0
    entries = catalog_entries(args.language)
    wanted = marked(ROOT, args.under)
    if args.what == "missing":
        for key, mark in wanted.items():
            if key not in entries or not all(entries[key][0]):
                print(po_entry(key, mark.places))
    else:
        everything = marked(ROOT)
        for key, (strs, name) in entries.items():
            if key not in everything:
                print(f"# in {name}\n" + po_entry(key, [], strs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
