"""What a screen's consumer changes of Channels' own:

- ``KeepReading``: Channels' consumer reads its channel-layer messages through
  ``self.channel_receive``, which it sets as the connection starts; here a read that fails (Redis
  restarting) is tried again, 0.5 s doubling to 3 s, instead of ending the screen's connection
  (a table's taps over its websocket need no channel layer). A Channels that no longer sets it
  simply runs its own reader.
- ``FairShare``: every message a screen sends, within its share (``bunco.limits``) and read as
  one JSON object of bounded size before a face's ``receive_json`` sees it.
- ``Speaking``: what a screen is sent, pushes forwarded as they were rendered, each noted for the
  watch (``said``) and the sync (``forwarded``).
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
import json
import logging
import random

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.db import DatabaseError

from bunco import clock, limits
from bunco.runtime import layers, stock

NOT_UNDERSTOOD = "that message did not make sense; reload the page"
log = logging.getLogger(__name__)


def decode(text_data, bytes_data) -> tuple[object, str | None]:
    """A screen's message as JSON, or why not: binary, too big, not JSON, nested too deep."""
    if text_data is None:
        return None, NOT_UNDERSTOOD
    if len(text_data) > limits.WS_MAX_BYTES:
        return None, "that message was too big; reload the page"
    try:
        return json.loads(text_data), None
    except (ValueError, RecursionError):
        return None, NOT_UNDERSTOOD


class FairShare:
    async def receive(self, text_data=None, bytes_data=None, **kwargs) -> None:
        """Every message, before it costs anything: within the screen's fair share (else
        "slow down": a tap is kept by the phone and retried, and a screen that keeps on is
        closed), then one JSON object of bounded size (else a clear error; the connection
        stays open)."""
        content, error = decode(text_data, bytes_data)
        if not self.bucket.take():
            await self.slow_down(content)
            return
        self.refused = 0
        if error:
            await self.send_json({"type": "error", "message": error})
            return
        try:
            await self.receive_json(content)
        except DatabaseError as exc:
            # The database restarting: a sync or a clock is asked again in a few seconds;
            # the screen stays open and its pushes, which need no database, keep coming.
            log.warning("a screen's message could not be answered now: %r", exc)

    async def slow_down(self, content) -> None:
        self.refused += 1
        if self.refused >= limits.WS_STRIKES:
            limits.penalise(self.scope["path"])
            await self.close(code=4429, reason="too many messages")
            return
        if isinstance(content, dict) and content.get("type") == "tap":
            fields = content.get("fields")
            key = fields.get("key") if isinstance(fields, dict) else None
            await self.retry_later(key if isinstance(key, str) else None)
        elif self.refused == 1 or self.refused % 10 == 0:
            await self.send_json({"type": "error", "code": "slow_down",
                                  "message": limits.SLOW_DOWN})

    async def retry_later(self, key) -> None:
        """Answer the tap with this key: over a limit, kept by the phone and sent again."""
        await self.send_json({"type": "ack", "key": key, "status": 429, **limits.RETRY_LATER})


class Speaking:
    #: The newest seq of anything forwarded to the screen (pushes go out in commit order, so
    #: everything before it that was pushed to this screen went out too).
    forwarded = 0
    #: The server's clock when the screen was last sent anything (``bunco.runtime.watch``).
    said = 0.0

    async def screen_update(self, event) -> None:
        # Straight to the server (AsyncWebsocketConsumer.send builds the same message): a bell
        # is 400 of these.
        self.forwarded = max(self.forwarded, event.get("seq") or 0)
        await self.say(event["html"])

    async def say(self, text: str) -> None:
        """Send the screen ``text`` as it is, and note when (``bunco.live.watch``)."""
        self.said = clock.monotonic()
        await self.base_send({"type": "websocket.send", "text": text})

    async def send(self, text_data=None, bytes_data=None, close=False) -> None:
        self.said = clock.monotonic()
        await super().send(text_data=text_data, bytes_data=bytes_data, close=close)


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
    pieces = (KeepReading, FairShare, Speaking, PartyLayer)
    if not stock("dispatch"):
        pieces = (*pieces, DirectDispatch)
    return type("ScreenConsumerBase", (*pieces, AsyncJsonWebsocketConsumer), {})
