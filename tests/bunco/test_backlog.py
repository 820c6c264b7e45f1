"""What waits for a screen is known from Twisted's buffer, and a Twisted without the parts it
reads leaves sending stock, with one warning (bunco/runtime/backlog.py)."""

import logging
import socket

from daphne.ws_protocol import WebSocketProtocol
from twisted.internet import abstract, tcp
from twisted.internet.protocol import Protocol

from bunco.runtime import backlog, wire

from .test_wire import Loop


def test_what_waits_for_a_socket_is_counted():
    mine, peer = socket.socketpair()
    try:
        mine.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        conn = tcp.Connection(mine, Protocol(), reactor=Loop())
        conn.connected = True
        assert backlog.waiting(conn) == 0
        conn.write(b"x" * 2_000_000)  # far more than the socket takes
        conn.doWrite()
        assert 0 < backlog.waiting(conn) <= 2_000_000
    finally:
        mine.close()
        peer.close()


def test_a_transport_it_cannot_read_is_not_bounded_and_says_so_once(monkeypatch, caplog):
    monkeypatch.setattr(backlog, "_unknown_warned", False)
    assert backlog.waiting(object()) is None
    with caplog.at_level(logging.WARNING, logger=backlog.__name__):
        backlog._unknown(object())
        backlog._unknown(object())
    assert len(caplog.records) == 1


def test_a_twisted_without_its_buffer_falls_back_to_stock(monkeypatch, caplog):
    def stock(self, content, binary=False):
        pass

    monkeypatch.setattr(WebSocketProtocol, "serverSend", stock)
    monkeypatch.setattr(wire, "installed", set())
    monkeypatch.delattr(abstract.FileDescriptor, "dataBuffer")
    with caplog.at_level(logging.WARNING, logger=backlog.__name__):
        wire.install(["backlog"])
    assert WebSocketProtocol.serverSend is stock and wire.installed == set()
    assert "not bounded" in caplog.text


def test_autobahns_send_is_wrapped_once_the_bound_before_the_framing(monkeypatch):
    """One wrapper of ``serverSend``, whichever of its two pieces run: a screen behind gets
    no frame, framed or not."""
    written = []

    class Screen:
        STATE_OPEN = state = 1

        def __init__(self):
            self._behind_since = 1.0  # it fell behind a moment ago
            self.transport = type("T", (), {"write": written.append})()

    for pieces in (["backlog", "framing"], ["backlog"]):
        monkeypatch.setattr(wire, "installed", set())
        wire.install(pieces)
        assert WebSocketProtocol.serverSend is wire._send
        wire._send(Screen(), "<p>a frame</p>")
        assert written == []
