"""Accessible in a real Chromium: axe-core (vendored in tests/e2e/vendor, never from a CDN) finds
no serious or critical violation on the host's pages, a guest's phone, a table's device and the
TV, with a demo night's round in play."""

import re
from pathlib import Path

from playwright.sync_api import expect

from bunco.models import Night, TableLink

from .base import HOST_SECRET, BrowserTestCase, caught_up
from .qr import read_qr

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
PHONE = {"width": 360, "height": 740}
LAPTOP = {"width": 1440, "height": 900}
TV = {"width": 1920, "height": 1080}
BLOCKING = {"serious", "critical"}


def axe_violations(page):
    """axe-core's serious and critical violations on the page as it stands."""
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ['violations']});
        return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 5).map(n => ({target: n.target.join(' '),
                                                  summary: n.failureSummary}))}));
    }""")
    return [v for v in result if v["impact"] in BLOCKING]


def report(where, violations):
    lines = [f"{where}: {len(violations)} serious or critical axe-core violation(s)"]
    for v in violations:
        lines.append(f"  {v['id']} ({v['impact']}): {v['help']}")
        for node in v["nodes"]:
            lines.append(f"    {node['target']}")
            lines.append("      " + (node["summary"] or "").replace("\n", "\n      "))
    return "\n".join(lines)


class AccessibleEverywhere(BrowserTestCase):

    def test_no_serious_or_critical_axe_violations_on_any_face(self):
        found = {}

        def check(where, page):
            page.wait_for_load_state("load")
            if page.evaluate("!!document.querySelector('[ws-connect]')"):
                caught_up(page)  # the live socket's first update, swapped in
            violations = axe_violations(page)
            if violations:
                found[where] = violations

        host = self.browser.new_context(viewport=LAPTOP).new_page()
        host.goto(f"{self.live_server_url}/host/{HOST_SECRET}/")
        check("host dashboard", host)
        host.get_by_role("button", name="Try a demo night").click()
        bell = host.get_by_role("button", name=re.compile("start set 1, round 1"))
        expect(bell).to_be_visible()
        join_url = read_qr(host.get_by_test_id("join-card").locator("img"))
        tv_url = read_qr(host.get_by_test_id("tv-card").locator("img"))
        bell.click()
        expect(host.locator("#banner .headline")).to_have_text("Round 1")
        check("host night page", host)

        phone = self.browser.new_context(viewport=PHONE, has_touch=True).new_page()
        phone.goto(join_url)
        check("find your seat", phone)
        phone.get_by_role("button", name="Ava").click()
        expect(phone.locator("[data-testid=where]")).to_contain_text("You are at table")
        check("player's phone", phone)

        night = Night.objects.get(name="Demo night")
        link = TableLink.objects.get(night=night, number=1)
        device = self.browser.new_context(viewport=PHONE, has_touch=True).new_page()
        device.goto(f"{self.live_server_url}/t/{link.token}/")
        expect(device.locator("#banner .headline")).to_have_text("Round 1")
        check("table device", device)
        # A roll scored at the table: the scores, the turn and the undo show everywhere.
        device.locator(".pad .quick button", has_text="1 hit").click()
        expect(device.locator("#table-1 .score").first).to_have_text("1")
        device.wait_for_function("!document.body.classList.contains('pending')")
        check("table device after a roll", device)
        check("player's phone after a roll", phone)
        check("host night page after a roll", host)

        tv = self.browser.new_context(viewport=TV).new_page()
        tv.goto(tv_url)
        expect(tv.locator("#banner .headline")).to_have_text("Round 1")
        check("TV", tv)

        assert not found, "\n\n".join(report(where, v) for where, v in found.items())
