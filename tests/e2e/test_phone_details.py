"""A phone that loses the laptop, as a guest sees it: the "Reconnecting…" notice covers none of
the banner's words, a tap that cannot be sent says it waits (not "Sending"),
and the console stays free of errors the page itself makes."""

from playwright.sync_api import expect

from bunco.models import TableLink
from bunco.night import services
from tests.webkit.base import Wire

from .base import LAN_ADDRESS, BrowserTestCase, in_thread


class PhoneDetails(BrowserTestCase):
    def test_a_phone_cut_off_from_the_laptop_says_so_plainly(self):
        def playing():
            night = services.demo_night_create()
            services.round_start(night=night)
            return night

        night = in_thread(playing)
        token = TableLink.objects.get(night=night, number=1).token
        wifi = Wire(self._port)
        self.addCleanup(wifi.cut)
        page = self.browser.new_context(viewport={"width": 360, "height": 740}).new_page()
        errors = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(f"http://{LAN_ADDRESS}:{wifi.port}/t/{token}/")
        page.wait_for_function("window.bunco && window.bunco.open")

        wifi.cut()
        notice = page.locator(".conn")
        expect(notice).to_be_visible()
        page.wait_for_function(  # a few failed reconnects
            "document.querySelector('[ws-connect]')['htmx-internal-data']"
            ".webSocket.retryCount >= 3")
        words = page.locator("#banner .headline").bounding_box()["y"]
        assert words >= notice.bounding_box()["y"] + notice.bounding_box()["height"]

        page.locator(".pad .quick button", has_text="Miss").first.click()
        note = page.locator(".pending-note")
        expect(note).to_contain_text("1 tap waiting. Not connected")
        expect(note).not_to_contain_text("Sending your tap")
        assert not [e for e in errors if "[object Event]" in e], errors
        assert not [e for e in errors if "Cross-Origin-Opener-Policy" in e], errors

    def test_a_guest_who_keeps_score_has_the_roll_buttons_in_view_on_a_small_phone(self):
        """Their seat shrinks to a line or two and their totals go to the scorecard, so every
        roll button (Miss to BUNCO!) sits under the table without scrolling, mid-round."""
        from bunco.night.cache import live_state
        from tests.playing import roll

        def playing():
            night = services.demo_night_create()
            services.round_start(night=night)
            for quick in ("hit1", "hit1", "miss", "hit2", "miss", "hit1", "miss"):
                roll(night, 1, quick=quick)
            name = live_state(night).tables[0].seats[0].name
            return night.players.get(name=name).token

        token = in_thread(playing)
        page = self.browser.new_context(viewport={"width": 360, "height": 740},
                                        has_touch=True, is_mobile=True).new_page()
        page.goto(f"{self.live_server_url}/p/{token}/")
        page.locator("[data-scorer-toggle]").check()
        expect(page.locator(".pad .quick button.q-bunco")).to_be_visible()
        buttons = page.locator(".pad .quick button:visible")
        labels = buttons.all_inner_texts()
        assert len(labels) >= 4 and "Miss" in labels, labels
        for i, label in enumerate(labels):
            box = buttons.nth(i).bounding_box()
            assert box["y"] + box["height"] <= 740, f"{label} is below the fold: {box}"
