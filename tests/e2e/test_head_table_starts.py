"""The head table's phone rings the bell that starts the round, in a real Chromium: the button
shows at the head table between rounds only, and the whole room starts at its press."""

import random

from playwright.sync_api import expect

from bunco.models import Night, TableLink
from bunco.night import services
from scoring import sample_names
from tests.playing import play_round

from .base import BrowserTestCase, in_thread

PHONE = {"width": 390, "height": 844}


def seated():
    night = services.night_create(name="Bell", rules_id="babz", player_names=sample_names(12))
    services.night_seat(night=night, rng=random.Random(4))
    return night


class HeadTableStarts(BrowserTestCase):
    def open(self, url):
        page = self.browser.new_context(viewport=PHONE).new_page()
        page.goto(url)
        page.wait_for_function("window.bunco && window.bunco.open")
        return page

    def test_the_head_table_rings_and_every_table_starts(self):
        night = in_thread(seated)
        links = {t.number: t.token for t in TableLink.objects.filter(night=night)}
        head = self.open(f"{self.live_server_url}/t/{links[1]}/")
        other = self.open(f"{self.live_server_url}/t/{links[2]}/")
        bell = head.get_by_test_id("head-start")
        expect(bell).to_be_visible()
        expect(other.get_by_test_id("head-start")).to_have_count(0)
        expect(other.locator("#banner")).to_contain_text("at the head table's bell")
        head.screenshot(path="test-artifacts/phone-head-start.png")
        bell.click()
        for page in (head, other):  # no reload: the push brings the round
            expect(page.locator("#banner .headline")).to_contain_text("Round 1")
        expect(bell).to_be_hidden()

        # The round played: between rounds the button is back, for round 2, on the same page.
        in_thread(lambda: play_round(Night.objects.get(pk=night.pk), start=False))
        expect(head.locator("#banner")).to_contain_text("Round 1 over")
        expect(bell).to_be_visible()
        bell.click()
        expect(other.locator("#banner .headline")).to_contain_text("Round 2")
