"""Calling the host in a real Chromium over real websockets: a table's phone and a guest's
phone call the host over; the host's page shows each call at once (which table, when, from
which phone), pressing twice is one call, a reload keeps it, and "On my way" / "Dismiss" go
back to the table's phones."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect, sync_playwright

from bunco.live.screens import ANSWER_SHOWN
from bunco.models import HostCall, TableLink
from bunco.night import services
from bunco.night.cache import live_state

from .base import HOST_SECRET, BrowserTestCase, caught_up, in_thread
from .conftest import launch
from .test_server_restart import served  # noqa: F401  (the real server, killed and restarted)

PHONE = {"width": 360, "height": 740}
LAPTOP = {"width": 1280, "height": 900}


class CallTheHost(BrowserTestCase):

    def open(self, url, viewport=PHONE, live=True):
        page = self.browser.new_context(viewport=viewport).new_page()
        page.goto(url)
        if live:
            page.wait_for_function("window.bunco && window.bunco.open")
        return page

    def test_a_table_calls_the_host_and_hears_back(self):
        night = in_thread(services.demo_night_create)
        url = self.live_server_url
        token = TableLink.objects.get(night=night, number=2).token
        host = self.browser.new_context(viewport=LAPTOP).new_page()
        host.goto(f"{url}/host/{HOST_SECRET}/")
        host.goto(f"{url}/host/nights/{night.pk}/")
        host.wait_for_function("window.bunco && window.bunco.open")
        calls = host.get_by_test_id("host-call")
        expect(host.locator("#host-calls")).to_be_hidden()

        table2 = self.open(f"{url}/t/{token}/")
        button = table2.get_by_test_id("call-host")
        expect(button).to_have_text("Call the host")
        button.dblclick()  # pressed twice: one call
        expect(table2.get_by_test_id("call-status")).to_contain_text("waiting for them")
        expect(button).to_be_disabled()
        expect(host.locator("#host-calls")).to_be_visible()  # no reload: over the websocket
        expect(calls).to_have_count(1)
        expect(calls.first).to_contain_text("Table 2 asks you to come over")
        expect(calls.first).to_contain_text("from table 2's phone")
        caught_up(table2)  # the second press answered: any push of it is out
        caught_up(host)
        expect(calls).to_have_count(1)
        assert HostCall.objects.count() == 1

        # A reload of either page still shows the call: it is kept, not only pushed.
        host.reload()
        expect(calls).to_have_count(1)
        table2.reload()
        expect(table2.get_by_test_id("call-status")).to_contain_text("waiting for them")

        # A guest's own phone calls for the table its owner sits at.
        guest = live_state(night).tables[2].seats[0].name  # at table 3
        me = self.open(f"{url}/j/{night.join_token}/", live=False)
        me.get_by_role("button", name=guest).click()
        me.wait_for_function("window.bunco && window.bunco.open")
        me.get_by_test_id("call-host").click()
        expect(me.get_by_test_id("call-status")).to_contain_text("waiting for them")
        expect(calls).to_have_count(2)
        expect(calls.nth(1)).to_contain_text("Table 3 asks you to come over")
        expect(calls.nth(1)).to_contain_text(f"from {guest}'s phone")

        # The host answers: the table's phone hears it, the call leaves the host's list.
        calls.filter(has_text="Table 2").get_by_role("button", name="On my way").click()
        expect(table2.get_by_test_id("call-status")).to_contain_text("The host is on the way")
        expect(table2.get_by_test_id("call-host")).to_be_enabled()
        expect(calls.filter(has_text="Table 2")).to_have_count(0)
        calls.first.get_by_role("button", name="Dismiss").click()
        expect(me.get_by_test_id("call-status")).to_contain_text("The host saw your call")
        expect(host.locator("#host-calls")).to_be_hidden()

        # The answer holds for a while, then clears by itself on a phone that stays open.
        answered = HostCall.objects.filter(night=night, table=2).latest("id")
        answered.answered_at = timezone.now() - ANSWER_SHOWN + timedelta(seconds=3)
        answered.save(update_fields=["answered_at"])
        table2.reload()
        expect(table2.get_by_test_id("call-status")).to_be_visible()
        expect(table2.get_by_test_id("call-status")).to_be_hidden(timeout=8000)
        expect(table2.get_by_test_id("call-host")).to_be_visible()


COUNT_OPENS = """
window.opens = 0;
document.addEventListener('htmx:wsOpen', function () { window.opens += 1; });
"""


@pytest.mark.browser
def test_a_call_waits_through_a_restart_of_the_server(served):  # noqa: F811
    """The real server killed while a call waits: once it is back, the host's page and the
    table's phone, reconnected by themselves, still show the call, and answering it works."""
    server, night, env = served
    with sync_playwright() as pw:
        browser = launch(pw)
        host = browser.new_context(viewport=LAPTOP).new_page()
        host.add_init_script(COUNT_OPENS)
        host.goto(f"{server.base}/host/{env['BUNCO_HOST_SECRET']}/")
        host.goto(f"{server.base}/host/nights/{night['night']}/")
        table1 = browser.new_context(viewport=PHONE).new_page()
        table1.add_init_script(COUNT_OPENS)
        table1.goto(f"{server.base}/t/{night['tables']['1']}/")
        for page in (host, table1):
            page.wait_for_function("window.opens >= 1")
        table1.get_by_test_id("call-host").click()
        expect(host.get_by_test_id("host-call")).to_have_count(1)

        server.proc.kill()
        server.proc.wait(timeout=10)
        server.start(port=server.port)
        for page in (host, table1):
            page.wait_for_function("window.opens >= 2", timeout=10000)
        expect(host.get_by_test_id("host-call")).to_contain_text("Table 1 asks you to come over")
        expect(table1.get_by_test_id("call-status")).to_contain_text("waiting for them")
        host.get_by_role("button", name="On my way").click()
        expect(table1.get_by_test_id("call-status")).to_contain_text("The host is on the way")
        browser.close()
    assert server.problems() == []
