"""The door of a charity night in a real Chromium at laptop size: the host pastes the
pre-registered guests as expected, prints their cards, and the desk checks guests in by a typed
name and by a card's QR code a scanner types (its link, then Enter); after the closing time the
desk refuses."""

import os
import re
from pathlib import Path

from playwright.sync_api import expect

from bunco.models import Player
from bunco.night import services

from .base import HOST_SECRET, LAN_ADDRESS, BrowserTestCase, in_thread
from .qr import read_qr

SHOTS = Path(os.environ.get("BUNCO_DESK_SHOTS", "/tmp/desk-shots"))
LAPTOP = {"width": 1440, "height": 900}
GUESTS = [f"{first} {last}" for last in ("Adams", "Baker", "Clark")
          for first in ("Ann", "Ben", "Cleo", "Dana", "Eli", "Faye", "Gus", "Hana")] + [
    f"{first} Davis" for first in ("Ivy", "Jon", "Kim", "Lou", "Max", "Ned")]  # thirty


class CheckInDesk(BrowserTestCase):

    def shot(self, page, name):
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)

    def drawn_table(self, name):
        return Player.objects.get(name=name).drawn_table

    def test_guests_check_in_by_name_and_by_their_cards_qr_code(self):
        night = in_thread(lambda: services.night_create(name="Spring Gala", rules_id="babz"))
        host = self.browser.new_context(viewport=LAPTOP).new_page()
        host.goto(f"{self.live_server_url}/host/{HOST_SECRET}/")
        host.goto(f"{self.live_server_url}/host/nights/{night.pk}/")

        # The guest list, pasted as expected: nobody is here yet.
        host.fill("textarea[name=players]", "\n".join(GUESTS))
        host.get_by_role("button", name="Add as expected: they check in at the desk").click()
        expect(host.get_by_text("30 guests expected")).to_be_visible()
        expect(host.get_by_test_id("here-count")).to_have_text("(0 of 30 here)")
        expect(host.get_by_test_id("not-here")).to_have_count(30)

        # The cards: one per guest, each a QR code of the guest's own page on the LAN address.
        host.get_by_role("link", name="Guest cards to print").click()
        cards = host.get_by_test_id("guest-card")
        expect(cards).to_have_count(30)
        expect(host.locator(".guest-card img")).to_have_count(30)
        card = cards.filter(has_text="Faye Baker")
        expect(card).to_contain_text("Show this at the desk")
        expect(card).to_contain_text("Spring Gala")
        faye_url = read_qr(card.locator("img"))
        faye = Player.objects.get(name="Faye Baker")
        assert faye_url == f"http://{LAN_ADDRESS}:{self._port}/p/{faye.token}/"
        self.shot(host, "cards")
        host.emulate_media(media="print")
        expect(host.locator("nav.crumbs")).to_be_hidden()
        self.shot(host, "cards-print")
        # Printed: ten cards to an A4 page, eight to a Letter page.
        for paper, per_page in (("A4", 10), ("Letter", 8)):
            pdf = host.pdf(format=paper)
            pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
            assert pages == -(-len(GUESTS) // per_page), (paper, pages)
        host.emulate_media(media="screen")
        # The guest's phone opens the same link: their own page.
        phone = self.browser.new_context(viewport={"width": 360, "height": 740}).new_page()
        phone.goto(faye_url)
        expect(phone.locator(".me-name")).to_have_text("Faye Baker")

        # The desk: a name typed, the guest's big button, their table in big letters.
        host.get_by_role("link", name="Check-in desk").click()
        box = host.get_by_label("Guest's name, or scan their card")
        expect(box).to_be_focused()
        box.fill("dana")
        box.press("Enter")
        expect(host.locator(".desk-name")).to_have_count(3)
        host.get_by_role("button", name="Check in Dana Clark").click()
        table = self.drawn_table("Dana Clark")
        expect(host.get_by_test_id("desk-seat")).to_have_text(f"Table {table}")
        expect(host.locator(".messages")).to_contain_text(
            f"Dana Clark is checked in: table {table}.")
        expect(host.get_by_test_id("desk-count")).to_have_text("1 of 30 here")
        expect(box).to_be_focused()
        self.shot(host, "desk-checked-in")

        # A scanner types the card's link and presses Enter: Faye is checked in at once.
        box.press_sequentially(faye_url, delay=5)
        box.press("Enter")
        table = self.drawn_table("Faye Baker")
        expect(host.get_by_test_id("desk-guest")).to_contain_text("Faye Baker")
        expect(host.get_by_test_id("desk-seat")).to_have_text(f"Table {table}")
        # Scanned again: harmless, and it says when and where.
        box.press_sequentially(faye_url, delay=5)
        box.press("Enter")
        expect(host.locator(".messages")).to_contain_text(
            re.compile(rf"Faye Baker is already checked in at \d\d:\d\d, table {table}\."))
        expect(host.get_by_test_id("desk-count")).to_have_text("2 of 30 here")

        # A search page for the screenshot: some guests here, some not.
        box.fill("baker")
        box.press("Enter")
        expect(host.locator(".desk-here")).to_have_count(1)
        self.shot(host, "desk-search")

        # Closing time: after it the desk refuses, naming the time and how to reopen.
        host.get_by_role("button", name="Close check-in now").click()
        expect(host.get_by_test_id("desk-closed")).to_contain_text("Check-in closed at")
        box.fill("Gus Adams")
        box.press("Enter")
        host.get_by_role("button", name="Check in Gus Adams").click()
        expect(host.locator(".messages")).to_contain_text(re.compile(
            r"Check-in closed at \d\d:\d\d: nobody more is checked in.*Reopen check-in"))
        assert Player.objects.get(name="Gus Adams").arrived_at is None
        expect(host.get_by_test_id("desk-count")).to_have_text("2 of 30 here")
        self.shot(host, "desk-closed")

        # The host's players list says who is here.
        host.get_by_role("link", name="Back to Spring Gala").click()
        expect(host.get_by_test_id("here-count")).to_have_text("(2 of 30 here)")
        expect(host.get_by_test_id("not-here")).to_have_count(28)
        self.shot(host, "host-players")
