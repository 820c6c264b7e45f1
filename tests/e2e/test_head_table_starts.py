"""The head table's phone rings the bell that starts the round, in a real Chromium: the button
shows at the head table between rounds only (never on the host's break until it is over),
and the whole room starts at its press."""

import random
import time

from playwright.sync_api import expect

from bunco.models import Night, TableLink
from bunco.night import services
from scoring import sample_names
from tests.playing import play_round

from .base import HOST_SECRET, BrowserTestCase, in_thread, synced_until

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
        synced_until(head, head.locator("#banner"), "Round 1 over")
        expect(bell).to_be_visible()
        bell.click()
        expect(other.locator("#banner .headline")).to_contain_text("Round 2")

    def test_the_break_is_the_hosts_the_bell_comes_back_when_it_ends(self):
        night = in_thread(seated)
        in_thread(lambda: play_round(Night.objects.get(pk=night.pk)))
        token = TableLink.objects.get(night=night, number=1).token
        head = self.open(f"{self.live_server_url}/t/{token}/")
        bell = head.get_by_test_id("head-start")
        expect(bell).to_be_visible()
        host = self.browser.new_context(viewport={"width": 1440, "height": 900}).new_page()
        host.goto(f"{self.live_server_url}/host/{HOST_SECRET}/")
        host.goto(f"{self.live_server_url}/host/nights/{night.pk}/")
        host.get_by_role("button", name="Start a break").click()
        expect(head.locator("#banner .headline")).to_contain_text("Break")
        expect(head.locator("#banner")).to_contain_text("when the break is over")
        expect(bell).to_be_hidden()
        head.screenshot(path="test-artifacts/phone-head-on-break.png")
        host.get_by_role("button", name="End the break").click()
        expect(bell).to_be_visible()  # the host ended it: no reload
        bell.click()
        expect(head.locator("#banner .headline")).to_contain_text("Round 2")

    def test_a_breaks_countdown_running_out_brings_the_bell_back(self):
        night = in_thread(seated)
        in_thread(lambda: play_round(Night.objects.get(pk=night.pk)))
        # A one-minute break with three seconds left.
        in_thread(lambda: services.break_start(night=Night.objects.get(pk=night.pk),
                                               minutes=1, now=time.time() - 57))
        token = TableLink.objects.get(night=night, number=1).token
        head = self.open(f"{self.live_server_url}/t/{token}/")
        bell = head.get_by_test_id("head-start")
        expect(bell).to_be_hidden()
        expect(head.get_by_test_id("countdown")).to_have_text("time's up", timeout=10_000)
        expect(bell).to_be_visible()
        bell.click()
        expect(head.locator("#banner .headline")).to_contain_text("Round 2")

    def test_how_we_play_tonight_shows_that_it_opens(self):
        night = in_thread(seated)
        token = TableLink.objects.get(night=night, number=1).token
        head = self.open(f"{self.live_server_url}/t/{token}/")
        summary = head.locator(".how-we-play summary")
        arrow = "el => getComputedStyle(el, '::before').content"
        assert summary.evaluate(arrow) == '"\u25b8"'  # closed: an arrow, as My scorecard has
        summary.click()
        expect(head.locator(".how-we-play")).to_have_attribute("open", "")
        assert summary.evaluate(arrow) == '"\u25be"'
