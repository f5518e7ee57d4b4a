"""A Noddy engine for noddy-bot: one JSON decision a line in, the chosen action out."""
import collections, json, sys
from itertools import combinations

RANKS, OLD_NODDY = "A23456789TJQK", ("noddy", "noddy-ducoeur", "noddy-holme")  # 25s, flushes in play
value = lambda card: min(RANKS.index(card[0]) + 1, 10)
is_run = lambda cards: len(cards) > 2 and (r := sorted(RANKS.index(c[0]) for c in cards)) == list(range(r[0], r[0] + len(r)))

def worth(cards):  # what these cards would show: fifteens, pairs, runs
    points = sum(2 for k in range(2, len(cards) + 1) for s in combinations(cards, k) if sum(map(value, s)) == 15)
    points += sum(2 for a, b in combinations(cards, 2) if a[0] == b[0])
    longest = max([k for k in range(3, len(cards) + 1) if any(map(is_run, combinations(cards, k)))], default=0)
    return points + longest * sum(map(is_run, combinations(cards, longest)))

def pegs(old, pile, count):  # what the last card of the pile scores: 15, 25, 31, pairs, runs, flush
    same = next(k for k in range(len(pile), 0, -1) if len({c[0] for c in pile[-k:]}) == 1)
    run = max([k for k in range(3, len(pile) + 1) if is_run(pile[-k:])], default=0)
    flush = max([k for k in range(3, len(pile) + 1) if len({c[1] for c in pile[-k:]}) == 1], default=0)
    return 2 * (count in (15, 31) or old and count == 25) + {2: 2, 3: 6, 4: 12}.get(same, 0) + (run - (old and run == 3)) + old * flush

def score(d, a):  # a discard by the hand kept (and the crib's share); a play by what it pegs less the reply
    if a["action"] == "discard":
        return worth([c for c in d["hand"] if c not in a["cards"]]) + (1 if d["crib"] == d["seat"] else -1) * worth(a["cards"]) / 2
    if a["action"] != "play":
        return -(a["action"] == "muggins")
    old, pile, count, seen = d["preset"] in OLD_NODDY, d["pile"] + [a["card"]], d["count"] + value(a["card"]), {*d["hand"], *(p["card"] for p in d["played"]), d["turn_up"]}
    unseen = collections.Counter(r + s if old else r + "?" for r in RANKS for s in "CDHS" if r + s not in seen)  # by rank, but by card where suits score (old Noddy)
    replies = any(n and s != d["seat"] and s not in d["passed"] for s, n in enumerate(d["hand_sizes"])) and count < 31
    reply = replies * sum(n * pegs(old, pile + [x], count + value(x)) for x, n in unseen.items() if count + value(x) <= 31) / sum(unseen.values())
    return pegs(old, pile, count) - reply + value(a["card"]) / 100

for line in sys.stdin:
    d = json.loads(line)
    best = max(d["legal"], key=lambda a: score(d, a))
    print(json.dumps({"action": best["action"], "points": best["min"]} if "min" in best else best), flush=True)
