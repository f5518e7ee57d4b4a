"""A Noddy engine for noddy-bot: one JSON decision a line in, the chosen action out."""
import json, sys
from itertools import combinations

RANKS = "A23456789TJQK"
DECK = [r + s for r in RANKS for s in "CDHS"]
value = lambda card: min(RANKS.index(card[0]) + 1, 10)
is_run = lambda cards: len(cards) > 2 and (r := sorted(RANKS.index(c[0]) for c in cards)) == list(range(r[0], r[0] + len(r)))

def worth(cards):  # what these cards would show: fifteens, pairs, runs
    points = sum(2 for k in range(2, len(cards) + 1) for s in combinations(cards, k) if sum(map(value, s)) == 15)
    points += sum(2 for a, b in combinations(cards, 2) if a[0] == b[0])
    longest = max([k for k in range(3, len(cards) + 1) if any(map(is_run, combinations(cards, k)))], default=0)
    return points + longest * sum(map(is_run, combinations(cards, longest)))

def pegs(d, pile, count):  # what the last card of the pile scores: 15, 25 (Noddy), 31, pairs, runs
    same = next(k for k in range(len(pile), 0, -1) if len({c[0] for c in pile[-k:]}) == 1)
    run = max([k for k in range(3, len(pile) + 1) if is_run(pile[-k:])], default=0)
    return 2 * (count in (15, 31) or count == 25 and d["preset"].startswith("noddy")) + {2: 2, 3: 6, 4: 12}.get(same, 0) + run

def score(d, a):  # a discard by the hand kept (and the crib's share); a play by what it pegs less the reply
    if a["action"] == "discard":
        kept = [c for c in d["hand"] if c not in a["cards"]]
        return worth(kept) + (1 if d["crib"] == d["seat"] else -1) * worth(a["cards"]) / 2
    if a["action"] != "play":
        return -(a["action"] == "muggins")
    pile, count = d["pile"] + [a["card"]], d["count"] + value(a["card"])
    unseen = [c for c in DECK if c not in d["hand"] + [p["card"] for p in d["played"]] + [d["turn_up"]]]
    reply = sum(pegs(d, pile + [x], count + value(x)) for x in unseen if count + value(x) <= 31) / len(unseen)
    return pegs(d, pile, count) - (reply if count < 31 else 0) + value(a["card"]) / 100

for line in sys.stdin:
    d = json.loads(line)
    best = max(d["legal"], key=lambda a: score(d, a))
    print(json.dumps({"action": best["action"], "points": best["min"]} if "min" in best else best), flush=True)
