"""The clock in real browsers: every screen counts down the play time, the horn sounds on
every screen when it runs out (asked for by the screens themselves, no one touches a button),
the tables enter what is left, and the next round starts by itself after the move time."""

import random
import re
import time
from pathlib import Path

from playwright.sync_api import expect

from bunco.models import TableLink
from bunco.night import services
from scoring import PRESETS, sample_names

from .base import BrowserTestCase, in_thread

PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
TV = {"viewport": {"width": 1920, "height": 1080}}
ARTIFACTS = Path("test-artifacts")
PLAY, MOVE = 6, 6  # seconds: a real night uses minutes (180 and 120, say)


class TheClock(BrowserTestCase):

    def open(self, path, device):
        page = self.browser.new_context(**device).new_page()
        page.add_init_script(
            "document.addEventListener('htmx:wsOpen', function () { window.wsOpen = true; })")
        page.goto(self.live_server_url + path)
        page.wait_for_function("window.wsOpen === true")
        return page

    def test_the_horn_ends_play_everywhere_and_the_next_round_starts_by_itself(self):
        rules = PRESETS["clockwise"].replace(round_end="timer", after_bell="stop",
                                             play_seconds=PLAY, move_seconds=MOVE)

        def setup():
            night = services.night_create(name="Gala", rules_id="clockwise", rules=rules,
                                          player_names=sample_names(8))
            services.night_seat(night=night, rng=random.Random(3))
            services.round_start(night=night)
            return night
        night = in_thread(setup)
        started = time.monotonic()
        links = {link.number: link.token for link in TableLink.objects.filter(night=night)}
        tv = self.open(f"/tv/{night.tv_token}/", TV)
        tables = [self.open(f"/t/{links[n]}/", PHONE) for n in (1, 2)]
        screens = [tv, *tables]
        for page in screens:
            expect(page.get_by_test_id("clock")).to_contain_text("Time left")
            expect(page.get_by_test_id("clock").locator(".countdown")).to_have_text(
                re.compile(r"0:0\d"))
        ARTIFACTS.mkdir(exist_ok=True)
        tv.screenshot(path=str(ARTIFACTS / "tv-clock.png"))

        # Nobody rings anything: at zero the screens ask, the horn sounds on every screen.
        for page in screens:
            expect(page.locator("#banner.bell")).to_be_visible(timeout=(PLAY + 8) * 1000)
            expect(page.locator("#banner")).to_contain_text("Time's up!")
        assert time.monotonic() - started >= PLAY - 1  # not before the play time ran out
        tables[0].screenshot(path=str(ARTIFACTS / "phone-horn.png"))

        # Tied tables play their tie-break; then the move time counts down.
        for page in tables:
            page.locator(".pad [data-quick-kind=hit1]").tap()
            expect(page.locator(".pad [data-quick-kind=hit1]")).to_be_hidden()
        for page in tables:
            expect(page.get_by_test_id("final")).to_contain_text("Round 1 final tally")
        # On the TV, read across the room: each table's tally line, winners and next seats are
        # drawn at least 18 px high, not in a phone's small print.
        for test_id in ("final", "next-teams"):
            line = tv.get_by_test_id(test_id).first
            expect(line).to_be_visible()
            assert line.evaluate("e => parseFloat(getComputedStyle(e).fontSize)") >= 18, test_id
        for page in screens:
            expect(page.get_by_test_id("clock")).to_contain_text("Next round in")
            expect(page.locator("#banner .detail")).to_have_text(
                "Next: round 2 starts by itself when the clock runs out.")
        for page in screens:
            expect(page.locator("#banner .headline")).to_have_text(
                "Round 2", timeout=(MOVE + 8) * 1000)
            expect(page.get_by_test_id("clock")).to_contain_text("Time left")
