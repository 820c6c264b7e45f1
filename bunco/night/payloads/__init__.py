"""Every kind of event the log holds, one class each: its name in the log (``kind``), what it
carries (its fields: the row's ``data`` read into attributes, ``event.data.dice``), what sort of
event it is (its flags) and the Night columns it moves (``mirrors``). What every kind is, and
its projection: ``base.py``; its JSON (``to_data``, exactly what the log stores and night files
carry, and ``from_data``, older rows' shapes included): ``codec.py``; the columns:
``columns.py``. The kinds by area: ``setup.py``, ``people.py``, ``play.py``, ``end.py``.

``KINDS`` holds them by name in the order they were added (``ADDED``): the log's choices,
``ScoreEvent.Kind``, follow this order, so a new kind goes at the end, and
``tests/bunco/test_kinds.py`` says what it lacks. Pure Python, like the fold."""

from __future__ import annotations

from bunco.night.payloads.base import FLAGS, KINDS, NO_DATA, Data, Payload
from bunco.night.payloads.codec import stored
from bunco.night.payloads.columns import COLUMNS
from bunco.night.payloads.end import NightEnded, Revealed, RollOff
from bunco.night.payloads.people import (
    Added,
    Arrived,
    CheckedIn,
    Claimed,
    Desk,
    Left,
    Released,
    Removed,
    Renamed,
)
from bunco.night.payloads.play import Bell, Break, Finish, Paused, Resumed, Roll, RoundStarted, Void
from bunco.night.payloads.setup import (
    Created,
    Prizes,
    RulesChanged,
    Seated,
    tables_from_data,
    tables_to_data,
)

#: Every kind, in the order it was added: a new one goes at the end.
ADDED: tuple[type[Payload], ...] = (
    Created, RulesChanged, Prizes, Added, Removed, Seated, RoundStarted, Roll, Finish, Bell, Void,
    Arrived, Left, Renamed, Paused, Resumed, NightEnded, RollOff, Revealed, Claimed, Released,
    Break, CheckedIn, Desk)


def _in_order() -> None:
    """``KINDS`` in the order of ``ADDED`` (a kind left out of it: a TypeError at start-up)."""
    left_out = sorted(cls.__name__ for cls in KINDS.values() if cls not in ADDED)
    if left_out:
        raise TypeError(f"{', '.join(left_out)}: not in ADDED (bunco/night/payloads/__init__.py)")
    KINDS.clear()
    KINDS.update((cls.kind, cls) for cls in ADDED)


_in_order()

__all__ = ["ADDED", "COLUMNS", "FLAGS", "KINDS", "NO_DATA", "Data", "Payload", "stored",
           "tables_from_data", "tables_to_data", *(cls.__name__ for cls in ADDED)]
