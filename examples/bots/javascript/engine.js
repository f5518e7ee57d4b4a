// A Noddy engine for noddy-bot: one JSON decision a line in, the chosen action out.
const readline = require("readline");
const RANKS = "A23456789TJQK";
const OLD_NODDY = ["noddy", "noddy-ducoeur", "noddy-holme"]; // 25s and flushes in the play, a run of 3 is 2
const DECK = [...RANKS].flatMap((r) => [..."CDHS"].map((s) => r + s));
const value = (card) => Math.min(RANKS.indexOf(card[0]) + 1, 10);
const isRun = (cards) => {
  const r = cards.map((c) => RANKS.indexOf(c[0])).sort((a, b) => a - b);
  return cards.length > 2 && r.every((x, i) => x === r[0] + i);
};
const subsets = (cards) => cards.reduce((all, c) => all.concat(all.map((s) => [...s, c])), [[]]);

function worth(cards) { // what these cards would show: fifteens, pairs, runs
  const all = subsets(cards);
  let points = 2 * all.filter((s) => s.length > 1 && s.reduce((t, c) => t + value(c), 0) === 15).length;
  points += 2 * all.filter((s) => s.length === 2 && s[0][0] === s[1][0]).length;
  const runs = all.filter(isRun), longest = Math.max(0, ...runs.map((s) => s.length));
  return points + longest * runs.filter((s) => s.length === longest).length;
}

function pegs(old, pile, count) { // what the last card of the pile scores: 15, 25, 31, pairs, runs, flush
  let same = 1, run = 0, flush = 0;
  while (same < pile.length && pile[pile.length - 1 - same][0] === pile[pile.length - 1][0]) same++;
  for (let k = 3; k <= pile.length; k++) if (isRun(pile.slice(-k))) run = k;
  for (let k = 3; k <= pile.length; k++) if (pile.slice(-k).every((c) => c[1] === pile[pile.length - 1][1])) flush = k;
  const total = count === 15 || count === 31 || (count === 25 && old);
  return 2 * total + ({ 2: 2, 3: 6, 4: 12 }[same] || 0) + (old && run === 3 ? 2 : run) + (old ? flush : 0);
}

function score(d, a) { // a discard by the hand kept (and the crib's share); a play by what it pegs less the reply
  if (a.action === "discard") {
    const kept = d.hand.filter((c) => !a.cards.includes(c));
    return worth(kept) + (d.crib === d.seat ? 1 : -1) * worth(a.cards) / 2;
  }
  if (a.action !== "play") return a.action === "muggins" ? -1 : 0;
  const old = OLD_NODDY.includes(d.preset), pile = [...d.pile, a.card], count = d.count + value(a.card);
  const seen = new Set([...d.hand, ...d.played.map((p) => p.card), d.turn_up]);
  const unseen = DECK.filter((c) => !seen.has(c));
  const replies = count < 31 && d.hand_sizes.some((n, s) => n > 0 && s !== d.seat && !d.passed.includes(s));
  const reply = unseen.filter((x) => count + value(x) <= 31).reduce((t, x) => t + pegs(old, [...pile, x], count + value(x)), 0);
  return pegs(old, pile, count) - (replies ? reply / unseen.length : 0) + value(a.card) / 100;
}

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const d = JSON.parse(line);
  const best = d.legal.reduce((b, a) => (score(d, a) > score(d, b) ? a : b));
  console.log(JSON.stringify("min" in best ? { action: best.action, points: best.min } : best));
});
