"""Every part a screen is sent has its place on that screen: a round played on a table's
phone, a player's phone, the TV and the host's page raises no htmx:oobErrorNoTarget (a part
sent to a screen that does not show it) and logs no error in the browser's console."""

import random
import re

from playwright.sync_api import expect

from bunco.models import TableLink
from bunco.night import services
from scoring import sample_names
from tests.playing import started_night

from .base import HOST_SECRET, BrowserTestCase, caught_up, in_thread, tap_like_a_person

PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True}
WATCH = """
window.oobMisses = [];
document.addEventListener('htmx:oobErrorNoTarget', function (e) {
  var c = e.detail && e.detail.content;
  window.oobMisses.push(c ? (c.id || c.tagName) : '?');
});
"""


class EveryPartHasItsPlace(BrowserTestCase):

    def open(self, path, **device):
        page = self.browser.new_context(**device).new_page()
        page.add_init_script(WATCH)
        errors = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(self.live_server_url + path)
        return page, errors

    def test_a_round_on_every_screen_sends_no_part_without_its_place(self):
        def setup():
            night = services.night_create(name="Parts", rules_id="babz",
                                          player_names=sample_names(12))
            services.night_seat(night=night, rng=random.Random(5))
            return night
        night = in_thread(setup)
        links = {link.number: link.token for link in TableLink.objects.filter(night=night)}
        ava = night.players.get(name="Ava")
        host, host_errors = self.open(f"/host/{HOST_SECRET}/",
                                      viewport={"width": 1280, "height": 900})
        host.goto(f"{self.live_server_url}/host/nights/{night.pk}/")
        screens = {"host": (host, host_errors)}
        for n in (1, 2, 3):
            screens[f"table {n}"] = self.open(f"/t/{links[n]}/", **PHONE)
        screens["player"] = self.open(f"/p/{ava.token}/", **PHONE)
        screens["tv"] = self.open(f"/tv/{night.tv_token}/",
                                  viewport={"width": 1920, "height": 1080})
        for page, _ in screens.values():
            page.wait_for_function("document.querySelector('#banner')")
        host.get_by_role("button", name=re.compile("start set 1, round 1")).click()
        for page, _ in screens.values():
            expect(page.locator("#banner .headline")).to_have_text("Round 1")
        tables = [screens[f"table {n}"][0] for n in (1, 2, 3)]
        for page in tables:
            tap_like_a_person(page, page.locator(".pad .quick button", has_text="2 hits").first)
        tap_like_a_person(tables[0], tables[0].locator(".pad .quick button",
                                                       has_text="BUNCO!").first)
        for page, _ in screens.values():
            expect(page.locator("#banner")).to_have_attribute("data-phase", "between_rounds")
        host.get_by_role("button", name=re.compile("start set 1, round 2")).click()
        for page, _ in screens.values():
            expect(page.locator("#banner .headline")).to_have_text("Round 2")
        host.get_by_role("button", name="Pause").click()
        for page, _ in screens.values():
            expect(page.locator("#banner .headline")).to_have_text("Paused")
        host.get_by_role("button", name="Resume play").click()
        for page, _ in screens.values():
            expect(page.locator("#banner .headline")).to_have_text("Round 2")
        host.on("dialog", lambda dialog: dialog.accept())
        host.get_by_role("button", name="End the night").click()
        for page, _ in screens.values():
            expect(page.locator("#banner")).to_have_attribute("data-phase", "ended")
        host.get_by_role("button", name=re.compile("Reveal prize 1")).click()
        expect(screens["tv"][0].get_by_test_id("tv-prizes")).to_be_visible()
        for page, _ in screens.values():
            caught_up(page)  # every part the night sent it so far has found its place or not
        misses = {name: page.evaluate("window.oobMisses") for name, (page, _) in screens.items()}
        assert all(not m for m in misses.values()), misses
        errors = {name: e for name, (_, e) in screens.items() if e}
        assert not errors, errors

    def test_a_big_rooms_host_page_shows_a_page_of_tables_and_takes_no_others(self):
        night = in_thread(lambda: started_night("Big", 52, seed=5))
        token = TableLink.objects.get(night=night, number=13).token
        host, _ = self.open(f"/host/{HOST_SECRET}/", viewport={"width": 1280, "height": 900})
        host.goto(f"{self.live_server_url}/host/nights/{night.pk}/")  # tables 1-12
        expect(host.locator("#table-12")).to_be_attached()
        expect(host.locator("#table-13")).to_have_count(0)
        host.wait_for_function("window.htmx && document.querySelector('#banner')")
        table, _ = self.open(f"/t/{token}/", **PHONE)
        tap_like_a_person(table, table.locator(".pad .quick button", has_text="2 hits").first)
        caught_up(host)  # table 13's push has reached the host's page
        assert host.evaluate("window.oobMisses") == []
        expect(host.locator("#table-13")).to_have_count(0)
