"""What the server's Twisted does for every frame and every request, made cheaper.

- **A write goes to the socket at once** when nothing waits before it. Twisted buffers every
  ``transport.write`` and sends it on the event loop's next turn: it asks the loop to watch the
  socket for writing, then, once sent, to stop (two ``epoll_ctl`` calls and two callbacks for
  every frame). A bell is 400 frames, each to a socket that can take it at once. As asyncio's
  own transports do, a write with nothing queued before it is sent straight away; whatever the
  socket does not take (or an error) goes the usual way, so Twisted still handles a full
  socket, its producers and a lost connection itself.
- **A text frame is framed in one step** when the socket is open and plain (no compression, no
  fragmenting, nothing queued by autobahn before it): a websocket header and the UTF-8 bytes,
  as autobahn's ``sendMessage`` would write them, without its checks, statistics and debug
  log arguments formatted for every frame. Anything else takes autobahn's own way.
- **A big frame goes compressed** (permessage-deflate, RFC 7692) to a browser that offers it,
  as every current one does: a TV's snapshot at 2,000 players is ~750 KB of HTML. The server
  keeps no compression state per connection ("server_no_context_takeover"), so a big message
  is deflated once for every screen it goes to (the last few are kept), and a small one (a
  tap's table, a banner) is sent as it is, which the extension allows message by message.
- **A small text message is read in one step** when it arrives whole in one read, alone,
  on an open socket with nothing half-read before it (a screen's sync, a tap): its header
  checked, unmasked and its UTF-8 checked as autobahn does, then handed to the server's
  ``onMessage``, without autobahn's per-frame masker, validator, statistics and debug log
  arguments formatted for every read. Anything else (a control frame, a fragment, a
  compressed or partial frame, two in one read) takes autobahn's own way.
- **A request's Content-Type is parsed once per distinct header**, not once per request:
  Twisted reads every POST's with the ``email`` package (~0.1 ms, for a form Daphne then parses
  again itself), and every phone sends the same one.
"""

from __future__ import annotations

import logging
import struct
import zlib
from functools import lru_cache

from daphne.ws_protocol import WebSocketFactory, WebSocketProtocol
from twisted.internet import tcp
from twisted.web import http

from bunco.runtime import backlog

try:
    from autobahn.websocket.compress import PerMessageDeflateOffer, PerMessageDeflateOfferAccept
except ImportError:  # an autobahn without it: the stock, uncompressed path
    PerMessageDeflateOffer = PerMessageDeflateOfferAccept = None

log = logging.getLogger(__name__)
_buffered = tcp.Connection.write
#: A text message this long (characters) or longer goes deflated where the browser offered it.
DEFLATE_FROM = 8 * 1024


#: The pieces whose internals were found gone: they take the stock path from then on.
gone: set[str] = set()


def _changed(piece: str, exc: AttributeError) -> None:
    """An internal this leans on is gone (a newer Twisted or autobahn): that piece takes the
    stock path for good, the write or frame at hand included, with one warning."""
    if piece not in gone:
        gone.add(piece)
        log.warning("the %s piece leans on an internal that is gone (%s): it runs stock",
                    piece, exc)


def _write(self, data: bytes) -> None:
    if "write" in gone:
        return _buffered(self, data)
    try:
        now = (type(data) is bytes and data and self.connected and not self._writeDisconnected
               and not self.TLS and not self._tempDataBuffer
               and self.offset == len(self.dataBuffer))
    except AttributeError as exc:
        _changed("write", exc)
        now = False
    if now:
        sent = self.writeSomeData(data)
        if type(sent) is int and sent > 0:
            if sent == len(data):
                return
            data = data[sent:]
    _buffered(self, data)


def _frame(first: int, payload: bytes) -> bytes:
    n = len(payload)
    if n < 126:
        return bytes((first, n)) + payload
    if n < 65536:
        return struct.pack("!BBH", first, 126, n) + payload
    return struct.pack("!BBQ", first, 127, n) + payload


def text_frame(text: str) -> bytes:
    """One final, unmasked text frame (RFC 6455 5.2), as a server sends it."""
    return _frame(0x81, text.encode("utf-8"))


@lru_cache(maxsize=8)
def deflated_frame(text: str, window_bits: int = 15) -> bytes:
    """One final text frame compressed on its own (RFC 7692 7.2.1: RSV1 set, the deflate
    stream's closing empty block left off). The same message to 400 screens is one string,
    so it is compressed once."""
    deflate = zlib.compressobj(6, zlib.DEFLATED, -max(9, window_bits))
    payload = deflate.compress(text.encode("utf-8")) + deflate.flush(zlib.Z_SYNC_FLUSH)
    return _frame(0xC1, payload[:-4])


def accept_deflate(offers):
    """The permessage-deflate offer a browser makes, accepted with no compression state kept
    by the server between messages; anything else is declined (the socket stays plain)."""
    for offer in offers:
        if isinstance(offer, PerMessageDeflateOffer):
            return PerMessageDeflateOfferAccept(offer, no_context_takeover=True)
    return None


_server_send = WebSocketProtocol.serverSend


def _send(self, content, binary=False) -> None:
    """autobahn's ``serverSend``, wrapped once, in this order: the backlog's bound (a screen
    that stopped reading gets no more frames: ``backlog``), then framing in one step."""
    if "backlog" in installed and not backlog.admit(self):
        return
    if "framing" in gone or "framing" not in installed:
        return _server_send(self, content, binary)
    try:
        plain = (not binary and self.state == self.STATE_OPEN and not self.autoFragmentSize
                 and not self.send_queue and not self.logFrames and not self.logOctets
                 and not self.trackedTimings and isinstance(content, str))
        deflate = self._perMessageCompress if plain else None
    except AttributeError as exc:
        _changed("framing", exc)
        plain = False
    if plain:
        if deflate is None or len(content) < DEFLATE_FROM:
            self.transport.write(text_frame(content))
            return
        if getattr(deflate, "server_no_context_takeover", False):
            bits = getattr(deflate, "server_max_window_bits", 0) or 15
            self.transport.write(deflated_frame(content, bits))
            return
    _server_send(self, content, binary)


_data_received = WebSocketProtocol.dataReceived
#: A message read in one step is at most this long (bytes): a sync of 500 tables is ~2.5 KB.
READ_AT_MOST = 8 * 1024


def read_frame(data: bytes) -> bytes | None:
    """The payload of ``data`` when it is exactly one final, masked, uncompressed text frame
    of at most READ_AT_MOST bytes, its length minimally encoded (RFC 6455 5.2); else None."""
    if len(data) < 6 or data[0] != 0x81 or not data[1] & 0x80:
        return None
    n = data[1] & 0x7F
    at = 2
    if n == 126:
        n = int.from_bytes(data[2:4], "big")
        at = 4
        if n < 126:
            return None
    elif n == 127:
        return None
    if n > READ_AT_MOST or len(data) != at + 4 + n:
        return None
    mask = data[at:at + 4]
    key = int.from_bytes((mask * (n // 4 + 1))[:n], "little")
    return (int.from_bytes(data[at + 4:], "little") ^ key).to_bytes(n, "little")


def _read(self, data: bytes) -> None:
    if "reading" in gone:
        return _data_received(self, data)
    try:
        plain = (self.state == self.STATE_OPEN and not self.data and self.current_frame is None
                 and not self.inside_message and not self.logOctets and not self.logFrames
                 and not self.trackedTimings and self.autoPingTimeoutCall is None
                 and self.applyMask and not self.failedByMe
                 and not 0 < self.maxFramePayloadSize < READ_AT_MOST
                 and not 0 < self.maxMessagePayloadSize < READ_AT_MOST)
    except AttributeError as exc:
        _changed("reading", exc)
        plain = False
    payload = read_frame(data) if plain and type(data) is bytes else None
    if payload is not None:
        try:
            payload.decode("utf-8")  # as autobahn's validator: not UTF-8, its own way fails it
        except UnicodeDecodeError:
            payload = None
    if payload is None:
        return _data_received(self, data)
    self.onMessage(payload, False)


_factory_init = WebSocketFactory.__init__


def _factory_init_deflating(self, *args, **kwargs) -> None:
    _factory_init(self, *args, **kwargs)
    self.setProtocolOptions(perMessageCompressionAccept=accept_deflate)


#: The pieces this module runs in this process, as ``install`` put them in.
installed: set[str] = set()
PIECES = ("write", "framing", "backlog", "reading", "deflate")


def install(pieces=PIECES) -> None:
    """For this process (the server calls it once, at start), the ``pieces`` named (the
    others stay stock, to measure what each buys: ``bunco.runtime.stock``), one wrapper per
    thing patched: Twisted's write; autobahn's ``serverSend`` (the backlog's bound, then
    framing); its reading; the factory's offer of deflate."""
    if "write" in pieces:
        installed.add("write")
        tcp.Connection.write = _write
    if "framing" in pieces:
        installed.add("framing")
        if not hasattr(http._parseContentType, "cache_info"):
            http._parseContentType = lru_cache(maxsize=64)(http._parseContentType)
    if "backlog" in pieces and "backlog" not in installed and backlog.usable():
        installed.add("backlog")
    if installed & {"framing", "backlog"} and WebSocketProtocol.serverSend is not _send:
        WebSocketProtocol.serverSend = _send
    if "reading" in pieces:
        installed.add("reading")
        WebSocketProtocol.dataReceived = _read
    if "deflate" in pieces and WebSocketFactory.__init__ is not _factory_init_deflating:
        if PerMessageDeflateOfferAccept is None:
            log.warning("autobahn has no permessage-deflate here: frames go uncompressed")
        else:
            installed.add("deflate")
            WebSocketFactory.__init__ = _factory_init_deflating
