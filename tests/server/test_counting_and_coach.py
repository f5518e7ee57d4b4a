"""Counting by hand and the coach over real sockets: RULES.md's worked example over the
protocol and in text mode, an over-claim refused once to its claimer alone and a second one
taken as 0, the turn timer's claim of 0 and pass, what nobody is told before a muggins step
ends, a manual-counting record that replays, and ``hint`` / ``review``."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest

import noddy.engine.game as game_module
from noddy.bots.coach import advise
from noddy.engine import ClaimRefused, Game, parse_cards, score_show
from noddy.server.storage.records import replay

from ..stacking import deal_deck, stacked_draw
from .audit import Entitlement, audit
from .harness import Client, play_out, running_server, two_player_table

MANUAL = {"counting": "manual"}
ANN_DEALT, BEN_DEALT, TURN_UP = "5H 5S JD 4C KH QH", "2C 3D 7S 8S 9D TD", "6C"


@pytest.fixture
def stacked(monkeypatch: pytest.MonkeyPatch) -> None:
    """The worked example's deal: seat 0 (Ben) cuts the ace and deals; seat 1 (Ann) is dealt
    5♥ 5♠ J♦ 4♣ K♥ Q♥; 6♣ is turned up.  Later draws are ordinary seeded ones."""
    monkeypatch.setattr(game_module, "draw", stacked_draw("AC KD", deal_deck([ANN_DEALT, BEN_DEALT], TURN_UP)))


async def _hello(port: int, name: str) -> Client:
    client = await Client.connect(port)
    await client.hello(name)
    return client


def _kind(kind: str):
    return lambda m: m["type"] == "event" and m["event"]["kind"] == kind


async def _seat_two(port: int, options: dict[str, Any], **create: Any) -> tuple[Client, Client, int]:
    """Ben in seat 0 and Ann in seat 1 of a fresh cribbage table, both ready."""
    return await two_player_table(port, create.pop("preset", "cribbage"), ("Ben", "Ann"),
                                  options=options, **create)


def _claim_turn(message: dict[str, Any]) -> bool:
    turn = message if message["type"] == "turn" else None
    return turn is not None and turn["legal_actions"][:1] == [{"action": "claim", "min": 0, "max": 29}]


async def _play_to_the_show(ben: Client, ann: Client) -> None:
    """Lay away as the example says, then play any legal card until Ann is to claim."""
    await ann.request({"type": "action", "action": "discard", "cards": ["KH", "QH"]})
    await ben.request({"type": "action", "action": "discard", "cards": ["9D", "TD"]})
    for client in (ann, ben):  # the turns the requests' replies passed by come again
        await client.send({"type": "snapshot"})
    await asyncio.gather(play_out(ann, random.Random(1), stop_after=_claim_turn),
                         play_out(ben, random.Random(2), stop_after=_kind("counting")))


async def test_rules_worked_example_over_the_protocol(stacked: None) -> None:
    async with running_server() as server:
        ben, ann, table_id = await _seat_two(server.port, MANUAL)
        await _play_to_the_show(ben, ann)
        game = server.core.tables[table_id].game
        assert game.observation(1).counting.cards == tuple(parse_cards("5H 5S JD 4C"))
        before = list(game.scores)
        assert (await ann.request({"type": "action", "action": "claim", "points": 12}))["type"] == "ok"
        claimed = await ben.recv_until(_kind("claimed"))
        assert claimed["event"] == {"kind": "claimed", "seat": 1, "reason": "show",
                                    "cards": ["5H", "5S", "JD", "4C"], "points": 12}
        turn = await ben.recv_until(lambda m: m["type"] == "turn" and m["to_move"] == 0)
        assert turn["legal_actions"] == [{"action": "muggins", "min": 13, "max": 29}, {"action": "pass"}]
        assert (await ben.request({"type": "action", "action": "muggins", "points": 16}))["type"] == "ok"
        called = await ann.recv_until(_kind("muggins"))
        assert called["event"] == {"kind": "muggins", "seat": 0, "owner": 1, "points": 16, "right": True}
        counted = await ann.recv_until(_kind("counted"))
        assert {k: counted["event"][k] for k in ("seat", "claimed", "worth", "mugged_by", "lost")} == {
            "seat": 1, "claimed": 12, "worth": 16, "mugged_by": 0, "lost": 0}
        assert game.scores == [before[0] + 4, before[1] + 12]
        for client in (ann, ben):
            await client.close()


def _game_messages(client: Client, table_id: int, since: int = 0) -> list[dict[str, Any]]:
    """The ``event`` and ``turn`` messages of ``table_id`` that ``client`` received, from
    ``client.received[since]`` on."""
    return [m for m in client.received[since:]
            if m["type"] in ("event", "turn") and m.get("table") == table_id]


async def test_an_over_claim_is_refused_once_to_the_claimer_alone_and_a_second_counts_0(stacked: None) -> None:
    """RULES.md: Ann claims 18 (refused: only she is told, and her turn and time stay), then
    17, which stands as a claim of 0; Ben's muggins 16 pegs him 16.  Ben and a watcher see
    exactly what a plain claim of 0 shows them: no message, no gap in ``seq``, no turn more."""
    async with running_server() as server:
        ben, ann, table_id = await _seat_two(server.port, MANUAL)
        dot = await _hello(server.port, "Dot")
        await dot.request({"type": "spectate", "table": table_id})
        await _play_to_the_show(ben, ann)
        game = server.core.tables[table_id].game
        counting_seq = server.core.tables[table_id].seq
        for other in (ben, dot):  # Ann's claim turn, as the others get it
            await other.recv_until(lambda m: m["type"] == "turn" and m["seq"] == counting_seq)
        marks = {ben: len(ben.received), dot: len(dot.received)}
        before = list(game.scores)

        assert (await ann.request({"type": "action", "action": "claim", "points": 18}))["type"] == "ok"
        told = await ann.recv_until(_kind("claim_refused"))
        assert told == {"type": "event", "table": table_id, "seq": None, "event": {
            "kind": "claim_refused", "seat": 1, "reason": "show", "points": 18, "counts_as_zero": False}}
        turn = await ann.recv_until(lambda m: m["type"] == "turn")
        assert (turn["seq"], turn["to_move"], turn["legal_actions"]) == (
            counting_seq, 1, [{"action": "claim", "min": 0, "max": 29}])
        assert game.scores == before
        mine = (await ann.request({"type": "snapshot"}))
        assert mine["game"]["counting"]["refused"] == 18 and mine["seq"] == counting_seq
        assert [e["seq"] for e in mine["events"] if e["event"]["kind"] == "claim_refused"] == [None]
        for other in (ben, dot):
            theirs = await other.request({"type": "snapshot"})
            assert theirs["game"]["counting"] == {"seat": 1, "reason": "show", "cards": ["5H", "5S", "JD", "4C"],
                                                  "claimed": None, "refused": None}
            assert "claim_refused" not in json.dumps(theirs) and theirs["seq"] == counting_seq

        assert (await ann.request({"type": "action", "action": "claim", "points": 17}))["type"] == "ok"
        zero = await ann.recv_until(_kind("claim_refused"))
        assert (zero["seq"], zero["event"]["points"], zero["event"]["counts_as_zero"]) == (None, 17, True)
        claimed = await ann.recv_until(_kind("claimed"))
        assert (claimed["seq"], claimed["event"]["points"]) == (counting_seq + 1, 0)
        for other in (ben, dot):
            await other.recv_until(lambda m: m["type"] == "turn" and m["seq"] == counting_seq + 1)
            heard = _game_messages(other, table_id, marks[other])
            assert [(m["type"], m["seq"], m.get("event")) for m in heard] == [
                ("event", counting_seq + 1, {"kind": "claimed", "seat": 1, "reason": "show",
                                             "cards": ["5H", "5S", "JD", "4C"], "points": 0}),
                ("turn", counting_seq + 1, None)]
        assert (await ben.request({"type": "action", "action": "muggins", "points": 16}))["type"] == "ok"
        counted = await ann.recv_until(_kind("counted"))
        assert {k: counted["event"][k] for k in ("claimed", "worth", "mugged_by", "lost")} == {
            "claimed": 0, "worth": 16, "mugged_by": 0, "lost": 0}
        assert game.scores == [before[0] + 16, before[1]]
        for client in (ann, ben, dot):
            await client.close()


class TextPerson:
    """A person at a bare terminal (nc), typing lines and reading what comes back."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    async def say(self, line: str) -> None:
        self.writer.write(line.encode() + b"\n")
        await self.writer.drain()

    async def read_until(self, words: str) -> str:
        """Every line from now on up to the one holding ``words``."""
        seen = ""
        while words not in seen:
            seen += (await asyncio.wait_for(self.reader.readline(), 10)).decode()
        return seen


async def text_player_to_the_claim(ann: TextPerson, ben: Client, table_id: int, your_discard: str,
                                   your_turn: str, your_claim: str) -> str:
    """The worked example's deal with Ann in text mode (her name given already) and Ben over
    JSON: Ann joins, both are ready and lay away as the example says, and Ann plays the first
    card she is offered until she is to claim; what she read meanwhile (her prompts are
    ``your_discard``, ``your_turn`` and ``your_claim`` in her language)."""
    await ann.say(f"join {table_id}")
    await ben.request({"type": "ready"})
    await ann.say("ready")
    await ann.read_until(your_discard)
    await ann.say("discard KH QH")
    await ben.request({"type": "action", "action": "discard", "cards": ["9D", "TD"]})
    await ben.send({"type": "snapshot"})
    bens_play = asyncio.ensure_future(play_out(ben, random.Random(2), stop_after=_kind("counting")))
    text = ""
    while your_claim not in text:  # Ann plays the first card she is offered
        line = (await asyncio.wait_for(ann.reader.readline(), 10)).decode()
        text += line
        if line.startswith(your_turn):
            await ann.say(line.split(": ", 1)[1].split(" | ")[0].strip())
    await bens_play
    return text


async def test_rules_worked_example_in_text_mode(stacked: None) -> None:
    """Ann plays from netcat: she is prompted to claim, is refused 18, claims 12 and sees
    Ben's muggins; Ben (JSON) calls it."""
    async with running_server() as server:
        ann = TextPerson(*await asyncio.open_connection("127.0.0.1", server.port))
        say, read_until, writer = ann.say, ann.read_until, ann.writer
        ben = await _hello(server.port, "Ben")
        created = await ben.request({"type": "create_table", "preset": "cribbage", "options": MANUAL})
        await say("width 1000")  # one line a message
        await say("name Ann")
        await read_until("Welcome, Ann!")
        text = await text_player_to_the_claim(ann, ben, created["table"]["id"], "Your discard",
                                              "Your turn", "Your claim")
        assert "Ann's hand 4C 5H 5S JD + 6C is to be counted." in text
        assert ("Your claim: count the cards to be counted above, with the turn-up, and type claim N "
                "(a claim above what they hold is refused once, and a second one counts as 0; points "
                "you miss may be taken by muggins).") in text
        await say("claim 18")
        told = await read_until("Your claim")
        assert ("That hand does not hold 18. Claim again: a second claim above the hand's worth "
                "counts as 0.\nYour claim: count the cards") in told
        await say("claim 12")
        assert "Ann claims 12 for the hand." in await read_until("claims 12")
        await ben.recv_until(lambda m: m["type"] == "turn" and m["legal_actions"][:1] == [
            {"action": "muggins", "min": 13, "max": 29}])
        await ben.request({"type": "action", "action": "muggins", "points": 16})
        told = await read_until("mugged by Ben")
        assert "Ben: muggins, 16 — right!" in told
        assert ("Ann's hand held 16 (fifteen two, fifteen four, fifteen six, fifteen eight, a pair ten, "
                "a run of three thirteen, a run of three sixteen); 12 claimed, 4 mugged by Ben.") in told
        writer.close()
        await ben.close()


async def test_the_turn_timer_claims_0_and_passes(stacked: None) -> None:
    async with running_server() as server:
        ben, ann, table_id = await _seat_two(server.port, MANUAL, turn_timer=1)
        await _play_to_the_show(ben, ann)
        game = server.core.tables[table_id].game
        before = list(game.scores)
        timed = await ben.recv_until(lambda m: m["type"] == "timed_out", timeout=5)
        assert (timed["seat"], timed["action"]) == (1, {"action": "claim", "points": 0})
        timed = await ben.recv_until(lambda m: m["type"] == "timed_out", timeout=5)
        assert (timed["seat"], timed["action"]) == (0, {"action": "pass"})
        counted = await ann.recv_until(_kind("counted"))
        assert (counted["event"]["claimed"], counted["event"]["worth"], counted["event"]["lost"]) == (0, 16, 16)
        assert game.scores == before
        for client in (ann, ben):
            await client.close()


def _worth_told_early(messages: list[dict[str, Any]]) -> list[str]:
    """Every place in ``messages`` (one connection's, in order) that tells a show's worth
    before the ``counted`` event of that show."""
    found = []
    counting = False
    for message in messages:
        event = message.get("event") if message.get("type") == "event" else None
        if event is not None and event["kind"] == "counting":
            counting = True
        elif event is not None and event["kind"] == "counted":
            counting = False
        elif counting:
            text = json.dumps(message)
            if '"worth"' in text or '"items": [{' in text and '"reason": "show"' in text:
                found.append(text)
            for action in (message.get("legal_actions") or message.get("turn", {}).get("legal_actions") or []):
                if action["action"] == "claim" and (action.get("min"), action.get("max")) != (0, 29):
                    found.append(text)
    return found


def _refusals_heard(messages: list[dict[str, Any]], seat: int | None) -> tuple[int, list[str]]:
    """How many of ``seat``'s own claims were refused in ``messages`` (one connection's), and
    every place where they tell of a refusal that is not its own, or skip a number of ``seq``
    (which would tell that a message was kept from it)."""
    own, found, last = 0, [], None
    for message in messages:
        if message.get("type") != "event":
            continue
        if message["seq"] is None:
            event = message["event"]
            if event["kind"] == "claim_refused" and event["seat"] == seat:
                own += 1
            else:
                found.append(json.dumps(message))
            continue
        if last is not None and message["seq"] != last + 1:
            found.append(f"seq {last} then {message['seq']}")
        last = message["seq"]
    found += [json.dumps(m) for m in messages if m.get("type") != "event" and "claim_refused" in json.dumps(m)]
    return own, found


async def test_nobody_is_told_a_shows_worth_before_its_muggins_step_ends() -> None:
    """Seeded games of every manual-counting preset, two seats answering at random (claims
    too, from 0 to 29: many are refused, and many second ones count as 0) and a spectator:
    no message to anyone tells a worth before the show's ``counted`` event, nobody but the
    claimer hears of a refusal or misses a number of ``seq`` for it, and the usual
    hidden-card audit holds."""
    for preset, players in (("cribbage", 2), ("five-card-cribbage", 2), ("noddy-modern", 3)):
        async with running_server() as server:
            people = [await _hello(server.port, name) for name in ("Ann", "Ben", "Cat")[:players]]
            watcher = await _hello(server.port, "Dot")
            created = await people[0].request({"type": "create_table", "preset": preset, "players": players,
                                               "options": {**MANUAL, "target": 31}})
            table_id = created["table"]["id"]
            for person in people[1:]:
                await person.request({"type": "sit", "table": table_id})
            await watcher.request({"type": "spectate", "table": table_id})
            for person in people:
                await person.request({"type": "ready"})
            rngs = [random.Random(i) for i in range(players)]
            await asyncio.gather(*(play_out(p, r, claim_at_random=True) for p, r in zip(people, rngs)))
            await watcher.recv_until(_kind("game_over"))
            everyone = people + [watcher]
            for client in everyone:
                assert _worth_told_early(client.received) == []
            refusals = 0
            for seat, client in [*enumerate(people), (None, watcher)]:
                own, found = _refusals_heard(client.received, seat)
                assert found == [] and (seat is not None or own == 0)
                refusals += own
            table = server.core.tables[table_id]
            assert refusals == sum(isinstance(e, ClaimRefused) for _, e in table.log) > 0
            assert any(m.get("event", {}).get("kind") == "counted" for m in watcher.received)
            entitlement = Entitlement(table.log, players)
            for seat, client in [*enumerate(people), (None, watcher)]:
                assert audit(client.received, [seat] * len(client.received), entitlement, table_id) > 0
            for client in everyone:
                await client.close()


async def test_a_record_counted_by_hand_replays_exactly_and_is_rated() -> None:
    async with running_server() as server:
        ben, ann = await _hello(server.port, "Ben"), await _hello(server.port, "Ann")
        for person in (ben, ann):  # only registered people are rated
            assert (await person.request({"type": "register", "password": "a secret"}))["type"] == "registered"
        created = await ben.request({"type": "create_table", "preset": "five-card-cribbage",
                                     "options": {**MANUAL, "target": 31}})
        table_id = created["table"]["id"]
        assert created["table"]["rated"] is True
        await ann.request({"type": "sit", "table": table_id})
        await ben.request({"type": "ready"})
        await ann.request({"type": "ready"})
        await asyncio.gather(play_out(ben, random.Random(1)), play_out(ann, random.Random(2)))
        game_id = server.core.tables[table_id].live.game_id
        record = (await ben.request({"type": "get_game", "game": game_id}))["record"]
        kinds = {event["kind"] for step in record["steps"] for event in step["events"]}
        assert {"counting", "claimed", "counted"} <= kinds
        replay(record)  # raises unless every stored event comes out again
        board = await ben.request({"type": "leaderboard", "family": "cribbage"})
        assert sorted(p["name"] for p in board["players"]) == ["Ann", "Ben"]
        for client in (ann, ben):
            await client.close()


# == the coach =============================================================================

async def test_hint_and_review_are_refused_at_a_table_without_hints() -> None:
    async with running_server() as server:
        ben, ann, table_id = await _seat_two(server.port, {})
        # Unrated only because they are guests: the coach is not on.
        assert server.core.tables[table_id].summary()["unrated_reasons"] == ["guest"]
        for request in ({"type": "hint"}, {"type": "review"}):
            refused = await ann.request(request)
            assert (refused["code"], refused["message"]) == (
                "hints_off", f"table {table_id} has no coach: hints are a table option (hints: true) "
                             "of unrated tables, chosen when the table is made")
        for client in (ann, ben):
            await client.close()


async def test_a_hint_ranks_the_seats_choices_as_the_coach_does_and_a_review_follows_a_deal() -> None:
    async with running_server() as server:
        ben, ann, table_id = await _seat_two(server.port, {"hints": True, "target": 31})
        table = server.core.tables[table_id]
        summary = table.summary()
        assert (summary["options"], summary["rated"]) == ({"hints": True, "target": 31}, False)
        game = table.game
        hint = await ann.request({"type": "hint"})
        expected = [choice.to_dict() for choice in advise(game.observation(1), game.rules)]
        assert (hint["type"], hint["seat"], hint["decision"], len(hint["choices"])) == ("hint", 1, "discard", 15)
        assert hint["choices"] == expected
        assert [c["total"] for c in hint["choices"]] == sorted((c["total"] for c in hint["choices"]), reverse=True)
        early = await ann.request({"type": "review"})
        assert (early["code"], early["message"]) == ("no_such_deal", "no deal of this game has ended yet")
        for client in (ann, ben):
            await client.send({"type": "snapshot"})
        await asyncio.gather(play_out(ann, random.Random(1), stop_after=_kind("deal_ended")),
                             play_out(ben, random.Random(2), stop_after=_kind("deal_ended")))
        reply = await ann.request({"type": "review"})
        start = Game(table.rules, 2, seed=game.seed)
        from noddy.bots.coach import review
        notes = [note.to_dict() for note in review(start, table.live.taken, 1, deal=1)]
        assert (reply["type"], reply["seat"], reply["deal"], reply["notes"]) == ("review", 1, 1, notes)
        assert notes, "a seat playing at random made no decision worth a note"
        later = await ann.request({"type": "review", "deal": 2})
        assert (later["code"], later["message"]) == ("no_such_deal", "deal 2 has not ended (deals 1 to 1 have)")
        for client in (ann, ben):
            await client.close()


async def test_the_coach_never_counts_a_show_counted_by_hand(stacked: None) -> None:
    async with running_server() as server:
        ben, ann, table_id = await _seat_two(server.port, {**MANUAL, "hints": True})
        await _play_to_the_show(ben, ann)
        refused = await ann.request({"type": "hint"})
        assert (refused["code"], refused["message"]) == (
            "no_hint", "the coach does not count a show for anyone: count it yourself (claim, or muggins, or pass)")
        for client in (ann, ben):
            await client.close()


async def test_a_hints_game_is_unrated_and_its_record_can_be_reviewed() -> None:
    async with running_server() as server:
        ben, ann, table_id = await _seat_two(server.port, {"hints": True, "target": 15}, preset="five-card-cribbage")
        for client in (ann, ben):
            await client.send({"type": "snapshot"})
        await asyncio.gather(play_out(ben, random.Random(3)), play_out(ann, random.Random(4)))
        game_id = server.core.tables[table_id].live.game_id
        record = (await ben.request({"type": "get_game", "game": game_id}))["record"]
        board = await ben.request({"type": "leaderboard", "family": "cribbage"})
        assert board["players"] == []
        await ben.request({"type": "leave"})
        reply = await ben.request({"type": "review", "game": game_id})  # Ben sat in seat 0
        from noddy.bots.coach import review
        from noddy.server.storage.records import new_game, record_actions
        notes = [n.to_dict() for n in review(new_game(record), record_actions(record), 0)]
        assert (reply["type"], reply["game"], reply["seat"], reply["deal"], reply["notes"]) == (
            "review", game_id, 0, None, notes)
        stranger = await _hello(server.port, "Cat")
        refused = await stranger.request({"type": "review", "game": game_id})
        assert (refused["code"], refused["field"]) == ("missing_field", "seat")
        seat_1 = await stranger.request({"type": "review", "game": game_id, "seat": 1})
        assert seat_1["seat"] == 1
        for client in (ann, ben, stranger):
            await client.close()


def test_a_refusal_keeps_the_claimers_turn_time_and_the_timer_still_claims_0() -> None:
    """With a turn timer (a clock the test controls): a refused claim gives the claimer no
    new time (a timer started again would tell the others that something happened) and
    sends the others nothing; when the time runs out, the silent owner claims 0."""
    from .test_core import Harness

    h = Harness()
    conns = [h.connect("ann"), h.connect("ben")]
    created = h.send(conns[0], {"type": "create_table", "preset": "cribbage", "turn_timer": 10,
                                "options": MANUAL})
    h.send(conns[1], {"type": "sit", "table": created["table"]["id"]})
    for conn in conns:
        h.send(conn, {"type": "ready"})
    table = h.core.tables[created["table"]["id"]]
    game = table.game
    while game.phase != "claim":
        seat = game.awaiting[0]
        h.send(conns[seat], {"type": "action", **game.legal_actions(seat)[0].to_dict(with_seat=False)})
    owner = game.to_move
    other = conns[1 - owner]
    deadline = table.deadlines[owner]
    h.tick(6.0)
    heard = len(h.inbox[other])
    worth = score_show(game.kept[owner], game.turn_up, game.rules).total
    assert h.send(conns[owner], {"type": "action", "action": "claim", "points": worth + 1})["type"] == "ok"
    turn = h.inbox[conns[owner]][-1]
    assert (turn["type"], turn["to_move"], turn["time_left"]) == ("turn", owner, round(deadline - h.now, 1))
    assert table.deadlines[owner] == deadline and len(h.inbox[other]) == heard
    h.tick(deadline - h.now)
    timed, claimed = h.inbox[other][heard], h.inbox[other][heard + 1]
    assert (timed["type"], timed["seat"], timed["action"]) == ("timed_out", owner, {"action": "claim", "points": 0})
    assert (claimed["event"]["kind"], claimed["event"]["points"]) == ("claimed", 0)
