"""What the client remembers between runs: the resume token of each seat it holds.

A server holds a dropped player's seat for its grace period and gives it back to whoever
says ``hello`` with the seat's resume token.  The token lives only in the client's memory
unless it is written down, so a client that was closed (or crashed, or lost its terminal)
mid-game could not take the seat back: a restart met "the name is in use" and, a minute
later, a computer player in its seat.  :class:`ResumeTokens` keeps the token per server
address and name in ``$XDG_STATE_HOME/noddy/resume.json`` (``~/.local/state/noddy/`` by
default), readable by the user alone, because a token is as good as the seat.

The file is small JSON, ``{"host:port": {"name": "token"}}``, rewritten whole on each
change (written to a temporary file and renamed, so a crash never leaves half a file).  A
missing or damaged file is an empty one: losing a token costs a seat, never the program.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Mapping
from pathlib import Path

#: The file the tokens are kept in, inside the state directory.
FILE_NAME = "resume.json"


def state_directory(environ: Mapping[str, str] | None = None) -> Path:
    """``$XDG_STATE_HOME/noddy``, or ``~/.local/state/noddy`` when that is unset (the XDG
    Base Directory rule: a relative or empty value is ignored)."""
    env = os.environ if environ is None else environ
    base = env.get("XDG_STATE_HOME", "")
    if not base or not os.path.isabs(base):
        home = env.get("HOME") or str(Path.home())
        base = os.path.join(home, ".local", "state")
    return Path(base) / "noddy"


class ResumeTokens:
    """The resume tokens of the seats this user holds, by server address and name."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = state_directory() if directory is None else Path(directory)
        self.path = self.directory / FILE_NAME

    def _load(self) -> dict[str, dict[str, str]]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict):
            return {}
        return {server: {name: token for name, token in names.items() if isinstance(token, str)}
                for server, names in data.items() if isinstance(names, dict)}

    def _save(self, data: dict[str, dict[str, str]]) -> None:
        """Write the file (mode 0600, in a 0700 directory); a failure is ignored, since the
        client plays on without it."""
        with contextlib.suppress(OSError):
            self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
            temporary = self.path.with_name(f".{FILE_NAME}.{os.getpid()}")
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump({server: names for server, names in data.items() if names}, out,
                          indent=1, sort_keys=True)
            os.chmod(temporary, 0o600)
            os.replace(temporary, self.path)

    def get(self, server: str, name: str) -> str | None:
        return self._load().get(server, {}).get(name)

    def put(self, server: str, name: str, token: str) -> None:
        data = self._load()
        if data.get(server, {}).get(name) == token:
            return
        data.setdefault(server, {})[name] = token
        self._save(data)

    def forget(self, server: str, name: str) -> None:
        data = self._load()
        if name in data.get(server, {}):
            del data[server][name]
            self._save(data)


__all__ = ["ResumeTokens", "state_directory", "FILE_NAME"]
