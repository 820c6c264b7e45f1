"""A screen that stops reading costs a bounded amount of the server's memory.

Twisted keeps whatever a socket has not yet taken in an unbounded buffer, and the channel
layer's coalescing never applies once a push has left the consumer: a TV whose Wi-Fi stalls
while it keeps its connection (or a tab frozen in the background whose socket stays open)
would otherwise collect every push of the night in the server. Here, when more than
``BUDGET`` bytes already wait for a screen, its further pushes are dropped (whole frames, so
what it does receive stays in order) and the screen is marked behind. Once it has read what
was waiting, it is sent a fresh snapshot (as if it had asked for a sync: the same path a
page's own sync takes), so it shows the right state again. A screen still behind after
``CLOSE_AFTER`` seconds is disconnected; its page connects again and gets a snapshot then.

A screen that neither reads nor writes is closed by Daphne's own ping (after 120 s without a
message, 30 s more for the pong: ``limits.PING_EVERY``); one that writes (a page syncing every
10 s with several workers, a phone tapping) is never pinged, hence the timer here.

It leans on Twisted's write buffer (``dataBuffer``, ``offset``, ``_tempDataLen`` of a TCP
connection) and Daphne's ``application_queue``; measured on Twisted 26.10.0, Daphne 4.2.3,
autobahn 26.10.2. Without them it warns once and leaves sending as it is. It wraps nothing
itself: ``wire``'s one wrapper of ``serverSend`` asks ``admit`` before it frames anything.
"""

from __future__ import annotations

import logging
import os
import time

from daphne.ws_protocol import WebSocketProtocol
from twisted.internet import reactor, tcp

log = logging.getLogger(__name__)

#: Bytes that may wait for one screen before its pushes are dropped (a TV's whole snapshot at
#: 2,000 players is larger: one frame always goes when nothing waits before it).
BUDGET = int(os.environ.get("BUNCO_SCREEN_BACKLOG", 256 * 1024))
#: Seconds a screen may stay behind before it is disconnected.
CLOSE_AFTER = float(os.environ.get("BUNCO_SCREEN_BEHIND_CLOSE", 30))
CHECK_EVERY = 0.25
#: What the screen's consumer is told once the screen reads again: a sync naming no state,
#: which every screen's consumer answers with a whole snapshot.
RESYNC = '{"type": "sync", "behind": true}'

_BUFFER_PARTS = ("dataBuffer", "offset")  # and each connection's own _tempDataLen
#: How many times a screen fell behind, was brought back, was disconnected (this process).
counts = {"behind": 0, "resynced": 0, "closed": 0}
_unknown_warned = False


def waiting(transport) -> int | None:
    """Bytes written to ``transport`` and not yet taken by the socket (None: not known)."""
    try:
        return len(transport.dataBuffer) - transport.offset + transport._tempDataLen
    except (AttributeError, TypeError):
        return None


def admit(protocol) -> bool:
    """Whether a frame may go to this screen now (False: dropped, the screen is behind).
    ``wire``'s one wrapper of autobahn's ``serverSend`` asks it first, before any framing."""
    if protocol.state != protocol.STATE_OPEN:
        return True
    if protocol.__dict__.get("_behind_since") is not None:
        return False
    queued = waiting(protocol.transport)
    if queued is None:
        _unknown(protocol.transport)
    elif queued > BUDGET:
        _fall_behind(protocol)
        return False
    return True


def _unknown(transport) -> None:
    global _unknown_warned
    if not _unknown_warned:
        _unknown_warned = True
        log.warning("cannot tell what waits for a %s: its screens are not bounded",
                    type(transport).__name__)


def _fall_behind(protocol) -> None:
    protocol._behind_since = time.monotonic()
    counts["behind"] += 1
    log.info("a screen stopped reading (%s); its pushes wait for a snapshot",
             protocol.client_addr)
    reactor.callLater(CHECK_EVERY, _check, protocol)


def _check(protocol) -> None:
    since = protocol.__dict__.get("_behind_since")
    if since is None or protocol.state != protocol.STATE_OPEN:
        return
    if not waiting(protocol.transport):
        protocol._behind_since = None
        queue = getattr(protocol, "application_queue", None)
        if queue is not None:
            counts["resynced"] += 1
            queue.put_nowait({"type": "websocket.receive", "text": RESYNC})
        return
    if time.monotonic() - since > CLOSE_AFTER:
        counts["closed"] += 1
        log.info("a screen read nothing for %.0f s (%s): disconnected", CLOSE_AFTER,
                 protocol.client_addr)
        protocol.dropConnection(abort=True)
        return
    reactor.callLater(CHECK_EVERY, _check, protocol)


def usable() -> bool:
    """Whether what this leans on is there (else one warning: screens are not bounded)."""
    missing = [name for name in _BUFFER_PARTS if not hasattr(tcp.Connection, name)]
    if missing or not hasattr(WebSocketProtocol, "dropConnection"):
        log.warning("Twisted/autobahn changed (%s missing): a screen that stops reading is not "
                    "bounded", ", ".join(missing) or "dropConnection")
        return False
    return True
