"""How a command's pushes leave the process: ``push(frames)``, the one way out for what
``bunco/live/broadcast.py`` says goes to whom (``BUNCO_STOCK=outbox``: Channels' own way).

Tuned, the pushes are handed to the server's event loop without the command waiting for them
to go out (``Outbox``). A command commits on the one sync thread; waiting there while the loop
sends its pushes (itself busy writing every socket's frames) kept the next tap waiting too. The
loop sends them in the order they were committed, with one exception that keeps a big room's
taps moving: a room-wide event's messages (a bell: one for every table, the TVs and the host;
400 frames at 100 tables) go out a few at a time, the loop free in between, and the pushes of
a tap committed meanwhile go before the rest of them. The room-wide message for the same
screens goes just before the tap's if it has not gone yet, so each screen still gets its
messages in the order they were committed (a screen drops a fragment older than the one it
shows anyway, but the TV's room-wide message holds every table). A room-wide event's parts are
drawn once its banners are written, in the taps' lane (``bunco/runtime/lane.py``).

Stock, as Channels' documentation has it: the committing thread sends its pushes on the
server's loop and waits for them (``async_to_sync(layer.group_send)``), then draws a room-wide
event's parts and sends them too; one command's pushes are out before the next command runs,
so commit order holds. It leans on nothing of another library's.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Protocol

from asgiref.sync import SyncToAsync, async_to_sync, sync_to_async
from channels.layers import get_channel_layer

from bunco.live import layers
from bunco.live.watch import watch
from bunco.runtime import lane, stock

log = logging.getLogger(__name__)
Messages = list[tuple[str, dict]]


class Frames(Protocol):
    """What one command pushes (``broadcast.Frames``)."""

    messages: Messages
    room_wide: bool
    #: A room-wide event's parts, drawn on the sync thread once its banners are out (None:
    #: a later room-wide event drew every screen itself).
    rest: Callable[[], Frames | None] | None


def failed(exc: Exception) -> None:
    """A push lost on its way: the tap is in the log, and the screens' resync (after joining
    their groups again) brings what this push would have."""
    if isinstance(exc, layers.LAYER_ERRORS):  # Redis away
        layers.failed("push", exc)
    else:
        log.error("push failed", exc_info=exc)
    watch.doubt()


async def send_all(messages: Messages) -> None:
    layer = get_channel_layer()
    for group, message in messages:
        try:
            await layer.group_send(group, message)
        except Exception as exc:  # committed already: the screens' resync catches up
            failed(exc)


class Outbox:
    """The server's pushes, handed to its event loop without waiting for them to go out."""

    #: Messages of a room-wide event sent between two looks at what else the loop has to do.
    BATCH = 8

    def __init__(self, loop: asyncio.AbstractEventLoop):
        self.loop = loop
        self.urgent: deque[tuple[str, dict]] = deque()  # taps: each its table's screens
        self.bulk: deque[tuple[str, dict]] = deque()  # room-wide events
        self.sending = False
        self.then: list[Callable[[], Awaitable[None]]] = []  # run when both queues are empty

    def usable(self) -> bool:
        return self.loop.is_running() and not self.loop.is_closed()

    def put(self, messages: Messages, room_wide: bool = False,
            then: Callable[[], Awaitable[None]] | None = None) -> None:
        """From any thread; ``then`` runs on the loop once nothing is left to send."""
        self.loop.call_soon_threadsafe(self._queue, messages, room_wide, then)

    def _queue(self, messages: Messages, room_wide: bool = False,
               then: Callable[[], Awaitable[None]] | None = None) -> None:
        if then is not None:
            self.then.append(then)
        if room_wide:
            if messages and not self.bulk:  # no tap takes the sync thread until these are out
                lane.TAP_LANE.hold()
            self.bulk.extend(messages)
        else:
            mine = {group for group, _ in messages} if self.bulk else set()
            if mine and any(group in mine for group, _ in self.bulk):
                rest: deque[tuple[str, dict]] = deque()
                for item in self.bulk:  # the same screens' room-wide messages go first
                    (self.urgent if item[0] in mine else rest).append(item)
                self.bulk = rest
                if not rest:  # all of them: the taps need wait no longer
                    lane.TAP_LANE.release()
            self.urgent.extend(messages)
        if not self.sending:
            self.sending = True
            self.loop.create_task(self._drain())

    async def _drain(self) -> None:
        layer = get_channel_layer()
        sent = 0
        try:
            while self.urgent or self.bulk:
                queue = self.urgent or self.bulk
                group, message = queue.popleft()
                if queue is self.bulk and not queue:
                    lane.TAP_LANE.release()
                try:
                    await layer.group_send(group, message)
                except Exception as exc:
                    failed(exc)
                sent += 1
                if sent % self.BATCH == 0 and self.bulk:
                    await asyncio.sleep(0)  # read what came in: a tap may go first
        finally:
            self.sending = False
            then, self.then = self.then, []
            for job in then:
                # Not in the context of the thread that queued it (the sync thread's: asgiref
                # would refuse to go back there from it): in the loop's own, as a request's.
                self.loop.create_task(job(), context=contextvars.Context())


#: Whether pushes go through the ``Outbox`` (else they are waited for, stock).
TUNED = not stock("outbox")
_loop: asyncio.AbstractEventLoop | None = None
_outbox: Outbox | None = None


def serve_on(loop: asyncio.AbstractEventLoop) -> None:
    """The server's event loop (``bunco.asgi`` says so on its first request or socket)."""
    global _loop, _outbox
    _loop = loop
    if TUNED and (_outbox is None or _outbox.loop is not loop):
        _outbox = Outbox(loop)


def push(out: Frames) -> None:
    """Push a command's frames (after it committed). A room-wide event's parts are drawn once
    its banners are written: Python runs one thread at a time, and drawing 100 tables
    meanwhile would hold the loop back from writing the banners."""
    outbox = _outbox if TUNED else None
    if outbox is not None and outbox.usable():
        then = partial(_draw_later, out.rest) if out.rest is not None else None
        if out.messages or then is not None:
            outbox.put(out.messages, out.room_wide, then=then)
        return
    # Stock, or no server loop here (a management command, a test): sent and drawn at once.
    _send_now(out.messages)
    if out.rest is not None:
        rest = _drawn(out.rest)
        if rest is not None:
            _send_now(rest.messages)


def _send_now(messages: Messages) -> None:
    """Send ``messages`` on the server's loop and wait for them to be out."""
    if not messages:
        return
    loop = _loop
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if running is not None:  # on the loop itself: it cannot wait for its own work
        running.create_task(send_all(messages))
    elif (loop is not None and loop.is_running()
          and getattr(SyncToAsync.threadlocal, "main_event_loop", None) is not loop):
        # A thread of its own (a copy's, a disk check's): asgiref knows no loop for it.
        asyncio.run_coroutine_threadsafe(send_all(messages), loop).result()
    else:  # the sync thread (a command's commit): on the server's loop, as Channels says
        async_to_sync(send_all)(messages)


def _drawn(rest: Callable[[], Frames | None]) -> Frames | None:
    try:
        return rest()
    except Exception:  # committed already: the screens' resync brings what is missing
        watch.doubt()
        log.exception("drawing a room-wide event's parts failed")
        return None


async def _draw_later(rest: Callable[[], Frames | None]) -> None:
    """A room-wide event's parts, once its banners are out: the sync thread draws them in
    the taps' lane, taking its turn there as a tap does. (Letting every tap that waited for
    the banners go first cost 2,000 players' bell's tables 60-120 ms for 40 ms off a tap.)"""
    async with lane.TAP_LANE.enter():
        parts = await sync_to_async(_drawn, thread_sensitive=True)(rest)
    if parts is not None and parts.messages:
        outbox = _outbox
        if outbox is not None and outbox.usable():
            outbox.put(parts.messages, parts.room_wide)
        else:
            await send_all(parts.messages)
