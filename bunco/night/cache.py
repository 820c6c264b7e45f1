"""The write side's fold cache: one fold of each night per process, caught up with its log.

``live_state`` is the fold of the night's log, caught up to its last event. A fold is only
trusted up to its own sequence number: newer rows (written by another worker) are read from
the log and applied; a fold that is ahead of the log (a write that failed after the fold
moved) is thrown away and rebuilt. Each night has its own lock, held while its fold moves on,
so a render never sees a fold half-way through an event; nothing holds a lock across the whole
room. The runner moves a fold on (``bunco/night/services/runner.py``); everything else reads.
"""

from __future__ import annotations

import threading

from bunco.models import Night, ScoreEvent
from bunco.night.events import payload
from bunco.night.fold import Event, LiveNight
from bunco.night.selectors import logged_seq, night_by_id
from bunco.night.versions import advance, fold


def as_event(row: ScoreEvent) -> Event:
    """A log row as the fold reads it: its JSON ``data`` as its kind's typed value."""
    return Event(seq=row.seq, kind=row.kind, table=row.table, set_number=row.set_number,
                 round_number=row.round_number, player=row.player, ghost=row.ghost,
                 position=row.position, data=payload(row.kind, row.data), actor=row.actor)


def log_events(night: Night | int, after: int = 0) -> list[Event]:
    night_id = night if isinstance(night, int) else night.pk
    return [as_event(r) for r in ScoreEvent.objects.filter(night_id=night_id).after(after)]


class Folds:
    """The folds this process keeps, one per night, each with its own lock."""

    def __init__(self):
        self._states: dict[int, LiveNight] = {}
        self._locks: dict[int, threading.RLock] = {}
        self._guard = threading.Lock()  # only while a night's lock is first made

    def lock(self, night_id: int) -> threading.RLock:
        lock = self._locks.get(night_id)
        if lock is None:
            with self._guard:
                lock = self._locks.setdefault(night_id, threading.RLock())
        return lock

    def get(self, night_id: int) -> LiveNight | None:
        return self._states.get(night_id)

    def put(self, night_id: int, state: LiveNight) -> None:
        self._states[night_id] = state

    def drop(self, night_id: int) -> None:
        self._states.pop(night_id, None)


folds = Folds()


def cold_fold(night: Night) -> LiveNight:
    """The whole log replayed. A night's own ``created`` event sets its rules; nights from
    before the log held them start from the row."""
    state = fold(night.rules, log_events(night), name=night.name, rules_id=night.rules_id,
                 entry_fee_cents=night.entry_fee_cents, pot_cents=night.pot_cents)
    if not state.roll_offs:
        state.roll_offs = dict(night.roll_offs or {})
    state.revealed = state.revealed or night.revealed
    state.created_at = night.created_at
    return state


def caught_up(night: Night, *, known_seq: int | None = None) -> LiveNight:
    """The night's fold with every logged event applied. Call with the night's lock held.
    ``known_seq``, when given, is the log's last sequence number as just read: if the fold is
    already there, the log is not queried."""
    state = folds.get(night.pk)
    if state is None or getattr(state, "created_at", None) != night.created_at:
        state = cold_fold(night)
    elif known_seq is None or state.seq != known_seq:
        # The caller's row may simply be older than the fold; ask the log itself.
        logged = Night.objects.values_list("last_seq", flat=True).filter(pk=night.pk).first()
        if logged is None or state.seq > logged:
            state = cold_fold(night)  # a write rolled back after the fold moved on
        elif state.seq < logged:
            for event in log_events(night, after=state.seq):
                state = advance(state, event)
                state.created_at = night.created_at
    folds.put(night.pk, state)
    return state


def live_state(night: Night) -> LiveNight:
    """The night as of its last logged event (the night row's ``last_seq``)."""
    with folds.lock(night.pk):
        return caught_up(night, known_seq=night.last_seq)


def current_fold(night_id: int) -> tuple[LiveNight, int] | None:
    """The night's fold as of its last logged event, and that seq, for a screen's sync: this
    process's fold when it is there already (one small query), else caught up from the log."""
    seq = logged_seq(night_id)
    if seq is None:
        return None
    state = folds.get(night_id)
    if state is not None and state.seq == seq:
        return state, seq
    night = night_by_id(night_id)
    return (live_state(night), night.last_seq) if night else None
