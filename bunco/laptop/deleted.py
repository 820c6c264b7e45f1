"""The nights deleted on this laptop, as their links knew them: a phone still holding a
deleted night's table or player link is told the night is gone (and drops its taps), where a
link this laptop never knew may be a night not opened here yet (after a laptop swap), whose
phones keep their taps. Kept in the data folder (``deleted_nights``): a digest of each link's
token, never the token, the latest ``MOST`` of them."""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Iterable
from pathlib import Path

from django.conf import settings

FILE = "deleted_nights"
#: At most this many links remembered (a few big nights'); the oldest are forgotten first.
MOST = 50_000

_lock = threading.Lock()
_cache: tuple[tuple[str, int] | None, frozenset[str]] = (None, frozenset())


def _path() -> Path:
    return Path(settings.DATA_DIR) / FILE


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()[:32]


def _read() -> list[str]:
    try:
        return _path().read_text(encoding="ascii", errors="replace").split()
    except OSError:
        return []


def remember(tokens: Iterable[str]) -> None:
    """A night's links, as it is deleted. A data folder that cannot be written leaves its
    phones as a night not known yet: never in the deletion's way."""
    with _lock:
        kept = _read() + [_digest(t) for t in tokens if t]
        path = _path()
        partial = path.with_name(FILE + ".partial")
        try:
            partial.write_text("\n".join(kept[-MOST:]) + "\n", encoding="ascii")
            os.replace(partial, path)
        except OSError:
            return


def knows(token: str) -> bool:
    """Whether ``token`` was a link of a night deleted here (read again when it changed)."""
    global _cache
    path = _path()
    try:
        key = (str(path), path.stat().st_mtime_ns)
    except OSError:
        return False
    if _cache[0] != key:
        _cache = (key, frozenset(_read()))
    return _digest(token) in _cache[1]
