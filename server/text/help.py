"""Text-mode help: the list a person gets for ``help``, and what ``help VERB`` tells of one
command, both read from the commands' declarations (:data:`~.commands.COMMANDS`: each
command's ``brief`` and ``help``), so a new command is in the help by being declared.

Apart from :mod:`.commands` because it is another job: that module reads what a person
types; this one lays out what they read, within an 80x24 terminal.

The help is said in the reader's language: a ``help`` line is answered with a
:class:`HelpText`, a Phrase that lays the help out again in the language it is said in (the
send path renders a text connection's lines inside ``with speaking(lang):``).  The English
keeps the lines its authors broke by hand; another language's text is wrapped between words
within the same 80 columns.
"""

from __future__ import annotations

import textwrap
from typing import Any

from noddy.engine import PRESETS
from noddy.protocol.i18n import DEFAULT_LANGUAGE, Phrase, _, speaking

from .commands import BY_VERB, COMMANDS
from .wrapping import MAX_WIDTH, MIN_WIDTH


#: The widest a line of help may be, and the most lines the list may have: an 80x24
#: terminal, with a line to spare for what the person types next.
HELP_WIDTH, HELP_LINES = 80, 23
#: The list's left column (a command as written), and where its right column begins.
LEFT_COLUMN = 27
#: How far ``help VERB`` indents the text under a command's heading.
ENTRY_INDENT = "    "


def _lines(text: str) -> list[str]:
    """A help text (its English broken into lines by ``\\n``) as lines in the current
    language: the English as its authors broke it, a translation wrapped between words so
    that, indented, it fits :data:`HELP_WIDTH`."""
    said = _(text)
    lines = (text.split("\n") if said == text else
             textwrap.wrap(said.replace("\n", " "), width=HELP_WIDTH - 2 - len(ENTRY_INDENT),
                           break_on_hyphens=False, break_long_words=False))
    return [line.format(least=MIN_WIDTH, most=MAX_WIDTH) for line in lines] if "{least}" in text else lines


def _help_text() -> str:
    """:data:`~.help.HELP`: one line a command (or a group), from each command's ``brief``."""
    lines = [_("Commands, one a line (help COMMAND tells more, e.g. help new):")]
    for command in COMMANDS:
        if command.brief is not None:
            left, right = _(command.brief[0]), _(command.brief[1])
            line = f"  {left:<{LEFT_COLUMN}} {right}"
            if len(line) > HELP_WIDTH:  # a translation longer than the column: on under it
                line = "\n".join(textwrap.wrap(line, width=HELP_WIDTH, subsequent_indent=" " * (LEFT_COLUMN + 3),
                                               break_on_hyphens=False, break_long_words=False))
            lines.append(line)
    return "\n".join(lines)


def help_answer(line: str) -> str:
    """The text a ``help`` line is answered with, in the current language: the list, or
    (``help VERB``) one command."""
    words = line.split()[1:]
    return help_for(words[0]) if words else _help_text()


class HelpText(Phrase):
    """The answer to a ``help`` line, said in each reader's language (it is its English)."""

    line: str

    def __new__(cls, line: str) -> "HelpText":
        with speaking(DEFAULT_LANGUAGE):
            english = help_answer(line)
        self = str.__new__(cls, english)
        self.msgid, self.params, self.plural, self.line = english, {}, None, line
        return self

    def said(self) -> str:
        return help_answer(self.line)

    def __reduce__(self) -> Any:
        return (HelpText, (self.line,))


def help_reply(line: str) -> HelpText:
    """The text a ``help`` line is answered with: the list, or (``help VERB``) one command."""
    return HelpText(line)


def help_for(verb: str) -> str:
    """What ``help VERB`` says: the command's help entry (its group's), how it is written,
    and for ``new`` the presets; a word that is no command says so."""
    command = BY_VERB.get(verb.lower())
    if command is None:
        return _("There is no command {verb!r}; type help for the list.").format(verb=verb)
    entry = None
    for other in COMMANDS:  # the entry of the command's group: the last one at or before it
        if other.help is not None:
            entry = other.help
        if other is command:
            break
    lines: list[str] = []
    if entry is not None:
        left, right = entry
        lines.append(_(left))
        if right:
            lines += [ENTRY_INDENT + more for more in _lines(right)]
    if command.usage:
        lines.append(_("Written: {usage}.").format(usage=_(command.usage).format(verb=command.verbs[0])))
    if len(command.verbs) > 1:
        lines.append(_("Also: {verbs}.").format(verbs=", ".join(command.verbs[1:])))
    if command.verbs[0] == "new":
        lines += textwrap.wrap(_("Presets: {presets}; e.g. new cribbage 4 pairs target=61. "
                                 "Options as name=value: target=61 counting=manual hints=true "
                                 "knave_noddy=false; match=3 plays a match to 3 match points; "
                                 "password=PW makes it private; timer=SECONDS a turn timer.").format(
                                     presets=" ".join(PRESETS)),
                               width=HELP_WIDTH - 2, break_on_hyphens=False)
    wrapped = []
    for line in lines:
        indent = " " * (len(line) - len(line.lstrip()))
        wrapped += textwrap.wrap(line, width=HELP_WIDTH - 2, subsequent_indent=indent + "  ",
                                 break_on_hyphens=False) or [""]
    return "\n".join(wrapped)


HELP = _help_text()


