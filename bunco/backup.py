"""Nothing entered is lost: a night as one file, and snapshots of the whole database.

- ``night_file(night)`` is everything a night is (its rules, roster and the whole log) as one
  JSON document the host downloads; ``services.night_restore`` makes it a night again on any
  install, folding to the identical state (same master sheet, same tally history).
- ``snapshot()`` copies the SQLite database with SQLite's online backup (a consistent copy
  even while phones are writing; a plain file copy misses what is still in the WAL). The app
  takes one after every round and at the end of the night, keeping the latest ``KEEP``;
  ``manage.py restore`` puts one back.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

from django.conf import settings
from django.db import connection

from bunco.models import Night, ScoreEvent

FORMAT = "bunco-night"
VERSION = 1
KEEP = 48
EVENT_FIELDS = ["seq", "key", "kind", "set_number", "round_number", "table", "player", "ghost",
                "position", "data", "actor"]


def night_file(night: Night) -> dict:
    """The night as one JSON-ready document."""
    events = ScoreEvent.objects.filter(night=night).order_by("seq")
    return {
        "format": FORMAT, "version": VERSION,
        "night": {"name": night.name, "rules_id": night.rules_id, "rules": night.rules_json,
                  "entry_fee_cents": night.entry_fee_cents, "pot_cents": night.pot_cents,
                  "roll_offs": night.roll_offs, "revealed": night.revealed,
                  "created_at": night.created_at.isoformat()},
        "players": [{"name": p.name, "position": p.position, "left_early": p.left_early,
                     "device": p.device, "expected": p.expected,
                     "arrived_at": p.arrived_at.isoformat() if p.arrived_at else None,
                     "drawn_table": p.drawn_table}
                    for p in night.players.order_by("position", "pk")],
        "events": [{**{f: _plain(getattr(e, f)) for f in EVENT_FIELDS},
                    "created_at": e.created_at.isoformat()} for e in events],
    }


def _plain(value):
    return str(value) if hasattr(value, "hex") and not isinstance(value, (int, str)) else value


# -- database snapshots -------------------------------------------------------------------------

def folder() -> Path:
    path = Path(getattr(settings, "BUNCO_BACKUP_DIR", settings.DATA_DIR / "backups"))
    path.mkdir(parents=True, exist_ok=True)
    return path


def database_file() -> Path | None:
    """The SQLite file in use, or None on another database (use its own backups there)."""
    if connection.vendor != "sqlite":
        return None
    return Path(connection.settings_dict["NAME"])


def snapshot(reason: str = "manual", source: Path | None = None) -> Path | None:
    """A consistent copy of the database, named by time and reason; the oldest pruned."""
    source = source or database_file()
    if source is None or not source.exists():
        return None
    # One reading of the clock: the seconds and the nanoseconds read apart could straddle a
    # second, and a later snapshot would then sort before an earlier one ("latest" wrong).
    now = time.time_ns()
    seconds, nanos = now // 1_000_000_000, now % 1_000_000_000
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(seconds)) + f"-{nanos:09d}"
    target = folder() / f"{source.stem}-{stamp}-{reason}.sqlite3"
    partial = target.with_suffix(".partial")
    with sqlite3.connect(source, timeout=20) as src, sqlite3.connect(partial) as dst:
        src.backup(dst, pages=256)  # in steps: writers are never held up for long
    src.close()
    dst.close()
    partial.replace(target)  # a snapshot is whole or absent
    for old in snapshots(source.stem)[KEEP:]:
        old.unlink(missing_ok=True)
    return target


def snapshots(stem: str | None = None) -> list[Path]:
    """Snapshots, newest first."""
    stem = stem or (database_file() or Path("bunco")).stem
    return sorted(folder().glob(f"{stem}-*.sqlite3"), reverse=True)


_pending: list[threading.Thread] = []


def snapshot_soon(reason: str) -> None:
    """Take a snapshot off the request's path (after the command committed)."""
    source = database_file()
    if source is None:
        return
    thread = threading.Thread(target=_quietly, args=(reason, source), daemon=True)
    _pending.append(thread)
    thread.start()


def _quietly(reason: str, source: Path) -> None:
    try:
        snapshot(reason, source)
    except (OSError, sqlite3.Error):  # a full disk must not break the night in progress
        import logging

        logging.getLogger(__name__).exception("snapshot failed")


def wait() -> None:
    """Wait for snapshots being taken (tests, and the restore command)."""
    while _pending:
        _pending.pop().join()


def restore(snapshot_path: Path, target: Path) -> None:
    """Copy a snapshot over the database file (the server must be stopped)."""
    with sqlite3.connect(snapshot_path) as src:
        tables = {r[0] for r in src.execute("select name from sqlite_master where type='table'")}
        if "bunco_night" not in tables:
            raise ValueError(f"{snapshot_path} is not a Bunco database")
        with sqlite3.connect(target, timeout=20) as dst:
            src.backup(dst)
        dst.close()
    src.close()
