"""A phone's form post read and answered in one step (``BUNCO_STOCK=posts``: Twisted's and
Daphne's request).

A tap posted while the phone's socket is closed (``POST /t/...`` or ``/p/...``) usually
arrives whole in one read: its line, a dozen headers, a body of a hundred bytes. Twisted parses
it a line at a time into a ``Request`` (each header through several calls), parses the form
body it never uses, and Daphne then checks every header again, makes an application with a
queue and a task of its own, and writes the answer through Twisted's request again. Here such a
request, when it is whole, ordinary and alone in its read, is read in one step into the ASGI
scope Daphne would make, handed to the same application, and its answer written in one write,
with the same status line and headers Daphne's would have and the same access-log line.
Anything else (a body still to come, chunked, ``Expect``, a second request behind it, HTTP/1.0,
TLS, Daphne's proxy headers, an odd header) goes the stock way, untouched. Between requests
the channel is left as Twisted's own leaves it: what arrives meanwhile is kept, then read once
the answer is out; the idle timeout is off while the app works.

It leans on Twisted's ``HTTPChannel`` (``dataReceived``, ``connectionLost``, ``requests``,
``_handlingRequest``, ``_dataBuffer``, ``_networkProducer``, its line mode) and Daphne's
``Server`` (``application``, ``log_action``, ``server_name``): without them, one warning and
the stock path.
"""

from __future__ import annotations

import asyncio
import logging
import time
from urllib.parse import unquote

from daphne.http_protocol import WebRequest
from twisted.web import http

log = logging.getLogger(__name__)

#: The posts read here: a table's and a player's phone's (``bunco.runtime.door.TAP_PATH``).
STARTS = (b"POST /t/", b"POST /p/")
#: Headers after which the request goes the stock way (Twisted's, Daphne's own handling).
STOCK_HEADERS = frozenset({b"transfer-encoding", b"expect", b"upgrade", b"daphne-root-path"})
#: Daphne's answer when the application fails (its ``basic_error``).
FAILED = (500, b"Internal Server Error", "Exception inside application.")

_channel = http.HTTPChannel
_stock_received = getattr(_channel, "dataReceived", None)
_stock_lost = getattr(_channel, "connectionLost", None)
#: The biggest body read here (a tap's is about a hundred bytes): a body that comes in pieces
#: is joined as they come, which stays cheap only for a small one. Bigger goes Twisted's way.
SMALL = 8192
#: How big a body may be here: ``SMALL``, or less if the server refuses less (``install``).
_max_body = 0


def _idle(channel) -> bool:
    """Whether the channel is between requests, nothing of the next one read yet."""
    return (not channel.requests and not channel._handlingRequest and channel.line_mode
            and not channel._buffer and channel.persistent)


def read(channel, data: bytes):
    """``(scope, close, length, rest)`` of an ordinary request whose line and headers are
    whole in ``data`` (``rest``: what followed them), or None (the stock way)."""
    end = data.find(b"\r\n\r\n")
    if end < 0 or end > channel.totalHeadersSize:
        return None
    lines = data[:end].split(b"\r\n")
    line = lines[0].split(b" ")
    if len(line) != 3 or line[2] != b"HTTP/1.1" or len(lines) - 1 > channel.maxHeaders:
        return None
    server = channel.factory.server
    addresses = _addresses(channel)
    if server.proxy_forwarded_address_header or addresses is None:
        return None
    target = line[1]
    headers, length, close = [], None, False
    for header in lines[1:]:
        name, colon, value = header.partition(b":")
        if not colon or not _NAME.fullmatch(name):
            return None
        value = value.strip(b" \t")
        if _BAD_VALUE.intersection(value):
            return None
        name = name.lower()
        if name in STOCK_HEADERS:
            return None
        if name == b"content-length":
            if length is not None or not value.isdigit():
                return None
            length = int(value)
        elif name == b"connection":
            close = b"close" in [t.lower() for t in value.split(b" ")]
        if b"_" not in name:  # as Daphne: no header with "_" reaches the app
            headers.append((name, value))
    if length is None or length > _max_body:
        return None
    path, _, query = target.partition(b"?")
    try:
        text = path.decode("ascii")
        query.decode("ascii")
    except UnicodeDecodeError:
        return None
    client, host = addresses
    scope = {"type": "http", "http_version": "1.1", "method": "POST", "path": unquote(text),
             "raw_path": path, "root_path": server.root_path, "scheme": "http",
             "query_string": query, "headers": headers, "client": client, "server": host,
             "asgi": {"version": "3.0"}}
    return scope, close, length, data[end + 4:]


def _addresses(channel):
    """The connection's (client, server) as Daphne puts them in a scope, once a connection;
    None over TLS (the stock way)."""
    known = channel.__dict__.get("bunco_addresses", False)
    if known is False:
        known = None
        if not channel.isSecure():
            peer, host = channel.transport.getPeer(), channel.transport.getHost()
            if hasattr(peer, "host") and hasattr(peer, "port"):
                known = [str(peer.host), peer.port], [str(host.host), host.port]
            else:
                known = None, None
        channel.bunco_addresses = known
    return known


def _dataReceived(self, data):
    waiting = self.__dict__.get("bunco_waiting")
    if waiting is not None:  # the rest of a body
        self.resetTimeout()
        _body(self, waiting[0], waiting[1], waiting[2], waiting[3] + data)
        return None
    if data[:8] in STARTS and _idle(self):
        try:
            request = read(self, data)
        except Exception:  # noqa: BLE001 (whatever it is, Twisted's own parsing says it)
            log.exception("a post could not be read in one step")
            request = None
        if request is not None:
            self.resetTimeout()
            _body(self, *request)
            return None
    return _stock_received(self, data)


def _body(channel, scope: dict, close: bool, length: int, got: bytes) -> None:
    """The request answered once its body is in; what came after it kept for later, as
    Twisted keeps a second request sent before the first one's answer."""
    if len(got) < length:
        channel.bunco_waiting = (scope, close, length, got)
        return
    channel.__dict__.pop("bunco_waiting", None)
    if len(got) > length:  # read once this one's answer is out (which may be at once)
        channel._dataBuffer.append(got[length:])
    Answer(channel, scope, got[:length], close)


def _connectionLost(self, reason):
    self.__dict__.pop("bunco_waiting", None)
    answer = self.__dict__.pop("bunco_answer", None)
    if answer is not None:
        answer.lost()
    return _stock_lost(self, reason)


class Answer:
    """One request read here: the application run on it, its answer written in one step, and
    the channel back to reading as Twisted's own request leaves it."""

    def __init__(self, channel, scope: dict, body: bytes, close: bool) -> None:
        self.channel, self.request_scope, self.body, self.close = channel, scope, body, close
        self.started, self.status, self.headers, self.chunks = time.time(), 0, [], []
        self.answered = False
        self.given = False
        self.over: asyncio.Future | None = None
        channel._handlingRequest = True
        if channel.timeOut:
            channel._savedTimeOut = channel.setTimeout(None)
        channel.setRawMode()  # what arrives meanwhile is kept in _dataBuffer
        channel.bunco_answer = self
        server = channel.factory.server
        self.task = asyncio.ensure_future(self.answer(server.application))
        self.task.add_done_callback(self.done)

    async def answer(self, app) -> None:
        """The application run on the request; a failure, or an application that ends without
        an answer, answered with Daphne's 500."""
        try:
            await app(scope=self.request_scope, receive=self.receive, send=self.send)
        except Exception as exc:  # noqa: BLE001 (every failure gets Daphne's 500)
            self.failed(exc)
            return
        if not self.answered:
            self.failed(None)

    async def receive(self) -> dict:
        if not self.given:
            self.given = True
            return {"type": "http.request", "body": self.body, "more_body": False}
        if self.over is None:
            self.over = asyncio.get_running_loop().create_future()
            if self.answered:
                self.over.set_result(None)
        await self.over
        return {"type": "http.disconnect"}

    async def send(self, message: dict) -> None:
        if self.answered:
            return
        kind = message.get("type")
        if kind == "http.response.start":
            self.status = message["status"]
            self.headers = [(bytes(n), bytes(v)) for n, v in message.get("headers", ())]
        elif kind == "http.response.body" and self.status:
            self.chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                self.write()
        else:
            raise ValueError(f"Cannot handle message type {kind}!")

    def done(self, task: asyncio.Task) -> None:
        if not task.cancelled() and task.exception() is not None:  # not an Exception
            self.failed(task.exception())

    def failed(self, failure: BaseException | None) -> None:
        if self.answered:
            return
        if failure is None:
            log.error("the application ended without answering %s", self.request_scope["path"])
        else:
            log.error("Exception inside application: %s", failure, exc_info=failure)
        status, reason, text = FAILED
        page = http_error_page(status, reason, text)
        self.status, self.chunks = status, [page]
        self.headers = [(b"Content-Type", b"text/html; charset=utf-8")]
        self.write()

    def write(self) -> None:
        """The answer in one write, as Twisted writes Daphne's; then the next request."""
        self.answered = True
        channel = self.channel
        channel.__dict__.pop("bunco_answer", None)
        self.ended()
        transport = channel.transport
        if transport is None or getattr(transport, "disconnected", False):
            return
        body = b"".join(self.chunks)
        headers = self.headers
        names = {name.lower() for name, _ in headers}
        server = channel.factory.server
        if server.server_name and b"server" not in names:
            headers.append((b"Server", server.server_name.encode()))
        if b"content-length" not in names:
            headers.append((b"Content-Length", b"%d" % len(body)))
        if self.close:
            headers.append((b"Connection", b"close"))
        reason = http.RESPONSES.get(self.status, b"Unknown Status")
        head = [b"HTTP/1.1 %d %s\r\n" % (self.status, reason)]
        head += [b"%s: %s\r\n" % (name, _clean(value)) for name, value in headers]
        transport.write(b"".join(head) + b"\r\n" + body)
        self.logged(len(body))
        if self.close:
            channel.loseConnection()
            return
        # As Twisted's requestDone for a persistent connection.
        if not channel._waitingForTransport:
            channel._networkProducer.resumeProducing()
        channel._handlingRequest = False
        if getattr(channel, "_savedTimeOut", None):
            channel.setTimeout(channel._savedTimeOut)
        kept, channel._dataBuffer = b"".join(channel._dataBuffer), []
        channel.setLineMode(kept)

    def logged(self, size: int) -> None:
        """Daphne's access-log line for it."""
        client = self.request_scope["client"]
        try:
            self.channel.factory.server.log_action("http", "complete", {
                "path": self.request_scope["raw_path"].decode("ascii")
                + ("?" + self.request_scope["query_string"].decode("ascii")
                   if self.request_scope["query_string"] else ""),
                "status": self.status, "method": "POST",
                "client": f"{client[0]}:{client[1]}" if client else None,
                "time_taken": time.time() - self.started, "size": size})
        except Exception:  # noqa: BLE001 (as Daphne: a log line never fails a request)
            log.exception("the access log failed")

    def lost(self) -> None:
        """The client went away before its answer: the app is told if it asks."""
        self.answered = True
        self.ended()

    def ended(self) -> None:
        if self.over is not None and not self.over.done():
            self.over.set_result(None)


def _clean(value: bytes) -> bytes:
    """A header value on one line (as Twisted's headers make it)."""
    return value.replace(b"\r", b" ").replace(b"\n", b" ")


def http_error_page(status: int, reason: bytes, text: str) -> bytes:
    return (WebRequest.error_template % {
        "title": f"{status} {reason.decode('ascii')}", "body": text}).encode("utf8")


try:
    from daphne.utils import HEADER_NAME_RE as _NAME
    from daphne.utils import INVALID_HEADER_VALUE_BYTES as _BAD_VALUE
except ImportError:  # a Daphne without them: install() says so
    _NAME = _BAD_VALUE = None

#: What the channel must have for this to stand in for its reading of a request.
_LEANS_ON = ("requests", "_handlingRequest", "_dataBuffer", "line_mode", "_buffer", "persistent",
             "setRawMode", "setLineMode", "totalHeadersSize", "maxHeaders", "_waitingForTransport",
             "resetTimeout", "setTimeout", "isSecure", "loseConnection")


def install(max_body: int) -> bool:
    """Read small phone posts in one step, bodies up to ``max_body``. Says whether it is in."""
    global _max_body
    _max_body = min(max_body, SMALL)
    channel = http.HTTPChannel()
    missing = [name for name in _LEANS_ON if not hasattr(channel, name)]
    if _stock_received is None or _stock_lost is None or _NAME is None:
        missing.append("dataReceived/connectionLost/Daphne's header checks")
    if missing:
        log.warning("Twisted's HTTPChannel lacks %s: posts are read the stock way",
                    ", ".join(missing))
        return False
    _channel.dataReceived = _dataReceived
    _channel.connectionLost = _connectionLost
    return True
