"""Python's garbage collector, kept from pausing the party.

Python finds garbage in reference cycles by walking every tracked object of a generation, and
now and then all of them (a "full" collection). The server holds ~100,000 objects from its
start (Django, Twisted, the templates) and ~150 more for every open socket: with 400 screens a
full collection walked 160,000 objects and stopped everything, taps and the bell alike, for
100-130 ms, every ~5 s at 50 taps/s (``gc.callbacks`` timings under ``manage.py loadtest``).
Nearly all of those objects live as long as the server or their socket; the walk finds
almost nothing.

So, once a second, everything that is alive is moved out of the collector's sight
(``gc.freeze()``): collections then walk only what was made in the last second, as a
young generation should. Objects frozen are still freed as usual when nothing refers to them;
only cycles among them (a closed socket's protocol and transport) wait, for a full collection
over everything (``gc.unfreeze()`` then ``gc.collect()``) once the frozen objects have doubled
since the last one (counted once a minute: counting walks them all). Memory stays within about
twice what is alive, and the one long pause comes when they have doubled instead of every few
seconds.
"""

from __future__ import annotations

import asyncio
import gc

#: Seconds between freezes.
EVERY = 1.0
#: Freezes between two counts of the frozen objects.
COUNT_EVERY = 60


class Collector:
    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.handle: asyncio.TimerHandle | None = None
        self.kept = 0  # objects frozen after the last full collection
        self.full = 0  # full collections run here
        self.ticks = 0

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        """Run on ``loop`` (the server's; a later loop takes over from an earlier one)."""
        if self.loop is loop and self.handle is not None:
            return
        if self.handle is not None:
            self.handle.cancel()
        self.loop = loop
        if not self.kept:
            self.collect_all()
        self.handle = loop.call_later(EVERY, self.tick)

    def tick(self) -> None:
        self.step()
        loop = self.loop
        if loop is not None and not loop.is_closed():
            self.handle = loop.call_later(EVERY, self.tick)

    def step(self) -> None:
        """Freeze what is alive; a full collection once the frozen objects have doubled."""
        gc.freeze()
        self.ticks += 1
        if self.ticks % COUNT_EVERY == 0 and gc.get_freeze_count() >= 2 * self.kept:
            self.collect_all()

    def collect_all(self) -> None:
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self.kept = max(gc.get_freeze_count(), 1)
        self.full += 1


collector = Collector()
