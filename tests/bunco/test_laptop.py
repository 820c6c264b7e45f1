"""Where the app's files and the host's data are, the time zone, and the browser: the choices
made for Windows and macOS are checked here with the platform faked (platformdirs picks the
platform when it is imported, so each faked platform runs in a process of its own)."""

import json
import os
import subprocess
import sys
import webbrowser
from pathlib import Path, PureWindowsPath

import pytest

from bunco import laptop

ROOT = Path(__file__).resolve().parent.parent.parent

FAKE = """
import json, os, sys
sys.platform = {platform!r}
os.environ.clear()
os.environ.update({environ!r})
sys.path.insert(0, {root!r})
from bunco import laptop
laptop.from_checkout = lambda: False  # as an installed package
print(json.dumps(str(laptop.data_dir())))
"""


def data_dir_on(platform: str, **environ) -> str:
    code = FAKE.format(platform=platform, environ=environ, root=str(ROOT))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_installed_on_linux_the_data_goes_to_the_xdg_data_folder():
    assert data_dir_on("linux", HOME="/home/ann") == "/home/ann/.local/share/bunco"
    assert data_dir_on("linux", HOME="/home/ann", XDG_DATA_HOME="/data/ann") == "/data/ann/bunco"


def test_installed_on_macos_the_data_goes_to_application_support():
    assert data_dir_on("darwin", HOME="/Users/ann") == \
        "/Users/ann/Library/Application Support/bunco"


def test_installed_on_windows_the_data_goes_to_the_local_app_data_folder():
    """%LOCALAPPDATA%\\bunco (not the roaming profile: a database is no file to roam).
    platformdirs asks Windows itself for the folder; here the folder is given by its override
    variable, the only way to fake it on another system."""
    local = r"C:\Users\Ann\AppData\Local"
    path = data_dir_on("win32", WIN_PD_OVERRIDE_LOCAL_APPDATA=local,
                       WIN_PD_OVERRIDE_APPDATA=r"C:\Users\Ann\AppData\Roaming")
    assert PureWindowsPath(path.replace("/", "\\")) == PureWindowsPath(local, "bunco")


def test_bunco_data_dir_wins_everywhere():
    for platform in ("linux", "darwin", "win32"):
        assert data_dir_on(platform, HOME="/home/ann", BUNCO_DATA_DIR="/srv/bunco") == \
            "/srv/bunco"


def test_from_a_checkout_the_data_stays_in_its_var_folder(monkeypatch):
    assert laptop.from_checkout()  # the tests run from a checkout
    assert laptop.data_dir({}) == ROOT / "var"
    assert laptop.app_files() == ROOT
    assert (laptop.app_files() / "templates" / "base.html").is_file()


def test_installed_the_app_files_are_the_wheels_copy(monkeypatch):
    monkeypatch.setattr(laptop, "from_checkout", lambda: False)
    assert laptop.app_files() == ROOT / "bunco" / "_data"
    assert laptop.data_dir({}) == laptop.user_data_dir()
    assert ROOT not in laptop.data_dir({}).parents  # never the checkout, never the cwd


@pytest.mark.parametrize("environ, system, zone", [
    ({"TZ": "Europe/Berlin"}, "Asia/Tokyo", "Europe/Berlin"),  # $TZ first
    ({}, "America/Chicago", "America/Chicago"),  # what the system says (Windows' registry)
    ({}, None, None),  # nothing said: /etc/localtime, or UTC
    ({}, "Nowhere/Else", "UTC"),  # a zone this machine does not know
])
def test_the_time_zone_is_the_laptops(monkeypatch, environ, system, zone):
    import tzlocal

    monkeypatch.setattr(tzlocal, "get_localzone_name", lambda: system)
    found = laptop.local_zone(environ)
    if zone is None:
        assert found == "UTC" or "/" in found
    else:
        assert found == zone


def test_an_unreadable_system_zone_is_not_a_crash(monkeypatch):
    import tzlocal

    def broken():
        raise LookupError("no registry key")

    monkeypatch.setattr(tzlocal, "get_localzone_name", broken)
    monkeypatch.setattr(laptop.sys, "platform", "win32")
    assert laptop.local_zone({}) == "UTC"


class Browser(webbrowser.BackgroundBrowser):
    opened: list = []

    def open(self, url, new=0, autoraise=True):
        self.opened.append(url)
        return True


@pytest.mark.parametrize("platform, environ, opens", [
    ("win32", {}, True),
    ("darwin", {}, True),
    ("linux", {"DISPLAY": ":0"}, True),
    ("linux", {"WAYLAND_DISPLAY": "wayland-0"}, True),
    ("linux", {}, False),  # no desktop: a text browser would take over the terminal
])
def test_the_host_page_opens_in_a_desktop_browser_only(monkeypatch, platform, environ, opens):
    Browser.opened = []
    monkeypatch.setattr(laptop.sys, "platform", platform)
    monkeypatch.setattr(webbrowser, "get", lambda: Browser("xdg-open"))
    assert laptop.open_in_browser("http://h/host/x/", environ) is opens
    assert Browser.opened == (["http://h/host/x/"] if opens else [])


def test_a_text_browser_is_never_started(monkeypatch):
    monkeypatch.setattr(laptop.sys, "platform", "linux")
    monkeypatch.setattr(webbrowser, "get", lambda: webbrowser.GenericBrowser("w3m"))
    assert laptop.open_in_browser("http://h/", {"DISPLAY": ":0"}) is False


def test_no_browser_at_all_is_not_an_error(monkeypatch):
    def none():
        raise webbrowser.Error("could not locate runnable browser")

    monkeypatch.setattr(webbrowser, "get", none)
    assert laptop.open_in_browser("http://h/", {"DISPLAY": ":0"}) is False


@pytest.mark.parametrize("started_with", [None, "/opt/lib"])
def test_from_the_single_file_app_the_browser_gets_the_systems_libraries(monkeypatch,
                                                                          started_with):
    """The single-file app runs with its own libraries first on the library path: the browser
    it opens gets the path the app was started with (none, or the host's own), and the app
    keeps its own afterwards."""
    seen = []

    class Recording(webbrowser.BackgroundBrowser):
        def open(self, url, new=0, autoraise=True):
            seen.append(os.environ.get("LD_LIBRARY_PATH"))
            return True

    monkeypatch.setattr(laptop.sys, "frozen", True, raising=False)
    monkeypatch.setattr(laptop.sys, "platform", "linux")
    monkeypatch.setenv("LD_LIBRARY_PATH", "/tmp/_MEI123")
    if started_with is None:
        monkeypatch.delenv("LD_LIBRARY_PATH_ORIG", raising=False)
    else:
        monkeypatch.setenv("LD_LIBRARY_PATH_ORIG", started_with)
    monkeypatch.setattr(webbrowser, "get", lambda: Recording("xdg-open"))
    assert laptop.open_in_browser("http://h/host/x/", {"DISPLAY": ":0"})
    assert seen == [started_with]
    assert os.environ["LD_LIBRARY_PATH"] == "/tmp/_MEI123"


def test_outside_the_single_file_app_the_library_path_is_left_alone(monkeypatch):
    monkeypatch.setenv("LD_LIBRARY_PATH", "/opt/lib")
    with laptop.system_libraries():
        assert os.environ["LD_LIBRARY_PATH"] == "/opt/lib"


@pytest.mark.parametrize("exits, opens", [(0, True), (3, False)])
def test_a_launcher_that_hands_the_page_on_and_exits_at_once_opened_it(monkeypatch, tmp_path,
                                                                        exits, opens):
    """xdg-open gives the page to the browser and exits straight away: that is the page
    opened (Python's own check says it failed when the launcher has merely finished)."""
    launcher, asked = tmp_path / "xdg-open", tmp_path / "asked.txt"
    launcher.write_text(f'#!/bin/sh\necho "$1" > "{asked}"\nexit {exits}\n')
    launcher.chmod(0o755)
    monkeypatch.setattr(laptop.sys, "platform", "linux")
    monkeypatch.setattr(webbrowser, "get", lambda: webbrowser.BackgroundBrowser(str(launcher)))
    assert laptop.open_in_browser("http://h/host/x/", {"DISPLAY": ":0"}) is opens
    assert asked.read_text().strip() == "http://h/host/x/"
