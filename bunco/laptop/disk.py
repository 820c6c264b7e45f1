"""When the laptop cannot save: its data folder full or failing, or the copy folder gone.

A full disk must not look like a bug. A tap the database could not write is kept by the phone
and sent again (``PHONES``: the answer is not a decision of the game), the host's night page
says what is wrong and what to do (``troubles``, pushed to the host's page when it starts and
when it is over), and ``/healthz`` answers 503 with the same sentence. Nothing here holds the
night: the log stays the truth, and play resumes by itself once a write succeeds again.

The state is this process's: noted when a write fails (``data_failed``, ``copy_failed``),
cleared when one succeeds (``data_saved``, ``copy_saved``) or when a probe of the data folder
finds room again (``data_probe``).
"""

from __future__ import annotations

import errno
import logging
import os
import shutil
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.db import DatabaseError
from django.template.loader import render_to_string

from bunco.laptop import notes

#: What a phone shows for a tap the laptop could not save: it keeps the tap and sends it again.
PHONES = "The laptop cannot save right now: your rolls are kept"
#: A tap's answer then, full or failing alike (the phone's outbox keeps it: docs/protocol.md).
PHONES_ANSWER = {"ok": False, "retry": True, "disk": True, "error": PHONES}
#: The free space a probe wants before it says the data folder has room again, and how long
#: after the last failed write (a write that works says so at once).
ROOM = 1024 * 1024
SETTLE = 10.0

DISK_ERRNOS = {errno.ENOSPC, errno.EIO, errno.EROFS, errno.EDQUOT}
DISK_WORDS = ("disk is full", "disk i/o error", "readonly database", "read-only file system",
              "no space left", "unable to open database file")
FULL_ERRNOS = {errno.ENOSPC, errno.EDQUOT}
FULL_WORDS = ("disk is full", "no space left")
log = logging.getLogger(__name__)


def is_disk_error(exc: BaseException | None, errnos=DISK_ERRNOS, words=DISK_WORDS) -> bool:
    """Whether ``exc`` (or what caused it) says the disk is full or failing: SQLite's
    "database or disk is full" and "disk I/O error", or an OSError ENOSPC, EIO, EROFS."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, OSError) and exc.errno in errnos:
            return True
        if isinstance(exc, sqlite3.Error | DatabaseError) and any(
                word in str(exc).lower() for word in words):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def is_full(exc: BaseException | None) -> bool:
    """Whether the disk error ``exc`` says the disk is full (not failing: I/O errors)."""
    return is_disk_error(exc, FULL_ERRNOS, FULL_WORDS)


@dataclass(frozen=True)
class Trouble:
    """One thing the host is told: what is wrong, and what to do about it."""

    title: str
    what: str
    todo: str
    why: str = ""  # the reason in a few words, naming no folder

    @property
    def sentence(self) -> str:
        return f"{self.title}: {self.what} {self.todo}"

    @property
    def openly(self) -> str:
        """What anyone may read (``/healthz`` answers without a sign-in): no folder's path."""
        return f"{self.title}{f' ({self.why})' if self.why else ''}: {self.todo}"


_lock = threading.Lock()
#: "since": when saving failed (monotonic), "nights": hosts told about it; empty (false) while
#: the data folder takes every write, so a command looks at it without a call.
FAILING: dict = {}
_copy: dict = {}  # "why": the reason in words, "folder", "nights": hosts told about it


def data_folder() -> Path:
    return Path(settings.DATA_DIR)


def data_trouble() -> Trouble | None:
    """The data folder's trouble as the host is told it (its path, what to do), or None."""
    with _lock:
        if not FAILING:
            return None
        full = FAILING.get("full", True)
    if not full:
        return Trouble(
            "Bunco cannot save on this laptop",
            f"The laptop's disk reports errors reading or writing Bunco's data folder "
            f"({data_folder()}): nothing new is saved. The phones keep every roll and send it "
            "again by themselves.",
            "Freeing space will not help. Stop Bunco and start it again; if this stays, the "
            "disk is failing: carry on from the night's file on another laptop (README, "
            "\u201cIf the laptop dies\u201d).")
    return Trouble(
        "Bunco cannot save on this laptop",
        f"Its data folder ({data_folder()}) is full or failing, so nothing new is saved. The "
        "phones keep every roll and send it again by themselves.",
        "Free some space on the laptop (empty the bin, delete big downloads): play goes on by "
        "itself. If none can be freed, press Save the night file on the night's page and open "
        "that file on another laptop (Open a saved night): the night goes on there.")


def copy_trouble() -> Trouble | None:
    with _lock:
        if not _copy:
            return None
        why, folder = _copy["why"], _copy["folder"]
    return Trouble(
        "The copy folder is not being written",
        f"Bunco cannot keep the night's copy in {folder}: {why}. Until it can, the night is "
        "only on this laptop (and the rolls on the phones).",
        "Free some space there or put the USB stick back: the copy is written again by itself "
        "and this message goes.", why=why)


#: What anyone but the host (a phone, the TV, a guest's page) is told: no folder, no advice.
GUESTS = Trouble("The laptop cannot save right now",
                 "The host's page says what is wrong.", "Wait a moment.")


def trouble_for(path: str) -> Trouble | None:
    """The data folder's trouble as the page at ``path`` says it: in full on the host's
    pages, in the phones' words anywhere else (never the laptop's folders)."""
    trouble = data_trouble()
    if trouble is None or path.startswith("/host/"):
        return trouble
    return GUESTS


def troubles() -> list[Trouble]:
    return [t for t in (data_trouble(), copy_trouble()) if t is not None]


def data_failed(exc: BaseException, night_id: int | None = None) -> None:
    """A write to the data folder failed for want of a working disk."""
    with _lock:
        new = not FAILING
        if new:
            FAILING.update(since=time.monotonic(), nights=set())
        FAILING["last"] = time.monotonic()
        FAILING["full"] = is_full(exc)
        told = night_id is None or night_id in FAILING["nights"]
        if not told:
            FAILING["nights"].add(night_id)
    if new:
        log.error("the data folder %s cannot be written: %s", data_folder(), exc)
    if not told:
        tell_host([night_id])


def data_saved(night_id: int | None = None) -> None:
    """A write to the data folder succeeded: whatever stopped it is over."""
    if not FAILING:  # the common path: one look, no lock
        return
    with _lock:
        nights = FAILING.pop("nights", set())
        FAILING.clear()
    log.warning("the data folder %s can be written again", data_folder())
    tell_host(sorted(nights | ({night_id} if night_id else set())))


def data_probe(sync: bool = True) -> Trouble | None:
    """Write (and with ``sync`` flush to the disk) a small file in the data folder, and look
    at its free space: the data folder's trouble now, noted, or cleared when the folder has
    room and no write failed for ``SETTLE`` seconds (nobody wrote since the space came back)."""
    folder = data_folder()
    probe = folder / ".bunco-can-write"
    try:
        with open(probe, "wb") as out:
            out.write(b"\0" * 4096)
            out.flush()
            if sync:
                os.fsync(out.fileno())
        probe.unlink()
        room = shutil.disk_usage(folder).free >= ROOM
    except OSError as exc:
        probe.unlink(missing_ok=True)
        if not is_disk_error(exc) and exc.errno not in (errno.ENOENT, errno.EACCES):
            raise
        data_failed(exc)
        return data_trouble()
    with _lock:
        settled = not FAILING or time.monotonic() - FAILING["last"] > SETTLE
    if room and settled:
        data_saved()
    return data_trouble()


#: A ``.partial`` file untouched this long (seconds) was left by a snapshot or a copy the
#: laptop died (or the disk filled) in the middle of; one being written is newer.
STALE_AFTER = 600


def clean_partials(path: Path) -> None:
    """Remove what snapshots or copies interrupted long ago left in ``path``."""
    now = time.time()
    for left in path.glob("*.partial"):
        try:
            if now - left.stat().st_mtime > STALE_AFTER:
                left.unlink()
        except OSError:  # gone meanwhile, or the stick: next time
            continue


def copy_failed(folder: Path, why: str, night_id: int | None) -> None:
    """The copy folder could not be written (``why``, in words; ``night_id``: the night whose
    copy it was, None before any night: its host's page shows it when loaded)."""
    with _lock:
        changed = _copy.get("why") != why or _copy.get("folder") != folder
        nights = _copy.setdefault("nights", set())
        told = (night_id in nights or night_id is None) and not changed
        _copy.update(why=why, folder=folder)
        if night_id is not None:
            nights.add(night_id)
        everyone = sorted(nights)
    if changed:
        log.error("the copy folder %s cannot be written: %s", folder, why)
    if not told:
        tell_host(everyone)


def copy_saved() -> None:
    if not _copy:
        return
    with _lock:
        nights = _copy.pop("nights", set())
        folder = _copy.get("folder")
        _copy.clear()
    log.warning("the copy folder %s is written again", folder)
    tell_host(sorted(nights))


def copy_reason(exc: OSError) -> str:
    """Why a copy folder cannot be written, in words."""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return "it is full"
    if exc.errno in (errno.ENOENT, errno.ENODEV, errno.ENXIO):
        return GONE
    if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return "it cannot be written to (a locked or read-only stick?)"
    return "the stick or disk reported an error (was it pulled out?)"


GONE = "it is not there (was the USB stick pulled out?)"


def trouble_html() -> str:
    """The host's note of what is wrong (an empty, hidden one when nothing is)."""
    return render_to_string("bunco/_laptop_trouble.html", {"troubles": troubles()})


def tell_host(night_ids: list[int]) -> None:
    """Push the note to those nights' host pages (from any thread)."""
    if not night_ids:
        return
    try:
        notes.to_hosts(night_ids, trouble_html())
    except Exception:  # a note lost: the host page shows it when loaded
        log.exception("telling the host about the disk failed")
