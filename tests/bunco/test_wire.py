"""Frames go to the socket at once when nothing waits before them (bunco/wire.py), and a
socket that cannot take them all still gets every byte, in order, through Twisted's buffer."""

import socket

import pytest
from twisted.internet import tcp
from twisted.internet.protocol import Protocol
from twisted.web import http

from bunco import wire


class Loop:
    """What a connection asks of the event loop: to be told when it may write."""

    def __init__(self):
        self.writing = set()

    def addWriter(self, writer):  # noqa: N802 (Twisted's name)
        self.writing.add(writer)

    def removeWriter(self, writer):  # noqa: N802
        self.writing.discard(writer)


@pytest.fixture
def connection():
    wire.install()
    mine, peer = socket.socketpair()
    conn = tcp.Connection(mine, Protocol(), reactor=Loop())
    conn.connected = True
    peer.settimeout(5)
    yield conn, peer
    mine.close()
    peer.close()


def read_all(conn, peer, expected: int) -> bytes:
    got = b""
    while len(got) < expected:
        got += peer.recv(1 << 20)
        if conn in conn.reactor.writing:
            conn.doWrite()  # the loop's turn: the socket has room again
    return got


def test_a_frame_goes_to_the_socket_at_once(connection):
    conn, peer = connection
    conn.write(b"<p>bell</p>")
    assert peer.recv(100) == b"<p>bell</p>"
    assert not conn.reactor.writing  # nothing left for the loop to do


def test_what_the_socket_cannot_take_waits_and_nothing_overtakes_it(connection):
    conn, peer = connection
    big = bytes(range(256)) * 40_000  # 10 MB: more than a socket's buffer
    conn.write(big)
    assert conn in conn.reactor.writing  # the rest waits for the loop
    conn.write(b"next frame")  # must not jump ahead of what waits
    assert read_all(conn, peer, len(big) + 10) == big + b"next frame"


def test_a_closed_peer_is_left_to_twisted(connection):
    conn, peer = connection
    peer.close()
    conn.write(b"frame")  # no exception here: the loop finds the connection lost
    assert conn in conn.reactor.writing


def test_a_posts_content_type_reads_the_same_when_parsed_once():
    wire.install()
    for _ in range(2):
        assert http._parseContentType(b"application/x-www-form-urlencoded; charset=UTF-8") \
            == b"application/x-www-form-urlencoded"
        assert http._parseContentType(b"Multipart/Form-Data; boundary=x") \
            == b"multipart/form-data"
    assert http._parseContentType.cache_info().hits >= 2
