"""Fair use: how fast one screen or one link may send, as token buckets.

A bucket holds up to ``burst`` tokens and refills at ``rate`` per second; each message or tap
takes one. A person tapping dice never comes near the limits (a roll every second or two, a
resync on reconnect); a stuck page or a script does, and is answered "slow down" before it
costs the room anything. With several workers on one Redis (``REDIS_URL``) the guessing
limits, each link's allowance and a flooding link's time out are counted there, for the whole
server (``Shared``, below): a script spread over the workers gets one share, not one each.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field

from django.conf import settings

from bunco.runtime import stock

log = logging.getLogger(__name__)

SLOW_DOWN = "Slow down: too many taps from this screen. Wait a moment and tap again."
BUSY = "Busy: your tap is kept and will be sent again in a moment."
#: The answer to a tap over a limit, over HTTP (status 429) and websockets alike: the phone
#: keeps the tap and sends it again later.
RETRY_LATER = {"ok": False, "retry": True, "error": SLOW_DOWN}

#: The answer to a tap while the whole server is behind (status 429): kept and sent again.
SERVER_BUSY = {"ok": False, "retry": True, "busy": True, "error": BUSY}
#: HTTP requests in flight (queued for or running on the one sync thread) past which a tap
#: posted over HTTP is answered "busy" at once instead of queued: about 0.3 s of taps' work.
#: Pages and the host's posts (the bell) are never turned away; they wait behind at most this.
SERVER_QUEUE = 24
#: Taps in flight from one link past which its next is told to slow down at the door: a phone
#: sends one at a time, a table link a few phones share a few.
LINK_QUEUE = 4


# -- counted for the whole server ----------------------------------------------------------
# A count every worker shares is a fixed window in the channel layer's Redis (``REDIS_URL``):
# ``INCR`` of a key named by the window, with an expiry, one round trip (~0.1 ms on the same
# machine). Without Redis there is nothing to share and each process counts alone. A Redis
# that fails or does not answer within ``TIMEOUT`` is left alone for ``REST`` seconds (the
# process counts alone meanwhile): a limit never turns an honest guest away, and never makes
# a tap wait for Redis.

#: Seconds a call to Redis may take; then the process counts alone for REST seconds.
TIMEOUT, REST = 0.25, 2.0


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
        if self._client is None or time.monotonic() < self._down_until:
            return None
        return self._client

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

    With a ``name`` and a Redis to share (``Shared``) the count is every worker's:
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
        counted = SHARED.count(self.name, key, self.window) if self.name else None
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
            SHARED.clear(self.name)


#: Typed TV codes, per address: a TV whose person mistypes tries again at once, a script
#: guessing the night's 4-digit code gets one try every 2 s (10,000 codes: hours, not seconds).
TV_CODES = Buckets(rate=0.5, burst=10, name="tv-codes")

#: Join codes typed on the home page, per address, alike: a guest's typo costs nothing, a
#: script guessing a night's 5-digit code gets one try every 2 s (100,000 codes: days).
JOIN_CODES = Buckets(rate=0.5, burst=10, name="join-codes")

#: Taps posted over HTTP, per phone or table link: 5 a second, 20 at once (a queue of taps
#: made offline is sent in a burst when the phone is back).
TAPS = Buckets(rate=5, burst=20, name="taps")

#: A tap over its link's share is answered "slow down" this many seconds late, before any of
#: Django runs: a script posting flat out gets one answer a second per connection it holds,
#: where answering at once would let it take the server's core.
REFUSE_AFTER = 1.0
#: A link refused more than FLOODING times in FLOOD_WINDOW seconds is a script, not a phone
#: (a phone told "slow down" waits before it sends again): its refusals come this late, so a
#: hundred connections held open cost the server a few answers a second, not a hundred.
FLOODING, FLOOD_WINDOW, REFUSE_FLOOD_AFTER = 20, 10.0, 5.0
_refusals: OrderedDict[str, tuple[float, int]] = OrderedDict()


def refuse_after(key: str, clock=time.monotonic) -> float:
    """How late to answer this refusal of ``key``'s: a second, or five for a flood."""
    now = clock()
    start, count = _refusals.pop(key, (now, 0))
    if now - start > FLOOD_WINDOW:
        start, count = now, 0
    _refusals[key] = (start, count + 1)
    while len(_refusals) > 20_000:
        _refusals.popitem(last=False)
    return REFUSE_FLOOD_AFTER if count >= FLOODING else REFUSE_AFTER

#: Websocket messages per connection: 5 a second, 30 at once.
WS_RATE, WS_BURST = 5, 30
#: A screen that keeps sending after "slow down" is closed after this many refused messages.
WS_STRIKES = 60
#: The largest websocket message a screen sends (a tap or a resync is well under 2 KB).
WS_MAX_BYTES = 8192
#: A link cut off for flooding may not reconnect for this long (a reconnect costs a snapshot).
WS_PENALTY_SECONDS = 10.0

#: Seconds between a live page's syncs (live.js; ``sync_every``), 0 for none. One process on
#: the party's own layer loses no push on the way to a connected screen, so its pages do not
#: sync on a timer: the server looks at the log itself (``WATCH_EVERY``) and asks a night's
#: screens to sync only when another process wrote to it. A layer shared by several workers
#: may drop a push (Redis restarting, a full channel): their pages sync every 10 s. A page
#: also syncs on waking and gets a snapshot on every reconnect. ``BUNCO_SYNC_EVERY`` sets it.
#: With the server's looks left stock (``BUNCO_STOCK=watch``) one process's pages sync as
#: several workers' do.
SYNC_EVERY_SHARED = 10
SYNC_EVERY = SYNC_EVERY_SHARED if stock("watch") else 0
#: One process: seconds between its looks at each watched night's log for entries another
#: process made (a command, a restored copy); ``BUNCO_WATCH_EVERY`` sets it.
WATCH_EVERY = 30
#: A screen the server has sent nothing for this long is sent ``{"type": "here"}``; a page that
#: hears nothing at all for ``HEARD_EVERY`` twice over and ``HEARD_GRACE`` more takes its socket
#: for dead (a TV whose Wi-Fi blipped into a half-open connection) and connects again.
HEARD_EVERY, HEARD_GRACE = 25, 10
#: Daphne pings a socket that has sent nothing for this long (pages on one process send
#: nothing unless something happens), and closes it PONG_WAIT seconds after without the pong:
#: a dead phone's socket is gone within 2.5 minutes, and a quiet room's 400 screens cost a
#: pong each every two minutes, not a message each every 30 s.
PING_EVERY, PONG_WAIT = 120, 30

_penalties: dict[str, float] = {}
_penalty_lock = threading.Lock()


def penalise(key: str, clock=time.monotonic) -> None:
    with _penalty_lock:
        now = clock()
        for old in [k for k, until in _penalties.items() if until < now]:
            del _penalties[old]
        _penalties[key] = now + WS_PENALTY_SECONDS
    SHARED.mark("penalty", key, WS_PENALTY_SECONDS)


def penalised(key: str, clock=time.monotonic) -> bool:
    until = _penalties.get(key)
    if until is not None and until > clock():
        return True
    if SHARED.marked("penalty", key):  # cut off by another worker: told here for a second
        with _penalty_lock:
            _penalties[key] = clock() + 1.0
        return True
    return False


def clear_penalties() -> None:
    with _penalty_lock:
        _penalties.clear()
        _refusals.clear()
    SHARED.clear("penalty")
