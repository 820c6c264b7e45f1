"""Nothing entered is lost: a night as one file, and snapshots of the whole database.

- ``night_file(night)`` (``bunco/night/document.py``) is everything a night is (its rules,
  roster, the whole log and its links) as one JSON document the host downloads;
  ``services.night_restore`` makes it a night again on any install, folding to the identical
  state, with the same links when they are free there (a laptop that died: the phones carry
  on).
- ``copy_soon(night)``: with a copy folder set (``bunco --copy-to``, ``BUNCO_COPY_TO``: a USB
  stick, a synced folder) each live night's file is kept there as it goes: written whole at
  a round's end and the night's end, and every command's entries appended to it as a line at
  once, off the tap's path (``read_night_file`` reads both). A folder that cannot be written
  is said on the host's page (``bunco.laptop.disk``). Bunco itself goes there too, once
  (``bunco.laptop.kit``).
- ``snapshot()`` copies the SQLite database with SQLite's online backup (a consistent copy
  even while phones are writing; a plain file copy misses what is still in the WAL). The app
  takes one after every round and at the end of the night, keeping the latest ``KEEP``;
  ``manage.py restore`` puts one back.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
import time
from pathlib import Path

from django.conf import settings
from django.db import close_old_connections, connection
from django.utils import timezone

from bunco import clock
from bunco.laptop import disk, kit
from bunco.models import Night, ScoreEvent
from bunco.night.document import event_entry, night_file, night_head

KEEP = 48


def read_night_file(text: str):
    """A night's file as ``night_file`` made it: one JSON document, or one from the copy
    folder, which is a night's file on its first line and, a line each, the entries logged
    since (with what a command other than a tap changed of the night, its links and its
    players: the whole list when one came or went, else the players changed). A line cut
    short (the laptop died while writing it) and what follows a gap in the log are left out
    (lines may come in any order). A byte order mark before it (Notepad's UTF-8) is no part
    of it. Raises ValueError when the first line is not JSON."""
    text = text.removeprefix("\ufeff")
    try:
        return json.loads(text)
    except ValueError:
        first, _, rest = text.partition("\n")
        data = json.loads(first)
    if not isinstance(data, dict) or not isinstance(data.get("events"), list):
        return data
    later: dict = {}  # by seq: lines of several workers may come in any order
    for line in rest.splitlines():
        try:
            more = json.loads(line)
        except ValueError:
            continue
        if not isinstance(more, dict) or not isinstance(more.get("events"), list):
            continue
        for entry in more["events"]:
            if isinstance(entry, dict) and isinstance(entry.get("seq"), int):
                later.setdefault(entry["seq"], entry)
        data.update({k: more[k] for k in HEAD_AGAIN if k in more})
        changed = more.get("players_changed")
        if isinstance(changed, list) and isinstance(data.get("players"), list):
            by_token = {p.get("token"): p for p in changed if isinstance(p, dict)}
            data["players"] = [by_token.get(p.get("token"), p) if isinstance(p, dict) else p
                               for p in data["players"]]
    while len(data["events"]) + 1 in later:
        data["events"].append(later[len(data["events"]) + 1])
    return data


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
    disk.clean_partials(folder())
    try:
        _copy_database(source, partial)
        partial.replace(target)  # a snapshot is whole or absent
    except (OSError, sqlite3.Error):
        partial.unlink(missing_ok=True)  # a full disk gets its room back
        raise
    for old in snapshots(source.stem)[KEEP:]:
        old.unlink(missing_ok=True)
    return target


def _copy_database(source: Path, partial: Path) -> None:
    with sqlite3.connect(source, timeout=20) as src, sqlite3.connect(partial) as dst:
        src.backup(dst, pages=256)  # in steps: writers are never held up for long
    src.close()
    dst.close()


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


# -- the copy folder: each live night's log, off the laptop, as it grows -------------------------

#: Entries whose lines in the copy need not repeat the night's players and links: a tap
#: changes neither.
TAP_KINDS = frozenset({"roll", "finish", "bell", "void"})
#: What a line of the copy after the first carries again when a command changed it.
HEAD_AGAIN = ("saved_at", "address", "links", "night", "players")
#: The night's file is written whole again once its lines outgrow it (or this): the copy
#: stays at most about twice the night's size.
LINES_AT_LEAST = 64 * 1024
#: A copy folder that could not be written is tried again this often (seconds).
RETRY_EVERY = 2.0
#: Left in the copy folder: a folder without it on another disk is not the one Bunco wrote
#: to (a stick pulled out leaves its empty mount point behind).
MARKER = ".bunco-copies"


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


def write_copy(night: Night, path: Path) -> tuple[dict, int]:
    """The night's file into the folder, whole or not at all (written aside, then renamed),
    on one line: the entries logged after it are appended a line each. (what was written,
    its size in bytes)"""
    target = path / copy_name(night)
    partial = path / f".{target.name}.{os.getpid()}.partial"  # a worker's own: never shared
    disk.clean_partials(path)
    data = night_file(night)
    text = json.dumps(data, separators=(",", ":")) + "\n"
    try:
        with open(partial, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())  # on the stick, not in a cache a pulled stick loses
        os.replace(partial, target)
    except OSError:
        with contextlib.suppress(OSError):
            partial.unlink()  # a full stick gets its room back
        raise
    return data, len(text)


def append_copy(night: Night, target: Path, after: int, head: dict) -> tuple[int, int]:
    """The entries logged after ``after`` appended to the night's file as one line, flushed
    to the disk, with what changed of ``head`` (the rest of the night's file as the copy has
    it; brought up to date). (the last seq now in the copy, the bytes written)"""
    rows = list(ScoreEvent.objects.filter(night=night, seq__gt=after).order_by("seq"))
    if not rows:
        return after, 0
    line = {"saved_at": timezone.now().isoformat(), "events": [event_entry(e) for e in rows]}
    if any(e.kind not in TAP_KINDS for e in rows):
        line.update(_head_changes(head, night_head(night)))
    text = json.dumps(line, separators=(",", ":")) + "\n"
    with open(target, "a", encoding="utf-8") as out:
        out.write(text)
        out.flush()
        os.fsync(out.fileno())
    return rows[-1].seq, len(text)


def _head_changes(head: dict, now: dict) -> dict:
    """What of ``now`` the copy's ``head`` lacks (``head`` updated): a claim's line carries
    one player, not the roster."""
    out = {k: now[k] for k in ("address", "links", "night") if head.get(k) != now[k]}
    before = head.get("players") or []
    if [p["token"] for p in before] != [p["token"] for p in now["players"]]:
        out["players"] = now["players"]
    else:
        changed = [p for p, q in zip(now["players"], before, strict=True) if p != q]
        if changed:
            out["players_changed"] = changed
    head.update({k: now[k] for k in ("address", "links", "night", "players")})
    return out


class _FolderGone(Exception):
    pass


class _Copier:
    """One thread keeps the copies: a command only notes its night (a tap is never held up by
    a slow stick). The thread appends what each noted night logged since its last line at
    once, so the copy is behind the night by the time one line takes to reach the disk. The
    night's file is written whole at its first copy, at a round's end and the night's end,
    once its lines outgrow it, and after a failed write."""

    def __init__(self) -> None:
        self.due: dict[int, float] = {}  # nights whose whole file is due, and when
        self.fresh: set[int] = set()  # nights with entries to append
        self.written: dict[int, int] = {}  # the last seq in each night's copy
        self.heads: dict[int, dict] = {}  # each night's file but its log, as the copy has it
        self.grown: dict[int, int] = {}  # bytes appended since the night's whole file
        self.size: dict[int, int] = {}  # bytes of the night's whole file
        self.folder: Path | None = None  # the copy folder last written to
        self.device: int | None = None  # its disk then
        self.busy = False
        self.cond = threading.Condition()
        self.thread: threading.Thread | None = None
        clock.on_move(self.clock_moved)

    def clock_moved(self) -> None:
        """A held clock moved on (tests): a retry it made due is made now."""
        with self.cond:
            self.cond.notify_all()

    def soon(self, night_id: int, now: bool) -> None:
        with self.cond:
            if now or night_id not in self.written:
                # (a folder that failed keeps its time to be tried again: not at every tap)
                self.due.setdefault(night_id, 0)
            else:
                self.fresh.add(night_id)
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self.run, name="bunco-copy", daemon=True)
                self.thread.start()
            self.cond.notify()

    def run(self) -> None:
        while True:
            with self.cond:
                while True:
                    now = clock.monotonic()
                    whole = [pk for pk, when in self.due.items() if when <= now]
                    if whole or self.fresh:
                        break
                    self.cond.wait(min(self.due.values(), default=now + 60) - now)
                for pk in whole:
                    del self.due[pk]
                lines = sorted(self.fresh - set(whole))
                self.fresh.clear()
                self.busy = True
            try:
                for pk in whole:
                    self.copy(pk, whole=True)
                for pk in lines:
                    self.copy(pk, whole=False)
            finally:
                close_old_connections()
                with self.cond:
                    self.busy = False
                    self.cond.notify_all()

    def copy(self, night_id: int, whole: bool) -> None:
        path = copy_folder()
        night = Night.objects.filter(pk=night_id).first()
        if path is None or night is None:
            return
        try:
            self.check(path)
            target = path / copy_name(night)
            if whole or night_id not in self.written or not target.exists() \
                    or self.grown[night_id] > max(self.size[night_id], LINES_AT_LEAST):
                head, self.size[night_id] = write_copy(night, path)
                self.written[night_id] = len(head.pop("events"))
                self.heads[night_id], self.grown[night_id] = head, 0
            else:
                self.written[night_id], grown = append_copy(
                    night, target, self.written[night_id], self.heads[night_id])
                self.grown[night_id] += grown
        except (OSError, _FolderGone) as exc:
            # A stick pulled out or full: the night goes on, the host is told, and the
            # night's file is written whole again (a line may be cut short) until it works.
            why = disk.GONE if isinstance(exc, _FolderGone) else disk.copy_reason(exc)
            disk.copy_failed(path, why, night_id)
            self.written.pop(night_id, None)
            with self.cond:
                self.due[night_id] = clock.monotonic() + RETRY_EVERY
            return
        kit.put_soon(path, self.device, night_id)  # Bunco itself beside it, once
        if not kit.failing(path):  # (a stick with no room for it stays said)
            disk.copy_saved()

    def check(self, path: Path) -> None:
        """The copy folder is the one written to before: there, and on the same disk or
        holding this app's mark (a stick pulled out leaves an empty folder behind)."""
        if path != self.folder:  # a folder not written to yet (a setting changed: tests)
            path.mkdir(parents=True, exist_ok=True)
            self.folder, self.device = path, None
        try:
            device = path.stat().st_dev
        except FileNotFoundError:
            raise _FolderGone from None
        marker = path / MARKER
        if not path.is_dir() or (device != self.device and self.device is not None
                                 and not marker.exists()):
            raise _FolderGone
        if device != self.device or not marker.exists():
            marker.write_bytes(b"")
        self.device = device

    def wait(self, timeout: float = 30) -> None:
        """Until every due copy is written (tests)."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while (self.fresh or self.busy or (self.due and disk.copy_trouble() is None)) \
                    and time.monotonic() < deadline:
                for pk in self.due:
                    self.due[pk] = 0
                self.cond.notify_all()
                self.cond.wait(0.1)


_copier = _Copier()


def copy_soon(night_id: int, now: bool = False) -> None:
    """A command on the night committed: its new entries go to the copy folder at once, a
    line each command (``now``: the whole file, at a round's or the night's end). Nothing
    more without a copy folder. (The data folder took a write: any trouble it had is over.)"""
    disk.data_saved(night_id)
    if copy_folder() is not None:
        _copier.soon(night_id, now)


def copy_wait() -> None:
    _copier.wait()
