"""The Content-Security-Policy holds on every screen: the host's page, a table's phone, a
player's phone and the TV load and play a round with the policy on and never break it (no
inline script or style element, no eval, websockets to this server only)."""

import re

from playwright.sync_api import expect

from .base import HOST_SECRET as SECRET
from .base import REACTION_MS, BrowserTestCase

NAMES = ["Ava", "Ben", "Cleo", "Dana", "Eli", "Faye", "Gus", "Hana"]
# Every violation the page sees, kept on the page from before its first script runs.
WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__violations.push(e.violatedDirective + " " + (e.blockedURI || "inline") + " "
                           + (e.sourceFile || "") + ":" + e.lineNumber);
});
"""


class ContentSecurityPolicy(BrowserTestCase):

    def open(self, url, viewport=None):
        page = self.browser.new_context(viewport=viewport or {"width": 360, "height": 740},
                                        bypass_csp=False).new_page()
        page.add_init_script(WATCH)
        errors = self.errors.setdefault(page, [])
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        answer = page.goto(url)
        policy = answer.headers.get("content-security-policy", "")
        assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy, policy
        return page

    def tap(self, page, label):
        """As tap_like_a_person, waiting with expect (wait_for_function needs eval)."""
        table = page.locator(".table-live")
        before = table.get_attribute("data-seq")
        page.locator(".pad .quick button", has_text=label).first.click()
        expect(page.locator("body")).not_to_have_class(re.compile(r"\bpending\b"))
        expect(table).not_to_have_attribute("data-seq", before)
        page.wait_for_timeout(REACTION_MS + 50)  # a person's pace (the input; a floor)

    def assert_no_violations(self, pages):
        for page in pages:
            seen = page.evaluate("window.__violations")
            assert seen == [], f"{page.url}: {seen}"
            assert [e for e in self.errors[page] if "Content Security Policy" in e] == [], (
                page.url, self.errors[page])

    def test_every_screen_plays_a_round_within_the_policy(self):
        self.errors = {}
        url = self.live_server_url
        host = self.open(f"{url}/host/{SECRET}/", {"width": 1280, "height": 900})
        host.fill("input[name=name]", "Strict Bunco")
        host.select_option("select[name=rules_id]", "babz")
        host.fill("textarea[name=players]", "\n".join(NAMES))
        host.get_by_role("button", name="Create the night").click()
        expect(host.locator("main h1")).to_have_text("Strict Bunco")
        host.get_by_role("button", name="Seat everyone").click()
        start = host.get_by_role("button", name=re.compile("start set 1, round 1"))
        expect(start).to_be_visible()

        tables = [self.open(host.get_by_role("link", name=f"Table {n} scorekeeping link")
                            .get_attribute("href")) for n in (1, 2)]
        tv = self.open(host.get_by_role("link", name="TV screen").get_attribute("href"),
                       {"width": 1920, "height": 1080})
        me = self.open(host.get_by_role("link", name="Find-my-seat page").get_attribute("href"))
        me.get_by_role("button", name="Ava").click()
        expect(me.locator("[data-testid=where]")).to_contain_text("You are at table")

        start.click()
        for page in [*tables, tv, me, host]:
            expect(page.locator("#banner .headline")).to_have_text("Round 1")
        self.tap(tables[1], "2 hits")
        expect(tv.locator("#table-2 .score").first).to_have_text("2")
        self.tap(tables[0], "BUNCO!")
        for page in [*tables, tv, me, host]:
            expect(page.locator("#banner")).to_contain_text(re.compile("Bell!|Round 1 over"))
        me.locator(".how-we-play summary").click()
        expect(me.locator(".how-we-play")).to_contain_text("Tonight's prizes")

        # "End the night" still asks first, from a script file now: dismissed, nothing ends.
        asked = []
        host.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
        host.get_by_role("button", name="End the night").click()
        host.evaluate("1")  # answered once the page's question is (a confirm holds the page)
        # It says how much of the night would go unplayed (two sets: round 1 played, or in play).
        assert len(asked) == 1 and re.fullmatch(
            r"End the night now\? (11|12) rounds are still to play; a round in play will not "
            r"count\.", asked[0]), asked
        expect(host.get_by_role("button", name="End the night")).to_be_visible()
        self.assert_no_violations([host, *tables, tv, me])
