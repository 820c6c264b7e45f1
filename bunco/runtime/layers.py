"""The channel layer as this process sees it: whether it is shared with other processes
(``shared_layer``), and what a shared layer's failures mean here (``failed``).

With several workers the layer is Redis, which keeps every group's members. Redis restarted
without its files comes back empty: a screen still connected to its worker gets no push.
Whatever in this process sees the layer fail (a screen's read, a push, a join) says so here
(``failed``); each screen then joins its groups again at its next sync (``bunco.live.consumers``).
The party's own layer (one process) is ``bunco.runtime.layer.PartyChannelLayer``.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import time

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver

log = logging.getLogger(__name__)


@functools.cache
def shared_layer() -> bool:
    """Whether the channel layer is shared with other processes. Read once: a bell asks for
    every table, phone and TV, and each read of a setting goes through Django's lazy
    settings object (a tenth of a bell's drawing at 100 tables)."""
    backend = settings.CHANNEL_LAYERS.get("default", {}).get("BACKEND", "")
    return backend not in ("bunco.runtime.layer.PartyChannelLayer",
                           "channels.layers.InMemoryChannelLayer")


@receiver(setting_changed)
def _layer_changed(*, setting, **kwargs) -> None:
    if setting == "CHANNEL_LAYERS":  # a test overriding the layer
        shared_layer.cache_clear()


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
