"""The golden path in a real Chromium against a real Daphne server with real websockets:
a host sets up a 12-player night, three table phones score until the head table rings the
bell, every screen shows the bell, and the rotation appears on the phones."""

import os
import re
from pathlib import Path

from playwright.sync_api import expect

from .base import HOST_SECRET as SECRET
from .base import BrowserTestCase, tap_like_a_person

ARTIFACTS = Path(os.environ.get("BUNCO_TEST_ARTIFACTS", "test-artifacts"))
PHONE = {"width": 360, "height": 740}
NAMES = ["Ava", "Ben", "Cleo", "Dana", "Eli", "Faye", "Gus", "Hana", "Ivan", "Jade", "Kofi",
         "Lena"]


class GoldenPath(BrowserTestCase):

    def shot(self, page, name):
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)

    def phone(self, url):
        page = self.browser.new_context(viewport=PHONE).new_page()
        page.goto(url)
        return page

    def tap(self, page, label):
        tap_like_a_person(page, page.locator(".pad .quick button", has_text=label).first)

    def test_a_night_from_setup_to_the_first_rotation(self):
        url = self.live_server_url
        host = self.browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        host.goto(f"{url}/host/{SECRET}/")
        host.fill("input[name=name]", "Golden Bunco")
        host.select_option("select[name=rules_id]", "babz")
        host.fill("input[name=entry_fee]", "10")
        host.fill("textarea[name=players]", "\n".join(NAMES))
        host.get_by_role("button", name="Create the night").click()
        expect(host.locator("main h1")).to_have_text("Golden Bunco")
        host.get_by_role("button", name="Seat everyone").click()
        expect(host.get_by_role("button", name=re.compile("start set 1, round 1"))).to_be_visible()
        self.shot(host, "host-ready")

        table_urls = [host.get_by_role("link", name=f"Table {n} scorekeeping link")
                      .get_attribute("href") for n in (1, 2, 3)]
        tables = [self.phone(u) for u in table_urls]
        tv_href = host.get_by_role("link", name="TV screen").get_attribute("href")
        tv = self.browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        tv.goto(tv_href)
        join_href = host.get_by_role("link", name="Find-my-seat page").get_attribute("href")
        me = self.phone(join_href)
        me.get_by_role("button", name="Ava").click()
        expect(me.locator("[data-testid=where]")).to_contain_text("You are at table")

        for page in [*tables, tv, me]:
            expect(page.locator("#banner")).to_contain_text("Find your seat")
        host.get_by_role("button", name=re.compile("start set 1, round 1")).click()
        for page in [*tables, tv, me, host]:
            expect(page.locator("#banner .headline")).to_have_text("Round 1")

        # A roll at table 2 reaches table 2's phone and the TV, and not table 1's phone.
        self.tap(tables[1], "2 hits")
        expect(tables[1].locator("#table-2 .score").first).to_have_text("2")
        expect(tv.locator("#table-2 .score").first).to_have_text("2")
        expect(tables[0].locator("#table-1 .score").first).to_have_text("0")
        self.shot(tables[1], "phone-table-2")

        # The head table rolls a bunco: under these rules that ends the round; the bell rings.
        self.tap(tables[0], "BUNCO!")
        for page in [*tables, tv, me, host]:
            expect(page.locator("#banner.bell")).to_be_visible()
            expect(page.locator("#banner")).to_contain_text("Bell!")
        self.shot(tables[2], "phone-bell")
        self.shot(tv, "tv-bell")

        # The gong stops play at once at every table; table 3, tied 0-0, plays one more lap.
        expect(tables[2].locator(".status")).to_contain_text("Tied!")
        self.tap(tables[2], "1 hit")
        for _ in range(4):
            expect(tables[2].locator(".pad .quick button").first).to_be_visible()
            self.tap(tables[2], "Miss")

        # Round over: every phone shows where to sit next; the TV shows the movement board.
        for page in [*tables, tv, me, host]:
            expect(page.locator("#banner")).to_contain_text("Round 1 over")
        expect(me.locator("[data-testid=where]")).to_contain_text(re.compile("table [123]"))
        expect(me.locator("[data-testid=where]")).to_contain_text("Partner:")
        expect(tv.locator(".tv-moves")).to_contain_text("Next seats")
        expect(host.locator(".moves li")).to_have_count(12)
        self.shot(me, "phone-player-rotation")
        self.shot(tv, "tv-rotation")
        self.shot(host, "host-rotation")
