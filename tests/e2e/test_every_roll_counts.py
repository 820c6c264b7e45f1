"""Every roll a scorekeeper taps counts exactly once, or is listed plainly as not counted with
a reason of the game: quick different rolls both count, a double tap counts once, a server
error or a lost answer is sent again (never lost, never counted twice), a tap another phone
beat is refused by name and can be entered again with one tap; and, over random mixes of all
of these, every intent ends in exactly one of the log or the "Not counted" box."""

import json
import random
import re
from pathlib import Path

from playwright.sync_api import expect

from bunco.models import Night, ScoreEvent, TableLink
from bunco.night import services
from bunco.night.cache import live_state
from scoring import PRESETS, sample_names
from tests.playing import roll

from .base import BrowserTestCase, in_thread

ARTIFACTS = Path("test-artifacts")
PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}

DOUBLE_TAP_MS = 400  # outbox.js: the same button again within this is one tap

# Every key the page ever put in its outbox, in order: the scorekeeper's intents.
RECORD_INTENTS = """
(function () {
  window.intents = [];
  var set = Storage.prototype.setItem;
  Storage.prototype.setItem = function (k, v) {
    if (String(k).indexOf("bunco-outbox:") === 0) {
      JSON.parse(v).forEach(function (item) {
        if (window.intents.indexOf(item.fields.key) < 0) window.intents.push(item.fields.key);
      });
    }
    return set.apply(this, arguments);
  };
  document.addEventListener('htmx:wsOpen', function () { window.wsOpen = true; });
})();
"""
BUTTONS = ["Miss", "1 hit", "2 hits"]


class EveryRollCounts(BrowserTestCase):

    def night(self):
        def setup():
            # A long round: only a bunco (never tapped here) or 21 points ends it.
            night = services.night_create(name="Party", rules_id="babz", rules=PRESETS["babz"],
                                          player_names=sample_names(12))
            services.night_seat(night=night, rng=random.Random(5))
            services.round_start(night=night)
            return night
        return in_thread(setup)

    def device(self, night, number=2, relay=None, http_route=None):
        link = TableLink.objects.get(night=night, number=number)
        page = self.browser.new_context(**PHONE).new_page()
        page.add_init_script(RECORD_INTENTS)
        if relay is not None:
            page.route_web_socket(re.compile(r".*/ws/.*"), relay)
        if http_route is not None:
            page.route(re.compile(r".*/(roll|undo|finish)/$"), http_route)
        page.goto(f"{self.live_server_url}/t/{link.token}/")
        expect(page.locator("#banner")).to_be_visible()
        if relay is None or relay.__name__ != "no_socket":
            page.wait_for_function("window.wsOpen === true")
        return page

    def button(self, page, label):
        return page.locator(".pad .quick button", has_text=re.compile(f"^{label}$"))

    def rolls(self, night):
        return list(ScoreEvent.objects.filter(night=night, kind="roll").order_by("seq"))

    def taps_in_page(self, page, labels, gap_ms):
        """Buttons tapped ``gap_ms`` apart by the page's own clock (``bunco.now``, which the
        outbox reads), held for the two taps: a test driver's latency on a busy machine would
        blur a double tap's 20-300 ms. Afterwards the page's clock runs on from there."""
        page.evaluate("""([labels, gap]) => {
            const press = label => [...document.querySelectorAll('.pad .quick button')]
                .find(b => b.textContent.trim() === label).click();
            const real = window.bunco.now, start = real();
            window.bunco.now = () => start;
            press(labels[0]);
            window.bunco.now = () => start + gap;
            press(labels[1]);
            window.bunco.now = () => real() + gap;
        }""", [labels, gap_ms])

    def settled(self, page):
        page.wait_for_function(
            "!localStorage.getItem('bunco-outbox:' + location.pathname)"
            " || localStorage.getItem('bunco-outbox:' + location.pathname) === '[]'",
            timeout=30000)

    def test_two_different_rolls_tapped_quickly_both_count(self):
        night = self.night()
        page = self.device(night)
        seats = [s.name for s in live_state(night).room.tables[1].spec.seats]
        for gap in (300, 100, 450):
            self.button(page, "Miss").tap()
            page.wait_for_timeout(gap)  # a quick person's gap (the input; a floor)
            self.button(page, "1 hit").tap()
            page.wait_for_timeout(700)  # a person's pace: the next roll, not a double tap
        self.settled(page)
        rows = self.rolls(night)
        assert len(rows) == 6
        # Miss passes the turn, a hit keeps it: each roll went to the right player.
        assert [r.player for r in rows] == [seats[0], seats[1], seats[1], seats[2],
                                            seats[2], seats[3]]
        assert [r.position for r in rows] == list(range(6))
        expect(page.locator("#table-2 .score")).to_have_text(["1", "2"])
        expect(page.get_by_test_id("refused")).to_have_count(0)

    def test_a_double_tap_counts_once_and_says_so_and_a_deliberate_second_counts(self):
        night = self.night()
        page = self.device(night)
        button = self.button(page, "1 hit")
        self.taps_in_page(page, ["1 hit", "1 hit"], 120)  # 120 ms apart by the page's clock
        expect(page.locator("#toast")).to_contain_text("Tapped twice: counted once")
        self.settled(page)
        assert len(self.rolls(night)) == 1
        page.wait_for_timeout(700)  # the same roll again, on purpose: a person's pace
        button.tap()
        self.settled(page)
        expect(page.locator("#table-2 .score").first).to_have_text("2")
        assert len(self.rolls(night)) == 2

    def test_a_server_error_keeps_the_tap_and_sends_it_again_once(self):
        night = self.night()
        failures = []

        def no_socket(ws):
            ws.close()

        def error_after_commit(route):
            # The first post reaches the app and is recorded, but its answer is lost in a
            # proxy's error page: the resend with the same key must not count again.
            if failures:
                route.continue_()
                return
            route.fetch()
            failures.append(route.request.url)
            route.fulfill(status=502, content_type="text/html", body="<h1>Bad Gateway</h1>")

        page = self.device(night, relay=no_socket, http_route=error_after_commit)
        self.button(page, "2 hits").tap()
        page.wait_for_timeout(700)  # a person's pace: the next roll, not a double tap
        self.button(page, "1 hit").tap()
        self.settled(page)
        assert failures
        rows = self.rolls(night)
        assert len(rows) == 2 and len({r.key for r in rows}) == 2
        expect(page.locator("#table-2 .score").first).to_have_text("3")
        expect(page.get_by_test_id("refused")).to_have_count(0)

    def test_a_tap_another_phone_beat_is_refused_by_name_and_entered_again_in_one_tap(self):
        night = self.night()
        hold = [True]
        held, pushes = [], []

        def relay(ws):
            server = ws.connect_to_server()

            def up(message):
                if hold[0] and '"tap"' in str(message):
                    held.append(message)  # the Wi-Fi holds this phone's tap a moment
                else:
                    server.send(message)

            def down(message):
                if hold[0] and '"ack"' not in str(message):
                    pushes.append(message)  # and the table's pushes, longer: only answers pass
                else:
                    ws.send(message)
            ws.on_message(up)
            server.on_message(down)
            relay.release = lambda: [server.send(m) for m in held]
            relay.catch_up = lambda: [ws.send(m) for m in pushes]
        page = self.device(night, relay=relay)
        seats = [s.name for s in live_state(night).room.tables[1].spec.seats]
        self.button(page, "2 hits").tap()
        page.wait_for_function("document.body.classList.contains('pending')")
        in_thread(lambda: roll(night, 2, quick="miss"))  # the table's other phone, first
        relay.release()
        refused = page.get_by_test_id("refused")
        expect(refused).to_contain_text("2 hits")
        expect(refused).to_contain_text("another entry")
        assert len(self.rolls(night)) == 1
        # The screen has not seen the other phone's miss yet: entered now, the roll would go
        # to the wrong player (and be refused again). The button waits for the table.
        again = refused.get_by_role("button", name=re.compile("^Enter again"))
        expect(again).to_be_disabled()
        expect(again).to_contain_text("catching up")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "phone-not-counted-catching-up.png"))
        hold[0] = False
        relay.catch_up()
        expect(again).to_have_text(f"Enter again: {seats[1]}")
        page.screenshot(path=str(ARTIFACTS / "phone-not-counted.png"))
        again.tap()
        expect(refused).to_have_count(0)
        self.settled(page)
        assert len(self.rolls(night)) == 2
        # The other phone's miss passed the turn: the two hits went to the next player.
        expect(page.locator("#table-2 .score")).to_have_text(["0", "2"])

    def test_random_taps_and_faults_every_intent_is_counted_once_or_refused_never_both(self):
        """The outbox and the server together, over random interleavings: quick taps, double
        taps, another phone's entries, answers lost after the commit (the resend must not
        count twice), server errors and "slow down" before it, taps swallowed by the network
        (no answer: sent again), over the websocket and as form posts."""
        for seed in range(4):
            with self.subTest(seed=seed):
                self.check_random_mix(seed, over_socket=seed % 2 == 0)

    def check_random_mix(self, seed, over_socket):
        rng = random.Random(seed)
        night = self.night()
        faults = []  # what the network does to the next taps, consumed in order
        seen = {"faults": 0}

        def ack(message, status, **body):
            key = json.loads(message)["fields"]["key"]
            return json.dumps({"type": "ack", "key": key, "status": status, "ok": False,
                               **body})

        def relay(ws):
            server = ws.connect_to_server()
            lose = set()

            def up(message):
                text = str(message)
                if '"tap"' not in text or not faults:
                    server.send(message)
                    return
                fault = faults.pop(0)
                seen["faults"] += 1
                if fault == "swallow":
                    return  # no answer: the page sends it again after 5 s
                if fault == "busy":
                    ws.send(ack(text, 429, retry=True, error="Slow down"))
                elif fault == "error":
                    ws.send(ack(text, 500, error="The app had a problem (error 500)"))
                else:  # "lost": recorded, but the answer never arrives as it was
                    lose.add(json.loads(text)["fields"]["key"])
                    server.send(message)

            def down(message):
                text = str(message)
                if text.startswith("{") and '"ack"' in text:
                    key = json.loads(text).get("key")
                    if key in lose:
                        lose.discard(key)
                        ws.send(json.dumps({"type": "ack", "key": key, "status": 500,
                                            "ok": False, "error": "The app had a problem"}))
                        return
                ws.send(message)
            ws.on_message(up)
            server.on_message(down)

        def no_socket(ws):
            ws.close()

        def http(route):
            if not faults:
                route.continue_()
                return
            fault = faults.pop(0)
            seen["faults"] += 1
            if fault == "swallow":
                route.abort("connectionreset")
            elif fault == "busy":
                route.fulfill(status=429, content_type="application/json",
                              body=json.dumps({"ok": False, "retry": True, "error": "Slow"}))
            elif fault == "error":
                route.fulfill(status=500, content_type="text/html", body="<h1>500</h1>")
            else:
                route.fetch()
                route.fulfill(status=504, content_type="text/html", body="<h1>504</h1>")

        if over_socket:
            page = self.device(night, relay=relay)
        else:
            page = self.device(night, relay=no_socket, http_route=http)
        taps = 0
        swallowed = 0
        for _ in range(14):
            step = rng.choice(["tap", "tap", "quick pair", "double", "other phone", "fault"])
            visible = [b for b in BUTTONS if self.button(page, b).is_visible()]
            if not visible:
                break
            if step == "fault":
                fault = rng.choice(["busy", "error", "lost", "swallow"])
                if fault == "swallow":
                    if swallowed:
                        fault = "lost"
                    swallowed += 1
                faults.append(fault)
                continue
            if step == "other phone":
                quick = rng.choice(["miss", "hit1"])
                in_thread(lambda q=quick: roll(Night.objects.get(pk=night.pk), 2, quick=q))
                continue
            label = rng.choice(visible)
            if step == "double":  # the same button twice within the double-tap window
                self.taps_in_page(page, [label, label], rng.randint(20, 300))
                taps += 1  # within DOUBLE_TAP_MS by the page's clock: one tap
            elif step == "quick pair":  # a roll, then the next player's, quickly
                others = [b for b in visible if b != label]
                self.taps_in_page(page, [label, rng.choice(others)], rng.randint(100, 550))
                taps += 2
            else:
                self.button(page, label).tap()
                taps += 1
            page.wait_for_timeout(rng.randint(450, 900))  # a person's pace (the input)
        faults.clear()
        self.settled(page)
        intents = page.evaluate("window.intents")
        refused = page.evaluate(
            "JSON.parse(localStorage.getItem('bunco-refused:' + location.pathname) || '[]')")
        refused_keys = [r["key"] for r in refused]
        logged = {str(r.key) for r in self.rolls(night)}
        # Each tap the scorekeeper meant is one intent, a double tap none more.
        assert len(intents) == taps, (seed, intents, taps)
        for key in intents:
            counted, listed = key in logged, key in refused_keys
            assert counted != listed, (seed, key, counted, listed)
        for r in refused:  # refused for a reason of the game, said in words
            assert "error" not in r["error"].lower(), r
        # The screen agrees with the log.
        state = live_state(Night.objects.get(pk=night.pk))
        scores = [str(s) for s in state.room.tables[1].team_scores]
        expect(page.locator("#table-2 .score")).to_have_text(scores, timeout=15000)
        page.context.close()
