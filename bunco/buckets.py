"""Token buckets, counted by one process or for the whole server (``bunco/limits.py`` sets
them). A bucket holds up to ``burst`` tokens and refills at ``rate`` per second; each message
or tap takes one."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field

from django.conf import settings

from bunco import shared_counts


@dataclass
class Bucket:
    rate: float
    burst: float
    clock: object = time.monotonic
    tokens: float = field(init=False)
    stamp: float = field(init=False)

    def __post_init__(self) -> None:
        self.tokens = self.burst
        self.stamp = self.clock()

    def has_room(self) -> bool:
        """Whether one more message would fit now (nothing counted)."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        return self.tokens >= 1

    def take(self) -> bool:
        """Whether one more message fits now (it is counted if so)."""
        if self.has_room():
            self.tokens -= 1
            return True
        return False


class Buckets:
    """One bucket per key (a link's token), the least recently used dropped past ``size``.

    With a ``name`` and a Redis to share (``shared_counts.Shared``) the count is every worker's:
    a window of ``burst / rate`` seconds holds ``burst``; a key refused there is remembered
    in the process until its window ends (``has_room`` asks no one)."""

    def __init__(self, rate: float, burst: float, size: int = 20_000, clock=time.monotonic,
                 name: str = ""):
        self.rate, self.burst, self.size, self.clock = rate, burst, size, clock
        self.name, self.window = name, burst / rate
        self._buckets: OrderedDict[str, Bucket] = OrderedDict()
        self._refused: OrderedDict[str, float] = OrderedDict()  # key -> until (monotonic)
        self._lock = threading.Lock()

    def take(self, key: str) -> bool:
        if self.name and self._refused_now(key):  # over in this window: no need to ask Redis
            return False
        # Only with a Redis to share is the count every worker's (``bunco/shared_counts.py``).
        counted = (shared_counts.SHARED.count(self.name, key, self.window)
                   if self.name and settings.REDIS_URL else None)
        if counted is not None:
            if counted >= self.burst:  # no room for another in this window
                with self._lock:
                    self._refused[key] = (time.monotonic() + self.window
                                          - time.time() % self.window)
                    self._refused.move_to_end(key)
                    while len(self._refused) > self.size:
                        self._refused.popitem(last=False)
            return counted <= self.burst
        with self._lock:
            bucket = self._buckets.pop(key, None) or Bucket(self.rate, self.burst, self.clock)
            self._buckets[key] = bucket
            while len(self._buckets) > self.size:
                self._buckets.popitem(last=False)
            return bucket.take()

    def has_room(self, key: str) -> bool:
        """Whether ``key`` may send one more now (a key never seen may), counting nothing."""
        if self._refused_now(key):
            return False
        with self._lock:
            bucket = self._buckets.get(key)
            return bucket is None or bucket.has_room()

    def _refused_now(self, key: str) -> bool:
        """Whether the shared count refused ``key`` in a window that has not ended yet."""
        with self._lock:
            until = self._refused.get(key)
        return until is not None and until > time.monotonic()

    def clear(self) -> None:
        with self._lock:
            self._buckets.clear()
            self._refused.clear()
        if self.name:
            shared_counts.SHARED.clear(self.name)
