"""The room check: can the guests' phones reach this laptop, and if not, what is in the way.

Three things, kept in this process's memory (a party is one process; docs/roomcheck.md):

- **Who reached the laptop**: every page and socket from an address that is not the laptop's
  own (``note``), counted by address, with when the last one came (``arrivals.py``).
- **The host's own check**: a one-off link shown as a QR code on the host's page; her phone
  opens it, measures a round trip and says so (``Check``).
- **Tables whose phones struggle** during the night: the phones tell their reconnects and a
  measured round trip now and then (``net_report``).

When no phone has come ``after_seconds()`` after the start (or the host says her phone cannot
open the check), the host's page and the terminal say the likely causes on this laptop's
system and the fix, in plain words (``bunco/laptop/roomcheck/advice.py``).
"""

from __future__ import annotations

import logging
import os
import secrets
import sys
import textwrap
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial

from django.core.signals import request_started
from django.template.loader import render_to_string
from django.utils import timezone

from bunco.laptop import address, lan, notes
from bunco.laptop.roomcheck import arrivals, tables
from bunco.laptop.roomcheck.advice import Advice, advise, read_system
from bunco.laptop.roomcheck.arrivals import (  # noqa: F401 (the room check's whole API here)
    from_elsewhere,
    note,
    note_scope,
    reached,
    room,
)
from bunco.laptop.roomcheck.tables import (  # noqa: F401 (the room check's whole API here)
    MAX_KEPT,
    RECONNECTS,
    SLOW_MS,
    WINDOW,
    WeakTable,
    net_report,
    table_of,
    weak_tables,
)

log = logging.getLogger(__name__)

#: The Channels group of every host page that shows the room check (the dashboard too).
GROUP = "roomcheck"
#: Seconds after the start with no phone before the advice shows (``BUNCO_ROOMCHECK_AFTER``).
AFTER_SECONDS = 180


def after_seconds() -> float:
    """How long the room may stay without a phone before the advice shows, read when asked."""
    try:
        return max(0.0, float(os.environ.get("BUNCO_ROOMCHECK_AFTER", "") or AFTER_SECONDS))
    except ValueError:
        return float(AFTER_SECONDS)


def due(now: float | None = None) -> bool:
    """Whether the host should see the advice now."""
    now = time.time() if now is None else now
    return room.cannot or (not room.seen and now - room.started >= after_seconds())


# -- who reached the laptop ----------------------------------------------------------------------

# -- the host's own check ------------------------------------------------------------------------

@dataclass
class Check:
    token: str = field(default_factory=lambda: secrets.token_urlsafe(12))
    opened: float | None = None
    address: str | None = None
    rtt_ms: int | None = None
    live: bool | None = None  # whether its websocket opened (else the fetch's round trip)
    asked: bool = False  # made by "Check again": its QR code shows at once


check = Check()


def new_check() -> Check:
    global check
    with arrivals.lock:
        check = Check(asked=True)
        room.cannot = False
    return check


def check_opened(token: str, client: str | None, server: str | None) -> str:
    """The check page was opened: "ok", "laptop" (opened on the laptop itself: proves
    nothing) or "old" (not the link the host's page shows now)."""
    if token != check.token:
        return "old"
    if not from_elsewhere(client, server):
        return "laptop"
    with arrivals.lock:
        if check.opened is None:
            check.opened, check.address = time.time(), client
        room.cannot = False
    return "ok"


def check_result(token: str, client: str | None, rtt_ms: int, live: bool) -> bool:
    """The phone's measured round trip (from the phone that opened the check)."""
    if token != check.token or check.address is None or client != check.address:
        return False
    with arrivals.lock:
        check.rtt_ms, check.live = rtt_ms, live
    return True


def cannot_open() -> None:
    room.cannot = True


_readings: dict[str, str | None] | None = None
_reading = threading.Lock()


def system_readings(fresh: bool = False) -> dict[str, str | None] | None:
    """This laptop's readings, taken once (slow tools: at most a few seconds each) on the
    caller's thread; None if another thread is taking them right now."""
    global _readings
    if _readings is not None and not fresh:
        return _readings
    if not _reading.acquire(blocking=False):
        return _readings
    try:
        _readings = read_system()
    finally:
        _reading.release()
    return _readings


def advice_now(readings: dict[str, str | None] | None = None) -> list[Advice]:
    """The advice for this laptop as it is now (with no readings: the common causes only)."""
    try:
        interfaces = lan.read_interfaces()
    except Exception:
        interfaces = []
    return advise(sys.platform, readings or {}, interfaces, address.current(), room.port)


def waited_text(seconds: float) -> str:
    """"3 minutes", "1 minute", "5 seconds"."""
    n, unit = (round(seconds / 60), "minute") if seconds >= 60 else (round(seconds), "second")
    return f"{n} {unit}{'' if n == 1 else 's'}"


def terminal_text(advice: list[Advice], waited: float) -> str:
    """The advice as the terminal prints it: plain ASCII lines."""
    lines = [f"No phone has reached this laptop in {waited_text(waited)}. What may be in the "
             "way, most likely first:"]
    for n, item in enumerate(advice, 1):
        lines.append(textwrap.fill(item.cause, 92, initial_indent=f"  {n}. ",
                                   subsequent_indent="     "))
        lines.append(textwrap.fill(f"Fix: {item.fix}", 92, initial_indent="     ",
                                   subsequent_indent="     "))
    lines.append("The host page's room check says more, and shows when a phone gets through.")
    return "\n".join(lines).encode("ascii", "replace").decode("ascii") + "\n"


# -- the terminal and the deadline --------------------------------------------------------------

def watch_terminal(write, after_seconds_: float | None = None, port: int | None = None
                   ) -> threading.Thread:
    """Start a daemon thread that, ``after_seconds_`` from now (default ``after_seconds()``),
    prints the advice once through ``write`` if no phone has reached the laptop by then, and
    pushes the host's card (now with the advice). ``port``: the one the server listens on."""
    wait = after_seconds() if after_seconds_ is None else after_seconds_
    if port is not None:
        room.port = port

    def run() -> None:
        time.sleep(wait)
        try:
            if reached()[0] or not in_use():
                return
            readings = system_readings()
            if reached()[0]:
                return
            write(terminal_text(advice_now(readings), wait))
            sys.stdout.flush()
            push_card()
        except Exception:  # the party goes on without the advice
            return

    thread = threading.Thread(target=run, name="bunco-roomcheck", daemon=True)
    thread.start()
    return thread


_armed = False


def arm() -> None:
    """Once per process: at the deadline, read the system and push the host's card, so a host
    page open at that moment shows the advice without a reload."""
    global _armed
    if _armed:
        return
    _armed = True

    def run() -> None:
        time.sleep(max(0.0, room.started + after_seconds() - time.time()))
        try:
            if not reached()[0]:
                push_card()  # the common causes at once ...
                if system_readings() is not None:
                    push_card()  # ... then this laptop's
        except Exception:
            return

    threading.Thread(target=run, name="bunco-roomcheck-deadline", daemon=True).start()


def read_soon() -> None:
    """The advice is due but the system not read yet: read it in the background, then push."""
    if _readings is not None:
        return

    def run() -> None:
        try:
            if system_readings() is not None:
                push_card()
        except Exception:
            return

    threading.Thread(target=run, name="bunco-roomcheck-read", daemon=True).start()


# -- what the host's pages show -----------------------------------------------------------------

def _clock(epoch: float | None) -> str:
    if epoch is None:
        return ""
    return timezone.localtime(datetime.fromtimestamp(epoch, tz=UTC)).strftime("%H:%M")


def in_use() -> bool:
    """Whether the room check means anything here: not behind a proxy (``BUNCO_PUBLIC_URL``),
    where every page comes from the proxy's address and the phones reach a server, not a
    laptop on the room's Wi-Fi."""
    from django.conf import settings

    return not settings.PUBLIC_URL


def card_context() -> dict:
    from django.urls import reverse

    if not in_use():
        return {"off": True}
    arm()
    count, last = reached()
    show_advice = due()
    if show_advice:
        read_soon()
    path = reverse("roomcheck_phone", args=[check.token])
    return {
        "count": count, "last": _clock(last), "check": check, "check_path": path,
        "check_url": lan.public_url(path, port=room.port),
        "advice": advice_now(_readings) if show_advice else [],
        "read": _readings is not None, "cannot": room.cannot,
        "waited": waited_text(after_seconds()),
        "addresses": address.choices(), "phones_at": address.current(),
    }


def card_html() -> str:
    """The host's room check card (``#roomcheck``): the same for every host page."""
    return render_to_string("bunco/host/_roomcheck.html", card_context())


def weak_html(night_id: int) -> str:
    """The night's tables whose phones struggle (``#weak-tables``), for the host."""
    weak = weak_tables(night_id)
    return render_to_string("bunco/host/_weak_tables.html", {
        "weak": weak, "slow_s": [(w, f"{w.rtt_ms / 1000:.1f}" if w.rtt_ms else "")
                                 for w in weak],
        "minutes": WINDOW // 60})


def net_note(night_id: int, joined: list[str], device: str, net) -> str | None:
    """A phone's report of its connection (``net_report``), from a screen in these groups:
    the host's note of the night's struggling tables when it changed, else None (a change
    within ``PUSH_EVERY`` of the last is pushed from a timer when that has passed)."""
    table = table_of(joined, night_id)
    if table is None or not net_report(night_id, table, device, net, later=_push_later):
        return None
    return weak_html(night_id)


def _push_later(night_id: int, seconds: float) -> None:
    def run() -> None:
        try:
            if tables.flush(night_id):
                notes.to_hosts([night_id], weak_html(night_id))
        except Exception:  # the host's page shows them at the next change or reload
            log.exception("the struggling tables could not be pushed")

    timer = threading.Timer(seconds, run)
    timer.daemon = True
    timer.start()


def night_opened(night) -> None:
    """A night opened here from its file (``hooks.after_open``): its phones' reconnects as
    they come back from the other laptop are not the room's (``tables.SWAP_GRACE``)."""
    tables.night_opened(night.pk)


def push_card() -> None:
    """Push the card to every host page that shows it (from any thread but the loop's)."""
    try:
        notes.to_group(GROUP, card_html)
    except Exception:  # a page reloaded shows it anyway; never in a page's or socket's way
        log.exception("the room check's card could not be pushed")


def reset(now: float | None = None) -> None:
    """A fresh start (tests): nobody reached, a new check, the clock started now."""
    global check, _readings
    arrivals.restart(now)
    check = Check()
    _readings = None
    tables.reset()


# Every page, file and post served: one look at its address, the card pushed for a new device.
request_started.connect(partial(arrivals.page_loaded, push=push_card), weak=False,
                        dispatch_uid="bunco-roomcheck-arrivals")
