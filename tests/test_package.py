"""The package as a host gets it: the sdist and the wheel are built from this checkout, and the
wheel is installed as the README says, with the README's own command, by Debian's packaged pipx
(1.1.0 on Debian 12), from the folder that holds the file, with an empty home and the tested
versions. Its `bunco` command is started from an empty folder, and Chromium plays a round
through it: the host opens the demo night, three table devices tap their rolls, the TV and the
host's page follow, the head table's bunco rings the bell and the round ends.

The data must land in the user's data folder (here the XDG one of the empty home), nothing in
the folder `bunco` was started from; a second `bunco` on the same port must say so in one
sentence and print no link; Ctrl+C must stop the first cleanly.

It needs the package index (or pip's cache) for the dependencies, as `pipx install` does, and
Debian's pipx (`sudo apt-get install -y pipx`; `make test` installs it as root); it never skips:
a build or an install that fails fails the test.
"""

import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
PIPX = "/usr/bin/pipx"  # Debian's and Ubuntu's packaged pipx, as a host installs it
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--no-proxy-server"]
PHONE = {"width": 360, "height": 740}
REACTION_MS = 650  # as tests/e2e: a second tap within this reads as the same tap

pytestmark = [pytest.mark.package, pytest.mark.browser]


def check(command, **kwargs):
    done = subprocess.run([str(c) for c in command], capture_output=True, text=True, **kwargs)
    assert done.returncode == 0, (
        f"{' '.join(map(str, command))} failed ({done.returncode}):\n"
        f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return done


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fresh_environment(home: Path) -> dict:
    """The environment of a host's terminal: none of this test run's settings, an empty home
    and its own XDG folders."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("BUNCO_", "DJANGO_", "XDG_", "PYTHON", "VIRTUAL_ENV"))
           and k not in ("DATABASE_URL", "REDIS_URL", "HOME", "DISPLAY", "WAYLAND_DISPLAY")}
    env.update(HOME=str(home), XDG_DATA_HOME=str(home / "xdg-data"),
               XDG_CONFIG_HOME=str(home / "xdg-config"), XDG_CACHE_HOME=str(home / "xdg-cache"),
               XDG_STATE_HOME=str(home / "xdg-state"),
               # Every link the app prints or shows: this machine's loopback, which the test's
               # browser reaches (a LAN address is not for tests to send traffic to).
               BUNCO_LAN_ADDRESS="127.0.0.1")
    return env


def wait_for_line(path: Path, pattern: str, proc: subprocess.Popen, seconds: float) -> str:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        text = path.read_text(errors="replace") if path.exists() else ""
        if found := re.search(pattern, text):
            return found.group(1)
        assert proc.poll() is None, f"bunco stopped ({proc.returncode}):\n{text}"
        time.sleep(0.2)
    raise AssertionError(f"bunco printed no {pattern!r} in {seconds} s:\n{text}")


def tap(page, label):
    """One tap as a person makes it: the next waits until this one shows (tests/e2e/base.py)."""
    before = page.evaluate("(document.querySelector('.table-live') || {dataset: {}}).dataset.seq")
    page.locator(".pad .quick button", has_text=label).first.click()
    # Waited for with locators, not wait_for_function: the installed app sends its
    # Content-Security-Policy, which forbids the eval that Playwright's polling needs.
    expect(page.locator("body")).not_to_have_class(re.compile(r"(^|\s)pending(\s|$)"))
    expect(page.locator(".table-live").first).not_to_have_attribute("data-seq", before or "")
    page.wait_for_timeout(REACTION_MS)  # a person's pace (the input; a floor)


def readme_install_command() -> str:
    """The command the README's install steps give a host for the Bunco file."""
    found = re.findall(r"`(pipx install [^`]*\.whl)`", (ROOT / "README.md").read_text())
    assert found, "the README gives no `pipx install ….whl` command"
    return found[0]


def pipx_environment(home: Path) -> dict:
    """pipx in the empty home: its apps and its `bunco` command under it. pip keeps this
    machine's network settings (an index, a proxy, a certificate) and its download cache, as a
    host's own pip would have them."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("BUNCO_", "DJANGO_", "PYTHON", "VIRTUAL_ENV", "PIPX_", "XDG_"))
           and k != "HOME"}
    env.update(HOME=str(home), PIPX_HOME=str(home / ".local" / "pipx"),
               PIPX_BIN_DIR=str(home / ".local" / "bin"))
    real_home = Path.home()
    env.setdefault("PIP_CACHE_DIR", str(Path(os.environ.get("XDG_CACHE_HOME",
                                                            real_home / ".cache")) / "pip"))
    for config in (real_home / ".config" / "pip" / "pip.conf", real_home / ".pip" / "pip.conf"):
        if config.is_file() and "PIP_CONFIG_FILE" not in env:
            env["PIP_CONFIG_FILE"] = str(config)
    return env


def test_the_wheel_installed_with_pipx_as_the_readme_says_plays_a_round(tmp_path):
    timings = {}
    started = time.monotonic()
    assert Path(PIPX).is_file(), f"no {PIPX}: sudo apt-get install -y pipx"

    # The sdist, then the wheel from the sdist (python -m build), as `make dist` makes them.
    dist = tmp_path / "dist"
    check([sys.executable, "-m", "build", "--outdir", dist, ROOT], cwd=tmp_path, timeout=300)
    wheels = list(dist.glob("bunco-*.whl"))
    assert len(wheels) == 1 and len(list(dist.glob("bunco-*.tar.gz"))) == 1
    timings["build"] = time.monotonic() - started

    # The file in a folder of its own (a download, a stick), and the README's command typed
    # there, with the tested versions.
    command = readme_install_command()
    folder = tmp_path / "Downloads"
    folder.mkdir()
    shutil.copy(wheels[0], folder)
    assert command == f"pipx install ./{wheels[0].name}", \
        f"the README installs {command!r}, the build made {wheels[0].name}"
    home, cwd = tmp_path / "home", tmp_path / "empty"
    home.mkdir()
    cwd.mkdir()
    check([PIPX, *shlex.split(command)[1:], "--pip-args", f"-c {ROOT / 'constraints.txt'}"],
          env=pipx_environment(home), cwd=folder, timeout=600)
    timings["install"] = time.monotonic() - started
    bunco = home / ".local" / "bin" / "bunco"
    venv = home / ".local" / "pipx" / "venvs" / "bunco"
    assert bunco.is_file(), f"pipx made no {bunco}"
    env = fresh_environment(home)
    where = check([venv / "bin" / "python", "-c", "import bunco, django; print(bunco.__file__)"],
                  env=env, cwd=cwd).stdout.strip()
    package = Path(where).parent
    assert venv in package.parents, f"bunco imported from {where}, not the installed wheel"
    assert (package / "_data" / "templates" / "jinja2" / "tables" / "_table.html").is_file()
    assert (package / "_data" / "static" / "vendor").is_dir()
    # The load tests and live benchmarks stay in the checkout, out of what a host installs.
    assert not (package.parent / "bench").exists()
    assert not (package / "management" / "commands" / "loadtest.py").exists()

    port = free_port()
    out_path, err_path = tmp_path / "bunco.out", tmp_path / "bunco.err"
    with open(out_path, "w") as out, open(err_path, "w") as err:
        # As from a terminal: Ctrl+C reaches it (a test runner's worker may ignore SIGINT,
        # and a program started with SIGINT ignored keeps ignoring it).
        server = subprocess.Popen(
            [str(bunco), "--no-browser", "--no-qr", "--port", str(port),
             "--bind", "127.0.0.1"], cwd=cwd, env=env, stdout=out, stderr=err,
            preexec_fn=_as_from_a_terminal if os.name == "posix" else None)
    try:
        host_link = wait_for_line(out_path, r"Host \(keep this link to yourself\): (\S+)",
                                  server, 120)
        wait_for_line(out_path, r"(Press Ctrl\+C to stop\.)", server, 10)
        timings["serving"] = time.monotonic() - started
        assert host_link.startswith(f"http://127.0.0.1:{port}/host/")

        # A second start on the same port: one sentence, no link, nothing else printed.
        again = subprocess.run([str(bunco), "--no-browser", "--port", str(port),
                                "--bind", "127.0.0.1"], cwd=cwd, env=env, capture_output=True,
                               text=True, timeout=60)
        assert again.returncode == 1 and again.stdout == ""
        assert again.stderr.startswith(f"Bunco cannot start: port {port} is already in use")
        assert again.stderr.count("\n") == 1 and "http" not in again.stderr

        play_a_round(host_link)
        timings["round"] = time.monotonic() - started
    finally:
        server.send_signal(signal.SIGINT)  # Ctrl+C
        try:
            code = server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            raise
    errors = err_path.read_text()
    assert code == 0, f"Ctrl+C ended bunco with {code}:\n{errors}"
    assert "Traceback" not in errors, errors

    # The data is in the user's data folder; nothing was written where bunco was started,
    # nor in the installed package.
    data = home / "xdg-data" / "bunco"
    assert (data / "bunco.sqlite3").is_file()
    assert (data / "static" / "staticfiles.json").is_file()
    assert list(cwd.iterdir()) == []
    assert not list(venv.rglob("*.sqlite3")) and not (package / "_data" / "var").exists()
    print("package test, seconds since start:",
          {k: round(v, 1) for k, v in timings.items()})


def _as_from_a_terminal() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def play_a_round(host_link: str) -> None:
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            host = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
            host.goto(host_link)
            host.get_by_role("button", name="Try a demo night").click()
            bell = host.get_by_role("button", name=re.compile("start set 1, round 1"))
            expect(bell).to_be_visible()
            tables = []
            for n in (1, 2, 3):
                href = host.get_by_role("link", name=f"Table {n} scorekeeping link") \
                    .get_attribute("href")
                page = browser.new_context(viewport=PHONE).new_page()
                page.goto(href)
                tables.append(page)
            tv = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
            tv.goto(host.get_by_role("link", name="TV screen").get_attribute("href"))

            bell.click()
            for page in [*tables, tv, host]:
                expect(page.locator("#banner .headline")).to_have_text("Round 1")
            tap(tables[1], "1 hit")
            tap(tables[2], "1 hit")
            expect(tv.locator("#table-2 .score").first).to_have_text("1")
            expect(tv.locator("#table-3 .score").first).to_have_text("1")
            # The head table's bunco rings the bell (these rules); no table is tied: over.
            tap(tables[0], "BUNCO!")
            for page in [*tables, tv, host]:
                expect(page.locator("#banner")).to_contain_text("Round 1 over")
            expect(host.locator(".moves li")).to_have_count(12)
        finally:
            browser.close()
