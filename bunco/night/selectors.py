"""Reads: the night, its links and players, a guest's check-in, the log's last seq, from the
database (a tap's own: ``bunco/night/tap_reads.py``; the night's fold, caught up with its log:
``bunco/night/cache.py``)."""

from __future__ import annotations

import threading
from dataclasses import dataclass

from django.db import connection

from bunco.models import Night, Player, TableLink
from bunco.night.fold import LiveNight


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


def night_by_id(night_id: int) -> Night | None:
    return next(iter(Night.objects.raw(f"SELECT * FROM {_NIGHTS} WHERE id = %s",
                                       [night_id])), None)


# A screen's resync reads its night (the log's last seq with it): the ORM compiles such a
# query anew each time (~0.7 ms, more than the read), a raw one does not.
_NIGHTS = Night._meta.db_table


def player_by_pk(pk: int) -> Player | None:
    """A player and their night, by key (a guest's results page)."""
    return Player.objects.select_related("night").filter(pk=pk).first()


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
