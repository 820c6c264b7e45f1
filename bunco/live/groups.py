"""Channels groups: their names, in one place, and who is watching each. A process counts
its screens in each group, so nothing is rendered for a group nobody is in. With several
workers (a shared channel layer) a screen may be connected to another process, so then every
group counts as watched (``shared_layer``, the runtime's)."""

from __future__ import annotations

import threading
from collections import Counter

from bunco.runtime.layers import shared_layer


def host(night_id: int) -> str:
    return f"host_{night_id}"


def tv(night_id: int) -> str:
    return f"tv_{night_id}"


def table(night_id: int, number: int) -> str:
    return f"table_{night_id}_{number}"


def table_number(group: str | None) -> int | None:
    """The table a table's group is for (None for no group)."""
    return int(group.rsplit("_", 1)[1]) if group else None


def player(player_id: int) -> str:
    return f"player_{player_id}"


# -- who is watching --------------------------------------------------------------------
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


def watching(group: str) -> bool:
    return shared_layer() or _counts.get(group, 0) > 0
