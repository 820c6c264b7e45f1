"""Redis frozen, not down (stopped with SIGSTOP: its sockets open, nothing answered), under two
Daphne workers (make test-scale), with the taps and screens of tests/scale/test_faults.py."""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest

from tests.scale.conftest import start_both
from tests.scale.test_faults import (
    SYNC_EVERY,
    PrivateRedis,
    check_log,
    play,
    report,
    setup_night,
    tracebacks,
)

#: Issue 44: every tap answered within a second while Redis is frozen (PUSH_WAIT is half of it).
ANSWER_WITHIN = 1.0
#: Seconds between two rounds of /healthz on both workers while Redis is frozen.
HEALTH_EVERY = 0.1


@pytest.fixture
def redis(shared_stack, tmp_path):
    """A Redis of the test's own: the run's is shared with every test beside it."""
    server = PrivateRedis(tmp_path / "redis")
    yield server
    server.remove()


def test_a_frozen_redis_holds_no_taps_answer_and_healthz_answers(
        tmp_path, shared_stack, redis):
    """Redis frozen for 4 s. A push waits ``PUSH_WAIT`` at most, and none is waited for while
    one is out: every tap is counted once, none sent again, every one answered within a second
    (issue 44), most at once; ``/healthz`` on both workers answers (503: the layer failed) again
    and again meanwhile, within a second too."""
    from django.conf import settings

    env = {**shared_stack, "REDIS_URL": redis.url}
    night = setup_night(tmp_path, env)
    workers = start_both(tmp_path, env)
    health: list[tuple[int, float]] = []

    def frozen():
        redis.freeze()
        down = time.monotonic()
        try:
            with httpx.Client(trust_env=False, timeout=10) as http:
                while time.monotonic() < down + 4:
                    for server in workers:
                        asked = time.monotonic()
                        status = http.get(f"{server.base}/healthz").status_code
                        health.append((status, time.monotonic() - asked))
                    # A monitor's pace (10 a second a worker), not a flood competing with the
                    # taps for the machine's two cores.
                    time.sleep(HEALTH_EVERY)
        finally:
            redis.thaw()
        return down, time.monotonic()

    try:
        played = asyncio.run(play(workers, night, [("Redis frozen 4 s", frozen)],
                                  before=3, after=SYNC_EVERY + 3))
    finally:
        for server in workers:
            server.stop()
    print(report(played))
    print(f"  /healthz while frozen: {len(health)} answers {sorted({s for s, _ in health})}, "
          f"the slowest in {max(t for _, t in health):.2f} s")
    check_log(tmp_path, env, night, played)
    (fault,) = played.faults
    assert not [t for t in played.taps if t.resent], "a tap had to be sent again"
    during = [t.answered - t.sent for t in played.taps
              if fault.down - 1 < t.sent < fault.back]
    # One wait of PUSH_WAIT per worker (its first push or health check of the freeze; a tap
    # may queue behind it, for the rest of that wait), the rest at once.
    assert during and max(during) < ANSWER_WITHIN, sorted(during)[-5:]
    assert sum(took >= settings.PUSH_WAIT for took in during) <= 2 * len(workers), during
    assert len(health) > 2 * len(workers), health  # asked again and again while frozen
    assert all(took < ANSWER_WITHIN for _, took in health), health
    assert not tracebacks(workers), tracebacks(workers)
