"""manage.py loadtest on the shape of a big night: two Daphne workers on PostgreSQL and Redis,
the screens and tables spread over both (a tap on one worker reaches screens on the other).
It runs the smallest room for a few seconds and checks the JSON line; figures are printed,
not asserted."""

from __future__ import annotations

import json
import subprocess
import sys

from django.conf import settings
from django.db import connection


def test_loadtest_runs_a_room_on_two_workers_with_postgresql_and_redis(shared_stack):
    databases = _databases()
    done = subprocess.run(
        [sys.executable, "manage.py", "loadtest", "--scenario", "13", "--seconds", "3",
         "--bells", "1", "--bell-hold", "1", "--clients", "2", "--no-floor",
         "--workers", "2", "--database-url", shared_stack["DATABASE_URL"],
         "--redis-url", shared_stack["REDIS_URL"]],
        cwd=settings.BASE_DIR, capture_output=True, text=True, timeout=180, check=False,
    )
    assert done.returncode == 0, done.stderr
    (line,) = [json.loads(x) for x in done.stdout.splitlines() if x.startswith("{")]
    print(json.dumps(line))
    assert (line["workers"], line["database"], line["channel_layer"]) == (
        2, "postgresql", "redis")
    assert line["sockets"] == 13 and line["intents"] == 15
    # Every tap counted exactly once: each key in the log, none merged into another tap, none
    # refused for crossing another worker's write.
    assert line["recorded"] == line["intents"]
    assert line["merged_taps"] == 0 and line["refused_by_race"] == 0
    assert line["failed_taps"] == 0 and line["frames_lost"] == 0 and line["bells_rung"] == 1
    assert line["tap_p99_ms"] > 0 and line["server_errors"] == 0
    assert _databases() == databases  # its own database made and dropped again


def _databases() -> set[str]:
    """The load test's own databases (the test run's other workers make theirs meanwhile)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT datname FROM pg_database WHERE datname LIKE 'bunco_load_%%'")
        return {row[0] for row in cursor.fetchall()}


def test_several_workers_without_postgresql_and_redis_are_refused_with_the_reason():
    done = subprocess.run(
        [sys.executable, "manage.py", "loadtest", "--scenario", "13", "--workers", "2"],
        cwd=settings.BASE_DIR, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode != 0
    assert "--database-url and --redis-url" in done.stderr
