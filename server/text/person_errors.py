"""Errors reworded for the person who caused them, in text mode: "you do not hold TH" for
their own seat, not "seat 0 does not hold TH", and every seat counted from 1 as people
count (:func:`person_error`, which the text adapter applies to a person's own errors).

An error's message may be a Phrase (the core's, said again in each reader's language): it
stays one (:class:`PersonPhrase`), reading the English rewording in English and, in another
language, the Phrase with its seats counted from 1 and its phase named in words.  Apart from
:mod:`.render` because it rewords, where that module lays out.
"""

from __future__ import annotations

import re
from typing import Any

from noddy.protocol.i18n import DEFAULT_LANGUAGE, Phrase, current_language, pgettext


#: Engine and server errors that name the reader's own seat, reworded for them.
_YOU = ((re.compile(r"\bseat {seat} does not hold\b"), "you do not hold"),
        (re.compile(r"\bseat {seat} has already\b"), "you have already"),
        (re.compile(r"\bseat {seat} can play\b"), "you can play"),
        (re.compile(r"\bnot seat {seat}'s\b"), "not yours"))


#: The engine names a phase by its code word; a person is told what to do instead.
_PHASES = {" (phase: discard)": ": lay away to the crib first (look shows how)",
           " (phase: play)": ": the play is on",
           " (phase: claim)": " (claim N)", " (phase: muggins)": " (muggins N, or pass)"}

#: In a Phrase's English template: the placeholders that hold a seat as the protocol counts
#: it (from 0), which a person is told counted from 1, as the English rewording does.
_SEAT_PLACES = (re.compile(r"\bseats? \{(\w+)\}"), re.compile(r"\bseats \{\w+\} to \{(\w+)\}"))
#: ... and the seat a ``no_such_seat`` refusal ends on ("..., not {seat}").
_LAST_SEAT = re.compile(r"\bnot \{(\w+)\}$")
#: A phase's code word at the end of a Phrase's English template.
_PHASE_PLACE = re.compile(r"\(phase: \{(\w+)\}\)$")


def _phase_word(phase: str) -> str:
    """A phase's code word as the reader's language names it."""
    words = {"discard": pgettext("game phase", "discard"), "play": pgettext("game phase", "play"),
             "claim": pgettext("game phase", "claim"), "muggins": pgettext("game phase", "muggins")}
    return words.get(phase, phase)


class PersonPhrase(Phrase):
    """An error's Phrase as its reader reads it: in English the reworded text of
    :func:`person_error` ("you do not hold TH", seats from 1); in another language the
    Phrase said with its seats counted from 1 and its phase named in words (the English
    rewording's "you" stands on English sentences, so another language names the seat)."""

    english: str

    def __new__(cls, original: Phrase, english: str, code: str) -> "PersonPhrase":
        params = dict(original.params)
        template = original.msgid if original.plural is None else original.plural[1]
        places = {m[1] for pattern in _SEAT_PLACES for m in pattern.finditer(template)}
        if code == "no_such_seat":
            places |= {m[1] for m in _LAST_SEAT.finditer(template)}
        for place in places:
            if isinstance(params.get(place), int):
                params[place] += 1
        phase = _PHASE_PLACE.search(template)
        self = str.__new__(cls, english)
        self.msgid, self.plural, self.english = original.msgid, original.plural, english
        self.params = params
        self._phase = phase[1] if phase else None  # type: ignore[attr-defined]
        return self

    def said(self) -> str:
        if current_language() == DEFAULT_LANGUAGE:
            return self.english
        if self._phase is not None and isinstance(self.params.get(self._phase), str):  # type: ignore[attr-defined]
            saved = self.params
            self.params = {**saved, self._phase: _phase_word(saved[self._phase])}  # type: ignore[attr-defined]
            try:
                return super().said()
            finally:
                self.params = saved
        return super().said()

    def __reduce__(self) -> Any:  # a copy reads as the English it is (the rewording is done)
        return (str, (self.english,))


def person_error(error: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """``error`` as it reads to the person in ``seat`` (None: not seated): "you do not hold
    TH" for their own seat, and every other seat number counted from 1.  A Phrase stays
    one (:class:`PersonPhrase`), so another language's reader is told it in theirs."""
    text = error["message"]
    for code_word, words in _PHASES.items():
        if text.endswith(code_word):
            text = text[:-len(code_word)] + words
    if seat is not None:
        for pattern, words in _YOU:
            text = re.sub(pattern.pattern.format(seat=seat), words, text)
    text = re.sub(r"\bseats (\d+) to (\d+)\b",
                  lambda m: f"seats {int(m[1]) + 1} to {int(m[2]) + 1}", text)
    text = re.sub(r"\bseat (\d+)\b", lambda m: f"seat {int(m[1]) + 1}", text)
    if error["code"] == "no_such_seat":
        text = re.sub(r"\bnot (\d+)$", lambda m: f"not {int(m[1]) + 1}", text)
    if text == error["message"]:
        return error
    if isinstance(error["message"], Phrase):
        return {**error, "message": PersonPhrase(error["message"], str(text), error["code"])}
    return {**error, "message": text}
