"""The server's tunable numbers, in one frozen object so tests can shrink every period."""

from __future__ import annotations

import random
from dataclasses import dataclass

from noddy.bots import LEVELS
from noddy.protocol import DEFAULT_PORT, MAX_LINE_BYTES


def default_level() -> str:
    """The computer level used when a request names none: the best of the cheap ones."""
    for level in ("greedy", "random"):
        if level in LEVELS:
            return level
    return next(iter(LEVELS))


@dataclass(frozen=True)
class ServerConfig:
    """Everything that shapes the server's behaviour besides the rules.

    ``seed`` makes every table's deals and every computer player reproducible (tests and the
    PROTOCOL.md transcript); without it each game is shuffled from the operating system's
    entropy, so nobody can predict the cards.
    """

    host: str = "0.0.0.0"
    port: int = DEFAULT_PORT
    seed: int | None = None
    #: Seconds a disconnected player's seat is held for a resume.
    grace_period: float = 60.0
    #: Seconds more, after the grace period, that a table whose only people are away keeps
    #: its game paused and their seats (resume tokens, logins) for them; nobody is there to
    #: play on with a stand-in.  Then the table closes (0: at once, when the grace is over).
    keep_away: float = 3600.0
    #: Seconds a connected person whose turn it is may say nothing before the others at the
    #: table are told and may call in a stand-in for them (a table may choose its own with the
    #: option ``seat_silence``).  Five minutes: far longer than a hard discard takes, short
    #: enough that a table is not held hostage by someone who walked away.  Nothing happens
    #: to the silent seat unless another person at the table asks.  0: never.
    seat_silence: float = 300.0
    #: Seconds of silence from a JSON client after which the server sends it a ping (once;
    #: a client that wants to know the link is alive answers it, or pings itself).
    ping_interval: float = 30.0
    #: Seconds a connection may stay silent *before its first line* (before it has a name):
    #: a socket opened and never used.  Once a connection has said anything, silence never
    #: closes it: a person may wait as long as they like, and a dead peer is found by TCP
    #: keepalive below.
    idle_timeout: float = 90.0
    #: TCP keepalive on every accepted socket, so that the kernel finds a peer that vanished
    #: (a laptop gone, a route dropped) while a quiet person stays: seconds of silence before
    #: the first probe, seconds between probes, and unanswered probes before the connection
    #: is reported dead (0 idle: no keepalive).  The defaults find a dead peer in ~2 minutes.
    keepalive_idle: float = 60.0
    keepalive_interval: float = 10.0
    keepalive_count: int = 6
    #: Requests a second a connection may sustain, and the burst it may send at once.
    rate: float = 20.0
    burst: int = 40
    #: Rate-limited requests in a row after which the connection is closed (a flood).
    flood_strikes: int = 40
    max_line: int = MAX_LINE_BYTES
    #: Messages queued for one connection before it is taken for a dead, slow peer (a
    #: game's batch for one action, its events and turn, counts as one).
    send_queue: int = 2000
    #: Bytes the server may hold unsent for one connection (its queue and its transport's
    #: buffer) before it is taken for a dead, slow peer; a message is always taken into an
    #: empty queue, so one longer than this still reaches a client that reads.
    send_buffer_bytes: int = 512 * 1024
    #: Tokens of a connection's ``rate`` bucket that a request reading the records takes
    #: (``get_game``, ``list_games``, ``leaderboard``; any other request takes one): a long
    #: game's record costs the server tens of milliseconds to read from the database.
    query_cost: int = 4
    #: Such requests a second one address may sustain over all its connections, and the
    #: burst it may send at once (a rate of 0: no limit).
    query_rate_per_address: float = 5.0
    query_burst_per_address: int = 20
    #: Bytes of finished games' records kept in memory for ``get_game`` (0: none); a finished
    #: game never changes, so a record asked for again is neither read nor encoded again.
    record_cache_bytes: int = 64 * 1024 * 1024
    #: Seconds the server stops accepting connections when it has run out of file
    #: descriptors (or memory) for one more; the connections it has are served meanwhile.
    accept_retry_delay: float = 1.0
    #: Connections one address may hold open at once (0: no limit).  Without it one host
    #: could take every file descriptor, and silent or half-open connections with it.
    max_connections_per_address: int = 64
    #: Tables one connection may have created that are still open (0: no limit): a table
    #: stays open while someone else is at it after its creator has left.
    max_tables_per_connection: int = 4
    #: Tables created from one address that are still open (0: no limit): the per-connection
    #: limit alone lets one host open tables through many connections.
    max_tables_per_address: int = 32
    #: Chat messages a second one address may sustain over all its connections, and the
    #: burst it may send at once (a rate of 0: no limit).  Each connection's own ``rate``
    #: alone let one host fill every lobby listener's screen through many connections.
    chat_rate_per_address: float = 2.0
    chat_burst_per_address: int = 10
    #: Seconds a challenge waits for its answer before it runs out (see core/matchmaking.py).
    challenge_timeout: float = 120.0
    #: Wrong table passwords one address may give within ``password_window`` seconds before
    #: it is locked out of private tables for ``password_lockout`` seconds (0: no limit).
    password_attempts: int = 5
    password_window: float = 60.0
    password_lockout: float = 60.0
    #: Account passwords (see server/model/guesses.py): checks of one account's password
    #: from addresses its owner has not logged in from, over all addresses, within
    #: ``login_window`` seconds (0: no limit) -- ten in a quarter of an hour lets a person
    #: mistype on a new machine, and keeps a guesser with any number of addresses to 960 a day.
    login_checks_per_name: int = 10
    #: Different names one address may have passwords checked for within ``login_window``
    #: (spraying one common password over many names), its owners' own names apart.
    login_names_per_address: int = 10
    login_window: float = 900.0
    #: Password checks and hashes one address may ask for (logins, register,
    #: change_password, unregister, over all its connections): a burst, then this many a
    #: second (each costs the hashing worker ~50 ms of scrypt).
    password_checks_per_second: float = 1.0
    password_checks_burst: int = 20
    #: Password checks and hashes waiting for (or on) the hashing worker at once; past it a
    #: request is answered ``busy`` at once (a login from an address its account knows may
    #: use as many again).  Eight checks are ~0.4 s of one core.
    password_queue: int = 8
    #: Accounts one address may create a day (0: no limit), so a script cannot fill the disk.
    accounts_per_address_per_day: int = 5
    #: Seconds the shutdown waits for goodbyes to be written.
    shutdown_timeout: float = 2.0
    #: Seconds between tries to take back a table whose records could not be written (a
    #: failing disk): it stays paused until a try finds the database taking writes again.
    storage_retry: float = 1.0
    #: How often timers (grace periods, turn timers, keepalive) are checked.
    tick_interval: float = 0.1
    #: Seconds between two pushes of table news to the lobby at least (see lobby_push.py):
    #: each push carries the latest state of every table changed since the last, so the
    #: cost of a table change does not grow with the lobby.  Checked at each tick.  A push
    #: costs a write to each lobby connection (~13 µs each here: 2,000 in the lobby, ~26 ms
    #: of CPU), so 0.5 s keeps it near 5 % of a core, and a person in the lobby does not
    #: notice half a second.
    lobby_push_interval: float = 0.5
    default_level: str = ""
    #: Whether ``create_table`` may fix its games' deals (``deal_seeds``): for the match
    #: runner's own private servers only, as whoever chooses a seed chooses the cards.
    allow_deal_seeds: bool = False
    #: Who may announce a club night (``--director NAME``, repeatable; issue 35): these
    #: registered names only.  Empty: any registered person may (a guest never may: an
    #: event outlives a guest's name).
    directors: tuple[str, ...] = ()
    #: Whether computer players decide on the event loop instead of in a worker thread: a
    #: quarter less CPU a game for a match server's one table (no thread hop, no wait for
    #: the GIL), but a slow decision holds everyone up -- never on a server people play on.
    computers_inline: bool = False
    #: The SQLite file that keeps tables, games and ratings across restarts; None keeps them
    #: in memory only (tests; ``noddy-server`` itself defaults to the user's data folder).
    db: str | None = None
    #: Optional TLS (see docs/PROTOCOL.md, "Encryption"): a PEM certificate (chain) and its
    #: key; with them the server also listens on ``tls_port`` (0: a free one), where every
    #: connection is encrypted, while ``port`` stays plain for ``nc``.
    tls_cert: str | None = None
    tls_key: str | None = None
    tls_port: int = 3132
    #: Admission on the TLS port, before the handshake (issue 31).  A handshake in progress
    #: holds a descriptor and memory (OpenSSL's state, asyncio's buffers) for someone the
    #: server knows nothing about yet, and ``max_connections_per_address`` is the core's,
    #: counted once a connection is made; so the network layer counts TLS sockets from
    #: accept on, and closes at once, unanswered, one over these limits.
    #: Seconds a peer on the TLS port has from being accepted to the end of its handshake
    #: (saying nothing counts): a handshake is two round trips, well under a second even
    #: over a slow mobile link, and each waiting one holds one of the places below.
    tls_handshake_timeout: float = 5.0
    #: TLS handshakes in progress at once, from all addresses (0: no limit but the one
    #: below): each holds a descriptor, and ~85 kB once its peer has spoken (OpenSSL's state,
    #: a 32 KiB read buffer; a few kB before, see net/handshake.py), and begins with ~0.6 ms
    #: of the event loop's time for the server's key share and signature.  Never more than
    #: a quarter of the process's descriptor limit either (``ulimit -n``; see
    #: ``accepting.py``), so a flood on the TLS port leaves the rest for the plain port and
    #: established connections.
    max_tls_handshakes: int = 64
    #: TLS handshakes in progress at once from one address (0: no limit): one host can
    #: hold only this share of the places above; a person's client needs one.
    max_tls_handshakes_per_address: int = 8

    @property
    def computer_level(self) -> str:
        return self.default_level or default_level()

    def game_seed(self, table_id: int, game_number: int) -> int | None:
        """The seed of a table's n-th game: derived from ``seed``, or None (unpredictable).
        53 bits, like every number the server sends: a JavaScript client reads a bigger
        one rounded, and could not replay the game's record."""
        if self.seed is None:
            return None
        return random.Random(f"{self.seed}:game:{table_id}:{game_number}").getrandbits(53)

    def bot_seed(self, table_id: int, seat: int, serial: int) -> int | None:
        """The seed of a computer player, likewise reproducible only under ``seed``."""
        if self.seed is None:
            return None
        return random.Random(f"{self.seed}:bot:{table_id}:{seat}:{serial}").getrandbits(53)
