"""Names nobody can fake (issue 31): every lookalike of a name is refused by
:func:`normal_name` or has the same :func:`skeleton` as the name it imitates, while people
keep their own names in their own scripts; the look-alike table ships with the package.

Over real sockets: a registered (or present) ``ann`` cannot be impersonated by ``ann`` with
an invisible variation selector, and a mute of ``ann`` mutes her lookalikes too."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from noddy.protocol.errors import ProtocolError
from noddy.protocol.names import DATA_PATH, bare, lookalikes, normal_name, skeleton
from tests.server.harness import Client, running_server

ROOT = Path(__file__).resolve().parent.parent.parent

#: (the lookalike, the name it imitates): the attack of issue 31, each seen passing before.
LOOKALIKES = [
    ("ann\ufe0f", "ann"),            # variation selector 16, shown exactly as ann
    ("an\ufe0fn", "ann"),            # ... inside the name
    ("ann\U000e0100", "ann"),        # variation selector 17 (supplementary)
    ("ann\u180b", "ann"),            # Mongolian free variation selector
    ("ann\u0489", "ann"),            # combining Cyrillic millions sign (enclosing)
    ("ann\u20dd", "ann"),            # combining enclosing circle
    ("\u13aann", "Ann"),             # Cherokee letter go, Ꭺ
    ("a\u0578n", "ann"),             # Armenian small vo, ո
    ("b\u0585b", "bob"),             # Armenian small oh, օ
    ("\u1d07ve", "eve"),             # Latin letter small capital E, ᴇ
    ("\u03bdal", "val"),             # Greek small nu, ν: it looks like v, not n
    ("AI", "Al"),                    # capital i for small L
    ("bi11", "bill"),                # digit one for small L
    ("b0b", "bob"),                  # digit zero for o
    ("|ee", "lee"),                  # vertical line for l
    ("\u0399an", "Ian"),             # Greek capital iota
]

#: Lookalikes refused or caught before issue 31, which must stay so.
ALREADY_CAUGHT = [
    ("ANN", "ann"), ("\u0430nn", "ann"), ("\u0410NN", "ann"), ("\u0391nn", "ann"), ("ÀNN", "ann"),
    ("a\u0301nn", "ann"), ("Ａｎｎ", "ann"), ("a n n", "ann"), ("ann\u200b", "ann"),
    ("\u202eann", "ann"), ("ann\u2066", "ann"), ("R\u0430ndom  C\u043emputer", "random computer"),
]

#: People's own names: accepted as they are, each its own identity.
GENUINE = ["Jürgen", "Núñez", "Zoë", "José", "François", "Ólafur", "Σωκράτης", "Иван", "李小龙",
           "Ann", "Anna", "Eve", "Eva", "Dave", "Dane", "Bob", "Rob", "val", "nal", "Straße",
           "Björk", "Łukasz", "Ngozi Okonjo", "محمد", "שרה", "さくら", "김민준", "Αλέξανδρος"]

#: Names with nothing visible of their own: only marks or ignorables.
NOTHING_VISIBLE = ["\ufe0f", "\u20dd", "\u0489", "\U000e0100", "\u0301\u0301", "\u3164", "\u115f",
                   "\u034f", "\u180b", "\ufeff", "\u200d", "\U000e0041", " \ufe0f "]


def _caught(lookalike: str, original: str) -> bool:
    """Whether ``lookalike`` cannot pass for ``original``: refused, or the same skeleton."""
    try:
        shown = normal_name(lookalike)
    except ProtocolError as error:
        assert error.code == "bad_name"
        return True
    return skeleton(shown) == skeleton(normal_name(original))


@pytest.mark.parametrize("lookalike,original", LOOKALIKES + ALREADY_CAUGHT)
def test_a_lookalike_is_refused_or_is_the_same_name(lookalike: str, original: str) -> None:
    assert _caught(lookalike, original)


@pytest.mark.parametrize("name", GENUINE)
def test_a_genuine_name_is_accepted_as_written(name: str) -> None:
    assert normal_name(name) == name


def test_genuine_names_stay_apart_from_each_other() -> None:
    """Folding look-alikes must not fold letters that look different: ``v`` and ``n``
    (Greek ν is ``v``), ``a`` and ``e``, ``D`` and ``R``..."""
    skeletons = [skeleton(name) for name in GENUINE]
    assert len(set(skeletons)) == len(GENUINE)


@pytest.mark.parametrize("name,same", [
    ("Jürgen", "Jurgen"), ("Núñez", "NUNEZ"), ("Zoë", "zoe"), ("José", "jose"), ("François", "Francois"),
    ("Ólafur", "olafur"), ("Иван", "иван"), ("Straße", "strasse"), ("AL", "al"), ("ai", "AI"),
])
def test_accents_and_case_are_one_identity(name: str, same: str) -> None:
    assert skeleton(name) == skeleton(same)


def test_skeletons_are_what_a_reader_tells_names_by() -> None:
    assert [skeleton(name) for name in ("Ann Lyn", "Bill", "Emma", "\u13aann\u20dd", "Jürgen")] == [
        "annlyn", "blll", "ernrna", "ann", "jurgen"]


@pytest.mark.parametrize("name", NOTHING_VISIBLE)
def test_a_name_of_marks_or_invisible_characters_only_is_refused(name: str) -> None:
    with pytest.raises(ProtocolError) as refused:
        normal_name(name)
    assert (refused.value.code, refused.value.field) == ("bad_name", "name")
    assert bare(name) == ""  # (and a skeleton could not tell it from any other such name)


def test_names_that_only_marks_tell_apart_are_refused_with_the_first_mark() -> None:
    with pytest.raises(ProtocolError) as refused:
        normal_name("\u20ddann")
    assert refused.value.message == "a name may not begin with a combining mark"


def test_the_table_is_unicodes_data_shipped_with_the_package() -> None:
    data = Path(DATA_PATH)
    assert data.parent == ROOT / "protocol" / "data"
    header = data.read_text(encoding="utf-8").splitlines()[:12]
    assert header[0] == "# confusables.txt" and "# Unicode Security Mechanisms for UTS #39" in header
    assert any(line.startswith("# © ") and "Unicode" in line for line in header)
    package_data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    assert "data/" + data.name in [pattern.replace("*", data.stem) for pattern in package_data["noddy.protocol"]]
    table = lookalikes()
    assert lookalikes() is table  # read once
    assert (table[0x13AA], table[0x0578], table[0x0585], table[0x03BD], table[ord("1")]) == ("a", "n", "o", "v", "l")
    assert all(target.isascii() and target.isprintable() and " " not in target for target in table.values())


# == over real sockets ======================================================================
async def test_a_registered_ann_cannot_be_impersonated_by_a_variation_selector() -> None:
    async with running_server() as server:
        ann = await Client.connect(server.port)
        await ann.hello("ann")
        eve = await Client.connect(server.port)
        # While ann is here, her lookalikes are her name in use ...
        for name in ("ann\ufe0f", "\u13aann", "a\u0578n", "ann\u20dd"):
            reply = await eve.request({"type": "hello", "name": name, "version": 1})
            assert (reply["type"], reply["code"], reply["field"]) == ("error", "name_taken", "name"), name
        assert (await ann.request({"type": "register", "password": "ann's secret"}))["type"] == "registered"
        await ann.request({"type": "bye"})
        # ... and once she is gone, they are her registered name: her password is asked for.
        for name in ("ann\ufe0f", "ANN\U000e0100"):
            reply = await eve.request({"type": "hello", "name": name, "version": 1})
            assert (reply["type"], reply["code"], reply["field"]) == ("error", "password_required", "password")
            assert reply["message"].startswith("'ann' is a registered name: give its password")
        wrong = await eve.request({"type": "hello", "name": "ann\ufe0f", "version": 1, "password": "guess"})
        assert (wrong["code"], wrong["field"]) == ("bad_password", "password")
        await eve.close()
        await ann.close()


async def test_muting_ann_mutes_her_lookalikes() -> None:
    async with running_server(chat_rate_per_address=1000.0, chat_burst_per_address=1000) as server:
        ben, dan = await Client.connect(server.port), await Client.connect(server.port)
        await ben.hello("ben")
        await dan.hello("dan")
        assert (await ben.request({"type": "mute", "name": "ann"}))["names"] == ["ann"]
        for fake in ("ann\ufe0f", "\u13aann", "\u1d00nn"):  # ᴀ: small capital A
            mallory = await Client.connect(server.port)
            assert (await mallory.hello(fake))["name"] == fake
            assert (await mallory.request({"type": "chat", "text": f"{fake} here", "to": "lobby"}))["type"] == "ok"
            assert (await mallory.request({"type": "tell", "name": "ben", "text": "psst"}))["echo"] is True
            await dan.recv_until(lambda m: m["type"] == "chat" and m["text"] == f"{fake} here")
            await mallory.close()
        # dan's tell comes after everything mallory sent: ben has read all of it by then.
        await dan.request({"type": "tell", "name": "ben", "text": "still there?"})
        await ben.recv_until(lambda m: m["type"] == "tell" and m["text"] == "still there?")
        heard = [(m["type"], m.get("from")) for m in ben.received if m["type"] in ("chat", "tell")]
        assert heard == [("tell", "dan")]
        await ben.close()
        await dan.close()

