"""A night from the guests' phones in WebKit, as on an iPhone: a guest joins by the QR code on
the host's page and taps their name; a table phone enters rolls; the host's bell ends the
round and the guest's phone shows the result and where to sit next; the night's end reaches
the phones. Taps made while the server is out of reach wait visibly and count once when it is
back. The host's page is Chromium's."""

import contextlib
import random
import re

from playwright.sync_api import expect
from selenium.common.exceptions import WebDriverException

from bunco.live import screens
from bunco.models import ScoreEvent, TableLink
from bunco.night import services
from bunco.night.cache import live_state
from scoring import PRESETS, sample_names
from tests.e2e.base import HOST_SECRET, LAN_ADDRESS, in_thread
from tests.e2e.qr import read_qr
from tests.playing import play_round, roll

from .base import SYNC, WebKitTestCase, Wire, connected, shows, text, wait


class PhonesInWebKit(WebKitTestCase):

    def night(self, start):
        def setup():
            night = services.night_create(name="Safari night", rules_id="babz",
                                          rules=PRESETS["babz"].replace(sets=1),
                                          player_names=sample_names(8))
            services.night_seat(night=night, rng=random.Random(3))
            if start:
                services.round_start(night=night)
            return night
        return in_thread(setup)

    def rolls(self, night):
        return list(ScoreEvent.objects.filter(night=night, kind="roll").order_by("seq"))

    def test_a_guest_joins_by_the_qr_code_and_the_phone_follows_the_bell_and_the_night(self):
        night = self.night(start=False)
        state = live_state(night)
        me = state.tables[1].seats[0].name
        partner = state.tables[1].seats[2].name
        host = self.browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        host.goto(f"{self.live_server_url}/host/{HOST_SECRET}/")
        host.goto(f"{self.live_server_url}/host/nights/{night.pk}/")
        join_url = read_qr(host.get_by_test_id("join-card").locator("img"))
        assert join_url.startswith(f"http://{LAN_ADDRESS}:{self._port}/j/")

        # The guest scans the code and taps their name: the phone is theirs, and says where.
        guest = self.phone(join_url)
        shows(guest, "h1", "Safari night")
        wait(guest, lambda d: next((b for b in d.find_elements("css selector", ".names button")
                                    if b.text.strip() == me), False), f"{me}'s name").click()
        shows(guest, "[data-testid=where]", "You are at table 2, seat 1.")
        shows(guest, "[data-testid=where]", f"Partner: {partner}")
        connected(guest)
        link = TableLink.objects.get(night=night, number=2)
        table = self.phone(f"http://{LAN_ADDRESS}:{self._port}/t/{link.token}/")
        connected(table)

        host.get_by_role("button", name=re.compile("start round 1")).click()
        for phone in (guest, table):
            shows(phone, "#banner .headline", "Round 1")
        for face in (1, 3, 1):  # the three dice, on the pad's faces: two hits
            table.find_element("css selector", f"[data-dicepad] [data-face='{face}']").click()
        shows(table, "#table-2 .score", ["2", "0"])
        shows(table, "#table-2 .rolls", f"{me}: +2")
        shows(guest, "#table-2 .score", ["2", "0"])  # the guest's phone shows their table
        in_thread(lambda: roll(night, 1, quick="hit1"))  # table 1 is not tied either

        # The host's bell: no table is tied, so the round ends at once, on every phone.
        host.get_by_role("button", name=re.compile("Ring the bell now")).click()
        shows(table, "#banner", "Round 1 over")
        for phone in (guest, table):  # each phone rang (its sound and vibration) for the bell
            wait(phone, "return document.body.dataset.rang === '1-1'", "bell rung on the phone")
        shows(table, "[data-testid=final]", "Round 1 final tally")
        shows(guest, "[data-testid=round-result]", f"You and {partner} won table 2, 2–0")
        night.refresh_from_db()  # the bell was rung in the live server
        state = live_state(night)
        at, seat = state.seat_of(me)
        shows(guest, "[data-testid=where]", "Next round:")
        shows(guest, "[data-testid=where]", f"table {at}, seat {seat + 1}.")
        shows(guest, "[data-testid=where]",
              f"Partner: {state.tables[at - 1].seats[(seat + 2) % 4].name}")

        # The rest of the night's rounds, then the host ends it: the phones say so.
        def rest():
            while live_state(night).phase != "over":
                play_round(night)
        in_thread(rest)
        host.reload()
        host.on("dialog", lambda dialog: dialog.accept())
        host.get_by_role("button", name="End the night").click()
        expect(host.locator("#banner")).to_contain_text("That's the night!")
        for phone in (guest, table):
            shows(phone, "#banner", "That's the night!")
        # The guest's phone turns into their night, with no reload: their place, their
        # totals, the night's winners; the pad's toggle and the host's call leave it.
        state = live_state(night)
        mine = next(s for s in screens.standings(state) if s["name"] == me)
        shows(guest, "[data-testid=my-place]", f"of {len(state.night.stats)} in the standings",
              timeout=SYNC)
        assert text(guest, "[data-testid=my-place]")[0].startswith(str(mine["place"]))
        shows(guest, "[data-testid=my-totals]", f"{mine['wins']} win")
        shows(guest, "[data-testid=night-winners]", "Most buncos")
        shows(guest, "[data-testid=my-summary]", "You won")
        assert not text(guest, "[data-testid=where]")  # nobody is told to move
        assert "Next round" not in text(guest, "body")[0]
        hidden = ("return [document.querySelector('.scorer-toggle'),"
                  " document.querySelector('#call-host')].every(e => !e.offsetParent)")
        wait(guest, hidden, "the scorer toggle and Call the host gone after the night")
        wait(guest, "return !!document.querySelector('[data-testid=keep-my-night]').offsetParent",
             "the link to keep the night")

    def test_taps_made_while_the_server_is_out_of_reach_wait_and_count_once_when_it_is_back(self):
        night = self.night(start=True)
        seats = [s.name for s in live_state(night).room.tables[1].spec.seats]
        wifi = Wire(self._port)
        self.addCleanup(wifi.cut)
        link = TableLink.objects.get(night=night, number=2)
        table = self.phone(f"http://{LAN_ADDRESS}:{wifi.port}/t/{link.token}/")
        connected(table)
        shows(table, "#table-2 .turn", f"{seats[0]}'s turn")
        self.tap(table, "Miss")
        shows(table, "#table-2 .turn", f"{seats[1]}'s turn")
        assert len(self.rolls(night)) == 1

        wifi.cut()
        wait(table, "return document.body.classList.contains('offline')", "offline page")
        shows(table, ".conn", "Reconnecting")
        self.tap(table, "2 hits")
        self.tap(table, "1 hit")
        waiting = "[data-testid=waiting]"
        shows(table, waiting, [f"{seats[1]}: 1 hit, waiting to send",
                               f"{seats[1]}: 2 hits, waiting to send"])
        shows(table, "#table-2 .turn", f"{seats[1]}'s turn")
        shows(table, "#table-2 .turn", "after 2 taps waiting to send")
        assert len(self.rolls(night)) == 1

        wifi.restore()
        shows(table, waiting, [])
        shows(table, "#table-2 .score", ["0", "3"])
        wait(table, "return !document.body.classList.contains('offline')", "page back online")
        taps = self.rolls(night)
        assert [(t.player, t.position) for t in taps] == [(seats[0], 0), (seats[1], 1),
                                                           (seats[1], 2)]

        # Cut again, and the page is reloaded while the server is out of reach (as a phone
        # does with a tab it put away): the tap waits on the phone and counts once it is back.
        wifi.cut()
        wait(table, "return document.body.classList.contains('offline')", "offline page")
        self.tap(table, "Miss")
        shows(table, waiting, [f"{seats[1]}: miss, waiting to send"])
        url = table.current_url
        with contextlib.suppress(WebDriverException):
            table.refresh()  # no server: the browser's own error page
        assert "Miss" not in text(table, "body")[0]
        wifi.restore()
        table.get(url)
        shows(table, "#table-2 .turn", f"{seats[2]}'s turn")
        shows(table, waiting, [])
        assert [(t.player, t.position) for t in self.rolls(night)][3:] == [(seats[1], 3)]
        table.refresh()
        shows(table, "#table-2 .score", ["0", "3"])
        shows(table, "#table-2 .turn", f"{seats[2]}'s turn")
        assert len(self.rolls(night)) == 4
