"""The laptop dies mid-round and takes its data with it: the host opens the night's latest file
on a fresh install at the same address, and the phones carry on by themselves.

The server is the real one (Daphne in its own process, its own data folder, a copy folder as
``bunco --copy-to`` gives it). It is killed with SIGKILL and its data folder deleted; a table's
phone taps two rolls while it is down; a fresh install (a new data folder, a new host link)
starts on the same address, and the host opens the copy folder's file through the host page's
upload. The phone's page, never reloaded, sends its waiting taps, which count exactly once.
Restored from the host's browser's copy, a roll older than the phone saw, the phone redraws
itself and its waiting tap is entered again in one tap."""

import json
import re
import shutil
import sys
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

from bench.management.commands.livebench import SETUP_SCRIPT, Server, prepared_env, run_checked
from tests.reliability.test_real_server import check_log

from .conftest import launch

PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
LAPTOP = {"viewport": {"width": 1280, "height": 900}, "accept_downloads": True}
OFFLINE = re.compile(r"\boffline\b")


def install(folder: Path, stick: Path) -> dict:
    """A laptop with Bunco installed and started once (migrated, static files collected),
    keeping its copies on the stick."""
    env = prepared_env(folder)
    env.update(BUNCO_LAN_ADDRESS="127.0.0.1", BUNCO_COPY_TO=str(stick))
    return env


def copied(stick: Path, entries: int) -> Path:
    """The night's file in the copy folder, once it holds ``entries`` entries (a copy is
    written within a few seconds of a change)."""
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        for path in stick.glob("*-night.json"):
            if len(json.loads(path.read_text())["events"]) == entries:
                return path
        time.sleep(0.2)
    raise AssertionError(f"no copy with {entries} entries in {sorted(stick.iterdir())}")


KEPT = """entries => new Promise(function (done) {
  var open = indexedDB.open("bunco-kept", 1);
  open.onupgradeneeded = function () { open.transaction.abort(); };  // not made yet: not here
  open.onsuccess = function () {
    var all = open.result.transaction("files").objectStore("files").getAll();
    all.onsuccess = function () {
      done(all.result.length === 1 && all.result[0].entries === entries);
    };
  };
  open.onerror = function () { done(false); };
})"""


def kept_in_browser(host, entries: int) -> None:
    """Wait until the host's page keeps the night's file with ``entries`` entries."""
    host.wait_for_function(KEPT, arg=entries)


@pytest.fixture
def laptops(tmp_path):
    servers = []
    yield tmp_path, servers
    for server in servers:
        server.stop()


def old_laptop(tmp_path, servers, stick, tables):
    """The laptop the night starts on, copying to ``stick``: its environment, the night set
    up with ``tables`` tables, and its running server."""
    env = install(tmp_path / "laptop", stick)
    night = json.loads(run_checked([sys.executable, "-c", SETUP_SCRIPT, str(tables)], env,
                                   "night setup").strip().splitlines()[-1])
    old = Server(tmp_path / "old-server", env)
    servers.append(old)
    old.start()
    return env, night, old


@pytest.mark.browser
def test_a_dead_laptop_is_replaced_and_the_phones_carry_on(laptops):
    tmp_path, servers = laptops
    stick, old_data = tmp_path / "stick", tmp_path / "laptop"
    env, night, old = old_laptop(tmp_path, servers, stick, tables=3)

    with sync_playwright() as pw:
        browser = launch(pw)
        phone = browser.new_context(**PHONE).new_page()
        phone.goto(f"{old.base}/t/{night['tables']['1']}/")
        expect(phone.locator("body")).not_to_have_class(OFFLINE)
        phone.evaluate("window.neverReloaded = true")
        phone.locator(".pad [data-quick-kind=hit1]").tap()
        expect(phone.locator("#table-1 .score").first).to_have_text("1")
        expect(phone.get_by_test_id("waiting")).to_have_count(0)
        entries = check_log(env, night)["last_seq"]
        copied(stick, entries)

        # The host's page, open on another device (the host's phone), keeps the file too.
        host = browser.new_context(**LAPTOP).new_page()
        host.goto(f"{old.base}/host/{old.secret}/")
        host.goto(f"{old.base}/host/nights/{night['night']}/")
        kept_in_browser(host, entries)
        expect(host.locator("#kept-file")).to_be_hidden()

        # The laptop dies, and its disk with it.
        old.proc.kill()
        old.proc.wait(timeout=10)
        shutil.rmtree(old_data)
        expect(phone.locator("body")).to_have_class(OFFLINE, timeout=10000)
        for _ in range(2):
            phone.wait_for_timeout(600)  # two rolls, not one tap's bounce
            phone.locator(".pad [data-quick-kind=hit1]").tap()
        expect(phone.get_by_test_id("waiting")).to_have_count(2)

        # The host's page says so, and offers the night as it kept it.
        kept = host.locator("#kept-file")
        expect(kept).to_be_visible(timeout=15000)
        expect(kept).to_contain_text(f"({entries} entries)")
        with host.expect_download() as download:
            kept.get_by_role("button", name="Save the night file").click()
        saved = json.loads(Path(download.value.path()).read_text())
        assert len(saved["events"]) == entries and download.value.suggested_filename.endswith(
            "-night.json")

        # A fresh install on the same address; the host opens the copy folder's file.
        new_env = install(tmp_path / "new-laptop", stick)
        new = Server(tmp_path / "new-server", new_env)
        servers.append(new)
        new.start(port=old.port)
        host.goto(f"{new.base}/host/{new.secret}/")
        host.locator("input[name=file]").set_input_files(str(copied(stick, entries)))
        host.get_by_role("button", name="Open the night").click()
        expect(host.locator("main")).to_contain_text("Same links as before")
        expect(host.locator("h1")).to_have_text("Bench")
        expect(host.locator("#table-1 .score").first).to_have_text("3", timeout=15000)

        # The phone, never reloaded, sent its two waiting rolls once the laptop answered.
        expect(phone.get_by_test_id("waiting")).to_have_count(0, timeout=15000)
        expect(phone.locator("#table-1 .score").first).to_have_text("3")
        expect(phone.locator("body")).not_to_have_class(OFFLINE)
        assert phone.evaluate("window.neverReloaded") is True
        browser.close()

    log = check_log(new_env, night)
    assert log["last_seq"] == entries + 2  # each waiting roll recorded exactly once
    assert log["seqs"] == list(range(1, entries + 3)) and len(log["keys"]) == entries + 2
    assert log["fold_seq"] == log["last_seq"]
    assert new.problems() == []


@pytest.mark.browser
def test_a_copy_older_than_the_phone_saw_redraws_the_phone_and_its_tap_is_entered_again(
        laptops):
    """The host's phone kept the night a roll ago: the restored night lacks the table's last
    roll. The table phone redraws itself as the night now is; the roll it tapped while the
    laptop was down is listed Not counted (its position is past the table's), and Enter again
    counts it."""
    tmp_path, servers = laptops
    stick = tmp_path / "stick"
    env, night, old = old_laptop(tmp_path, servers, stick, tables=2)

    with sync_playwright() as pw:
        browser = launch(pw)
        phone = browser.new_context(**PHONE).new_page()
        phone.goto(f"{old.base}/t/{night['tables']['1']}/")
        phone.locator(".pad [data-quick-kind=hit1]").tap()
        expect(phone.locator("#table-1 .score").first).to_have_text("1")
        kept_entries = check_log(env, night)["last_seq"]
        host = browser.new_context(**LAPTOP).new_page()
        host.goto(f"{old.base}/host/{old.secret}/")
        host.goto(f"{old.base}/host/nights/{night['night']}/")
        expect(host.locator("#table-1 .score").first).to_have_text("1")
        kept_in_browser(host, kept_entries)
        phone.wait_for_timeout(600)
        phone.locator(".pad [data-quick-kind=hit1]").tap()  # recorded, not in the host's copy
        expect(phone.locator("#table-1 .score").first).to_have_text("2")
        phone.evaluate("window.neverReloaded = true")

        old.proc.kill()
        old.proc.wait(timeout=10)
        shutil.rmtree(tmp_path / "laptop")
        expect(phone.locator("body")).to_have_class(OFFLINE, timeout=10000)
        phone.wait_for_timeout(600)
        phone.locator(".pad [data-quick-kind=hit1]").tap()
        expect(phone.get_by_test_id("waiting")).to_have_count(1)
        kept = host.locator("#kept-file")
        expect(kept).to_contain_text(f"({kept_entries} entries)", timeout=15000)
        with host.expect_download() as download:
            kept.get_by_role("button", name="Save the night file").click()

        new_env = install(tmp_path / "new-laptop", stick)
        new = Server(tmp_path / "new-server", new_env)
        servers.append(new)
        new.start(port=old.port)
        host.goto(f"{new.base}/host/{new.secret}/")
        host.locator("input[name=file]").set_input_files(download.value.path())
        host.get_by_role("button", name="Open the night").click()
        expect(host.locator("main")).to_contain_text("Same links as before")

        # The phone redraws itself as the night is now, and lists its tap as not counted.
        phone.wait_for_function("window.neverReloaded === undefined", timeout=20000)
        expect(phone.locator("#table-1 .score").first).to_have_text("1")
        refused = phone.get_by_test_id("refused")
        expect(refused).to_have_count(1, timeout=15000)
        expect(refused).to_contain_text("ahead of the table")
        refused.locator("[data-again]").click()
        expect(phone.locator("#table-1 .score").first).to_have_text("2")
        expect(host.locator("#table-1 .score").first).to_have_text("2")
        expect(phone.get_by_test_id("waiting")).to_have_count(0)
        browser.close()

    log = check_log(new_env, night)
    assert log["last_seq"] == kept_entries + 1 == log["fold_seq"]
    assert new.problems() == []
