"""The database's schema and its migrations: what a noddy-server file holds, and how an older
file is brought up to date.

Kept apart from the code that opens the file and the code that reads and writes it because
it is the one part that is append-only: a released migration is never edited, so every
database walks the same path (:mod:`noddy.server.storage` describes the tables).
"""

from __future__ import annotations

from typing import Callable

from noddy.protocol.names import apart_key, skeleton

#: ``PRAGMA application_id`` of a noddy-server database: "Nody" in ASCII.
APPLICATION_ID = 0x4E6F6479

_V1 = """
CREATE TABLE tables (
    id         INTEGER PRIMARY KEY,
    open       INTEGER NOT NULL DEFAULT 1,
    state      TEXT    NOT NULL,
    updated_at REAL    NOT NULL
);
CREATE TABLE games (
    id           INTEGER PRIMARY KEY,
    table_id     INTEGER NOT NULL,
    number       INTEGER NOT NULL,
    preset       TEXT    NOT NULL,
    family       TEXT    NOT NULL,
    players      INTEGER NOT NULL,
    partnerships INTEGER NOT NULL,
    options      TEXT    NOT NULL,
    seats        TEXT    NOT NULL,
    seed         INTEGER NOT NULL,
    status       TEXT    NOT NULL CHECK (status IN ('playing', 'finished', 'abandoned')),
    started_at   REAL    NOT NULL,
    finished_at  REAL,
    result       TEXT,
    opening      TEXT    NOT NULL
);
CREATE INDEX games_by_table ON games (table_id, status);
CREATE TABLE game_players (
    game_id INTEGER NOT NULL REFERENCES games (id),
    seat    INTEGER NOT NULL,
    kind    TEXT    NOT NULL,
    name    TEXT    NOT NULL,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
CREATE INDEX game_players_by_name ON game_players (kind, name, game_id);
CREATE TABLE actions (
    game_id INTEGER NOT NULL REFERENCES games (id),
    n       INTEGER NOT NULL,
    action  TEXT    NOT NULL,
    events  TEXT    NOT NULL,
    PRIMARY KEY (game_id, n)
) WITHOUT ROWID;
CREATE TABLE ratings (
    family TEXT    NOT NULL,
    kind   TEXT    NOT NULL,
    name   TEXT    NOT NULL,
    rating REAL    NOT NULL,
    games  INTEGER NOT NULL,
    wins   INTEGER NOT NULL,
    PRIMARY KEY (family, kind, name)
) WITHOUT ROWID;
"""

#: ``MIGRATIONS[n]`` takes a database from schema version ``n`` to ``n + 1``.  Append only:
#: a released step is never edited, so every database walks the same path.
#: Version 2: each game keeps the hash of its table's password when it was dealt (NULL: a
#: public table), so a private table's records go only to its players or to its password.
#: Games stored before take the password their table has in its saved state (an older
#: server kept it in the clear: :meth:`Storage.load` hashes those).
_V2 = """
ALTER TABLE games ADD COLUMN password TEXT;
UPDATE games SET password = (SELECT json_extract(t.state, '$.password') FROM tables AS t
                             WHERE t.id = games.table_id);
"""

#: Version 3: an action is stored without its events (``events`` NULL), which replaying the
#: game from its seed and actions gives exactly; an older server's rows keep theirs (checked
#: against the replay whenever the game is replayed).  SQLite cannot drop a NOT NULL, so the
#: table is made again.
_V3 = """
CREATE TABLE actions_v3 (
    game_id INTEGER NOT NULL REFERENCES games (id),
    n       INTEGER NOT NULL,
    action  TEXT    NOT NULL,
    events  TEXT,
    PRIMARY KEY (game_id, n)
) WITHOUT ROWID;
INSERT INTO actions_v3 (game_id, n, action, events) SELECT game_id, n, action, events FROM actions;
DROP TABLE actions;
ALTER TABLE actions_v3 RENAME TO actions;
"""

#: Version 4: a game's deal-in events (``games.opening``) are stored as JSON ``null``, which
#: replaying the game from its seed gives exactly, as version 3 did for its actions' events;
#: an older server's games keep theirs (checked against the replay).  No table changes: the
#: number keeps a server of version 3, which could not read such a game, away from the file.
_V4 = ""

#: Version 5: accounts.  A registered name (its ``key``: the skeleton of the name, so that a
#: lookalike is the same account), its password's salted scrypt hash with its parameters, and
#: an id that is never used again (AUTOINCREMENT): records name the account that sat in a seat
#: by id, so whoever registers a name given up earlier is someone else.
_V5 = """
CREATE TABLE accounts (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    key        TEXT    NOT NULL UNIQUE,
    name       TEXT    NOT NULL,
    password   TEXT    NOT NULL,
    created_at REAL    NOT NULL,
    changed_at REAL    NOT NULL
);
"""

#: Version 6: statistics (issue 26): one summary row per seat of each finished game, written
#: with the game's result (:mod:`noddy.server.storage.game_stats`).  The games finished
#: before are summed up once, by replaying them, when the file is opened (SQL cannot replay a
#: game: :func:`~noddy.server.storage.game_stats.backfill`, which finds them by their missing
#: rows).  ``best_cards``: JSON, the hand then the turn-up; ``rating``: after the game, NULL
#: when unrated or summed up by the backfill.  Keyed by the person, so that one person's rows
#: lie together, with covering indexes for the best hand and the rating history; and
#: ``stats_totals``, each person's sums per preset (public and private games apart), added to
#: as each row is written, so that ``stats`` reads a few rows however many games there were.
_V6 = """
CREATE TABLE IF NOT EXISTS game_stats (
    game_id     INTEGER NOT NULL REFERENCES games (id),
    seat        INTEGER NOT NULL,
    kind        TEXT    NOT NULL,
    name        TEXT    NOT NULL,
    preset      TEXT    NOT NULL,
    family      TEXT    NOT NULL,
    private     INTEGER NOT NULL,
    finished_at REAL,
    won         INTEGER NOT NULL,
    deals       INTEGER NOT NULL,
    cribs       INTEGER NOT NULL,
    pegging     INTEGER NOT NULL,
    hand        INTEGER NOT NULL,
    crib        INTEGER NOT NULL,
    best_points INTEGER,
    best_cards  TEXT,
    skunk_given TEXT    NOT NULL,
    skunk_taken TEXT    NOT NULL,
    rating      REAL,
    PRIMARY KEY (kind, name, preset, game_id, seat)
) WITHOUT ROWID;
CREATE UNIQUE INDEX IF NOT EXISTS game_stats_by_game ON game_stats (game_id, seat);
CREATE INDEX IF NOT EXISTS game_stats_best ON game_stats (kind, name, preset, best_points DESC, game_id, best_cards)
    WHERE best_points IS NOT NULL;
CREATE INDEX IF NOT EXISTS game_stats_ratings ON game_stats (kind, name, family, game_id, finished_at, rating)
    WHERE rating IS NOT NULL;
CREATE TABLE IF NOT EXISTS stats_totals (
    kind          TEXT    NOT NULL,
    name          TEXT    NOT NULL,
    preset        TEXT    NOT NULL,
    private       INTEGER NOT NULL,
    family        TEXT    NOT NULL,
    games         INTEGER NOT NULL,
    wins          INTEGER NOT NULL,
    deals         INTEGER NOT NULL,
    cribs         INTEGER NOT NULL,
    pegging       INTEGER NOT NULL,
    hand          INTEGER NOT NULL,
    crib          INTEGER NOT NULL,
    skunks_given  INTEGER NOT NULL,
    doubles_given INTEGER NOT NULL,
    skunks_taken  INTEGER NOT NULL,
    doubles_taken INTEGER NOT NULL,
    PRIMARY KEY (kind, name, preset, private)
) WITHOUT ROWID;
"""

#: Version 7: tells waiting for an account's next login (issue 26): who sent them, their
#: text (cleaned, as sent), when; deleted as they are delivered.
_V7 = """
CREATE TABLE tells (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    account    INTEGER NOT NULL,
    sender     TEXT    NOT NULL,
    text       TEXT    NOT NULL,
    sent_at    REAL    NOT NULL
);
CREATE INDEX tells_by_account ON tells (account, id);
"""

#: Version 8: match games (table option ``match``): each game of a match keeps which match and
#: which game of it, who dealt first, and the match points (``games.match``, JSON; NULL: a
#: single game).
_V8 = "ALTER TABLE games ADD COLUMN match TEXT;"

# -- Version 9 (issue 31): statistics and tells belong to the account, not the name ---------
#: Version 9: a name given up (``unregister``) and registered again is someone else, so each
#: statistics row names the account that sat in its seat (``game_stats.account``: the id,
#: never used again; 0: no account -- a guest, a computer, or a game from before accounts),
#: taken from the game's stored seats; ``stats`` reads a registered name's rows by its account
#: and a guest's name's rows by ``account = 0`` (:mod:`noddy.server.storage.game_stats`).  The
#: indexes lead with (kind, name, account), and ``stats_totals`` is made again with the account
#: in its key, summed afresh from ``game_stats``.  Each waiting tell names its sender's account
#: (``tells.sender_account``; NULL: left before this version), which bounds the tells one
#: sender may leave for one person (:mod:`noddy.server.storage.tells`).  And an account's
#: mutes are kept (``mutes``: the muted name's skeleton as ``key``, the name as written, in
#: the order muted), so a tell from a name it muted is never stored, even after a restart.
_V9 = """
ALTER TABLE game_stats ADD COLUMN account INTEGER NOT NULL DEFAULT 0;
UPDATE game_stats SET account = coalesce((
    SELECT json_extract(s.value, '$.account') FROM games AS g, json_each(g.seats) AS s
    WHERE g.id = game_stats.game_id AND json_extract(s.value, '$.seat') = game_stats.seat), 0)
    WHERE kind = 'human';
DROP INDEX game_stats_best;
DROP INDEX game_stats_ratings;
CREATE INDEX game_stats_best ON game_stats (kind, name, account, preset, best_points DESC, game_id, best_cards)
    WHERE best_points IS NOT NULL;
CREATE INDEX game_stats_ratings ON game_stats (kind, name, account, family, game_id, finished_at, rating)
    WHERE rating IS NOT NULL;
CREATE TABLE stats_totals_v9 (
    kind          TEXT    NOT NULL,
    name          TEXT    NOT NULL,
    account       INTEGER NOT NULL,
    preset        TEXT    NOT NULL,
    private       INTEGER NOT NULL,
    family        TEXT    NOT NULL,
    games         INTEGER NOT NULL,
    wins          INTEGER NOT NULL,
    deals         INTEGER NOT NULL,
    cribs         INTEGER NOT NULL,
    pegging       INTEGER NOT NULL,
    hand          INTEGER NOT NULL,
    crib          INTEGER NOT NULL,
    skunks_given  INTEGER NOT NULL,
    doubles_given INTEGER NOT NULL,
    skunks_taken  INTEGER NOT NULL,
    doubles_taken INTEGER NOT NULL,
    PRIMARY KEY (kind, name, account, preset, private)
) WITHOUT ROWID;
INSERT INTO stats_totals_v9
    SELECT kind, name, account, preset, private, min(family), count(*), sum(won), sum(deals), sum(cribs),
           sum(pegging), sum(hand), sum(crib), sum(skunk_given != 'none'), sum(skunk_given = 'double'),
           sum(skunk_taken != 'none'), sum(skunk_taken = 'double')
    FROM game_stats GROUP BY kind, name, account, preset, private;
DROP TABLE stats_totals;
ALTER TABLE stats_totals_v9 RENAME TO stats_totals;
ALTER TABLE tells ADD COLUMN sender_account INTEGER;
CREATE INDEX tells_by_sender ON tells (sender_account);
CREATE TABLE mutes (
    id      INTEGER PRIMARY KEY,
    account INTEGER NOT NULL,
    key     TEXT    NOT NULL,
    name    TEXT    NOT NULL,
    UNIQUE (account, key)
);
"""
# -- end of version 9 ------------------------------------------------------------------------

# -- Version 10 (issue 31): names nobody can fake ----------------------------------------------
#: Version 10: the skeleton of a name grew stronger (issue 31: Unicode's confusables, every mark
#: and invisible character dropped, ``i``/``l``/``1`` one letter), so each account's ``key`` is
#: worked out again with today's :func:`~noddy.protocol.names.skeleton` (the SQL function
#: ``name_skeleton``, see :data:`SQL_FUNCTIONS`).  Two accounts that were apart and now have
#: one skeleton (``Al`` and ``AI``, ``bill`` and ``bi11``): the older one (lower id, registered
#: first) takes the key, so the name and its lookalikes are its own from now on; each newer one
#: is set apart under :func:`~noddy.protocol.names.apart_key` (a space and its exact name,
#: which no skeleton can be: skeletons hold no spaces), so its owner can still log in by
#: typing the name exactly as registered, and nobody else can take it.  First every key is
#: made a placeholder (two spaces and the id: never a skeleton nor a set-apart key) so that no
#: row meets another's old key on the way (the column is UNIQUE).  Whenever the skeleton
#: changes again, this same step is appended again.  The mutes an account keeps (version 9)
#: are keyed by skeleton too: worked out again likewise (two that now look the same are one).
_V10 = """
UPDATE accounts SET key = '  ' || id;
UPDATE accounts SET key = name_skeleton(name)
    WHERE id IN (SELECT min(id) FROM accounts GROUP BY name_skeleton(name));
UPDATE accounts SET key = name_apart_key(name) WHERE key LIKE '  %';
DELETE FROM mutes WHERE id NOT IN (SELECT min(id) FROM mutes GROUP BY account, name_skeleton(name));
UPDATE mutes SET key = name_skeleton(name);
"""

# -- Version 11 (issue 35): club nights ---------------------------------------------------------
#: Version 11: club nights (:mod:`noddy.server.storage.club`).  ``events`` keeps each event's
#: whole state as JSON (``data``: :meth:`noddy.server.model.club.Event.to_dict`, what a restart
#: reads back, as ``tables.state`` is for a table) with its title, director, state and times;
#: beside it, rewritten from it in the same transaction at every save, the rows SQL answers
#: questions from: ``event_entrants`` (each entry, its kind and status, its place and ACC
#: points in the standings as saved -- the final ones once over; found by name for a person's
#: events), ``event_pairings`` (each board of each round: its players, its table, its status,
#: a forfeit and by whom; found by table for the event a game belonged to) and ``event_games``
#: (each game's result or forfeit, the offline tournament's columns).
_V11 = """
CREATE TABLE events (
    id           INTEGER PRIMARY KEY,
    title        TEXT    NOT NULL,
    director     TEXT    NOT NULL,
    state        TEXT    NOT NULL,
    announced_at REAL    NOT NULL,
    updated_at   REAL    NOT NULL,
    data         TEXT    NOT NULL
);
CREATE INDEX events_by_state ON events (state, id);
CREATE TABLE event_entrants (
    event_id INTEGER NOT NULL REFERENCES events (id),
    name     TEXT    NOT NULL,
    kind     TEXT    NOT NULL,
    status   TEXT    NOT NULL,
    place    INTEGER NOT NULL,
    points   INTEGER NOT NULL,
    PRIMARY KEY (event_id, name)
) WITHOUT ROWID;
CREATE INDEX event_entrants_by_name ON event_entrants (kind, name, event_id);
CREATE TABLE event_pairings (
    event_id   INTEGER NOT NULL REFERENCES events (id),
    round      INTEGER NOT NULL,
    board      INTEGER NOT NULL,
    a          TEXT    NOT NULL,
    b          TEXT    NOT NULL,
    table_id   INTEGER,
    status     TEXT    NOT NULL,
    forfeit    TEXT,
    forfeit_by TEXT,
    PRIMARY KEY (event_id, round, board)
) WITHOUT ROWID;
CREATE INDEX event_pairings_by_table ON event_pairings (table_id) WHERE table_id IS NOT NULL;
CREATE TABLE event_games (
    event_id   INTEGER NOT NULL REFERENCES events (id),
    round      INTEGER NOT NULL,
    board      INTEGER NOT NULL,
    game       INTEGER NOT NULL,
    a          TEXT    NOT NULL,
    b          TEXT    NOT NULL,
    seed       INTEGER NOT NULL,
    winner     TEXT    NOT NULL,
    a_score    INTEGER NOT NULL,
    b_score    INTEGER NOT NULL,
    skunk      TEXT    NOT NULL,
    forfeit    TEXT,
    forfeit_by TEXT,
    PRIMARY KEY (event_id, round, board, game)
) WITHOUT ROWID;
"""
# -- end of version 11 -----------------------------------------------------------------------

MIGRATIONS: tuple[str, ...] = (_V1, _V2, _V3, _V4, _V5, _V6, _V7, _V8, _V9, _V10, _V11)

#: The SQL functions the migrations may call, registered on the connection before they run
#: (each takes one argument and is deterministic): SQL cannot work out a skeleton.
SQL_FUNCTIONS: dict[str, Callable[[str], str]] = {"name_skeleton": skeleton, "name_apart_key": apart_key}
SCHEMA_VERSION = len(MIGRATIONS)
#: The schema version whose ``game_stats`` this server writes: the table came with version 6,
#: each row's account with version 9 (a test may open a file at an older version, as an older
#: server left it: then no statistics are written, and the games are summed up once the file is
#: opened at this version: :func:`~noddy.server.storage.game_stats.backfill`).
STATS_VERSION = 9
