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
- **A request's Content-Type is parsed once per distinct header**, not once per request:
  Twisted reads every POST's with the ``email`` package (~0.1 ms, for a form Daphne then parses
  again itself), and every phone sends the same one.
"""

from __future__ import annotations

import struct
from functools import lru_cache

from daphne.ws_protocol import WebSocketProtocol
from twisted.internet import tcp
from twisted.web import http

_buffered = tcp.Connection.write


def _write(self, data: bytes) -> None:
    if (type(data) is bytes and data and self.connected and not self._writeDisconnected
            and not self.TLS and not self._tempDataBuffer
            and self.offset == len(self.dataBuffer)):
        sent = self.writeSomeData(data)
        if type(sent) is int and sent > 0:
            if sent == len(data):
                return
            data = data[sent:]
    _buffered(self, data)


def text_frame(text: str) -> bytes:
    """One final, unmasked text frame (RFC 6455 5.2), as a server sends it."""
    payload = text.encode("utf-8")
    n = len(payload)
    if n < 126:
        return bytes((0x81, n)) + payload
    if n < 65536:
        return struct.pack("!BBH", 0x81, 126, n) + payload
    return struct.pack("!BBQ", 0x81, 127, n) + payload


_server_send = WebSocketProtocol.serverSend


def _send(self, content, binary=False) -> None:
    if (not binary and self.state == self.STATE_OPEN and self._perMessageCompress is None
            and not self.autoFragmentSize and not self.send_queue and not self.logFrames
            and not self.logOctets and not self.trackedTimings and type(content) is str):
        self.transport.write(text_frame(content))
        return
    _server_send(self, content, binary)


def install() -> None:
    """For this process (the server calls it once, at start)."""
    if tcp.Connection.write is not _write:
        tcp.Connection.write = _write
    if WebSocketProtocol.serverSend is not _send:
        WebSocketProtocol.serverSend = _send
    if not hasattr(http._parseContentType, "cache_info"):
        http._parseContentType = lru_cache(maxsize=64)(http._parseContentType)
