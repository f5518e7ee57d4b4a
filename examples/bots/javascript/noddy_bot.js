#!/usr/bin/env node
// A complete Noddy bot in one file, for Node.js with no packages (only `net` and `readline`).
//
// It speaks the protocol of docs/PROTOCOL.md (JSON lines over TCP) and nothing else:
//
//     node noddy_bot.js 127.0.0.1:3131                     # new table against a computer
//     node noddy_bot.js 127.0.0.1:3131 --table 4 --seat 1  # take seat 1 of table 4
//     node noddy_bot.js 127.0.0.1:3131 --accept-challenges --games 0  # wait in the lobby
//
// With no --table it creates a two-player table, puts a computer player in the other seat,
// says it is ready and plays to the end of the game (--games K: K games).  With --table it
// sits in that table's seat and plays game after game, saying `ready` again after each,
// until the table closes -- how noddy-match runs it (docs/PROTOCOL.md, "Bots and matches")
// -- or --games are played.  With --accept-challenges it waits in the lobby, accepts every
// challenge (ready at once), plays the game and goes back to the lobby for the next
// (--games 0: for ever).  It prints one line per game and exits 0.
"use strict";

const net = require("net");
const readline = require("readline");

const RANKS = "A23456789TJQK";

const DECK = [...RANKS].flatMap((rank) => [..."CDHS"].map((suit) => rank + suit));
const CRIB_PRESETS = ["cribbage", "five-card-cribbage"]; // the dealer owns a crib; Noddy has none
// The old Noddy presets score a twenty-five and a flush in the play, and a run of three 2.
const OLD_NODDY = ["noddy", "noddy-ducoeur", "noddy-holme"];

// What a card counts: ace 1, number cards their number, T J Q K ten.
function value(card) {
  return Math.min(RANKS.indexOf(card[0]) + 1, 10);
}

// Three or more cards of consecutive ranks, in any order.
function isRun(cards) {
  const ranks = cards.map((c) => RANKS.indexOf(c[0])).sort((a, b) => a - b);
  return cards.length > 2 && ranks.every((r, i) => r === ranks[0] + i);
}

// Every subset of `cards` (the empty one too).
function subsets(cards) {
  return cards.reduce((all, card) => all.concat(all.map((s) => [...s, card])), [[]]);
}

// What these cards would show without a turn-up: fifteens, pairs and runs (flushes and the
// knave are left out: a rough guess is enough to keep the better cards).
function worth(cards) {
  const all = subsets(cards);
  let points = 2 * all.filter((s) => s.length > 1 && s.reduce((t, c) => t + value(c), 0) === 15).length;
  points += 2 * all.filter((s) => s.length === 2 && s[0][0] === s[1][0]).length;
  const runs = all.filter(isRun);
  const longest = Math.max(0, ...runs.map((s) => s.length)); // each longest run counts (double runs)
  return points + longest * runs.filter((s) => s.length === longest).length;
}

// What the last card of `pile` scores at once: fifteen, twenty-five (old Noddy), thirty-one,
// pairs with the cards just before it, runs, and flushes (old Noddy).
function playPoints(preset, pile, count) {
  const old = OLD_NODDY.includes(preset);
  const last = pile[pile.length - 1];
  let points = count === 15 || count === 31 || (count === 25 && old) ? 2 : 0;
  let same = 1, run = 0, flush = 0;
  while (same < pile.length && pile[pile.length - 1 - same][0] === last[0]) same += 1;
  points += { 2: 2, 3: 6, 4: 12 }[same] || 0;
  for (let n = 3; n <= pile.length; n += 1) {
    if (isRun(pile.slice(-n))) run = n;
    if (pile.slice(-n).every((c) => c[1] === last[1])) flush = n;
  }
  points += old && run === 3 ? 2 : run;
  return old ? points + flush : points;
}

// How good an action looks.  A discard: the show of the cards kept, plus (our crib) or minus
// (theirs) half what the laid-away cards make.  A play: what it pegs now, minus what the
// next player could expect to peg in reply, averaged over the cards we cannot see -- which
// keeps it from leaving the count on 5 or 21 (or 15 at Noddy, where a ten makes
// twenty-five) -- and, between equals, the higher card (low ones squeeze in near 31).
function actionValue(known, action) {
  if (action.action === "discard") {
    const kept = known.hand.filter((c) => !action.cards.includes(c));
    return worth(kept) + (known.crib === known.seat ? 1 : -1) * worth(action.cards) / 2;
  }
  if (action.action !== "play") return 0;
  const pile = [...known.pile, action.card];
  const count = known.count + value(action.card);
  const seen = new Set([...known.hand, ...known.played, known.turnUp]);
  const unseen = DECK.filter((c) => !seen.has(c));
  // Nobody replies if every other seat has no cards left or has said go in this count.
  const replies = count < 31 && known.handSizes.some((n, s) => n > 0 && s !== known.seat && !known.passed.includes(s));
  let reply = 0;
  if (replies) {
    for (const card of unseen) {
      if (count + value(card) <= 31) reply += playPoints(known.preset, [...pile, card], count + value(card));
    }
    reply /= unseen.length;
  }
  return playPoints(known.preset, pile, count) - reply + value(action.card) / 100;
}

// Pick one of the legal actions the server offered: the best by actionValue.
function choose(legal, known) {
  // Counting by hand ("counting": "manual"), a claim comes as a range: this small bot does
  // not count, so it claims 0 (always accepted) and lets every claim stand (pass).
  if (legal[0].action === "claim") return { action: "claim", points: legal[0].min };
  if (legal.some((a) => a.action === "pass")) return { action: "pass" };
  return legal.reduce((best, a) => (actionValue(known, a) > actionValue(known, best) ? a : best));
}

const sleep = (seconds) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

// One TCP connection: send a request with a fresh id, read messages one per line.
class Connection {
  constructor(host, port) {
    this.socket = net.connect(port, host);
    this.lines = readline.createInterface({ input: this.socket, crlfDelay: Infinity })[Symbol.asyncIterator]();
    this.nextId = 0;
    this.table = null;   // the table we sit at
    this.closed = false; // our table has closed (its table_closed came)
    this.socket.on("error", (error) => fail(error.message));
  }

  // Send `message` with a new id and return that id.
  send(message) {
    this.nextId += 1;
    this.socket.write(JSON.stringify({ ...message, id: this.nextId }) + "\n");
    return this.nextId;
  }

  // The next message from the server; its pings are answered on the way.
  async next() {
    for (;;) {
      const { value: line, done } = await this.lines.next();
      if (done) throw new Error("the server closed the connection");
      const message = JSON.parse(line);
      if (message.type !== "ping") return message;
      this.socket.write('{"type":"pong"}\n');
    }
  }

  // Send a request and return its reply, skipping pushes; throw on an error.
  async request(message) {
    const id = this.send(message);
    for (;;) {
      const reply = await this.next();
      // (In the lobby the server tells of every table that closes: only ours counts.)
      if (reply.type === "table_closed" && reply.table === this.table) this.closed = true;
      if (reply.id !== id) continue;
      if (reply.type === "error" && reply.code === "rate_limited") {
        await sleep(reply.retry_after); // nothing happened: try again
        return this.request(message);
      }
      if (reply.type === "error") throw new Error(`${message.type} refused: ${reply.code}: ${reply.message}`);
      return reply;
    }
  }
}

// Send one of the legal actions as an `action` request; return it with its id.
function sendAction(conn, action) {
  return { id: conn.send({ type: "action", ...action }), action };
}

// Play one game from the `ready` already sent to its end; true if we won, null if the table
// closed instead (a match table whose games are all played).  `challenged`: the table was
// full (a challenge's), so an empty seat before the game means the opponent left, and null
// is returned.
async function playGame(conn, seat, challenged = false) {
  // What this seat knows (see actionValue): its hand, the cards of the current count (pile)
  // and of the whole deal (played), the turn-up, the crib's owner, who can still play.
  const known = { seat, preset: "noddy", players: 2, hand: [], pile: [], played: [], turnUp: null,
                  crib: null, count: 0, handSizes: [], passed: [] };
  let options = [];    // the legal actions we were last offered
  let pending = null;  // our action awaiting its reply, with its id
  let begun = false;   // whether the game has begun (an event or a turn came)

  for (;;) {
    const message = await conn.next();
    begun = begun || message.type === "event" || message.type === "turn";
    if (message.type === "table_closed" && message.table === conn.table && !begun) {
      conn.closed = true;
      return null;
    }
    if (message.type === "event") {
      const event = message.event;
      if (event.kind === "game_started") {
        known.preset = event.preset;
        known.players = event.players;
      } else if (event.kind === "deal_started") {
        Object.assign(known, { hand: [], pile: [], played: [], turnUp: null, passed: [],
                               handSizes: new Array(known.players).fill(0),
                               crib: CRIB_PRESETS.includes(known.preset) ? event.dealer : null });
      } else if (event.kind === "count_reset") {
        known.pile = [];
        known.passed = [];
      } else if (event.kind === "go") {
        known.passed.push(event.seat);
      } else if (event.kind === "cards_dealt") {
        known.handSizes[event.seat] = event.count;
        if (event.seat === seat) known.hand = [...event.cards];
      } else if (event.kind === "discarded" && event.seat !== null) {
        known.handSizes[event.seat] -= event.count;
        if (event.seat === seat) known.hand = known.hand.filter((c) => !event.cards.includes(c));
      } else if (event.kind === "turned_up") {
        known.turnUp = event.card;
      } else if (event.kind === "played") {
        known.pile.push(event.card);
        known.played.push(event.card);
        known.handSizes[event.seat] -= 1;
        known.hand = known.hand.filter((c) => c !== event.card);
      } else if (event.kind === "game_over") {
        const won = event.winning_seats.includes(seat);
        console.log(`game over: ${won ? "won" : "lost"} in seat ${seat}, scores [${event.scores.join(", ")}]`);
        return won;
      }
    } else if (message.type === "turn") {
      // While our action is unanswered a turn may be stale: wait for the reply.
      if (pending === null && message.legal_actions.length > 0) {
        options = message.legal_actions;
        known.count = message.count;
        pending = sendAction(conn, choose(options, known));
      }
    } else if (pending !== null && message.id === pending.id) {
      const sent = pending.action;
      pending = null;
      if (message.type === "error" && message.code === "rate_limited") {
        // Too fast for the server: nothing happened, so wait and send it again.
        await sleep(message.retry_after);
        pending = sendAction(conn, sent);
      } else if (message.type === "error") {
        // A refused action changes nothing and no new turn follows: choose again from the
        // same offer, leaving out the action that was refused.
        console.error(`action refused: ${message.code}: ${message.message}`);
        options = options.filter((a) => a !== sent);
        if (options.length === 0) throw new Error("every legal action was refused");
        pending = sendAction(conn, choose(options, known));
      }
    } else if (challenged && message.type === "table" && message.table.status === "waiting"
               && message.table.seats.includes(null)) {
      console.log("the opponent left before the game began");
      return null;
    } else if (["shutdown", "bye"].includes(message.type)
      || (message.type === "table_closed" && message.table === conn.table)) {
      throw new Error(`${message.type}: ${message.reason || message.message}`);
    }
  }
}

// Wait in the lobby for challenges and play each one accepted, `games` of them (0: no
// end); back in the lobby after each.  The number of games won.
async function acceptChallenges(conn, games) {
  let wins = 0;
  let played = 0;
  console.log("waiting in the lobby for challenges");
  while (games === 0 || played < games) {
    const message = await conn.next();
    if (message.type !== "challenged") continue;
    const challenge = message.challenge;
    let reply;
    try {
      reply = await conn.request({ type: "accept", challenge: challenge.id, ready: true });
    } catch (error) { // the challenger went meanwhile: wait for the next
      console.error(`noddy_bot: ${error.message}`);
      continue;
    }
    conn.table = reply.table.id;
    conn.closed = false;
    console.log(`accepted challenge ${challenge.id} from ${challenge.from}: table ${reply.table.id} in seat ${reply.seat}`);
    const result = await playGame(conn, reply.seat, true);
    if (!conn.closed) await conn.request({ type: "leave" });
    conn.table = null;
    if (result !== null) {
      played += 1;
      if (result) wins += 1;
    }
  }
  return wins;
}

// Say goodbye and read until the server's answer (or its close): the name is free then.
async function sayBye(conn) {
  const id = conn.send({ type: "bye" });
  try {
    for (;;) if ((await conn.next()).id === id) break;
  } catch (error) { /* closed: gone all the same */ }
  conn.socket.end();
}

function fail(text) {
  console.error(`noddy_bot: ${text}`);
  process.exit(1);
}

// The command line: HOST:PORT [--name N] [--table ID] [--seat S] [--password PW]
// [--preset P] [--level L] [--games K] [--accept-challenges].
function parseArgs(argv) {
  const args = { name: "jsbot", preset: "noddy" };
  const numbers = ["table", "seat", "games"];
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i].startsWith("--")) {
      const key = argv[i].slice(2);
      if (key === "accept-challenges") {
        args.acceptChallenges = true;
        continue;
      }
      const text = argv[++i];
      if (text === undefined) fail(`${argv[i - 1]} needs a value`);
      args[key] = numbers.includes(key) ? Number(text) : text;
    } else {
      args.address = argv[i];
    }
  }
  if (!args.address || !args.address.includes(":")) {
    fail("usage: node noddy_bot.js HOST:PORT [--name N] [--table ID] [--seat S] "
      + "[--password PW] [--preset P] [--level L] [--games K] [--accept-challenges]");
  }
  return args;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const colon = args.address.lastIndexOf(":");
  const conn = new Connection(args.address.slice(0, colon) || "127.0.0.1", Number(args.address.slice(colon + 1)));

  await conn.next(); // the greeting
  await conn.request({ type: "hello", name: args.name, version: 1, bot: true });
  if (args.acceptChallenges) {
    const games = args.games ?? 1;
    const wins = await acceptChallenges(conn, games);
    console.log(`won ${wins} of ${games} games`);
    await sayBye(conn);
    return;
  }
  let reply;
  let seat;
  if (args.table === undefined) {
    reply = await conn.request({ type: "create_table", preset: args.preset, players: 2 });
    conn.table = reply.table.id;
    const computer = { type: "add_computer", seat: 1 };
    if (args.level) computer.level = args.level;
    await conn.request(computer);
    seat = 0;
  } else {
    conn.table = args.table;
    reply = await conn.request({ type: "sit", table: args.table, seat: args.seat ?? null, password: args.password ?? null });
    seat = args.seat ?? reply.table.seats.find((s) => s && s.name === args.name).seat;
  }
  console.log(`playing at table ${reply.table.id} in seat ${seat}`);
  // Games to play: --games, else 1 at a table of our own, else until the table closes.
  const games = args.games ?? (args.table === undefined ? 1 : Infinity);
  let wins = 0;
  let played = 0;
  while (played < games) {
    await conn.request({ type: "ready" }); // after a game: ready for the next one
    const won = conn.closed ? null : await playGame(conn, seat);
    if (won === null) break; // the table closed: its games are all played
    if (won) wins += 1;
    played += 1;
  }
  if (played > 1) console.log(`won ${wins} of ${played} games`);
  await sayBye(conn);
}

main().catch((error) => fail(error.message));
