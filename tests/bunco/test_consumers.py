"""Websockets: the same-origin check, the ping consumer, junk and floods from a screen."""

import asyncio
import json
import threading

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from bunco import limits
from bunco.asgi import application
from bunco.live import consumers, groups
from bunco.models import TableLink
from bunco.night import services
from tests.screens import PATIENCE, Screen

# Every consumer call checks its database connection on the way in and out (Channels closes
# stale ones), so even the ping needs the database allowed.
pytestmark = pytest.mark.django_db

PAGE = [(b"origin", b"http://192.168.1.20:8000"), (b"host", b"192.168.1.20:8000")]


@pytest.fixture(autouse=True)
def lan_address(settings):
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "192.168.1.20"]


async def test_a_screen_on_its_own_origin_connects_and_gets_a_pong():
    ws = Screen(application, "/ws/ping/", headers=PAGE)
    connected, _ = await ws.connect()
    assert connected
    await ws.send_json_to({"type": "ping"})
    assert await ws.receive_json_from() == {"type": "pong"}
    await ws.send_json_to({"type": "shout"})
    assert (await ws.receive_json_from())["type"] == "error"
    assert await ws.told_nothing()
    await ws.disconnect()


@pytest.mark.parametrize("origin, host", [
    (b"http://evil.example", b"192.168.1.20:8000"),          # another site
    (b"http://192.168.1.20:9000", b"192.168.1.20:8000"),     # another port on the same machine
    (b"https://192.168.1.20:8000", b"192.168.1.20:8000"),    # another scheme
    (b"http://evil.example:8000", b"evil.example:8000"),     # a host the app does not serve
    (b"null", b"192.168.1.20:8000"),                         # a sandboxed page
    (None, b"192.168.1.20:8000"),                            # no Origin at all
])
async def test_a_page_from_another_origin_is_refused(origin, host):
    headers = [(b"host", host)] + ([(b"origin", origin)] if origin else [])
    ws = Screen(application, "/ws/ping/", headers=headers)
    connected, _ = await ws.connect(timeout=5)  # refused a second late (limits.REFUSE_AFTER)
    assert not connected
    await ws.disconnect()


async def test_a_proxy_origin_the_host_trusts_connects(settings):
    settings.CSRF_TRUSTED_ORIGINS = ["https://bunco.example.org"]
    ws = Screen(application, "/ws/ping/", headers=[
        (b"origin", b"https://bunco.example.org"), (b"host", b"127.0.0.1:8000")])
    connected, _ = await ws.connect()
    assert connected
    await ws.disconnect()


JUNK = [
    "not json", "{", "[]", "null", "42", '"tap"', json.dumps({"type": None}),
    json.dumps({"type": ["sync"]}), json.dumps({"type": "sync", "shows": "x"}),
    json.dumps({"type": "sync", "shows": {"banner": "9" * 100}}),
    json.dumps({"type": "sync", "seq": {"a": 1}}),
    json.dumps({"type": "tap", "action": "roll", "fields": {"round": 1e308}}),
    json.dumps({"type": "tap", "action": ["roll"], "fields": []}),
    json.dumps({"type": "tap", "action": "roll", "fields": {"k": [1] * 20}}),
    json.dumps({"type": "tap", "action": "roll", "fields": {str(i): i for i in range(50)}}),
    "[" * 5000 + "]" * 5000,  # nested deeper than the parser goes
    "9" * 5000,               # a number longer than Python reads from text
    json.dumps({"type": "tap", "action": "roll", "fields": {"pos": "9" * 4301}}),
    "x" * (limits.WS_MAX_BYTES + 1),
]


def table_link():
    night = services.demo_night_create()
    services.round_start(night=night)
    return night, TableLink.objects.get(night=night, number=1)


async def table_screen(link: TableLink | None = None):
    """Table 1's device of a night in play (or another screen on ``link``), connected, its
    snapshot read."""
    if link is None:
        night, link = await database_sync_to_async(table_link)()
    else:
        night = link.night
    ws = Screen(application, f"/ws/table/{link.token}/", headers=[
        (b"origin", b"http://localhost"), (b"host", b"localhost")])
    assert (await ws.connect())[0]
    await ws.receive_from()  # the snapshot
    return night, ws


@pytest.mark.django_db(transaction=True)
async def test_junk_from_a_screen_gets_an_error_and_the_screen_stays_connected():
    night, ws = await table_screen()
    for text in JUNK:
        await ws.send_to(text_data=text)
        answer = await ws.receive_from()
        if answer.startswith("<"):  # a resync that made no sense gets the screen afresh
            assert 'id="banner"' in answer
            continue
        answer = json.loads(answer)
        assert answer["type"] in ("error", "ack"), text[:40]
        assert answer.get("error") or answer.get("message")
    await ws.send_to(bytes_data=b"\x00\x01binary")
    assert json.loads(await ws.receive_from())["type"] == "error"
    await ws.send_json_to({"type": "sync", "shows": {}})  # still connected and served
    assert await ws.told_nothing()
    rolls = await database_sync_to_async(lambda: night.events.filter(kind="roll").count())()
    assert rolls == 0
    await ws.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("element", ["table-" + "9" * 4301, "table-\u00b2"])
async def test_a_sync_naming_a_table_no_number_reads_as_is_answered_on(element):
    """A table's id past Python's 4,300 digits, or in a digit int() cannot read: the screen
    is served on (before, the consumer failed and the socket closed)."""
    _, ws = await table_screen()
    await ws.send_json_to({"type": "sync", "shows": {element: 1}})
    await ws.send_json_to({"type": "tap", "action": "roll", "fields": {"round": "x"}})
    answer = json.loads(await ws.receive_from())
    assert answer["type"] == "ack" and answer["refused"] is True
    await ws.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_flooding_screen_is_told_to_slow_down_then_closed(monkeypatch):
    # The bucket refills so slowly here that how fast this machine (or the database) serves
    # the burst makes no difference: a burst is served, the next message is not.
    monkeypatch.setattr(limits, "WS_RATE", 0.001)
    _, ws = await table_screen()
    for _ in range(limits.WS_BURST):  # a burst a real screen could make is served
        await ws.send_json_to({"type": "sync", "shows": {}})
    await ws.send_json_to({"type": "tap", "action": "roll", "fields": {"key": "k1"}})
    refused = await ws.receive_json_from()
    assert refused == {"type": "ack", "key": "k1", "status": 429, "ok": False, "retry": True,
                       "error": limits.SLOW_DOWN}
    for _ in range(limits.WS_STRIKES):
        await ws.send_json_to({"type": "sync", "shows": {}})
    output = None
    while output is None or output["type"] != "websocket.close":
        output = await ws.receive_output()
    assert output["code"] == 4429


@pytest.mark.django_db(transaction=True)
async def test_a_link_cut_off_for_flooding_cannot_reconnect_at_once():
    _, link = await database_sync_to_async(table_link)()
    path = f"/ws/table/{link.token}/"
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    limits.penalise(path)
    ws = Screen(application, path, headers=headers)
    assert not (await ws.connect(timeout=5))[0]  # refused, a second late
    limits.clear_penalties()  # the penalty over
    ws = Screen(application, path, headers=headers)
    assert (await ws.connect())[0]
    await ws.disconnect()


@pytest.mark.tuned("dispatch")
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("resyncing", [False, True])
async def test_a_push_reaches_its_screen_while_the_server_is_busy_with_a_tap(resyncing,
                                                                            monkeypatch):
    """Every tap and render runs on one sync thread; a push to a screen must not wait for it
    (a bell's pushes to 400 screens queued behind the taps made the last screen 0.4 s late),
    nor for the screen's own message its consumer is still answering (a resync that waits for
    that thread)."""
    if resyncing and not hasattr(get_channel_layer(), "direct"):
        pytest.skip("the party's layer only: on Redis a push waits in the consumer's queue")
    night, ws = await table_screen()
    started, release = threading.Event(), threading.Event()

    def long_command():  # holds the sync thread until the push has reached its screen
        started.set()
        release.wait(PATIENCE)

    busy = asyncio.ensure_future(sync_to_async(long_command)())
    await asyncio.to_thread(started.wait, PATIENCE)
    if resyncing:
        asked, real = asyncio.Event(), consumers.database_sync_to_async

        def noted(fn):
            if getattr(fn, "__name__", "") == "by_seq":
                asked.set()  # the consumer's answer waits for the sync thread now
            return real(fn)

        monkeypatch.setattr(consumers, "database_sync_to_async", noted)
        await ws.send_json_to({"type": "sync", "seq": 0})  # an old page, behind: a snapshot
        await asyncio.wait_for(asked.wait(), PATIENCE)
    await get_channel_layer().group_send(groups.table(night.pk, 1),
                                         {"type": "screen.update", "html": "<p>bell</p>"})
    assert await ws.receive_from() == "<p>bell</p>"  # while the thread is still held
    assert not busy.done()
    release.set()
    await busy
    if resyncing:
        assert 'id="table-1"' in await ws.receive_from()  # the resync's snapshot
    await ws.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_screen_gone_does_not_stop_a_push_to_the_others():
    night, first = await table_screen()
    link = await database_sync_to_async(
        lambda: TableLink.objects.select_related("night").get(night=night, number=1))()
    _, second = await table_screen(link)
    await first.disconnect()
    await get_channel_layer().group_send(groups.table(night.pk, 1),
                                         {"type": "screen.update", "html": "<p>bell</p>"})
    assert await second.receive_from(timeout=1) == "<p>bell</p>"
    await second.disconnect()
