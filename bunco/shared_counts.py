"""Counts every worker shares, in the channel layer's Redis (``REDIS_URL``): what a limit of
``bunco/buckets.py`` counts across workers, and marks one worker sets for the others
(``bunco/limits.py``). Without Redis there is nothing here to ask and each process counts
alone."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from django.conf import settings

log = logging.getLogger(__name__)


# A count every worker shares is a fixed window in the channel layer's Redis (``REDIS_URL``):
# ``INCR`` of a key named by the window, with an expiry, one round trip (~0.1 ms on the same
# machine). Without Redis there is nothing to share and each process counts alone. A Redis
# that fails or does not answer within ``TIMEOUT`` is left alone for ``REST`` seconds (the
# process counts alone meanwhile): a limit never turns an honest guest away, and never makes
# a tap wait for Redis.

#: Seconds a call to Redis may take; then the process counts alone for REST seconds.
TIMEOUT, REST = 0.25, 2.0


def _never() -> bool:
    return False


#: Whether a push is still out past its wait (``bunco/runtime/pushes.py`` sets it): Redis is
#: frozen, so it is not asked either (a tap waits on a frozen Redis once, not once a REST).
push_stalled: Callable[[], bool] = _never


class Shared:
    def __init__(self) -> None:
        self._client = None
        self._made = False
        self._down_until = 0.0
        self._lock = threading.Lock()

    def client(self):
        if not self._made:
            with self._lock:
                if not self._made:
                    self._client = _connect()
                    self._made = True
        if self._client is None or self.resting() or push_stalled():
            return None
        return self._client

    def resting(self) -> bool:
        """Whether Redis failed or did not answer in the last REST seconds (counted alone)."""
        return time.monotonic() < self._down_until

    def prefix(self) -> str:
        config = settings.CHANNEL_LAYERS.get("default", {}).get("CONFIG", {})
        return f"{config.get('prefix', 'bunco')}:limits"

    def _failed(self, exc: Exception) -> None:
        if time.monotonic() >= self._down_until:
            log.warning("the shared limits' Redis did not answer (%r): each worker counts "
                        "alone for %s s", exc, REST)
        self._down_until = time.monotonic() + REST

    def count(self, name: str, key: str, window: float) -> int | None:
        """How many times ``key`` was counted in this window by every worker, this one
        included; None when there is no Redis to count in (count in the process)."""
        client = self.client()
        if client is None:
            return None
        slot = int(time.time() // window)
        redis_key = f"{self.prefix()}:{name}:{key[:200]}:{slot}"
        try:
            pipe = client.pipeline(transaction=False)
            pipe.incr(redis_key)
            pipe.expire(redis_key, int(window) + 1)
            return int(pipe.execute()[0])
        except Exception as exc:  # noqa: BLE001 (any failure of Redis: count alone)
            self._failed(exc)
            return None

    def mark(self, name: str, key: str, seconds: float) -> None:
        client = self.client()
        if client is not None:
            try:
                client.set(f"{self.prefix()}:{name}:{key[:200]}", 1, px=int(seconds * 1000))
            except Exception as exc:  # noqa: BLE001
                self._failed(exc)

    def marked(self, name: str, key: str) -> bool | None:
        client = self.client()
        if client is None:
            return None
        try:
            return bool(client.exists(f"{self.prefix()}:{name}:{key[:200]}"))
        except Exception as exc:  # noqa: BLE001
            self._failed(exc)
            return None

    def clear(self, name: str) -> None:
        """Every count of ``name`` forgotten (a test's fresh start)."""
        client = self.client()
        if client is not None:
            try:
                keys = list(client.scan_iter(f"{self.prefix()}:{name}:*", count=1000))
                if keys:
                    client.delete(*keys)
            except Exception as exc:  # noqa: BLE001
                self._failed(exc)


def _connect():
    if not settings.REDIS_URL:
        return None
    import redis

    return redis.Redis.from_url(settings.REDIS_URL, socket_timeout=TIMEOUT,
                                socket_connect_timeout=TIMEOUT)


SHARED = Shared()
