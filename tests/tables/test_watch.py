"""The server keeps one process's screens current without their syncing on a timer
(``bunco/live/watch.py``, on ``bunco/runtime/watch.py``'s timer): what another process wrote,
and a push that failed, bring a request to sync; a quiet screen still hears from the server,
so its page can tell a dead socket. With the looks left stock the pages sync every 10 s."""

import asyncio
import copy
import time

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from bunco import limits
from bunco.live import broadcast, groups
from bunco.night.selectors import folds
from bunco.runtime import layers
from tests.playing import roll

from .test_consumers import connect, make_night, score_of, shows

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def one_process(monkeypatch):
    """The look at the logs is one process's (on PostgreSQL too: ``make test-scale`` runs these
    with Redis as the layer, whose workers' pages sync on a timer instead)."""
    monkeypatch.setattr(groups, "shared_layer", lambda: False)
    monkeypatch.setattr(layers, "shared_layer", lambda: False)  # the server's timer's


def written_elsewhere(night, table, monkeypatch):
    """A roll as another process makes it (a command): in the log, but this process's fold
    stays as it was and nothing is pushed."""
    before = copy.deepcopy(folds.get(night.pk))
    with monkeypatch.context() as m:
        m.setattr(broadcast, "send", lambda frames: None)
        m.setattr(broadcast, "pushed", lambda night_id, seq: None)
        roll(night, table, quick="hit1")
    folds.put(night.pk, before)


async def answer_until_drawn(ws, shown: dict, seconds: float = 4.0) -> tuple[str, int]:
    """Answer each of the server's requests to sync as the page does (with ``shown``) until a
    snapshot comes: it, and how many requests it took."""
    asked = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        text = await ws.receive_from(timeout=deadline - time.monotonic())
        if text != '{"type": "sync"}':
            return text, asked
        asked += 1
        await ws.send_json_to({"type": "sync", "shows": shown})
    raise AssertionError(f"no snapshot after {asked} requests to sync")


@pytest.mark.tuned("watch")
async def test_a_roll_another_process_wrote_reaches_a_screen_without_its_asking(
        settings, monkeypatch, one_process):
    settings.BUNCO_WATCH_EVERY = 0.3
    monkeypatch.setattr(broadcast, "SETTLE_SECONDS", 0)  # this process's pushes all out
    night, links, _ = await database_sync_to_async(make_night)()
    ws = await connect(f"/ws/table/{links[1]}/")
    first = shows(await ws.receive_from())
    assert await ws.receive_nothing(timeout=0.8)  # nothing new: the server asks nothing
    await database_sync_to_async(written_elsewhere)(night, 1, monkeypatch)
    now, asked = await answer_until_drawn(ws, first)
    assert score_of(now, 1) == [1, 0]
    # asked once more at the next look (in case a push of its own counted as on its way);
    # current now, the page's answer gets nothing, and it is not asked a third time
    while asked < 2:
        assert await ws.receive_from(timeout=3) == '{"type": "sync"}'
        asked += 1
        await ws.send_json_to({"type": "sync", "shows": {**first, **shows(now)}})
    assert await ws.receive_nothing(timeout=1.0)
    await ws.disconnect()


@pytest.mark.tuned("watch")
async def test_a_roll_written_elsewhere_just_after_one_pushed_here_still_arrives(
        settings, monkeypatch, one_process):
    """The first request comes while this process's own push is counted as on its way (its
    screens are not sent the room again for what they will get anyway); the second, a look
    later, finds the screen behind."""
    settings.BUNCO_WATCH_EVERY = 1.0
    monkeypatch.setattr(broadcast, "SETTLE_SECONDS", 0.8)
    night, links, _ = await database_sync_to_async(make_night)()
    ws = await connect(f"/ws/table/{links[1]}/")
    first = shows(await ws.receive_from())
    await database_sync_to_async(roll)(night, 1, quick="miss")  # pushed here, just now
    first = {**first, **shows(await ws.receive_from())}
    await database_sync_to_async(written_elsewhere)(night, 1, monkeypatch)
    now, asked = await answer_until_drawn(ws, first)
    assert score_of(now, 1) == [0, 1] and asked <= 2  # the miss passed the dice across
    await ws.disconnect()


async def test_a_push_that_failed_on_its_way_makes_the_server_ask_its_screens(monkeypatch):
    night, links, _ = await database_sync_to_async(make_night)()
    ws = await connect(f"/ws/table/{links[1]}/")
    first = shows(await ws.receive_from())
    layer = get_channel_layer()

    async def failing(group, message):
        raise RuntimeError("a push that broke")

    monkeypatch.setattr(layer, "group_send", failing)
    await database_sync_to_async(roll)(night, 1, quick="hit1")
    monkeypatch.undo()
    assert await ws.receive_json_from(timeout=8) == {"type": "sync"}
    await ws.send_json_to({"type": "sync", "shows": first})
    assert score_of(await ws.receive_from(), 1) == [1, 0]
    await ws.disconnect()


async def test_a_quiet_screen_hears_from_the_server_and_a_busy_one_needs_not(monkeypatch):
    monkeypatch.setattr(limits, "HEARD_EVERY", 0.6)
    night, links, _ = await database_sync_to_async(make_night)()
    quiet = await connect(f"/ws/table/{links[2]}/")
    busy = await connect(f"/ws/table/{links[1]}/")
    await quiet.receive_from()
    await busy.receive_from()
    assert await quiet.receive_nothing(timeout=0.4)  # not before it has been quiet a while
    for _ in range(8):  # table 1 rolls every ~0.2 s: its screen always has news, nothing else
        await database_sync_to_async(roll)(night, 1, quick="miss")
        assert "table-1" in await busy.receive_from()
        await asyncio.sleep(0.15)
    assert await quiet.receive_json_from(timeout=2) == {"type": "here"}
    assert await busy.receive_json_from(timeout=2) == {"type": "here"}  # quiet now in turn
    await quiet.disconnect()
    await busy.disconnect()
