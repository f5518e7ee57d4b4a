"""An engine for the tests: it checks that every decision the bridge writes agrees with
itself, and plays the first legal action (a range claimed at its least).

It exits 3, saying why on standard error, when a decision is inconsistent: a playable card
not in the hand, a discard of cards not held, a count that is not the pile's sum (every
preset here counts aces 1 and court cards 10), or a pile card missing from ``played``.
With a file name as its argument it appends every decision to that file, one a line.
"""

import json
import sys

RANKS = "A23456789TJQK"


def value(card: str) -> int:
    return min(RANKS.index(card[0]) + 1, 10)


def check(d: dict) -> str | None:
    for action in d["legal"]:
        if action["action"] == "play" and action["card"] not in d["hand"]:
            return f"playable {action['card']} is not in the hand {d['hand']}"
        if action["action"] == "discard" and not set(action["cards"]) <= set(d["hand"]):
            return f"discard {action['cards']} is not from the hand {d['hand']}"
    if d["count"] != sum(map(value, d["pile"])):
        return f"count {d['count']} is not the pile {d['pile']}'s sum"
    if d["pile"] != [p["card"] for p in d["played"]][len(d["played"]) - len(d["pile"]):]:
        return f"pile {d['pile']} is not the end of played {d['played']}"
    return None


log = open(sys.argv[1], "a", encoding="utf-8") if len(sys.argv) > 1 else None
for line in sys.stdin:
    decision = json.loads(line)
    if log is not None:
        log.write(line)
        log.flush()
    wrong = check(decision)
    if wrong is not None:
        print(f"inconsistent decision: {wrong}: {line}", file=sys.stderr, flush=True)
        sys.exit(3)
    first = decision["legal"][0]
    print(json.dumps({"action": first["action"], "points": first["min"]} if "min" in first else 0),
          flush=True)
