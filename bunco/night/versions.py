"""What each event changed on the screens, by sequence number: the screens' bookkeeping,
kept beside the fold (``bunco/night/fold.py``), which knows nothing of screens.

Every fragment a screen shows carries the seq of the last event that changed it
(``data-seq``): a table's tally its table's, the banner and the tables the room's, a phone's
own seat and the standings the seats'. A screen that syncs is sent what it is behind on
(``bunco/live/broadcast.py``), and a push says which tables one event changed. ``advance``
applies one event to the fold and notes what it changed, by comparing the night before and
after it; it is the one way the core moves a night on (the runner, the selectors' catch-up,
a whole log folded again). Pure Python, like the fold.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from bunco.night.events import QUIET_KINDS, SEATS_KEPT, TABLE_KINDS, Event, Kind, void_targets
from bunco.night.fold import LiveNight
from scoring import HouseRules


@dataclass(slots=True)
class Versions:
    """The seq of the last event that changed each part of the screens."""

    tables: dict[int, int] = field(default_factory=dict)  # a table's tally
    room: int = 0  # every screen: the banner, every table
    seats: int = 0  # seats, results, scorecards, standings (not a bell or a pause)
    changed: tuple[int, ...] = ()  # the tables the latest event changed (room aside)

    def table(self, number: int) -> int:
        """The seq of the last event that changed table ``number``'s tally."""
        return max(self.tables.get(number, 0), self.room)


@dataclass(slots=True)
class _Before:
    """What the night was, as far as deciding what an event changed needs."""

    playing: bool
    bunco: int | None  # the seq of the roll holding the fuzzy die
    fuzzy_table: int | None
    pods: tuple[bool, ...] = ()
    shape: tuple = ()
    bell_by: int | None = None
    closed: tuple = ()  # the phase, and the event that closed the latest round
    seats: tuple[str, ...] = ()


def _before(state: LiveNight, event: Event) -> _Before:
    kind = event.kind
    fuzzy = state.rules.fuzzy_die and kind in (Kind.ROLL, Kind.VOID)
    before = _Before(state.room is not None, state.last_bunco and state.last_bunco.seq,
                     state.fuzzy_die_table() if fuzzy else None)
    if kind in (Kind.ROLL, Kind.VOID):
        before.pods = state.pods_rung()
    if kind == Kind.VOID:
        before.shape, before.bell_by = state.shape(), state.bell_by
        before.closed = (state.phase, state.closed_by)
    elif kind == Kind.CHECKED_IN:
        before.seats = _seat_names(state)
    return before


def _seat_names(state: LiveNight) -> tuple[str, ...]:
    return tuple(seat.name for spec in state.tables for seat in spec.seats)


def advance(state: LiveNight, event: Event) -> LiveNight:
    """``state`` with ``event`` applied (``LiveNight.apply``: IllegalMove changes nothing),
    and its screens' versions moved on by what the event changed."""
    versions = getattr(state, "versions", None) or Versions()
    before = _before(state, event)
    after = state.apply(event)
    if after is not state:  # a take-back: a new night, and the one before it left as it was
        versions = Versions(dict(versions.tables), versions.room, versions.seats)
    after.versions = versions
    versions.changed = tuple(sorted(_note(versions, before, event, after)))
    return after


def _note(versions: Versions, before: _Before, event: Event, after: LiveNight) -> set[int]:
    """Move ``versions`` on by what ``event`` changed; the tables it changed."""
    seq, kind = event.seq, event.kind
    tables: set[int] = set()
    room = seats = False
    if kind == Kind.VOID:
        targets = set(void_targets(event))
        tables = {e.table for e in after.round_events if e.seq in targets and e.table}
        room = (after.shape() != before.shape or after.pods_rung() != before.pods
                or after.bell_by != before.bell_by)
        seats = (after.phase, after.closed_by) != before.closed  # a round closed or reopened
    elif kind in TABLE_KINDS:
        tables.add(event.table)
        room = seats = before.playing and after.room is None  # the round closed
        played = after.room
        if kind == Kind.ROLL and not room and played is not None:
            if played.bell_rung and not all(before.pods):
                room = True  # the roll rang the room's bell
            elif after.pods_rung() != before.pods:  # one pod's bell: its tables
                tables.update(i + 1 for i in played.pods[played.pod_of[event.table - 1]])
    elif kind == Kind.CHECKED_IN:
        room = seats = _seat_names(after) != before.seats  # a guest took a ghost's chair
    elif kind not in QUIET_KINDS:
        room = True  # anything but a table's own tap changes every screen
        seats = kind not in SEATS_KEPT or (before.playing and after.room is None)
    bunco = after.last_bunco and after.last_bunco.seq
    if after.rules.fuzzy_die and bunco != before.bunco:  # the fuzzy die passed on
        tables.update(t for t in (before.fuzzy_table, after.fuzzy_die_table()) if t)
    for number in tables:
        versions.tables[number] = seq
    if room:
        versions.room = seq
    if seats:
        versions.seats = seq
    return tables


def fold(rules: HouseRules, events: Iterable[Event], **setup) -> LiveNight:
    """A whole log folded from the start, the screens' versions with it. Any event that no
    longer fits raises."""
    state = LiveNight(rules, **setup)
    for event in events:
        state = advance(state, event)
    return state
