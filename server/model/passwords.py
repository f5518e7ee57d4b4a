"""Table passwords as the server keeps them: salted scrypt hashes, compared in constant time.

A private table's password is hashed as soon as the server gets it (``create_table``,
``configure_table``), and only the hash is kept -- in memory, in the table's stored state and
on each game dealt at the table (which is what unlocks that game's record for someone who
did not sit in it).  The stored form is one string::

    scrypt$<n>$<r>$<p>$<salt, hex>$<hash, hex>

The cost parameters travel with each hash, so they can be raised later without losing the
hashes made before.  They are chosen for a *table* password, which guards a table for an
evening, not an account: n=2**10, r=8, p=1 (1 MiB of memory) costs about 3 ms on one core,
so the password checks a client can make within its request rate limit stay a small share
of the single-threaded core's time, while each guess at a stolen database still costs a
guesser real work (and the 16-byte salt rules out precomputed tables).

An *account* password guards a name for good, so it is hashed harder (:data:`ACCOUNT_N`,
2**14 with r=8: 16 MiB and about 50 ms on one core of the machine measured, the scrypt
paper's parameters for an interactive login); that work runs where storage work runs (the
database thread, off the event loop: :mod:`noddy.server.storage.accounts`).

Databases written before hashing hold the passwords themselves (any string that is not of
the form above): :func:`password_matches` still compares those (in constant time), and
:func:`is_hashed` lets storage find and hash them when it opens such a file.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

SCHEME = "scrypt"
#: scrypt's cost (CPU and memory), block size and parallelism for new hashes; see above.
N, R, P = 2**10, 8, 1
#: scrypt's cost for an account's password (see the module doc); r and p as above.
ACCOUNT_N = 2**14
SALT_BYTES = 16
HASH_BYTES = 32


def hash_password(password: str, n: int = N) -> str:
    """The stored form of ``password``: a fresh salt and its scrypt hash of cost ``n`` (see
    the module doc), the parameters written beside it."""
    salt = secrets.token_bytes(SALT_BYTES)
    digest = _scrypt(password, salt, n, R, P, HASH_BYTES)
    return f"{SCHEME}${n}${R}${P}${salt.hex()}${digest.hex()}"


def is_hashed(stored: str) -> bool:
    """Whether ``stored`` is a hash made by :func:`hash_password` (else: a password as old
    databases kept it)."""
    return _parse(stored) is not None


def password_matches(stored: str | None, given: str | None) -> bool:
    """Whether ``given`` is the password whose stored form is ``stored``.  No password
    matches a table without one (``stored`` None), and None matches nothing."""
    if stored is None or given is None:
        return False
    parsed = _parse(stored)
    if parsed is None:  # kept in the clear by an older server
        return hmac.compare_digest(stored.encode("utf-8"), given.encode("utf-8"))
    n, r, p, salt, digest = parsed
    return hmac.compare_digest(_scrypt(given, salt, n, r, p, len(digest)), digest)


def _scrypt(password: str, salt: bytes, n: int, r: int, p: int, length: int) -> bytes:
    # maxmem: OpenSSL's default limit (32 MiB) would refuse the larger n a later server may
    # choose; 128 * r * (n + p + 2) is what scrypt needs.
    return hashlib.scrypt(password.encode("utf-8"), salt=salt, n=n, r=r, p=p, dklen=length,
                          maxmem=128 * r * (n + p + 2) + 1024 * 1024)


def _parse(stored: str) -> tuple[int, int, int, bytes, bytes] | None:
    parts = stored.split("$")
    if len(parts) != 6 or parts[0] != SCHEME:
        return None
    try:
        n, r, p = int(parts[1]), int(parts[2]), int(parts[3])
        salt, digest = bytes.fromhex(parts[4]), bytes.fromhex(parts[5])
    except ValueError:
        return None
    if n < 2 or n & (n - 1) or not 0 < r <= 64 or not 0 < p <= 16 or n > 2**20 or not salt or not digest:
        return None
    return n, r, p, salt, digest
