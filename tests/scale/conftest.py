"""Tests of several real workers on one PostgreSQL and one Redis (``make test-scale``).

Under ``make test`` (SQLite, the in-memory channel layer) they are skipped, saying why. Under
``make test-scale`` (BUNCO_SCALE_TESTS=1) they must run: a missing PostgreSQL or Redis fails
them with a message instead of skipping them."""

from __future__ import annotations

import os
import secrets
import socket
import threading
from pathlib import Path
from urllib.parse import quote, urlsplit

import pytest
from django.conf import settings
from django.db import connection

from bench.management.commands.livebench import Server, bench_env

REQUIRED = os.environ.get("BUNCO_SCALE_TESTS") == "1"


def _reachable(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=2):
            return True
    except OSError:
        return False


def _missing() -> str | None:
    if connection.vendor != "postgresql":
        return "DATABASE_URL is not a PostgreSQL database"
    redis = os.environ.get("REDIS_URL", "")
    if not redis:
        return "REDIS_URL is not set"
    parts = urlsplit(redis)
    if not _reachable(parts.hostname or "localhost", parts.port or 6379):
        return f"Redis does not answer at {redis}"
    return None


@pytest.fixture
def shared_stack(transactional_db):
    """The environment of a worker on the test run's own PostgreSQL database and Redis (the
    test's rows are committed, so the workers see them)."""
    problem = _missing()
    if problem:
        if REQUIRED:
            pytest.fail(f"make test-scale needs PostgreSQL and Redis: {problem}. "
                        "deploy/scale.py starts them (apt-get install -y postgresql "
                        "redis-server if they are missing)", pytrace=False)
        pytest.skip("PostgreSQL + Redis only: make test-scale runs it")
    db = connection.settings_dict
    url = (f"postgres://{quote(db['USER'], safe='')}:{quote(db['PASSWORD'] or '', safe='')}"
           f"@{db['HOST'] or 'localhost'}:{db['PORT'] or 5432}/{db['NAME']}")
    return {"DATABASE_URL": url, "REDIS_URL": os.environ["REDIS_URL"],
            "BUNCO_SECRET_KEY": secrets.token_urlsafe(50),
            "BUNCO_HOST_SECRET": secrets.token_urlsafe(16)}


def worker(folder: Path, shared: dict) -> Server:
    """A Daphne worker as the deployment runs one: a data folder of its own, the shared
    database, Redis and secrets from the environment."""
    env = bench_env(folder)
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # the test run's, not a worker's
    env.update(shared)
    folder.mkdir(parents=True)
    static = Path(settings.STATIC_ROOT)  # collected once per run (tests/conftest.py)
    (folder / "static").symlink_to(static, target_is_directory=True)
    return Server(folder / "server", env)


def start_both(tmp_path: Path, shared: dict) -> tuple[Server, Server]:
    """Workers A and B on the same database and Redis, started side by side."""
    a, b = worker(tmp_path / "a", shared), worker(tmp_path / "b", shared)
    threads = [threading.Thread(target=s.start) for s in (a, b)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert a.alive() and b.alive(), "a worker did not start"
    return a, b
