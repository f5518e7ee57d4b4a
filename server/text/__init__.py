"""Text mode: the adapter between a person at a bare terminal (``nc``) and the JSON core.

A typed line becomes the same request a JSON client would send, and every message the core
sends such a connection is rendered as plain lines; see :mod:`.text_mode`.
"""
