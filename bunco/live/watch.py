"""The server keeps its screens current and their sockets honest, without their asking.

One process on the party's own channel layer loses nothing it pushes to a connected screen, so
its pages do not sync on a timer (a quiet room of 400 screens syncing every 30 s cost a third
of what its taps did). What a push cannot bring is looked for instead, once for the room
rather than once a screen, by the server's timer (``bunco/runtime/watch.py``, which also says
"here" to a quiet screen and asks every screen after a push failed):

- **Entries another process wrote** (a command, a night opened again from an older copy):
  every ``limits.WATCH_EVERY`` seconds each watched night's log is compared with this
  process's fold (``moved_elsewhere``); where they differ, the night's screens are sent
  ``{"type": "sync"}`` and answer with what they show, as a page's sync always did (a
  snapshot only if something is behind, a reload if the log went back).

With several workers sharing a layer (or ``BUNCO_STOCK=watch``) the pages sync every 10 s
themselves and no log is looked at; the heartbeat still goes.
"""

from __future__ import annotations

from bunco.night.cache import folds
from bunco.night.selectors import logged_seq
from bunco.runtime.watch import watch


def moved_elsewhere(night_id: int) -> bool:
    """Whether the night's log and this process's fold of it differ: another process wrote to
    it, or it went back to an older copy. On the sync thread, under the fold's lock, so a
    command of this process is never caught between its write and its fold; a lock held
    elsewhere for more than a second (a night being deleted) is looked at next time."""
    lock = folds.lock(night_id)
    if not lock.acquire(timeout=1.0):
        return False
    try:
        state = folds.get(night_id)
        seq = logged_seq(night_id)
        return seq is not None and (state is None or state.seq != seq)
    finally:
        lock.release()


def install() -> None:
    """The server's timer looks with ``moved_elsewhere`` (at start-up: ``bunco/apps.py``)."""
    watch.look = moved_elsewhere
