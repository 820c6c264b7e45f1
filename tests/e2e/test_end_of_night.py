"""The end of a night in a real browser: the host ends it, reveals the prizes one by one, and
the TV shows exactly the winners and amounts the rules engine computes."""

import re
import threading
from pathlib import Path

from playwright.sync_api import expect

from bunco.live import screens
from bunco.live.screens import category_labels
from bunco.night.cache import live_state
from scoring import decide_awards, sample_names
from tests.playing import finale_night

from .base import HOST_SECRET as SECRET
from .base import BrowserTestCase, in_thread


class EndOfNight(BrowserTestCase):
    def test_the_tv_reveals_the_engines_awards(self):
        made = []
        worker = threading.Thread(target=lambda: made.append(finale_night()))
        worker.start()
        worker.join()
        night = made[0]
        state = live_state(night)
        expected = decide_awards(night.rules, state.night.stats,
                                 bunco_order=state.night.bunco_order, pot_cents=12_000)
        assert sum(c for a in expected for _, c in a.payouts) == 12_000

        host = self.browser.new_page(viewport={"width": 1280, "height": 900})
        host.goto(f"{self.live_server_url}/host/{SECRET}/")
        host.goto(f"{self.live_server_url}/host/nights/{night.pk}/")
        expect(host.locator("#banner")).to_contain_text("That was the last round!")
        host.on("dialog", lambda dialog: dialog.accept())
        host.get_by_role("button", name="End the night").click()
        tv = self.browser.new_page(viewport={"width": 1920, "height": 1080})
        tv.goto(f"{self.live_server_url}/tv/{night.tv_token}/")
        expect(tv.locator("[data-testid=tv-prizes] li.hidden")).to_have_count(len(expected))

        for shown, award in enumerate(expected, 1):
            host.get_by_role("button", name=re.compile(f"Reveal prize {shown} of")).click()
            line = tv.locator(f"[data-testid=tv-prizes] li[data-category='{award.category}']")
            expect(line).to_be_visible()
            for name, cents in award.payouts:
                expect(line).to_contain_text(f"{name} ${cents / 100:,.2f}")
            if not award.payouts and award.winners:  # a named prize: the doormat
                for name in award.winners:
                    expect(line).to_contain_text(name)
        expect(tv.locator("[data-testid=tv-prizes] li.hidden")).to_have_count(0)
        tv.screenshot(path="test-artifacts/tv-prizes.png")
        host.screenshot(path="test-artifacts/host-prizes.png", full_page=True)


class GuestsEndOfNight(BrowserTestCase):
    def test_each_guests_phone_turns_into_their_night_the_moment_it_ends(self):
        night = in_thread(finale_night)
        state = live_state(night)
        pot = screens.night_pot(state)
        awards = decide_awards(night.rules, state.night.stats,
                               bunco_order=state.night.bunco_order, pot_cents=pot)
        winner, cents = next((n, c) for a in awards for n, c in a.payouts if c)
        won = [a for a in awards if winner in dict(a.payouts)]
        loser = next(n for n in sample_names(12) if not any(n in dict(a.payouts) for a in awards))
        phones = {}
        for name in (winner, loser):
            player = night.players.get(name=name)
            phone = self.browser.new_context(viewport={"width": 390, "height": 844}).new_page()
            phone.goto(f"{self.live_server_url}/p/{player.token}/")
            expect(phone.locator("#banner")).to_contain_text("That was the last round!")
            expect(phone.get_by_text("I keep score at my table")).to_be_visible()
            # Keeping the night is for its end, not beside the pad while the night goes on.
            expect(phone.get_by_test_id("keep-my-night")).to_be_hidden()
            phones[name] = phone

        host = self.browser.new_page(viewport={"width": 1280, "height": 900})
        host.goto(f"{self.live_server_url}/host/{SECRET}/")
        host.goto(f"{self.live_server_url}/host/nights/{night.pk}/")
        host.on("dialog", lambda dialog: dialog.accept())
        host.get_by_role("button", name="End the night").click()

        places = {s["name"]: s["place"] for s in screens.standings(state)}
        for name, phone in phones.items():  # no reload: the push brings it
            card = phone.get_by_test_id("my-night")
            expect(card).to_be_visible()
            expect(phone.get_by_test_id("my-place")).to_contain_text("of 12 in the standings")
            assert phone.get_by_test_id("my-place").inner_text().startswith(str(places[name]))
            expect(phone.get_by_text("I keep score at my table")).to_be_hidden()
            expect(phone.get_by_test_id("call-host")).to_be_hidden()
            expect(phone.get_by_test_id("night-winners")).to_contain_text(winner)
            expect(phone.get_by_test_id("keep-my-night")).to_be_visible()
        prizes = phones[winner].get_by_test_id("my-prizes")
        for a in won:
            expect(prizes).to_contain_text(category_labels(night.rules)[str(a.category)])
        expect(prizes).to_contain_text(f"${cents / 100:,.2f}")
        expect(phones[loser].get_by_test_id("my-prizes")).to_have_count(0)
        expect(phones[loser].get_by_test_id("my-summary")).to_contain_text("Thanks for playing!")
        phones[winner].screenshot(path="test-artifacts/phone-my-night.png", full_page=True)

        # The guest keeps it: the link opens for anyone, and the saved file needs no server.
        phone = phones[loser]
        phone.get_by_test_id("keep-my-night").click()
        expect(phone.get_by_test_id("my-summary")).to_be_visible()
        with phone.expect_download() as download:
            phone.get_by_test_id("save-night").click()
        name = download.value.suggested_filename
        assert name.startswith("bunco-Finale-") and name.endswith(".html")
        saved = Path("test-artifacts").resolve() / name
        download.value.save_as(saved)
        offline = self.browser.new_context(offline=True).new_page()
        offline.goto(saved.as_uri())
        expect(offline.get_by_test_id("my-place")).to_contain_text("of 12 in the standings")
        assert offline.evaluate(
            "getComputedStyle(document.querySelector('.my-night')).borderRadius") == "12px"


class TheRevealIsTheHosts(BrowserTestCase):
    def test_a_phone_shows_each_prize_the_moment_the_tv_reveals_it(self):
        night = in_thread(finale_night)
        awards = screens.final_awards(live_state(night))
        winner = awards[0]["payouts"][0]
        tv = self.browser.new_page(viewport={"width": 1920, "height": 1080})
        tv.goto(f"{self.live_server_url}/tv/{night.tv_token}/")
        tv.wait_for_function("window.bunco && window.bunco.open")  # a TV shows the night
        player = night.players.get(name=winner["name"])
        phone = self.browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        phone.goto(f"{self.live_server_url}/p/{player.token}/")
        phone.wait_for_function("window.bunco && window.bunco.open")

        host = self.browser.new_page(viewport={"width": 1280, "height": 900})
        host.goto(f"{self.live_server_url}/host/{SECRET}/")
        host.goto(f"{self.live_server_url}/host/nights/{night.pk}/")
        host.on("dialog", lambda dialog: dialog.accept())
        host.get_by_role("button", name="End the night").click()

        # The phone turns into the guest's night, its prizes kept for the TV's reveal.
        expect(phone.get_by_test_id("prizes-waiting")).to_contain_text(
            f"{len(awards)} prizes still to be revealed on the TV")
        expect(phone.get_by_test_id("night-winners")).to_have_count(0)
        expect(phone.get_by_test_id("my-place")).to_have_count(0)
        expect(tv.locator("[data-testid=tv-prizes] li.hidden")).to_have_count(len(awards))

        host.get_by_role("button", name=re.compile("Reveal prize 1 of")).click()
        line = tv.locator(f"[data-testid=tv-prizes] li[data-category='{awards[0]['category']}']")
        expect(line).to_contain_text(winner["name"])
        winners = phone.get_by_test_id("night-winners")
        expect(winners).to_contain_text(awards[0]["label"])  # no reload: the push brings it
        expect(winners).to_contain_text(f"{winner['name']} {winner['amount']}")
        expect(winners).not_to_contain_text(awards[1]["label"])
        expect(phone.get_by_test_id("my-prizes")).to_contain_text(awards[0]["label"])

        host.get_by_role("button", name="Show every prize now").click()
        expect(tv.locator("[data-testid=tv-prizes] li.hidden")).to_have_count(0)
        for award in awards:
            expect(winners).to_contain_text(award["label"])
        expect(phone.get_by_test_id("my-place")).to_contain_text("of 12 in the standings")
        expect(phone.get_by_test_id("prizes-waiting")).to_have_count(0)
