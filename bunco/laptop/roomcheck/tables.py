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

_lock = threading.Lock()


@dataclass
class Phone:
    reconnects: int = 0  # as the page last said (since it loaded)
    lost: deque = field(default_factory=deque)  # (when, how many) reconnects
    rtt_ms: int | None = None
    rtt_at: float = 0.0


_tables: dict[tuple[int, int], dict[str, Phone]] = {}
_weak: dict[int, tuple] = {}  # night -> the weak tables as last pushed


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


def net_report(night_id: int, table: int, device: str, net, now: float | None = None) -> bool:
    """A phone at ``table`` says how its connection fares (``{"re": reconnects since the page
    loaded, "rtt": its last round trip in ms}``). True when the night's weak tables changed."""
    if not isinstance(net, dict):
        return False
    now = time.time() if now is None else now
    reconnects, rtt = _count(net.get("re"), 100_000), _count(net.get("rtt"), 600_000)
    with _lock:
        phones = _tables.setdefault((night_id, table), {})
        if device not in phones and (len(phones) >= 50 or len(_tables) > MAX_KEPT):
            return False
        phone = phones.setdefault(device, Phone())
        if reconnects is not None:
            more = reconnects - phone.reconnects if reconnects >= phone.reconnects else reconnects
            if more > 0:
                phone.lost.append((now, more))
            phone.reconnects = reconnects
        if rtt is not None:
            phone.rtt_ms, phone.rtt_at = rtt, now
    weak = tuple(weak_tables(night_id, now))
    if weak == _weak.get(night_id, ()):
        return False
    _weak[night_id] = weak
    return True


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
    _tables.clear()
    _weak.clear()
