"""Records and ratings: the requests that read what storage keeps, and the leaderboard.

Owns: the record reads allowed per address, and the cache of finished games' records
already read (``get_game`` of a long game is costly to read and encode); handles
``list_games``, ``get_game``, ``leaderboard`` and ``stats`` (read from the statistics rows
storage keeps: :mod:`noddy.server.storage.game_stats`), and answers a :class:`Query` once storage
has read it (a ``review`` of a stored game too, through :mod:`.reviews`).

Collaborators (passed in): the open connections (whose rate bucket a read charges), the
rating book (the leaderboard reads it), the password guard (a private game's password
counts as a table's) and the accounts (the leaderboard marks a name nobody registered).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from noddy.engine import PRESETS
from noddy.protocol import ProtocolError
from noddy.protocol.i18n import N_, Phrase
from noddy.protocol.errors import retry_after

from ..config import ServerConfig
from ..model.ratelimit import AddressBuckets, PasswordGuard
from ..model.ratings import FAMILIES, RatingBook
from ..model.session import Connection, Session
from ..storage.record_cache import RecordCache
from ..storage.records import StoredGame
from .instructions import Query
from .places import session_of
from .reviews import review_stored

if TYPE_CHECKING:
    from .accounts import Accounts
    from .connections import Connections
    from .outbox import Outbox


#: What each reason code of ``Table.unrated_reasons`` reads as in an empty leaderboard's ``why``.
_UNRATED_WORDS = {"not_two_sides": N_("three-handed (or four without partnerships)"),
                  "coach": N_("with the coach on"), "guest": N_("with a guest (no account) at the table"),
                  "same_computer": N_("with one computer level on both sides"),
                  "fixed_deals": N_("with deals fixed in advance (matches)")}


def empty_leaderboard(family: str, games: int, reasons: dict[str, int]) -> Phrase:
    """Why nobody is on ``family``'s leaderboard: the rule, and how many games since the
    server started were unrated, for which reasons (``reasons``: games per reason code).

    >>> empty_leaderboard("cribbage", 2, {"not_two_sides": 2})[-110:]
    'rated. Since the server started, 2 cribbage games were unrated: 2 three-handed (or four without partnerships).'
    """
    why = Phrase("Nobody has played a rated {family} game yet: only games between two sides (two "
                 "players, or partnerships) of registered people or computers, without the coach, are "
                 "rated.", family=family)
    if not games:
        return why
    # Each reason is its number and its words; the list is joined by a template of bare
    # placeholders (no words: no catalog entry), so each part is said in the reader's language.
    parts = {f"r{i}": Phrase("{n} {words}", n=count, words=Phrase(_UNRATED_WORDS[code])
                             if code in _UNRATED_WORDS else code)
             for i, (code, count) in enumerate(reasons.items())}
    listed = Phrase(", ".join("{" + key + "}" for key in parts), **parts)
    return Phrase("{rule} Since the server started, {n} {family} games were unrated: {reasons}.",
                  singular="{rule} Since the server started, {n} {family} game was unrated: {reasons}.",
                  plural="{rule} Since the server started, {n} {family} games were unrated: {reasons}.",
                  count=games, rule=why, n=games, family=family, reasons=listed)


def viewer_of(session: Session) -> dict[str, Any]:
    """Who asks for records, as :meth:`StoredGame.visible_to` judges it: their account (None:
    a guest, who reads a private table's games by its password only)."""
    return {"account": session.account}


class Queries:
    """Reading records and ratings; see the module docstring."""

    def __init__(self, config: ServerConfig, clock: Callable[[], float], outbox: Outbox,
                 connections: Connections, ratings: RatingBook, guard: PasswordGuard,
                 accounts: Accounts) -> None:
        self._config = config
        self._clock = clock
        self._outbox = outbox
        self._connections = connections
        self._ratings = ratings
        self._guard = guard
        self._accounts = accounts
        #: Requests that read records, per address (see :meth:`charge`).
        self._buckets = AddressBuckets(config.query_rate_per_address, config.query_burst_per_address)
        self.record_cache = RecordCache(config.record_cache_bytes)

    def handlers(self) -> dict[str, Callable[[Connection, dict[str, Any], Any], None]]:
        return {"list_games": self.list_games, "get_game": self.get_game, "leaderboard": self.leaderboard,
                "stats": self.stats}

    def list_games(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        self.charge(conn)
        session = session_of(conn)  # a private table's games only to its accounts (StoredGame.visible_to)
        name = f["name"] if f["name"] is not None else session.name
        self._outbox.query(Query(conn.id, rid, "list_games", {"name": name, "limit": f["limit"],
                                                              "viewer": viewer_of(session)}))

    def stats(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        """A person's statistics, per preset (``preset``: one preset, or a family's); games
        at private tables only when one asks for one's own."""
        preset = f["preset"]
        if preset is not None and preset not in PRESETS and preset not in FAMILIES:
            raise ProtocolError("unknown_preset", Phrase(
                "no preset or family {preset!r}: a preset ({presets}) or a family ({families})",
                preset=preset, presets=", ".join(PRESETS), families=", ".join(FAMILIES)), field="preset")
        self.charge(conn)
        session = session_of(conn)
        name = f["name"] if f["name"] is not None else session.name
        # Statistics are the account's, not the name's (issue 31): a registered name's are
        # those of the account that holds it now (one given up and registered again starts
        # empty); an unregistered name's, those of the games played under it without an
        # account (0).  A private table's games are its accounts' (StoredGame.visible_to): one's
        # own figures include them only for one's own account, never for a guest.
        holder = self._accounts.registered_as(name)
        account, own = 0, False
        if holder is not None:
            account, name = holder
            own = account == session.account
        self._outbox.query(Query(conn.id, rid, "stats", {"name": name, "account": account, "preset": preset,
                                                          "private": own}))

    def get_game(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        # Who asks and the password given: ``answer`` checks them against the stored game
        # (StoredGame.visible_to) before anything of it is sent.
        self.charge(conn)
        if f["password"] is not None and conn.address is not None:  # as at a private table
            wait = self._guard.locked_for(conn.address, self._clock())
            if wait > 0:
                raise ProtocolError(
                    "too_many_attempts", Phrase("too many wrong passwords from your address; wait {wait:.2f} s",
                                                wait=retry_after(wait)),
                    field="password", retry_after=retry_after(wait))
        session = session_of(conn)
        self.read_game(conn, Query(conn.id, rid, "get_game", {
            "game": f["game"], "viewer": session.name, **viewer_of(session), "password": f["password"]}))

    def read_game(self, conn: Connection, query: Query) -> None:
        """Answer a ``get_game`` query (also ``review``'s) from the record cache, or have
        storage read the game first."""
        cached = self.record_cache.get(query.args["game"])
        if cached is None:
            self._outbox.query(query)
        else:  # read before: no database read, and its line is encoded already
            self._answer_game(conn, query, cached)

    def charge(self, conn: Connection) -> None:
        """A request that reads records takes ``query_cost`` tokens of the connection's rate
        bucket (its first already taken, as every request's, on receipt) and one of its
        address's: reading a long record costs far more than a move.  Refused with
        ``rate_limited`` (nothing done) when either is short."""
        now = self._clock()
        bucket = conn.bucket
        extra = max(0, self._config.query_cost - 1)
        wait = bucket.take(now, extra) if extra else 0.0
        what = N_("too many requests for records; wait {wait:.2f} s")
        if wait <= 0 and conn.address is not None:
            wait = self._buckets.take(conn.address, now)
            if wait > 0:
                bucket.tokens += extra  # not served: the connection keeps what it paid
                what = N_("too many requests for records from your address; wait {wait:.2f} s")
        if wait > 0:
            # The refused request's own token is spent, and a retry takes all of query_cost.
            wait = max(wait, (extra + 1 - bucket.tokens) / bucket.rate)
            raise ProtocolError("rate_limited", Phrase(what, wait=retry_after(wait)),
                                retry_after=retry_after(wait))

    def leaderboard(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        self.charge(conn)
        family = f["family"]
        rows = self._ratings.leaderboard(family, f["limit"], ("human",) if f["people_only"] else None)
        games, reasons = self._ratings.unrated_games.get(family, 0), dict(self._ratings.unrated.get(family, {}))
        message = {"type": "leaderboard", "family": family, "players": [
            {"rank": rank, "kind": who.kind, "name": who.name, "rating": round(standing.rating),
             "games": standing.games, "wins": standing.wins,
             # A person's (or bot's) standing from before accounts, under a name nobody has registered.
             "guest": who.kind != "computer" and self._accounts.account_of(who.name) is None}
            for rank, (who, standing) in enumerate(rows, start=1)],
            "unrated": {"games": games, "reasons": reasons}}
        if not rows:
            message["why"] = empty_leaderboard(family, games, reasons)
        self._outbox.reply(conn, rid, message)

    def answer(self, query: Query, result: Any, failed: bool = False) -> None:
        """Reply to a :class:`Query` with what storage returned (``failed``: it could not read)."""
        if query.kind == "get_game" and result is not None and not failed:
            result = self.record_cache.put(query.args["game"], result)  # finished: it never changes
        conn = self._connections.get(query.conn)
        if conn is None or conn.closing:
            return
        if failed:
            self._outbox.error(conn, ProtocolError("storage_unavailable",
                                                   Phrase("the server could not read its records; try again")),
                               query.request_id)
        elif query.kind == "list_games":
            self._outbox.reply(conn, query.request_id, {"type": "games", "name": query.args["name"],
                                                        "games": result})
        elif query.kind == "stats":
            self._outbox.reply(conn, query.request_id, {"type": "stats", "name": query.args["name"],
                                                        "preset": query.args["preset"], **result})
        else:
            self._answer_game(conn, query, result)

    def _answer_game(self, conn: Connection, query: Query, result: StoredGame | None) -> None:
        """Reply to ``get_game`` with the game storage or the record cache gave (None: no
        such finished game), if the asker may read it."""
        args = query.args
        if result is None or not result.visible_to(args.get("account"), args["password"]):
            # A private table's game that the asker may not read is answered as if it did
            # not exist: the refusal does not even confirm that there is such a game.  A
            # password given in vain counts against the address like a wrong one at a
            # table (whether the game exists or not, so the lock-out tells nothing either).
            if query.args["password"] is not None and conn.address is not None:
                self._guard.failed(conn.address, self._clock())
            self._outbox.error(conn, ProtocolError("no_such_game",
                                                   Phrase("there is no finished game {game}",
                                                          game=query.args["game"]),
                                                   field="game"), query.request_id)
        elif "review" in query.args:
            try:
                message = review_stored(result, query.args["review"], query.args["viewer"])
            except ProtocolError as error:
                self._outbox.error(conn, error, query.request_id)
            else:
                self._outbox.reply(conn, query.request_id, message)
        else:
            self._outbox.reply(conn, query.request_id, {"type": "game_record", "record": result.record})
