"""What a guest's own phone does in WebKit, as on an iPhone: the night's short code typed on
the home page instead of scanning, their own phone saying "Your turn", calling the host over
from the table and hearing back, and a phone on the party's plain http:// address kept awake
by its first tap. The host's page is Chromium's."""


from playwright.sync_api import expect
from selenium.webdriver.common.by import By

from bunco.night.cache import live_state
from tests.e2e.base import HOST_SECRET, LAN_ADDRESS, in_thread
from tests.e2e.test_join_code import two_open_nights

from .base import WebKitTestCase, connected, shows, wait


class GuestPhoneInWebKit(WebKitTestCase):

    def nights(self):
        return in_thread(two_open_nights)

    def test_a_guest_types_the_code_hears_your_turn_and_calls_the_host(self):
        night = self.nights()
        playing = live_state(night).room.tables[0]
        first = playing.spec.seats[playing.turn_order()[0]].name

        # The party's address as the TV shows it, and the code typed with a space.
        guest = self.phone(f"http://{LAN_ADDRESS}:{self._port}/")
        box = wait(guest, lambda d: d.find_element(By.ID, "join-code"), "the code box")
        box.send_keys(f"{night.join_code[:2]} {night.join_code[2:]}")
        guest.find_element(By.XPATH, "//button[normalize-space()='Find my seat']").click()
        shows(guest, "h1", "Party")
        wait(guest, lambda d: next((b for b in d.find_elements(By.CSS_SELECTOR, ".names button")
                                    if b.text.strip() == first), False), "the name").click()
        shows(guest, "[data-testid=where]", "You are at table 1")
        connected(guest)
        shows(guest, "#table-1 .turn", "Your turn")

        # The first tap keeps the phone awake: a wake lock where the browser gives one (this
        # test's address, 127.0.0.1, counts as secure), else the muted looping inline video.
        guest.find_element(By.CSS_SELECTOR, "[data-testid=call-host]").click()
        awake = ("var l = window.bunco.awakeLock, v = window.bunco.awakeVideo;"
                 "return (!!l && !l.released) || (!!v && !v.paused && v.muted && v.loop"
                 " && v.playsInline)")
        wait(guest, awake, "wake lock or playing keep-awake video")

        # That tap called the host: the host's page shows it until answered, and the
        # guest's phone hears back.
        shows(guest, "[data-testid=call-status]", "waiting for them")
        host = self.browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        host.goto(f"{self.live_server_url}/host/{HOST_SECRET}/")
        host.goto(f"{self.live_server_url}/host/nights/{night.pk}/")
        call = host.get_by_test_id("host-call")
        expect(call).to_contain_text("Table 1")
        call.get_by_role("button", name="On my way").click()
        shows(guest, "[data-testid=call-status]", "The host is on the way")
        expect(host.get_by_test_id("host-call")).to_have_count(0)

    def test_a_phone_woken_after_the_room_moved_on_shows_it_within_a_second(self):
        """A table's phone asleep while its connection died and the room moved on: on waking
        (the page shown again) it connects at once and shows the roll it slept through, within
        a second, instead of waiting out its reconnect's back-off."""
        import time

        from bunco.models import TableLink
        from tests.e2e.base import FOUR_TRIES_FAILED, LATER_TRIES_HELD
        from tests.playing import roll

        from .base import Wire

        night = self.nights()
        wifi = Wire(self._port)
        self.addCleanup(wifi.cut)
        link = TableLink.objects.get(night=night, number=1)
        table = self.phone(f"http://{LAN_ADDRESS}:{wifi.port}/t/{link.token}/")
        connected(table)
        shows(table, "#table-1 .score", ["0", "0"])
        table.execute_script(LATER_TRIES_HELD)
        wifi.cut()  # asleep: the Wi-Fi dropped, reconnects failing and backing off
        wait(table, "return document.body.classList.contains('offline')", "offline page")
        in_thread(lambda: roll(night, 1, quick="hit2"))  # the room moves on meanwhile
        # Four tries failed: htmx's next is held an hour away, so only waking connects it.
        wait(table, f"return {FOUR_TRIES_FAILED}", "four failed reconnects")
        wifi.restore()
        woke = time.monotonic()
        table.execute_script("document.dispatchEvent(new Event('visibilitychange'));"
                             "window.dispatchEvent(new Event('pageshow'));")
        shows(table, "#table-1 .score", ["2", "0"])
        print(f"\nwoken phone: showed the roll {time.monotonic() - woke:.2f} s after waking")
