"""A request's body bounded as it arrives, in Daphne's request: no piece (a defence, never
left stock).

Twisted takes in a request's whole body, in memory or a temporary file, before Daphne hands
any of it to the app; Daphne then queues all of it at once. A body that says it is bigger than
the limit (its Content-Length) is refused as soon as its headers are in, and one sent without
a length is refused the moment what has come in passes the limit; what came is dropped. The
refusal is the app's own answer (``answer(path)``), sent at once; the connection then reads
and drops whatever the client is still sending for ``LINGER`` seconds, so the client reads
the answer instead of a reset, and closes.

It leans on Twisted's ``Request.gotLength``, ``handleContentChunk`` and ``requestReceived``
and Daphne's ``WebRequest``: without them, one warning and the stock path (the app's own
``read_body`` still refuses, after the server took the body in).
"""

from __future__ import annotations

import io
import logging
from collections.abc import Callable

from daphne.http_protocol import WebRequest
from twisted.web import http

log = logging.getLogger(__name__)

#: Seconds a refused request's connection keeps reading (and dropping) what is still sent.
LINGER = 3.0
#: The request's own methods, as Twisted and Daphne define them.
_got_length = getattr(WebRequest, "gotLength", None)
_chunk = getattr(WebRequest, "handleContentChunk", None)
_received = getattr(WebRequest, "requestReceived", None)

limit = 0
#: The app's refusal of a body too big for ``path``: (status, headers, body).
answer: Callable[[str], tuple[int, list[tuple[bytes, bytes]], bytes]] | None = None


def _gotLength(self, length):
    self.bunco_size = 0
    self.bunco_refused = False
    if length is not None and length > limit:
        # No "100 Continue" for a body that is refused: the refusal goes first and alone.
        self.requestHeaders.removeHeader(b"Expect")
        self.content = io.BytesIO()
        refuse(self)
        return
    _got_length(self, length)


def _handleContentChunk(self, data):
    if getattr(self, "bunco_refused", False):
        return
    self.bunco_size = getattr(self, "bunco_size", 0) + len(data)
    if self.bunco_size > limit:
        self.content.close()  # a temporary file is gone with it
        self.content = io.BytesIO()
        refuse(self)
        return
    _chunk(self, data)


def _requestReceived(self, command, path, version):
    if getattr(self, "bunco_refused", False):
        return  # answered already: the app never sees it
    _received(self, command, path, version)


def refuse(request) -> None:
    """The app's refusal, sent now; the rest of the body read and dropped, then closed."""
    request.bunco_refused = True
    channel, transport = request.channel, request.channel.transport
    channel.dataReceived = _drop  # shadows the channel's own: nothing more is parsed
    # The request's path is set once its body is in: till then only the channel has it.
    path = getattr(channel, "_path", b"").split(b"?", 1)[0]
    try:
        status, headers, body = answer(path.decode("ascii", "replace"))
    except Exception:  # the app's answer failed: the refusal still goes, plainly
        log.exception("the refusal of a body too big could not be drawn")
        status, headers, body = 413, [], b""
    head = [b"HTTP/1.1 %d %s" % (status, http.RESPONSES.get(status, b"Refused"))]
    head += [name + b": " + value for name, value in headers]
    head += [b"Content-Length: " + str(len(body)).encode(), b"Connection: close"]
    transport.write(b"\r\n".join(head) + b"\r\n\r\n" + body)
    try:
        transport.loseWriteConnection()  # the answer, then the end of it: the client reads it
    except (AttributeError, NotImplementedError):
        transport.loseConnection()
    from twisted.internet import reactor

    reactor.callLater(LINGER, transport.abortConnection)


def _drop(data: bytes) -> None:
    """What a refused request's client still sends: read and dropped."""


def install(max_body: int, refusal) -> bool:
    """Bound every request's body to ``max_body`` bytes, refused with ``refusal(path)``.
    Says whether it is in (False: an internal it leans on is gone, one warning)."""
    global limit, answer
    limit, answer = max_body, refusal
    if not all(callable(m) for m in (_got_length, _chunk, _received)):
        log.warning("Daphne's request has changed: a body is bounded only after it is read")
        return False
    WebRequest.gotLength = _gotLength
    WebRequest.handleContentChunk = _handleContentChunk
    WebRequest.requestReceived = _requestReceived
    return True
