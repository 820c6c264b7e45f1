"""A party's first five minutes in real browsers: the host opens the app at localhost, yet
every QR code leads phones to the laptop's LAN address; the TV opens by typing the short
code the host's page shows, and shows the guests' QR code beside (never over) its banner."""

import os
import re
from pathlib import Path

from playwright.sync_api import expect

from .base import HOST_SECRET, LAN_ADDRESS, BrowserTestCase
from .qr import read_qr

ARTIFACTS = Path(os.environ.get("BUNCO_TEST_ARTIFACTS", "test-artifacts"))
PHONE = {"width": 360, "height": 740}


class JoiningTheNight(BrowserTestCase):

    def shot(self, page, name):
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)

    def host_with_a_seated_night(self):
        host = self.browser.new_context(viewport={"width": 1440, "height": 900}).new_page()
        host.goto(f"{self.live_server_url}/host/{HOST_SECRET}/")  # localhost, as on the laptop
        host.get_by_role("button", name="Try a demo night").click()
        expect(host.get_by_role("button", name=re.compile("start set 1, round 1"))).to_be_visible()
        return host

    def test_phones_and_the_tv_join_by_what_the_hosts_page_shows(self):
        host = self.host_with_a_seated_night()
        self.shot(host, "host-join-cards")
        join_url = read_qr(host.get_by_test_id("join-card").locator("img"))
        assert join_url.startswith(f"http://{LAN_ADDRESS}:{self._port}/j/")
        assert "localhost" not in join_url

        # A guest's phone scans the QR code: tonight's names.
        phone = self.browser.new_context(viewport=PHONE, has_touch=True).new_page()
        phone.goto(join_url)
        expect(phone.locator("h1")).to_have_text("Demo night")
        phone.get_by_role("button", name="Ava").click()
        expect(phone.locator("[data-testid=where]")).to_contain_text("You are at table")
        ava_url = phone.url

        # Another phone scans the same code: Ava is no longer offered, and her page (its
        # address copied off Ava's phone) does not open there.
        other = self.browser.new_context(viewport=PHONE, has_touch=True).new_page()
        other.goto(join_url)
        expect(other.get_by_role("button", name="Ben")).to_be_visible()
        expect(other.get_by_role("button", name="Ava")).to_have_count(0)
        other.goto(ava_url)
        expect(other.locator("h1")).to_have_text("Ava is on another phone")

        # The host's players list shows Ava on a phone as soon as she picked her name (no
        # reload). Her phone dies: the host releases her there, with the button that came
        # with the push; the new phone picks her name and is Ava's phone from now on.
        release = host.get_by_role("button", name="Release phone: Ava")
        expect(release).to_be_visible()
        release.click()
        expect(host.locator("#host-messages")).to_contain_text(
            "Ava can pick their name again on any phone")
        other.goto(join_url)
        other.get_by_role("button", name="Ava").click()
        expect(other.locator("[data-testid=where]")).to_contain_text("You are at table")
        assert other.url == ava_url
        phone.reload()
        expect(phone.locator("h1")).to_have_text("Ava is on another phone")

        # The TV: a person reads the address and the code off the host's page and types them.
        address = host.locator(".tv-address").inner_text()
        code = host.get_by_test_id("tv-code").inner_text()
        assert address == f"http://{LAN_ADDRESS}:{self._port}/tv/"
        assert re.fullmatch(r"\d{4,6}", code)
        tv = self.browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        tv.goto(address)
        tv.get_by_label("Type the TV code").fill(code)
        tv.get_by_role("button", name="Show the night").click()
        expect(tv.locator("#banner")).to_contain_text("Find your seat")

        # The TV shows the guests' QR code, leading where the host's does, clear of the banner.
        qr = tv.get_by_test_id("tv-join-qr")
        assert read_qr(qr.locator("img")) == join_url
        banner, box = tv.locator("#banner").bounding_box(), qr.bounding_box()
        assert box["y"] >= banner["y"] + banner["height"] or \
            box["x"] >= banner["x"] + banner["width"]
        assert box["y"] + box["height"] <= 1080 and box["x"] + box["width"] <= 1920
        self.shot(tv, "tv-ready")

        # The TV's own QR code (on the host's page) opens the TV page too.
        tv_url = read_qr(host.get_by_test_id("tv-card").locator("img"))
        assert tv_url == tv.url

    def test_the_start_address_leads_to_tonights_find_your_seat(self):
        self.host_with_a_seated_night()
        phone = self.browser.new_context(viewport=PHONE).new_page()
        phone.goto(f"http://{LAN_ADDRESS}:{self._port}/")  # what `make run`'s QR code holds
        expect(phone.locator("h1")).to_have_text("Demo night")
        expect(phone.get_by_text("Tap your name")).to_be_visible()
