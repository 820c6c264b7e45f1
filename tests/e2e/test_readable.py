"""Readable everywhere, in a real Chromium: icons drawn as SVG (no emoji font needed), names of
any length or script never break a layout, a favicon, and a phone's first load is small."""

import json
import os
import re
from pathlib import Path

from playwright.sync_api import expect

from .base import HOST_SECRET, BrowserTestCase
from .qr import read_qr

ARTIFACTS = Path(os.environ.get("BUNCO_TEST_ARTIFACTS", "test-artifacts"))
PHONE = {"width": 360, "height": 740}
LONG = "Wolfeschlegelsteinhausenbergerdorffvoral"  # 40 characters, no space to wrap at
RLO = "\u202eAnn"  # a right-to-left override character in a name
SHOWN = "Ann"  # kept without the override (bunco.night.names), shown isolated like every name
NAMES = [LONG, RLO, "محمد", "Ben", "Cleo", "Dana", "Eli", "Faye", "Gus", "Hana", "Ivan", "Jade"]
# Emoji and the symbol blocks laptops and TVs often have no font for (dice faces, the bell,
# the ghost, the pause sign, arrows like ↶).
NO_FONT = re.compile("[\u2196-\u21ff\u2300-\u23ff\u2600-\u27bf\u2b00-\u2bff\U0001f000-\U0001faff]")
#: Each page's first load on the wire, as the README states it: a guest's phone from the QR
#: code to their own page, and a table's phone (its page also carries the scorekeeper's pad
#: and the outbox that keeps taps while offline).
FIRST_LOAD_LIMIT = {"find your seat": 40 * 1024, "Ava's page": 40 * 1024,
                    "a table's phone": 45 * 1024}


class ReadableEverywhere(BrowserTestCase):

    def shot(self, page, name, full_page=True):
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)

    def watch(self, page):
        failed = []
        page.on("response", lambda r: failed.append(f"{r.status} {r.url}")
                if r.status >= 400 else None)
        return failed

    def no_symbol_fonts_needed(self, page):
        text = page.evaluate("document.body.innerText")
        assert not NO_FONT.findall(text), NO_FONT.findall(text)

    def test_long_and_right_to_left_names_icons_and_the_favicon(self):
        host = self.browser.new_context(viewport={"width": 1440, "height": 900}).new_page()
        failed = self.watch(host)
        host.goto(f"{self.live_server_url}/host/{HOST_SECRET}/")
        host.fill("input[name=name]", "Names night")
        host.select_option("select[name=rules_id]", "babz")
        host.fill("textarea[name=players]", "\n".join(NAMES))
        host.get_by_role("button", name="Create the night").click()
        host.get_by_role("button", name="Seat everyone").click()
        # The host puts the two hardest names at table 1, each first in their team's label.
        for team, name in ((0, SHOWN), (1, LONG)):
            holder = host.locator("#table-1 .who").nth(team).locator("bdi").first
            seat_holder = holder.inner_text()
            if name != seat_holder:
                host.select_option("select[name=first]", name)
                host.select_option("select[name=second]", seat_holder)
                # The answer draws the swap form again: the next pick waits for it (the
                # table itself may change first, over the socket).
                with host.expect_response(lambda r: r.url.endswith("/swap/")):
                    host.get_by_role("button", name="Swap").click()
                expect(holder).to_have_text(name)
        bell = host.get_by_role("button", name=re.compile("Ring the bell: start"))
        icon = bell.locator("svg.icon").bounding_box()
        assert icon and icon["width"] > 8 and icon["height"] > 8  # drawn, not an empty box
        self.no_symbol_fonts_needed(host)
        join_url = read_qr(host.get_by_test_id("join-card").locator("img"))
        tv_url = read_qr(host.get_by_test_id("tv-card").locator("img"))
        bell.click()
        expect(host.locator("#banner .headline")).to_have_text("Round 1")
        # The round's banner is as wide as the table cards under it; a name box of the players
        # list holds a 24-character name whole, its button beside it, inside its column.
        banner = host.locator("#banner").bounding_box()
        card = host.locator("#table-1").locator("xpath=..").bounding_box()
        row = host.locator("#table-3").locator("xpath=..").bounding_box()
        assert abs(banner["x"] - card["x"]) <= 2
        assert abs(banner["x"] + banner["width"] - row["x"] - row["width"]) <= 2
        box = host.locator(".roster input[name=name]").first
        box.fill("Mary-Katherine Fitzgerald")
        assert box.evaluate("e => e.scrollWidth <= e.clientWidth")
        fix = host.locator(".roster button", has_text="Fix name").first.bounding_box()
        field = box.bounding_box()
        assert field["x"] + field["width"] <= fix["x"] and fix["height"] < 50  # one line

        # The guest with the 40-character name, on a 360 px phone.
        phone = self.browser.new_context(viewport=PHONE, has_touch=True).new_page()
        failed += self.watch(phone)
        phone.goto(join_url)
        phone.get_by_role("button", name=LONG).click()
        expect(phone.locator("[data-testid=where]")).to_contain_text("table 1")
        assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        # Both scores inside the screen, measured in one go in the page (the table's fragment
        # may be replaced by a push while the page settles, between two separate measures).
        phone.wait_for_function(
            """width => {
              const s = [...document.querySelectorAll('#table-1 .score')]
                .filter(e => e.offsetParent);
              return s.length === 2 && s.every(e => {
                const r = e.getBoundingClientRect();
                return r.width > 0 && r.left >= 0 && r.right <= width;
              });
            }""", arg=PHONE["width"], timeout=10000)
        self.no_symbol_fonts_needed(phone)
        self.shot(phone, "phone-long-name")

        # The TV at 1080p: not a pixel wider; the override stays inside its own name.
        tv = self.browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        failed += self.watch(tv)
        tv.goto(tv_url)
        expect(tv.locator("#banner .headline")).to_have_text("Round 1")
        assert tv.evaluate("document.documentElement.scrollWidth") <= 1920
        for page in (tv, phone, host):
            team = page.locator("#table-1 .who").nth(0)
            names = team.locator("bdi")
            expect(names.first).to_have_text(SHOWN)
            expect(names.nth(1)).to_be_visible()
            # Both names measured in one go in the page: a push may replace the table's
            # fragment between two separate measures (as for the phone's scores above).
            a, b = page.evaluate("""() => [...document.querySelector('#table-1 .who')
                                      .querySelectorAll('bdi')].slice(0, 2)
                                      .map(e => e.getBoundingClientRect().toJSON())""")
            assert a["x"] + a["width"] <= b["x"], "the partner's name was pulled to the left"
            assert "&" in team.inner_text().split(SHOWN, 1)[1]  # "& partner" reads on
        self.no_symbol_fonts_needed(tv)
        self.shot(tv, "tv-long-names", full_page=False)

        # A roll for the ghost-free table shows dice drawn as SVG; a bunco shows on the TV.
        host.locator("#table-1").scroll_into_view_if_needed()
        favicon = host.locator("link[rel=icon]").get_attribute("href")
        assert host.request.get(self.live_server_url + favicon).status == 200
        assert host.request.get(self.live_server_url + "/favicon.ico").status == 200
        assert not failed, failed

    def test_a_phones_first_load_is_small_on_the_wire(self):
        """From scanning the QR code to the player's own page, and a table's phone opening its
        QR code, each with an empty cache: each page's load (its HTML, styles, scripts and
        icon, compressed) is at most what the README says on the wire."""
        host = self.browser.new_context(viewport={"width": 1440, "height": 900}).new_page()
        host.goto(f"{self.live_server_url}/host/{HOST_SECRET}/")
        host.get_by_role("button", name="Try a demo night").click()
        join_url = read_qr(host.get_by_test_id("join-card").locator("img"))

        phone = self.browser.new_context(viewport=PHONE, has_touch=True).new_page()
        loads, current = {}, []

        def count(response):
            sizes = response.request.sizes()
            current.append({"url": response.url, "status": response.status,
                            "encoding": response.headers.get("content-encoding", ""),
                            "bytes": sizes["responseBodySize"] + sizes["responseHeadersSize"]})

        phone.on("requestfinished", lambda request: count(request.response()))
        phone.goto(join_url, wait_until="networkidle")  # the icon and fonts asked after load too
        loads["find your seat"], current = current, []
        phone.get_by_role("button", name="Ava").click()
        expect(phone.locator("[data-testid=where]")).to_contain_text("You are at table")
        phone.wait_for_load_state("networkidle")
        loads["Ava's page"] = current
        # A table's phone: its QR code scanned on a phone that has never opened the app.
        table_url = read_qr(host.locator("img[alt='QR code for table 1']"))
        table = self.browser.new_context(viewport=PHONE, has_touch=True).new_page()
        current = []
        table.on("requestfinished", lambda request: count(request.response()))
        table.goto(table_url, wait_until="load")
        expect(table.locator("#table-1")).to_be_visible()
        table.wait_for_load_state("networkidle")
        loads["a table's phone"] = current
        report = {page: {"total": sum(r["bytes"] for r in rows), "responses": rows}
                  for page, rows in loads.items()}
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / "first-load.json").write_text(json.dumps(report, indent=1))
        for page, figures in report.items():
            assert figures["total"] <= FIRST_LOAD_LIMIT[page], (page, figures)
            for row in figures["responses"]:
                if row["url"].endswith((".js", ".css")) or "/p/" in row["url"]:
                    assert row["encoding"] == "gzip", row
        for page in ("Ava's page", "a table's phone"):
            scripts = [r for r in loads[page] if r["url"].endswith(".js")]
            # htmx, its websocket extension (minified), the app's own, the outbox, the pad and
            # the page's few handlers (page.js: no inline script under the CSP)
            assert len(scripts) == 6 and any(".min." in r["url"] and "-ws-" in r["url"]
                                             for r in scripts), page
