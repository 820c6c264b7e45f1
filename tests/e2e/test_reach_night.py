"""Every guest can always reach their night, as a person sees it: a guest on a new phone
takes their name back after the end with the night's code (the host's choice, made on her
page); a guest who waited all night without a chair reads what became of their fee; a
deleted night's table phone says the night is gone and lets go of its taps."""

import datetime as dt
import random
from pathlib import Path

from django.conf import settings
from django.utils import timezone
from playwright.sync_api import expect

from bunco.laptop import reclaim
from bunco.models import TableLink
from bunco.night import services
from tables.views import results_key
from tests.playing import finish_night

from .base import HOST_SECRET, BrowserTestCase, in_thread

PHONE = {"viewport": {"width": 360, "height": 740}}
NOW = timezone.make_aware(dt.datetime(2026, 3, 14, 19, 42))


class ReachTheNight(BrowserTestCase):

    def setUp(self):
        super().setUp()
        kept = Path(settings.DATA_DIR) / reclaim.FILE
        self.addCleanup(lambda: kept.unlink(missing_ok=True))  # the host's choice: this test's

    def test_after_the_end_a_guest_takes_their_night_back_on_a_new_phone_with_the_code(self):
        def ended():
            night = services.night_create(name="Spring night", rules_id="babz",
                                          player_names=["Ann", "Bea", "Cal", "Dee",
                                                        "Eve", "Fay", "Gus", "Hal"])
            services.night_seat(night=night, rng=random.Random(1))
            services.player_claim(night=night, player=night.players.get(name="Ann"),
                                  device="the phone that died")
            finish_night(night)
            return night

        night = in_thread(ended)
        host = self.browser.new_page(viewport={"width": 1366, "height": 768})
        host.goto(f"{self.live_server_url}/host/{HOST_SECRET}/")
        host.goto(f"{self.live_server_url}/host/nights/{night.pk}/")
        after = host.get_by_test_id("after-end")
        expect(after).to_contain_text(night.join_code)
        after.get_by_label("They type the night's join code and tap their name").check()
        after.get_by_role("button", name="Keep this choice").click()
        expect(host.locator("main")).to_contain_text("Kept: They type the night's join code")

        phone = self.browser.new_page(**PHONE)
        phone.goto(f"{self.live_server_url}/j/{night.join_token}/")
        expect(phone.get_by_test_id("take-back")).to_contain_text("Type the night's code")
        phone.get_by_test_id("night-code").fill(night.join_code)
        phone.get_by_role("button", name="Ann").click()
        expect(phone.get_by_test_id("my-night")).to_contain_text("Your night")
        phone.close()
        host.close()

    def test_a_guest_who_waited_all_night_reads_what_became_of_their_fee(self):
        def waited():
            night = services.night_create(name="Gala", rules_id="babz", entry_fee_cents=1000)
            services.players_add(night=night, names=[f"Guest {i:03d}" for i in range(9)],
                                 expected=True)
            for p in list(night.players.all())[:8]:
                services.player_check_in(night=night, player=p, now=NOW)
            services.night_seat(night=night, rng=random.Random(1))
            late = night.players.get(name="Guest 008")
            services.player_check_in(night=night, player=late, now=NOW)
            finish_night(night)
            return late

        late = in_thread(waited)
        phone = self.browser.new_page(**PHONE)
        phone.goto(f"{self.live_server_url}/r/{results_key(late)}/")
        mine = phone.get_by_test_id("my-night")
        expect(mine).to_contain_text("no chair came free all night")
        expect(phone.get_by_test_id("my-fee")).to_have_text(
            "Your $10.00 entry went into the $90.00 pot with everyone else's, and the pot paid "
            "tonight's prizes.")
        expect(phone.get_by_test_id("night-winners")).to_be_visible()
        phone.close()

    def test_a_deleted_nights_table_phone_says_it_is_gone_and_lets_go_of_its_taps(self):
        night = in_thread(services.demo_night_create)
        in_thread(lambda: services.round_start(night=night))
        token = TableLink.objects.get(night=night, number=1).token
        phone = self.browser.new_page(**PHONE)
        phone.goto(f"{self.live_server_url}/t/{token}/")
        phone.wait_for_function("window.bunco && window.bunco.open")
        in_thread(lambda: services.night_delete(night=night, live_confirmed=True))
        # its socket drops and cannot open again: the tap goes as a form post
        phone.evaluate("""() => document.querySelector('[ws-connect]')['htmx-internal-data']
                              .webSocket.socket.close()""")
        phone.wait_for_function("!window.bunco.open")
        phone.locator(".pad [data-quick-kind=hit1]").click()
        expect(phone.get_by_test_id("night-gone")).to_contain_text(
            "The host deleted this night on the laptop")
        expect(phone.locator(".pending-note").first).to_have_text("")
        assert phone.evaluate("localStorage.getItem('bunco-outbox:' + location.pathname)") \
            == "[]"
        phone.close()
