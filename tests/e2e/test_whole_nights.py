"""Whole nights in real browsers, driven only through what people click, type and scan: the
host sets the night up on a laptop; each table's phone opens by scanning its QR code off the
host's page; two guests scan the join code and tap their names; the TV opens by its typed
code. Every roll is a tap on a table's phone. The test reads the engine (the log, folded) only
to know which roll a scorekeeper would tap next and what every screen must then show."""

import re
import time
from pathlib import Path

from playwright.sync_api import expect

from bunco.live.screens import table_context
from bunco.models import Night, ScoreEvent
from bunco.night.cache import live_state
from scoring.rules import RoundEnd
from scoring.table_spec import Phase
from tests.waiting import wait_until

from .base import HOST_SECRET, BrowserTestCase
from .qr import read_qr

ARTIFACTS = Path("test-artifacts")
PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
LAPTOP = {"viewport": {"width": 1440, "height": 900}}
TV = {"viewport": {"width": 1920, "height": 1080}}
REACTION_MS = 700  # a person's pace between two taps on one phone (600 ms reads as a double tap)
#: When the table's fragment last changed on this page (a new seq), by the page's clock.
SEEN_AT = """
document.addEventListener('htmx:wsAfterMessage', function () {
  var t = document.querySelector('.table-live');
  if (t && t.dataset.seq !== window.seenSeq) {
    window.seenSeq = t.dataset.seq; window.seenAt = Date.now();
  }
});
"""


class Party:
    """One night's devices: the host's laptop, a phone per table, guests' phones, the TV."""

    def __init__(self, case, name, rules_id, names):
        self.case, self.names = case, names
        self.browser = case.browser
        self.host = self.open(LAPTOP, f"{case.live_server_url}/host/{HOST_SECRET}/")
        host = self.host
        host.fill("input[name=name]", name)
        host.select_option("select[name=rules_id]", rules_id)
        host.fill("textarea[name=players]", "\n".join(names))
        host.get_by_role("button", name="Create the night").click()
        expect(host.locator("main h1")).to_have_text(name)
        host.get_by_role("button", name="Seat everyone").click()
        expect(self.bell_button()).to_be_visible()
        self.night_pk = int(re.search(r"/nights/(\d+)/", host.url).group(1))
        self.tables: dict[int, object] = {}
        self.last_tap: dict[int, float] = {}
        self.guests: dict[str, object] = {}
        self.tv = None

    # -- joining, as people do it ------------------------------------------------------------

    def open(self, device, url):
        page = self.browser.new_context(**device).new_page()
        page.add_init_script(
            "document.addEventListener('htmx:wsOpen', function () { window.wsOpen = true; })")
        page.add_init_script(SEEN_AT)
        page.goto(url)
        return page

    def ready(self, page):
        expect(page.locator("#banner")).to_be_visible()
        page.wait_for_function("window.wsOpen === true")

    def join_tables(self):
        for number in range(1, len(self.state().tables) + 1):
            url = read_qr(self.host.get_by_alt_text(f"QR code for table {number}"))
            self.tables[number] = self.open(PHONE, url)
        for page in self.tables.values():
            self.ready(page)

    def join_guest(self, name):
        url = read_qr(self.host.get_by_test_id("join-card").locator("img"))
        phone = self.open(PHONE, url)
        phone.get_by_role("button", name=name, exact=True).click()
        expect(phone.get_by_test_id("where")).to_contain_text("You are at table")
        self.ready(phone)
        self.guests[name] = phone
        return phone

    def join_tv(self):
        address = self.host.locator(".tv-address").inner_text()
        code = self.host.get_by_test_id("tv-code").inner_text()
        tv = self.open(TV, address)
        tv.get_by_label("Type the TV code").fill(code)
        tv.get_by_role("button", name="Show the night").click()
        self.ready(tv)
        self.tv = tv
        return tv

    @property
    def screens(self):
        return [self.host, *self.tables.values(), *self.guests.values(), self.tv]

    # -- the engine, read to decide the next tap and what screens must show ------------------

    def state(self):
        return live_state(Night.objects.get(pk=self.night_pk))

    def rows(self):
        return ScoreEvent.objects.filter(night_id=self.night_pk).count()

    def bell_button(self):
        return self.host.get_by_role("button", name=re.compile(r"Ring the bell: start"))

    # -- playing -----------------------------------------------------------------------------

    def tap(self, number, kind):
        """The scorekeeper at table ``number`` taps a quick button, once their phone shows
        what the engine shows (the bell, a tie-break), at a person's pace."""
        page = self.tables[number]
        seq = table_context(self.state(), number)["seq"]
        page.wait_for_function(
            f"(document.querySelector('#table-{number}') || {{dataset: {{}}}}).dataset.seq"
            f" >= {seq}")
        wait = REACTION_MS / 1000 - (time.monotonic() - self.last_tap.get(number, 0))
        if wait > 0:  # a person's pace since the last tap (the input; a floor)
            time.sleep(wait)
        # A person reacts to what the screen shows: not sooner than that after it changed
        # (a push that came late moves the next tap later, or it reads as a double tap).
        page.wait_for_function(f"Date.now() - (window.seenAt || 0) > {REACTION_MS + 50}")
        before = self.rows()
        page.locator(f".pad [data-quick-kind='{kind}'], .pad [value='{kind}']").first.tap()
        self.last_tap[number] = time.monotonic()
        # the tap is in the log: the next decision sees it
        wait_until(lambda: self.rows() != before, f"table {number}'s {kind} tap counted")

    def next_tap(self, state):
        """Which table taps what next: tables without a leader get one, then the head table
        rolls a bunco (which ends the round under every preset here); after the bell a tie
        is broken with a hit (or one die) and a miss ends a turn."""
        room = state.room
        own_target = state.rules.round_end is RoundEnd.EACH_TABLE
        open_tables = [t for t in room.tables if not t.done]
        for table in open_tables:
            tied = len(set(table.team_scores)) == 1
            if table.dice_expected == 1:
                return table.spec.number, "die6" if table.current % 2 else "die1"
            if room.bell_rung or table.phase is not Phase.PLAYING:
                return table.spec.number, "hit1" if tied else "miss"
            if table.spec.number != 1 and (tied or own_target):
                # a table that plays to its own target (11 for individuals) gets there
                return table.spec.number, "hit2"
        head = room.tables[0]
        if not head.done and head.phase is Phase.PLAYING and not room.bell_rung:
            return 1, "bunco"
        table = open_tables[0]
        return table.spec.number, "hit1" if len(set(table.team_scores)) == 1 else "miss"

    def play_round(self, *, start=True, shoot=None):
        """The host rings the bell and the tables tap until every table has a result."""
        if start:
            label = self.bell_button().inner_text()
            self.bell_button().click()
            for page in self.screens:
                expect(page.locator("#banner")).to_have_attribute("data-phase", "playing")
        shot_taken = False
        while (state := self.state()).room is not None:
            number, kind = self.next_tap(state)
            if shoot and not shot_taken and kind == "bunco":
                shoot()
                shot_taken = True
            self.tap(number, kind)
        return label if start else None

    def shot(self, page, name):
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"))

    def check_seats(self, last_round=False):
        """Every guest's phone shows the seat the engine gives them for the next round (and
        after the last round, no seat at all); every table's phone its final tally."""
        state = self.state()
        for page in self.tables.values():
            expect(page.get_by_test_id("final")).to_be_visible()
        for name, phone in self.guests.items():
            expect(phone.get_by_test_id("round-result")).to_be_visible()
            where = phone.get_by_test_id("where")
            if last_round:
                expect(where).to_have_count(0)
                expect(phone.locator("body")).not_to_contain_text(
                    re.compile(r"Move from table|Next round:"))
                continue
            number, chair = state.seat_of(name)
            expect(where).to_contain_text(f"table {number}, seat {chair + 1}")
            spec = state.tables[number - 1]
            partner = spec.partner_of(chair)
            if partner is not None:
                expect(where).to_contain_text(f"Partner: {spec.seats[partner].name}")
            else:
                expect(where).to_contain_text("You play for yourself")

    def tv_standings_equal_the_master_sheet(self, set_number=1):
        tv_rows = self.tv.eval_on_selector_all(
            "tbody[data-pages=tv-standings-rows] tr",
            "rows => rows.map(r => Array.from(r.cells).map(c => c.textContent.trim()))")
        tv = {re.sub(r"^\d+[.=]?\s*", "", r[0]): r[1:5] for r in tv_rows}  # "3." or "3=" (shared)
        sheet = self.open(LAPTOP, f"{self.case.live_server_url}/host/{HOST_SECRET}/")
        sheet.goto(f"{self.case.live_server_url}/host/nights/{self.night_pk}/sheet/")
        section = sheet.locator("section.sheet").nth(set_number - 1)
        rows = section.locator("tbody tr").evaluate_all(
            "rows => rows.map(r => Array.from(r.cells).map(c => c.textContent.trim()))")
        # The sheet's columns end with W, L, Pts, B, Mini; the TV's are W, B, mini, pts.
        master = {r[0]: [r[-5], r[-2], r[-1], r[-3]] for r in rows}
        real = [n for n in self.names]
        assert sorted(tv) == sorted(real) == sorted(master)
        assert tv == master
        self.shot(sheet, f"{self.night_pk}-master-sheet")
        return tv


class WholeNights(BrowserTestCase):

    def test_twelve_players_babz_a_practice_round_then_a_full_set(self):
        names = ["Ava", "Ben", "Cleo", "Dana", "Eli", "Faye", "Gus", "Hana", "Ivan", "Jade",
                 "Kofi", "Lena"]
        party = Party(self, "Babz night", "babz", names)
        party.join_tables()
        party.join_guest("Ava")
        party.join_guest("Hana")
        party.join_tv()
        party.shot(party.host, "night-host-ready")

        # A practice round first: played where everyone sits, counted for nothing.
        seats_before = [[s.name for s in t.seats] for t in party.state().tables]
        party.host.get_by_role("button", name="Play a practice round first").click()
        for page in party.screens:
            expect(page.locator("#banner .headline")).to_have_text("Practice round")
        party.shot(party.tables[2], "night-phone-practice")
        party.play_round(start=False)
        for page in party.screens:
            expect(page.locator("#banner .headline")).to_have_text(
                "Practice over: nothing counted")
        state = party.state()
        assert [[s.name for s in t.seats] for t in state.tables] == seats_before
        assert all(s.points == s.wins == 0 for s in state.night.stats.values())

        # Round 3 is left tied at table 3 when the gong goes, for a tie-break.
        for n in range(1, 7):
            if n == 3:
                label = party.bell_button().inner_text()
                assert "round 3" in label
                party.bell_button().click()
                for page in party.screens:
                    expect(page.locator("#banner")).to_have_attribute("data-phase", "playing")
                party.tap(2, "hit1")
                party.tap(1, "bunco")  # table 3 is still 0-0: a tie
                expect(party.tables[3].locator(".status")).to_contain_text("Tied")
                expect(party.tv.locator("#table-3 .status")).to_contain_text("Tied")
                party.shot(party.tables[3], "night-phone-tie-break")
                party.play_round(start=False)
            else:
                label = party.play_round(
                    shoot=(lambda: party.shot(party.tv, "night-tv-playing")) if n == 2 else None)
                assert f"round {n}" in label
            for page in party.screens:
                expect(page.locator("#banner")).to_contain_text(f"Round {n} over")
            party.check_seats()
            if n == 1:
                party.shot(party.guests["Ava"], "night-phone-round-result")
                party.shot(party.tv, "night-tv-round-over")
        # The set is over: set 2 is next, and its button says so.
        expect(party.bell_button()).to_contain_text("set 2, round 1")
        party.shot(party.tv, "night-tv-set-over")
        party.tv_standings_equal_the_master_sheet()

    def test_seven_players_winning_moves_a_table_of_three_plays_to_11(self):
        names = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gil"]
        party = Party(self, "Seven", "winning-moves", names)
        tables = party.state().tables
        assert [len(t.seats) for t in tables] == [4, 3] and tables[1].individuals
        party.join_tables()
        guest = tables[1].seats[0].name
        party.join_guest(guest)
        party.join_tv()
        for n in range(1, 7):
            party.play_round()
            played = party.state().night.history[-1].tables[1]
            assert max(played.scores) >= 11  # the table of three reached its own 11
            party.check_seats(last_round=n == 6)
        for page in party.screens:
            expect(page.locator("#banner")).to_contain_text("last round")
        party.shot(party.tv, "night-tv-winning-moves-over")
        party.tv_standings_equal_the_master_sheet()

    def test_ten_players_ladder_with_two_ghosts(self):
        names = ["Ada", "Bea", "Cal", "Dot", "Eve", "Fin", "Guy", "Ida", "Jon", "Kit"]
        party = Party(self, "Ladder", "ladder", names)
        ghosts = [s.name for t in party.state().tables for s in t.seats if s.ghost]
        assert len(ghosts) == 2
        party.join_tables()
        # A guest whose partner is a ghost: their phone says they roll for it.
        state = party.state()
        ghost_table = next(t for t in state.tables if any(s.ghost for s in t.seats))
        chair = next(i for i, s in enumerate(ghost_table.seats) if s.ghost)
        partner = ghost_table.seats[ghost_table.partner_of(chair)].name
        phone = party.join_guest(partner)
        expect(phone.get_by_test_id("where")).to_contain_text("a ghost: you roll for it")
        party.join_tv()
        for _ in range(6):
            party.play_round()
            party.check_seats()
        expect(party.bell_button()).to_contain_text("set 2, round 1")
        standings = party.tv_standings_equal_the_master_sheet()
        assert not set(ghosts) & set(standings)
        party.shot(party.tv, "night-tv-ladder")
