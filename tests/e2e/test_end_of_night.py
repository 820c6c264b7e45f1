"""The end of a night in a real browser: the host ends it, reveals the prizes one by one, and
the TV shows exactly the winners and amounts the rules engine computes."""

import random
import re
import threading

from playwright.sync_api import expect

from bunco.night import services
from bunco.night.selectors import live_state
from scoring import PRESETS, decide_awards, sample_names
from tests.playing import finish_night

from .base import HOST_SECRET as SECRET
from .base import BrowserTestCase


def play_a_whole_night():
    # Ties split at once (not left for the tied players to choose), so every cent is paid.
    night = services.night_create(name="Finale", rules_id="babz", entry_fee_cents=1000,
                                  rules=PRESETS["babz"].replace(award_ties="split"),
                                  player_names=sample_names(12))
    services.night_seat(night=night, rng=random.Random(8))
    assert finish_night(night, rng=random.Random(9), end=False).phase == "over"
    return night


class EndOfNight(BrowserTestCase):
    def test_the_tv_reveals_the_engines_awards(self):
        made = []
        worker = threading.Thread(target=lambda: made.append(play_a_whole_night()))
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
