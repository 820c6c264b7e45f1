"""Writes go to the socket at once when nothing is waiting before them.

Twisted buffers every ``transport.write`` and sends it on the event loop's next turn: it asks
the loop to watch the socket for writing, then, once sent, to stop (two ``epoll_ctl`` calls
and two callbacks for every frame). A bell is 400 frames, each to a socket that can take it
at once. Here a write with nothing queued before it is sent straight away, as asyncio's own
transports do; whatever the socket does not take (or an error) goes the usual way, so Twisted
still handles a full socket, its producers and a lost connection itself."""

from __future__ import annotations

from twisted.internet import tcp

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
    """For this process's TCP connections (the server calls it once, at start)."""
    if tcp.Connection.write is not _write:
        tcp.Connection.write = _write
