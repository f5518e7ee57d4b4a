"""Command-line values read alike by ``noddy-match`` and ``noddy-tournament``.

Both commands take the same kinds of value (``NAME=VALUE`` table options, whole numbers with
a least value, seconds); reading them in one place keeps their refusals in the same words.
"""

from __future__ import annotations

import argparse
import json
from typing import Any, Callable


def option(text: str) -> tuple[str, Any]:
    """``target=61`` -> ("target", 61); values are read as JSON, else kept as text."""
    name, sep, value = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"an option is NAME=VALUE, not {text!r}")
    try:
        return name, json.loads(value)
    except json.JSONDecodeError:
        return name, value


def whole(text: str, least: int | None = None) -> int:
    """A whole number, refused below ``least`` (when one is given)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if least is not None and value < least:
        raise argparse.ArgumentTypeError(f"must be {least} or more, not {text}")
    return value


def at_least(least: int) -> Callable[[str], int]:
    """An argparse ``type`` for a whole number of ``least`` or more."""
    def read(text: str) -> int:
        return whole(text, least)
    return read


def seconds(text: str) -> float:
    """A number of seconds, more than 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value > 0:  # also NaN
        raise argparse.ArgumentTypeError(f"must be more than 0, not {text}")
    return value
