"""The server's plain things, shared by the core and storage: a table and its seats, a
session and its connection, table options, ratings, password hashes and rate buckets.

Nothing here does I/O or knows about another part of the server: the core changes these
objects (each part of :mod:`noddy.server.core` the fields it owns) and storage keeps them.
"""
