"""The live core in real browsers: a double tap and a second phone count once, a late tap from
an outbox is refused by name, the host keeps typing while taps arrive, and the host takes back
an older roll and a mistaken bell after seeing what it changes."""

import random
import re

from playwright.sync_api import expect

from bunco.models import Night, ScoreEvent, TableLink
from bunco.night import services
from bunco.night.cache import live_state
from scoring import PRESETS, sample_names
from tests.playing import play_round, roll

from .base import HOST_SECRET as SECRET
from .base import BrowserTestCase, caught_up, in_thread, tap_like_a_person

PHONE = {"width": 360, "height": 740}


class LiveCoreInBrowsers(BrowserTestCase):

    def night(self, **changes):
        def setup():
            night = services.night_create(name="Core", rules_id="babz",
                                          rules=PRESETS["babz"].replace(**changes),
                                          player_names=sample_names(12))
            services.night_seat(night=night, rng=random.Random(3))
            services.round_start(night=night)
            return night
        return in_thread(setup)

    def page(self, path, viewport=PHONE, context=None):
        context = context or self.browser.new_context(viewport=viewport)
        page = context.new_page()
        page.goto(self.live_server_url + path)
        expect(page.locator("#banner .headline")).to_contain_text("Round")
        return page

    def rolls(self, night):
        return ScoreEvent.objects.filter(night=night, kind="roll").count()

    def test_a_double_tap_counts_once_and_a_second_phone_on_the_same_roll_is_refused(self):
        night = self.night()
        link = TableLink.objects.get(night=night, number=1)
        device = self.page(f"/t/{link.token}/")
        # A player at the same table keeps score too, but their phone is off the Wi-Fi.
        name = live_state(night).room.tables[0].spec.seats[1].name
        player = night.players.get(name=name)
        context = self.browser.new_context(viewport=PHONE)
        phone = self.page(f"/p/{player.token}/", context=context)
        phone.locator("[data-scorer-toggle]").check()
        context.set_offline(True)
        phone.locator(".pad .quick button", has_text="1 hit").click()

        device.locator(".pad .quick button", has_text="1 hit").dblclick()
        expect(device.locator("#table-1 .score").first).to_have_text("1")
        device.wait_for_function("!document.body.classList.contains('pending')")

        context.set_offline(False)
        phone.evaluate("window.dispatchEvent(new Event('online'))")
        # The phone's tap is not that roll's key: never merged in silence. It was the same
        # roll (1 hit at the same turn): counted once, said so, with nothing to enter again.
        refused = phone.get_by_test_id("refused")
        expect(refused).to_contain_text("another phone entered that roll at table 1 first")
        expect(refused).to_contain_text("it counts once")
        expect(refused.get_by_role("button", name="Dismiss")).to_be_visible()
        expect(refused.get_by_role("button", name=re.compile("Enter again"))).to_have_count(0)
        expect(phone.locator("#table-1 .score").first).to_have_text("1")
        assert self.rolls(night) == 1

    def test_a_late_tap_from_the_outbox_is_refused_by_name_and_changes_nothing(self):
        night = self.night()
        link = TableLink.objects.get(night=night, number=2)
        context = self.browser.new_context(viewport=PHONE)
        device = self.page(f"/t/{link.token}/", context=context)
        context.set_offline(True)
        device.locator(".pad .quick button", has_text="2 hits").click()
        # One tap kept: "Sending your tap…" while the page still thinks its socket is up, "1 tap
        # waiting. Not connected…" once a wake-up probe has found it silent and closed it (which
        # a busy phone may do before this line looks). Either way it is kept, not yet sent.
        expect(device.locator(".pending-note")).to_have_text(
            re.compile(r"^(Sending your tap…|1 tap waiting\. Not connected.*)$"))

        def next_round():
            play_round(night, start=False)
            services.round_start(night=night)
        in_thread(next_round)
        before = self.rolls(night)

        context.set_offline(False)
        device.evaluate("window.dispatchEvent(new Event('online'))")
        # The refusal stays next to the tally (not a passing toast) until dismissed.
        refused = device.get_by_test_id("refused")
        expect(refused).to_contain_text("that roll was for round 1 of set 1, which is over")
        expect(refused).to_contain_text("2 hits")
        expect(device.locator(".pending-note")).to_have_text("")
        expect(device.locator("#banner .headline")).to_have_text("Round 2")
        assert self.rolls(night) == before

    def test_the_hosts_typing_survives_taps_and_an_older_roll_is_taken_back(self):
        night = self.night()
        host = self.browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        host.goto(f"{self.live_server_url}/host/{SECRET}/")
        host.goto(f"{self.live_server_url}/host/nights/{night.pk}/")
        box = host.get_by_label("Name of Ava")
        box.click()
        box.press("End")
        box.type("nn", delay=30)

        seats = [s.name for s in live_state(night).room.tables[1].spec.seats]
        device = self.page(f"/t/{TableLink.objects.get(night=night, number=2).token}/")
        for label in ("1 hit", "Miss", "1 hit", "Miss", "2 hits", "Miss"):
            tap_like_a_person(device, device.locator(".pad .quick button", has_text=label))
            expect(host.locator("#table-2 .rolls li").first).to_be_visible()
        expect(host.locator("#table-2 .score").first).to_have_text("3")
        box.type("e", delay=30)
        expect(box).to_have_value("Avanne")
        expect(box).to_be_focused()
        taps = list(ScoreEvent.objects.filter(night=night, kind="roll").order_by("seq"))
        assert [t.player for t in taps] == [seats[0]] * 2 + [seats[1]] * 2 + [seats[2]] * 2

        # Take back the first player's miss (by its number, as the tally history shows it):
        # nobody else's points move.
        host.locator("[data-takeback-entry]").fill(str(taps[1].seq))
        host.get_by_role("button", name="Show what it changes").click()
        dialog = host.locator("#takeback")
        expect(dialog).to_contain_text(f"{seats[0]}'s roll at table 2")
        expect(dialog).to_contain_text("No table's score changes")
        dialog.get_by_role("button", name="Take it back").click()
        expect(host.locator("#table-2 .rolls li")).to_have_count(5)
        # The table's phone says why its tally changed, with no reload.
        expect(device.get_by_test_id("taken-back")).to_contain_text(
            f"The host took back {seats[0]}'s Miss (#{taps[1].seq})")
        expect(device.locator("#toast")).to_contain_text("The host took back")
        # It sits over the pad: a tap puts it away and enters nothing.
        rolls = self.rolls(night)
        device.locator("#toast").click()
        expect(device.locator("#toast")).to_be_hidden(timeout=1000)  # not after its 4 s
        device.wait_for_function("!document.body.classList.contains('pending')")
        caught_up(device)  # a tap it had sent would have been answered by now
        assert self.rolls(night) == rolls
        table = live_state(Night.objects.get(pk=night.pk)).room.tables[1]
        assert table.seat_points == [1, 1, 2, 0]
        assert not ScoreEvent.objects.filter(night=night, kind="renamed").exists()

    def test_a_mistaken_bell_is_taken_back_after_the_host_sees_what_it_changes(self):
        night = self.night(after_bell="finish_turn")  # the tables finish their turns
        in_thread(lambda: roll(night, 1, quick="bunco"))  # rings the bell under these rules
        link = TableLink.objects.get(night=night, number=3)
        device = self.page(f"/t/{link.token}/")
        expect(device.locator("#banner.bell")).to_be_visible()
        device.get_by_role("button", name="Done: stop this table here").click()
        expect(device.locator("#table-3 .status")).to_contain_text("Tied")

        host = self.browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        host.goto(f"{self.live_server_url}/host/{SECRET}/")
        host.goto(f"{self.live_server_url}/host/nights/{night.pk}/")
        host.get_by_role("button", name="Take back the bell").click()
        dialog = host.locator("#takeback")
        expect(dialog).to_contain_text("The bell is taken back")
        expect(dialog).to_contain_text('table 3\'s "done"')
        dialog.get_by_role("button", name="Take it back").click()
        for page in (host, device):
            expect(page.locator("#banner.bell")).to_have_count(0)
        expect(device.locator(".pad .quick button", has_text="BUNCO!")).to_be_visible()
        assert live_state(Night.objects.get(pk=night.pk)).room.tables[0].team_scores == [0, 0]

    def test_the_hosts_bell_reaches_a_table_banner_first_and_dings_it_once(self):
        """The bell comes in two steps (the banner to every screen, then the tables with each
        table's bell duty); the phone rings once for it, not once per step."""
        night = self.night()
        link = TableLink.objects.get(night=night, number=2)
        context = self.browser.new_context(viewport=PHONE)
        context.add_init_script(  # count the phone's buzzes (the ding vibrates)
            "window.buzzes = 0; navigator.vibrate = function () { window.buzzes++; return true; };"
            "document.addEventListener('htmx:wsOpen', function () { window.wsOpen = true; });")
        device = self.page(f"/t/{link.token}/", context=context)
        device.wait_for_function("window.wsOpen === true")
        host = self.browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        host.goto(f"{self.live_server_url}/host/{SECRET}/")
        host.goto(f"{self.live_server_url}/host/nights/{night.pk}/")
        host.get_by_role("button", name=re.compile("Ring the bell now")).click()
        expect(device.locator("#banner.bell")).to_be_visible()
        expect(device.get_by_test_id("bell-duty")).to_be_visible()
        caught_up(device)  # anything else the bell brings has come by now
        assert device.evaluate("window.buzzes") == 1
        assert device.locator("body").get_attribute("data-rang") == "1-1"

    def test_a_double_tap_at_a_persons_speed_counts_once_and_offline_taps_all_count(self):
        night = self.night()
        link = TableLink.objects.get(night=night, number=2)
        context = self.browser.new_context(viewport=PHONE)
        device = self.page(f"/t/{link.token}/", context=context)
        # Miss twice, 150 ms apart by the page's own clock (a busy machine's test driver could
        # stretch its own wait past the 400 ms window): the screen has already moved on, and
        # it is still one tap.
        gap = device.evaluate("""() => new Promise(done => {
            const miss = () => [...document.querySelectorAll('.pad .quick button')]
                .find(b => b.textContent.trim() === 'Miss').click();
            const first = Date.now();
            miss();
            setTimeout(() => { miss(); done(Date.now() - first); }, 150);
        })""")
        assert gap < 400, f"the machine stretched a 150 ms gap to {gap} ms"
        expect(device.locator("#toast")).to_contain_text("Tapped twice: counted once")
        device.wait_for_function("!document.body.classList.contains('pending')")
        assert self.rolls(night) == 1

        device.wait_for_timeout(700)  # a person's pace: the next roll, not a double tap
        context.set_offline(True)
        for label in ("1 hit", "2 hits", "Miss"):  # three rolls while the Wi-Fi is down
            device.locator(".pad .quick button", has_text=label).click()
            device.wait_for_timeout(700)  # a person's pace (the input; a floor)
        expect(device.locator(".pending-note")).to_contain_text("3 taps waiting")
        context.set_offline(False)
        device.evaluate("window.dispatchEvent(new Event('online'))")
        expect(device.locator(".pending-note")).to_have_text("")
        expect(device.locator("#table-2 .score").nth(1)).to_have_text("3")
        assert self.rolls(night) == 4
