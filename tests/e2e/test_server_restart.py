"""The laptop's server dies mid-round and comes back: every screen (table phones, a guest's
phone, the TV) reconnects by itself within 5 s of the server answering again, a tap made
while it was down waits visibly and then counts once, and nothing in the log is lost.

The server here is the real one as ``make run`` starts it (Daphne in its own process, DEBUG
off, its own data folder), killed with SIGKILL and started again on the same address."""

import json
import re
import sys
import time

import pytest
from playwright.sync_api import expect, sync_playwright

from bench.management.commands.livebench import SETUP_SCRIPT, Server, prepared_env, run_checked
from tests.reliability.test_real_server import check_log

from .conftest import launch

PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
TV = {"viewport": {"width": 1920, "height": 1080}}
OFFLINE = re.compile(r"\boffline\b")
COUNT_OPENS = """
window.opens = 0;
document.addEventListener('htmx:wsOpen', function () { window.opens += 1; });
"""


@pytest.fixture
def served(tmp_path):
    env = prepared_env(tmp_path)  # migrated, static files collected, as `make run` does
    env["BUNCO_LAN_ADDRESS"] = "127.0.0.1"
    night = json.loads(run_checked([sys.executable, "-c", SETUP_SCRIPT, "3"], env,
                                   "night setup").strip().splitlines()[-1])
    server = Server(tmp_path / "server", env)
    server.start()
    yield server, night, env
    server.stop()


@pytest.mark.browser
def test_every_screen_reconnects_within_5_s_of_a_restart_and_nothing_is_lost(served):
    server, night, env = served
    guest = next(p for p in night["players"] if p["table"] == 1)
    with sync_playwright() as pw:
        browser = launch(pw)
        pages = {}
        for name, path, device in [
            ("table 1", f"/t/{night['tables']['1']}/", PHONE),
            ("table 2", f"/t/{night['tables']['2']}/", PHONE),
            ("guest", f"/p/{guest['token']}/", PHONE),
            ("tv", f"/tv/{night['tv']}/", TV),
        ]:
            page = browser.new_context(**device).new_page()
            page.add_init_script(COUNT_OPENS)
            page.goto(server.base + path)
            page.wait_for_function("window.opens >= 1")
            pages[name] = page
        table1, table2, tv = pages["table 1"], pages["table 2"], pages["tv"]

        table1.locator(".pad [data-quick-kind=hit1]").tap()
        expect(tv.locator("#table-1 .score").first).to_have_text("1")

        server.proc.kill()  # SIGKILL: no goodbye to any screen
        server.proc.wait(timeout=10)
        for page in pages.values():
            expect(page.locator("body")).to_have_class(OFFLINE, timeout=10000)
        # A roll made while the server is down waits on the phone, visibly.
        table2.locator(".pad [data-quick-kind=hit2]").tap()
        expect(table2.get_by_test_id("waiting")).to_have_count(1)

        server.start(port=server.port)
        back = time.monotonic()
        reconnected = {}
        for name, page in pages.items():
            page.wait_for_function("window.opens >= 2", timeout=5000)
            reconnected[name] = time.monotonic() - back
        print("reconnected after the server answered again (s):",
              {k: round(v, 2) for k, v in reconnected.items()})
        assert max(reconnected.values()) <= 5

        # The waiting roll was sent once back, and every screen shows both rolls.
        expect(table2.get_by_test_id("waiting")).to_have_count(0)
        expect(tv.locator("#table-1 .score").first).to_have_text("1")
        expect(tv.locator("#table-2 .score").first).to_have_text("2")
        expect(table2.locator("#table-2 .score").first).to_have_text("2")
        expect(pages["guest"].locator("#table-1 .score").first).to_have_text("1")
        for page in pages.values():
            expect(page.locator("body")).not_to_have_class(OFFLINE)
        browser.close()

    log = check_log(env, night)
    assert log["seqs"] == list(range(1, len(log["seqs"]) + 1))  # gap-free
    assert log["fold_seq"] == log["last_seq"] == log["seqs"][-1]
    assert server.problems() == []
