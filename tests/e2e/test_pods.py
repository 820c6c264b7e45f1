"""Pods in real browsers: the host splits a 24-player room into pods of three tables in the
house rules; a bunco at table 4, the second pod's head table, rings the bell at tables 4 to 6
only (their phones say what is left, table 2 plays on); the TV names each table's pod; the
host's bell then ends the round everywhere."""

import re
from pathlib import Path

from playwright.sync_api import expect

from bunco.models import TableLink
from bunco.night import services
from scoring import sample_names

from .base import HOST_SECRET, BrowserTestCase, in_thread, tap_like_a_person

PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
ARTIFACTS = Path("test-artifacts")


class Pods(BrowserTestCase):

    def open(self, path, **device):
        page = self.browser.new_context(**device).new_page()
        page.add_init_script(
            "document.addEventListener('htmx:wsOpen', function () { window.wsOpen = true; })")
        page.goto(self.live_server_url + path)
        return page

    def test_a_pods_head_table_rings_its_own_pod_and_the_host_rings_the_room(self):
        night = in_thread(lambda: services.night_create(
            name="Charity night", rules_id="clockwise", player_names=sample_names(24)))
        host = self.open(f"/host/{HOST_SECRET}/", viewport={"width": 1280, "height": 900})
        host.goto(f"{self.live_server_url}/host/nights/{night.pk}/rules/")
        pods = host.locator("input[name=pod_tables]")
        expect(pods).to_have_value("0")
        pods.fill("1")  # a pod of one table is refused, nothing saved
        host.get_by_role("button", name="Save the house rules").click()
        expect(host.locator("body")).to_contain_text("a pod has at least 2 tables")
        host.locator("input[name=pod_tables]").fill("3")
        host.get_by_role("button", name="Save the house rules").click()
        host.goto(f"{self.live_server_url}/host/nights/{night.pk}/")
        host.get_by_role("button", name="Seat everyone").click()
        host.get_by_role("button", name=re.compile("Ring the bell: start")).click()
        expect(host.locator("#banner .headline")).to_have_text("Round 1")

        links = {link.number: link.token for link in TableLink.objects.filter(night=night)}
        phones = {n: self.open(f"/t/{links[n]}/", **PHONE) for n in (2, 4, 5)}
        tv = self.open(f"/tv/{night.tv_token}/", viewport={"width": 1920, "height": 1080})
        for page in [*phones.values(), tv]:
            page.wait_for_function("window.wsOpen === true")
        expect(phones[4].locator("#table-4 h2")).to_contain_text("pod 2 · head table")
        expect(phones[5].locator("#table-5 h2")).to_contain_text("pod 2")
        expect(tv.locator("#table-1 h2")).to_contain_text("pod 1 · head table")

        # Table 4 heads pod 2: its bunco (21 points) rings the bell for tables 4, 5 and 6.
        tap_like_a_person(phones[4], phones[4].locator(".pad .quick button", has_text="BUNCO!"))
        for number in (4, 5):
            expect(phones[number].get_by_test_id("bell-duty")).to_be_visible()
            expect(phones[number].locator("body")).to_have_attribute("data-rang", "pod:1-1")
        expect(tv.locator("#table-6").get_by_test_id("bell-duty")).to_be_visible()  # 6 fit
        # Pod 1 plays on: nothing rang at table 2, and the room's banner has no bell.
        expect(phones[2].get_by_test_id("bell-duty")).to_have_count(0)
        expect(phones[2].locator("#banner.bell")).to_have_count(0)
        expect(tv.locator("#table-1").get_by_test_id("bell-duty")).to_have_count(0)
        ARTIFACTS.mkdir(exist_ok=True)
        phones[5].screenshot(path=str(ARTIFACTS / "phone-pod-bell.png"))
        tv.screenshot(path=str(ARTIFACTS / "tv-pods.png"))

        # The host's bell (the horn) ends the round everywhere.
        host.get_by_role("button", name=re.compile("Ring the bell now")).click()
        for page in [*phones.values(), tv]:
            expect(page.locator("#banner.bell")).to_be_visible()
        expect(phones[2].get_by_test_id("bell-duty")).to_be_visible()
