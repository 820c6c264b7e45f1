"""The server's one clock: every timer of the server (the screens' sync settling, the watch,
the copier, the collector) reads the time here, so a test can hold it.

``monotonic()`` is for intervals (how long since), ``wall()`` for times that are shown or
stored (epoch seconds). In a party both are the system's. A test puts in a clock of its own
with ``use`` and moves it on by hand; whatever sleeps until a time (the copier's thread)
registers with ``on_move`` to be woken when a held clock moves.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import contextmanager


class SystemClock:
    """The clock of a party: the system's own."""

    monotonic = staticmethod(time.monotonic)
    wall = staticmethod(time.time)


class HeldClock:
    """A clock that moves only when told (tests): ``advance(seconds)``."""

    def __init__(self, start: float | None = None, wall: float | None = None):
        """Held at ``start`` (default: the system's monotonic time now, in whole seconds, so a
        timer set before is not thrown far off and steps of halves add up exactly) and
        ``wall`` (default: the system's time now)."""
        self.now = float(int(time.monotonic())) if start is None else start
        self.offset = (time.time() if wall is None else wall) - self.now

    def monotonic(self) -> float:
        return self.now

    def wall(self) -> float:
        return self.now + self.offset

    def advance(self, seconds: float) -> None:
        self.now += seconds
        for wake in list(_woken):
            wake()


_clock: SystemClock | HeldClock = SystemClock()
_woken: list[Callable[[], None]] = []
#: The time now, by the clock in use (``use`` puts another's in): read on every timer's path,
#: so the clock's own functions, not a call that hands on to them.
monotonic: Callable[[], float] = _clock.monotonic
wall: Callable[[], float] = _clock.wall


def on_move(wake: Callable[[], None]) -> None:
    """Call ``wake`` whenever a held clock moves on (never, with the system's)."""
    if wake not in _woken:
        _woken.append(wake)


@contextmanager
def use(clock: SystemClock | HeldClock):
    """Every timer reads ``clock`` inside the block."""
    global _clock, monotonic, wall
    before, _clock = _clock, clock
    monotonic, wall = clock.monotonic, clock.wall
    try:
        yield clock
    finally:
        _clock, monotonic, wall = before, before.monotonic, before.wall
