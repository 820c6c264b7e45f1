"""What waits for a screen is known from Twisted's buffer, and a Twisted without the parts it
reads leaves sending stock, with one warning (bunco/runtime/backlog.py)."""

import logging
import socket

from daphne.ws_protocol import WebSocketProtocol
from twisted.internet import abstract, tcp
from twisted.internet.protocol import Protocol

from bunco.runtime import backlog

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
    monkeypatch.delattr(abstract.FileDescriptor, "dataBuffer")
    with caplog.at_level(logging.WARNING, logger=backlog.__name__):
        assert backlog.install() is False
    assert WebSocketProtocol.serverSend is stock
    assert "not bounded" in caplog.text
