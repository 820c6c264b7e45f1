"""How a command's pushes leave the process: ``push(frames)``, the one way out for what
``bunco/live/broadcast.py`` says goes to whom.

As Channels' documentation has it, the committing thread sends its pushes on the server's
loop and waits for them (``async_to_sync(layer.group_send)``); a room-wide event's parts are
drawn once its banners are out, and sent too. One command's pushes are out before the next
command runs (commands on a night run one at a time, under its lock), so every screen gets
them in commit order; and the sync thread, busy until a bell's frames are out, takes no tap
meanwhile. It waits ``settings.PUSH_WAIT`` seconds at most (``send_within``): a shared
layer that stopped answering (a frozen Redis) holds no answer longer. A request waits on a
frozen Redis once at most, not once for each thing that asks it: no push is waited for while
one is out past its wait or while the shared limits rest after Redis failed to answer them
(``bunco/shared_counts.py``), and the shared limits do not ask Redis while a push is out.

On the party's own layer (``layer.py``), where a group send writes to every socket in one
step of the loop, waiting buys no order: the committing thread hands the frames to the loop
(still under the night's lock, so in commit order) and goes on, one wake of the loop a push
instead of a trip there and back (``hands_over``).

(An outbox of its own that reordered pushes, a tap's before the rest of a
bell's, and a lane that held taps back from the sync thread while a bell's went out, each
bought less than 15 % of the CPU per tap and of the bell's tables p99, at 405 sockets x 50
taps/s and at 2,005 x 100, and were removed.)
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Protocol

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings

from bunco import shared_counts
from bunco.runtime import layers
from bunco.runtime.watch import watch

log = logging.getLogger(__name__)
Messages = list[tuple[str, dict]]


class Frames(Protocol):
    """What one command pushes (``broadcast.Frames``)."""

    messages: Messages
    #: A room-wide event's parts, drawn once its banners are out (None: a later room-wide
    #: event drew every screen itself).
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


#: Work on the layer still out past its wait (a frozen Redis): while any is, none is waited for.
_stalled: set[asyncio.Future] = set()


def stalled() -> bool:
    """Whether work on the layer is still out past its wait (Redis frozen). From any thread."""
    return any(not task.done() for task in list(_stalled))


shared_counts.push_stalled = stalled


async def within(work, *, wait: bool = True) -> asyncio.Future | None:
    """``work`` (a coroutine on the channel layer) run on this loop and waited for
    ``settings.PUSH_WAIT`` seconds at most (not at all without ``wait``): the finished task,
    or None. One still out then goes on by itself, and while it is out nothing else is waited
    for, so a frozen Redis holds a thread (a tap's answer, ``/healthz``) for one PUSH_WAIT,
    not one each."""
    task = asyncio.ensure_future(work)
    task.add_done_callback(lambda done: done.cancelled() or done.exception())  # read
    _stalled.difference_update([t for t in _stalled if t.done()])
    if wait and not _stalled:
        try:
            await asyncio.wait_for(asyncio.shield(task), settings.PUSH_WAIT)
            return task
        except TimeoutError:
            pass
    _stalled.add(task)
    task.add_done_callback(_stalled.discard)
    return None


async def send_within(messages: Messages) -> None:
    """``send_all``, waited for as ``within`` says (not at all while the shared limits rest:
    Redis just failed to answer them, and this request may have waited on it already): a push
    still out is counted as failed now (the screens' resync catches up) and goes on by
    itself."""
    wait = not shared_counts.SHARED.resting()
    if await within(send_all(messages), wait=wait) is None:
        failed(TimeoutError(f"the channel layer did not answer in {settings.PUSH_WAIT} s" if wait
                            else "Redis did not answer the shared limits: the push not waited for"))


_loop: asyncio.AbstractEventLoop | None = None


def serve_on(loop: asyncio.AbstractEventLoop) -> None:
    """The server's event loop (``bunco.asgi`` says so on its first request or socket)."""
    global _loop
    _loop = loop


def push(out: Frames) -> None:
    """Push a command's frames (after it committed), then a room-wide event's parts."""
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
    known = getattr(getattr(SyncToAsync, "threadlocal", None), "main_event_loop", None)
    if running is not None:  # on the loop itself: it cannot wait for its own work
        running.create_task(send_all(messages))
    elif loop is not None and loop.is_running() and hands_over(get_channel_layer()):
        loop.call_soon_threadsafe(_start, messages)
    elif loop is not None and loop.is_running() and known is not loop:
        # A thread of its own (a copy's, a disk check's): asgiref knows no loop for it.
        asyncio.run_coroutine_threadsafe(send_within(messages), loop).result()
    else:  # the sync thread (a command's commit), or no server here: as Channels says
        async_to_sync(send_within)(messages)


def hands_over(layer) -> bool:
    """Whether a push to ``layer`` may be handed to the loop without waiting for it: its
    group sends finish in one step of the loop (``PartyChannelLayer.in_one_step``), so pushes
    started in order leave in order. Channels' own layer, Redis's: the thread waits."""
    in_one_step = getattr(layer, "in_one_step", None)
    return in_one_step is not None and in_one_step()


#: Pushes handed to the loop and not yet out (a task is kept until it is done).
_out: set[asyncio.Task] = set()


def _start(messages: Messages) -> None:
    """On the loop, in the order the threads handed them: ``messages`` sent."""
    task = asyncio.ensure_future(send_all(messages))
    _out.add(task)
    task.add_done_callback(_out.discard)


def _drawn(rest: Callable[[], Frames | None]) -> Frames | None:
    try:
        return rest()
    except Exception:  # committed already: the screens' resync brings what is missing
        watch.doubt()
        log.exception("drawing a room-wide event's parts failed")
        return None
