"""The in-memory channel layer of a party (one process), made cheap per message.

Channels' own in-memory layer sweeps every channel and every group membership for expired
messages on every send and receive, and deep-copies each message once per receiver: with 400
screens connected that sweep runs thousands of times per tap, so a tap's cost grew with the
room. Here the sweep runs at most once every ten seconds (a message expires after a minute, a
group membership after a day; at 2,000 screens a sweep every second was a few per cent of a
quiet room's server), and a message, whose values are only strings and numbers that nobody
changes, is shared as is. A
table's tally sent to a screen that has not read the table's previous one yet takes its place
(``replaces``): a TV behind catches up with the latest of each table, and its queue stays as
long as the room has tables.

A screen's consumer in this process may take its group messages directly (``direct``): a
group send then hands each message to the consumer's handler at once, which writes it to the
socket, instead of queueing it for the consumer's own task to wake, read and forward. A bell
is 400 such messages; the queue's round trip was most of what each cost. Messages that may
be replaced still go through the queue, where a TV that falls behind has them coalesced.

It leans on ``InMemoryChannelLayer``'s own ``channels``, ``groups``, ``expiry`` and
``_clean_expired`` (Channels 4.3.2). A Channels without them gets one warning and Channels'
own behaviour: messages copied and queued, no coalescing, no direct pushes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer

from bunco.runtime import stock

log = logging.getLogger(__name__)
#: What the tuning reads of Channels' layer.
LEANS_ON = ("channels", "groups", "expiry", "_clean_expired", "get_capacity")
_warned = False


class PartyChannelLayer(InMemoryChannelLayer):
    sweep_every = 10.0
    #: Messages waiting for one screen before more are dropped (Channels' default is 100).
    #: A TV or the host gets every table's taps: at 50 taps a second, 100 is two seconds of a
    #: busy server's hiccup (a bell re-rendering every table), and a frame dropped there is a
    #: frame the TV never shows. Messages are shared, not copied, so a long queue costs little.
    capacity = 1000

    def __init__(self, *args, **kwargs):
        global _warned
        kwargs.setdefault("capacity", self.capacity)
        super().__init__(*args, **kwargs)
        missing = [name for name in LEANS_ON if not hasattr(self, name)]
        #: False: Channels changed under it, and this layer behaves as Channels' own.
        self.tuned = not missing
        if missing and not _warned:
            _warned = True
            log.warning("Channels' in-memory layer changed (%s missing): the party's layer "
                        "runs as Channels' own", ", ".join(missing))
        self._one_step = self.tuned and not stock("dispatch")
        self._swept = 0.0
        # channel -> {fragment id: its entry still waiting in the channel's queue}
        self._waiting: dict[str, dict[str, list]] = {}
        # channel -> its consumer's handler of group messages, taking them directly
        self._direct: dict[str, Callable[[dict], Awaitable[None]]] = {}

    def direct(self, channel: str, handler: Callable[[dict], Awaitable[None]] | None) -> None:
        """Hand ``channel``'s group messages to ``handler`` as they are sent (None: queue them
        again). The handler must not wait on anything but the socket write it makes."""
        if not self.tuned:
            return
        if handler is None:
            self._direct.pop(channel, None)
        else:
            self._direct[channel] = handler

    def in_one_step(self) -> bool:
        """Whether a group send here finishes in one step of the loop, waiting on nothing: each
        screen's message queued or handed to its handler, which writes to the socket at once
        (``runtime.consumer.DirectDispatch``; Channels' own dispatch first waits on the sync
        thread). Pushes started in order then leave in order (``pushes.hands_over``)."""
        return self._one_step

    def pending(self, channel: str) -> int:
        """Messages waiting in ``channel``'s queue (a TV behind on its tables' tallies): they
        are on their way to the screen, not lost."""
        queue = self.channels.get(channel) if self.tuned else None
        return queue.qsize() if queue is not None else 0

    def _clean_expired(self):
        if not self.tuned:
            return super()._clean_expired()
        now = time.monotonic()
        if now - self._swept >= self.sweep_every:
            self._swept = now
            super()._clean_expired()
            for channel in [c for c in self._waiting if c not in self.channels]:
                del self._waiting[channel]

    async def flush(self):
        self._waiting.clear()
        await super().flush()

    async def send(self, channel, message):
        """Queue ``message`` for ``channel``. A message that ``replaces`` a fragment (a table's
        tally on the TV or the host's page, which get every table's every tap) takes the place
        of that fragment's older message if the screen has not read it yet: a screen that
        falls behind catches up with each table's latest tally, in the order the tables
        changed, instead of every tap in between (each fragment is the table whole)."""
        if not self.tuned:
            return await super().send(channel, message)
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_channel_name(channel)
        assert "__asgi_channel__" not in message
        key = message.get("replaces")
        if key is not None:
            waiting = self._waiting.get(channel)
            entry = waiting.get(key) if waiting else None
            if entry is not None:
                entry[1] = message
                return
        queue = self.channels.setdefault(channel, asyncio.Queue(maxsize=self.get_capacity(channel)))
        entry = [time.time() + self.expiry, message]
        try:
            queue.put_nowait(entry)
        except asyncio.queues.QueueFull:
            raise ChannelFull(channel) from None
        if key is not None:
            self._waiting.setdefault(channel, {})[key] = entry

    async def receive(self, channel):
        if not self.tuned:
            return await super().receive(channel)
        self.require_valid_channel_name(channel)
        self._clean_expired()
        queue = self.channels.setdefault(channel, asyncio.Queue(maxsize=self.get_capacity(channel)))
        try:
            entry = await queue.get()
        finally:
            if queue.empty():
                self.channels.pop(channel, None)
        message = entry[1]
        key = message.get("replaces")
        waiting = self._waiting.get(channel) if key is not None else None
        if waiting is not None and waiting.get(key) is entry:
            del waiting[key]
            if not waiting:
                del self._waiting[channel]
        return message

    async def group_send(self, group, message):
        if not self.tuned:
            return await super().group_send(group, message)
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        for channel in list(self.groups.get(group, {})):
            handler = self._direct.get(channel)
            # A fragment that may replace an unread one (a TV's or the host's table) keeps to
            # the queue: a screen too slow to read every tap catches up with the latest.
            if handler is not None and "replaces" not in message:
                try:
                    await handler(message)
                except Exception:  # a screen gone mid-push: the others still get theirs
                    log.debug("direct push to %s failed", channel, exc_info=True)
                continue
            with contextlib.suppress(ChannelFull):  # a screen that stopped reading resyncs
                await self.send(channel, message)
