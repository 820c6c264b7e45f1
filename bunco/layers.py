"""The in-memory channel layer of a party (one process), made cheap per message.

Channels' own in-memory layer sweeps every channel and every group membership for expired
messages on every send and receive, and deep-copies each message once per receiver: with 400
screens connected that sweep runs thousands of times per tap, so a tap's cost grew with the
room. Here the sweep runs at most once a second (expiry is measured in seconds anyway), and a
message, whose values are only strings and numbers that nobody changes, is shared as is.
"""

from __future__ import annotations

import asyncio
import contextlib
import time

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer


class PartyChannelLayer(InMemoryChannelLayer):
    sweep_every = 1.0
    #: Messages waiting for one screen before more are dropped (Channels' default is 100).
    #: A TV or the host gets every table's taps: at 50 taps a second, 100 is two seconds of a
    #: busy server's hiccup (a bell re-rendering every table), and a frame dropped there is a
    #: frame the TV never shows. Messages are shared, not copied, so a long queue costs little.
    capacity = 1000

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("capacity", self.capacity)
        super().__init__(*args, **kwargs)
        self._swept = 0.0

    def _clean_expired(self):
        now = time.monotonic()
        if now - self._swept >= self.sweep_every:
            self._swept = now
            super()._clean_expired()

    async def send(self, channel, message):
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_channel_name(channel)
        assert "__asgi_channel__" not in message
        queue = self.channels.setdefault(channel, asyncio.Queue(maxsize=self.get_capacity(channel)))
        try:
            queue.put_nowait((time.time() + self.expiry, message))
        except asyncio.queues.QueueFull:
            raise ChannelFull(channel) from None

    async def group_send(self, group, message):
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        for channel in list(self.groups.get(group, {})):
            with contextlib.suppress(ChannelFull):  # a screen that stopped reading resyncs
                await self.send(channel, message)
