"""Fair use: how fast one screen or one link may send (token buckets: ``bunco/buckets.py``),
what it is told past that, and the server's other limits and timings.

A person tapping dice never comes near the limits (a roll every second or two, a resync on
reconnect); a stuck page or a script does, and is answered "slow down" before it costs the room
anything. With several workers on one Redis (``REDIS_URL``) the guessing limits, each link's
allowance and a flooding link's time out are counted there, for the whole server: a script
spread over the workers gets one share, not one each.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict

from bunco import shared_counts
from bunco.buckets import Buckets
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
    shared_counts.SHARED.mark("penalty", key, WS_PENALTY_SECONDS)


def penalised(key: str, clock=time.monotonic) -> bool:
    until = _penalties.get(key)
    if until is not None and until > clock():
        return True
    if shared_counts.SHARED.marked("penalty", key):  # cut off by another worker: told here
        with _penalty_lock:
            _penalties[key] = clock() + 1.0
        return True
    return False


def clear_penalties() -> None:
    with _penalty_lock:
        _penalties.clear()
        _refusals.clear()
    shared_counts.SHARED.clear("penalty")
