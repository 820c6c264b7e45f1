"""The server keeps one process's screens current without their syncing on a timer
(``bunco/live/watch.py``, on ``bunco/runtime/watch.py``'s timer): what another process wrote,
and a push that failed, bring a request to sync; a quiet screen still hears from the server,
so its page can tell a dead socket. With the looks left stock the pages sync every 10 s."""

import asyncio
import copy

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from bunco import clock, limits
from bunco.live import broadcast, groups, sync
from bunco.live.consumers import ScreenConsumer
from bunco.night.cache import folds
from bunco.runtime import layers, pushes
from bunco.runtime.watch import watch
from tests.playing import roll
from tests.screens import PATIENCE

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
        m.setattr(pushes, "push", lambda frames: None)
        m.setattr(broadcast, "timeline", sync.Pushes())  # nothing pushed here
        roll(night, table, quick="hit1")
    folds.put(night.pk, before)


@pytest.fixture
def held():
    """The server's clock, held: the watch looks, and a screen goes quiet, only when the test
    moves it on (``a_round``), however busy the machine is."""
    with clock.use(clock.HeldClock()) as held:
        yield held


async def a_round(held, seconds: float) -> None:
    """Move the server's clock on by ``seconds`` and run the watch's round at that time (a
    round its own timer runs meanwhile finds nothing more to do at the same time)."""
    held.advance(seconds)
    while watch.busy:  # a round of its own timer's: let it end first
        await asyncio.sleep(0)
    watch.busy = True
    await watch.round()


async def until(happened) -> None:
    """Wait for ``happened()`` to be true, an event on the server's loop."""
    async with asyncio.timeout(PATIENCE):
        while not happened():
            await asyncio.sleep(0.01)


SYNC_ASKED = '{"type": "sync"}'


@pytest.mark.tuned("watch")
async def test_a_roll_another_process_wrote_reaches_a_screen_without_its_asking(
        settings, monkeypatch, one_process, held):
    settings.BUNCO_WATCH_EVERY = 0.5
    # No push of this process counts as failed on a busy machine (a failed one has every screen
    # asked at the next look, which is not what is tested here).
    settings.PUSH_WAIT = 60
    night, links, _ = await database_sync_to_async(make_night)()
    held.advance(sync.POLICY.settle_seconds)  # this process's pushes all out
    ws = await connect(f"/ws/table/{links[1]}/")
    first = shows(await ws.receive_from())
    await a_round(held, 0.5)
    assert await ws.told_nothing()  # nothing new: the server asks nothing
    await database_sync_to_async(written_elsewhere)(night, 1, monkeypatch)
    await a_round(held, 0.5)
    assert await ws.receive_from(timeout=10) == SYNC_ASKED
    await ws.send_json_to({"type": "sync", "shows": first})
    now = await ws.receive_from(timeout=10)
    assert score_of(now, 1) == [1, 0]
    # asked once more at the next look (in case a push of its own counted as on its way);
    # current now, the page's answer gets nothing, and it is not asked a third time
    await a_round(held, 0.5)
    assert await ws.receive_from(timeout=10) == SYNC_ASKED
    await ws.send_json_to({"type": "sync", "shows": {**first, **shows(now)}})
    assert await ws.told_nothing()
    await a_round(held, 0.5)
    assert await ws.told_nothing()
    await ws.disconnect()


@pytest.mark.tuned("watch")
async def test_a_roll_written_elsewhere_just_after_one_pushed_here_still_arrives(
        settings, monkeypatch, one_process, held):
    """The first request comes while this process's own push is counted as on its way (its
    screens are not sent the room again for what they will get anyway); the second, a look
    later, once that push has settled, finds the screen behind."""
    settings.BUNCO_WATCH_EVERY = 1.0
    monkeypatch.setattr(ScreenConsumer, "policy", sync.Policy(settle_seconds=2.0))
    night, links, _ = await database_sync_to_async(make_night)()
    ws = await connect(f"/ws/table/{links[1]}/")
    first = shows(await ws.receive_from())
    await database_sync_to_async(roll)(night, 1, quick="miss")  # pushed here, just now
    first = {**first, **shows(await ws.receive_from())}
    await database_sync_to_async(written_elsewhere)(night, 1, monkeypatch)
    await a_round(held, 1.0)  # the push here is a second old: maybe still on its way
    assert await ws.receive_from(timeout=10) == SYNC_ASKED
    await ws.send_json_to({"type": "sync", "shows": first})
    assert await ws.told_nothing()
    await a_round(held, 1.0)  # two seconds: settled, so the screen missed the other roll
    assert await ws.receive_from(timeout=10) == SYNC_ASKED
    await ws.send_json_to({"type": "sync", "shows": first})
    assert score_of(await ws.receive_from(timeout=10), 1) == [0, 1]  # the miss passed the dice
    await ws.disconnect()


async def test_a_push_that_failed_on_its_way_makes_the_server_ask_its_screens(monkeypatch, held):
    night, links, _ = await database_sync_to_async(make_night)()
    ws = await connect(f"/ws/table/{links[1]}/")
    first = shows(await ws.receive_from())
    layer = get_channel_layer()

    async def failing(group, message):
        raise RuntimeError("a push that broke")

    monkeypatch.setattr(layer, "group_send", failing)
    await database_sync_to_async(roll)(night, 1, quick="hit1")
    await until(lambda: watch.doubted)  # the push failed on its way, after the commit
    monkeypatch.undo()
    await a_round(held, sync.POLICY.settle_seconds)  # what was pushed has had its time
    assert await ws.receive_json_from(timeout=10) == {"type": "sync"}
    await ws.send_json_to({"type": "sync", "shows": first})
    assert score_of(await ws.receive_from(), 1) == [1, 0]
    await ws.disconnect()


async def test_a_quiet_screen_hears_from_the_server_and_a_busy_one_needs_not(monkeypatch, held):
    monkeypatch.setattr(limits, "HEARD_EVERY", 6)
    night, links, _ = await database_sync_to_async(make_night)()
    quiet = await connect(f"/ws/table/{links[2]}/")
    busy = await connect(f"/ws/table/{links[1]}/")
    await quiet.receive_from()
    await busy.receive_from()
    await a_round(held, 4)
    assert await quiet.told_nothing()  # not before it has been quiet a while
    await database_sync_to_async(roll)(night, 1, quick="miss")  # table 1 has news
    assert "table-1" in await busy.receive_from()
    await a_round(held, 2)  # six seconds since the quiet screen heard anything
    assert await quiet.receive_json_from(timeout=10) == {"type": "here"}
    assert await busy.told_nothing()  # two since the busy one did
    await a_round(held, 4)
    assert await busy.receive_json_from(timeout=10) == {"type": "here"}  # quiet now in turn
    assert await quiet.told_nothing()  # heard four seconds ago
    await quiet.disconnect()
    await busy.disconnect()
