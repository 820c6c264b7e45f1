"""A full or failing disk is said, not hidden, and loses nothing.

The real server (Daphne in its own process) keeps its data on a small tmpfs, which the test
fills mid-round: the phone keeps its rolls and says in words why, the host's night page says
what is wrong and what to do (pushed, and again when loaded: never an error page), /healthz
answers 503 with the same sentence, and once the space is back the rolls count by themselves,
each once. A copy folder on a "USB stick" (a tmpfs bound to a mount point) that fills up or is
pulled out is said on the host's page the same way, and the warning goes when it works again.
Mounting needs root: without it these tests are skipped."""

import errno
import json
import re
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import expect, sync_playwright

from bench.server import SETUP_SCRIPT, Server, prepared_env, run_checked
from bunco.laptop.backup import read_night_file
from tests.e2e.test_dead_laptop import rolls_logged
from tests.reliability.test_real_server import check_log
from tests.waiting import wait_until

from .conftest import launch

PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
LAPTOP = {"viewport": {"width": 1280, "height": 900}}
#: Nothing a guest or the host reads may look like this.
JARGON = re.compile(r"Traceback|OperationalError|sqlite|Errno|errno|Exception|error 500|"
                    r"Server Error", re.IGNORECASE)


def mount(*args: str) -> None:
    subprocess.run(["mount", *args], check=True, capture_output=True, timeout=30)


@pytest.fixture
def mounts():
    """Mount points made by the test, unmounted after it."""
    made: list[Path] = []

    def tmpfs(path: Path, size: str) -> Path:
        path.mkdir(parents=True, exist_ok=True)
        try:
            mount("-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path))
        except (subprocess.CalledProcessError, FileNotFoundError, PermissionError):
            pytest.skip("mounting a small tmpfs needs root")
        made.append(path)
        return path

    yield tmpfs, made
    for path in reversed(made):
        subprocess.run(["umount", "-l", str(path)], capture_output=True, timeout=30)


def fill(folder: Path) -> Path:
    """Fill the disk ``folder`` is on to its last byte; the file that fills it."""
    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as out:
        for chunk in (1 << 20, 1 << 12, 1):
            try:
                while True:
                    out.write(b"\0" * chunk)
            except OSError as exc:
                assert exc.errno == errno.ENOSPC
    return filler


def health(server: Server) -> httpx.Response:
    return httpx.get(f"{server.base}/healthz", trust_env=False, timeout=10)


def no_jargon(*pages) -> None:
    for page in pages:
        text = page.locator("body").inner_text()
        assert not JARGON.search(text), text


def night_on(tmp_path: Path, data: Path, copy_to: Path | None = None):
    env = prepared_env(data)
    if copy_to is not None:
        env["BUNCO_COPY_TO"] = str(copy_to)
    night = json.loads(run_checked([sys.executable, "-c", SETUP_SCRIPT, "2"], env,
                                   "night setup").strip().splitlines()[-1])
    server = Server(tmp_path / "server", env)
    server.start()
    return env, night, server


def host_page(browser, server: Server, night):
    host = browser.new_context(**LAPTOP).new_page()
    host.goto(f"{server.base}/host/{server.secret}/")
    host.goto(f"{server.base}/host/nights/{night['night']}/")
    expect(host.locator("body")).not_to_have_class(re.compile(r"\boffline\b"))
    return host


@pytest.mark.browser
def test_a_full_data_folder_is_said_and_play_resumes_by_itself_when_space_is_back(
        tmp_path, mounts):
    tmpfs, _ = mounts
    data = tmpfs(tmp_path / "data", "24m")
    env, night, server = night_on(tmp_path, data)
    try:
        with sync_playwright() as pw:
            browser = launch(pw)
            phone = browser.new_context(**PHONE).new_page()
            phone.goto(f"{server.base}/t/{night['tables']['1']}/")
            host = host_page(browser, server, night)
            trouble = host.locator("#laptop-trouble")
            expect(trouble).to_be_hidden()
            for kind in ("hit1", "miss"):
                phone.wait_for_timeout(450)  # a person's pace: the next roll, not a bounce
                phone.locator(f".pad [data-quick-kind={kind}]").tap()
                expect(phone.get_by_test_id("waiting")).to_have_count(0)

            filler = fill(data)  # mid-round, the laptop's disk is full
            for kind in ("hit1", "miss"):
                phone.wait_for_timeout(450)  # a person's pace: the next roll, not a bounce
                phone.locator(f".pad [data-quick-kind={kind}]").tap()
            expect(phone.locator(".pending-note").first).to_contain_text(
                "The laptop cannot save right now: your rolls are kept")
            expect(phone.get_by_test_id("waiting")).to_have_count(2)
            expect(phone.get_by_test_id("refused")).to_have_count(0)
            # The host is told at once, what is wrong and what to do.
            expect(trouble).to_be_visible()
            expect(trouble).to_contain_text("Bunco cannot save on this laptop")
            expect(trouble).to_contain_text("Free some space on the laptop")
            expect(trouble).to_contain_text("open that file on another laptop")
            expect(trouble).not_to_contain_text("BUNCO_DATA_DIR")
            # And again when the page is loaded: the page, not an error.
            assert host.reload().status == 200
            expect(trouble).to_be_visible()
            expect(trouble).to_contain_text(str(data))
            answer = health(server)
            assert answer.status_code == 503
            assert answer.json()["data_folder"] == "failed: full or failing"
            assert "Bunco cannot save on this laptop" in answer.json()["problem"]
            no_jargon(phone, host)

            filler.unlink()  # space again: nobody touches anything
            back = time.monotonic()
            expect(phone.get_by_test_id("waiting")).to_have_count(0, timeout=20000)
            resumed = time.monotonic() - back
            expect(phone.get_by_test_id("refused")).to_have_count(0)
            expect(trouble).to_be_hidden(timeout=5000)
            assert health(server).status_code == 200
            no_jargon(phone, host)
            browser.close()
    finally:
        server.stop()
    print(f"\nthe waiting rolls counted {resumed:.1f} s after the space came back")
    assert [pos for pos, _, _ in rolls_logged(env, night, 1)] == [0, 1, 2, 3]  # each once
    log = check_log(env, night)
    assert len(log["keys"]) == log["last_seq"] == log["fold_seq"]
    assert "Traceback" not in server.tail()


def tapper(server: Server, night):
    """Rolls tapped at table 1 over HTTP, one after another: each answer's seq."""
    http = httpx.Client(trust_env=False, timeout=10)
    http.get(f"{server.base}/t/{night['tables']['1']}/")
    csrf = http.cookies.get("csrftoken")
    position = iter(range(1000))

    def roll() -> int:
        answer = http.post(f"{server.base}/t/{night['tables']['1']}/roll/",
                           data={"key": str(uuid.uuid4()), "set": 1, "round": 1, "table": 1,
                                 "pos": next(position), "quick": "miss"},
                           headers={"X-CSRFToken": csrf})
        assert answer.status_code == 200, answer.text
        return answer.json()["recorded"]

    return roll


def copy_has(folder: Path, seq: int) -> bool:
    return any(len(read_night_file(path.read_text())["events"]) == seq
               for path in folder.glob("*-night.json"))


def copy_holds(folder: Path, seq: int) -> None:
    wait_until(lambda: copy_has(folder, seq), f"the copy in {folder} holding entry {seq}")


@pytest.mark.browser
def test_a_copy_folder_that_fills_up_or_is_pulled_out_is_said_until_it_works_again(
        tmp_path, mounts):
    tmpfs, made = mounts
    stick_itself = tmpfs(tmp_path / "stick-itself", "1m")
    stick = tmp_path / "stick"
    stick.mkdir()
    mount("--bind", str(stick_itself), str(stick))  # plugged in
    made.append(stick)
    copies = stick / "bunco"
    env, night, server = night_on(tmp_path, tmp_path / "laptop", copies)
    try:
        roll = tapper(server, night)
        copy_holds(copies, roll())
        with sync_playwright() as pw:
            browser = launch(pw)
            host = host_page(browser, server, night)
            trouble = host.locator("#laptop-trouble")
            expect(trouble).to_be_hidden()

            filler = fill(stick)  # the stick is full: the night goes on, the host is told
            for _ in range(40):  # a line fits in what is left of the file's last block
                seq = roll()  # written to the copy, or the host told it was not
                wait_until(lambda: trouble.is_visible() or copy_has(copies, seq))  # noqa: B023
                if trouble.is_visible():
                    break
            expect(trouble).to_be_visible()
            expect(trouble).to_contain_text("The copy folder is not being written")
            expect(trouble).to_contain_text(f"{copies}: it is full")
            assert "it is full" in health(server).json()["problem"]
            filler.unlink()
            expect(trouble).to_be_hidden(timeout=10000)  # written again by itself
            copy_holds(copies, check_log(env, night)["last_seq"])

            subprocess.run(["umount", str(stick)], check=True, timeout=30)  # pulled out
            seq = roll()
            expect(trouble).to_be_visible()
            expect(trouble).to_contain_text("it is not there (was the USB stick pulled out?)")
            assert host.reload().status == 200
            expect(trouble).to_contain_text("it is not there")
            assert not copies.exists()  # nothing written to the laptop's disk in its place
            no_jargon(host)

            mount("--bind", str(stick_itself), str(stick))  # put back
            expect(trouble).to_be_hidden(timeout=10000)
            copy_holds(copies, seq)
            browser.close()
    finally:
        server.stop()
    assert "Traceback" not in server.tail()
