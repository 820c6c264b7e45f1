"""The address the phones are sent to (every link and QR code, ``lan.public_origin``).

By default the laptop's best address on the local network (the Wi-Fi's first,
``bunco/laptop/lan.py``), or ``BUNCO_LAN_ADDRESS`` when set. A laptop on two networks (the
Wi-Fi and a cable, say) may have picked the one the guests are not on: the host then picks
the other on the host page's room check. The pick is kept in the data folder
(``phones_address``): the settings read it at start (while it is still one of this laptop's
addresses), and ``current`` reads it as it changes.
"""

from __future__ import annotations

import os
from pathlib import Path

from django.conf import settings

from bunco import laptop
from bunco.laptop import lan

FILE = "phones_address"

_cache: tuple[tuple[str, int] | None, str] = (None, "")


def _path() -> Path:
    return Path(settings.DATA_DIR) / FILE


def named() -> bool:
    """Whether ``BUNCO_LAN_ADDRESS`` names the address (then the host page offers no pick)."""
    return bool(os.environ.get("BUNCO_LAN_ADDRESS", "").strip())


def picked() -> str:
    """The host's pick as kept in the data folder ("" for none), read again when it changed."""
    global _cache
    path = _path()
    try:
        key = (str(path), path.stat().st_mtime_ns)
    except OSError:
        return ""
    if _cache[0] != key:
        try:
            text = path.read_text(encoding="utf-8", errors="replace")[:64].strip()
        except OSError:
            text = ""
        _cache = (key, text if lan.usable(text) else "")
    return _cache[1]


def current() -> str:
    """The address every link and QR code for the phones uses now."""
    if named():
        return settings.LAN_ADDRESS
    chosen = picked()
    # a Host header the app refuses would turn every phone away: only an allowed address
    return chosen if chosen and chosen in settings.ALLOWED_HOSTS else settings.LAN_ADDRESS


def choices() -> list[tuple[str, str]]:
    """(address, what it is: "Wi-Fi (wlan0)") for each network the phones may be on, best
    first; the host may pick among them when there are two or more."""
    if settings.PUBLIC_URL or named():
        return []
    try:
        found = lan.ranked(lan.read_interfaces())
    except Exception:  # an adapter the library cannot read: nothing to pick from
        return []
    kinds = {lan.WIFI: "Wi-Fi", lan.WIRED: "cable", lan.OTHER: "network"}
    return [(i.address, f"{kinds[lan.kind(i)]} ({i.labels[0] if i.labels else i.name})")
            for i in found if lan.kind(i) != lan.VIRTUAL and i.address in settings.ALLOWED_HOSTS]


def pick(address: str) -> str | None:
    """Send the phones to ``address`` from now on (kept for the next start): None, or why
    not, in a sentence. Changes nothing on bad input."""
    offered = dict(choices())
    if address not in offered:
        return f"{address or 'That'} is not an address of this laptop the phones could use."
    if not laptop.keep_line(FILE, address):
        return "The data folder cannot be written to, so the address was not changed."
    settings.LAN_ADDRESS = address  # what this process reads elsewhere (a night's file)
    return None
