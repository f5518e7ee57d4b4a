"""``noddy-server reset-password NAME --db PATH``: the host resets a forgotten account password.

The new password is read from the terminal (asked twice, not echoed) or, when standard input
is not a terminal, as one line of it -- never from the command line, where every user of
the machine could read it in the process list.  The database must not be in use: a running
server holds it alone (its lock file), and the reset refuses, naming that server's process;
stop the server, reset, and start it again (tables and seats come back as after any
restart).  Exit status: 0 reset, 1 no such account or an unusable password, 2 the database
cannot be used.
"""

from __future__ import annotations

import argparse
import getpass
import logging
import sys
from pathlib import Path
from typing import IO

from noddy.protocol import ProtocolError
from noddy.protocol.names import apart_key, normal_name, skeleton
from noddy.protocol.requests import MAX_PASSWORD, MIN_ACCOUNT_PASSWORD

from .storage import MEMORY, Storage, StorageError, default_db_path

log = logging.getLogger("noddy.server")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="noddy-server reset-password",
        description="Give a registered name a new password (the server must be stopped). The "
                    "password is read from the terminal, or one line of standard input.")
    parser.add_argument("name", metavar="NAME", help="the registered name")
    parser.add_argument("--db", default=str(default_db_path()), metavar="PATH",
                        help="the server's database (default: %(default)s)")
    return parser


def read_password(stdin: IO[str]) -> str:
    """The new password: asked twice at a terminal, else the first line of ``stdin``."""
    if stdin.isatty():
        first = getpass.getpass("New password: ")
        if getpass.getpass("The same again: ") != first:
            raise ValueError("the two passwords differ")
        password = first
    else:
        password = stdin.readline().rstrip("\r\n")
    if len(password.strip()) < MIN_ACCOUNT_PASSWORD or len(password) > MAX_PASSWORD:
        raise ValueError(f"a password has {MIN_ACCOUNT_PASSWORD} to {MAX_PASSWORD} characters")
    return password


def reset_password(argv: list[str], stdin: IO[str] = sys.stdin) -> int:
    """Run ``noddy-server reset-password`` with ``argv`` (the words after it)."""
    args = build_parser().parse_args(argv)
    try:
        name = normal_name(args.name)
    except ProtocolError as exc:
        log.error("%s", exc.message)
        return 1
    if args.db == MEMORY or not Path(args.db).is_file():
        log.error("there is no database at %s", args.db)
        return 2
    try:
        storage = Storage(args.db)  # refuses (StorageError) while a server holds the file
    except StorageError as exc:
        log.error("%s", exc)
        return 2
    try:
        # The account set apart under its exact spelling (schema version 10) first, else the
        # one whose skeleton the name has.
        key = next((k for k in (apart_key(name), skeleton(name))
                    if storage.db.execute("SELECT 1 FROM accounts WHERE key = ?", (k,)).fetchone()), None)
        if key is None:
            log.error("no account is registered as %r in %s", name, args.db)
            return 1
        try:
            password = read_password(stdin)
        except (ValueError, EOFError) as exc:
            log.error("the password was not changed: %s", exc or "no password given")
            return 1
        registered = storage.reset_password(key, password)
    finally:
        storage.close()
    print(f"The password of {registered} is reset.")
    return 0
