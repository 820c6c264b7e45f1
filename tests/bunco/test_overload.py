"""A server that is behind answers taps "busy, kept and sent again" at once instead of queueing
them; pages and the host's posts (the bell) still go through. And a screen that falls behind
for a moment loses no frame."""

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async
from asgiref.testing import ApplicationCommunicator

from bunco import asgi, limits
from bunco.live import broadcast
from bunco.runtime import door, pushes
from bunco.runtime.layer import PartyChannelLayer
from tests.asgi_http import asgi_request
from tests.waiting import until

# A request that reaches Django closes its database connection when it ends.
pytestmark = pytest.mark.django_db(transaction=True)


async def post(path: str) -> tuple[int, dict | None]:
    status, body = await asgi_request(asgi.application, "POST", path)
    try:
        answer = json.loads(body)
    except ValueError:
        answer = None
    return status, answer


def record_pushes(monkeypatch, record, pause: float = 0.0) -> None:
    """The server's pushes handed to ``record(group, message)`` instead of any screen, each
    taking ``pause`` seconds (a socket being written: the test's input, not a wait)."""

    class Layer:
        async def group_send(self, group, message):
            record(group, message)
            if pause:
                await asyncio.sleep(pause)

    monkeypatch.setattr(pushes, "get_channel_layer", Layer)


@pytest.fixture
def behind(monkeypatch):
    monkeypatch.setattr(door.PartyASGIHandler, "in_flight", limits.SERVER_QUEUE)


async def test_a_tap_posted_while_the_server_is_behind_is_answered_busy_and_kept(behind):
    for path in ("/t/sometoken/roll/", "/p/sometoken/undo/", "/t/sometoken/finish/"):
        status, answer = await post(path)
        assert status == 429
        assert answer == limits.SERVER_BUSY and answer["retry"] is True


async def test_the_hosts_posts_are_not_turned_away_while_the_server_is_behind(behind):
    status, _ = await post("/host/nights/1/bell/")
    assert status != 429  # it reaches Django (here: refused for its missing CSRF token)


async def test_a_tap_goes_through_when_the_server_keeps_up():
    assert door.PartyASGIHandler.in_flight == 0
    status, _ = await post("/t/sometoken/roll/")
    assert status != 429
    assert door.PartyASGIHandler.in_flight == 0  # counted out again


async def test_a_link_over_its_share_is_told_to_slow_down_late_and_without_django(
        monkeypatch):
    """A script posting flat out on one link: past the link's burst, each answer is "slow
    down", a second late, and no view runs for it; another link's tap goes through."""
    from tables import posts as views

    monkeypatch.setattr(limits, "REFUSE_AFTER", 0.3)
    ran = []
    real = views.table_tap
    monkeypatch.setattr(views, "table_tap", lambda *a, **k: ran.append(1) or real(*a, **k))
    for _ in range(int(limits.TAPS.burst)):
        assert limits.TAPS.take("flooded")
    loop = asyncio.get_running_loop()
    start = loop.time()
    status, answer = await post("/t/flooded/roll/")
    assert status == 429 and answer == limits.RETRY_LATER
    assert loop.time() - start >= 0.3
    assert door.PartyASGIHandler.in_flight == 0  # a refused tap holds no place in the queue
    status, _ = await post("/t/another/roll/")
    assert status != 429


async def test_pages_in_flight_never_make_a_tap_busy(monkeypatch):
    """Twenty-four page loads (and their static files) waiting on the server leave a tap's
    place in the queue alone: only taps are counted."""
    gate = asyncio.Event()
    handle = door.PartyASGIHandler.handle

    waiting = []

    async def slow_page(self, scope, receive, send):
        if scope["method"] == "GET":
            waiting.append(scope["path"])
            await gate.wait()
        await handle(self, scope, receive, send)

    monkeypatch.setattr(door.PartyASGIHandler, "handle", slow_page)

    async def get(path):
        scope = {"type": "http", "method": "GET", "path": path, "raw_path": path.encode(),
                 "query_string": b"", "headers": [(b"host", b"127.0.0.1")],
                 "http_version": "1.1", "scheme": "http", "server": ("127.0.0.1", 80),
                 "client": ("127.0.0.1", 5000)}
        talk = ApplicationCommunicator(asgi.application, scope)
        await talk.send_input({"type": "http.request", "body": b"", "more_body": False})
        return talk

    pages = [await get("/static/bunco/live.js") for _ in range(limits.SERVER_QUEUE + 6)]
    await until(lambda: len(waiting) == len(pages))  # every page on the server, waiting
    status, answer = await post("/t/sometoken/roll/")
    assert status != 429, answer
    gate.set()
    for talk in pages:
        await talk.receive_output(10)
        await talk.send_input({"type": "http.disconnect"})
        await talk.wait(10)


async def test_a_screen_behind_by_hundreds_of_messages_loses_none():
    layer = PartyChannelLayer()
    channel = await layer.new_channel()
    await layer.group_add("tv_1", channel)
    for seq in range(500):  # a TV that did not read for ten seconds at 50 taps a second
        await layer.group_send("tv_1", {"type": "screen.update", "seq": seq})
    got = [(await layer.receive(channel))["seq"] for _ in range(500)]
    assert got == list(range(500))


async def test_a_commands_pushes_are_out_in_order_before_its_thread_goes_on(monkeypatch):
    sent: list[int] = []

    record_pushes(monkeypatch, lambda group, message: sent.append(message["seq"]), pause=0.001)
    pushes.serve_on(asyncio.get_running_loop())

    def commit_three():  # on the sync thread, as a command's commit does
        seen = []
        for seq in (1, 2, 3):
            out = broadcast.Frames()
            out.add("table_9_1", seq, f"<p>{seq}</p>")
            pushes.push(out)
            seen.append(list(sent))
        return seen

    assert await sync_to_async(commit_three)() == [[1], [1, 2], [1, 2, 3]]


async def test_a_room_wide_events_tables_are_drawn_once_every_screen_has_its_banner(
        monkeypatch):
    """A bell: its banner goes to 100 tables, the TV and the host before the thread that rang
    it draws a single table (drawing meanwhile would slow the banners down), then the tables."""
    sent: list[tuple[str, str]] = []

    record_pushes(monkeypatch, lambda group, message: sent.append((group, message["html"])),
                  pause=0.001)
    pushes.serve_on(asyncio.get_running_loop())
    bell = broadcast.Frames()
    screens = [f"table_1_{n}" for n in range(1, 101)] + ["tv_1", "host_1"]
    for group in screens:
        bell.add(group, 10, "banner")
    drawn_after = []

    def tables():
        drawn_after.append(len(sent))
        out = broadcast.Frames()
        for group in screens:
            out.add(group, 10, "tables")
        return out

    bell.rest = tables
    await sync_to_async(pushes.push)(bell)  # on the sync thread, as the bell's commit does
    await until(lambda: len(sent) >= 2 * len(screens))
    assert drawn_after == [len(screens)]
    assert [html for _, html in sent] == ["banner"] * 102 + ["tables"] * 102


async def test_a_tv_behind_catches_up_with_each_tables_latest_tally_in_order():
    layer = PartyChannelLayer()
    channel = await layer.new_channel()
    await layer.group_add("tv_1", channel)
    # 600 taps at 5 tables while the TV read nothing; a room-wide frame in the middle.
    for seq in range(1, 601):
        table = seq % 5 + 1
        await layer.group_send("tv_1", {"type": "screen.update", "seq": seq,
                                        "html": f"table {table} at {seq}",
                                        "replaces": f"table-{table}"})
        if seq == 300:
            await layer.group_send("tv_1", {"type": "screen.update", "seq": seq,
                                            "html": "the bell"})
    got = []
    while True:
        try:
            got.append((await asyncio.wait_for(layer.receive(channel), 0.05))["html"])
        except TimeoutError:
            break
    # Each table once, at its latest tap, where its first waiting tally stood; the bell kept.
    assert got == ["table 2 at 596", "table 3 at 597", "table 4 at 598", "table 5 at 599",
                   "table 1 at 600", "the bell"]
    # Once read, the next tally of a table queues again.
    await layer.group_send("tv_1", {"type": "screen.update", "seq": 601, "html": "table 2 at 601",
                                    "replaces": "table-2"})
    assert (await layer.receive(channel))["html"] == "table 2 at 601"


async def test_a_screen_taking_pushes_directly_still_has_a_tvs_tallies_coalesced():
    """A consumer that takes its pushes directly gets each at once, written to its socket; a
    table's tally for a TV or the host still waits in the queue, where a screen too slow to
    read every tap gets the table's latest."""
    layer = PartyChannelLayer()
    channel = await layer.new_channel()
    await layer.group_add("tv_1", channel)
    written = []

    async def write(message):
        written.append(message["html"])

    layer.direct(channel, write)
    await layer.group_send("tv_1", {"type": "screen.update", "seq": 1, "html": "the bell"})
    assert written == ["the bell"]
    for seq in (2, 3):
        await layer.group_send("tv_1", {"type": "screen.update", "seq": seq,
                                        "html": f"table 1 at {seq}", "replaces": "table-1"})
    assert written == ["the bell"]
    assert (await layer.receive(channel))["html"] == "table 1 at 3"
    layer.direct(channel, None)  # the screen gone: its pushes queue again
    await layer.group_send("tv_1", {"type": "screen.update", "seq": 4, "html": "the bell"})
    assert written == ["the bell"] and (await layer.receive(channel))["html"] == "the bell"
    await layer.group_discard("tv_1", channel)


async def test_a_channels_without_what_the_party_layer_leans_on_runs_as_channels_own(
        monkeypatch, caplog):
    """A renamed internal upstream: one warning, and every push still arrives (queued and
    read as Channels' own layer does), never a broken push."""
    import logging

    from bunco.runtime import layer as layer_module

    monkeypatch.setattr(layer_module, "LEANS_ON", (*layer_module.LEANS_ON, "_renamed_upstream"))
    monkeypatch.setattr(layer_module, "_warned", False)
    with caplog.at_level(logging.WARNING, logger=layer_module.__name__):
        layer = PartyChannelLayer()
        PartyChannelLayer()
    assert not layer.tuned and len(caplog.records) == 1
    got = []

    async def handler(message):
        got.append(message)

    channel = await layer.new_channel()
    layer.direct(channel, handler)  # ignored: the message is queued as Channels would
    await layer.group_add("tv", channel)
    for i in range(3):
        await layer.group_send("tv", {"type": "screen.update", "html": f"<p>{i}</p>",
                                      "replaces": "table-1"})
    assert got == []
    assert [(await layer.receive(channel))["html"] for _ in range(3)] == [
        "<p>0</p>", "<p>1</p>", "<p>2</p>"]


async def test_a_screens_queued_pushes_are_counted_as_on_their_way():
    """A TV behind on its tables' tallies has them waiting in its queue: a sync then is not
    answered with the whole room (``ScreenConsumer.verdict_here`` asks ``pending``)."""
    layer = PartyChannelLayer()
    channel = await layer.new_channel()
    await layer.group_add("tv", channel)
    assert layer.pending(channel) == 0
    for table in (1, 2, 1):  # table 1's second tally takes its first's place
        await layer.group_send("tv", {"type": "screen.update", "html": f"<p>{table}</p>",
                                      "replaces": f"table-{table}"})
    assert layer.pending(channel) == 2
    await layer.receive(channel)
    assert layer.pending(channel) == 1


async def test_a_hundred_taps_in_flight_from_one_link_never_make_another_links_tap_busy(
        monkeypatch):
    """A script with 100 taps in flight on one link: only LINK_QUEUE of them reach the
    server's queue at once and its share is taken at the door, so the rest are told to slow
    down and an honest table's tap meanwhile is never told "busy"."""
    monkeypatch.setattr(limits, "REFUSE_AFTER", 0.2)
    gate = asyncio.Event()
    handle = door.PartyASGIHandler.handle
    reached = []

    async def slow_tap(self, scope, receive, send):
        if "/flood/" in scope["path"]:
            reached.append(1)
            await gate.wait()
        await handle(self, scope, receive, send)

    monkeypatch.setattr(door.PartyASGIHandler, "handle", slow_tap)
    flood = [asyncio.create_task(post("/t/flood/roll/")) for _ in range(100)]
    await until(lambda: door.PartyASGIHandler.in_flight == limits.LINK_QUEUE)
    assert 1 <= len(reached) <= limits.LINK_QUEUE
    assert door.PartyASGIHandler.in_flight == limits.LINK_QUEUE
    honest = asyncio.create_task(post("/t/honest/roll/"))  # queued behind at most 4 taps
    # on its way to the view (not told "busy", which would end it with a 429 below)
    await until(lambda: honest.done() or door.PartyASGIHandler.in_flight == limits.LINK_QUEUE + 1)
    gate.set()
    status, answer = await honest
    assert status != 429, answer  # it reached the view (here: an unknown link)
    answers = [status for status, _ in await asyncio.gather(*flood)]
    assert answers.count(429) == 100 - limits.LINK_QUEUE
    assert door.PartyASGIHandler.in_flight == 0 and door.PartyASGIHandler.per_link == {}


def test_a_link_refused_again_and_again_is_answered_later_still():
    """A phone told "slow down" waits before it sends again; a script does not. Past
    FLOODING refusals in FLOOD_WINDOW seconds a link's refusals come five seconds late, so
    its connections held open cost the server a few answers a second."""
    now = [100.0]
    delays = [limits.refuse_after("script", clock=lambda: now[0])
              for _ in range(limits.FLOODING + 3)]
    assert delays[:limits.FLOODING] == [limits.REFUSE_AFTER] * limits.FLOODING
    assert delays[limits.FLOODING:] == [limits.REFUSE_FLOOD_AFTER] * 3
    assert limits.refuse_after("a phone", clock=lambda: now[0]) == limits.REFUSE_AFTER
    now[0] += limits.FLOOD_WINDOW + 1  # a new window: a second again
    assert limits.refuse_after("script", clock=lambda: now[0]) == limits.REFUSE_AFTER
