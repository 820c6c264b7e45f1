"""Phones on party Wi-Fi: taps survive a dropped connection, and tables of players on their
own (Winning Moves layouts) are scored like any other."""

import random
import re
import threading

from playwright.sync_api import expect

from bunco.models import ScoreEvent, TableLink
from bunco.night import services
from bunco.night.cache import live_state
from scoring import sample_names

from .base import BrowserTestCase

PHONE = {"width": 360, "height": 740}


class PhonesOnPartyWifi(BrowserTestCase):

    def night(self, rules_id, players):
        """Set up in another thread: Playwright's event loop owns this one, and the services
        push to the screens through async_to_sync."""
        made = []

        def setup():
            night = services.night_create(name="Wifi", rules_id=rules_id,
                                          player_names=sample_names(players))
            services.night_seat(night=night, rng=random.Random(4))
            services.round_start(night=night)
            made.append(night)

        worker = threading.Thread(target=setup)
        worker.start()
        worker.join()
        return made[0]

    def test_a_tap_made_offline_is_sent_once_when_the_phone_is_back(self):
        night = self.night("babz", 12)
        link = TableLink.objects.get(night=night, number=2)
        context = self.browser.new_context(viewport=PHONE)
        page = context.new_page()
        page.goto(f"{self.live_server_url}/t/{link.token}/")
        expect(page.locator("#banner .headline")).to_have_text("Round 1")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360

        context.set_offline(True)
        page.locator(".pad .quick button", has_text="2 hits").click()
        expect(page.locator("body.pending")).to_have_count(1)  # kept in the outbox
        assert not ScoreEvent.objects.filter(night=night, kind="roll").exists()

        context.set_offline(False)
        page.evaluate("window.dispatchEvent(new Event('online'))")
        expect(page.locator("#table-2 .score").first).to_have_text("2")
        expect(page.locator("body.pending")).to_have_count(0)
        page.reload()  # nothing is sent twice, even after a reload
        expect(page.locator("#table-2 .score").first).to_have_text("2")
        assert ScoreEvent.objects.filter(night=night, kind="roll").count() == 1
        night.refresh_from_db()  # the server wrote it: read the log as it is now
        assert live_state(night).room.tables[1].team_scores == [2, 0]

    def test_a_table_of_players_on_their_own_is_scored_on_a_phone(self):
        night = self.night("winning-moves", 7)  # a team table of 4, a table of 3 individuals
        link = TableLink.objects.get(night=night, number=2)
        page = self.browser.new_context(viewport=PHONE).new_page()
        page.goto(f"{self.live_server_url}/t/{link.token}/")
        expect(page.locator("#table-2 .tally li")).to_have_count(3)  # one line per player
        roller = page.locator(".turn strong").inner_text()
        # Round 1: nothing is below 1, so there is no low bunco to tap.
        expect(page.locator(".pad .quick button", has_text="Low bunco")).to_be_hidden()
        page.locator(".pad .quick button", has_text="High bunco").click()
        tally = page.locator("#table-2 .tally li", has_text=roller)
        expect(tally.locator(".score")).to_have_text("5")
        page.wait_for_timeout(650)  # a person's next roll, not a double tap
        # Tap the three dice faces: 1, 1, 4 scores two more for the same player.
        for face in ("1", "1", "4"):
            page.locator(f"[data-face='{face}']").click()
        expect(tally.locator(".score")).to_have_text("7")
        expect(page.locator(".rolls li").first).to_contain_text(re.compile(r"\+2"))

    def test_the_tv_fits_a_16_9_screen(self):
        night = self.night("babz", 12)
        page = self.browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        page.goto(f"{self.live_server_url}/tv/{night.tv_token}/")
        expect(page.locator("#table-3")).to_be_visible()
        page.screenshot(path="test-artifacts/tv-16-9.png")
        assert page.evaluate("document.documentElement.scrollHeight") <= 1080
