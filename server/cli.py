"""``noddy-server``: command-line entry point (the server itself arrives with issue 3)."""

from __future__ import annotations

import argparse


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="noddy-server", description="Run a Noddy game server.")
    parser.parse_args(argv)
    parser.print_help()
    return 0
