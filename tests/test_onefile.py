"""The single-file app a host double-clicks (deploy/onefile/build.py, PyInstaller --onefile):
built from a clean clone of this checkout's last commit, exactly as `make onefile` builds it,
then started from an empty folder with an empty home, with no Python of this machine's in
its way. It starts the night as `bunco` does (the data in the user's data folder, the host
link, the phones' address and a QR code that scans on a dark and on a light terminal), and
Chromium plays a round through it (tests/test_package.py's round). Ctrl+C stops it cleanly;
started again on a desktop it opens the host page in the browser (started with the system's
libraries, not the app's), still has the night, and closing its terminal (SIGHUP) stops it
cleanly too. After each stop the night's database file is whole on its own.

It never skips: a build that fails fails the test.
"""

import contextlib
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.e2e.qr import read_terminal_qr
from tests.test_package import (
    ROOT,
    check,
    free_port,
    fresh_environment,
    play_a_round,
    wait_for_line,
)

pytestmark = [pytest.mark.onefile, pytest.mark.browser]


def as_from_a_terminal() -> None:
    """A session of its own, as a terminal gives the program it runs: Ctrl+C and a closed
    window reach every process of it (the app is two: PyInstaller's unpacker and Bunco).
    SIGINT as a terminal leaves it (a test runner's worker may ignore it)."""
    os.setsid()
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start(binary: Path, cwd: Path, env: dict, port: int, out: Path,
          browser: bool = False, *more: str) -> subprocess.Popen:
    options = ([] if browser else ["--no-browser"]) + list(more)
    with open(out, "w") as stream:
        return subprocess.Popen([str(binary), *options, "--port", str(port),
                                 "--bind", "127.0.0.1"], cwd=cwd, env=env, stdout=stream,
                                stderr=subprocess.STDOUT, preexec_fn=as_from_a_terminal)


def a_desktop(tmp_path: Path, env: dict) -> tuple[dict, Path]:
    """A desktop session whose browser is a stand-in: `xdg-open` (what Python's webbrowser
    runs on a Linux desktop) writes down the page it was asked to open and the library path
    it was started with; no default browser is set (`xdg-settings` knows none)."""
    tools, opened = tmp_path / "desktop-bin", tmp_path / "opened.txt"
    tools.mkdir()
    (tools / "xdg-open").write_text(
        f'#!/bin/sh\nprintf "%s\\n%s\\n" "$1" "${{LD_LIBRARY_PATH-none}}" > "{opened}"\n')
    (tools / "xdg-settings").write_text("#!/bin/sh\nexit 1\n")
    for tool in tools.iterdir():
        tool.chmod(0o755)
    return dict(env, PATH=f"{tools}:{env['PATH']}", DISPLAY=":99"), opened


def seconds_until_healthy(server: subprocess.Popen, port: int, launched: float) -> float:
    deadline = launched + 120
    while time.monotonic() < deadline:
        assert server.poll() is None, f"the app stopped ({server.returncode})"
        with contextlib.suppress(OSError), \
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as answer:
            if answer.status == 200:
                return time.monotonic() - launched
        time.sleep(0.05)
    raise AssertionError("the app did not answer /healthz in 120 s")


def stop(server: subprocess.Popen, signum: int) -> int:
    """The signal to the whole session, as the terminal sends it."""
    os.killpg(server.pid, signum)
    try:
        return server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
        raise


def nights_in_the_file_alone(database: Path) -> int:
    wal = database.with_name(database.name + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0, "the write-ahead log was not folded in"
    alone = database.with_name("copied-alone.sqlite3")
    alone.write_bytes(database.read_bytes())
    with contextlib.closing(sqlite3.connect(alone)) as db:
        return db.execute("SELECT count(*) FROM bunco_night").fetchone()[0]


def test_the_single_file_app_starts_the_night_and_plays_a_round(tmp_path):
    timings = {}
    started = time.monotonic()

    # A clean clone of the last commit: what is built is what is committed, nothing else of
    # this working tree (no var/, no build/, no uncommitted file).
    source = tmp_path / "source"
    check(["git", "-c", f"safe.directory={ROOT}", "clone", "--quiet", ROOT, source],
          timeout=120)
    dist = tmp_path / "dist"
    built = check([sys.executable, source / "deploy" / "onefile" / "build.py",
                   "--outdir", dist, "--workdir", tmp_path / "work"], cwd=source, timeout=900)
    binary = dist / "bunco"
    assert binary.is_file() and os.access(binary, os.X_OK), built.stdout
    size_mb = binary.stat().st_size / 1e6
    timings["build"] = time.monotonic() - started
    # One file and nothing else: a host is handed it alone.
    assert [p.name for p in dist.iterdir()] == ["bunco"]
    # .ci/run hands this build to the release's own build and smoke check (make release
    # APP=…, make smoke) rather than building it a second time.
    if keep := os.environ.get("BUNCO_KEEP_ONEFILE"):
        Path(keep).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(binary, keep)

    home, cwd = tmp_path / "home", tmp_path / "empty"
    home.mkdir()
    cwd.mkdir()
    env = fresh_environment(home)
    # Nothing of this machine's Python: the app carries its own.
    env["PATH"] = "/usr/bin:/bin"
    port = free_port()
    out = tmp_path / "first.out"
    launched = time.monotonic()
    stick = tmp_path / "stick"
    server = start(binary, cwd, env, port, out, False, "--copy-to", str(stick))
    try:
        first_start = seconds_until_healthy(server, port, launched)
        host_link = wait_for_line(out, r"Host \(keep this link to yourself\): (\S+)", server, 30)
        phones = wait_for_line(out, r"Phones on the Wi-Fi: (\S+)", server, 10)
        wait_for_line(out, r"(Press Ctrl\+C to stop\.)", server, 10)
        assert host_link.startswith(f"http://127.0.0.1:{port}/host/")
        qr = "\n".join(line for line in out.read_text().splitlines()
                       if line.startswith("\x1b["))
        for terminal in ("dark", "light"):
            assert read_terminal_qr(qr, terminal) == phones == f"http://127.0.0.1:{port}/"
        play_a_round(host_link)
        timings["round"] = time.monotonic() - started
        deadline = time.monotonic() + 120
        while not (stick / ".bunco-app").is_file() and time.monotonic() < deadline:
            time.sleep(0.2)  # the app itself, put on the stick beside the night's file
    finally:
        code = stop(server, signal.SIGINT)  # Ctrl+C
    text = out.read_text()
    assert code == 0, f"Ctrl+C ended the app with {code}:\n{text}"
    assert "Traceback" not in text, text

    # The data is in the user's data folder, whole; nothing where the app was started.
    data = home / "xdg-data" / "bunco"
    assert nights_in_the_file_alone(data / "bunco.sqlite3") == 1
    assert (data / "static" / "staticfiles.json").is_file()
    assert list(cwd.iterdir()) == []

    the_stick_alone_opens_the_night(stick, binary, tmp_path)

    # Started again as a double-click does, on a desktop: the host page opens in the
    # browser, which runs with the system's libraries, not the app's own. The night is kept:
    # the host's page lists it. Then its terminal is closed.
    desktop, opened = a_desktop(tmp_path, env)
    out = tmp_path / "second.out"
    launched = time.monotonic()
    server = start(binary, cwd, desktop, port, out, browser=True)
    try:
        second_start = seconds_until_healthy(server, port, launched)
        host_link = wait_for_line(out, r"Host \(keep this link to yourself\): (\S+)", server, 30)
        wait_for_line(out, r"(The host page is open in your browser\.)", server, 30)
        # the library path the app was started with (here none), not the app's own
        assert opened.read_text().splitlines() == [host_link,
                                                   env.get("LD_LIBRARY_PATH", "none")]
        # The host link signs this browser in (a cookie), then leads to the host's page.
        browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
        with browser.open(host_link, timeout=10) as page:
            assert "Demo night" in page.read().decode()
    finally:
        code = stop(server, signal.SIGHUP)
    text = out.read_text()
    assert code == 0, f"closing the terminal ended the app with {code}:\n{text}"
    assert "Traceback" not in text, text
    assert nights_in_the_file_alone(data / "bunco.sqlite3") == 1

    timings["total"] = time.monotonic() - started
    print(f"onefile test: {size_mb:.1f} MB; start to /healthz {first_start:.1f} s (first, "
          f"empty data folder), {second_start:.1f} s (again); seconds since start:",
          {k: round(v, 1) for k, v in timings.items()})


def the_stick_alone_opens_the_night(stick: Path, binary: Path, tmp_path: Path) -> None:
    """The stick holds the app itself, byte for byte, and how to start it; on a second
    laptop (an empty home, nothing of this machine's Python) the stick's copy opens the
    stick's night file with the same links."""
    on_stick = stick / binary.name
    assert on_stick.read_bytes() == binary.read_bytes() and os.access(on_stick, os.X_OK)
    assert f"chmod +x ./{binary.name} then ./{binary.name}" in \
        (stick / "HOW-TO-START.txt").read_text()
    (night,) = stick.glob("*-night.json")
    home = tmp_path / "spare-laptop"
    home.mkdir()
    env = dict(fresh_environment(home), PATH="/usr/bin:/bin")
    opened = check([on_stick, "restore-night", night], env=env, cwd=home, timeout=120)
    assert "Same links as before" in opened.stdout, opened.stdout
    assert nights_in_the_file_alone(home / "xdg-data" / "bunco" / "bunco.sqlite3") == 1
