"""Text mode's ``lang``: the language a person at a bare terminal reads, as the ``language``
request a JSON client sends.

``lang de`` (or ``lang es``, ``lang en``; a language's own name, ``lang deutsch``, too) asks
for that language; ``lang`` alone asks the server which one the connection reads, and its
answer lists the others, each in its own name (:func:`language_line`).  It works before
``name``: a German newcomer types ``lang de`` first, and reads everything after in German.
The command word stays ``lang`` in every language (command words are never translated).
"""

from __future__ import annotations

from typing import Any

from noddy.protocol.i18n import LANGUAGES, N_, _

from ..core.languages import lang_commands

#: How the command is written (``bad_command`` says it, and ``help lang``).
LANG_USAGE = N_("lang, or lang de (es, en)")
#: The command's entry in the help (``help lang``): heading, then lines.
LANG_HELP = (N_("lang [de|es|en]"), N_("the language you read: Deutsch, Español, English;\n"
                                        "lang alone says which one you read now"))


def read_lang(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    """``lang [LANGUAGE]``: a ``language`` request (None for more than one word: the person is
    told how it is written).  A language's name in itself is taken for its code."""
    if len(args) > 1:
        return None
    if not args:
        return {"type": "language"}
    word = args[0]
    by_name = {name.lower(): code for code, name in LANGUAGES.items()}
    return {"type": "language", "language": by_name.get(word.lower(), word)}


def language_line(message: dict[str, Any]) -> str:
    """The ``language`` reply as a line, said in the language it names."""
    code = message["language"]
    return _("Language: {language}.").format(language=LANGUAGES.get(code, code)) + "  " + lang_commands(code)

