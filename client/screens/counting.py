"""Counting by hand: the number a player types to claim a show, or to call muggins on one.

At a table whose shows are counted by hand (``counting: "manual"``, docs/PROTOCOL.md
"Counting by hand and muggins") each show is a claim step for its owner, whose ``turn``
offers ``{"action":"claim","min":0,"max":29}``, and then a muggins step for each opponent,
offered ``{"action":"muggins","min":13,...}`` and ``{"action":"pass"}``.  :class:`HandCount`
is what the player does then: type digits (``entry``), Backspace, Esc to clear, Enter to
send the claim or the call; ``p`` passes.  The show being counted is the shared fold's
``TableView.counting`` (seat, reason, cards, claimed).

Why the client never counts: the point of counting by hand is that the player finds the
points; the server tells nobody a show's worth before its ``counted`` event, and this
module keeps to that -- it reads the cards and the claim, never scores them.  A claim above
the worth is refused once (``claim_refused``, to us alone): the prompt then says so, and what a
second one costs (it counts as 0), and the entry stays open; after a second one the status
line says it counted as 0.
"""

from __future__ import annotations

from typing import Any, Callable

from noddy.protocol.i18n import N_, _, pgettext

from ..keymap import Screen, key
from ..session import TABLE, Session
from .game import Game

#: The most digits a claim may have (no show holds more than 29).
ENTRY_DIGITS = 2


class HandCount(Screen):
    """The claim or muggins entry of the seat whose turn it is (module docstring)."""

    title = N_("Counting a show by hand")

    def __init__(self, session: Session, game: Game) -> None:
        self.session = session
        self.game = game
        #: Asked for a hint now, it says why not (the coach never counts a hand).
        self.ask_hint: Callable[[], None] = lambda: None
        #: The digits typed so far.
        self.entry = ""

    # == keys ============================================================================
    def is_up(self) -> bool:
        return self.session.screen == TABLE and self.active

    @key("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", label=N_("0-9"),
         help=N_("the points (Backspace edits, Esc clears)"), flush=False)
    def _digit(self, pressed: str) -> None:
        self.type_digit(pressed)

    @key("backspace", help="", flush=False)
    def _backspace(self, pressed: str) -> None:
        self.backspace()

    @key("escape", help="", eager=True, flush=False)
    def _clear(self, pressed: str) -> None:
        self.clear()

    @key("enter", help=N_("claim them / call muggins"), sends="action")
    def _claim(self, pressed: str) -> None:
        self.submit()

    @key("p", help=N_("pass (no muggins)"), sends="action")
    def _pass(self, pressed: str) -> None:
        self.pass_claim()

    @key("h", help="", flush=False)
    def _no_hint(self, pressed: str) -> None:
        self.ask_hint()

    # == what the turn offers =============================================================
    def _offer(self, verb: str) -> dict[str, Any] | None:
        if not self.game.can_act:
            return None
        return next((a for a in self.game.legal if a.get("action") == verb), None)

    @property
    def claiming(self) -> bool:
        """Our turn to claim the points of our hand (or crib)."""
        return self._offer("claim") is not None

    @property
    def mugging(self) -> bool:
        """Our turn to call muggins on someone's claim, or pass (only pass, after a claim of
        29: no show holds more)."""
        return self._offer("muggins") is not None or self._offer("pass") is not None

    @property
    def active(self) -> bool:
        """The digits the player types are points (not cards, not seats)."""
        return self.claiming or self.mugging

    @property
    def show(self) -> dict[str, Any] | None:
        """The show being counted (``TableView.counting``), or None."""
        return self.game.view.counting

    def owner_words(self, capital: bool = False) -> str:
        """``"your hand"``, ``"Ann's crib"`` (``capital``: ``"Your hand"``, to begin a line):
        whose show is being counted, each of the four one msgid (a language says "your" and
        "Ann's" each its own way, and may put the owner after the show)."""
        show = self.show or {}
        seat = show.get("seat")
        crib = show.get("reason") == "crib"
        if seat == self.game.seat:
            if capital:
                return _("Your crib") if crib else _("Your hand")
            return _("your crib") if crib else _("your hand")
        if capital:  # (English begins with the name; German with "Die Krippe von ...")
            said = (pgettext("a line's start", "{name}'s crib") if crib
                    else pgettext("a line's start", "{name}'s hand"))
        else:
            said = _("{name}'s crib") if crib else _("{name}'s hand")
        return said.format(name=self.game.seat_name(seat))

    def show_word(self) -> str:
        """What is being counted, in a word: ``"hand"`` or ``"crib"``."""
        return _("crib") if (self.show or {}).get("reason") == "crib" else _("hand")

    def bounds(self) -> tuple[int, int]:
        """The smallest and largest number the turn accepts (claim 0-29; muggins above the
        claim)."""
        offer = self._offer("claim") or self._offer("muggins") or {"min": 30, "max": 29}
        return int(offer.get("min", 0)), int(offer.get("max", 29))

    # == keys =============================================================================
    def type_digit(self, digit: str) -> None:
        if not self.active or not digit.isdigit():
            return
        entry = (self.entry + digit).lstrip("0") or "0"
        if len(entry) > ENTRY_DIGITS:
            self.session.set_status(_("No show holds more than {points}.").format(
                points=self.bounds()[1]), error=True)
            return
        self.entry = entry      # (a refusal stays in view until the next claim is sent)

    def backspace(self) -> None:
        self.entry = self.entry[:-1]

    def clear(self) -> None:
        """Esc: start the number again."""
        self.entry = ""
        self.session.clear_status()

    def submit(self) -> None:
        """Enter: claim the number typed, or call muggins with it."""
        if not self.active or self.game.sending_action:
            return
        if not self.entry:
            self.session.set_status(_("Type the points to claim first.") if self.claiming else
                                    _("Type the points to call muggins with (or p to pass) first."),
                                    error=True)
            return
        points = int(self.entry)
        low, high = self.bounds()
        if self.mugging and points < low:
            claimed = (self.show or {}).get("claimed")
            self.session.set_status(_("Muggins must say more than the {claimed} claimed: {low} or "
                                      "more.").format(claimed=claimed, low=low), error=True)
            return
        if points > high:
            self.session.set_status(_("No show holds more than {points}.").format(points=high),
                                    error=True)
            return
        self._send("claim" if self.claiming else "muggins", points=points)

    def pass_claim(self) -> None:
        """p: let the claim stand."""
        if self.mugging and not self.game.sending_action:
            self._send("pass")

    def _send(self, verb: str, **fields: Any) -> None:
        self.session.game_moved_on()
        self.game.sending_action = True
        self.session.clear_status()
        self.session.send("action", action=verb, **fields)

    # == replies ==========================================================================
    def refused(self, request: dict[str, Any], code: str, message: str) -> bool:
        """An error answered our claim or call: say why in words and keep the entry open
        (the number typed goes, since it was wrong).  True when it was ours to say."""
        verb = request.get("action")
        if verb not in ("claim", "muggins"):
            return False
        self.entry = ""
        self.session.set_status(message or code.replace("_", " "), error=True)
        return True

    def told(self, event: dict[str, Any]) -> None:
        """An event of our table: a claim of ours above the worth.  The first is refused
        (the prompt says so while we claim again); a second counts as 0, said here."""
        if event.get("kind") != "claim_refused" or event.get("seat") != self.game.seat:
            return
        self.entry = ""
        if event.get("counts_as_zero"):
            said = (_("That crib does not hold {points} either: your claim counts as 0.")
                    if event.get("reason") == "crib" else
                    _("That hand does not hold {points} either: your claim counts as 0."))
            self.session.set_status(said.format(points=event.get("points")), error=True)

    def turned(self) -> None:
        """A turn came: a number typed for an earlier step means nothing now."""
        if not self.active:
            self.entry = ""

    # == words ============================================================================
    def prompt(self) -> str | None:
        """What the player is asked while a show is counted by hand; None otherwise."""
        show = self.show
        if show is None:
            return None
        typed = f"{self.entry}▏" if self.entry else "▏"
        crib = show.get("reason") == "crib"
        if self.claiming:
            if show.get("refused") is not None:
                said = (_("That crib does not hold {points}. Claim again: a second claim above the "
                          "crib's worth counts as 0.  Claim: {typed}") if crib else
                        _("That hand does not hold {points}. Claim again: a second claim above the "
                          "hand's worth counts as 0.  Claim: {typed}"))
                return said.format(points=show["refused"], typed=typed)
            return _("Count {show} with the turn-up and claim the points (one claim too high is "
                     "refused, a second counts as 0): type them and Enter.  Claim: {typed}").format(
                         show=self.owner_words(), typed=typed)
        owner = self.game.seat_name(show.get("seat"))
        if self.mugging:
            said = (_("{name} claims {points} for the crib.  Muggins? Type what it holds and "
                      "Enter, or p to pass.  Muggins: {typed}") if crib else
                    _("{name} claims {points} for the hand.  Muggins? Type what it holds and "
                      "Enter, or p to pass.  Muggins: {typed}"))
            return said.format(name=owner, points=show.get("claimed"), typed=typed)
        if show.get("claimed") is None:
            said = _("{name} is counting the crib.") if crib else _("{name} is counting the hand.")
            return said.format(name=owner)
        waiting = [self.game.seat_name(s) for s in self.game.view.awaiting]
        who = ", ".join(waiting) or _("the others")
        return _("{name} claims {points}; {who} may call muggins.").format(
            name=owner, points=show.get("claimed"), who=who)

    def keys(self) -> list[tuple[str, str]]:
        """The keys that work now (the footer)."""
        if not self.active:
            return []
        verb = _("claim") if self.claiming else _("muggins")
        keys = [("0-9", _("points"))]
        if self.entry:
            keys += [("↵", verb), ("⌫", _("edit")), ("Esc", _("clear"))]
        if self.mugging:
            keys.append(("p", _("pass")))
        return keys


__all__ = ["HandCount", "ENTRY_DIGITS"]
