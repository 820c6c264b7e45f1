"""Frames go to the socket at once when nothing waits before them (bunco/runtime/wire.py), and a
socket that cannot take them all still gets every byte, in order, through Twisted's buffer; a
small message arriving whole is read in one step, anything else the way autobahn reads it."""

import socket
import zlib

import pytest
from twisted.internet import tcp
from twisted.internet.protocol import Protocol
from twisted.web import http

from bunco.runtime import wire
from tests.wsframes import masked


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


class Transport:
    def __init__(self):
        self.written = b""

    def write(self, data):
        self.written += data


def open_socket():
    """A server websocket protocol as Daphne has it once a socket is open."""
    from daphne.ws_protocol import WebSocketFactory, WebSocketProtocol

    factory = WebSocketFactory(None)
    proto = WebSocketProtocol()
    proto.factory = factory
    for name in proto.CONFIG_ATTRS:
        setattr(proto, name, getattr(factory, name))
    proto._perMessageCompress = None
    proto.trackedTimings = False
    proto.send_queue = __import__("collections").deque()
    proto.triggered = False
    from autobahn.websocket.protocol import TrafficStats
    proto.trafficStats = TrafficStats()
    proto.state = proto.STATE_OPEN
    proto.transport = Transport()
    proto.client_addr = ("127.0.0.1", 1)
    # what autobahn reads with, as after its opening handshake
    from autobahn.websocket.utf8validator import Utf8Validator
    proto.websocket_version = 13
    proto.data, proto.current_frame, proto.inside_message = b"", None, False
    proto.control_frame_data, proto.message_data, proto.frame_data = [], None, None
    proto.utf8validator = Utf8Validator()
    proto.autoPingTimeoutCall = None
    proto.failedByMe = False
    proto.muted = False
    return proto


def reader():
    """A socket whose messages are kept: (payload, binary) each."""
    proto = open_socket()
    got = []
    proto.onMessage = lambda payload, binary: got.append((payload, binary))
    return proto, got


@pytest.mark.parametrize("size", [0, 125, 126, 65535, 65536, 300_000])
def test_a_text_frame_is_framed_as_autobahn_frames_it(size):
    """Every size of length field (7 bit, 16 bit, 64 bit), and text that is not ASCII."""
    wire.install()
    text = ("é" * size)[:size] if size % 2 else "x" * size
    ours, theirs = open_socket(), open_socket()
    ours.serverSend(text)
    wire._server_send(theirs, text)  # autobahn's own way
    assert ours.transport.written == theirs.transport.written
    assert len(ours.transport.written) > len(text.encode())


def test_a_rendered_fragment_goes_in_one_step_and_only_a_big_one_deflated():
    """What the server pushes is rendered HTML (Django's SafeString, a str). To a browser that
    offered deflate, a small one goes as it is and a big one deflated once for every screen,
    never through autobahn's own way (a fresh compressor for every frame)."""
    from autobahn.websocket.compress import PerMessageDeflate
    from django.utils.safestring import mark_safe

    wire.install()
    small, big = mark_safe("<p>Table 1: 3 points</p>"), mark_safe("<p>table</p>" * 2000)
    for text, deflated in ((small, False), (big, True)):
        proto = open_socket()
        proto._perMessageCompress = PerMessageDeflate(True, True, False, 15, 15, 8)
        proto.serverSend(text)
        assert not proto.send_queue  # written at once, not queued for autobahn
        written = proto.transport.written
        if deflated:
            assert written == wire.deflated_frame(str(big))
        else:
            assert written == wire.text_frame(str(small))


def test_a_socket_that_is_not_plain_takes_autobahns_own_way():
    wire.install()
    proto = open_socket()
    proto.send_queue.append((b"queued first", False))  # autobahn's trickled writes
    proto.triggered = True  # already sending them: the frame queues behind
    proto.serverSend("<p>after</p>")
    assert proto.transport.written == b""
    assert proto.send_queue[-1][0].endswith(b"<p>after</p>")


def test_a_deflated_frame_reads_back_as_the_text_on_its_own():
    text = "<section id='table-1'>" + "Brenda Jones & Cara Smith " * 2000 + "é</section>"
    frame = wire.deflated_frame(text)
    assert frame[0] == 0xC1  # final, compressed (RSV1), text
    assert frame[1] == 126 and len(frame) < len(text) / 10
    payload = frame[4:]
    # Any reader, with or without what it read before, inflates it (no context kept).
    assert zlib.decompressobj(-15).decompress(payload + b"\x00\x00\xff\xff").decode() == text
    assert wire.deflated_frame(text) is frame  # the same message to many screens: once


def test_only_a_deflate_offer_is_accepted_and_without_server_context():
    from autobahn.websocket.compress import PerMessageDeflateOffer

    accepted = wire.accept_deflate([PerMessageDeflateOffer(accept_max_window_bits=True)])
    assert accepted.no_context_takeover is True
    assert wire.accept_deflate([]) is None


def test_a_twisted_without_what_the_write_leans_on_writes_the_stock_way(connection,
                                                                       monkeypatch, caplog):
    """A renamed internal upstream: one warning, and every write goes to Twisted's own, in
    order, from then on."""
    import logging

    from twisted.internet import abstract

    conn, _ = connection
    stock = []
    monkeypatch.setattr(wire, "gone", set())
    monkeypatch.setattr(wire, "_buffered", lambda self, data: stock.append(data))
    monkeypatch.delattr(abstract.FileDescriptor, "offset")  # renamed in a newer Twisted, say
    with caplog.at_level(logging.WARNING, logger=wire.__name__):
        conn.write(b"first ")
        conn.write(b"second")
    assert stock == [b"first ", b"second"]
    assert wire.gone == {"write"} and len(caplog.records) == 1


@pytest.mark.parametrize("size", [0, 1, 125, 126, 2_500, wire.READ_AT_MOST])
def test_a_small_text_message_is_read_as_autobahn_reads_it(size):
    """A screen's sync or tap, arriving whole: the same message, read in one step."""
    wire.install()
    text = ("é" * size).encode()[:size] if size % 2 == 0 else b"s" * size
    frame = masked(text)
    ours, got = reader()
    theirs, expected = reader()
    ours.dataReceived(frame)
    wire._data_received(theirs, frame)  # autobahn's own way
    assert got == expected == [(text, False)]
    assert ours.data == b"" and ours.current_frame is None  # nothing left half-read


def test_anything_but_one_whole_small_text_frame_is_autobahns_to_read(monkeypatch):
    """A control frame, a binary one, a fragment, a compressed or a long one, half a frame,
    two frames in one read, text that is not UTF-8: each goes autobahn's way, whole."""
    wire.install()
    ours, got = reader()
    stock = []
    monkeypatch.setattr(wire, "_data_received", lambda self, data: stock.append(data))
    sync = masked(b'{"type":"sync"}')
    others = [masked(b"ping", first=0x89), masked(b"\x00\x01", first=0x82),
              masked(b'{"type":', first=0x01), masked(b"compressed", first=0xC1),
              masked(b"x" * (wire.READ_AT_MOST + 1)), sync[:5], sync + sync,
              masked("é".encode()[:1])]
    for data in others:
        ours.dataReceived(data)
    assert stock == others and got == []
    ours.data = b"half a frame"  # autobahn holds the start of a frame: what follows is its
    ours.dataReceived(sync)
    assert stock[-1] == sync and got == []


def test_an_autobahn_without_what_the_reading_leans_on_reads_the_stock_way(monkeypatch,
                                                                          caplog):
    import logging

    wire.install()
    ours, got = reader()
    monkeypatch.setattr(wire, "gone", set())
    del ours.inside_message  # renamed in a newer autobahn, say
    stock = []
    monkeypatch.setattr(wire, "_data_received", lambda self, data: stock.append(data))
    with caplog.at_level(logging.WARNING, logger=wire.__name__):
        ours.dataReceived(masked(b"first"))
        ours.dataReceived(masked(b"second"))
    assert len(stock) == 2 and got == []
    assert wire.gone == {"reading"} and len(caplog.records) == 1
