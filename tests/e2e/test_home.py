"""A real Chromium against a real Daphne server: the home page and a live websocket."""

import os
from pathlib import Path

from .base import BrowserTestCase

ARTIFACTS = Path(os.environ.get("BUNCO_TEST_ARTIFACTS", "test-artifacts"))


class HomePageInTheBrowser(BrowserTestCase):

    def test_a_phone_sees_the_home_page_styled_and_readable(self):
        """On a 360 px phone, before the host starts a night, the page loads its own
        stylesheet (no internet needed) and tells the guest to wait, without sideways
        scrolling."""
        page = self.browser.new_page(viewport={"width": 360, "height": 740})
        page.goto(self.live_server_url + "/")
        assert page.locator("h1").inner_text() == "Bunco night"
        assert page.get_by_text("hasn't started tonight's game yet").is_visible()
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(29, 21, 51)"  # the app's own CSS was served
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "home-phone.png"), full_page=True)
        page.close()

    def test_the_browser_holds_a_real_websocket_to_the_server(self):
        page = self.browser.new_page()
        page.goto(self.live_server_url + "/")
        reply = page.evaluate(
            """() => new Promise((resolve, reject) => {
                const ws = new WebSocket(location.origin.replace('http', 'ws') + '/ws/ping/');
                ws.onopen = () => ws.send(JSON.stringify({type: 'ping'}));
                ws.onmessage = (e) => { resolve(JSON.parse(e.data)); ws.close(); };
                ws.onerror = () => reject('websocket failed');
                setTimeout(() => reject('timeout'), 5000);
            })"""
        )
        assert reply == {"type": "pong"}
        page.close()
