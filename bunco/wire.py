"""What the server's Twisted does for every frame and every request, made cheaper.

- **A write goes to the socket at once** when nothing waits before it. Twisted buffers every
  ``transport.write`` and sends it on the event loop's next turn: it asks the loop to watch the
  socket for writing, then, once sent, to stop (two ``epoll_ctl`` calls and two callbacks for
  every frame). A bell is 400 frames, each to a socket that can take it at once. As asyncio's
  own transports do, a write with nothing queued before it is sent straight away; whatever the
  socket does not take (or an error) goes the usual way, so Twisted still handles a full
  socket, its producers and a lost connection itself.
- **A request's Content-Type is parsed once per distinct header**, not once per request:
  Twisted reads every POST's with the ``email`` package (~0.1 ms, for a form Daphne then parses
  again itself), and every phone sends the same one.
"""

from __future__ import annotations

from functools import lru_cache

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


def install() -> None:
    """For this process (the server calls it once, at start)."""
    if tcp.Connection.write is not _write:
        tcp.Connection.write = _write
    if not hasattr(http._parseContentType, "cache_info"):
        http._parseContentType = lru_cache(maxsize=64)(http._parseContentType)
