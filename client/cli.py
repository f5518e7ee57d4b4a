"""``noddy-client HOST:PORT``: the command line of the terminal client.

This module parses the arguments and runs :class:`~noddy.client.app.ClientApp` against a
server that is already running.  Playing with no address (a private server inside the
process) needs the server package, which the client may not import; that composition lives
in :mod:`noddy.play`, the module the ``noddy-client`` console script points at, and which
reuses :func:`build_parser`, :func:`run_client` and :func:`play_at_address` from here.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import os
import ssl
import sys
from collections.abc import Callable
from typing import Any

from noddy import __version__
from noddy.protocol import DEFAULT_PORT
from noddy.protocol.i18n import DEFAULT_LANGUAGE, LANGUAGES, N_, _, language_of, set_language

from .session import request_field
from .state import ResumeTokens

#: The longest name a ``hello`` may give.
NAME_LIMIT = request_field("hello", "name").max_length


#: The environment variables that name the locale, in the order they count (POSIX: the
#: first one set decides).
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")


def language_choice(argv: list[str] | None = None, environ: Any = None) -> str:
    """The language the client speaks: ``--lang``'s, else the locale's (:data:`LOCALE_VARIABLES`,
    the first one set), else English.  Read before the parser is built, so that its help is
    in that language too; a ``--lang`` Noddy does not speak is the parser's error later
    (:func:`_language_flag`), a locale it does not speak means English."""
    early = argparse.ArgumentParser(add_help=False)
    early.add_argument("--lang", default=None)
    given = early.parse_known_args(sys.argv[1:] if argv is None else argv)[0].lang
    if given is not None and language_of(given) is not None:
        return language_of(given)  # type: ignore[return-value]
    environ = os.environ if environ is None else environ
    for variable in LOCALE_VARIABLES:
        if environ.get(variable):
            return language_of(environ[variable]) or DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


def choose_language(argv: list[str] | None = None, environ: Any = None) -> str:
    """Make :func:`language_choice`'s language the client's (``i18n.set_language``), and give it."""
    language = language_choice(argv, environ)
    set_language(language)
    return language


def _language_flag(text: str) -> str:
    """``--lang``'s value read as a language Noddy speaks (a usage error otherwise)."""
    found = language_of(text)
    if found is None:
        raise argparse.ArgumentTypeError(_("Noddy does not speak {tag!r}; it speaks {listed}").format(
            tag=text, listed=", ".join(f"{code} ({name})" for code, name in LANGUAGES.items())))
    return found


def build_parser() -> argparse.ArgumentParser:
    """The command line, its help said in the client's language (:func:`choose_language` first)."""
    parser = argparse.ArgumentParser(
        prog="noddy-client",
        description=_("Play Noddy and Cribbage in a terminal.  With no address, a private server "
                      "starts inside the program and you play against a computer player."))
    parser.add_argument("address", nargs="?", help=_("HOST:PORT of a noddy-server (port {port} "
                                                     "if left out); tls://HOST:PORT for its TLS port"
                                                     ).format(port=DEFAULT_PORT))
    parser.add_argument("--tls-ca", metavar="PEM", default=None,
                        help=_("with a tls:// address: trust this certificate (or CA) instead of the "
                               "system's, e.g. a LAN server's self-signed one"))
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("--name", default=None, help=_("your name at the table (default: your login)"))
    parser.add_argument("--lang", default=None, type=_language_flag, metavar="LANG",
                        help=_("the language you read: en, de or es (default: the locale's, "
                               "LC_ALL, LC_MESSAGES or LANG; L in the client switches)"))
    # The next four have no default here (see LOCAL_OPTIONS): None says "not given".
    parser.add_argument("--preset", default=None,
                        help=_("with no address: the game to play (noddy, noddy-ducoeur, noddy-holme, "
                               "noddy-modern, five-card-cribbage, cribbage; default noddy)"))
    parser.add_argument("--players", type=int, default=None,
                        help=_("with no address: how many players, the others are computers "
                               "(default 2)"))
    parser.add_argument("--target", type=int, default=None, help=_("with no address: points to win"))
    parser.add_argument("--level", default=None, help=_("with no address: the computer level "
                                                       "(random, greedy, expert)"))
    parser.add_argument("--counting", default=None, choices=COUNTING_CHOICES,
                        help=_("with no address: auto (the server counts every show; the default) "
                               "or manual (count your own hand, and call muggins on the computer's; "
                               "cribbage, five-card-cribbage and noddy-modern)"))
    parser.add_argument("--no-hints", dest="hints", action="store_false", default=None,
                        help=_("with no address: no coach (by default h asks it for a hint and "
                               "each deal is reviewed; the game is unrated either way)"))
    return parser


#: The values of ``--counting`` (the table option ``counting``).
COUNTING_CHOICES = ("auto", "manual")
#: The options of a game without an address (``dest`` names); given with an address they
#: would be ignored, so they are refused instead.
LOCAL_OPTIONS = ("preset", "players", "target", "level", "counting", "hints")


def solo_table_options(args: argparse.Namespace) -> dict[str, Any]:
    """The table options of a game against the computer, from the command line: the coach
    on unless ``--no-hints`` (a solo game is practice), ``counting`` when not automatic.

    >>> solo_table_options(build_parser().parse_args(["--counting", "manual"]))
    {'hints': True, 'counting': 'manual'}
    >>> solo_table_options(build_parser().parse_args(["--no-hints"]))
    {}
    """
    options: dict[str, Any] = {} if args.hints is False else {"hints": True}
    if args.counting not in (None, "auto"):
        options["counting"] = args.counting
    return options


def check_remote_options(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """A usage error (exit 2) when an option that only a private game reads is given with an
    address: silently ignoring ``--preset cribbage`` would be a surprise at the table."""
    if any(getattr(args, name) is not None for name in LOCAL_OPTIONS):
        parser.error(_("--preset, --players, --target, --level, --counting and --no-hints are for "
                       "a game without an address (at a server, choose the game in the lobby: n)"))


def terminal_problem(stdin: Any = None, stdout: Any = None) -> str | None:
    """Why the full-screen client cannot run here, or None: it needs a terminal on both
    sides (prompt_toolkit would fail with ``EOFError`` on a pipe)."""
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    for label, stream in ((N_("input"), stdin), (N_("output"), stdout)):
        try:
            tty = stream.isatty()
        except (AttributeError, ValueError):
            tty = False
        if not tty:
            return _("noddy-client: the full-screen client needs a terminal (standard {stream} is "
                     "not one); to play from a script or a pipe, talk to the server directly: "
                     "nc HOST PORT").format(stream=_(label)) + "\n"
    return None


def parse_address(text: str) -> tuple[str, int]:
    """``"host:port"``, ``"host"`` or ``":port"`` -> (host, port); IPv6 as ``[::1]:3131``.

    >>> parse_address("example.org:4000"), parse_address("example.org"), parse_address(":5")
    (('example.org', 4000), ('example.org', 3131), ('127.0.0.1', 5))
    >>> parse_address("[::1]:3131")
    ('::1', 3131)
    """
    text = text.strip()
    if text.startswith("["):
        host, _sep, rest = text[1:].partition("]")
        port = rest.lstrip(":")
    elif text.count(":") == 1:
        host, _sep, port = text.partition(":")
    else:
        host, port = text, ""
    if port and not port.isdigit():
        raise ValueError(_("not a port number: {port!r}").format(port=port))
    number = int(port) if port else DEFAULT_PORT
    if not 1 <= number <= 65535:
        raise ValueError(_("port {number} is out of range (1 to 65535)").format(number=number))
    return host or "127.0.0.1", number


def default_name() -> str:
    try:
        return getpass.getuser()[:NAME_LIMIT] or "player"
    except Exception:
        return "player"


async def run_client(host: str, port: int, name: str,
                     on_app: Callable[[Any], None] | None = None, **options: Any) -> int:
    """Run the full-screen client until the player quits (``on_app`` is shown the
    application before it starts: tests drive it with keys)."""
    from .app import ClientApp

    app = ClientApp(host, port, name, **options)
    if on_app is not None:
        on_app(app)
    return await app.run()


def play_at_address(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Play at the server ``args.address`` names (a bad address or an option of a private
    game is the parser's error), keeping the resume token on disk so that a restarted
    client takes its seat back (:mod:`noddy.client.state`)."""
    address, tls = args.address, None
    if address.lower().startswith("tls://"):
        address = address[len("tls://"):]
        try:  # checked against the system's CAs, or the one given
            tls = ssl.create_default_context(cafile=args.tls_ca)
        except (OSError, ValueError) as exc:
            parser.error(f"--tls-ca: {exc}")
    elif args.tls_ca is not None:
        parser.error(_("--tls-ca is for a tls://HOST:PORT address"))
    try:
        host, port = parse_address(address)
    except ValueError as exc:
        parser.error(str(exc))
    check_remote_options(parser, args)
    problem = terminal_problem()
    if problem is not None:
        sys.stderr.write(problem)
        return 2
    return asyncio.run(run_client(host, port, args.name or default_name(), tokens=ResumeTokens(), tls=tls))


def main(argv: list[str] | None = None) -> int:
    """Entry point for a client that needs an address (see :mod:`noddy.play` for none)."""
    choose_language(argv)
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.address is None:
        parser.error(_("give the server's HOST:PORT (the noddy-client command also plays "
                       "without one, against a private server)"))
    try:
        return play_at_address(parser, args)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
