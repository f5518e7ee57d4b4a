"""noddy-server under a sampling profiler: where its CPU time goes, by Python function and line.

    python bench/sampled_server.py REPORT [noddy-server arguments...]
    python bench/server.py --sample /tmp/sample.txt      # the usual way: under load

cProfile (``bench/server.py --profile``) charges every Python call its own bookkeeping, so
it inflates code made of many small calls (the server's glue between receiving and sending)
against code that spends its time inside C (the JSON encoder, SQLite, the engine's loops):
on this server its shares differed from what valgrind counted by up to a factor of two.  A
sampler costs the same wherever the program is.  Every ``INTERVAL`` seconds of the process's
CPU time (``ITIMER_PROF``), the signal handler notes the Python frame the main thread is in
and the frames above it.  Time in C is charged to the Python line that called it, which is
what a reader wants to know ("this ``transport.write`` is the send() system call").  Python
runs signal handlers only between bytecodes, so a long C call is charged to the frame the
handler runs in next: read a single line's figure with that in mind, and trust a function's
inclusive share more than its own.

When the server exits (SIGINT or SIGTERM, as ``noddy-server`` does), REPORT gets three tables:
own time by function, inclusive time by function (each function once per sample, however
deep its recursion), and own time by line, each in per cent of the samples.
"""

from __future__ import annotations

import collections
import signal
import sys
from types import FrameType

from noddy.server.cli import main as server_main

#: CPU seconds between two samples: 250 a second of a busy core.  ITIMER_PROF counts in the
#: kernel's ticks (4 ms at the usual HZ=250), so a shorter interval gives no more samples.
INTERVAL = 0.004
#: Rows per table of the report.
ROWS = 60


class Sampler:
    """Counts, per sample, the function and line being run and every function above it."""

    def __init__(self) -> None:
        self.own: collections.Counter[str] = collections.Counter()
        self.inclusive: collections.Counter[str] = collections.Counter()
        self.lines: collections.Counter[str] = collections.Counter()
        self.samples = 0

    def start(self) -> None:
        signal.signal(signal.SIGPROF, self._sample)
        signal.setitimer(signal.ITIMER_PROF, INTERVAL, INTERVAL)

    def stop(self) -> None:
        signal.setitimer(signal.ITIMER_PROF, 0, 0)

    def _sample(self, signum: int, frame: FrameType | None) -> None:
        if frame is None:
            return
        self.samples += 1
        name = _name(frame)
        self.own[name] += 1
        self.lines[f"{_file(frame)}:{frame.f_lineno}"] += 1
        seen = set()
        while frame is not None:
            name = _name(frame)
            if name not in seen:
                seen.add(name)
                self.inclusive[name] += 1
            frame = frame.f_back

    def report(self) -> str:
        total = self.samples or 1
        parts = [f"{self.samples} samples, one per {INTERVAL * 1e3:.1f} ms of CPU time"]
        for title, counts in (("own time by function", self.own),
                              ("inclusive time by function", self.inclusive),
                              ("own time by line", self.lines)):
            parts.append(f"\n== {title} (% of samples)")
            parts += [f"{100 * n / total:6.2f}  {key}" for key, n in counts.most_common(ROWS)]
        return "\n".join(parts) + "\n"


def _file(frame: FrameType) -> str:
    """The last two parts of the frame's file name: ``server/gameplay.py``."""
    return "/".join(frame.f_code.co_filename.split("/")[-2:])


def _name(frame: FrameType) -> str:
    return f"{_file(frame)}:{frame.f_code.co_name}"


def main(argv: list[str]) -> int:
    if not argv or argv[0].startswith("-"):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    path, server_args = argv[0], argv[1:]
    sampler = Sampler()
    sampler.start()
    try:
        return server_main(server_args)
    finally:
        sampler.stop()
        with open(path, "w", encoding="utf-8") as report:
            report.write(sampler.report())


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
