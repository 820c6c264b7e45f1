"""A guest whose camera will not scan the QR code types the night's short code on the home
page of a phone, picks their name, and from then on their own phone says "Your turn" when it
is their roll (the table's screen, shared by the table, names the roller); once the night has
ended, find your seat says so."""

import os
import random
from pathlib import Path

from playwright.sync_api import expect

from bunco.night import services
from bunco.night.cache import live_state

from .base import LAN_ADDRESS, BrowserTestCase, in_thread, tap_like_a_person
from .test_accessibility import axe_violations, report

ARTIFACTS = Path(os.environ.get("BUNCO_TEST_ARTIFACTS", "test-artifacts"))
PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}


def two_open_nights():
    """A demo the host tried earlier, still open, and tonight's night, its first round
    started: two nights open, so the home page asks which one by its code."""
    services.night_create(name="Demo", rules_id="babz")
    night = services.night_create(name="Party", rules_id="babz",
                                  player_names=["Ann", "Bo", "Cy", "Di"])
    services.night_seat(night=night, rng=random.Random(3))
    services.round_start(night=night)
    return night


class JoinCodeOnAPhone(BrowserTestCase):

    def nights(self):
        return in_thread(two_open_nights)

    def guest(self, address, code, name):
        """A phone opens the address, types the code as read off the TV (with a space),
        lands on find your seat and taps its name."""
        page = self.browser.new_context(**PHONE).new_page()
        page.add_init_script(
            "document.addEventListener('htmx:wsOpen', function () { window.wsOpen = true; })")
        page.goto(address)
        page.get_by_label("Tonight's code").fill(f"{code[:2]} {code[2:]}")
        page.get_by_role("button", name="Find my seat").tap()
        expect(page.locator("h1")).to_have_text("Party")
        expect(page.get_by_text("Tap your name")).to_be_visible()
        join_url = page.url
        page.get_by_role("button", name=name).tap()
        expect(page.get_by_test_id("where")).to_contain_text("You are at table 1")
        page.wait_for_function("window.wsOpen === true")
        return page, join_url

    def test_a_guest_types_the_code_and_their_own_phone_says_your_turn(self):
        night = self.nights()
        playing = live_state(night).room.tables[0]
        first, second = (playing.spec.seats[c].name for c in playing.turn_order()[:2])

        # A wrong code first: said plainly, the home page as it was, nothing else changes.
        phone = self.browser.new_context(**PHONE).new_page()
        phone.goto(self.live_server_url + "/")
        phone.get_by_label("Tonight's code").fill("00")
        phone.get_by_role("button", name="Find my seat").tap()
        expect(phone.get_by_role("alert")).to_contain_text("No night has the code 00")
        expect(phone.get_by_label("Tonight's code")).to_have_value("00")
        assert phone.evaluate("document.documentElement.scrollWidth") <= 360
        violations = axe_violations(phone)
        assert not violations, report("the home page's code", violations)
        ARTIFACTS.mkdir(exist_ok=True)
        phone.screenshot(path=str(ARTIFACTS / "home-join-code.png"), full_page=True)

        # The code as the guests read it off the TV, beside its QR code.
        tv = self.browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        tv.goto(f"{self.live_server_url}/tv/{night.tv_token}/")
        shown = tv.get_by_test_id("tv-join-qr")
        expect(shown).to_contain_text("No camera? Open")
        address = shown.locator(".tv-join-code bdi").inner_text()
        assert address == f"http://{LAN_ADDRESS}:{self._port}/"
        code = shown.get_by_test_id("tv-join-code").inner_text()
        assert code == night.join_code
        tv.screenshot(path=str(ARTIFACTS / "tv-join-code.png"))

        rolling, join_url = self.guest(address, code, first)
        waiting, _ = self.guest(address, code, second)
        turn = "#table-1 .turn"
        expect(rolling.locator(turn)).to_have_text("Your turn")
        expect(waiting.locator(turn)).to_have_text(f"{first}'s turn")

        # The roller keeps score on their own phone and misses: the turn passes on, and each
        # phone says it in its own words.
        rolling.get_by_label("I keep score at my table").check()
        tap_like_a_person(rolling, rolling.locator(".pad .quick button", has_text="Miss"))
        expect(rolling.locator(turn)).to_have_text(f"{second}'s turn")
        expect(waiting.locator(turn)).to_have_text("Your turn")

        # A table's own screen, shared by the table, keeps the name.
        table = self.browser.new_context(**PHONE).new_page()
        table.goto(f"{self.live_server_url}/t/{night.table_links.get(number=1).token}/")
        expect(table.locator(turn)).to_have_text(f"{second}'s turn")

        # The night ends: find your seat says so, and leads this phone to its results.
        in_thread(lambda: services.night_end(night=night))
        waiting.goto(join_url)
        expect(waiting.get_by_test_id("night-ended")).to_contain_text("This night has ended")
        expect(waiting.get_by_text("Tap your name")).to_have_count(0)
        violations = axe_violations(waiting)
        assert not violations, report("find your seat after the night", violations)
        waiting.get_by_role("link", name=f"Results for {second}").tap()
        expect(waiting.get_by_test_id("where")).to_have_count(0)
        expect(waiting.locator("#banner")).to_contain_text("Thanks for playing")
