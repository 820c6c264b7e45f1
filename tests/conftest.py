import random
import subprocess
import sys
from pathlib import Path

import pytest


def pytest_configure(config):
    """Pages link their static files by hashed names, read from the collected files' manifest
    (as at a party, where the start command collects them): collect them once per run, before
    the xdist workers start."""
    if hasattr(config, "workerinput"):
        # Each test worker has its own database; on a shared Redis it gets its own channel
        # names too, or two workers' night 1 would hear each other's pushes.
        from django.conf import settings

        layer = settings.CHANNEL_LAYERS.get("default", {})
        if "prefix" in layer.get("CONFIG", {}):
            layer["CONFIG"]["prefix"] += "-" + config.workerinput["workerid"]
        return
    root = Path(__file__).resolve().parent.parent
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
                   cwd=root, check=True)


def pytest_collection_modifyitems(config, items):
    """``sqlite_only`` / ``postgresql_only`` tests are skipped on the other database, each
    with its reason in the summary (a run on PostgreSQL is ``make test-scale``); a ``tuned``
    test, where ``BUNCO_STOCK`` leaves its piece stock (``make test-stock``)."""
    from django.conf import settings

    vendor = "sqlite" if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3") \
        else "postgresql"
    from bunco import runtime

    for item in items:
        tuned = item.get_closest_marker("tuned")
        if tuned and runtime.stock(tuned.args[0]):
            item.add_marker(pytest.mark.skip(
                reason=f"BUNCO_STOCK leaves {tuned.args[0]} stock: this tests what it buys"))
        for name in ("sqlite_only", "postgresql_only"):
            marker = item.get_closest_marker(name)
            if marker and not name.startswith(vendor):
                reason = marker.args[0] if marker.args else ""
                item.add_marker(pytest.mark.skip(
                    reason=f"{name.replace('_only', '')} only: {reason}".rstrip(": ")))


@pytest.fixture
def seated_night(db):
    """Twelve players under babz rules, seated with a fixed shuffle, no round started yet."""
    from bunco.night import services
    from scoring import sample_names

    night = services.night_create(name="Test night", rules_id="babz", entry_fee_cents=1000,
                                  player_names=sample_names(12))
    services.night_seat(night=night, rng=random.Random(1))
    return night


@pytest.fixture(autouse=True)
def fresh_limits():
    """Each test starts with every link's fair share of taps unused."""
    from bunco import limits

    limits.TAPS.clear()
    limits.TV_CODES.clear()
    limits.JOIN_CODES.clear()
    limits.clear_penalties()
    yield
    limits.TAPS.clear()
    limits.TV_CODES.clear()
    limits.JOIN_CODES.clear()
    limits.clear_penalties()


@pytest.fixture(autouse=True)
def watch_without_doubts():
    """Each test starts with the server's watch doubting no push: a push an earlier test's
    server let fail (on a busy machine, one past its wait) would otherwise have this test's
    screens asked to sync at its first look."""
    from bunco.runtime.watch import watch

    watch.doubted, watch.again = False, set()
    yield
    watch.doubted, watch.again = False, set()


@pytest.fixture
def finishing_night(db):
    """``seated_night`` with one change to babz: after the bell each roller finishes the turn
    (seeds 002 and 003), for the tests of finishing, "done" and their take-backs."""
    from bunco.night import services
    from scoring import PRESETS, sample_names

    night = services.night_create(name="Test night", rules_id="babz", entry_fee_cents=1000,
                                  rules=PRESETS["babz"].replace(after_bell="finish_turn"),
                                  player_names=sample_names(12))
    services.night_seat(night=night, rng=random.Random(1))
    return night
