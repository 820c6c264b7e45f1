"""Nothing entered is lost: a night as one file, and snapshots of the whole database.

- ``night_file(night)`` is everything a night is (its rules, roster, the whole log and its
  links: the TV's, the join link, each table's and each player's) as one JSON document the
  host downloads; ``services.night_restore`` makes it a night again on any install, folding to
  the identical state (same master sheet, same tally history), with the same links when they
  are free there (a laptop that died: the phones carry on).
- ``copy_soon(night)``: with a copy folder set (``bunco --copy-to``, ``BUNCO_COPY_TO``: a USB
  stick, a synced folder) the latest night file of each live night is kept there as it goes,
  written off the tap's path, at most every ``COPY_EVERY`` seconds and at once at a round's
  end and the night's end.
- ``snapshot()`` copies the SQLite database with SQLite's online backup (a consistent copy
  even while phones are writing; a plain file copy misses what is still in the WAL). The app
  takes one after every round and at the end of the night, keeping the latest ``KEEP``;
  ``manage.py restore`` puts one back.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

from django.conf import settings
from django.db import close_old_connections, connection
from django.utils import timezone

from bunco.models import Night, ScoreEvent

FORMAT = "bunco-night"
#: 2: the night's links are in the file (1: without them; such a night opens with new links).
VERSION = 2
READS = (1, 2)
KEEP = 48
EVENT_FIELDS = ["seq", "key", "kind", "set_number", "round_number", "table", "player", "ghost",
                "position", "data", "actor"]


def night_file(night: Night) -> dict:
    """The night as one JSON-ready document. It holds every link of the night (whoever has
    the file can score and see it): it is the host's, like the host link."""
    events = ScoreEvent.objects.filter(night=night).order_by("seq")
    return {
        "format": FORMAT, "version": VERSION, "saved_at": timezone.now().isoformat(),
        "address": phones_address(),
        "links": {"tv": night.tv_token, "join": night.join_token, "tv_code": night.tv_code,
                  "tables": {str(t.number): t.token for t in night.table_links.all()}},
        "night": {"name": night.name, "rules_id": night.rules_id, "rules": night.rules_json,
                  "entry_fee_cents": night.entry_fee_cents, "pot_cents": night.pot_cents,
                  "roll_offs": night.roll_offs, "revealed": night.revealed,
                  "demo": night.demo, "created_at": night.created_at.isoformat()},
        "players": [{"name": p.name, "token": p.token, "position": p.position,
                     "left_early": p.left_early, "device": p.device, "expected": p.expected,
                     "arrived_at": p.arrived_at.isoformat() if p.arrived_at else None,
                     "drawn_table": p.drawn_table}
                    for p in night.players.order_by("position", "pk")],
        "events": [{**{f: _plain(getattr(e, f)) for f in EVENT_FIELDS},
                    "created_at": e.created_at.isoformat()} for e in events],
    }


def phones_address() -> str:
    """The host name phones reach the app at (their claims' cookies belong to it); "" when
    not known (a laptop on no network yet)."""
    if settings.PUBLIC_URL:
        return urlsplit(settings.PUBLIC_URL).hostname or ""
    return settings.LAN_ADDRESS if settings.LAN_FOUND else ""


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


# -- the copy folder: each live night's latest file, off the laptop -----------------------------

#: A night's file is written at most this often while its rolls come in (a round's end and the
#: night's end are written at once), and never more often than ten times as long as writing it
#: took: a big night's file costs the server at most a tenth of its time.
COPY_EVERY = 3.0


def copy_folder() -> Path | None:
    """The folder a copy of each live night goes to, or None (``BUNCO_COPY_TO``)."""
    value = str(getattr(settings, "BUNCO_COPY_TO", "") or "").strip()
    return Path(value).expanduser() if value else None


def check_copy_folder(path: Path) -> str:
    """Why the app cannot keep its copies in ``path`` ("" when it can): made if missing, and
    a file written and removed, so a read-only stick says so before the night starts."""
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / ".bunco-can-write"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        return f"Bunco cannot keep copies in {path}: {exc.strerror or exc}"
    return ""


def copy_name(night: Night) -> str:
    """The night's file in the copy folder: its name and when it was created (a night restored
    on another laptop keeps writing the same file)."""
    name = "".join(c if c.isascii() and c.isalnum() else "-" for c in night.name)
    name = "-".join(filter(None, name.split("-"))) or "bunco"
    return f"{name}-{timezone.localtime(night.created_at):%Y-%m-%d-%H%M%S}-night.json"


def write_copy(night: Night, path: Path) -> Path:
    """The night's file into the folder, whole or not at all (written aside, then renamed)."""
    target = path / copy_name(night)
    partial = path / f".{target.name}.{os.getpid()}.partial"  # a worker's own: never shared
    with open(partial, "w", encoding="utf-8") as out:
        json.dump(night_file(night), out, indent=1)
        out.flush()
        os.fsync(out.fileno())  # on the stick, not in a cache a pulled stick loses
    os.replace(partial, target)
    return target


class _Copier:
    """One thread writes the copies: a command only notes its night as due (a tap is never
    held up by a slow stick); the thread writes each due night once its time comes, skipping
    a night whose log has not moved since its last copy."""

    def __init__(self) -> None:
        self.due: dict[int, float] = {}
        self.written: dict[int, int] = {}
        self.cost: dict[int, float] = {}  # how long the night's last copy took to write
        self.busy = False
        self.cond = threading.Condition()
        self.thread: threading.Thread | None = None

    def soon(self, night_id: int, now: bool) -> None:
        with self.cond:
            when = time.monotonic() + (0 if now else max(COPY_EVERY,
                                                          10 * self.cost.get(night_id, 0)))
            self.due[night_id] = min(self.due.get(night_id, when), when)
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self.run, name="bunco-copy", daemon=True)
                self.thread.start()
            self.cond.notify()

    def run(self) -> None:
        while True:
            with self.cond:
                while True:
                    clock = time.monotonic()
                    ready = [pk for pk, when in self.due.items() if when <= clock]
                    if ready:
                        break
                    self.cond.wait(min(self.due.values(), default=clock + 60) - clock)
                for pk in ready:
                    del self.due[pk]
                self.busy = True
            try:
                for pk in ready:
                    self.copy(pk)
            finally:
                close_old_connections()
                with self.cond:
                    self.busy = False
                    self.cond.notify_all()

    def copy(self, night_id: int) -> None:
        path = copy_folder()
        night = Night.objects.filter(pk=night_id).first()
        if path is None or night is None or self.written.get(night_id) == night.last_seq:
            return
        started = time.monotonic()
        try:
            path.mkdir(parents=True, exist_ok=True)
            write_copy(night, path)
        except OSError:  # a stick pulled out: the night goes on; the next change tries again
            import logging

            logging.getLogger(__name__).exception("copy to %s failed", path)
            return
        self.written[night_id] = night.last_seq
        self.cost[night_id] = time.monotonic() - started

    def wait(self, timeout: float = 30) -> None:
        """Until every due copy is written (tests)."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while (self.due or self.busy) and time.monotonic() < deadline:
                for pk in self.due:
                    self.due[pk] = 0
                self.cond.notify_all()
                self.cond.wait(0.1)


_copier = _Copier()


def copy_soon(night_id: int, now: bool = False) -> None:
    """Note a night as changed: its file goes to the copy folder within ``COPY_EVERY`` seconds
    (``now``: at once, a round's or the night's end). Nothing without a copy folder."""
    if copy_folder() is not None:
        _copier.soon(night_id, now)


def copy_wait() -> None:
    _copier.wait()
