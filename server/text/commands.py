"""Text-mode commands: what a person types at a bare terminal, read into the request a JSON
client would send.

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
from typing import Any, Callable, Sequence

from noddy.protocol import PROTOCOL_VERSION, ProtocolError
from noddy.protocol.request_table import SPECS

from . import club_text as club
from .wrapping import MAX_WIDTH, MIN_WIDTH

def _value(text: str) -> Any:
    lowered = text.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    try:
        return int(text)
    except ValueError:
        return text


def _int(word: str, what: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise ProtocolError("bad_field", f"{what} must be a number, not {word!r}", field=what) from None


def _seat(word: str) -> int:
    """A seat as people number them (from 1) -> the protocol's seat (from 0)."""
    seat = _int(word, "seat")
    if seat < 1:
        raise ProtocolError("no_such_seat", "seats are numbered from 1", field="seat")
    return seat - 1



@dataclass(frozen=True)
class Command:
    """One text command, declared once: the words that call it, the request it sends, how it
    is written and its line of :data:`~.help.HELP`.

    ``read(verb, args, rest)`` gives the request for the words after the verb (``rest``: the
    line after the verb, as typed), or None when they do not fit, and the person is told how
    the command is written (``usage``, with ``{verb}`` the word they typed; a command that
    takes nothing after it needs none).  ``brief`` is its line of :data:`~.help.HELP`, the list that
    fits an 80x24 terminal (left column, text); ``help`` what ``help VERB`` tells of it (a
    heading, then lines).  Either is None where another command's entry names it."""

    verbs: tuple[str, ...]
    request: str | None
    read: Callable[[str, list[str], str], dict[str, Any] | None]
    usage: str = "{verb}, with nothing after it"
    help: tuple[str, tuple[str, ...]] | None = None
    brief: tuple[str, str] | None = None


def _bare(request: dict[str, Any]) -> Callable[[str, list[str], str], dict[str, Any] | None]:
    """A command that takes nothing after it and sends ``request``."""
    return lambda verb, args, rest: None if args else dict(request)


def _bot(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    if len(args) > 2:
        return None
    request: dict[str, Any] = {"type": "add_computer"}
    for word in args:
        if word.isdigit():
            request["seat"] = _seat(word)
        else:
            request["level"] = word
    return request


def _game(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    if len(args) not in (1, 2):
        return None
    request = {"type": "get_game", "game": _int(args[0].lstrip("#"), "game")}
    return request if len(args) == 1 else {**request, "password": args[1]}  # a private game's


def _leaderboard(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    words = [word.lower() for word in args]
    request: dict[str, Any] = {"type": "leaderboard", "family": "noddy"}
    if "people" in words:
        words.remove("people")
        request["people_only"] = True
    if len(words) > 1:
        return None
    if words:
        request["family"] = words[0]
    return request


def _game_words(words: list[str], request: dict[str, Any]) -> dict[str, Any] | None:
    """The preset, ``opt=value`` options and ``ready`` of a challenge or a seek (and its
    ``people``/``bots``), after the words that are its own."""
    options: dict[str, Any] = {}
    for word in words:
        lowered = word.lower()
        if "=" in word:
            key, _, value = word.partition("=")
            options[key] = _value(value)
        elif lowered == "ready":
            request["ready"] = True
        elif lowered in ("people", "bots", "any") and request["type"] == "seek":
            request["opponents"] = lowered
        elif "preset" not in request:
            request["preset"] = lowered
        else:
            return None
    if options:
        request["options"] = options
    return request


def _challenge(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    if not args:
        return None
    return _game_words(args[1:], {"type": "challenge", "name": args[0]})


def _seek(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    return _game_words(args, {"type": "seek"})


def _sit(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    if len(args) == 1:
        return {"type": "sit", "seat": _seat(args[0])}
    if 2 <= len(args) <= 3:
        return {"type": "sit", "table": _int(args[0], "table"), "seat": _seat(args[1]),
                "password": args[2] if len(args) == 3 else None}
    return None


def _width(verb: str, args: list[str], rest: str) -> None:
    """``width`` or ``width N``: answered by the text adapter itself (nothing goes to the
    core); a bad N is refused here, so the person is told at once."""
    if len(args) > 1:
        raise ProtocolError("bad_command", "write width, or width N; type help for all commands")
    if args:
        if not args[0].isdigit():
            raise ProtocolError("bad_field", f"width must be a number from {MIN_WIDTH} to {MAX_WIDTH}, "
                                f"not {args[0]!r}", field="width")
        if not MIN_WIDTH <= int(args[0]) <= MAX_WIDTH:
            raise ProtocolError("bad_field", f"width must be from {MIN_WIDTH} to {MAX_WIDTH}, "
                                f"not {int(args[0])}", field="width")
    return None


def _register(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    """``register PW`` (the text adapter asks for it again) or ``register PW PW``: the
    password typed twice, so a typo cannot lock the person out of their name (issue 33)."""
    if len(args) not in (1, 2):
        return None
    request = {"type": "register", "password": args[0]}
    return request if len(args) == 1 else {**request, "again": args[1]}


#: Every text command, in the order :data:`~.help.HELP` lists them.
COMMANDS: tuple[Command, ...] = (
    Command(("tables", "list", "ls"), "list_tables", lambda verb, args, rest: {
        "type": "list_tables", **({"people_only": True} if args else {})} if args in ([], ["people"]) else None,
        usage="{verb}, or {verb} people",
        help=("tables [people]", ("list the tables (people: only those where no bot sits)",)),
            brief=('tables [people]', 'list the tables (people: those without bots)')),
    Command(("new",), "create_table", lambda verb, args, rest: _parse_new(args), usage="",
            help=("new PRESET [N] [pairs] [opt=value ...] [password=PW] [timer=SECONDS]",
                  ("create a table for N players and sit in seat 1",)),
            brief=('new PRESET [N] [pairs]', 'a table for N players, you in seat 1 (help new)')),
    Command(("join",), "sit", lambda verb, args, rest: {
        "type": "sit", "table": _int(args[0], "table"), "seat": None,
        "password": args[1] if len(args) == 2 else None} if 1 <= len(args) <= 2 else None,
        usage="join TABLE, or join TABLE PASSWORD",
        help=("join TABLE [PASSWORD]", ("sit in the first free seat of a table",)),
            brief=('join TABLE [PASSWORD]', 'sit in the first free seat of a table')),
    Command(("sit",), "sit", _sit, usage="sit SEAT, or sit TABLE SEAT, or sit TABLE SEAT PASSWORD",
            help=("sit SEAT | sit TABLE SEAT [PASSWORD]", ("seats are numbered from 1",)),
            brief=('sit SEAT', 'sit in that seat (seats count from 1; help sit)')),
    Command(("watch",), "spectate", lambda verb, args, rest: {
        "type": "spectate", "table": _int(args[0], "table"),
        "password": args[1] if len(args) == 2 else None} if 1 <= len(args) <= 2 else None,
        usage="watch TABLE, or watch TABLE PASSWORD",
        help=("watch TABLE [PASSWORD]", ("watch a table",)),
            brief=('watch TABLE [PASSWORD]', 'watch a table')),
    Command(("bot",), "add_computer", _bot, usage="bot, or bot SEAT, or bot LEVEL, or bot SEAT LEVEL",
            help=("bot [SEAT] [LEVEL]", ("a computer player takes a seat",)),
            brief=('bot [SEAT] [LEVEL]', 'a computer player takes a seat (unbot SEAT)')),
    Command(("unbot",), "remove_computer", lambda verb, args, rest: {
        "type": "remove_computer", "seat": _seat(args[0])} if len(args) == 1 else None,
        usage="unbot SEAT", help=("unbot SEAT", ("the computer player leaves the seat",))),
    Command(("stand",), "stand", _bare({"type": "stand"}),
            help=("stand | leave | giveup", ("stand up (stay watching) | go back to the lobby (mid-game:",
                                              "resign) | give up the match going on, between its games,",
                                              "and stay seated (the other side wins it)")),
            brief=('stand | leave | giveup', 'watch | to the lobby | give up the match')),
    Command(("leave",), "leave", _bare({"type": "leave"})),
    Command(("giveup",), "resign_match", _bare({"type": "resign_match"})),
    Command(("wait",), "stand_in", lambda verb, args, rest: {
        "type": "stand_in", "seat": _seat(args[0]), "on": False} if len(args) == 1 else None,
        usage="wait SEAT", help=("wait SEAT | standin SEAT",
                                 ("a seat's person is away: the table waits for them (the computer",
                                  "standing in leaves) | a computer plays for them meanwhile (also",
                                  "for a person here who has said nothing for long on their turn)"))),
    Command(("standin",), "stand_in", lambda verb, args, rest: {
        "type": "stand_in", "seat": _seat(args[0]), "on": True} if len(args) == 1 else None,
        usage="standin SEAT"),
    Command(("ready", "start"), "ready", _bare({"type": "ready", "ready": True}),
            help=("ready | unready", ("the game starts when every seat is taken and ready",)),
            brief=('ready | unready', 'the game starts when every seat is ready')),
    Command(("unready",), "ready", _bare({"type": "ready", "ready": False})),
    Command(("play",), "action", lambda verb, args, rest: {
        "type": "action", "action": "play", "card": args[0]} if len(args) == 1 else None,
        usage="play CARD, e.g. play 5H",
        help=("play CARD | go | discard CARD CARD",
              ("cards are rank+suit: A 2-9 T J Q K and C D H S, e.g. 5H TC;",
               "discard also takes the numbers of the prompt: discard 1 2")),
            brief=('play CARD | go', 'play a card (5H, TC: rank, suit) | say go')),
    Command(("go",), "action", _bare({"type": "action", "action": "go"})),
    Command(("discard",), "action", lambda verb, args, rest: {
        "type": "action", "action": "discard", "cards": args} if args else None,
        usage="discard CARD CARD, or the numbers the prompt shows: discard 1 2",
            brief=('discard CARD CARD', 'lay away to the crib (or the numbers: discard 1 2)')),
    Command(("claim",), "action", lambda verb, args, rest: {
        "type": "action", "action": "claim", "points": _int(args[0], "points")} if len(args) == 1 else None,
        usage="claim N, the points you count in the cards",
        help=("claim N | muggins N | pass",
              ("counting by hand (new cribbage counting=manual): claim your",
               "hand's points; say an opponent's hand holds N; let it stand")),
            brief=('claim N | muggins N | pass', 'counting by hand (help claim)')),
    Command(("muggins",), "action", lambda verb, args, rest: {
        "type": "action", "action": "muggins", "points": _int(args[0], "points")} if len(args) == 1 else None,
        usage="muggins N, the points the cards hold"),
    Command(("pass",), "action", _bare({"type": "action", "action": "pass"})),
    Command(("hint",), "hint", _bare({"type": "hint"}),
            help=("hint | review [DEAL]", ("the coach (new ... hints=true): your choices ranked | the",
                                           "decisions of a deal that fell short of the best")),
            brief=('look | hint | review', 'the table again | the coach (new ... hints=true)')),
    Command(("review",), "review", lambda verb, args, rest: {
        "type": "review", "deal": _int(args[0], "deal") if args else None} if len(args) <= 1 else None,
        usage="review, or review DEAL"),
    Command(("say",), "chat", lambda verb, args, rest: {"type": "chat", "text": rest, "to": None} if rest else None,
            usage="say TEXT",
            help=("say TEXT | shout TEXT | whisper TEXT",
                  ("chat at your table (or the lobby) | chat in the lobby | watching,",
                   "chat with the other watchers (the players read it after the game)")),
            brief=('say | shout | whisper TEXT', 'chat: your table | the lobby | the watchers')),
    Command(("shout",), "chat", lambda verb, args, rest: {"type": "chat", "text": rest, "to": "lobby"}
            if rest else None, usage="shout TEXT"),
    Command(("whisper",), "chat", lambda verb, args, rest: {"type": "chat", "text": rest, "to": "watchers"}
            if rest else None, usage="whisper TEXT"),
    Command(("tell",), "tell", lambda verb, args, rest: {
        "type": "tell", "name": args[0], "text": rest[len(args[0]):].strip()} if len(args) >= 2 else None,
        usage="tell NAME TEXT",
        help=("tell NAME TEXT | mute NAME | unmute NAME | muted",
              ("a private message to NAME, wherever they are | hear no more of",
               "NAME (chat, tells, challenges) | hear them again | whom you muted"))),
    Command(("mute", "gag"), "mute", lambda verb, args, rest: {"type": "mute", "name": args[0]}
            if len(args) == 1 else None, usage="mute NAME"),
    Command(("unmute", "ungag"), "unmute", lambda verb, args, rest: {"type": "unmute", "name": args[0]}
            if len(args) == 1 else None, usage="unmute NAME"),
    Command(("muted",), "muted", _bare({"type": "muted"})),
    Command(("look",), "snapshot", _bare({"type": "snapshot"}),
            help=("look", ("show the table and your cards again",))),
    Command(("games",), "list_games", lambda verb, args, rest: {
        "type": "list_games", "name": args[0] if args else None} if len(args) <= 1 else None,
        usage="games, or games NAME", help=("games [NAME]", ("your (or NAME's) finished games, newest first",)),
            brief=('games [NAME] | game ID', 'finished games, newest first | one of them')),
    Command(("game",), "get_game", _game, usage="game ID, or game ID PASSWORD",
            help=("game ID [PASSWORD]", ("one finished game: its players, deals and result",))),
    Command(("leaderboard", "ratings"), "leaderboard", _leaderboard,
        usage="{verb}, or {verb} noddy, or {verb} cribbage (add people: no bots)",
        help=("leaderboard [noddy|cribbage] [people]",
              ("the ratings of one family of games (noddy: default); people: no bots",)),
            brief=('ratings | stats [NAME]', 'the leaderboard (help ratings) | statistics')),
    Command(("stats",), "stats", lambda verb, args, rest: {
        "type": "stats", "name": args[0] if args else None, "preset": args[1].lower() if len(args) > 1 else None}
        if len(args) <= 2 else None, usage="stats, or stats NAME, or stats NAME PRESET (or FAMILY)",
        help=("stats [NAME [PRESET]]", ("your (or NAME's) statistics per preset: games, wins, points",
                                        "per deal, best hand, skunks, the rating over time"))),
    Command(("who",), "who", lambda verb, args, rest: {
        "type": "who", **({"people_only": True} if args else {})} if args in ([], ["people"]) else None,
        usage="who, or who people",
        help=("who [people]", ("who is online, bot or person, and where (people: no bots)",)),
            brief=('who [people] | tell NAME', 'who is online | a private word (help tell)')),
    Command(("challenge",), "challenge", _challenge,
            usage="challenge NAME, or challenge NAME PRESET [opt=value ...] [ready]",
            help=("challenge NAME [PRESET] [opt=value ...] [ready] | invite NAME | accept ID | decline ID",
                  ("ask a player in the lobby to a two-handed game (a new table seats",
                   "you both; ready: you are ready at once) | to your table (no",
                   "password needed) | take it | say no to it (decline your own to",
                   "withdraw it)")),
            brief=('challenge | invite NAME', 'a game | your table, with NAME (accept ID)')),
    Command(("invite",), "invite", lambda verb, args, rest: {
        "type": "invite", "name": args[0], **({"text": rest[len(args[0]):].strip()} if len(args) > 1 else {})}
        if args else None, usage="invite NAME, or invite NAME TEXT"),
    Command(("accept",), "accept", lambda verb, args, rest: {
        "type": "accept", "challenge": _int(args[0].lstrip("#"), "challenge"),
        **({"ready": True} if args[1:] == ["ready"] else {})} if args and args[1:] in ([], ["ready"]) else None,
        usage="accept ID, or accept ID ready"),
    Command(("decline",), "decline", lambda verb, args, rest: {
        "type": "decline", "challenge": _int(args[0].lstrip("#"), "challenge")} if len(args) == 1 else None,
        usage="decline ID"),
    Command(("seek",), "seek", _seek, usage="seek, or seek PRESET [people|bots] [opt=value ...] [ready]",
            help=("seek [PRESET] [people|bots] [opt=value ...] [ready] | unseek",
                  ("wait for anyone (or only people, or only bots) seeking the same",
                   "game: a new table seats you both | stop waiting")),
            brief=('seek [PRESET] | unseek', 'wait for an opponent for PRESET (help seek)')),
    Command(("unseek",), "unseek", _bare({"type": "unseek"})),
    Command(("events",), "events", club.read_events, help=club.EVENTS_HELP, brief=club.BRIEF),
    Command(("event",), "event", club.read_event, usage="event N"),
    Command(("enter",), "join_event", club.read_enter, usage="enter N, or enter N PASSWORD"),
    Command(("withdraw",), "withdraw_event", club.read_withdraw, usage="withdraw N"),
    Command(("announce",), "announce_event", club.read_announce, usage=club.ANNOUNCE_USAGE, help=club.ANNOUNCE_HELP),
    Command(("direct",), "direct_event", club.read_direct, usage=club.DIRECT_USAGE, help=club.DIRECT_HELP),
    Command(("name",), "hello", lambda verb, args, rest: {
        "type": "hello", "name": rest, "version": PROTOCOL_VERSION} if args else None,
        usage="name NAME", help=("name NAME", ("choose your name (any time until you sit down)",)),
            brief=('name NAME | resume TOKEN', 'your name | take back your seat (help resume)')),
    Command(("login",), "hello", lambda verb, args, rest: {
        "type": "hello", "name": rest.rsplit(None, 1)[0], "version": PROTOCOL_VERSION,
        "password": args[-1]} if len(args) >= 2 else None,
        usage="login NAME PASSWORD (the password is the last word)",
        help=("login NAME PASSWORD", ("your registered name and its password (the last word)",
                                      "(a password is sent in the clear: see help register)")),
        brief=('login NAME PW | register', 'log in | keep your name, be rated (help register)')),
    Command(("register",), "register", _register,
        usage="register PASSWORD PASSWORD (one word, as login takes it, typed twice)",
        help=("register PASSWORD PASSWORD | password OLD NEW | unregister PASSWORD",
              ("keep your name for good (then: login NAME PASSWORD) and be rated;",
               "the password typed twice (register PW alone asks for it again);",
               "change its password | give the account up. Over plain nc a",
               "password is sent (and shown) in the clear: see PROTOCOL.md, Encryption"))),
    Command(("password",), "change_password", lambda verb, args, rest: {
        "type": "change_password", "old": args[0], "new": args[1]} if len(args) == 2 else None,
        usage="password OLD NEW"),
    Command(("unregister",), "unregister", lambda verb, args, rest: {
        "type": "unregister", "password": args[0]} if len(args) == 1 else None,
        usage="unregister PASSWORD"),
    Command(("resume",), "hello", lambda verb, args, rest: {
        "type": "hello", "name": "guest", "version": PROTOCOL_VERSION, "resume": args[0]}
        if len(args) == 1 else None, usage="resume TOKEN",
        help=("resume TOKEN", ("take back your seat, or your place as a watcher, after a",
                               "lost connection (any time until you sit down)"))),
    Command(("ping",), "ping", _bare({"type": "ping"}), help=("ping | help | quit", ()),
            brief=('width N | help | quit', 'wrap at N columns | help COMMAND, e.g. help new')),
    Command(("help", "?"), None, lambda verb, args, rest: None, usage="help, or help COMMAND"),
    Command(("quit", "exit", "bye"), "bye", _bare({"type": "bye"})),
    Command(("width",), None, _width, usage="width, or width N",
            help=("width [N]", (f"wrap the lines you read at N columns ({MIN_WIDTH} to {MAX_WIDTH}; "
                                "80 at first);", "width alone says the width now"))),
)

#: The request types a person has no text command for, and why (from their declarations).
JSON_ONLY = {spec.type: spec.no_text for spec in SPECS if spec.no_text is not None}

#: Each command by each of its words.
BY_VERB = {verb: command for command in COMMANDS for verb in command.verbs}


def parse_command(line: str) -> dict[str, Any] | None:
    """The request a text line stands for; ``None`` for a line text mode answers itself
    (``help``, ``width``: see the adapter); ``bad_command`` for a known
    command written wrong (saying how it is written), ``unknown_command`` otherwise."""
    words = line.split()
    verb, args = words[0].lower(), words[1:]
    rest = line.strip()[len(words[0]):].strip()
    command = BY_VERB.get(verb)
    if command is None:
        raise ProtocolError("unknown_command", f"not a command: {line.strip()!r}; type help for the list")
    request = command.read(verb, args, rest)
    if request is None and command.request is not None:
        # A newcomer who types ``play`` without a card was told "not a command", which is
        # false and no help: say how it is written.
        raise ProtocolError("bad_command", f"write {command.usage.format(verb=verb)}; type help for all commands")
    return request


def _parse_new(args: list[str]) -> dict[str, Any]:
    if not args:
        raise ProtocolError("missing_field", "say which preset: new noddy, new cribbage ...", field="preset")
    request: dict[str, Any] = {"type": "create_table", "preset": args[0].lower(), "options": {}}
    for word in args[1:]:
        if word.isdigit():
            request["players"] = int(word)
        elif word.lower() in ("pairs", "partners", "partnerships", "teams"):
            request["partnerships"] = True
        elif "=" in word:
            key, _, value = word.partition("=")
            if key == "password":
                request["private"], request["password"] = True, value
            elif key == "timer":
                request["turn_timer"] = _value(value)
            else:
                request["options"][key] = _value(value)
        else:
            raise ProtocolError("bad_field", f"do not understand {word!r} in 'new'; type help")
    return request


def numbered_hand(legal_actions: Sequence[dict[str, Any]]) -> list[str]:
    """The cards a discard prompt numbers 1, 2, ...: every card of the legal discards, in the
    order they first appear (the engine lists them by rank).  :func:`cards_by_number` reads
    ``discard 1 2`` with the same list, so the numbers cannot disagree with the prompt."""
    cards: dict[str, None] = {}
    for action in legal_actions:
        if action["action"] == "discard":
            cards.update(dict.fromkeys(action["cards"]))
    return list(cards)


def cards_by_number(words: Sequence[str], legal_actions: Sequence[dict[str, Any]]) -> list[str]:
    """``discard 1 2`` -> the cards numbered 1 and 2 in the discard prompt."""
    hand = numbered_hand(legal_actions)
    if not hand:
        raise ProtocolError("wrong_phase", "there is nothing to discard now", field="cards")
    cards = []
    for word in words:
        number = int(word)
        if not 1 <= number <= len(hand):
            raise ProtocolError("card_not_in_hand", f"your cards are numbered 1 to {len(hand)}, "
                                f"not {number}", field="cards")
        cards.append(hand[number - 1])
    return cards
