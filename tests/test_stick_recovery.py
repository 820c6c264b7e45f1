"""The recovery from the USB stick alone. The host's laptop runs Bunco installed from the wheel
with Debian's pipx (as the README says), started with ``--copy-to`` a stick: the stick gets the
night's file as it goes, and Bunco itself (its wheels, made again from the install) with
HOW-TO-START.txt. A table phone's rolls are recorded, the laptop dies (SIGKILL, its data
folder gone), the phone keeps two more rolls.

A second laptop has no Bunco (an empty home; nothing named ``bunco`` on its PATH) and no
internet: the install runs in a network namespace of its own with no network at all when this
runs as root (else with pip told to use no index), with pip's configuration and cache left
out. It installs Bunco from the stick with HOW-TO-START.txt's own offline command, typed in
the stick's folder, starts it on the same port, and the host opens the stick's night file on
its host page: the phone sends its two kept rolls, and every roll counts once, for the roller
the phone showed.

It never skips: a build or an install that fails fails the test.
"""

import contextlib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

from bunco.laptop.backup import read_night_file
from tests.test_package import (
    CHROMIUM,
    CHROMIUM_ARGS,
    PIPX,
    ROOT,
    _as_from_a_terminal,
    check,
    free_port,
    fresh_environment,
    pipx_environment,
    wait_for_line,
)

pytestmark = [pytest.mark.package, pytest.mark.browser]

PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
OFFLINE = re.compile(r"\boffline\b")
HOST_LINK = r"Host \(keep this link to yourself\): (\S+)"
ROLLS = """
import json, sys
import django
django.setup()
from bunco.models import ScoreEvent
rows = ScoreEvent.objects.filter(night_id=int(sys.argv[1]), table=1,
                                 kind="roll").order_by("position")
print(json.dumps([[r.position, r.player] for r in rows]))
"""


def start(bunco: Path, home: Path, port: int, log: Path, *options: str) -> subprocess.Popen:
    with open(log, "w") as out:
        return subprocess.Popen(
            [str(bunco), "--no-browser", "--no-qr", "--port", str(port), "--bind", "127.0.0.1",
             *options], cwd=home, env=fresh_environment(home), stdout=out,
            stderr=subprocess.STDOUT, preexec_fn=_as_from_a_terminal)


def serving(log: Path, server: subprocess.Popen, port: int) -> str:
    """The host link it printed, once it answers."""
    link = wait_for_line(log, HOST_LINK, server, 120)

    def healthy() -> bool:
        with contextlib.suppress(OSError), \
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as answer:
            return answer.status == 200
        return False

    until(healthy, 60, f"bunco printed its link but does not answer:\n{log.read_text()}")
    return link


def until(what, seconds: float, why: str):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if found := what():
            return found
        time.sleep(0.2)
    raise AssertionError(why)


def rolls_on_stick(stick: Path) -> int:
    for path in stick.glob("*-night.json"):
        return sum(e.get("kind") == "roll" for e in read_night_file(path.read_text())["events"])
    return 0


def offline_environment(home: Path) -> dict:
    """pipx on a laptop with no internet and no Bunco: an empty home, pip with no index, no
    configuration, no cache and no proxy; no folder on PATH holds a ``bunco``."""
    env = pipx_environment(home)
    for name in list(env):
        if name.lower().endswith("_proxy") or name.startswith("PIP_"):
            del env[name]
    path = [p for p in env.get("PATH", "").split(os.pathsep)
            if p and not (Path(p) / "bunco").exists()]
    env.update(PIP_NO_INDEX="1", PIP_CONFIG_FILE=os.devnull, PIP_CACHE_DIR=str(home / "cache"),
               PATH=os.pathsep.join([str(home / ".local" / "bin"), *path]))
    return env


def no_network() -> list[str]:
    """A command's prefix that gives it no network at all (root only)."""
    if os.geteuid() == 0 and shutil.which("unshare"):
        return ["unshare", "--net"]
    return []


def tap(phone, kind: str) -> None:
    phone.wait_for_timeout(450)  # the next roll, not one tap's bounce
    phone.locator(f".pad [data-quick-kind={kind}]").tap()


def test_a_second_laptop_with_no_bunco_and_no_internet_carries_on_from_the_stick(tmp_path):
    assert Path(PIPX).is_file(), f"no {PIPX}: sudo apt-get install -y pipx"
    dist, stick = tmp_path / "dist", tmp_path / "stick"
    check([sys.executable, "-m", "build", "--wheel", "--outdir", dist, ROOT], cwd=tmp_path,
          timeout=300)
    (wheel,) = dist.glob("bunco-*.whl")
    first, second = tmp_path / "laptop", tmp_path / "spare-laptop"
    first.mkdir()
    second.mkdir()
    check([PIPX, "install", f"./{wheel.name}", "--pip-args", f"-c {ROOT / 'constraints.txt'}"],
          env=pipx_environment(first), cwd=dist, timeout=600)

    port = free_port()
    old = start(first / ".local" / "bin" / "bunco", first, port, tmp_path / "old.log",
                "--copy-to", str(stick))
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            host_link = serving(tmp_path / "old.log", old, port)
            phone, recorded_for, waiting_for = play_until_the_laptop_dies(
                browser, host_link, old, stick)
            shutil.rmtree(first / "xdg-data" / "bunco")  # its disk gone with it
            assert (stick / "HOW-TO-START.txt").is_file() and (stick / ".bunco-app").is_file()

            install_from_the_stick(stick, second)
            new = start(second / ".local" / "bin" / "bunco", second, port, tmp_path / "new.log")
            try:
                host_link = serving(tmp_path / "new.log", new, port)
                night = open_the_night_from_the_stick(browser, host_link, stick)
                expect(phone.get_by_test_id("waiting")).to_have_count(0, timeout=20000)
                expect(phone.get_by_test_id("refused")).to_have_count(0)
                expect(phone.locator("body")).not_to_have_class(OFFLINE)
            finally:
                new.send_signal(signal.SIGINT)
                assert new.wait(timeout=30) == 0, (tmp_path / "new.log").read_text()
        finally:
            browser.close()
            if old.poll() is None:
                old.kill()

    venv_python = second / ".local" / "pipx" / "venvs" / "bunco" / "bin" / "python"
    env = dict(fresh_environment(second), DJANGO_SETTINGS_MODULE="bunco.settings")
    logged = json.loads(check([venv_python, "-c", ROLLS, str(night)], env=env,
                              cwd=second).stdout.strip().splitlines()[-1])
    assert [pos for pos, _ in logged] == list(range(5))  # each roll once, in its place
    assert [who for _, who in logged] == recorded_for + waiting_for
    assert "Traceback" not in (tmp_path / "new.log").read_text()


def play_until_the_laptop_dies(browser, host_link: str, old: subprocess.Popen, stick: Path):
    """The demo night's round 1: three rolls recorded on table 1's phone and on the stick,
    the laptop killed, two rolls kept by the phone. (the phone, whom the recorded rolls are
    for, whom the waiting ones are for)"""
    host = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    host.goto(host_link)
    host.get_by_role("button", name="Try a demo night").click()
    host.get_by_role("button", name=re.compile("start set 1, round 1")).click()
    expect(host.locator("#banner .headline")).to_have_text("Round 1")
    href = host.get_by_role("link", name="Table 1 scorekeeping link").get_attribute("href")
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(href)
    expect(phone.locator("body")).not_to_have_class(OFFLINE)
    for kind in ("hit1", "miss", "hit1"):
        tap(phone, kind)
        expect(phone.get_by_test_id("waiting")).to_have_count(0)  # answered: recorded
    until(lambda: rolls_on_stick(stick) == 3, 15, "the stick's night file lacks a roll")
    until(lambda: (stick / ".bunco-app").is_file(), 180, "Bunco itself never reached the stick")
    old.kill()  # the laptop dies
    old.wait(timeout=10)
    recorded_for = phone.locator("#table-1 .rolls li:not(.waiting) .roller") \
        .all_text_contents()[::-1]
    expect(phone.locator("body")).to_have_class(OFFLINE, timeout=10000)
    for kind in ("miss", "hit1"):
        tap(phone, kind)
    expect(phone.get_by_test_id("waiting")).to_have_count(2)
    waiting_for = phone.locator("#table-1 .rolls li.waiting .roller").all_text_contents()[::-1]
    return phone, recorded_for, waiting_for


def install_from_the_stick(stick: Path, home: Path) -> None:
    """HOW-TO-START.txt's offline command, typed in the stick's folder."""
    how_to = (stick / "HOW-TO-START.txt").read_text()
    (command,) = re.findall(r"^\s*(pipx install \S+ --pip-args=\"[^\"]+\")$", how_to,
                            re.MULTILINE)
    assert "--no-index" in command
    check([*no_network(), PIPX, *shlex.split(command)[1:]], env=offline_environment(home),
          cwd=stick, timeout=600)
    assert (home / ".local" / "bin" / "bunco").is_file()


def open_the_night_from_the_stick(browser, host_link: str, stick: Path) -> int:
    """The host opens the stick's night file on the new laptop's host page: its night id."""
    host = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    host.goto(host_link)
    (night_file,) = stick.glob("*-night.json")
    host.locator("input[name=file]").set_input_files(str(night_file))
    host.get_by_role("button", name="Open the night").click()
    expect(host.locator("main")).to_contain_text("Same links as before")
    return int(re.search(r"/host/nights/(\d+)/", host.url).group(1))
