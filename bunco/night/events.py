"""The rows of a night's score log as the fold reads them: every kind of event (``Kind``, one per
class in ``bunco/night/payloads/``, and the sets their flags make), an event, a roll that
counts, the fold's handlers by kind, and the latest round's rolls and events indexed by table.
Pure Python, like the fold (``bunco/night/fold.py``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from bunco.night.payloads import KINDS, NO_DATA, Payload
from scoring import IllegalMove


class _Stored(StrEnum):
    """A kind's name as the log stores it."""

    @property
    def cls(self) -> type[Payload]:
        """The kind's class (``bunco/night/payloads/``): its data, flags and projection."""
        return KINDS[self]


#: Every kind of event the log holds, everything that changes a night: one per class in
#: ``KINDS``, named by its stored name in capitals (``Kind.ROLL_OFF == "roll_off"``).
Kind = _Stored("Kind", [(name.upper(), name) for name in KINDS], module=__name__)


def _flagged(flag: str) -> frozenset[Kind]:
    return frozenset(Kind(name) for name, cls in KINDS.items() if getattr(cls, flag))


#: The set number a practice round is played under (real sets count from 1).
PRACTICE_SET = 0
#: What a table's scorekeeper or the host can take back (a roll, a finish, a bell).
CORRECTABLE = _flagged("correctable")
#: Between-round events that a reopened round takes back with it: a break.
REOPEN_TAKES = _flagged("reopen_takes")
#: Recorded in the log, but no screen shows them: who holds which phone, the desk's closing
#: time, a guest checked in (one who takes a ghost's chair changes the room, and says so).
QUIET_KINDS = _flagged("quiet")
#: Commands made at a table: each moves the table's position on by one.
TABLE_KINDS = _flagged("at_table")
#: Room-wide events that leave every player's own seat, result and scorecard (the phone's
#: ``me`` fragment) and the TV's standings, races and movement board as they were: the
#: banner and the tables say all of it.
SEATS_KEPT = _flagged("seats_kept")


def handles(cls: type[Payload]) -> Callable:
    """Marks a fold method as the one that applies events of ``cls``'s kind (``handlers``)."""

    def mark(method: Callable) -> Callable:
        method.handles = cls
        return method

    return mark


def handlers(fold: type) -> dict[str, Callable]:
    """The methods of ``fold`` marked by ``handles``, by the stored name of their kind: worked
    out once, so applying an event is one lookup."""
    found: dict[str, Callable] = {}
    for name in dir(fold):
        cls = getattr(getattr(fold, name), "handles", None)
        if cls is None:
            continue
        if cls.kind in found:
            raise TypeError(f"{fold.__name__} has two handlers for {cls.kind!r}")
        found[cls.kind] = getattr(fold, name)
    return found


@dataclass(frozen=True, slots=True)
class Event:
    """One row of the log. ``set_number``/``round_number``/``table`` say where it belongs; for
    a roll ``player`` is who rolled and ``ghost`` the ghost's chair it was rolled for, if any;
    ``position`` is the table's position the screen showed when it was tapped."""

    seq: int
    kind: str
    table: int | None = None
    set_number: int | None = None
    round_number: int | None = None
    player: str = ""
    ghost: str = ""
    position: int | None = None
    data: Payload = NO_DATA  # the kind's typed data (``payload``)
    actor: str = ""

    @property
    def chair(self) -> str:
        """The chair a roll is credited to: the ghost's when rolled for one."""
        return self.ghost or self.player


@dataclass(slots=True)
class RollEntry:
    seq: int
    table: int
    roller: str  # the chair credited
    ghost: bool
    dice: tuple[int, ...]
    kind: str
    points: int
    actor: str
    rolled_by: str = ""  # who rolled it: a ghost's partner for a ghost
    quick: str = ""  # the button it was entered with (its dice only stand for it), or ""


def payload(kind: str, data: Mapping[str, Any] | None) -> Payload:
    """A log row's ``data`` (its JSON) as its kind's typed value; ``NO_DATA`` for a kind this
    version does not know (the fold refuses it)."""
    cls = KINDS.get(kind)
    return NO_DATA if cls is None else cls.from_data(data or {})


class Conflict(IllegalMove):
    """A later event no longer fits once an earlier one is taken back."""

    def __init__(self, event: Event, reason: str):
        super().__init__(reason)
        self.event = event


class TableIndex:
    """The latest round's rolls and events by table, caught up as the lists grow: a bell draws
    every table, and each table's last rolls, finishes and undo are then one lookup instead of
    a pass over the whole round (thousands of rolls at a hundred tables). Built again if the
    lists were replaced or shortened."""

    def __init__(self, rolls: list[RollEntry], events: list[Event]):
        self.source = (rolls, events)
        self.seen = [0, 0]
        self.last: list[object] = [None, None]
        self.rolls: dict[int, list[RollEntry]] = {}
        self.events: dict[int, list[Event]] = {}

    def fits(self, rolls: list[RollEntry], events: list[Event]) -> bool:
        """Whether these are the lists indexed, only grown since."""
        for n, (indexed, now) in enumerate(zip(self.source, (rolls, events), strict=True)):
            seen = self.seen[n]
            if indexed is not now or len(now) < seen or (seen and now[seen - 1]
                                                         is not self.last[n]):
                return False
        return True

    def catch_up(self) -> None:
        for n, (lst, by_table) in enumerate(zip(self.source, (self.rolls, self.events),
                                                strict=True)):
            seen = self.seen[n]
            if len(lst) == seen:
                continue
            for item in lst[seen:]:
                if item.table is not None:
                    by_table.setdefault(item.table, []).append(item)
            self.seen[n], self.last[n] = len(lst), lst[-1]


def void_targets(event: Event) -> list[int]:
    """The events a void takes back."""
    return list(event.data.seqs)
