"""A TV whose socket dies without closing (the Wi-Fi blipped; the connection is half-open and
nothing comes through it any more) notices within a minute and connects again, then shows
what it missed. A live page hears from the server at least every 25 s (``bunco.live.watch``)."""

import re
import time

from playwright.sync_api import expect

from tests.playing import roll, started_night

from .base import BrowserTestCase, in_thread, pump_until

TV = {"width": 1920, "height": 1080}
#: The TV here takes its socket for dead after 3 s of silence (a party's: 60 s): the page's
#: data-silent-after, changed as the parser inserts it, before the page's scripts read it.
SILENT_AFTER = 3
SHORTER_SILENCE = f"""
new MutationObserver(function (changes, observer) {{
  var live = document.querySelector("[data-silent-after]");
  if (live) {{ live.dataset.silentAfter = "{SILENT_AFTER}"; observer.disconnect(); }}
}}).observe(document, {{childList: true, subtree: true}});
"""


class SilentSocket(BrowserTestCase):

    def test_a_tv_whose_socket_went_silent_connects_again_and_shows_what_it_missed(self):
        night = in_thread(lambda: started_night("Blip", 12, seed=3))
        context = self.browser.new_context(viewport=TV)
        context.add_init_script(SHORTER_SILENCE)
        page = context.new_page()

        sockets, muted = [], {"since": None}

        def through(ws):  # every socket of the page goes through here, to the real server
            server = ws.connect_to_server()
            first = not sockets
            sockets.append(time.monotonic())
            ws.on_message(lambda message: server.send(message))
            server.on_message(
                lambda message: None if first and muted["since"] else ws.send(message))

        page.route_web_socket(re.compile(r".*/ws/tv/.*"), through)
        page.goto(f"{self.live_server_url}/tv/{night.tv_token}/")
        page.wait_for_function("window.bunco && window.bunco.open")
        assert page.get_attribute("[data-silent-after]", "data-silent-after") == str(SILENT_AFTER)
        score = page.locator("#table-1 [data-testid=score]").first
        before = score.text_content()

        muted["since"] = time.monotonic()  # from now on nothing reaches the page
        in_thread(lambda: roll(night, 1, quick="hit1"))  # written and pushed: muted on its way
        assert len(sockets) == 1 and score.text_content() == before  # it cannot know yet

        pump_until(page, lambda: len(sockets) >= 2, "the page replacing its silent socket",
                   patience=SILENT_AFTER + 15)
        assert len(sockets) == 2, "the page kept its silent socket"
        assert sockets[1] - muted["since"] >= SILENT_AFTER  # not before it had been silent
        expect(score).not_to_have_text(before, timeout=5000)  # the new socket's snapshot
        page.wait_for_function("window.bunco.open && !document.body.classList.contains('offline')")
