"""The room check in the browser: the host's page shows a QR code; her phone (a second
Chromium, in a network namespace: another device on the laptop's LAN) scans it, says it
worked with a round trip, and the host's page, without a reload, says so with the same round
trip. Both pages keep the Content-Security-Policy."""

import re
import stat
import tempfile
from contextlib import ExitStack
from pathlib import Path

from playwright.sync_api import expect

from bunco.models import TableLink
from bunco.night import services
from tests.netns import phone_on_the_lan

from .base import HOST_SECRET, BrowserTestCase, ForkedDaphne, caught_up, in_thread
from .conftest import CHROMIUM, CHROMIUM_ARGS
from .qr import read_qr
from .test_accessibility import axe_violations, report


class OnThePhonesLan(ForkedDaphne):
    """The live server, its links and QR codes on the LAN address the phone reaches."""

    lan_address = "127.0.0.1"

    def run(self):
        from django.conf import settings

        settings.LAN_ADDRESS = self.lan_address
        super().run()


class RoomCheckWithHerPhone(BrowserTestCase):
    ProtocolServerProcess = OnThePhonesLan

    @classmethod
    def setUpClass(cls):
        cls._lan = ExitStack()
        try:
            cls.phone_lan = cls._lan.enter_context(phone_on_the_lan())
            cls.host = OnThePhonesLan.lan_address = cls.phone_lan.laptop
            # The phone's browser: the system Chromium, run inside the phone's namespace.
            folder = Path(cls._lan.enter_context(tempfile.TemporaryDirectory()))
            wrapper = folder / "chromium-on-the-phone"
            wrapper.write_text(f'#!/bin/sh\nexec ip netns exec {cls.phone_lan.namespace} '
                               f'{CHROMIUM} "$@"\n')
            wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
            super().setUpClass()
            cls.phone_browser = cls._pw.chromium.launch(executable_path=str(wrapper),
                                                        args=CHROMIUM_ARGS)
        except BaseException:
            cls._lan.close()
            raise

    @classmethod
    def tearDownClass(cls):
        try:
            cls.phone_browser.close()
            super().tearDownClass()
        finally:
            cls._lan.close()

    def test_the_host_scans_her_check_and_both_pages_say_it_worked_with_a_round_trip(self):
        broken = []  # what either page's Content-Security-Policy refused

        def watch(page):
            page.on("console", lambda m: broken.append(m.text)
                    if "Content Security Policy" in m.text else None)
            return page

        host = watch(self.browser.new_context(bypass_csp=False).new_page())
        host.goto(f"{self.live_server_url}/host/{HOST_SECRET}/")
        card = host.locator("#roomcheck")
        expect(card).to_contain_text("No phone has reached this laptop yet.")
        link = read_qr(host.get_by_test_id("roomcheck-qr"))
        assert link.startswith(f"http://{self.phone_lan.laptop}:{self._port}/check/"), link

        phone = watch(self.phone_browser.new_page(viewport={"width": 360, "height": 740}))
        phone.goto(link)
        expect(phone.get_by_test_id("roomcheck-phone")).to_have_text(
            "It worked: this phone reached the laptop.")
        expect(phone.get_by_test_id("roomcheck-rtt")).to_have_text(
            re.compile(r"^Round trip \d+ ms\.$"), timeout=15000)
        ms = re.search(r"\d+", phone.get_by_test_id("roomcheck-rtt").inner_text()).group(0)

        # The host's page was not reloaded: the news was pushed to it.
        expect(host.get_by_test_id("roomcheck-result")).to_have_text(
            f"Your phone reached this laptop, round trip {ms} ms.", timeout=10000)
        expect(host.get_by_test_id("roomcheck-reached")).to_contain_text(
            "1 phone reached this laptop")
        # Both pages, as they stand now, read well to a screen reader too.
        for where, url, browser in (("the phone's check", link, self.phone_browser),
                                    ("the host's card", host.url, self.browser._browser)):
            page = browser.new_context(bypass_csp=True).new_page()  # axe is injected inline
            if browser is self.browser._browser:
                page.goto(f"{self.live_server_url}/host/{HOST_SECRET}/")
            page.goto(url)
            if browser is self.browser._browser:
                caught_up(page)  # the card as the live socket last drew it
            else:  # its own check measured and shown
                expect(page.locator("[data-done='1']")).to_have_count(1, timeout=15000)
            violations = axe_violations(page)
            assert not violations, report(where, violations)
            page.close()

        # A new check: a new link (the card's buttons post with this browser's CSRF token).
        host.get_by_role("button", name="Check again").click()
        expect(host.get_by_test_id("roomcheck-result")).to_have_count(0)
        assert read_qr(host.get_by_test_id("roomcheck-qr")) != link
        assert broken == []
        phone.close()
        host.close()


class StrugglingTable(BrowserTestCase):

    def test_a_tables_phone_that_keeps_reconnecting_shows_on_the_hosts_page(self):
        """The phone's page tells its reconnects as its socket opens again; the host's page,
        without a reload, names the table."""
        night = in_thread(services.demo_night_create)
        token = TableLink.objects.get(night=night, number=2).token
        host = self.browser.new_page(viewport={"width": 1280, "height": 900})
        host.goto(f"{self.live_server_url}/host/{HOST_SECRET}/")
        host.goto(f"{self.live_server_url}/host/nights/{night.pk}/")
        host.wait_for_function("window.bunco && window.bunco.open")
        expect(host.get_by_test_id("weak-tables")).to_be_hidden()

        phone = self.browser.new_page(viewport={"width": 360, "height": 740})
        phone.goto(f"{self.live_server_url}/t/{token}/")
        for _ in range(3):  # its Wi-Fi drops the socket; the page connects again
            phone.wait_for_function("window.bunco && window.bunco.open")
            phone.evaluate("""() => {
                const conn = document.querySelector('[ws-connect]')['htmx-internal-data'].webSocket;
                conn.socket.close(); conn.init();
            }""")
        weak = host.get_by_test_id("weak-table")
        expect(weak).to_have_count(1)
        # Each drop is one reconnect, or two when the socket's own retry also fires before the
        # page's (a busy machine): every one of them is counted.
        expect(weak).to_have_text(re.compile(
            r"^Table 2: its phones lost their connection [3-6] times in the last 10 minutes\.$"))
        phone.close()
        host.close()

    def test_once_the_night_plays_the_check_folds_and_a_table_shows_on_the_first_screen(self):
        """At 1366x768 the tables come first once the bell rings; a struggling table is
        named above them, on the same first screen."""
        night = in_thread(services.demo_night_create)
        token = TableLink.objects.get(night=night, number=2).token
        host = self.browser.new_page(viewport={"width": 1366, "height": 768})
        host.goto(f"{self.live_server_url}/host/{HOST_SECRET}/")
        host.goto(f"{self.live_server_url}/host/nights/{night.pk}/")
        host.wait_for_function("window.bunco && window.bunco.open")
        fold = host.get_by_test_id("roomcheck-fold")
        expect(fold).to_have_attribute("open", "")
        host.get_by_role("button", name=re.compile(r"Ring the bell: start")).click()
        expect(fold).not_to_have_attribute("open", "")
        first_table = host.locator(".host-table").first
        expect(first_table).to_be_visible()
        assert first_table.bounding_box()["y"] < 768, "no table on the first screen"

        phone = self.browser.new_page(viewport={"width": 360, "height": 740})
        phone.goto(f"{self.live_server_url}/t/{token}/")
        for _ in range(3):
            phone.wait_for_function("window.bunco && window.bunco.open")
            phone.evaluate("""() => {
                const conn = document.querySelector('[ws-connect]')['htmx-internal-data'].webSocket;
                conn.socket.close(); conn.init();
            }""")
        weak = host.get_by_test_id("weak-tables")
        expect(weak).to_be_visible()
        assert weak.bounding_box()["y"] < 768, "the struggling table is below the first screen"
        phone.close()
        host.close()
