"""Text-mode rendering: every message the server sends a person at a bare terminal, as lines.

Game events are told by the shared narration of :mod:`noddy.protocol.story` (the words the
client's log and replay use too); this module adds only what a terminal without a board
needs, the scores after each score.  Seats are counted from 1, and errors are reworded for
the person who caused them (:func:`~.person_errors.person_error`: "you do not hold TH", not "seat 0 does not
hold TH").

Every line is said in the reader's language (:mod:`noddy.protocol.i18n`): the send path
renders a connection's lines inside ``with speaking(lang):``, so the words here are looked
up as they are rendered, and a message text made elsewhere (an error's ``message``, a note,
a closing's reason) is said again with :func:`~noddy.protocol.i18n.say` when it is a
Phrase.  Names, chat, cards and the command words a person types stay as they are.
"""

from __future__ import annotations

import json
from typing import Any, Sequence

from noddy.protocol.closing import closed_words
from noddy.protocol.i18n import N_, _, ngettext, pgettext, say
from noddy.protocol.narration import card_order, sort_cards
from noddy.protocol.stats_view import stats_lines
from noddy.protocol.story import narrate, score_line, seat_name

from .club_text import AT_CLUB_BOARD, CLUB_MESSAGES, NEXT_AT_A_BOARD, club_text
from .language_commands import language_line
from .meeting import chat_line, lobby_text, talk_text
from .move_commands import numbered_hand
from .person_errors import person_error
from .records_text import games_text, leaderboard_text, match_points, record_text, sides_of
from .seat_news import SEAT_NEWS, seat_news_text
from .wrapping import DEFAULT_WIDTH, wrap

#: What follows every goodbye: plain ``nc`` stays open after the server closes the
#: connection, until the person presses Ctrl-C (issue 33, item 10).
LEAVE_NC = N_("(If your terminal stays open, press Ctrl-C.)")

def _seat_word(seat: int | None, names: Sequence[str] = ()) -> str:
    """Who sits in ``seat``, by name where the table has one ("seat 2", counted from 1,
    otherwise): the shared rule of :func:`noddy.protocol.story.seat_name`."""
    return seat_name(seat, names)


def _who(seat: int, names: Sequence[str]) -> str:
    """``_seat_word`` at the start of a sentence."""
    word = _seat_word(seat, names)
    named = 0 <= seat < len(names) and names[seat]  # a name is left as its person typed it
    return word if named or not word else word[0].upper() + word[1:]


def _how_seats_fill(table: dict[str, Any]) -> str:
    """For a waiting table with free seats, a line on how they fill: a newcomer who typed
    ready at a table for two, alone, was otherwise left waiting with no word of ``bot``."""
    free = [str(index + 1) for index, seat in enumerate(table["seats"]) if seat is None]
    if table["status"] != "waiting" or not free:
        return ""
    if table.get("event"):  # a club night's board: nobody else sits, the games deal themselves
        where = table["event"]
        return "\n" + _("Board {board} of club night {event}, round {round}: the game begins by "
                        "itself when both players are seated.").format(
            board=where["board"], event=where["id"], round=where["round"])
    seats = (_("Seat {seat} is free.").format(seat=free[0]) if len(free) == 1 else
             _("Seats {seats} and {last} are free.").format(seats=", ".join(free[:-1]), last=free[-1]))
    if table["private"]:  # nobody joins it by its number alone (issue 33, item 14)
        others = _("invite NAME: the table is private, so anyone else needs its password "
                   "(join {table} PASSWORD)").format(table=table["id"])
    else:
        others = _("wait for someone to type join {table}").format(table=table["id"])
    return "\n" + _("{seats} The game begins when every seat is taken and ready: type bot for a "
                    "computer player, or {others}.").format(seats=seats, others=others)


def _status_word(status: str) -> str:
    """A table's status (a code word of the protocol) as the reader's language says it."""
    words = {"waiting": pgettext("table status", "waiting"),
             "playing": pgettext("table status", "playing"),
             "finished": pgettext("table status", "finished")}
    return words.get(status, status)


def _table_line(table: dict[str, Any]) -> str:
    seats = []
    for index, seat in enumerate(table["seats"]):
        if seat is None:
            seats.append(f"{index + 1}: " + pgettext("seat", "empty"))
        else:
            flags = []
            if seat["kind"] == "computer":
                flags.append(pgettext("seat", "computer") if seat.get("stand_in_for") is None else
                             _("computer, for {name} until back").format(name=seat["stand_in_for"]))
            elif seat.get("bot"):
                flags.append(pgettext("seat", "bot, ready") if seat["ready"] else pgettext("seat", "bot"))
            elif seat["ready"]:
                flags.append(pgettext("seat", "ready"))
            if not seat["connected"]:
                flags.append(pgettext("seat", "away"))
            if seat.get("guest"):
                flags.append(pgettext("seat", "guest"))
            seats.append(f"{index + 1}: {seat['name']}" + (f" ({', '.join(flags)})" if flags else ""))
    extras = []
    if table["partnerships"]:
        extras.append(pgettext("table", "partnerships"))
    if table["options"]:  # as typed after new: target=61 knave_noddy=false counting=manual
        extras.append(" ".join(f"{k}={json.dumps(v) if isinstance(v, bool) else v}"
                               for k, v in table["options"].items()))
    if table["private"]:
        extras.append(pgettext("table", "private"))
    if table.get("rated") is False:
        extras.append(_("unrated: {why}").format(why=say(table.get("unrated_why") or "")
                                                   or _("see help register")))
    elif table.get("rated"):
        extras.append(pgettext("table", "rated"))
    watchers = (_("; watching: {names}").format(names=", ".join(table["spectators"]))
                if table["spectators"] else "")
    head = _table_word(table) + " " + _("{preset} {players}p").format(preset=table["preset"],
                                                                      players=table["players"])
    if extras:
        head += " (" + ", ".join(extras) + ")"
    return f"{head} [{_status_word(table['status'])}] " + " | ".join(seats) + watchers


def joinable_line(table: dict[str, Any]) -> str:
    """A table a person in the lobby can sit down at, as the lobby's news tells them of it
    (``Table 3 has a free seat (type join 3): noddy 2p ...``): see :mod:`.lobby_news`."""
    line = _table_line(table)
    return _("Table {table} has a free seat (type join {table}): {line}").format(
        table=table["id"], line=line[len(_table_word(table)) + 1:])


def _table_word(table: dict[str, Any]) -> str:
    """``Table 3``: how a table line begins."""
    return _("Table {table}").format(table=table["id"])


def _ready_hint(message: dict[str, Any]) -> str:
    """At a table a challenge or a seek seated the reader at, full and waiting: how it starts."""
    table, seat = message["table"], message.get("seat")
    if seat is None or table["status"] != "waiting" or None in table["seats"] or table.get("event"):
        return ""
    if table["seats"][seat]["ready"]:
        return "\n" + _("You are ready; the game begins when everyone is.")
    return "\n" + _("Type ready to begin; the game begins when everyone is ready.")


def _scores(scores: Sequence[int], names: Sequence[str] = ()) -> str:
    """``Ada 8, random computer 32``: each side's score beside its name.  With fewer scores
    than seats the seats play in partnerships: seats 1 and 3 (0 and 2 in the protocol)
    score together."""
    return score_line(scores, names)


def _event_text(event: dict[str, Any], names: Sequence[str] = (), club: bool = False) -> str:
    """A game event in words: the shared narration (:func:`noddy.protocol.story.narrate`),
    and after a score the scores, since a terminal has no peg board.

    A text connection's messages do not say which seat reads them, but an event that shows
    a seat's dealt or discarded cards is only ever sent to that seat: it is the reader's
    own, and is told to them as "You hold ...".  So is a claim refused ("That hand does not
    hold 18. Claim again: ...")."""
    private = (event.get("kind") in ("cards_dealt", "discarded") and event.get("cards") is not None
               or event.get("kind") == "claim_refused")
    text = narrate(event, names, event.get("seat") if private else None)
    if text is None:  # a kind this version cannot tell
        return str(event)
    if event["kind"] == "scored":
        text = _("{event}. Scores: {scores}").format(event=text.rstrip("."),
                                                     scores=_scores(event["scores"], names))
    elif event["kind"] == "game_over":  # a newcomer at a finished table: what now?
        text += "\n" + (_(NEXT_AT_A_BOARD) if club else
                        _("To play again, each player types ready; leave goes back to the lobby."))
    return text


def _match_line(table: dict[str, Any]) -> str:
    """The table's running match, as ``look`` and the table line show it: ``Match to 3, game
    2: ann 1, ben 0.`` (or who won it)."""
    match = table.get("match")
    if not match:
        return ""
    seats = [s for s in table["seats"] if s is not None]
    if match.get("names"):  # who played it, though one has left since
        seats = [{"seat": seat, "name": name} for seat, name in enumerate(match["names"]) if name]
    sides = sides_of({"seats": seats, "players": table["players"], "partnerships": table["partnerships"]})
    return "\n" + _("Match to {to}, game {game}: {points}.").format(
        to=match["to"], game=match["game"], points=match_points(match, sides))


def _last_game_words(table: dict[str, Any]) -> str:
    """At a finished table, how its last game was rated (``last_game``; a server without it:
    the table's terms), not how the next would be (the table's ``rated``): "" otherwise."""
    if table.get("status") != "finished" or "rated" not in table:
        return ""
    terms = table.get("last_game") or table
    if terms["rated"]:
        return _("That game was rated.")
    return _("That game was unrated: {why}.").format(why=say(terms["unrated_why"]))


def render(message: dict[str, Any], names: Sequence[str] = (), width: int | None = None) -> str:
    """``message`` as lines a person can read (always ending in a newline).  ``names`` are
    the seats' names at the reader's table, so that events name the players; ``width`` the
    columns the lines are wrapped to (None: :data:`~.wrapping.DEFAULT_WIDTH`)."""
    kind = message["type"]
    text: str
    if kind == "welcome":
        where = ("" if message["table"] is None else
                 " " + _("You are back at table {table}.").format(table=message["table"]))
        text = (_("Welcome, {name}!").format(name=message["name"]) + where + " "
                + _("Your resume token is {token}.").format(token=message["token"]) + "\n"
                + _("Type tables to see the tables, new noddy to start one, help for all commands."))
        if message.get("registered") is False:
            text += "\n" + _("You are a guest (unrated): register PASSWORD keeps your name.")
    elif kind in ("help", "note"):  # text mode's own answers (help, width, register's check)
        text = say(message["text"])
    elif kind == "error":
        text = _("Error ({code}): {message}").format(code=message["code"], message=say(message["message"]))
    elif kind == "ok":
        return ""  # what the request did follows (an event, the chat line, the lobby)
    elif kind == "pong":
        text = "pong"
    elif kind == "ping":  # the keepalive's: a silent connection is closed at the idle limit
        text = _("Are you there? Type anything (ping will do), or the server will close the connection.")
    elif kind == "tables":
        text = "\n".join(_table_line(t) for t in message["tables"]) or \
            _("No tables yet. Type new noddy to start one.")
    elif kind == "table":
        text = _table_line(message["table"]) + _match_line(message["table"])
        if message.get("joinable"):  # the lobby's news of a table the reader may join
            text = joinable_line(message["table"])
        elif names:  # the reader sits or watches at this table (the lobby's readers have none)
            text += _how_seats_fill(message["table"]) + _ready_hint(message)
            text += "".join("\n" + said for said in [_last_game_words(message["table"])] if said)
    elif kind in ("who", "challenge", "challenged", "challenge_over", "seeking"):
        text = lobby_text(message)
    elif kind == "table_closed":
        text = (_("Table {table} is put away: {why}.") if message.get("reason") == "shutdown" else
                _("Table {table} is closed: {why}.")).format(table=message["table"],
                                                            why=say(closed_words(message)))
    elif kind == "game_result":  # a result decided away from the table (issue 33)
        text = say(message["message"])
    elif kind == "event":
        text = _event_text(message["event"], names, AT_CLUB_BOARD in message)
    elif kind == "turn":
        text = _turn_text(message, names, again=False)
        if not text:
            return ""
    elif kind == "chat":
        text = chat_line(message)
    elif kind in ("tell", "muted", "chat_history"):
        text = talk_text(message)
    elif kind == "snapshot":
        lines = [_table_line(message["table"]) + _match_line(message["table"])]
        lines += [said for said in [_last_game_words(message["table"])] if said]
        game = message["game"]
        if game is not None:
            if game["hand"] is not None:
                # Sorted as players hold them, which is how numbered_hand numbers them for
                # discard 1 2: card n here is card n there.
                lines.append(_("Your cards: {cards}").format(cards=" ".join(sort_cards(game["hand"])) or "-"))
            lines.append(_("Turn-up: {card}  Count: {count}  Pile: {pile}  Scores: {scores}").format(
                card=game["turn_up"] or "-", count=game["count"], pile=" ".join(game["pile"]) or "-",
                scores=_scores(game["scores"], names)))
            if "turn" in message:
                lines.append(_turn_text(message["turn"], names, again=True))
        text = "\n".join(lines)
    elif kind in SEAT_NEWS:
        text = seat_news_text(message)
    elif kind == "timed_out":
        text = _("{who} ran out of time; the server plays {action}.").format(
            who=_who(message["seat"], names), action=_action_text(message["action"]))
    elif kind == "shutdown":
        text = _("The server is shutting down. Goodbye.") + "\n" + _(LEAVE_NC)
    elif kind == "bye":
        reason = message["reason"]  # a plain quit's reason is "goodbye": not said twice
        text = (_("Goodbye.") if reason == "goodbye" else
                _("Goodbye ({reason}).").format(reason=say(reason))) + "\n" + _(LEAVE_NC)
    elif kind == "games":
        text = games_text(message)
    elif kind == "game_record":
        text = record_text(message["record"])
    elif kind == "registered":
        text = _("{name} is registered: the name is yours, and your games with other registered "
                 "people are rated. Next time: login {name} PASSWORD.").format(name=message["name"])
    elif kind == "password_changed":
        text = _("The password of {name} is changed.").format(name=message["name"])
    elif kind == "unregistered":
        text = _("{name} is no longer registered: you are a guest, and its ratings are gone.").format(
            name=message["name"])
    elif kind == "leaderboard":
        text = leaderboard_text(message)
    elif kind == "stats":
        text = "\n".join(stats_lines(message))
    elif kind in CLUB_MESSAGES:
        text = club_text(message, width or DEFAULT_WIDTH)
    elif kind == "hint":
        text = _hint_text(message)
    elif kind == "review":
        text = _review_text(message)
    elif kind == "language":
        text = language_line(message)
    else:
        text = " ".join(f"{k}={v}" for k, v in message.items())
    return wrap(text, width or DEFAULT_WIDTH) + "\n"


def _advice_text(choice: dict[str, Any]) -> str:
    """One of the coach's choices in a line: a discard or a play with its figures."""
    if "laid" in choice:
        return _("discard {cards}: hand {hand:.2f}, crib {crib:+.2f}, total {total:.2f}").format(
            cards=" ".join(choice["laid"]), hand=choice["hand"], crib=choice["crib"], total=choice["total"])
    card = "go" if choice["card"] is None else f"play {choice['card']}"  # as the person types it
    return _("{move}: pegs {now}, reply {answer:.2f}, total {total:+.2f}").format(
        move=card, now=choice["now"], answer=choice["answer"], total=choice["total"])


def _hint_text(message: dict[str, Any]) -> str:
    choices = message["choices"]
    shown = choices[:6]
    lines = [ngettext("The coach ranks your {n} choice (best first):",
                      "The coach ranks your {n} choices (best first):", len(choices)).format(n=len(choices))]
    lines += [f"  {number}. {_advice_text(choice)}" for number, choice in enumerate(shown, 1)]
    if len(choices) > len(shown):
        lines.append("  " + _("... and {n} more").format(n=len(choices) - len(shown)))
    return "\n".join(lines)


def _review_text(message: dict[str, Any]) -> str:
    which = (_("deal {deal}").format(deal=message["deal"]) if message["deal"] is not None
             else _("the game"))
    notes = message["notes"]
    if not notes:
        return _("Review of {which}: no decision fell short of the best by a point or more.").format(which=which)
    lines = [_("Review of {which}:").format(which=which)]
    for note in notes:
        lines.append("  " + _("deal {deal}: you chose {choice}").format(
            deal=note["deal"], choice=_advice_text(note["chosen"])))
        # The difference of the totals as printed, so the reader can check it (issue 27, item 7).
        shown = float(f"{note['best']['total']:.2f}") - float(f"{note['chosen']['total']:.2f}")
        lines.append("    " + _("better: {choice} ({more:.2f} more)").format(
            choice=_advice_text(note["best"]), more=shown))
    return "\n".join(lines)


def _action_text(action: dict[str, Any]) -> str:
    if action["action"] == "play":
        return f"play {action['card']}"
    if action["action"] == "discard":  # another seat's timed-out discard comes without cards
        return _("a discard to the crib") if action["cards"] is None else "discard " + " ".join(action["cards"])
    if action["action"] in ("claim", "muggins"):
        return f"{action['action']} {action['points']}"
    return action["action"]  # go, pass


def _turn_text(turn: dict[str, Any], names: Sequence[str], again: bool) -> str:
    """What a ``turn`` says to a person.  A discard is asked for once: every seat discards at
    the same time, so a later discard turn (another seat has laid away meanwhile, ``awaiting``
    is shorter than the table) only repeats the question, and reads as nothing unless
    ``again`` (``look``, a resume)."""
    legal = turn["legal_actions"]
    if not legal:
        return _("Waiting for {who}.").format(who=", ".join(_seat_word(s, names) for s in turn["awaiting"]))
    if legal[0]["action"] == "claim":
        return _("Your claim: count the cards to be counted above, with the turn-up, and type "
                 "claim N (a claim above what they hold is refused once, and a second one counts "
                 "as 0; points you miss may be taken by muggins).")
    if legal[0]["action"] == "muggins":
        return _("Muggins? If the claim fell short, type muggins N with what the cards hold "
                 "(more than {least}); otherwise type pass.").format(least=legal[0]["min"] - 1)
    if legal[0]["action"] == "pass":
        return _("The claim is the most any show can hold: type pass.")
    if legal[0]["action"] != "discard":  # the cards as look shows them (sorted), then go
        ordered = sorted(legal, key=lambda a: (a["action"] != "play", card_order(a.get("card") or "")))
        return _("Your turn (count {count}): {moves}").format(
            count=turn["count"], moves=" | ".join(_action_text(a) for a in ordered))
    if not again and names and len(turn["awaiting"]) < len(names):
        return ""
    hand = numbered_hand(legal)
    size = len(legal[0]["cards"])
    cards = ngettext("{n} card", "{n} cards", size).format(n=size)
    numbered = " ".join(f"{number}:{card}" for number, card in enumerate(hand, 1))
    example = " ".join(legal[0]["cards"])
    numbers = " ".join(str(hand.index(card) + 1) for card in legal[0]["cards"])
    return _("Your discard: choose {cards} for the crib from {numbered} "
             "(type discard {example}, or discard {numbers}).").format(
        cards=cards, numbered=numbered, example=example, numbers=numbers)
