"""What a screen's consumer changes of Channels' own:

- ``KeepReading``: Channels' consumer reads its channel-layer messages through
  ``self.channel_receive``, which it sets as the connection starts; here a read that fails (Redis
  restarting) is tried again, 0.5 s doubling to 3 s, instead of ending the screen's connection
  (a table's taps over its websocket need no channel layer). A Channels that no longer sets it
  simply runs its own reader.
- ``PartyLayer``: a screen's pushes taken straight from the party's layer (``layer.py``).
- ``DirectDispatch`` (``BUNCO_STOCK=dispatch``: Channels' own): Channels' dispatch first closes
  stale database connections for every message, a trip to the one sync thread (where every tap
  and render waits its turn) before each push reaches its screen: a bell's 400 pushes queued
  behind the taps. No screen handler reads the database except through
  ``database_sync_to_async``, which closes stale connections itself, so a push goes straight to
  its socket.
"""

from __future__ import annotations

import asyncio
import random

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from bunco.runtime import layers, stock


class KeepReading:
    @property
    def channel_receive(self):
        return self._receive_from_layer

    @channel_receive.setter
    def channel_receive(self, reader) -> None:
        self._layer_reader = reader

    async def _receive_from_layer(self) -> dict:
        pause = 0.5
        while True:
            try:
                return await self._layer_reader()
            except layers.LAYER_ERRORS as exc:
                layers.failed("read", exc)
                await asyncio.sleep(pause * random.uniform(0.5, 1.0))
                pause = min(3.0, pause * 2)


class DirectDispatch:
    async def dispatch(self, message) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)


class PartyLayer:
    """What the party's layer (``layer.py``) offers a screen beyond a channel layer's own, asked
    here so a screen need not know which layer runs: its pushes handed straight to it, and how
    many wait in its queue. Another layer (Channels' own, Redis's) queues every push."""

    def take_pushes_directly(self, on: bool) -> None:
        """While ``on``, the layer hands this screen's group messages to its ``dispatch`` as
        they are sent (the socket written at once); off, before it goes."""
        direct = getattr(self.channel_layer, "direct", None)
        if direct is not None:
            direct(self.channel_name, self.dispatch if on else None)

    def pushes_queued(self) -> int:
        """Messages waiting in this screen's queue: on their way to it, not missed."""
        pending = getattr(self.channel_layer, "pending", None)
        return pending(self.channel_name) if pending is not None else 0


def screen_consumer_base() -> type[AsyncJsonWebsocketConsumer]:
    """The base of every screen's consumer: Channels' JSON consumer with the pieces above."""
    pieces = (KeepReading, PartyLayer) if stock("dispatch") else (
        KeepReading, PartyLayer, DirectDispatch)
    return type("ScreenConsumerBase", (*pieces, AsyncJsonWebsocketConsumer), {})
