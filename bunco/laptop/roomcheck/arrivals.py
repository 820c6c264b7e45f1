"""Who reached the laptop: every page, file, post and socket from an address that is not the
laptop's own, counted by address, with when the last one came (kept in this process's memory;
the rest of the room check: ``bunco/laptop/roomcheck/``). Each page served takes one look at
its address (``page_loaded``); a new device is worth pushing the host's card for."""

from __future__ import annotations

import ipaddress
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from bunco.laptop import lan
from bunco.laptop.roomcheck.tables import MAX_KEPT


@dataclass
class Room:
    started: float = field(default_factory=time.time)
    seen: dict[str, float] = field(default_factory=dict)  # address -> last time it came
    pushed: float = 0.0  # when the card was last pushed for an arrival
    cannot: bool = False  # the host said her phone cannot open the check
    port: int | None = None  # the port pages are served on (for the check's link)


#: The room as this process saw it (one object for the whole run: ``restart`` clears it).
room = Room()
lock = threading.Lock()
_own: tuple[float, frozenset[str]] = (0.0, frozenset())


def restart(now: float | None = None) -> None:
    """Nobody reached, the clock started ``now`` (tests)."""
    vars(room).update(vars(Room(started=time.time() if now is None else now)))


def own_addresses() -> frozenset[str]:
    """The laptop's own addresses, read again at most once a minute."""
    global _own
    when, found = _own
    if time.monotonic() - when > 60 or not found:
        try:
            found = frozenset(lan.local_addresses())
        except Exception:  # an adapter the library cannot read: the server's own address counts
            found = frozenset()
        _own = (time.monotonic(), found)
    return found


def from_elsewhere(client: str | None, server: str | None) -> bool:
    """Whether a connection from ``client`` to the laptop's ``server`` address came from
    another device: not loopback, not the address it arrived at, not any of the laptop's."""
    if not client or client == server:
        return False
    try:
        ip = ipaddress.ip_address(client.split("%")[0])
    except ValueError:
        return False
    if getattr(ip, "ipv4_mapped", None):
        ip = ip.ipv4_mapped
    if ip.is_loopback or ip.is_unspecified:
        return False
    return str(ip) not in own_addresses()


def note(client: str | None, server: str | None, now: float | None = None) -> bool:
    """A page or socket from ``client``: True when the host's card is worth pushing (a new
    device, or the last arrival's time shown is a minute old)."""
    if not from_elsewhere(client, server):
        return False
    now = time.time() if now is None else now
    with lock:
        new = client not in room.seen
        if new and len(room.seen) >= MAX_KEPT:
            return False
        room.seen[client] = now
        if new or now - room.pushed >= 60:
            room.pushed = now
            return True
    return False


def note_scope(scope: dict) -> bool:
    """``note`` for an ASGI scope (a request or a websocket)."""
    client, server = scope.get("client") or (None, None), scope.get("server") or (None, None)
    if server[1] and room.port is None:
        room.port = server[1]
    return note(client[0], server[0])


def reached() -> tuple[int, float | None]:
    """How many devices reached the laptop, and when the last one did (epoch seconds)."""
    with lock:
        return len(room.seen), max(room.seen.values(), default=None)


def page_loaded(sender, *, push: Callable[[], None], scope=None, environ=None, **kwargs) -> None:
    """Every page, file and post served (Django's ``request_started``, on the sync thread):
    one look at its address, and ``push`` the host's card when that is worth it."""
    try:
        if scope is not None:
            fresh = note_scope(scope)
        elif environ is not None:
            fresh = note(environ.get("REMOTE_ADDR"), environ.get("SERVER_NAME"))
        else:
            return
        if fresh:
            push()
    except Exception:  # never in a page's way
        return
