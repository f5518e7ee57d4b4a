"""``noddy-client``: command-line entry point (the client itself arrives with issue 4)."""

from __future__ import annotations

import argparse


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="noddy-client", description="Play Noddy in a terminal.")
    parser.parse_args(argv)
    parser.print_help()
    return 0
