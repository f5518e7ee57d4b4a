"""Sending: the core's messages encoded once and handed to each connection's link, within its caps.

The messages of one batch of instructions (every core call of one turn of the event loop:
see :class:`~noddy.server.net.network._Step`) go to a connection's socket in one write (see
:meth:`~noddy.server.net.link._Link.flush`).  A slow or stuck peer fills only its own buffer, and
is dropped when it holds ``send_buffer_bytes``, or ``send_queue`` messages, instead of
stalling its table.  A message that cannot be encoded touches only its own recipients (see
:func:`_essential`), and a write that fails for any other reason costs one link only.
Several messages sent as one (:class:`~noddy.server.core.instructions.Lines`) are of two kinds: a
game's events and turn for one member (the messages in them mostly shared with the other
members' batches: each message object is encoded once per batch), and the lobby's table
news (the same object for every lobby connection: encoded once per kind of connection).

Each Send carries its connection's language (``Send.language``): a text connection's lines
are rendered while speaking it, a JSON connection's message is sent with its Phrases said in
it (:func:`~noddy.protocol.i18n.localized`; the announcements of its events said again from
their items, :func:`~noddy.protocol.calls.said_event`), and every cache above is kept per language too,
so two readers of one message never get each other's words.  English is the message as the
core made it, at no extra cost (its cache keys are what they were).

:class:`Sending` is a mixin of :class:`~noddy.server.net.network.NoddyServer`: ``_carry_out`` is
on the path of every message, so it stays a method of the server (no object or call between
the storage gating and the links), and its log lines keep the network layer's logger.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from noddy.protocol import encode_line
from noddy.protocol.calls import said_event
from noddy.protocol.i18n import DEFAULT_LANGUAGE as ENGLISH, localized, speaking

from ..text import render as render_text
from ..config import ServerConfig
from ..core import ServerCore
from ..core.instructions import Close, Lines, Out, Send, TurnTimer
from .link import _Link
from ..storage.record_cache import encoded_line
from .throttled_log import ThrottledLog

#: The network layer's one logger (operators and tests filter on its name).
log = logging.getLogger("noddy.server.net.network")

#: Seconds between two log lines about the same kind of send-path trouble (see ThrottledLog).
LOG_PERIOD = 10.0
#: Message types a client cannot do without: its game (``event``, ``turn``, ``snapshot``) and
#: its session (``welcome``).  See :func:`_essential`.
ESSENTIAL_TYPES = frozenset({"event", "turn", "snapshot", "welcome"})
#: Connections written in one turn of the event loop at most.  A batch for more (a lobby
#: push to 2,000 connections: one send() each, ~13 µs, ~26 ms in all) writes the rest in the
#: next turns, so that the actions arriving meanwhile are not kept waiting behind all of it.
#: What waits stays in each link's buffer, in order: a later message to the same connection
#: is written after it (whoever flushes the link first writes both).
WRITES_PER_TURN = 256


#: Not yet encoded in this batch (None means: could not be encoded).
_UNSEEN = object()


def _essential(message: dict[str, Any] | Lines) -> bool:
    """Whether a recipient that cannot be sent ``message`` must be dropped rather than have
    it skipped: a reply to its request (it waits for it: a request gets exactly one reply),
    or a message of its game or session (without it the client's picture of the game is
    silently wrong).  Dropping it is what a lost connection is: the seat is held and a resume
    brings a fresh snapshot.  Anything else (a table summary, a chat line, a ping) is
    skipped: the next one will do."""
    if isinstance(message, Lines):  # a game's batch, or table news (each message skipped alone)
        return message.essential
    if not isinstance(message, dict):  # not a message at all: a bug, so play safe
        return True
    return message.get("id") is not None or message.get("type") in ESSENTIAL_TYPES


class Sending:
    """The writing half of :class:`~noddy.server.net.network.NoddyServer`: ``_carry_out`` turns a
    batch of ``Send`` and ``Close`` instructions into writes on the links."""

    #: Set by the server (a dataclass field); sending reads its queue and byte caps.
    config: ServerConfig
    #: The server's open connections, by connection number.
    _links: dict[int, _Link]
    #: The core, told which turns have been written (their timers run from then).
    core: ServerCore | None
    #: Connections whose account request is with the hashing worker, and what waits for its
    #: reply (see NoddyServer._password_done).
    _parked: dict[int, list[Out]]

    def _init_sending(self) -> None:
        """The send path's throttled logs; called once by the server's constructor."""
        #: One warning per message that cannot be encoded, at most one a period.
        self._unencodable = ThrottledLog(log, logging.WARNING, LOG_PERIOD)
        #: A write that failed for any other reason (a bug): logged, the link dropped.
        self._send_failed = ThrottledLog(log, logging.ERROR, LOG_PERIOD)

    def _carry_out(self, outs: list[Out]) -> None:
        """Encode and write ``outs``: each connection's messages of the batch in one write.

        The core hands every member of a table the same message object when their views
        agree, so each object is encoded once per batch (once per text/JSON, names and width).

        Nothing here raises: a message that cannot be encoded (a string with a lone
        surrogate, say) is a fault of that message alone, so it touches only its own
        recipients (see :func:`_essential`: the message is skipped for them, or they are
        dropped), and it is logged once per message object, at most once a period, however
        many connections it was for.  Every other message of the batch goes out as usual.

        A turn whose timer runs from when it is written (``Send.timer``) is reported to the
        core once the batch has been handed to the sockets (see ``ServerCore.turns_sent``)."""
        touched: list[_Link] = []
        timers: list[TurnTimer] = []
        links = self._links
        #: Bytes of each message object, by id(message) for JSON connections (most of them;
        #: (id, language) for one reading another language than English), by (id, names,
        #: width, language) for text ones; None for a message that could not be encoded.
        as_json: dict[int, bytes | None] = {}
        as_text: dict[Any, bytes | None] = {}
        #: id(message) -> [message, exception, recipients], for the messages that failed.
        failed: dict[int, list[Any]] = {}
        limit = self.config.send_queue or float("inf")
        byte_limit = self.config.send_buffer_bytes
        half = byte_limit // 2
        parked = self._parked
        for out in outs:
            if parked and out.conn in parked:  # after its account request's reply
                parked[out.conn].append(out)
                continue
            link = links.get(out.conn)
            if link is None or link.closing:
                continue
            try:
                if out.__class__ is Send:
                    buffer = link.buffer
                    if len(buffer) >= limit:
                        log.warning("connection %d is not reading (%d messages waiting); dropping it",
                                    out.conn, len(buffer))
                        link.drop()
                        continue
                    message = out.message
                    language = out.language
                    if out.text:
                        key = (id(message), out.names, out.width, language)
                        data = as_text.get(key, _UNSEEN)
                        if data is _UNSEEN:
                            data = as_text[key] = self._encode(out, failed, as_text)
                    elif message.__class__ is Lines and message.essential:
                        # A member's game batch: made of messages cached one by one, so the
                        # batch itself is not (spectators sharing one join the bytes again).
                        data = self._encode_batch(message, False, (), as_json, failed, None, language)
                    else:
                        key = id(message) if language == ENGLISH else (id(message), language)
                        data = as_json.get(key, _UNSEEN)
                        if data is _UNSEEN:
                            data = as_json[key] = self._encode(out, failed, as_json)
                    if data is None:
                        failed[id(message)][2] += 1
                        if _essential(message):
                            link.drop()
                        continue
                    size = len(data)
                    if byte_limit and (link.blocked or link.held + size > half):
                        # (Otherwise the transport holds under half the limit: see connection_made.)
                        unsent = link.unsent()
                        # A message always goes into an empty queue: one longer than the
                        # bound still reaches a client that reads.
                        if unsent and unsent + size > byte_limit:
                            log.warning("connection %d is not reading (%d bytes waiting); dropping it",
                                        out.conn, unsent)
                            link.drop()
                            continue
                    if not buffer:
                        touched.append(link)
                    buffer.append(data)
                    link.held += size
                    if out.timer is not None:
                        timers.append(out.timer)
                elif isinstance(out, Close):
                    log.debug("closing connection %d: %s", out.conn, out.reason)
                    link.end(self.config.shutdown_timeout)
            except Exception:  # a bug, not a peer's doing: it must still cost one link only
                self._send_failed("sending to connection %d failed; dropping it", out.conn, exc_info=True)
                link.drop()
        self._write(touched)
        if timers and self.core is not None:
            self.core.turns_sent(timers)
        # (A message that failed inside several connections' batches is one entry under each
        # batch's id and its own: logged once, with all its recipients.)
        for message, exc, recipients in {id(entry): entry for entry in failed.values()}.values():
            kind = message.get("type") if isinstance(message, dict) else type(message).__name__
            what = "dropped the" if _essential(message) else "skipped it for"
            self._unencodable("a %r message could not be encoded (%s: %s); %s %d connections",
                              kind, type(exc).__name__, exc, what, recipients)

    def _write(self, links: list[_Link]) -> None:
        """Write what each of ``links`` holds: ``WRITES_PER_TURN`` of them now, the rest in
        the next turns of the event loop (see ``WRITES_PER_TURN``)."""
        if len(links) > WRITES_PER_TURN:
            try:
                asyncio.get_running_loop().call_soon(self._write, links[WRITES_PER_TURN:])
                links = links[:WRITES_PER_TURN]
            except RuntimeError:  # no loop running (a test driving the send path by hand): all now
                pass
        for link in links:
            if not link.closing:
                try:
                    link.flush()
                except Exception:
                    self._send_failed("writing to connection %d failed; dropping it", link.conn, exc_info=True)
                    link.drop()

    def _encode(self, out: Send, failed: dict[int, list[Any]], cache: dict[Any, bytes | None],
                ) -> bytes | None:
        """``out``'s message as the bytes of its line(s) (text or JSON), or None (noted in
        ``failed``) if it cannot be encoded.  ``cache`` holds the bytes of the messages of
        this batch encoded so far for such connections (by ``id``, and the names and width
        for text):
        a game's batches for the members of a table share most of their messages."""
        message = out.message
        text, names, width, language = out.text, out.names, out.width, out.language
        if message.__class__ is Lines:
            if not message.essential:
                return self._encode_news(message, text, names, width, language)
            return self._encode_batch(message, text, names, cache, failed, width, language)
        try:
            return _encoded(message, text, names, width, language)
        except Exception as exc:  # UnicodeEncodeError, a value JSON cannot hold, a KeyError in render...
            failed.setdefault(id(message), [message, exc, 0])
            return None

    def _encode_batch(self, lines: Lines, text: bool, names: tuple[str, ...],
                      cache: dict[Any, bytes | None], failed: dict[int, list[Any]],
                      width: int | None = None, language: str = ENGLISH) -> bytes | None:
        """A member's game batch (``lines``, essential) as the bytes of its lines, or None
        (noted in ``failed`` under the batch's id too) if one of its messages cannot be
        encoded: the connection cannot follow its game without it.  Each message is encoded
        once per batch of instructions (``cache``, as in :meth:`_encode`), and language."""
        items = lines.messages  # never a game_record: JSON is encode_line's
        english = language == ENGLISH
        # Every message looked up at once, without a line of Python per message: most of
        # them were encoded for another member's batch already.
        if text:
            parts = list(map(cache.get, [(id(item), names, width, language) for item in items]))
        elif english:
            parts = list(map(cache.get, map(id, items)))
        else:
            parts = list(map(cache.get, [(id(item), language) for item in items]))
        if None in parts:  # some not encoded yet (or not encodable)
            for index, data in enumerate(parts):
                if data is not None:
                    continue
                item = items[index]
                key = ((id(item), names, width, language) if text
                       else id(item) if english else (id(item), language))
                if key not in cache:
                    try:
                        if english:
                            data = render_text(item, names, width).encode("utf-8") if text else encode_line(item)
                        else:
                            data = _encoded(item, text, names, width, language, record=False)
                    except Exception as exc:
                        failed.setdefault(id(item), [item, exc, 0])
                    cache[key] = data
                if data is None:
                    failed[id(lines)] = failed[id(item)]
                    return None
                parts[index] = data
        return b"".join(parts)  # type: ignore[arg-type]

    def _encode_news(self, lines: Lines, text: bool, names: tuple[str, ...], width: int | None,
                     language: str = ENGLISH) -> bytes:
        """The lobby's news as the bytes of their lines, in order; one that cannot be
        encoded is left out (and logged, at most once a period), not the others with it."""
        parts: list[bytes] = []
        for message in lines.messages:
            try:
                parts.append(_encoded(message, text, names, width, language))
            except Exception as exc:
                self._unencodable("a %r message could not be encoded (%s: %s); skipped it in a push",
                                  message.get("type"), type(exc).__name__, exc)
        return b"".join(parts)


def _encoded(message: dict[str, Any], text: bool, names: tuple[str, ...], width: int | None = None,
             language: str = ENGLISH, record: bool = True) -> bytes:
    """One message as the bytes of its line, in ``language``: readable text (rendered while
    speaking it), or JSON (its Phrases said in it: ``localized``; a stored game's record from
    the cache's bytes when it has them, ``record``).  Raises if it cannot be encoded."""
    if text:
        if language == ENGLISH:
            return render_text(message, names, width).encode("utf-8")
        with speaking(language):
            return render_text(message, names, width).encode("utf-8")
    if language != ENGLISH:  # its announcements said again from their items, then its Phrases
        message = localized(said_event(message, language), language)
    if record and message.get("type") == "game_record":
        return encoded_line(message) or encode_line(message)
    return encode_line(message)
