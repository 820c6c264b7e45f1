"""Websockets: the origin-checked router and the ping consumer."""

import pytest
from channels.testing import WebsocketCommunicator

from bunco.asgi import application

# Every consumer call checks its database connection on the way in and out (Channels closes
# stale ones), so even the ping needs the database allowed.
pytestmark = pytest.mark.django_db


async def test_a_screen_on_an_allowed_origin_connects_and_gets_a_pong():
    ws = WebsocketCommunicator(application, "/ws/ping/", headers=[(b"origin", b"http://localhost")])
    connected, _ = await ws.connect()
    assert connected
    await ws.send_json_to({"type": "ping"})
    assert await ws.receive_json_from() == {"type": "pong"}
    await ws.send_json_to({"type": "shout"})
    assert (await ws.receive_json_from())["type"] == "error"
    assert await ws.receive_nothing()
    await ws.disconnect()


async def test_a_page_from_another_origin_is_refused():
    ws = WebsocketCommunicator(
        application, "/ws/ping/", headers=[(b"origin", b"http://evil.example")]
    )
    connected, _ = await ws.connect()
    assert not connected
    await ws.disconnect()
