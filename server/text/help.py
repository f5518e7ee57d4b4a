"""Text-mode help: the list a person gets for ``help``, and what ``help VERB`` tells of one
command, both read from the commands' declarations (:data:`~.commands.COMMANDS`: each
command's ``brief`` and ``help``), so a new command is in the help by being declared.

Apart from :mod:`.commands` because it is another job: that module reads what a person
types; this one lays out what they read, within an 80x24 terminal.
"""

from __future__ import annotations

import textwrap

from noddy.engine import PRESETS

from .commands import BY_VERB, COMMANDS


#: The widest a line of help may be, and the most lines the list may have: an 80x24
#: terminal, with a line to spare for what the person types next.
HELP_WIDTH, HELP_LINES = 80, 23


def _help_text() -> str:
    """:data:`~.help.HELP`: one line a command (or a group), from each command's ``brief``."""
    lines = ["Commands, one a line (help COMMAND tells more, e.g. help new):"]
    for command in COMMANDS:
        if command.brief is not None:
            left, right = command.brief
            lines.append(f"  {left:<27} {right}")
    return "\n".join(lines)


def help_reply(line: str) -> str:
    """The text a ``help`` line is answered with: the list, or (``help VERB``) one command."""
    words = line.split()[1:]
    return help_for(words[0]) if words else HELP


def help_for(verb: str) -> str:
    """What ``help VERB`` says: the command's help entry (its group's), how it is written,
    and for ``new`` the presets; a word that is no command says so."""
    command = BY_VERB.get(verb.lower())
    if command is None:
        return f"There is no command {verb!r}; type help for the list."
    entry = None
    for other in COMMANDS:  # the entry of the command's group: the last one at or before it
        if other.help is not None:
            entry = other.help
        if other is command:
            break
    lines: list[str] = []
    if entry is not None:
        left, right = entry
        lines.append(left)
        lines += ["    " + more for more in right]
    if command.usage:
        lines.append("Written: " + command.usage.format(verb=command.verbs[0]) + ".")
    if len(command.verbs) > 1:
        lines.append("Also: " + ", ".join(command.verbs[1:]) + ".")
    if command.verbs[0] == "new":
        lines += textwrap.wrap("Presets: " + " ".join(PRESETS) + "; e.g. new cribbage 4 pairs target=61. "
                               "Options as name=value: target=61 counting=manual hints=true "
                               "knave_noddy=false; match=3 plays a match to 3 match points; "
                               "password=PW makes it private; timer=SECONDS a turn timer.", width=HELP_WIDTH - 2, break_on_hyphens=False)
    wrapped = []
    for line in lines:
        indent = " " * (len(line) - len(line.lstrip()))
        wrapped += textwrap.wrap(line, width=HELP_WIDTH - 2, subsequent_indent=indent + "  ",
                                 break_on_hyphens=False) or [""]
    return "\n".join(wrapped)


HELP = _help_text()


