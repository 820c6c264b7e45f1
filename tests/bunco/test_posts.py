"""A phone's form post read and answered in one step (bunco/runtime/posts.py): the same scope
the app gets from Daphne, the same answer on the wire, the connection kept as Twisted keeps it;
anything out of the ordinary read the stock way."""

import asyncio
import logging

import pytest
from daphne.http_protocol import HTTPFactory
from twisted.internet.task import Clock
from twisted.internet.testing import StringTransport
from twisted.web import http

from bunco.runtime import posts

TAP = (b"POST /t/abc/roll/?x=1 HTTP/1.1\r\nHost: 192.168.1.20:8000\r\n"
       b"Content-Type: application/x-www-form-urlencoded\r\nX-CSRFToken: tok\r\n"
       b"Cookie: csrftoken=tok\r\nContent-Length: 11\r\n\r\nkey=1&pos=2")


class Server:
    """What of Daphne's server a channel reads."""

    proxy_forwarded_address_header = None
    root_path = ""
    server_name = "daphne"

    def __init__(self, app):
        self.application = app
        self.logged = []

    def log_action(self, protocol, action, details):
        self.logged.append((protocol, action, details))

    def protocol_connected(self, protocol):  # Daphne's request (the stock way) says so
        pass


def echo(seen):
    async def app(scope, receive, send):
        message = await receive()
        seen.append((scope, message["body"]))
        body = b"seen " + message["body"]
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"Content-Type", b"text/plain")]})
        await send({"type": "http.response.body", "body": body})
    return app


@pytest.fixture
def installed(monkeypatch):
    monkeypatch.setattr(http.HTTPChannel, "dataReceived", posts._stock_received)
    monkeypatch.setattr(http.HTTPChannel, "connectionLost", posts._stock_lost)
    assert posts.install(100_000)


def connect(app):
    server = Server(app)
    channel = HTTPFactory(server).buildProtocol(None)
    channel.callLater = Clock().callLater
    transport = StringTransport()
    channel.makeConnection(transport)
    return server, channel, transport


async def answered(transport, count=1):
    for _ in range(1000):
        if transport.value().count(b"HTTP/1.1 ") >= count:
            return transport.value()
        await asyncio.sleep(0)
    raise AssertionError(f"no answer: {transport.value()!r}")


def test_a_whole_post_reaches_the_app_as_daphne_would_hand_it(installed):
    async def run():
        seen = []
        server, channel, transport = connect(echo(seen))
        channel.dataReceived(TAP)
        out = await answered(transport)
        assert not channel._channel.requests  # Twisted made no request of it
        scope, body = seen[0]
        assert body == b"key=1&pos=2"
        assert scope == {
            "type": "http", "http_version": "1.1", "method": "POST", "path": "/t/abc/roll/",
            "raw_path": b"/t/abc/roll/", "root_path": "", "scheme": "http",
            "query_string": b"x=1", "client": ["192.168.1.1", 54321],
            "server": ["10.0.0.1", 12345], "asgi": {"version": "3.0"},
            "headers": [(b"host", b"192.168.1.20:8000"),
                        (b"content-type", b"application/x-www-form-urlencoded"),
                        (b"x-csrftoken", b"tok"), (b"cookie", b"csrftoken=tok"),
                        (b"content-length", b"11")]}
        assert out == (b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nServer: daphne\r\n"
                       b"Content-Length: 16\r\n\r\nseen key=1&pos=2")
        assert server.logged[0][2]["status"] == 200
        assert server.logged[0][2]["path"] == "/t/abc/roll/?x=1"
        transport.clear()
        channel.dataReceived(TAP)  # the same connection takes the next tap
        assert (await answered(transport)).endswith(b"seen key=1&pos=2")
        assert len(seen) == 2 and transport.connected
    asyncio.run(run())


def test_a_body_that_comes_after_its_headers_is_waited_for(installed):
    async def run():
        seen = []
        _, channel, transport = connect(echo(seen))
        head, body = TAP.split(b"\r\n\r\n")
        channel.dataReceived(head + b"\r\n\r\n")
        channel.dataReceived(body[:4])
        await asyncio.sleep(0)
        assert transport.value() == b"" and not seen
        channel.dataReceived(body[4:])
        assert (await answered(transport)).endswith(b"seen key=1&pos=2")
    asyncio.run(run())


def test_two_posts_in_one_read_are_answered_in_order(installed):
    async def run():
        seen = []
        _, channel, transport = connect(echo(seen))
        second = TAP.replace(b"key=1&pos=2", b"key=2&pos=3")
        channel.dataReceived(TAP + second)
        out = await answered(transport, 2)
        assert out.index(b"seen key=1") < out.index(b"seen key=2")
        assert [body for _, body in seen] == [b"key=1&pos=2", b"key=2&pos=3"]
    asyncio.run(run())


def test_a_client_that_says_close_is_answered_then_closed(installed):
    async def run():
        _, channel, transport = connect(echo([]))
        channel.dataReceived(TAP.replace(b"X-CSRFToken", b"Connection: close\r\nX-CSRFToken"))
        out = await answered(transport)
        assert b"Connection: close\r\n" in out and transport.disconnecting
    asyncio.run(run())


@pytest.mark.parametrize("odd", [
    TAP.replace(b"Content-Length: 11", b"Transfer-Encoding: chunked"),
    TAP.replace(b"X-CSRFToken: tok", b"Expect: 100-continue"),
    TAP.replace(b"HTTP/1.1", b"HTTP/1.0"),
    TAP.replace(b"POST", b"GET", 1),
    TAP.replace(b"X-CSRFToken", b"X CSRFToken"),  # not a header name
    TAP.replace(b"Content-Length: 11", b"Content-Length: 11\r\nContent-Length: 11"),
    TAP.replace(b"Content-Length: 11", b"Content-Length: 200000"),  # past the body limit
    TAP.replace(b"Content-Length: 11", b"Content-Length: 9000"),  # no tap's, read in pieces
    TAP.replace(b"/t/abc/", "/t/\u00e9/".encode()),
])
def test_anything_out_of_the_ordinary_is_read_the_stock_way(installed, monkeypatch, odd):
    stock = []
    monkeypatch.setattr(posts, "_stock_received", lambda channel, data: stock.append(data))

    async def run():
        seen = []
        _, channel, _ = connect(echo(seen))
        channel.dataReceived(odd)
        await asyncio.sleep(0)
        assert not seen and stock == [odd]
    asyncio.run(run())


async def broken(scope, receive, send):
    await receive()
    raise RuntimeError("a bug")


async def silent(scope, receive, send):
    await receive()


@pytest.mark.parametrize(("app", "logged"), [
    (broken, "a bug"), (silent, "ended without answering /t/abc/roll/")])
def test_an_app_that_fails_or_says_nothing_gets_daphnes_500(installed, caplog, app, logged):
    async def run():
        _, channel, transport = connect(app)
        with caplog.at_level(logging.ERROR, logger=posts.__name__):
            channel.dataReceived(TAP)
            out = await answered(transport)
        assert out.startswith(b"HTTP/1.1 500 Internal Server Error\r\n")
        assert b"Exception inside application." in out
        assert logged in caplog.text
        transport.clear()
        channel.dataReceived(TAP)  # the connection still takes the next one
        assert (await answered(transport)).startswith(b"HTTP/1.1 500")
    asyncio.run(run())


def test_a_client_gone_before_its_answer_is_written_nothing(installed):
    async def run():
        release = asyncio.Event()
        told = []

        async def slow(scope, receive, send):
            await receive()
            await release.wait()
            told.append(await receive())  # the app asks: the client is gone
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b"late"})

        _, channel, transport = connect(slow)
        channel.dataReceived(TAP)
        await asyncio.sleep(0)
        channel._channel.connectionLost(None)
        transport.loseConnection()
        release.set()
        for _ in range(50):
            await asyncio.sleep(0)
        assert told == [{"type": "http.disconnect"}]
        assert transport.value() == b""
    asyncio.run(run())


def test_a_twisted_without_what_it_leans_on_reads_the_stock_way(monkeypatch, caplog):
    monkeypatch.setattr(http.HTTPChannel, "dataReceived", posts._stock_received)
    monkeypatch.setattr(http.HTTPChannel, "connectionLost", posts._stock_lost)
    monkeypatch.delattr(http.HTTPChannel, "_handlingRequest", raising=False)
    monkeypatch.setattr(http.HTTPChannel, "__init__", lambda self: None)
    with caplog.at_level(logging.WARNING, logger=posts.__name__):
        assert not posts.install(100_000)
    assert http.HTTPChannel.dataReceived is posts._stock_received
    assert "_handlingRequest" in caplog.text
