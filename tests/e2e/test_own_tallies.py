"""Seed 004 (babz): a player's own 21 ends the round. The table's phone and the TV show each
player's own points in the round, mark who is close, and say why the head table's team with
fewer points won."""

import re

from playwright.sync_api import expect

from bunco.models import TableLink
from bunco.night.cache import live_state
from tests.playing import roll, started_night

from .base import BrowserTestCase, in_thread

PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
TV = {"viewport": {"width": 1920, "height": 1080}}


class OwnTallies(BrowserTestCase):

    def open(self, path, device):
        page = self.browser.new_context(**device).new_page()
        page.goto(self.live_server_url + path)
        return page

    def test_each_players_own_points_who_is_close_and_whose_21_won(self):
        night = in_thread(lambda: started_night("Babz", 8, seed=4))
        a, b, c, d = (s.name for s in live_state(night).tables[0].seats)  # A & C vs B & D

        def rolls(*taps):
            def work():
                for quick, times in taps:
                    for _ in range(times):
                        roll(night, 1, quick=quick)
            in_thread(work)
        # B reaches 20 (close to 21), D 16: B & D lead 36 to nothing.
        rolls(("miss", 1), ("hit2", 10), ("miss", 2), ("hit2", 8), ("miss", 1))
        link = TableLink.objects.get(night=night, number=1)
        phone = self.open(f"/t/{link.token}/", PHONE)
        tv = self.open(f"/tv/{night.tv_token}/", TV)
        for page in (phone, tv):
            teams = page.locator("#table-1 .tally > li")
            expect(teams.nth(1).get_by_test_id("own-tally")).to_have_text(["20 pts", "16 pts"])
            expect(teams.nth(1).locator(".own.close")).to_have_text("20 pts")  # B is close
            expect(teams.nth(1).locator(".name").first).to_contain_text(b)
            expect(teams.nth(1).get_by_test_id("score")).to_have_text("36")
            expect(page.get_by_test_id("won-by")).to_have_count(0)

        # A's own 21 (22) ends the round at the head table: A & C win with 22 to 36.
        rolls(("hit2", 11))
        for page in (phone, tv):
            page.reload()  # this test's taps reach the live server's screens by their resync
            teams = page.locator("#table-1 .tally > li")
            expect(teams.nth(0).get_by_test_id("own-tally")).to_have_text(["22 pts", "0 pts"])
            expect(teams.nth(0)).to_have_class(re.compile(r"\bwinner\b"))
            expect(page.locator("#table-1").get_by_test_id("won-by")).to_have_text(
                f"{a} reached 21, so that team wins.")
        tv.screenshot(path="test-artifacts/tv-own-tallies.png")
        phone.screenshot(path="test-artifacts/phone-own-tallies.png")
