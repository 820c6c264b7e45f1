"""Reads. ``live_state`` is the fold of the night's log, caught up to its last event.

Each process keeps one fold per night. A fold is only trusted up to its own sequence number:
newer rows (written by another worker) are read from the log and applied; a fold that is ahead
of the log (a write that failed after the fold moved) is thrown away and rebuilt. Each night
has its own lock, held while its fold moves on, so a render never sees a fold half-way through
an event; nothing holds a lock across the whole room.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from django.db import connection

from bunco.models import Night, Player, ScoreEvent, TableLink
from bunco.night.events import payload
from bunco.night.fold import Event, LiveNight
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


def logged_seq(night_id: int) -> int | None:
    """The night's last logged seq, read alone (a screen's sync asks it; None: no such
    night). Cheaper than the whole row: no JSON columns decoded."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT last_seq FROM {_NIGHTS} WHERE id = %s", [night_id])
        row = cursor.fetchone()
    return row[0] if row else None


_readers = threading.local()


def logged_seq_here(night_id: int) -> int | None:
    """``logged_seq`` read on the calling thread (the server's loop) through a read-only
    SQLite connection of its own: a few microseconds, no trip to the one sync thread, and it
    sees what any process wrote (WAL readers never wait for the writer). None if the night is
    not there or the database is not SQLite (then ask ``logged_seq`` on the sync thread)."""
    if connection.vendor != "sqlite":
        return None
    reader = getattr(_readers, "connection", None)
    if reader is None:
        import sqlite3

        name = connection.settings_dict["NAME"]
        try:
            reader = sqlite3.connect(f"file:{name}?mode=ro", uri=True,
                                     check_same_thread=True)
        except sqlite3.Error:
            return None
        _readers.connection = reader
    try:
        row = reader.execute(f"SELECT last_seq FROM {_NIGHTS} WHERE id = ?",
                             [night_id]).fetchone()
    except Exception:  # a database being replaced or restored: ask the sync thread
        _readers.connection = None
        return None
    return row[0] if row else None


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


def night_by_id(night_id: int) -> Night | None:
    return next(iter(Night.objects.raw(f"SELECT * FROM {_NIGHTS} WHERE id = %s",
                                       [night_id])), None)


# Every tap and every screen's resync reads its night (the log's last seq with it): the ORM
# compiles such a query anew each time (~0.7 ms, more than the read), a raw one does not.
_NIGHTS, _LINKS = Night._meta.db_table, TableLink._meta.db_table
_PLAYERS = Player._meta.db_table


def player_by_pk(pk: int) -> Player | None:
    """A player and their night, by key (a guest's results page)."""
    return Player.objects.select_related("night").filter(pk=pk).first()


def player_by_token(token: str, night: Night | None = None) -> Player | None:
    """A player (from their own link: a phone's every tap) and their night: ``night`` when
    the caller holds it already (a phone's socket, which read it on connecting), else read."""
    player = next(iter(Player.objects.raw(f"SELECT * FROM {_PLAYERS} WHERE token = %s",
                                          [token])), None)
    if player is not None:
        player.night = (night if night is not None and night.pk == player.night_id
                        else night_by_id(player.night_id))
    return player


def table_link_by_token(token: str) -> TableLink | None:
    """A table's link and its night, in one read."""
    found = next(iter(Night.objects.raw(
        f"SELECT n.*, l.id AS link_id, l.number AS link_number FROM {_NIGHTS} n "
        f"JOIN {_LINKS} l ON l.night_id = n.id WHERE l.token = %s", [token])), None)
    if found is None:
        return None
    return TableLink(id=found.link_id, night=found, number=found.link_number, token=token)


def night_by_tv_token(token: str) -> Night | None:
    return Night.objects.filter(tv_token=token).first()


def night_by_join_token(token: str) -> Night | None:
    return Night.objects.filter(join_token=token).first()


def table_links(night: Night) -> dict[int, TableLink]:
    return {link.number: link for link in TableLink.objects.filter(night=night)}


def night_by_tv_code(code: str) -> Night | None:
    return Night.objects.filter(tv_code=code).first()


def night_by_join_code(code: str) -> Night | None:
    return Night.objects.filter(join_code=code).first()


def open_nights(at_most: int = 2) -> list[Night]:
    """The nights not finished, the latest first (a guest who opens the home page means one of
    them; with several, the code they type says which)."""
    return list(Night.objects.open()[:at_most])


@dataclass
class CheckIn:
    """What the desk tells a guest: where they sit (``table``: the table drawn before the
    seating, or their chair's table after it; ``seat`` once seated), or that they wait for a
    chair; ``already``: they had checked in before (nothing changed)."""

    player: Player
    already: bool
    table: int | None
    seat: int | None
    waiting: bool
    seated: bool  # whether the room is seated (before, a drawn table may still change)
    round_in_play: bool


def check_in_status(player: Player, state: LiveNight, already: bool = False) -> CheckIn:
    where = state.seat_of(player.name) if state.seated else None
    table = where[0] if where else (None if state.seated else state.drawn.get(player.name))
    return CheckIn(player=player, already=already, table=table,
                   seat=where[1] + 1 if where else None,
                   waiting=player.name in state.waiting, seated=state.seated,
                   round_in_play=state.room is not None)
