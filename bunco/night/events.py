"""The rows of a night's score log as the fold reads them: every kind of event, an event, a roll
that counts, and the latest round's rolls and events indexed by table. Pure Python, like the
fold (``bunco/fold.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from bunco.night.payloads import (
    NO_DATA,
    Added,
    Arrived,
    Bell,
    Break,
    CheckedIn,
    Claimed,
    Created,
    Desk,
    Left,
    Paused,
    Payload,
    Prizes,
    Released,
    Removed,
    Renamed,
    Resumed,
    Revealed,
    Roll,
    RollOff,
    RoundStarted,
    RulesChanged,
    Seated,
    Void,
)
from scoring import IllegalMove


class Kind(StrEnum):
    """Every kind of event the log holds: everything that changes a night."""

    CREATED = "created"  # name, rules id, rules, entry fee
    RULES = "rules"  # the house rules (and name, entry fee) changed before play
    PRIZES = "prizes"  # the prize list, tie policy and typed pot
    ADDED = "added"  # players checked in before seating
    REMOVED = "removed"  # a player removed before seating
    SEATED = "seated"
    ROUND_STARTED = "round_started"
    ROLL = "roll"
    FINISH = "finish"
    BELL = "bell"
    VOID = "void"
    ARRIVED = "arrived"
    LEFT = "left"
    RENAMED = "renamed"
    PAUSED = "paused"
    RESUMED = "resumed"
    NIGHT_ENDED = "night_ended"
    ROLL_OFF = "roll_off"  # a tied prize's winner, or {"split": true}: its tied players share it
    REVEALED = "revealed"  # how many prizes the TV shows
    CLAIMED = "claimed"  # a phone picked a player's name (the phone's hash)
    RELEASED = "released"  # the host freed a player's name for another phone
    BREAK = "break"  # between rounds: minutes and when it ends (epoch ms); 0 minutes ends it
    CHECKED_IN = "checked_in"  # a guest at the desk: the table drawn, or the ghost's chair taken
    DESK = "desk"  # when the desk stops checking guests in (ISO time; none: open)


#: The set number a practice round is played under (real sets count from 1).
PRACTICE_SET = 0
#: What a table's scorekeeper or the host can take back.
CORRECTABLE = frozenset({Kind.ROLL, Kind.FINISH, Kind.BELL})
#: Between-round events that a reopened round takes back with it: a break.
REOPEN_TAKES = frozenset({Kind.BREAK})
#: Recorded in the log, but no screen shows them: who holds which phone, the desk's closing
#: time, a guest checked in (one who takes a ghost's chair changes the room, and says so).
QUIET_KINDS = frozenset({Kind.CLAIMED, Kind.RELEASED, Kind.CHECKED_IN, Kind.DESK})
#: Commands made at a table: each moves the table's position on by one.
TABLE_KINDS = frozenset({Kind.ROLL, Kind.FINISH})
#: Room-wide events that leave every player's own seat, result and scorecard (the phone's
#: ``me`` fragment) and the TV's standings, races and movement board as they were: the
#: banner and the tables say all of it.
SEATS_KEPT = frozenset({Kind.BELL, Kind.PAUSED, Kind.RESUMED})


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


#: The typed data of each kind that carries some (``bunco/night/payloads.py``).
#: A table's "done" and the night's end carry none (``NO_DATA``).
PAYLOADS: dict[str, type[Payload]] = {
    Kind.CREATED: Created, Kind.RULES: RulesChanged, Kind.PRIZES: Prizes,
    Kind.ADDED: Added, Kind.REMOVED: Removed, Kind.SEATED: Seated,
    Kind.ROUND_STARTED: RoundStarted, Kind.ROLL: Roll, Kind.BELL: Bell, Kind.VOID: Void,
    Kind.ARRIVED: Arrived, Kind.LEFT: Left, Kind.RENAMED: Renamed, Kind.PAUSED: Paused,
    Kind.RESUMED: Resumed, Kind.ROLL_OFF: RollOff, Kind.REVEALED: Revealed,
    Kind.CLAIMED: Claimed, Kind.RELEASED: Released, Kind.BREAK: Break,
    Kind.CHECKED_IN: CheckedIn, Kind.DESK: Desk,
}


def payload(kind: str, data: Mapping[str, Any] | None) -> Payload:
    """A log row's ``data`` (its JSON) as its kind's typed value; ``NO_DATA`` for a kind that
    carries none (or one this version does not know: the fold refuses it)."""
    cls = PAYLOADS.get(kind)
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
