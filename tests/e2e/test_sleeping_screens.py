"""Screens that sleep: a phone on a plain http:// address stays awake after its first tap, a
phone that slept through the play shows where the night is within a second of waking, and the
bell sounds and buzzes on the phones and the TV."""

import re
import time

from playwright.sync_api import expect

from bunco.models import TableLink
from bunco.night.cache import live_state
from tests.playing import started_night

from .base import FOUR_TRIES_FAILED, HOST_SECRET, LATER_TRIES_HELD, BrowserTestCase, in_thread
from .conftest import launch

PHONE = {"width": 360, "height": 740}

# As on http://192.168.x.y at a party: no Wake Lock API (the test's 127.0.0.1 counts as secure).
NO_WAKE_LOCK = "delete Navigator.prototype.wakeLock;"
# Whether the page is shown is the test's to say: window.asleep, as a phone's screen going off.
SLEEP = """
window.asleep = false;
Object.defineProperty(Document.prototype, 'visibilityState',
  {configurable: true, get: function () { return window.asleep ? 'hidden' : 'visible'; }});
Object.defineProperty(Document.prototype, 'hidden',
  {configurable: true, get: function () { return window.asleep; }});
"""
# Every buzz and every tone the page makes, and the state of its audio when it made it.
SPY = """
window.buzzes = [];
navigator.vibrate = function (pattern) { window.buzzes.push(pattern); return true; };
window.tones = [];
var start = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function () {
  window.tones.push({hz: this.frequency.value, audio: this.context.state});
  return start.apply(this, arguments);
};
"""


def screen(page, on):
    """The phone's screen goes off (the page is hidden) or comes on again."""
    page.evaluate("on => { window.asleep = !on; "
                  "document.dispatchEvent(new Event('visibilitychange')); }", on)


class SleepingScreens(BrowserTestCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        # As a phone's browser: sound and video start only after a gesture (a tap).
        cls.browser.close()
        cls.browser = launch(cls._pw, "--autoplay-policy=user-gesture-required")

    def night(self):
        return in_thread(lambda: started_night("Sleepy", 12, seed=5))

    def open(self, path, *scripts, viewport=PHONE):
        context = self.browser.new_context(viewport=viewport, has_touch=True)
        for script in scripts:
            context.add_init_script(script)
        page = context.new_page()
        page.goto(self.live_server_url + path)
        expect(page.locator("#banner .headline")).to_contain_text("Round")
        page.wait_for_function("window.bunco && window.bunco.open")
        return context, page

    def host_page(self, night):
        host = self.browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        host.goto(f"{self.live_server_url}/host/{HOST_SECRET}/")
        host.goto(f"{self.live_server_url}/host/nights/{night.pk}/")
        return host

    def score_on_another_phone(self, night, number, label):
        """Another phone at the table enters a roll: the app pushes it to every screen."""
        _, other = self.open(f"/t/{TableLink.objects.get(night=night, number=number).token}/")
        other.locator(".pad .quick button", has_text=label).click()
        other.wait_for_function("!document.body.classList.contains('pending')")

    def test_the_first_tap_keeps_a_phone_on_plain_http_awake(self):
        night = self.night()
        link = TableLink.objects.get(night=night, number=1)
        _, phone = self.open(f"/t/{link.token}/", NO_WAKE_LOCK)
        assert phone.evaluate("'wakeLock' in navigator") is False
        phone.locator("#banner").tap()  # the first tap, anywhere
        phone.wait_for_function(
            "bunco.awakeVideo && !bunco.awakeVideo.paused && bunco.awakeVideo.currentTime > 0")
        video = phone.evaluate("""() => { const v = bunco.awakeVideo; return {
            muted: v.muted, loop: v.loop, inline: v.playsInline && v.hasAttribute('playsinline'),
            source: v.currentSrc}; }""")
        assert video["muted"] and video["loop"] and video["inline"], video
        assert "/static/vendor/nosleep" in video["source"]  # served by the app, no CDN

        # Hidden, the video stops with the page; shown again, it plays again.
        phone.evaluate("bunco.awakeVideo.pause()")
        phone.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
        phone.wait_for_function("!bunco.awakeVideo.paused")

    def relayed_phone(self, path):
        """A phone whose sockets to the app go through links the test can cut: ``cut()`` makes
        every socket open now go silent for good (it still looks open to the page, as a
        phone's does after its radio slept); ``refusing`` turns new connections away."""
        context = self.browser.new_context(viewport=PHONE)
        context.add_init_script(SLEEP)
        sockets, dead, refusing = [], set(), set()

        def relay(ws):
            if refusing:
                ws.close(code=1011, reason="the app is unreachable")
                return
            server, me = ws.connect_to_server(), len(sockets)
            sockets.append(ws)
            ws.on_message(lambda m: me in dead or server.send(m))
            server.on_message(lambda m: me in dead or ws.send(m))

        page = context.new_page()
        page.route_web_socket("**/ws/**", relay)
        page.goto(self.live_server_url + path)
        page.wait_for_function("window.bunco && window.bunco.open")
        page.cut = lambda: dead.update(range(len(sockets)))
        page.refusing = refusing
        page.sockets = sockets
        return context, page

    def test_a_phone_that_slept_through_a_roll_shows_it_within_a_second_of_waking(self):
        """Asleep, the Wi-Fi went and the socket with it, though it still looks open: waking,
        the phone notices and connects again, and shows the roll within a second."""
        night = self.night()
        link = TableLink.objects.get(night=night, number=2)
        context, phone = self.relayed_phone(f"/t/{link.token}/")
        score = phone.locator("#table-2 .score").first
        expect(score).to_have_text("0")

        screen(phone, on=False)
        context.set_offline(True)
        phone.cut()
        self.score_on_another_phone(night, 2, "2 hits")
        # Asleep: nothing reached it (the cut relay passes nothing on: no pause shows more).
        expect(score).to_have_text("0")
        assert phone.evaluate("bunco.open")  # and its socket looks connected

        # The page's clock held: its silence timer never finds the socket silent, so only
        # waking can replace it. How soon it shows the roll is printed, not bounded.
        phone.evaluate("() => { const held = bunco.now(); bunco.now = () => held; }")
        context.set_offline(False)
        woke = time.monotonic()
        screen(phone, on=True)
        expect(score).to_have_text("2")
        print(f"\nwoken phone: the roll it slept through shown {time.monotonic() - woke:.2f} s "
              "after waking")
        assert len(phone.sockets) == 2  # one new connection, not one per wake-up event
        expect(phone.locator("body.offline")).to_have_count(0)

    def test_a_phone_whose_reconnects_failed_while_asleep_connects_at_once_on_waking(self):
        """The socket closed while the phone slept and every try to connect again failed, each
        waiting longer (up to 3 s): waking, it does not wait for the next try."""
        night = self.night()
        link = TableLink.objects.get(night=night, number=2)
        _, phone = self.relayed_phone(f"/t/{link.token}/")
        score = phone.locator("#table-2 .score").first
        phone.evaluate(LATER_TRIES_HELD)
        screen(phone, on=False)
        phone.refusing.add(True)
        phone.sockets[0].close(code=1011)
        expect(phone.locator("body.offline")).to_have_count(1)
        self.score_on_another_phone(night, 2, "1 hit")
        # Four tries failed (0.3 s, 0.6 s, 1.2 s, 2.4 s apart): the next is held an hour away,
        # so only waking connects it. How soon it shows the roll is printed, not bounded.
        phone.wait_for_function(FOUR_TRIES_FAILED)

        phone.refusing.clear()
        woke = time.monotonic()
        screen(phone, on=True)
        expect(score).to_have_text("1")
        print(f"\nwoken phone: connected and showing the roll {time.monotonic() - woke:.2f} s "
              "after waking")
        expect(phone.locator("body.offline")).to_have_count(0)

    def test_a_guests_phone_and_the_tv_stay_awake_and_ring_and_buzz_with_the_bell(self):
        night = self.night()
        name = live_state(night).room.tables[0].spec.seats[0].name
        player = night.players.get(name=name)
        _, phone = self.open(f"/p/{player.token}/", NO_WAKE_LOCK, SPY)
        _, tv = self.open(f"/tv/{night.tv_token}/", NO_WAKE_LOCK, SPY,
                          viewport={"width": 1280, "height": 720})
        phone.locator("#banner").tap()  # the guest's first tap allows the sound
        tv.locator("#banner").click()  # someone clicks the TV once when setting it up
        for page in (phone, tv):
            page.wait_for_function("bunco.awakeVideo && !bunco.awakeVideo.paused")
            assert page.evaluate("window.tones") == [] and page.evaluate("window.buzzes") == []

        self.host_page(night).get_by_role("button", name=re.compile("Ring the bell now")).click()
        for page in (phone, tv):
            expect(page.locator("body")).to_have_attribute("data-rang", "1-1")
            page.wait_for_function("window.tones.length >= 2")
            assert all(t["audio"] == "running" for t in page.evaluate("window.tones"))
        assert phone.evaluate("window.buzzes") == [[200, 100, 200]]
