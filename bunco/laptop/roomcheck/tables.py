"""Tables whose phones struggle during the night: each table's phones tell their reconnects
and a measured round trip now and then (``net_report``); a table with too many reconnects, or
a slow round trip, within ``WINDOW`` is named on the host's page (docs/roomcheck.md)."""

from __future__ import annotations

import threading
import time
from collections import deque
from dataclasses import dataclass, field

#: A table struggles with this many reconnects of its phones within WINDOW seconds ...
RECONNECTS, WINDOW = 3, 600
#: ... or a round trip over this many milliseconds, told within WINDOW.
SLOW_MS = 1000
#: At most this many addresses and devices kept (a flood of addresses costs bounded memory).
MAX_KEPT = 5000
#: A phone's report is bounded: a count of reconnects over MOST_RECONNECTS is not believed,
#: one report adds at most STEP (each follows one reconnect), a phone keeps at most KEPT.
MOST_RECONNECTS, STEP, KEPT = 1000, 2, 20
#: The host's page is redrawn for a night's struggling tables at most once in this many
#: seconds (a change meanwhile is pushed when they have passed).
PUSH_EVERY = 5.0
#: Reconnects told within this many seconds of a night being opened here (a laptop swap:
#: every phone comes back at once) are not the room's Wi-Fi: they are not counted.
SWAP_GRACE = 120.0

_lock = threading.Lock()


@dataclass
class Phone:
    reconnects: int = 0  # as the page last said (since it loaded)
    lost: deque = field(default_factory=lambda: deque(maxlen=KEPT))  # (when, how many)
    rtt_ms: int | None = None
    rtt_at: float = 0.0


_tables: dict[tuple[int, int], dict[str, Phone]] = {}
_weak: dict[int, tuple] = {}  # night -> the weak tables as last pushed
_pushed: dict[int, float] = {}  # night -> when they were last pushed
_held: set[int] = set()  # nights whose change waits for PUSH_EVERY to pass
_opened: dict[int, float] = {}  # night -> when it was opened here from its file


def night_opened(night_id: int, now: float | None = None) -> None:
    """A night was opened on this laptop from its file (after a swap): its phones all come
    back now, and the reconnects they tell meanwhile are not the room's."""
    with _lock:
        _opened[night_id] = time.time() if now is None else now


def table_of(joined: list[str], night_id: int) -> int | None:
    """The table a screen's groups put it at (a table's device, a seated player's phone)."""
    prefix = f"table_{night_id}_"
    for group in joined:
        if group.startswith(prefix) and group[len(prefix):].isdigit():
            return int(group[len(prefix):])
    return None


def _count(value, most: int) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return int(value) if 0 <= value <= most else None


def net_report(night_id: int, table: int, device: str, net, now: float | None = None,
               later=None) -> bool:
    """A phone at ``table`` says how its connection fares (``{"re": reconnects since the page
    loaded, "rtt": its last round trip in ms}``). True when the night's weak tables changed
    and may be pushed now; a change within PUSH_EVERY of the last push is held, and
    ``later(night_id, seconds)`` is called once to push it then (``flush``)."""
    if not isinstance(net, dict):
        return False
    now = time.time() if now is None else now
    reconnects = _count(net.get("re"), MOST_RECONNECTS)
    rtt = _count(net.get("rtt"), 600_000)
    with _lock:
        phones = _tables.setdefault((night_id, table), {})
        if device not in phones and (len(phones) >= 50 or len(_tables) > MAX_KEPT):
            return False
        new = device not in phones
        phone = phones.setdefault(device, Phone())
        if reconnects is not None:
            _note_reconnects(phone, reconnects, now, counted=not new and now - _opened.get(
                night_id, -SWAP_GRACE) >= SWAP_GRACE)
        if rtt is not None:
            phone.rtt_ms, phone.rtt_at = rtt, now
    return _changed(night_id, now, later)


def _note_reconnects(phone: Phone, reconnects: int, now: float, counted: bool) -> None:
    """The page's count since it loaded: what is new since its last report is lost
    connections, at most STEP of them. A phone's first report on this laptop, and any during
    a swap's grace, only set where it counts from: those happened before this laptop knew
    the phone (another laptop, or this one before a restart)."""
    more = reconnects - phone.reconnects if reconnects >= phone.reconnects else reconnects
    if counted and more > 0:
        phone.lost.append((now, min(more, STEP)))
    phone.reconnects = reconnects


def _changed(night_id: int, now: float, later, due: bool = False) -> bool:
    weak = tuple(weak_tables(night_id, now))
    with _lock:
        if weak == _weak.get(night_id, ()):
            return False
        wait = _pushed.get(night_id, -PUSH_EVERY) + PUSH_EVERY - now
        if wait > 0 and not due:
            if later is not None and night_id not in _held:
                _held.add(night_id)
                later(night_id, wait)
            return False
        _weak[night_id], _pushed[night_id] = weak, now
    return True


def flush(night_id: int, now: float | None = None) -> bool:
    """A held change's time has come: True when the night's weak tables still differ from
    what the host's page shows (push them)."""
    with _lock:
        _held.discard(night_id)
    return _changed(night_id, time.time() if now is None else now, None, due=True)


@dataclass(frozen=True)
class WeakTable:
    table: int
    reconnects: int
    rtt_ms: int | None  # the slowest recent round trip, when over SLOW_MS


def weak_tables(night_id: int, now: float | None = None) -> list[WeakTable]:
    now = time.time() if now is None else now
    out = []
    with _lock:
        for (night, table), phones in sorted(_tables.items()):
            if night != night_id:
                continue
            lost, slow = 0, None
            for phone in phones.values():
                while phone.lost and phone.lost[0][0] < now - WINDOW:
                    phone.lost.popleft()
                lost += sum(n for _, n in phone.lost)
                if phone.rtt_ms is not None and phone.rtt_ms > SLOW_MS \
                        and now - phone.rtt_at < WINDOW:
                    slow = max(slow or 0, phone.rtt_ms)
            if lost >= RECONNECTS or slow:
                out.append(WeakTable(table, lost, slow))
    return out


def reset() -> None:
    with _lock:
        for kept in (_tables, _weak, _pushed, _held, _opened):
            kept.clear()
