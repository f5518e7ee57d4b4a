"""The message catalogs: every string the source marks is translated into every language,
with the same placeholders, and no catalog holds what no code says; and the pieces the
catalogs are read with (the ``.po`` reader, the in-memory ``.mo``, phrases said again in
each reader's language) do what gettext's own tools would."""

from __future__ import annotations

import copy
import gettext
import io
import json
import pickle

import pytest

from noddy.protocol import i18n
from noddy.protocol.i18n import (Phrase, _, compile_po, language_of, localized, ngettext,
                                 pgettext, read_po, speaking)
from noddy.protocol.make_catalogs import fields_of, marked_in, po_entry, problems
from tests.pseudo_language import pseudo_language, unmarked_words

PO = r'''# a header comment
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\n"

#: x.py:1
msgid "You lay away {cards}."
msgstr "Du legst {cards} ab."

#, fuzzy
msgid "a guess"
msgstr "eine Vermutung"

msgctxt "card rank"
msgid "jack"
msgstr "Bube"

msgid "{n} card"
msgid_plural "{n} cards"
msgstr[0] "{n} Karte"
msgstr[1] "{n} "
"Karten"

msgid "not yet"
msgstr ""
'''


def test_every_marked_string_is_in_every_catalog_with_its_placeholders() -> None:
    assert problems() == []


def test_the_po_reader_keeps_contexts_plurals_and_continued_lines_and_skips_fuzzy() -> None:
    entries = read_po(PO)
    assert entries[(None, "You lay away {cards}.")] == ["Du legst {cards} ab."]
    assert entries[("card rank", "jack")] == ["Bube"]
    assert entries[(None, "{n} card\x00{n} cards")] == ["{n} Karte", "{n} Karten"]
    assert (None, "a guess") not in entries


def test_the_compiled_catalog_reads_as_gettext_reads_a_mo_file() -> None:
    entries = read_po(PO)
    entries[(None, "")] = ["Content-Type: text/plain; charset=UTF-8\nPlural-Forms: nplurals=2; plural=(n != 1);\n"]
    t = gettext.GNUTranslations(io.BytesIO(compile_po(entries)))
    assert t.gettext("You lay away {cards}.") == "Du legst {cards} ab."
    assert t.pgettext("card rank", "jack") == "Bube"
    assert [t.ngettext("{n} card", "{n} cards", n) for n in (1, 2)] == ["{n} Karte", "{n} Karten"]
    assert t.gettext("not yet") == "not yet"  # untranslated: English


def test_a_phrase_is_its_english_and_is_said_again_in_each_language() -> None:
    i18n.use_catalog("de", gettext.GNUTranslations(io.BytesIO(compile_po(
        {(None, ""): ["Content-Type: text/plain; charset=UTF-8\n"],
         (None, "{who} left {where}"): ["{who} hat {where} verlassen"],
         (None, "the table"): ["den Tisch"]}))))
    try:
        phrase = Phrase("{who} left {where}", who="ann", where=Phrase("the table"))
        assert phrase == "ann left the table"
        assert phrase.said_in("de") == "ann hat den Tisch verlassen"
        assert json.dumps({"message": phrase}) == '{"message": "ann left the table"}'
        assert pickle.loads(pickle.dumps(phrase)).said_in("de") == "ann hat den Tisch verlassen"
        assert copy.deepcopy(phrase).said_in("de") == "ann hat den Tisch verlassen"
        message = {"type": "error", "message": phrase, "list": [phrase, 3]}
        assert localized(message, "de") == {"type": "error", "message": "ann hat den Tisch verlassen",
                                            "list": ["ann hat den Tisch verlassen", 3]}
        assert localized(message, "en") is message
        untouched = {"type": "ok", "id": 1}
        assert localized(untouched, "de") is untouched
    finally:
        i18n.use_catalog("de", None)


def test_the_current_language_is_the_process_s_unless_something_is_said_for_one_reader() -> None:
    with pseudo_language() as qq:
        i18n.set_language(qq)
        try:
            assert _("N_ never says") == "N_ never says"  # not marked anywhere: as it is
            with speaking("en"):
                assert i18n.current_language() == "en"
            assert i18n.current_language() == qq
        finally:
            i18n.set_language("en")
    assert i18n.current_language() == "en"


@pytest.mark.parametrize("tag, language", [
    ("de", "de"), ("de_AT.UTF-8", "de"), ("es-MX", "es"), ("EN_gb", "en"), ("C", "en"),
    ("POSIX", "en"), ("fr_FR.UTF-8", None), ("", None), (None, None)])
def test_a_language_tag_or_locale_names_the_language_noddy_speaks_for_it(tag, language) -> None:
    assert language_of(tag) == language


def test_the_catalog_tool_finds_each_way_of_marking_a_string() -> None:
    source = '''
_("one {x}").format(x=1)
N_("two")
ngettext("a card", "{n} cards", n)
pgettext("card rank", "jack")
Phrase("four {who}", who=w)
Phrase("x", singular="{n} deal", plural="{n} deals", count=n, n=n)
_(NOT_A_LITERAL)
print("not marked")
'''
    assert [k for k, _ in marked_in(source, "m.py")] == [
        (None, "one {x}"), (None, "two"), (None, "a card\x00{n} cards"), ("card rank", "jack"),
        (None, "four {who}"), (None, "{n} deal\x00{n} deals")]


def test_placeholders_are_compared_with_their_conversions_and_formats() -> None:
    assert fields_of("wait {s:.2f} s for {name!r}") == {"s!:.2f", "name!r:"}
    assert fields_of("{unbalanced") == {"<not a template: unbalanced braces>"}


def test_an_entry_is_written_as_a_po_file_holds_it_and_read_back_the_same() -> None:
    written = po_entry((None, 'say "go"\n'), ["a.py:1"], ['sag "go"\n'])
    assert read_po(written) == {(None, 'say "go"\n'): ['sag "go"\n']}
    plural = po_entry(("ctx", "a card\x00{n} cards"), ["a.py:2"], ["eine Karte", "{n} Karten"])
    assert read_po(plural) == {("ctx", "a card\x00{n} cards"): ["eine Karte", "{n} Karten"]}


def test_the_pseudo_language_shows_text_no_catalog_holds() -> None:
    assert unmarked_words("⟪You play ⟪the jack⟫⟫ 5H to ann, 31 left", allowed=["ann"]) == ["to", "left"]
