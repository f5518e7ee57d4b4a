"""The game's own words in each reader's language: a score called aloud, numbers in words,
cards named in prose.

The engine calls every score in English (``noddy.engine.score_items.announce``: "fifteen
two, fifteen four, a pair six") and puts that call on the wire as an event's
``announcement``.  A German or Spanish reader hears the same call from the event's
``items`` (the wire's ``score_item`` dicts) in their own language: "fünfzehn zwei, fünfzehn
vier, ein Paar sechs" / "quince dos, quince cuatro, una pareja seis".  :func:`announce`
does that in the current language (:mod:`noddy.protocol.i18n`); in English its output is the
engine's, byte for byte (tests/protocol/test_calls.py holds them equal over every preset).
:func:`said_event` gives a message (an ``event``, a ``snapshot``, a ``game_record``) with
its announcements said again in one reader's language, for the server's send path.

The words of each kind of score are marked with ``pgettext("call", ...)``, so the catalogs
hold them; numbers cannot be translated word by word (German "einunddreißig" puts the ones
before the tens, Spanish "veintiuno" joins them), so each language spells its numbers in
code here (:data:`SPELLERS`); a language without a speller (the tests' made-up one) hears
figures.

Why these words (the binding glossary of issue 36, from the seeds in /work/shared/seeds):

* Spanish card names are "as, jota, reina, rey" ("la jota de corazones"), not "sota,
  caballo, rey": Noddy is played with the French-suited 52-card deck, whose faces print J, Q
  and K; sota and caballo are the Spanish 40-card deck's, which has no queen, and a Spanish
  player reading "caballo" beside a card marked Q would be lost.
* The turned-up Jack ("knave noddy", also "his heels") is "sota boba" in Spanish, as the
  Spanish Noddy seed (002) calls it: *boba* is the game's own name (noddy, a fool) and the
  old word for the knave survives in the phrase, as "knave" does in English.  The Jack held
  in the turn-up's suit ("his nob") is "su jota".  German keeps the English names ("Knave
  Noddy", "His Heels", "His Nobs", "Muggins", "Pair Royal"), as the German seed (000) does.
* "go" is "Go" in German (the seed: sagt er „go”) and "paso" in Spanish (what a Spanish
  player says when they cannot play).

Standard library only, no I/O.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping, Sequence

from .i18n import DEFAULT_LANGUAGE, current_language, pgettext, speaking

#: A score item as the wire carries it: ``{"kind": "run", "points": 3, "cards": ["4H", ...]}``.
Item = Mapping[str, Any]

# -- numbers in words --------------------------------------------------------------------------

_EN_SMALL = ("zero one two three four five six seven eight nine ten eleven twelve thirteen "
             "fourteen fifteen sixteen seventeen eighteen nineteen").split()
_EN_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def english_number(n: int) -> str:
    """``english_number(25) == "twenty-five"``: the engine's spelling exactly (its calls say
    totals up to a game's target, at most 500 and a few over)."""
    if n < 0:
        return "minus " + english_number(-n)
    if n < 20:
        return _EN_SMALL[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _EN_TENS[tens] + ("-" + _EN_SMALL[ones] if ones else "")
    hundreds, rest = divmod(n, 100)
    head = _EN_SMALL[hundreds] + " hundred"
    return head + (" and " + english_number(rest) if rest else "")


_DE_SMALL = ("null eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf dreizehn "
             "vierzehn fünfzehn sechzehn siebzehn achtzehn neunzehn").split()
_DE_TENS = "_ _ zwanzig dreißig vierzig fünfzig sechzig siebzig achtzig neunzig".split()


def german_number(n: int) -> str:
    """``german_number(31) == "einunddreißig"``: one word, the ones before the tens;
    ``"hunderteinundzwanzig"`` (121) as a count is said at the table."""
    if n < 0:
        return "minus " + german_number(-n)
    if n < 20:
        return _DE_SMALL[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        lead = ("ein" if ones == 1 else _DE_SMALL[ones]) + "und" if ones else ""
        return lead + _DE_TENS[tens]
    if n < 1000:
        hundreds, rest = divmod(n, 100)
        head = ("" if hundreds == 1 else _DE_SMALL[hundreds]) + "hundert"
        return head + (german_number(rest) if rest else "")
    thousands, rest = divmod(n, 1000)
    head = ("" if thousands == 1 else german_number(thousands)) + "tausend"
    return head + (german_number(rest) if rest else "")


_ES_SMALL = ("cero uno dos tres cuatro cinco seis siete ocho nueve diez once doce trece catorce "
             "quince dieciséis diecisiete dieciocho diecinueve veinte veintiuno veintidós "
             "veintitrés veinticuatro veinticinco veintiséis veintisiete veintiocho "
             "veintinueve").split()
_ES_TENS = "_ _ _ treinta cuarenta cincuenta sesenta setenta ochenta noventa".split()
_ES_HUNDREDS = ("_ ciento doscientos trescientos cuatrocientos quinientos seiscientos "
                "setecientos ochocientos novecientos").split()


def spanish_number(n: int) -> str:
    """``spanish_number(31) == "treinta y uno"``, ``spanish_number(16) == "dieciséis"``,
    ``spanish_number(100) == "cien"``, ``spanish_number(121) == "ciento veintiuno"``."""
    if n < 0:
        return "menos " + spanish_number(-n)
    if n < 30:
        return _ES_SMALL[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _ES_TENS[tens] + (" y " + _ES_SMALL[ones] if ones else "")
    if n == 100:
        return "cien"
    if n < 1000:
        hundreds, rest = divmod(n, 100)
        return _ES_HUNDREDS[hundreds] + (" " + spanish_number(rest) if rest else "")
    thousands, rest = divmod(n, 1000)
    head = "mil" if thousands == 1 else spanish_number(thousands) + " mil"
    return head + (" " + spanish_number(rest) if rest else "")


#: How each language spells a number; a language not here hears figures ("15").
SPELLERS: dict[str, Callable[[int], str]] = {
    "en": english_number, "de": german_number, "es": spanish_number,
}


def number_words(n: int) -> str:
    """``n`` in words in the current language (figures where no speller is known)."""
    speller = SPELLERS.get(current_language())
    return speller(n) if speller is not None else str(n)


# -- cards in prose ----------------------------------------------------------------------------

#: A card's name with its article, by rank character; ``{suit}`` is the suit's name.
#: Written out per rank because the article goes with the rank (German "der Herz-Bube",
#: "die Herz-Dame", "das Herz-Ass"; Spanish "la jota", "el rey").
_CARD_NAMES: dict[str, Callable[[], str]] = {
    "A": lambda: pgettext("card name", "the ace of {suit}"),
    "2": lambda: pgettext("card name", "the two of {suit}"),
    "3": lambda: pgettext("card name", "the three of {suit}"),
    "4": lambda: pgettext("card name", "the four of {suit}"),
    "5": lambda: pgettext("card name", "the five of {suit}"),
    "6": lambda: pgettext("card name", "the six of {suit}"),
    "7": lambda: pgettext("card name", "the seven of {suit}"),
    "8": lambda: pgettext("card name", "the eight of {suit}"),
    "9": lambda: pgettext("card name", "the nine of {suit}"),
    "T": lambda: pgettext("card name", "the ten of {suit}"),
    "J": lambda: pgettext("card name", "the jack of {suit}"),
    "Q": lambda: pgettext("card name", "the queen of {suit}"),
    "K": lambda: pgettext("card name", "the king of {suit}"),
}
#: A suit's name inside a card's name ("hearts": "Herz", "corazones").
_SUIT_NAMES: dict[str, Callable[[], str]] = {
    "C": lambda: pgettext("card name", "clubs"),
    "D": lambda: pgettext("card name", "diamonds"),
    "H": lambda: pgettext("card name", "hearts"),
    "S": lambda: pgettext("card name", "spades"),
}


def card_name(card: str) -> str:
    """A wire card named in prose in the current language, with its article: ``"KS"`` is
    "the king of spades", "der Pik-König", "el rey de picas".  Text that is not a card
    comes back as it is."""
    rank, suit = card[:-1], card[-1:]
    rank = "T" if rank == "10" else rank
    name, suit_name = _CARD_NAMES.get(rank), _SUIT_NAMES.get(suit)
    if name is None or suit_name is None:
        return card
    return name().format(suit=suit_name())


# -- calling a score ---------------------------------------------------------------------------

#: The words of the kinds of score whose call depends on the kind alone, including every
#: name a preset gives its Jacks, its last card and its thirty-one (engine/rules.py).  A kind
#: not here and not worded in :func:`_phrase` is called by its (English) name.
_FIXED: dict[str, Callable[[], str]] = {
    "fifteen": lambda: pgettext("call", "fifteen"),
    "twenty-five": lambda: pgettext("call", "twenty-five"),
    "thirty-one": lambda: pgettext("call", "thirty-one"),
    "hitter": lambda: pgettext("call", "hitter"),
    "go": lambda: pgettext("call", "go"),
    "last card": lambda: pgettext("call", "last card"),
    "first deal": lambda: pgettext("call", "first deal"),
    "claim": lambda: pgettext("call", "claim"),
    "muggins": lambda: pgettext("call", "muggins"),
    "knave noddy": lambda: pgettext("call", "knave noddy"),
    "his heels": lambda: pgettext("call", "his heels"),
    "his nob": lambda: pgettext("call", "his nob"),
    "his nobs": lambda: pgettext("call", "his nobs"),
    "pair": lambda: pgettext("call", "a pair"),
    "pair royal": lambda: pgettext("call", "a pair royal"),
    "double pair royal": lambda: pgettext("call", "a double pair royal"),
    "flush": lambda: pgettext("call", "a flush"),
}


def _run_length(item: Item) -> int:
    """How many cards a run has.  A concealed show's items reach the other seats without
    their cards; the points tell the length then: a run scores a point a card, but for
    three under Noddy's scale (2), and no scale gives 2 for anything but three."""
    cards = item.get("cards") or ()
    if cards:
        return len(cards)
    points = int(item.get("points", 0))
    return 3 if points == 2 else points


def _phrase(item: Item, concealed: bool) -> str:
    kind = str(item.get("kind", ""))
    fixed = _FIXED.get(kind)
    if fixed is not None:
        return fixed()
    if kind == "run":
        return pgettext("call", "a run of {n}").format(n=number_words(_run_length(item)))
    if kind == "picture card":
        cards = item.get("cards") or ()
        if cards and not concealed:
            return card_name(str(cards[0]))
        return pgettext("call", "a picture card")
    return kind


def announce(items: Iterable[Item], start: int = 0, concealed: bool = False) -> str:
    """Call ``items`` (wire score items) with a running total from ``start``, in the
    current language: what the engine's ``announce`` says, in English byte for byte.
    ``concealed`` words it for players who may not know the cards (a picture card is not
    named).  No items: "nothing"."""
    running = start
    phrases = []
    for item in items:
        running += int(item.get("points", 0))
        phrases.append(pgettext("call", "{what} {total}").format(
            what=_phrase(item, concealed), total=number_words(running)))
    return pgettext("call", ", ").join(phrases) if phrases else pgettext("call", "nothing")


# -- messages said again in one reader's language ----------------------------------------------

#: The event kinds that carry an ``announcement`` made from their ``items``.
ANNOUNCED = ("scored", "counted")


def _concealed(event: Mapping[str, Any]) -> bool:
    """Whether the event's announcement was made for a seat that may not see the cards: a
    concealed show as the other seats get it (its cards withheld)."""
    return bool(event.get("concealed")) and event.get("cards") is None


def said(event: Mapping[str, Any]) -> Mapping[str, Any]:
    """An event with its announcement said in the current language (the event itself when it
    has none)."""
    if event.get("kind") not in ANNOUNCED or "announcement" not in event:
        return event
    return {**event, "announcement": announce(event.get("items") or (), 0, _concealed(event))}


def _said_all(events: Sequence[Any], key: str | None) -> list[Any] | None:
    """``events`` (bare events, or ``{key: event}`` entries) said again; None if nothing
    changed."""
    out, changed = [], False
    for entry in events:
        event = entry.get(key) if key is not None and isinstance(entry, Mapping) else entry
        new = said(event) if isinstance(event, Mapping) else event
        if new is not event:
            changed = True
            entry = {**entry, key: new} if key is not None else new
        out.append(entry)
    return out if changed else None


def _said_step(step: Any) -> Any:
    """A stored game's step (``{"action": ..., "events": [...]}``) said again, or itself."""
    if not isinstance(step, Mapping) or not step.get("events"):
        return step
    events = _said_all(step["events"], None)
    return step if events is None else {**step, "events": events}


def said_event(message: Mapping[str, Any], language: str) -> Mapping[str, Any]:
    """``message`` as a reader of ``language`` is sent it: every announcement in it (an
    ``event``'s, a ``snapshot``'s events', a ``game_record``'s) said again from its items in
    that language.  English (and a message with no announcement) returns ``message``
    itself; otherwise a copy, the original untouched (it is shared by every reader)."""
    if language == DEFAULT_LANGUAGE:
        return message
    kind = message.get("type")
    with speaking(language):
        if kind == "event" and isinstance(message.get("event"), Mapping):
            event = said(message["event"])
            return message if event is message["event"] else {**message, "event": event}
        if kind == "snapshot" and isinstance(message.get("events"), list):
            events = _said_all(message["events"], "event")
            return message if events is None else {**message, "events": events}
        if kind == "game_record" and isinstance(message.get("record"), Mapping):
            record = message["record"]
            opening = _said_all(record.get("opening") or [], None)
            steps = record.get("steps") or []
            new_steps = [_said_step(step) for step in steps]
            if opening is None and all(a is b for a, b in zip(new_steps, steps)):
                return message
            new_record = {**record, "steps": new_steps}
            if opening is not None:
                new_record["opening"] = opening
            return {**message, "record": new_record}
    return message


__all__ = ["announce", "card_name", "number_words", "said", "said_event", "SPELLERS",
           "english_number", "german_number", "spanish_number"]
