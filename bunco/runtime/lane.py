"""The taps' lane to the one sync thread (``BUNCO_STOCK=lane``: none, Django's own queue).

Taps enter the sync thread ``width`` at a time and wait their turn here, so the host's bell, a
round's start and the pages (which do not wait here) go ahead of every tap still waiting: the
thread's own queue is first come, first served.

While a room-wide command runs (a host's post: the bell, a take-back) and until its pushes
are out (``hold``), no tap enters at all. Python runs one thread at a time: a bell's 100
tables drawn and 400 frames written, shared with taps arriving meanwhile, took twice as
long (~110-150 ms at 50 taps a second) and so did those taps. Alone, the bell is out in
half the time and the taps that waited for it are no later than before.

Left stock, a tap goes straight to the sync thread's queue, as every request does in Django.
It leans on nothing of another library's.
"""

from __future__ import annotations

import asyncio
import contextlib

from bunco.runtime import stock


class Lane:
    #: Seconds a tap waits for a room-wide command at most (its pushes at 500 tables: ~0.3 s).
    HOLD_AT_MOST = 1.0

    def __init__(self, width: int, tuned: bool = True):
        self.width = width
        self.tuned = tuned
        self._loop: asyncio.AbstractEventLoop | None = None
        self._slots: asyncio.Semaphore | None = None
        self._open: asyncio.Event | None = None
        self.holds = 0

    def _bind(self) -> None:
        loop = asyncio.get_running_loop()
        if self._loop is not loop:  # a test's loop, or the server's first
            self._loop, self._slots = loop, asyncio.Semaphore(self.width)
            self._open = asyncio.Event()
            self._open.set()
            self.holds = 0

    def slot(self) -> asyncio.Semaphore:
        self._bind()
        return self._slots

    @contextlib.asynccontextmanager
    async def enter(self):
        """A tap's turn on the sync thread: when no room-wide command holds the lane."""
        if not self.tuned:
            yield
            return
        slots = self.slot()
        if not self._open.is_set():
            with contextlib.suppress(TimeoutError):  # never held for good, whatever happens
                await asyncio.wait_for(self._open.wait(), self.HOLD_AT_MOST)
        await slots.acquire()
        try:
            yield
        finally:
            slots.release()

    def hold(self) -> None:
        """No tap enters until as many ``release`` calls (on the server's loop)."""
        if not self.tuned:
            return
        self._bind()
        self.holds += 1
        self._open.clear()

    def release(self) -> None:
        if not self.tuned:
            return
        self._bind()
        self.holds = max(0, self.holds - 1)
        if not self.holds:
            self._open.set()

    @contextlib.asynccontextmanager
    async def held(self):
        self.hold()
        try:
            yield
        finally:
            self.release()


#: One tap on the sync thread and the next one ready behind it.
TAP_LANE = Lane(2, tuned=not stock("lane"))
