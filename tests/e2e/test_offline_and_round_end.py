"""Offline is visible and safe, and every round ends clearly, on phones with touch screens:
taps made offline show as "waiting to send" and move the turn on, then count once each; a
refused tap stays until dismissed and a server error keeps the tap and sends it again; a round's end
shows the result, then the next seat; after the last round nobody is told to move."""

import random
import re
from pathlib import Path

from playwright.sync_api import expect

from bunco.models import ScoreEvent, TableLink
from bunco.night import services
from bunco.night.cache import live_state
from scoring import PRESETS, sample_names
from tests.playing import play_round, roll

from .base import BrowserTestCase, in_thread

PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
TV = {"viewport": {"width": 1920, "height": 1080}}
ARTIFACTS = Path("test-artifacts")
# Changes made here (not through a page) reach the screens by their resync (every 5 s): the live
# server is another process, whose pushes these service calls cannot make.
SYNC = 15000


class OfflineAndRoundEnds(BrowserTestCase):

    def night(self, start=True, **changes):
        def setup():
            night = services.night_create(name="Party", rules_id="babz",
                                          rules=PRESETS["babz"].replace(**changes),
                                          player_names=sample_names(12))
            services.night_seat(night=night, rng=random.Random(5))
            if start:
                services.round_start(night=night)
            return night
        return in_thread(setup)

    def open(self, path, device=PHONE):
        context = self.browser.new_context(**device)
        page = context.new_page()
        # Wait until the screen's websocket is open, so it hears every push after this.
        page.add_init_script(
            "document.addEventListener('htmx:wsOpen', function () { window.wsOpen = true; })")
        page.goto(self.live_server_url + path)
        expect(page.locator("#banner")).to_be_visible()
        page.wait_for_function("window.wsOpen === true")
        return context, page

    def shot(self, page, name):
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"))

    def tap(self, page, label):
        page.locator(".pad .quick button", has_text=label).tap()
        page.wait_for_timeout(1000)  # the next tap, at a person's pace (well past 600 ms)

    def rolls(self, night):
        return ScoreEvent.objects.filter(night=night, kind="roll").count()

    def test_taps_made_offline_wait_visibly_move_the_turn_on_and_count_once_when_back(self):
        night = self.night()
        link = TableLink.objects.get(night=night, number=2)
        context, device = self.open(f"/t/{link.token}/")
        _, tv = self.open(f"/tv/{night.tv_token}/", TV)
        seats = [s.name for s in live_state(night).room.tables[1].spec.seats]
        expect(device.locator("#table-2 .turn")).to_contain_text(f"{seats[0]}'s turn")

        reconnecting = device.locator(".conn")
        expect(reconnecting).to_be_hidden()
        context.set_offline(True)
        # The socket has not noticed yet; the phone says at once that it is offline.
        expect(reconnecting).to_be_visible(timeout=2000)
        self.tap(device, "Miss")
        waiting = device.get_by_test_id("waiting")
        expect(waiting).to_have_count(1)
        expect(waiting.first).to_contain_text("waiting to send")
        # The turn moved on by itself: the miss passed it to the next player.
        turn = device.locator("#table-2 .turn")
        expect(turn).to_contain_text(f"{seats[1]}'s turn")
        expect(turn).to_contain_text("after 1 tap waiting to send")
        self.tap(device, "2 hits")
        expect(waiting).to_have_count(2)
        expect(waiting.first).to_contain_text(seats[1])  # the newest first, for its roller
        expect(turn).to_contain_text(f"{seats[1]}'s turn")  # two hits keep the turn
        self.shot(device, "phone-offline-waiting")
        assert self.rolls(night) == 0

        context.set_offline(False)
        device.evaluate("window.dispatchEvent(new Event('online'))")
        expect(waiting).to_have_count(0)
        expect(reconnecting).to_be_hidden()
        expect(device.locator("#table-2 .score")).to_have_text(["0", "2"])
        expect(turn).to_contain_text(f"{seats[1]}'s turn")
        expect(turn).not_to_contain_text("waiting")
        # Every screen converges: the TV shows the same tally.
        expect(tv.locator("#table-2 .score")).to_have_text(["0", "2"])
        taps = list(ScoreEvent.objects.filter(night=night, kind="roll").order_by("seq"))
        assert [(t.player, t.position) for t in taps] == [(seats[0], 0), (seats[1], 1)]
        device.reload()
        expect(device.locator("#table-2 .score")).to_have_text(["0", "2"])
        assert self.rolls(night) == 2

    def test_a_short_phone_keeps_the_whole_pad_in_view_as_the_rolls_add_up(self):
        night = self.night()
        link = TableLink.objects.get(night=night, number=2)
        for _ in range(6):
            in_thread(lambda: roll(night, 2, quick="miss"))
        context, device = self.open(f"/t/{link.token}/")
        expect(device.locator("#table-2 .rolls li")).to_have_count(6)  # kept, the latest shown
        expect(device.locator("#table-2 .rolls li").first).to_be_visible()
        buttons = device.locator(".pad .quick button:visible, .pad .faces button")
        bottom = PHONE["viewport"]["height"]

        def all_in_view():
            assert buttons.count() >= 11  # the quick buttons and the six dice
            for i in range(buttons.count()):
                box = buttons.nth(i).bounding_box()
                assert box["y"] + box["height"] <= bottom, buttons.nth(i).inner_text()

        all_in_view()
        # Offline, taps wait and the turn line grows ("after 3 taps waiting to send"): the
        # buttons stay in view all the same.
        context.set_offline(True)
        for _ in range(3):
            self.tap(device, "Miss")
        expect(device.get_by_test_id("waiting")).to_have_count(3)
        expect(device.locator("#table-2 .turn")).to_contain_text("after 3 taps waiting")
        all_in_view()
        self.shot(device, "phone-pad-in-view")
        context.set_offline(False)

    def test_a_tap_made_while_the_one_before_is_unanswered_shows_as_waiting_at_once(self):
        night = self.night()
        link = TableLink.objects.get(night=night, number=2)
        context = self.browser.new_context(**PHONE)
        device = context.new_page()
        # The Wi-Fi swallows taps sent over the websocket (the socket itself stays up), so
        # the first tap waits for its answer while the scorekeeper taps the next roll.
        swallow = [True]

        def relay(ws):
            server = ws.connect_to_server()

            def up(message):
                if not (swallow[0] and '"tap"' in str(message)):
                    server.send(message)
            ws.on_message(up)
        device.route_web_socket(re.compile(r".*/ws/.*"), relay)
        device.add_init_script(
            "document.addEventListener('htmx:wsOpen', function () { window.wsOpen = true; })")
        device.goto(f"{self.live_server_url}/t/{link.token}/")
        device.wait_for_function("window.wsOpen === true")
        seats = [s.name for s in live_state(night).room.tables[1].spec.seats]
        self.tap(device, "Miss")
        waiting = device.get_by_test_id("waiting")
        expect(waiting).to_have_count(1)
        device.locator(".pad .quick button", has_text="2 hits").tap()
        expect(waiting).to_have_count(2, timeout=500)  # at once, not when the first is answered
        expect(device.locator("#table-2 .turn")).to_contain_text(f"{seats[1]}'s turn")

        swallow[0] = False  # the network recovers: the unanswered tap is sent again
        expect(waiting).to_have_count(0, timeout=SYNC)
        expect(device.locator("#table-2 .score")).to_have_text(["0", "2"])
        assert self.rolls(night) == 2

    def test_a_refused_tap_stays_until_dismissed_and_later_taps_go_through(self):
        night = self.night()
        link = TableLink.objects.get(night=night, number=2)
        context, device = self.open(f"/t/{link.token}/")
        device.clock.install()  # the page's timers from here on are moved on by the test
        context.set_offline(True)
        self.tap(device, "1 hit")
        in_thread(lambda: services.game_pause(night=night))
        context.set_offline(False)
        device.evaluate("window.dispatchEvent(new Event('online'))")
        refused = device.get_by_test_id("refused")
        expect(refused).to_contain_text("paused")
        expect(refused).to_contain_text("1 hit")
        expect(device.get_by_test_id("waiting")).to_have_count(0)
        device.clock.run_for(5000)  # not a passing toast: outlasting one is what is tested
        expect(refused).to_be_visible()
        self.shot(device, "phone-refused")
        in_thread(lambda: services.game_resume(night=night))
        pad = device.locator(".pad .quick button", has_text="1 hit")
        expect(pad).to_be_visible(timeout=SYNC)
        self.tap(device, "1 hit")
        expect(device.locator("#table-2 .score").first).to_have_text("1")
        expect(refused).to_be_visible()
        refused.get_by_role("button", name="Dismiss").tap()
        expect(refused).to_have_count(0)
        assert self.rolls(night) == 1

    def test_a_server_error_page_keeps_the_tap_and_later_taps_follow_it_in_order(self):
        night = self.night()
        link = TableLink.objects.get(night=night, number=2)
        context, device = self.open(f"/t/{link.token}/")
        # The websocket is down, so taps go as form posts; the first meets a server error
        # page (HTML, not JSON) before it reaches the app.
        device.route_web_socket(re.compile(r".*/ws/.*"), lambda ws: ws.close())
        device.reload()
        failed = []

        def error_once(route):
            if failed:
                route.continue_()
            else:
                failed.append(route.request.url)
                route.fulfill(status=500, content_type="text/html",
                              body="<h1>Server Error (500)</h1>")
        device.route(re.compile(r".*/roll/$"), error_once)
        self.tap(device, "2 hits")
        self.tap(device, "1 hit")
        # Not a decision of the game: the tap was kept, sent again, and the next one after it.
        expect(device.locator("#table-2 .score").first).to_have_text("3")
        expect(device.locator(".pending-note")).to_have_text("")
        expect(device.get_by_test_id("refused")).to_have_count(0)
        taps = list(ScoreEvent.objects.filter(night=night, kind="roll").order_by("seq"))
        assert failed and [t.data["dice"].count(1) for t in taps] == [2, 1]

    def test_a_round_ends_with_the_result_then_the_next_seat_and_the_last_round_moves_nobody(self):
        night = self.night(sets=1)
        state = live_state(night)
        head = state.room.tables[0].spec
        me = head.seats[0].name
        partner = head.seats[2].name
        player = night.players.get(name=me)
        _, phone = self.open(f"/p/{player.token}/")
        _, table = self.open(f"/t/{TableLink.objects.get(night=night, number=1).token}/")
        _, tv = self.open(f"/tv/{night.tv_token}/", TV)

        # The bell: each table is told what to do under the house rules (babz: stop now).
        def bell():
            roll(night, 2, quick="hit1")
            services.bell_ring(night=night)
        in_thread(bell)
        duty = tv.locator("#table-2 [data-testid=bell-duty]")
        expect(duty).to_contain_text("Stop now", timeout=SYNC)
        expect(phone.locator("#banner")).not_to_contain_text("Finish as the rules say")

        def finish():
            state = live_state(night)
            while state.room is not None:
                t = next(t for t in state.room.tables if not t.done)
                tied = len(set(t.team_scores)) == 1
                roll(night, t.spec.number, quick="hit1" if tied else "miss")
                state = live_state(night)
            return state
        state = in_thread(finish)
        play = next(p for p in state.night.history[-1].tables if me in p.seats)
        mine = 0 if me in play.teams[0] else 1
        verdict = "won" if me in play.winners else "lost at"
        result = phone.get_by_test_id("round-result")
        score = f"{play.scores[mine]}–{play.scores[1 - mine]}"
        expect(result).to_contain_text(f"You and {partner} {verdict} table 1, {score}",
                                       timeout=SYNC)
        where = state.seat_of(me)
        seat = phone.get_by_test_id("where")
        expect(seat).to_contain_text("Next round:")
        expect(seat).to_contain_text(f"table {where[0]}, seat {where[1] + 1}")
        box_result, box_seat = result.bounding_box(), seat.bounding_box()
        assert box_result["y"] + box_result["height"] <= box_seat["y"]  # result first
        expect(table.get_by_test_id("final")).to_contain_text("Round 1 final tally", timeout=SYNC)
        expect(tv.get_by_test_id("final").first).to_be_visible(timeout=SYNC)
        expect(table.get_by_test_id("next-teams")).to_be_visible()
        self.shot(phone, "phone-round-result")
        self.shot(table, "phone-table-round-end")
        self.shot(tv, "tv-round-end")
        assert phone.evaluate("document.documentElement.scrollWidth") <= 360

        # The rest of the night, to its last round: nobody is told to move.
        def rest():
            while live_state(night).phase != "over":
                play_round(night)
        in_thread(rest)
        for page in (phone, table, tv):
            expect(page.locator("#banner")).to_contain_text("last round", timeout=SYNC)
        expect(phone.get_by_test_id("round-result")).to_contain_text("round 6")
        for page in (phone, table, tv):
            expect(page.locator("body")).not_to_contain_text("Move to")
            expect(page.locator("body")).not_to_contain_text("Move from")
            expect(page.locator("body")).not_to_contain_text("Next round")
        expect(tv.locator(".tv-moves")).to_have_count(0)
        self.shot(phone, "phone-last-round")
        self.shot(tv, "tv-last-round")

    def test_the_bell_tells_the_table_who_finishes_the_turn(self):
        night = self.night(after_bell="finish_turn")
        link = TableLink.objects.get(night=night, number=2)
        _, device = self.open(f"/t/{link.token}/")
        roller = live_state(night).room.tables[1].spec.seats[0].name
        in_thread(lambda: services.bell_ring(night=night))
        expect(device.get_by_test_id("bell-duty")).to_contain_text(
            f"Bell! {roller} finishes this turn, then stop.", timeout=SYNC)
        expect(device.locator("#banner")).to_contain_text("finishes the turn, then stop")
        self.shot(device, "phone-bell-duty")

    def test_the_host_bell_button_names_the_set_and_round(self):
        night = self.night(start=False, sets=2)
        from .base import HOST_SECRET
        host = self.browser.new_context(viewport={"width": 1440, "height": 900}).new_page()
        host.goto(f"{self.live_server_url}/host/{HOST_SECRET}/")
        host.goto(f"{self.live_server_url}/host/nights/{night.pk}/")
        expect(host.get_by_role("button", name=re.compile("start set 1, round 1"))).to_be_visible()

        def six():
            for _ in range(6):
                play_round(night)
        in_thread(six)
        button = host.get_by_role("button", name=re.compile("start set 2, round 1"))
        expect(button).to_be_visible(timeout=SYNC)
