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

from ..keymap import Screen, key
from ..session import TABLE, Session
from .game import Game

#: The most digits a claim may have (no show holds more than 29).
ENTRY_DIGITS = 2


class HandCount(Screen):
    """The claim or muggins entry of the seat whose turn it is (module docstring)."""

    title = "Counting a show by hand"

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

    @key("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", label="0-9",
         help="the points (Backspace edits, Esc clears)", flush=False)
    def _digit(self, pressed: str) -> None:
        self.type_digit(pressed)

    @key("backspace", help="", flush=False)
    def _backspace(self, pressed: str) -> None:
        self.backspace()

    @key("escape", help="", eager=True, flush=False)
    def _clear(self, pressed: str) -> None:
        self.clear()

    @key("enter", help="claim them / call muggins", sends="action")
    def _claim(self, pressed: str) -> None:
        self.submit()

    @key("p", help="pass (no muggins)", sends="action")
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

    def owner_words(self) -> str:
        """``"your hand"``, ``"Ann's crib"``: whose show is being counted."""
        show = self.show or {}
        seat = show.get("seat")
        what = "crib" if show.get("reason") == "crib" else "hand"
        whose = "your" if seat == self.game.seat else f"{self.game.seat_name(seat)}'s"
        return f"{whose} {what}"

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
            self.session.set_status(f"No show holds more than {self.bounds()[1]}.", error=True)
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
            what = "claim" if self.claiming else "call muggins with (or p to pass)"
            self.session.set_status(f"Type the points to {what} first.", error=True)
            return
        points = int(self.entry)
        low, high = self.bounds()
        if self.mugging and points < low:
            claimed = (self.show or {}).get("claimed")
            self.session.set_status(f"Muggins must say more than the {claimed} claimed: "
                                    f"{low} or more.", error=True)
            return
        if points > high:
            self.session.set_status(f"No show holds more than {high}.", error=True)
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
            what = "crib" if event.get("reason") == "crib" else "hand"
            self.session.set_status(f"That {what} does not hold {event.get('points')} either: "
                                    "your claim counts as 0.", error=True)

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
        if self.claiming:
            what = "crib" if show.get("reason") == "crib" else "hand"
            if show.get("refused") is not None:
                return (f"That {what} does not hold {show['refused']}. Claim again: a second claim "
                        f"above the {what}'s worth counts as 0.  Claim: {typed}")
            return (f"Count {self.owner_words()} with the turn-up and claim the points (one claim "
                    f"too high is refused, a second counts as 0): type them and Enter.  Claim: {typed}")
        if self.mugging:
            owner = self.game.seat_name(show.get("seat"))
            what = "crib" if show.get("reason") == "crib" else "hand"
            return (f"{owner} claims {show.get('claimed')} for the {what}.  Muggins? "
                    f"Type what it holds and Enter, or p to pass.  Muggins: {typed}")
        owner = self.game.seat_name(show.get("seat"))
        if show.get("claimed") is None:
            what = "crib" if show.get("reason") == "crib" else "hand"
            return f"{owner} is counting the {what}."
        waiting = [self.game.seat_name(s) for s in self.game.view.awaiting]
        who = ", ".join(waiting) or "the others"
        return f"{owner} claims {show.get('claimed')}; {who} may call muggins."

    def keys(self) -> list[tuple[str, str]]:
        """The keys that work now (the footer)."""
        if not self.active:
            return []
        verb = "claim" if self.claiming else "muggins"
        keys = [("0-9", "points")]
        if self.entry:
            keys += [("↵", verb), ("⌫", "edit"), ("Esc", "clear")]
        if self.mugging:
            keys.append(("p", "pass"))
        return keys


__all__ = ["HandCount", "ENTRY_DIGITS"]
