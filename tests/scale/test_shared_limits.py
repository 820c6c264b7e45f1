"""The guessing limits, each link's allowance and a flooding link's time out hold for every
worker together, counted in the channel layer's Redis (``bunco/limits.py``); a Redis that
does not answer leaves each worker counting alone, never refusing a guest for it."""

from __future__ import annotations

import time

from bunco import buckets, limits, shared_counts


def fresh_window(window: float) -> None:
    if time.time() % window > window - 3:
        time.sleep(window - time.time() % window + 0.05)


def test_two_workers_share_one_allowance(shared_stack):
    # Two processes' buckets of the same name: what one counts, the other sees.
    first = buckets.Buckets(rate=0.5, burst=10, name="test-shared")
    second = buckets.Buckets(rate=0.5, burst=10, name="test-shared")
    first.clear()
    fresh_window(first.window)
    allowed = [(first if i % 2 else second).take("203.0.113.9") for i in range(30)]
    assert allowed == [True] * 10 + [False] * 20
    assert not first.has_room("203.0.113.9") and not second.has_room("203.0.113.9")
    assert first.take("203.0.113.10")  # another client has its own
    first.clear()


def test_a_link_cut_off_on_one_worker_is_cut_off_on_the_other(shared_stack):
    limits.clear_penalties()
    limits.penalise("/ws/table/flooder/")
    limits._penalties.clear()  # the other worker's memory: nothing of it
    assert limits.penalised("/ws/table/flooder/")
    assert not limits.penalised("/ws/table/honest/")
    limits.clear_penalties()


def test_a_redis_that_does_not_answer_leaves_each_worker_counting_alone(shared_stack,
                                                                        monkeypatch, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    monkeypatch.setattr(shared_counts, "SHARED", shared_counts.Shared())
    alone = buckets.Buckets(rate=0.5, burst=10, name="test-down")
    start = time.monotonic()
    assert [alone.take("x") for _ in range(12)] == [True] * 10 + [False] * 2
    assert time.monotonic() - start < 1  # one failed call, then it rests
