"""Text-mode commands: what a person types at a bare terminal, read into the request a JSON
client would send.

This module is the table of them (:data:`COMMANDS`): each command's words, the request it
sends, how it is written and its lines of the help, declared once, in the order the help
lists them; and :func:`parse_command`, which finds a line's command and has it read.  The
readers that turn the words after a verb into a request live apart, by topic, each a named
function: tables and seats (:mod:`.seat_commands`), the game's moves
(:mod:`.move_commands`), people (:mod:`.people_commands`), one's session and account
(:mod:`.session_commands`), records and statistics (:mod:`.record_commands`) and club nights
(:mod:`.club_text`).  So this table reads as the list of commands, and a reader as what its
command accepts.

People count seats from 1, so text mode does too: ``sit 1`` is the JSON seat 0.  A known
command written wrong says how it is written (``bad_command``); anything else is
``unknown_command``.  :mod:`.help` lists them all, from the same declarations.

>>> parse_command("play 5h")
{'type': 'action', 'action': 'play', 'card': '5h'}
>>> parse_command("new cribbage 4 pairs target=61")["options"]
{'target': 61}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from noddy.protocol import ProtocolError
from noddy.protocol.i18n import N_, Phrase
from noddy.protocol.request_table import SPECS

from . import club_text as club
from . import move_commands as moves
from . import people_commands as people
from . import record_commands as records
from . import seat_commands as seats
from . import session_commands as session
from .language_commands import LANG_HELP, LANG_USAGE, read_lang
from .words import Reader, bare


@dataclass(frozen=True)
class Command:
    """One text command, declared once: the words that call it, the request it sends, how it
    is written and its line of :data:`~.help.HELP`.

    ``read(verb, args, rest)`` gives the request for the words after the verb (``rest``: the
    line after the verb, as typed), or None when they do not fit, and the person is told how
    the command is written (``usage``, with ``{verb}`` the word they typed; a command that
    takes nothing after it needs none).  ``brief`` is its line of :data:`~.help.HELP`, the
    list that fits an 80x24 terminal (left column, text); ``help`` what ``help VERB`` tells
    of it (a heading, then its text, its English broken into lines by ``\n``).  Either is
    None where another command's entry names it.  Each text is marked with ``N_`` where it is
    written and said in the reader's language where it is shown (:mod:`.help`); the command
    words in it stay English in every language, only the words around them are translated."""

    verbs: tuple[str, ...]
    request: str | None
    read: Reader
    usage: str = N_("{verb}, with nothing after it")
    help: tuple[str, tuple[str, ...]] | None = None
    brief: tuple[str, str] | None = None


#: Every text command, in the order :data:`~.help.HELP` lists them.
COMMANDS: tuple[Command, ...] = (
    # Tables and seats.
    Command(("tables", "list", "ls"), "list_tables", seats.read_tables,
            usage=N_("{verb}, or {verb} people"),
            help=(N_("tables [people]"), N_("list the tables (people: only those where no bot sits)")),
            brief=(N_("tables [people]"), N_("list the tables (people: those without bots)"))),
    Command(("new",), "create_table", seats.read_new, usage="",
            help=(N_("new PRESET [N] [pairs] [opt=value ...] [password=PW] [timer=SECONDS]"),
                  N_("create a table for N players and sit in seat 1")),
            brief=(N_("new PRESET [N] [pairs]"), N_("a table for N players, you in seat 1 (help new)"))),
    Command(("join",), "sit", seats.read_join,
            usage=N_("join TABLE, or join TABLE PASSWORD"),
            help=(N_("join TABLE [PASSWORD]"), N_("sit in the first free seat of a table")),
            brief=(N_("join TABLE [PASSWORD]"), N_("sit in the first free seat of a table"))),
    Command(("sit",), "sit", seats.read_sit,
            usage=N_("sit SEAT, or sit TABLE SEAT, or sit TABLE SEAT PASSWORD"),
            help=(N_("sit SEAT | sit TABLE SEAT [PASSWORD]"), N_("seats are numbered from 1")),
            brief=(N_("sit SEAT"), N_("sit in that seat (seats count from 1; help sit)"))),
    Command(("watch",), "spectate", seats.read_watch,
            usage=N_("watch TABLE, or watch TABLE PASSWORD"),
            help=(N_("watch TABLE [PASSWORD]"), N_("watch a table")),
            brief=(N_("watch TABLE [PASSWORD]"), N_("watch a table"))),
    Command(("bot",), "add_computer", seats.read_bot,
            usage=N_("bot, or bot SEAT, or bot LEVEL, or bot SEAT LEVEL"),
            help=(N_("bot [SEAT] [LEVEL]"), N_("a computer player takes a seat")),
            brief=(N_("bot [SEAT] [LEVEL]"), N_("a computer player takes a seat (unbot SEAT)"))),
    Command(("unbot",), "remove_computer", seats.read_unbot,
            usage=N_("unbot SEAT"),
            help=(N_("unbot SEAT"), N_("the computer player leaves the seat"))),
    Command(("stand",), "stand", bare({"type": "stand"}),
            help=(N_("stand | leave | giveup"),
                  N_("stand up (stay watching) | go back to the lobby (mid-game:\n"
                     "resign) | give up the match going on, between its games,\n"
                     "and stay seated (the other side wins it)")),
            brief=(N_("stand | leave | giveup"), N_("watch | to the lobby | give up the match"))),
    Command(("leave",), "leave", bare({"type": "leave"})),
    Command(("giveup",), "resign_match", bare({"type": "resign_match"})),
    Command(("wait",), "stand_in", seats.read_wait,
            usage=N_("wait SEAT"),
            help=(N_("wait SEAT | standin SEAT"),
                  N_("a seat's person is away: the table waits for them (the computer\n"
                     "standing in leaves) | a computer plays for them meanwhile (also\n"
                     "for a person here who has said nothing for long on their turn)"))),
    Command(("standin",), "stand_in", seats.read_standin,
            usage=N_("standin SEAT")),
    Command(("ready", "start"), "ready", bare({"type": "ready", "ready": True}),
            help=(N_("ready | unready"), N_("the game starts when every seat is taken and ready")),
            brief=(N_("ready | unready"), N_("the game starts when every seat is ready"))),
    Command(("unready",), "ready", bare({"type": "ready", "ready": False})),
    # The game's moves.
    Command(("play",), "action", moves.read_play,
            usage=N_("play CARD, e.g. play 5H"),
            help=(N_("play CARD | go | discard CARD CARD"),
                  N_("cards are rank+suit: A 2-9 T J Q K and C D H S, e.g. 5H TC;\n"
                     "discard also takes the numbers of the prompt: discard 1 2")),
            brief=(N_("play CARD | go"), N_("play a card (5H, TC: rank, suit) | say go"))),
    Command(("go",), "action", bare({"type": "action", "action": "go"})),
    Command(("discard",), "action", moves.read_discard,
            usage=N_("discard CARD CARD, or the numbers the prompt shows: discard 1 2"),
            brief=(N_("discard CARD CARD"), N_("lay away to the crib (or the numbers: discard 1 2)"))),
    Command(("claim",), "action", moves.read_claim,
            usage=N_("claim N, the points you count in the cards"),
            help=(N_("claim N | muggins N | pass"),
                  N_("counting by hand (new cribbage counting=manual): claim your\n"
                     "hand's points; say an opponent's hand holds N; let it stand")),
            brief=(N_("claim N | muggins N | pass"), N_("counting by hand (help claim)"))),
    Command(("muggins",), "action", moves.read_muggins,
            usage=N_("muggins N, the points the cards hold")),
    Command(("pass",), "action", bare({"type": "action", "action": "pass"})),
    Command(("hint",), "hint", bare({"type": "hint"}),
            help=(N_("hint | review [DEAL]"),
                  N_("the coach (new ... hints=true): your choices ranked | the\n"
                     "decisions of a deal that fell short of the best")),
            brief=(N_("look | hint | review"), N_("the table again | the coach (new ... hints=true)"))),
    Command(("review",), "review", moves.read_review,
            usage=N_("review, or review DEAL")),
    # People: talking, and finding an opponent.
    Command(("say",), "chat", people.read_say,
            usage=N_("say TEXT"),
            help=(N_("say TEXT | shout TEXT | whisper TEXT"),
                  N_("chat at your table (or the lobby) | chat in the lobby | watching,\n"
                     "chat with the other watchers (the players read it after the game)")),
            brief=(N_("say | shout | whisper TEXT"), N_("chat: your table | the lobby | the watchers"))),
    Command(("shout",), "chat", people.read_shout,
            usage=N_("shout TEXT")),
    Command(("whisper",), "chat", people.read_whisper,
            usage=N_("whisper TEXT")),
    Command(("tell",), "tell", people.read_tell,
            usage=N_("tell NAME TEXT"),
            help=(N_("tell NAME TEXT | mute NAME | unmute NAME | muted"),
                  N_("a private message to NAME, wherever they are | hear no more of\n"
                     "NAME (chat, tells, challenges) | hear them again | whom you muted"))),
    Command(("mute", "gag"), "mute", people.read_mute,
            usage=N_("mute NAME")),
    Command(("unmute", "ungag"), "unmute", people.read_unmute,
            usage=N_("unmute NAME")),
    Command(("muted",), "muted", bare({"type": "muted"})),
    # Looking again: the table, finished games, ratings and statistics.
    Command(("look",), "snapshot", bare({"type": "snapshot"}),
            help=(N_("look"), N_("show the table and your cards again"))),
    Command(("games",), "list_games", records.read_games,
            usage=N_("games, or games NAME"),
            help=(N_("games [NAME]"), N_("your (or NAME's) finished games, newest first")),
            brief=(N_("games [NAME] | game ID"), N_("finished games, newest first | one of them"))),
    Command(("game",), "get_game", records.read_game,
            usage=N_("game ID, or game ID PASSWORD"),
            help=(N_("game ID [PASSWORD]"), N_("one finished game: its players, deals and result"))),
    Command(("leaderboard", "ratings"), "leaderboard", records.read_leaderboard,
            usage=N_("{verb}, or {verb} noddy, or {verb} cribbage (add people: no bots)"),
            help=(N_("leaderboard [noddy|cribbage] [people]"),
                  N_("the ratings of one family of games (noddy: default); people: no bots")),
            brief=(N_("ratings | stats [NAME]"), N_("the leaderboard (help ratings) | statistics"))),
    Command(("stats",), "stats", records.read_stats,
            usage=N_("stats, or stats NAME, or stats NAME PRESET (or FAMILY)"),
            help=(N_("stats [NAME [PRESET]]"),
                  N_("your (or NAME's) statistics per preset: games, wins, points\n"
                     "per deal, best hand, skunks, the rating over time"))),
    # People again: who is online, challenges, invitations and seeks.
    Command(("who",), "who", people.read_who,
            usage=N_("who, or who people"),
            help=(N_("who [people]"), N_("who is online, bot or person, and where (people: no bots)")),
            brief=(N_("who [people] | tell NAME"), N_("who is online | a private word (help tell)"))),
    Command(("challenge",), "challenge", people.read_challenge,
            usage=N_("challenge NAME, or challenge NAME PRESET [opt=value ...] [ready]"),
            help=(N_("challenge NAME [PRESET] [opt=value ...] [ready] | invite NAME | accept ID | decline ID"),
                  N_("ask a player in the lobby to a two-handed game (a new table seats\n"
                     "you both; ready: you are ready at once) | to your table (no\n"
                     "password needed) | take it | say no to it (decline your own to\n"
                     "withdraw it)")),
            brief=(N_("challenge | invite NAME"), N_("a game | your table, with NAME (accept ID)"))),
    Command(("invite",), "invite", people.read_invite,
            usage=N_("invite NAME, or invite NAME TEXT")),
    Command(("accept",), "accept", people.read_accept,
            usage=N_("accept ID, or accept ID ready")),
    Command(("decline",), "decline", people.read_decline,
            usage=N_("decline ID")),
    Command(("seek",), "seek", people.read_seek,
            usage=N_("seek, or seek PRESET [people|bots] [opt=value ...] [ready]"),
            help=(N_("seek [PRESET] [people|bots] [opt=value ...] [ready] | unseek"),
                  N_("wait for anyone (or only people, or only bots) seeking the same\n"
                     "game: a new table seats you both | stop waiting")),
            brief=(N_("seek [PRESET] | unseek"), N_("wait for an opponent for PRESET (help seek)"))),
    Command(("unseek",), "unseek", bare({"type": "unseek"})),
    # Club nights.
    Command(("events",), "events", club.read_events, help=club.EVENTS_HELP, brief=club.BRIEF),
    Command(("event",), "event", club.read_event, usage=N_("event N")),
    Command(("enter",), "join_event", club.read_enter, usage=N_("enter N, or enter N PASSWORD")),
    Command(("withdraw",), "withdraw_event", club.read_withdraw, usage=N_("withdraw N")),
    Command(("announce",), "announce_event", club.read_announce,
            usage=club.ANNOUNCE_USAGE, help=club.ANNOUNCE_HELP),
    Command(("direct",), "direct_event", club.read_direct,
            usage=club.DIRECT_USAGE, help=club.DIRECT_HELP),
    # One's session: the name, the account, and the lines text mode answers itself.
    Command(("name",), "hello", session.read_name,
            usage=N_("name NAME"),
            help=(N_("name NAME"), N_("choose your name (any time until you sit down)")),
            brief=(N_("name NAME | resume TOKEN"), N_("your name | take back your seat (help resume)"))),
    Command(("login",), "hello", session.read_login,
            usage=N_("login NAME PASSWORD (the password is the last word)"),
            help=(N_("login NAME PASSWORD"),
                  N_("your registered name and its password (the last word)\n"
                     "(a password is sent in the clear: see help register)")),
            brief=(N_("login NAME PW | register"), N_("log in | keep your name, be rated (help register)"))),
    Command(("register",), "register", session.read_register,
            usage=N_("register PASSWORD PASSWORD (one word, as login takes it, typed twice)"),
            help=(N_("register PASSWORD PASSWORD | password OLD NEW | unregister PASSWORD"),
                  N_("keep your name for good (then: login NAME PASSWORD) and be rated;\n"
                     "the password typed twice (register PW alone asks for it again);\n"
                     "change its password | give the account up. Over plain nc a\n"
                     "password is sent (and shown) in the clear: see PROTOCOL.md, Encryption"))),
    Command(("password",), "change_password", session.read_password,
            usage=N_("password OLD NEW")),
    Command(("unregister",), "unregister", session.read_unregister,
            usage=N_("unregister PASSWORD")),
    Command(("resume",), "hello", session.read_resume,
            usage=N_("resume TOKEN"),
            help=(N_("resume TOKEN"),
                  N_("take back your seat, or your place as a watcher, after a\n"
                     "lost connection (any time until you sit down)"))),
    Command(("ping",), "ping", bare({"type": "ping"}),
            help=(N_("ping | help | quit"), ""),
            brief=(N_("width N | help | quit"), N_("wrap at N columns | help COMMAND, e.g. help new"))),
    Command(("help", "?"), None, session.read_help,
            usage=N_("help, or help COMMAND")),
    Command(("quit", "exit", "bye"), "bye", bare({"type": "bye"})),
    Command(("lang", "language"), "language", read_lang, usage=LANG_USAGE, help=LANG_HELP),
    Command(("width",), None, session.read_width,
            usage=N_("width, or width N"),
            help=(N_("width [N]"),
                  N_("wrap the lines you read at N columns ({least} to {most}; 80 at first);\n"
                     "width alone says the width now"))),
)

#: The request types a person has no text command for, and why (from their declarations).
JSON_ONLY = {spec.type: spec.no_text for spec in SPECS if spec.no_text is not None}

#: Each command by each of its words.
BY_VERB = {verb: command for command in COMMANDS for verb in command.verbs}


def written(command: Command, verb: str) -> Phrase | str:
    """How ``command`` is written (its usage, with the word the person typed), as a Phrase
    said in each reader's language ("" for a command with no usage line)."""
    return Phrase(command.usage, verb=verb) if command.usage else ""


def parse_command(line: str) -> dict[str, Any] | None:
    """The request a text line stands for; ``None`` for a line text mode answers itself
    (``help``, ``width``: see the adapter); ``bad_command`` for a known
    command written wrong (saying how it is written), ``unknown_command`` otherwise."""
    words = line.split()
    verb, args = words[0].lower(), words[1:]
    rest = line.strip()[len(words[0]):].strip()
    command = BY_VERB.get(verb)
    if command is None:
        raise ProtocolError("unknown_command",
                            Phrase("not a command: {line!r}; type help for the list", line=line.strip()))
    request = command.read(verb, args, rest)
    if request is None and command.request is not None:
        # A newcomer who types ``play`` without a card was told "not a command", which is
        # false and no help: say how it is written.
        raise ProtocolError("bad_command", Phrase("write {usage}; type help for all commands",
                                                  usage=written(command, verb)))
    return request
