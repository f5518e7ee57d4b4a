"""The writer of the look-alike table (:mod:`noddy.protocol.make_confusables`): from a small
``confusables.txt`` of Unicode's shape, the table keeps the copyright header, follows chains
to their end, keeps only what ends in ASCII, and gives lower-case letters their capital's
look (``i`` with ``I``) without merging letters that look different (Greek ``ν`` and ``Ν``)."""

from __future__ import annotations

from pathlib import Path

from noddy.protocol.make_confusables import EXTRA, main
from noddy.protocol.names import read_lookalikes

SOURCE = """\ufeff# confusables.txt
# Date: 2020-02-13, 01:38:49 GMT
# \u00a9 2020 Unicode\u00ae, Inc.
#
13AA ;\t0041 ;\tMA\t# ( \u13aa \u2192 A ) CHEROKEE LETTER GO \u2192 LATIN CAPITAL LETTER A\t#

AB7C ;\t1D07 ;\tMA\t# ( \uab7c \u2192 \u1d07 ) CHEROKEE SMALL LETTER GV \u2192 LATIN LETTER SMALL CAPITAL E\t#
0049 ;\t006C ;\tMA\t# ( I \u2192 l ) LATIN CAPITAL LETTER I \u2192 LATIN SMALL LETTER L\t#
0031 ;\t006C ;\tMA\t# ( 1 \u2192 l ) DIGIT ONE \u2192 LATIN SMALL LETTER L\t#
039D ;\t004E ;\tMA\t# ( \u039d \u2192 N ) GREEK CAPITAL LETTER NU \u2192 LATIN CAPITAL LETTER N\t#
03BD ;\t0076 ;\tMA\t# ( \u03bd \u2192 v ) GREEK SMALL LETTER NU \u2192 LATIN SMALL LETTER V\t#
006D ;\t0072 006E ;\tMA\t# ( m \u2192 rn ) LATIN SMALL LETTER M \u2192 LATIN SMALL LETTER R, LATIN SMALL LETTER N\t#
2010 ;\t002D ;\tMA\t#* ( \u2010 \u2192 - ) HYPHEN \u2192 HYPHEN-MINUS\t#
0430 ;\t0061 ;\tMA\t# ( \u0430 \u2192 a ) CYRILLIC SMALL LETTER A \u2192 LATIN SMALL LETTER A\t#
05AD ;\t0596 ;\tMA\t# ( \u05ad \u2192 \u0596 ) HEBREW ACCENT DEHI \u2192 HEBREW ACCENT TIPEHA\t#
1D400 ;\t0041 ;\tMA\t# ( \U0001d400 \u2192 A ) MATHEMATICAL BOLD CAPITAL A \u2192 LATIN CAPITAL LETTER A\t#
"""


def test_the_table_follows_chains_to_ascii_and_keeps_the_unicode_header(tmp_path: Path) -> None:
    source, out = tmp_path / "confusables.txt", tmp_path / "data" / "table.txt"
    source.write_text(SOURCE, encoding="utf-8")
    assert main([str(source), "--out", str(out), "--origin", "a test's copy"]) == 0
    text = out.read_text(encoding="utf-8").splitlines()
    assert text[:4] == ["# confusables.txt", "# Date: 2020-02-13, 01:38:49 GMT", "# \u00a9 2020 Unicode\u00ae, Inc.", "#"]
    assert "# The confusables.txt used: a test's copy." in text
    table = {chr(code): target for code, target in read_lookalikes(str(out)).items()}
    assert {char: target for char, target in table.items() if char not in EXTRA} == {
        "\u13aa": "a",        # Cherokee go (its small letter folds to it: no line of its own)
        "\uab7c": "e",        # Cherokee small gv -> small capital E -> e
        "1": "l", "i": "l",   # I -> l, so i too (names ignore case); I itself folds to i
        "\u039d": "n",        # Greek capital nu looks like N ...
        "\u03bd": "v",        # ... and its small letter like v: neither is merged with the other
        "m": "rn",
        "\u2010": "-",
        "\u0430": "a",
    }  # the Hebrew accent ends in no ASCII; the bold A is made ASCII by NFKC already
    assert (table["\u1d07"], table["\u026a"], table["\u1d0d"]) == ("e", "l", "rn")  # small capitals E, I, M
