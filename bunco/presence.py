"""Who is watching: how many screens this process has in each Channels group, so nothing is
rendered for a group nobody is in. With several workers (a shared channel layer) a screen may
be connected to another process, so then every group counts as watched."""

from __future__ import annotations

import threading
from collections import Counter

from django.conf import settings

_counts: Counter[str] = Counter()
_lock = threading.Lock()


def join(group: str) -> None:
    with _lock:
        _counts[group] += 1


def leave(group: str) -> None:
    with _lock:
        _counts[group] -= 1
        if _counts[group] <= 0:
            del _counts[group]


def shared_layer() -> bool:
    backend = settings.CHANNEL_LAYERS.get("default", {}).get("BACKEND", "")
    return backend not in ("bunco.layers.PartyChannelLayer", "channels.layers.InMemoryChannelLayer")


def watching(group: str) -> bool:
    return shared_layer() or _counts.get(group, 0) > 0
