"""The copy folder is the whole recovery kit: beside the night's file, Bunco itself and how to
start it (``appfile``), put there once.

``kit()`` makes what goes there, once per process, in the data folder's ``kit/`` (the wheels
made again, the text, the download; a single file is used where it is). ``put_soon(folder)``
copies it into the copy folder in a thread of its own, when Bunco starts with a copy folder
and after the copier's first write there: never on a tap's path, and skipped when the folder's
mark (``.bunco-app``) says the same files are there. A stick too full for it, or pulled
out, is said on the host's page as for the night's file (``disk.copy_failed``) and tried
again; the night's file is written as before meanwhile.
"""

from __future__ import annotations

import errno
import hashlib
import json
import logging
import os
import shutil
import subprocess
import threading
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

from bunco.laptop import appfile, disk

MARK = ".bunco-app"
#: Room left on the stick after the app, as a share of its size: the night's file grows.
MARGIN = 0.1
#: A stick that could not take the app is tried again this often (seconds): a look at its
#: free space, nothing written until it has room.
RETRY_EVERY = 2.0
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Kit:
    """``files``: (name in the copy folder, where it is); ``download``: the one file the host's
    page offers (None: none); ``key``: names, sizes and contents in a word."""

    files: tuple[tuple[str, Path], ...]
    download: Path | None
    key: str

    @property
    def size(self) -> int:
        return sum(source.stat().st_size for _, source in self.files)


class NoRoom(OSError):
    def __init__(self, needed: int) -> None:
        super().__init__(errno.ENOSPC, "no room for Bunco itself")
        self.needed = needed


_lock = threading.Lock()
_made: dict[str, Kit] = {}


def kit() -> Kit:
    """What goes into a copy folder with the night's file, made once per process."""
    with _lock:
        if "kit" not in _made:
            _made["kit"] = _make(appfile.this_app(), Path(settings.DATA_DIR) / "kit")
        return _made["kit"]


def _make(app: appfile.App, folder: Path) -> Kit:
    folder.mkdir(parents=True, exist_ok=True)
    how_to = folder / appfile.HOW_TO
    if app.kind == "onefile":
        _write_text(how_to, appfile.how_to_start(app))
        return _kit(((app.path.name, app.path), (appfile.HOW_TO, how_to)), app.path)
    if app.kind == "bundle":
        zipped = folder / app.download_name
        if not zipped.is_file():  # ditto keeps the bundle's links and signature, as the Finder
            subprocess.run(["ditto", "-c", "-k", "--keepParent", app.path, zipped], check=True)
        _write_text(how_to, appfile.how_to_start(app))
        return _kit(((zipped.name, zipped), (appfile.HOW_TO, how_to)), zipped)
    wheels = _wheels(app, folder / appfile.WHEELS) if app.path else []
    _write_text(how_to, appfile.how_to_start(app, wheels[0].name if wheels else None))
    files = [(appfile.HOW_TO, how_to)] + [(f"{appfile.WHEELS}/{w.name}", w) for w in wheels]
    download = folder / app.download_name if wheels else None
    if download is not None:
        _zip(files, download)
    return _kit(tuple(files), download)


def _wheels(app: appfile.App, into: Path) -> list[Path]:
    """Bunco's wheel first, then every package it needs, made from what is installed."""
    into.mkdir(parents=True, exist_ok=True)
    made = []
    for dist in appfile.needed():
        if appfile.canonical(dist.metadata["Name"]) == "bunco":
            if app.kind == "checkout":  # make dist's own wheel
                made.insert(0, Path(shutil.copy2(app.path, into / app.path.name)))
                continue
            wheel = appfile.make_wheel(dist, into)
            if wheel:
                made.insert(0, wheel)
        elif wheel := appfile.make_wheel(dist, into):
            made.append(wheel)
    for old in set(into.glob("*.whl")) - set(made):  # another version's
        old.unlink()
    return made


def _zip(files: list[tuple[str, Path]], target: Path) -> None:
    partial = target.with_name(f".{target.name}.partial")
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_STORED) as out:  # wheels are zips already
        for name, source in files:
            out.write(source, name)
    partial.replace(target)


def _kit(files: tuple[tuple[str, Path], ...], download: Path | None) -> Kit:
    key = hashlib.sha256()
    for name, source in files:
        key.update(f"{name}\0{source.stat().st_size}\0".encode())
        with open(source, "rb") as data:
            key.update(hashlib.file_digest(data, "sha256").digest())
    return Kit(files, download, key.hexdigest())


def _write_text(path: Path, text: str) -> None:
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8", newline="\r\n" if os.name == "nt" else None)


# -- into the copy folder -----------------------------------------------------------------------

def there(folder: Path, made: Kit) -> bool:
    """Whether the copy folder holds the kit already (its mark, and each file's size)."""
    try:
        mark = json.loads((folder / MARK).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(mark, dict) and mark.get("key") == made.key and all(
        (folder / name).is_file() and (folder / name).stat().st_size == source.stat().st_size
        for name, source in made.files)


def put(folder: Path) -> bool:
    """The kit into ``folder``, each file written aside and renamed when whole, then the mark.
    False when it was there already. Raises OSError (``NoRoom`` before writing anything when
    the stick has not the room)."""
    made = kit()
    if there(folder, made):
        return False
    (folder / MARK).unlink(missing_ok=True)
    needed = int(made.size * (1 + MARGIN))
    if shutil.disk_usage(folder).free < needed:
        raise NoRoom(needed)
    for name, source in made.files:
        _copy(source, folder / name)
    wheels = folder / appfile.WHEELS
    kept = {folder / name for name, _ in made.files}
    for old in wheels.glob("*.whl") if wheels.is_dir() else ():
        if old not in kept:
            old.unlink()
    (folder / MARK).write_text(json.dumps({"key": made.key}), encoding="utf-8")
    return True


def _copy(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.copying")
    try:
        with open(source, "rb") as src, open(partial, "wb") as out:
            shutil.copyfileobj(src, out, 1024 * 1024)
            out.flush()
            os.fsync(out.fileno())  # on the stick, not in a cache a pulled stick loses
        shutil.copymode(source, partial)
        os.replace(partial, target)
    except OSError:
        partial.unlink(missing_ok=True)  # a full stick gets its room back
        raise


class _Putter:
    """One thread puts the kit into a copy folder, once per folder and disk, and tries again
    every ``RETRY_EVERY`` seconds while it cannot (while the folder is still the copy folder)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.done: dict[Path, int | None] = {}  # folder: the disk it was put on
        self.failed: set[Path] = set()  # folders the host was told about
        self.thread: threading.Thread | None = None

    def soon(self, folder: Path, device: int | None, night_id: int | None) -> None:
        with self.lock:
            if (folder in self.done and self.done[folder] == device) or (
                    self.thread is not None and self.thread.is_alive()):
                return
            self.thread = threading.Thread(target=self.run, args=(folder, device, night_id),
                                           name="bunco-kit", daemon=True)
            self.thread.start()

    def run(self, folder: Path, device: int | None, night_id: int | None) -> None:
        while not self.once(folder, device, night_id):
            time.sleep(RETRY_EVERY)
            if Path(str(settings.BUNCO_COPY_TO or "").strip()).expanduser() != folder:
                with self.lock:
                    self.failed.discard(folder)  # not the copy folder any more
                return

    def once(self, folder: Path, device: int | None, night_id: int | None) -> bool:
        """One try: whether it is done (put, there already, or not to be made)."""
        try:
            put(folder)
        except NoRoom as exc:
            self.fail(folder, f"it has no room for Bunco itself ({exc.needed // 2**20 + 1} MB"
                              " needed; the night's file is kept)", night_id)
            return False
        except OSError as exc:
            self.fail(folder, disk.copy_reason(exc), night_id)
            return False
        except Exception:  # a copy of the app that cannot be made never stops the night
            log.exception("putting Bunco itself into %s failed", folder)
        with self.lock:
            self.done[folder] = device
            failed = folder in self.failed
            self.failed.discard(folder)
        if failed:
            disk.copy_saved()
        return True

    def fail(self, folder: Path, why: str, night_id: int | None) -> None:
        with self.lock:
            self.failed.add(folder)
        disk.copy_failed(folder, why, night_id)

    def failing(self, folder: Path) -> bool:
        with self.lock:
            return folder in self.failed

    def wait(self, timeout: float = 120) -> None:
        thread = self.thread
        if thread is not None:
            thread.join(timeout)


_putter = _Putter()


def put_soon(folder: Path, device: int | None = None, night_id: int | None = None) -> None:
    """The kit into ``folder`` off the caller's path, unless done there on that disk."""
    _putter.soon(folder, device, night_id)


def failing(folder: Path) -> bool:
    """Whether the kit could not be put into ``folder`` (the host has been told)."""
    return _putter.failing(folder)


def wait() -> None:
    """Until the kit being put is there (tests)."""
    _putter.wait()
