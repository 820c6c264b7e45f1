"""The garbage collector kept from pausing the party (bunco/runtime/collector.py): what is alive is
frozen out of the collector's walks, and garbage among it is still freed in the end."""

import asyncio
import gc
import weakref

import pytest

from bunco.runtime import collector as collector_module
from bunco.runtime.collector import Collector
from tests.waiting import until


class Node:
    """An object in a reference cycle: only the cycle collector frees it."""

    def __init__(self):
        self.me = self


@pytest.fixture
def thawed():
    yield
    gc.unfreeze()


def test_what_is_alive_is_frozen_out_of_the_collectors_walks(thawed, monkeypatch):
    monkeypatch.setattr(collector_module, "COUNT_EVERY", 10**9)
    kept = [Node() for _ in range(1000)]
    before = gc.get_freeze_count()
    Collector().step()
    assert gc.get_freeze_count() >= before + len(kept)
    # An automatic collection now walks only what is new: the thousand kept objects are not
    # among the objects the oldest generation holds.
    tracked = {id(o) for o in gc.get_objects(generation=2)}
    assert not any(id(o) in tracked for o in kept)


def test_a_cycle_dropped_after_being_frozen_waits_for_the_full_collection(thawed, monkeypatch):
    monkeypatch.setattr(collector_module, "COUNT_EVERY", 1)
    c = Collector()
    c.kept = 10**9  # far from doubling: no full collection
    node = Node()
    gone = weakref.ref(node)
    c.step()
    del node
    gc.collect()
    assert gone() is not None  # frozen: an ordinary collection does not see it
    assert c.full == 0
    c.kept = 1  # the frozen objects have more than doubled since the last full collection
    c.step()
    assert c.full == 1
    assert gone() is None  # freed
    assert c.kept > 1  # what is alive now is the new measure


def test_garbage_made_between_freezes_is_collected_as_usual(thawed, monkeypatch):
    monkeypatch.setattr(collector_module, "COUNT_EVERY", 10**9)
    Collector().step()
    node = Node()
    gone = weakref.ref(node)
    del node
    gc.collect()
    assert gone() is None


class Timer:
    def __init__(self, callback):
        self.callback, self.cancelled = callback, False

    def cancel(self):
        self.cancelled = True


class Loop:
    """An event loop's timers, fired by the test: how many the collector keeps, not how fast
    a machine runs them."""

    def __init__(self):
        self.timers: list[Timer] = []

    def call_later(self, delay, callback):
        assert delay == collector_module.EVERY
        self.timers.append(Timer(callback))
        return self.timers[-1]

    def live(self) -> list[Timer]:
        return [timer for timer in self.timers if not timer.cancelled]

    def fire(self) -> None:
        (timer,) = self.live()
        self.timers.remove(timer)
        timer.callback()

    def is_closed(self):
        return False


def test_the_server_loop_freezes_every_so_often(thawed, monkeypatch):
    monkeypatch.setattr(collector_module, "COUNT_EVERY", 10**9)
    c, loop = Collector(), Loop()
    c.start(loop)
    c.start(loop)  # a second socket on the same loop: one timer
    assert c.full == 1 and len(loop.live()) == 1  # a full collection once, at the start
    for ticks in (1, 2, 3):
        loop.fire()
        assert c.ticks == ticks and len(loop.live()) == 1  # each freeze sets the next
    later = Loop()
    c.start(later)  # a new loop takes over
    assert loop.live() == [] and len(later.live()) == 1
    later.fire()
    assert c.ticks == 4 and c.full == 1


def test_the_collectors_timer_runs_on_a_real_loop(thawed, monkeypatch):
    monkeypatch.setattr(collector_module, "EVERY", 0.01)
    monkeypatch.setattr(collector_module, "COUNT_EVERY", 10**9)
    c = Collector()

    async def serve():
        c.start(asyncio.get_running_loop())
        await until(lambda: c.ticks >= 3)

    asyncio.run(serve())
    assert c.full == 1
