"""The server's timer over its screens (``watch``): what ``bunco/live/watch.py`` looks for,
on the loop.

Every few seconds, once for the room rather than once a screen:

- a screen sent nothing for ``limits.HEARD_EVERY`` seconds is sent ``{"type": "here"}``, so a
  page that hears nothing for about twice that takes its socket for dead and connects again
  (a TV whose Wi-Fi blipped into a half-open connection). Every page counts on it, tuned or
  stock;
- after a push failed (``doubt``), every screen is asked to sync;
- every ``limits.WATCH_EVERY`` seconds, each watched night's log is looked at (``look``);
  where another process wrote to it, its screens are asked to sync, and asked once more at
  the next look (a change this process pushed moments before counts as still on its way at
  the first).

The looks are the tuning (``BUNCO_STOCK=watch``): with them, one process's pages do not sync
on a timer (``limits.SYNC_EVERY``). Left stock, the pages sync every 10 s, as they do where
several workers share a layer, and the server looks at no log. It leans on nothing of another
library's.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Callable
from typing import Protocol

from channels.db import database_sync_to_async
from django.conf import settings

from bunco import clock, limits
from bunco.runtime import layers, stock

log = logging.getLogger(__name__)

HERE = '{"type": "here"}'
SYNC = '{"type": "sync"}'


class Screen(Protocol):
    night_id: int
    said: float  # the server's clock when the screen was last sent anything

    async def say(self, text: str) -> None: ...


def watch_every() -> float:
    return settings.BUNCO_WATCH_EVERY or limits.WATCH_EVERY


class Watch:
    #: Whether the server looks at its nights' logs (its pages then sync on no timer).
    looking = not stock("watch")

    def __init__(self, look: Callable[[int], bool] = lambda night_id: False) -> None:
        #: Whether night ``id``'s log moved without this process (on the sync thread): the
        #: live layer's ``moved_elsewhere``, put in at start-up (``bunco/apps.py``).
        self.look = look
        self.loop: asyncio.AbstractEventLoop | None = None
        self.handle: asyncio.TimerHandle | None = None
        self.screens: dict[int, set[Screen]] = defaultdict(set)
        self.looked = 0.0  # the server's clock at the last look at the logs (bunco.clock)
        self.doubted = False  # a push failed since the last tick: every screen is asked
        self.again: set[int] = set()  # nights asked at the last look, asked again at the next
        self.busy = False

    def add(self, screen: Screen) -> None:
        loop = asyncio.get_running_loop()
        if loop is not self.loop:  # a new loop (a test's) takes over: the old one's screens
            self.stop()            # went with it
            self.loop, self.screens, self.looked = loop, defaultdict(set), clock.monotonic()
        self.screens[screen.night_id].add(screen)
        if self.handle is None:
            self.handle = loop.call_later(self.tick_every(), self.tick)

    def remove(self, screen: Screen) -> None:
        here = self.screens.get(getattr(screen, "night_id", None))  # None: refused at once
        if here is not None:
            here.discard(screen)
            if not here:
                del self.screens[screen.night_id]

    def stop(self) -> None:
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None

    def doubt(self) -> None:
        """A push may have failed: every screen is asked what it shows at the next tick. From
        any thread: a push failing while a tick reads the flag is before that tick's asks."""
        self.doubted = True

    @staticmethod
    def tick_every() -> float:
        return min(5.0, limits.HEARD_EVERY / 5, watch_every() / 2)

    def tick(self) -> None:
        loop = self.loop
        self.handle = None
        if loop is None or loop.is_closed():
            return
        if self.screens:
            self.handle = loop.call_later(self.tick_every(), self.tick)
        if not self.busy:
            self.busy = True
            loop.create_task(self.round())

    async def round(self) -> None:
        try:
            now = clock.monotonic()
            asked: set[int] = set(self.screens) if self.doubted else set()
            self.doubted = False  # the asks below all go after this
            if (self.looking and now - self.looked >= watch_every()
                    and not layers.shared_layer()):
                self.looked = now
                moved = {night_id for night_id in list(self.screens)
                         if await self.moved_elsewhere(night_id)}
                asked |= moved | (self.again & set(self.screens))
                self.again = moved
            quiet = now - limits.HEARD_EVERY
            for night_id, here in list(self.screens.items()):
                ask = night_id in asked
                for screen in list(here):
                    if ask or screen.said <= quiet:
                        await self.say(screen, SYNC if ask else HERE)
        finally:
            self.busy = False

    @staticmethod
    async def say(screen: Screen, text: str) -> None:
        try:
            await screen.say(text)
        except Exception:  # a screen closing meanwhile: the others still hear
            log.debug("could not reach a screen", exc_info=True)

    async def moved_elsewhere(self, night_id: int) -> bool:
        try:
            return await database_sync_to_async(self.look)(night_id)
        except Exception as exc:  # the database restarting: looked at again next time
            log.warning("could not look at night %s's log: %r", night_id, exc)
            return False


#: The server's one timer over its screens.
watch = Watch()
