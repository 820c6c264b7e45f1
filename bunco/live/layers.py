"""What a shared channel layer's failures mean for this process (``failed``).

With several workers the layer is Redis, which keeps every group's members. Redis restarted
without its files comes back empty: a screen still connected to its worker gets no push.
Whatever in this process sees the layer fail (a screen's read, a push, a join) says so here
(``failed``); each screen then joins its groups again at its next sync (``bunco.live.consumers``).
The party's own layer (one process) is ``bunco.runtime.layer.PartyChannelLayer``.
"""

from __future__ import annotations

import contextlib
import logging
import time

log = logging.getLogger(__name__)


def _layer_errors() -> tuple[type[BaseException], ...]:
    errors: list[type[BaseException]] = [OSError, TimeoutError]
    with contextlib.suppress(ImportError):  # redis-py, when the layer is Redis
        from redis.exceptions import RedisError

        errors.append(RedisError)
    return tuple(errors)


#: What a channel layer raises when its server is away: Redis down, restarting or out of
#: reach. Anything else a layer raises is a bug, and is left to surface as one.
LAYER_ERRORS = _layer_errors()

#: How many times this process has seen the channel layer fail. A screen that joined its
#: groups before the latest failure joins them again (a restarted Redis has lost them).
failures = 0
_reported_at = float("-inf")
REPORT_EVERY = 10.0  # seconds: one warning for a run of failures, not one per screen


def failed(what: str, exc: BaseException) -> None:
    """The channel layer failed at ``what`` (a read, a push, a join): counted, and reported
    at most once every few seconds."""
    global failures, _reported_at
    failures += 1
    now = time.monotonic()
    if now - _reported_at >= REPORT_EVERY:
        _reported_at = now
        log.warning("channel layer failing at a %s: %s: %s (%d failures in this process so "
                    "far); screens join their groups again at their next sync", what,
                    type(exc).__name__, exc, failures)


