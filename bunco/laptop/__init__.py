"""The laptop the app runs on, on Windows, macOS or Linux: where the app's own files are,
where the host's data goes, and which time zone the laptop keeps (here); the ``bunco`` command
(``cli``), the LAN address phones use (``lan``), the room check (``roomcheck``), the night's
copies and snapshots (``backup``) and a data folder in trouble (``disk``).

The templates and static files live at the top of a checkout (``templates/``, ``static/``,
next to ``manage.py``). A wheel cannot hold folders outside its packages, so the build
(``setup.py``) copies them into the package as ``bunco/_data/templates`` and
``bunco/_data/static``; the app reads whichever of the two this copy of it has.

The data (the SQLite database, the keys, the snapshots, the collected static files) goes in
``BUNCO_DATA_DIR`` when it is set; otherwise in a checkout's ``var/``, and for an installed
package in the user's data folder for the platform (never in site-packages, nor in whatever
folder the command was started from).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Mapping, MutableMapping
from pathlib import Path

APP_NAME = "bunco"
PACKAGE = Path(__file__).resolve().parent.parent  # bunco/, this being bunco/laptop/
#: The checkout this package sits in, when it is one (in a wheel: site-packages).
CHECKOUT = PACKAGE.parent
#: The templates and static files as a wheel carries them.
BUNDLED = PACKAGE / "_data"


def from_checkout() -> bool:
    """True when this is the package in a checkout (also an editable install of one)."""
    return (CHECKOUT / "manage.py").is_file() and (CHECKOUT / "templates").is_dir()


def app_files() -> Path:
    """The folder that holds ``templates/`` and ``static/``."""
    return CHECKOUT if from_checkout() else BUNDLED


def user_data_dir(platform: str | None = None) -> Path:
    """The user's data folder for Bunco on this platform (platformdirs):

    - Windows: ``%LOCALAPPDATA%\\bunco`` (``C:\\Users\\<you>\\AppData\\Local\\bunco``)
    - macOS: ``~/Library/Application Support/bunco``
    - Linux: ``$XDG_DATA_HOME/bunco``, by default ``~/.local/share/bunco``
    """
    import platformdirs

    # platformdirs picks the platform once, when it is imported: the tests fake another
    # platform in a process of their own (tests/test_package_platforms.py).
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False, roaming=False))


def data_dir(environ: Mapping[str, str] = os.environ) -> Path:
    """Where the database, the keys, the snapshots and the collected static files go."""
    if value := environ.get("BUNCO_DATA_DIR", "").strip():
        return Path(value).expanduser()
    if from_checkout():
        return CHECKOUT / "var"
    return user_data_dir()


def local_zone(environ: Mapping[str, str] = os.environ) -> str:
    """The laptop's own time zone, as an IANA name (the desk's closing time and clock times
    are read in it): ``$TZ``, else what the system says (tzlocal: the registry on Windows,
    ``/etc/localtime`` on macOS and Linux), else UTC."""
    from zoneinfo import ZoneInfo

    name = environ.get("TZ", "").lstrip(":")
    if not name:
        name = _system_zone()
    try:
        ZoneInfo(name)
    except (ValueError, KeyError, OSError):  # not a zone this machine knows
        return "UTC"
    return name


def _system_zone() -> str:
    try:
        import tzlocal

        name = tzlocal.get_localzone_name()
    except Exception:  # an unreadable setting is the same as none
        name = None
    if name:
        return name
    if sys.platform != "win32":
        target = os.path.realpath("/etc/localtime")
        if "/zoneinfo/" in target:
            return target.split("/zoneinfo/", 1)[1]
    return "UTC"


def open_in_browser(url: str, environ: Mapping[str, str] = os.environ) -> bool:
    """Open ``url`` in the laptop's default browser; False when there is none to open.

    On Linux and the BSDs a browser needs a desktop session (``DISPLAY`` or
    ``WAYLAND_DISPLAY``): without one Python would start a text browser in the terminal the
    app prints to, so nothing is opened and the printed link is the way in."""
    import webbrowser

    if sys.platform not in ("win32", "darwin") \
            and not (environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY")):
        return False
    try:
        browser = webbrowser.get()
    except webbrowser.Error:
        return False
    if type(browser) is webbrowser.GenericBrowser:  # lynx, w3m...: they would take the terminal
        return False
    try:
        with system_libraries():
            if type(browser) is webbrowser.BackgroundBrowser:  # xdg-open, gio, ...: launchers
                return _launched([browser.name, *(a.replace("%s", url) for a in browser.args)])
            return bool(browser.open(url, new=2))
    except Exception:  # a browser that fails to start: the printed link is still there
        return False


def _launched(command: list[str]) -> bool:
    """Python's ``BackgroundBrowser.open`` says a launcher failed when it has merely finished:
    ``xdg-open`` hands the page to the browser and exits at once. Done without error, or
    still running after two seconds, it opened the page."""
    launcher = subprocess.Popen(command, close_fds=True, start_new_session=True,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        return launcher.wait(timeout=2) == 0
    except subprocess.TimeoutExpired:
        return True


@contextlib.contextmanager
def system_libraries(environ: MutableMapping[str, str] = os.environ):
    """The system's own shared libraries for the programs started meanwhile (the browser).

    The single-file app (PyInstaller) puts the libraries it carries first on the library path
    (``LD_LIBRARY_PATH``, ``LIBPATH`` on AIX) and keeps the one it was started with in
    ``…_ORIG``: a browser started with the app's copies of libssl or libstdc++ may fail to
    start or crash. Elsewhere (an installed package, a checkout) nothing changes."""
    if not getattr(sys, "frozen", False):
        yield
        return
    changed = {}
    for name in ("LD_LIBRARY_PATH", "LIBPATH"):
        if name in environ:
            changed[name] = environ[name]
            if (original := environ.get(f"{name}_ORIG")) is not None:
                environ[name] = original
            else:
                del environ[name]
    try:
        yield
    finally:
        environ.update(changed)


def keep_line(name: str, value: str) -> bool:
    """A host's choice kept in the data folder as the one line of file ``name``, written aside
    and renamed over (never half a file): whether it was."""
    from django.conf import settings

    path = Path(settings.DATA_DIR) / name
    partial = path.with_name(name + ".partial")
    try:
        partial.write_text(value + "\n", encoding="utf-8")
        os.replace(partial, path)
    except OSError:
        return False
    return True
