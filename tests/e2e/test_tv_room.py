"""The TV on a 1080p screen, for a room of any size: twelve tables fit without scrolling; a
bigger room pages through its tables (and its standings) while the round banner stays on top;
a bunco is celebrated until the round ends."""

import random
import re

from playwright.sync_api import expect

from bunco.live import screens
from bunco.models import TableLink
from bunco.night import services
from bunco.night.cache import live_state
from scoring import sample_names
from tests.playing import finish_night, play_round, roll

from .base import HOST_SECRET, BrowserTestCase, caught_up, in_thread

TV = {"width": 1920, "height": 1080}
#: A change made here reaches the live server's screens by a sync the server asks for once it
#: sees it in the log (base.WATCHED_EVERY):
#: the test process and the server do not share a channel layer.
PUSHED = 15000


def shown_tables(page) -> list[str]:
    return page.eval_on_selector_all(
        "#tv-tables > .table-live", "els => els.filter(e => e.offsetParent).map(e => e.id)")


class TvForAnyRoom(BrowserTestCase):

    def night(self, tables, start=True):
        def setup():
            night = services.night_create(name="Big room", rules_id="babz",
                                          player_names=sample_names(4 * tables))
            services.night_seat(night=night, rng=random.Random(9))
            if start:
                services.round_start(night=night)
            return night

        return in_thread(setup)

    def tv(self, night):
        page = self.browser.new_context(viewport=TV).new_page()
        page.goto(f"{self.live_server_url}/tv/{night.tv_token}/")
        return page

    def fits(self, page):
        assert page.evaluate("document.documentElement.scrollHeight") <= TV["height"]
        assert page.evaluate("document.documentElement.scrollWidth") <= TV["width"]

    def test_a_small_room_fills_the_tv_with_big_tables_and_long_standings(self):
        """Four tables: two big cards a row (not a corner of a big room's grid), every prize
        race's name in full under them, and the standings down the side, most of the room at
        once rather than four at a time."""
        night = self.night(4)

        def second_round():
            play_round(night, start=False)
            services.round_start(night=night)

        in_thread(second_round)
        tv = self.tv(night)
        cards = tv.locator("#tv-tables > .table-live")
        expect(cards).to_have_count(4)
        lefts = sorted({round(cards.nth(i).bounding_box()["x"]) for i in range(4)})
        assert len(lefts) == 2, lefts  # two a row
        assert cards.first.bounding_box()["width"] > TV["width"] * 0.25
        score = tv.locator("#tv-tables .score").first
        assert float(score.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 40
        races = tv.locator(".tv-main .tv-races li > span:first-child")
        expect(races.first).to_be_visible()
        cut = races.evaluate_all("els => els.filter(e => e.scrollWidth > e.clientWidth + 1)"
                                 ".map(e => e.textContent)")
        assert cut == [], cut
        rows = tv.locator("#tv-standings tbody tr:visible")
        expect(rows.nth(11)).to_be_visible()  # at least 12 of the 16 at once
        self.fits(tv)
        tv.screenshot(path="test-artifacts/tv-small-room.png")

    def below_the_fold(self, page) -> list[str]:
        """Ids of the tables shown (not paged away) whose card reaches past the screen."""
        return page.eval_on_selector_all(
            "#tv-tables > .table-live",
            "els => els.filter(e => e.offsetParent && e.getBoundingClientRect().bottom > "
            f"{TV['height']}).map(e => e.id)")

    def test_three_tables_have_the_prize_races_under_them_and_every_player_beside(self):
        night = self.night(3)
        page = self.tv(night)
        expect(page.locator("#banner .headline")).to_have_text("Round 1")
        caught_up(page)  # the live socket's snapshot in, the layout drawn for it
        self.fits(page)
        tables = page.locator("#table-1").bounding_box()
        races = page.locator(".tv-races").bounding_box()
        standings = page.locator(".tv-standings").bounding_box()
        # The races fill the room under the tables, in their column, not in the side column.
        assert 0 < races["y"] - (tables["y"] + tables["height"]) < 60
        assert races["x"] + races["width"] <= standings["x"]
        # The side column holds the QR code and all twelve players at once: no paging.
        expect(page.locator("[data-pager-of=tv-standings-rows]")).to_have_text("")
        rows = page.locator("[data-pages=tv-standings-rows] tr")
        assert rows.count() == 12
        for i in range(12):
            expect(rows.nth(i)).to_be_in_viewport()
        page.screenshot(path="test-artifacts/tv-3-tables.png")

    def test_twelve_tables_fit_one_screen_without_scrolling(self):
        night = self.night(12)
        in_thread(lambda: roll(night, 12, quick="hit2"))
        page = self.tv(night)
        expect(page.locator("#table-12 [data-testid=score]").first).to_have_text("2")
        caught_up(page)  # the live socket's snapshot in, the layout drawn for it
        page.screenshot(path="test-artifacts/tv-12-tables.png")
        self.fits(page)
        assert len(shown_tables(page)) == 12  # all of them, on one page
        assert self.below_the_fold(page) == []
        expect(page.locator("[data-pager-of=tv-tables]")).to_have_text("")
        # All 48 players in the standings (paged if they do not fit the side column).
        assert page.locator("[data-pages=tv-standings-rows] tr").count() == 48
        last_row = page.eval_on_selector_all(
            "[data-pages=tv-standings-rows] tr",
            "rows => Math.max(...rows.filter(r => r.offsetParent)"
            ".map(r => r.getBoundingClientRect().bottom))")
        assert last_row <= TV["height"]
        # Nobody has a bunco yet: the prize race says so rather than "48 tied (0)".
        expect(page.locator(".tv-races")).to_contain_text("No buncos yet")

    def test_a_hundred_tables_page_through_under_the_banner(self):
        night = self.night(100)
        page = self.tv(night)
        expect(page.locator("#banner .headline")).to_have_text("Round 1")
        caught_up(page)  # the live socket's snapshot in, the layout drawn for it
        self.fits(page)  # not 13,600 px tall
        first = shown_tables(page)
        assert first[0] == "table-1" and 8 <= len(first) < 100
        assert self.below_the_fold(page) == []
        label = page.locator("[data-pager-of=tv-tables]")
        expect(label).to_have_text(f"Tables 1–{len(first)} of 100")
        page.screenshot(path="test-artifacts/tv-100-tables.png")
        # About eight seconds later the next tables show; the banner has not moved.
        expect(label).to_have_text(f"Tables {len(first) + 1}–{2 * len(first)} of 100",
                                   timeout=PUSHED)
        second = shown_tables(page)
        assert second[0] == f"table-{len(first) + 1}" and not set(first) & set(second)
        expect(page.locator("#banner")).to_be_in_viewport()
        self.fits(page)
        page.screenshot(path="test-artifacts/tv-100-tables-page-2.png")
        expect(page.locator("[data-pager-of=tv-standings-rows]")).to_contain_text("of 400")
        # The bell rings, whatever page the TV shows: the banner shows it, in view.
        in_thread(lambda: services.bell_ring(night=night))
        expect(page.locator("#banner")).to_have_class(re.compile(r"\bbell\b"), timeout=PUSHED)
        expect(page.locator("#banner")).to_be_in_viewport()
        assert page.locator("#banner").bounding_box()["y"] < 100
        self.fits(page)
        assert self.below_the_fold(page) == []

    def test_twenty_tables_page_and_a_bunco_stays_in_view_until_the_round_ends(self):
        night = self.night(20)
        page = self.tv(night)
        expect(page.locator("#banner .headline")).to_have_text("Round 1")
        self.fits(page)
        expect(page.locator("[data-pager-of=tv-tables]")).to_contain_text("of 20")
        # A bunco at the last table, which is on another page: the celebration is on top.
        in_thread(lambda: roll(night, 20, quick="bunco"))
        bunco = page.locator(".tv-bunco")
        expect(bunco).to_contain_text("table 20", timeout=PUSHED)
        expect(bunco).to_be_in_viewport()
        box, standings = bunco.bounding_box(), page.locator(".tv-standings").bounding_box()
        assert box["y"] + box["height"] <= standings["y"]  # covers no standings row
        page.screenshot(path="test-artifacts/tv-20-tables-bunco.png")
        self.fits(page)
        # The round ends: the celebration ends with it, and the next bell starts clean.
        in_thread(lambda: play_round(night, start=False))
        expect(page.locator("#banner")).to_have_attribute("data-phase", "between_rounds",
                                                                  timeout=PUSHED)
        expect(bunco).to_have_count(0)
        self.fits(page)
        page.screenshot(path="test-artifacts/tv-20-tables-between-rounds.png")
        in_thread(lambda: services.round_start(night=night))
        expect(page.locator("#banner .headline")).to_have_text("Round 2", timeout=PUSHED)
        expect(bunco).to_have_count(0)
        assert live_state(night).round_number == 2

    def test_a_break_the_host_starts_is_counted_down_on_the_tv_and_the_phones(self):
        night = self.night(3)
        in_thread(lambda: play_round(night, start=False))  # round 1 is over
        tv = self.tv(night)
        expect(tv.locator("#banner")).to_have_attribute("data-phase", "between_rounds")
        phone = self.browser.new_context(viewport={"width": 360, "height": 740}).new_page()
        link = TableLink.objects.get(night=night, number=2)
        phone.goto(f"{self.live_server_url}/t/{link.token}/")
        host = self.browser.new_context(viewport={"width": 1440, "height": 900}).new_page()
        host.goto(f"{self.live_server_url}/host/{HOST_SECRET}/")
        host.goto(f"{self.live_server_url}/host/nights/{night.pk}/")
        host.locator(".break-form input[name=minutes]").fill("5")
        host.get_by_role("button", name="Start a break").click()
        expect(host.get_by_role("button", name="End the break")).to_be_visible()

        board = tv.locator("[data-testid=tv-break]")
        expect(board).to_be_visible()
        clock = board.locator(".countdown")
        expect(clock).to_have_text(re.compile(r"^[45]:[0-5]\d$"))
        first = clock.inner_text()
        expect(clock).not_to_have_text(first, timeout=3000)  # it counts down
        expect(board).to_contain_text("Up next: round 2 of set 1, when the break is over and "
                                      "the head table rings the bell")
        expect(tv.locator("#banner .headline")).to_contain_text("Break")
        expect(tv.locator("[data-pages=tv-standings-rows] tr").first).to_be_visible()
        self.fits(tv)
        tv.screenshot(path="test-artifacts/tv-break.png")
        # The table's phone shows the break too.
        expect(phone.locator("#banner .headline")).to_contain_text("Break")
        expect(phone.locator("#banner .countdown")).to_have_text(re.compile(r"^[45]:[0-5]\d$"))
        phone.screenshot(path="test-artifacts/phone-break.png")
        # The host's bell ends the break everywhere.
        host.locator(".bell-button").click()
        expect(tv.locator("#banner .headline")).to_have_text("Round 2")
        expect(board).to_have_count(0)
        expect(tv.locator("#table-1")).to_be_visible()

    def test_every_name_at_twelve_tables_reads_in_full_on_the_tv(self):
        """48 guests with names as long as ordinary names get (20 or so characters): on the
        TV's tables each one shows whole, wrapped if need be, never cut with an ellipsis."""
        firsts = ["Brenda", "Catherine", "Margaret", "Josephine", "Elizabeth", "Christine",
                  "Bernadette", "Alexandra"]
        lasts = ["Jones", "Worthington", "Fitzgerald", "Whitaker", "Kowalczyk", "Richards"]
        names = [f"{f} {la}" for f in firsts for la in lasts]
        assert len(names) == 48 and max(map(len, names)) == 22

        def setup():
            night = services.night_create(name="Long names", rules_id="babz",
                                          player_names=names)
            services.night_seat(night=night, rng=random.Random(9))
            services.round_start(night=night)
            return night
        night = in_thread(setup)
        page = self.browser.new_context(viewport=TV).new_page()
        page.clock.install()  # the pager's turns are moved on by the test, not waited for
        page.goto(f"{self.live_server_url}/tv/{night.tv_token}/")
        expect(page.locator("#banner .headline")).to_have_text("Round 1")
        caught_up(page)  # the live socket's snapshot in, the layout drawn for it
        page.screenshot(path="test-artifacts/tv-12-tables-long-names.png")
        self.fits(page)
        seen = set()
        for _ in range(3):  # every page of tables, should the TV page through them
            shown = page.eval_on_selector_all(
                "#tv-tables > .table-live .tally .who bdi",
                """els => els.filter(e => e.offsetParent).map(e => {
                  const r = e.getBoundingClientRect(), who = e.closest('.who');
                  return {text: e.textContent, cut: e.scrollWidth > e.clientWidth
                            || who.scrollWidth > who.clientWidth,
                          ellipsis: getComputedStyle(e).textOverflow === 'ellipsis'
                            || getComputedStyle(who).textOverflow === 'ellipsis',
                          inside: r.left >= 0 && r.right <= innerWidth && r.top >= 0
                            && r.bottom <= innerHeight && r.width > 0};
                })""")
            for name in shown:
                assert name["text"] in names
                assert not name["cut"] and not name["ellipsis"] and name["inside"], name
            seen |= {name["text"] for name in shown}
            if len(seen) == 48:
                break
            # the next page of tables: the pager's turn (every 8 s) is what is tested
            page.clock.run_for(8000)
        assert seen == set(names)

    def test_the_set_winner_shows_large_with_how_it_was_decided(self):
        """Winning Moves: "The winner of the Set is the player with the most W's." Once the set
        is over the TV shows the winner in large type, and the rule that decided it."""
        def setup():
            night = services.night_create(name="Party", rules_id="winning-moves",
                                          player_names=sample_names(8))
            services.night_seat(night=night, rng=random.Random(2))
            state = finish_night(night, rng=random.Random(3), end=False)
            for key, tie in screens.pending_ties(night, state).items():
                services.prize_roll_off(night=night, category=key,
                                        contenders=tie["contenders"], winner=None,
                                        rng=random.Random(1))
            return night
        night = in_thread(setup)
        (award,) = screens.set_winners(live_state(night))[0]["awards"]
        page = self.tv(night)
        winner = page.get_by_test_id("set-winner")
        expect(winner).to_contain_text(award["winners"][0])
        expect(winner).to_contain_text(re.compile(r"\d+ wins?"))
        expect(winner).to_be_in_viewport()
        assert float(winner.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 40
        expect(page.get_by_test_id("set-rule")).to_have_text(
            "The most wins (W's) in the set. Ties: the most buncos among them, then a "
            "roll-off to 5 points.")
        expect(page.locator(".tv-set-award h3")).to_have_text("Set 1 · Set winner")
        self.fits(page)
        page.screenshot(path="test-artifacts/tv-set-winner.png")
