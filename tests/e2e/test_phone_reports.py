"""A phone tells the server how its connection fares without a message on a timer: its sync at
every connect, one ping 3 s after it, then a ping only when its taps' round trip is news (a slow
one, at most every 30 s, or the first fast one after). A quiet room sends the server nothing."""

import json

from bunco.models import TableLink
from bunco.night import services

from .base import BrowserTestCase, caught_up, in_thread, pump_until


def net_pings(sent: list) -> list:
    """The pings that tell the server how the phone's connection fares (not the test's own)."""
    return [m for m in sent if m["type"] == "ping" and "net" in m]


PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}


class PhoneReports(BrowserTestCase):

    def test_a_phone_reports_its_connection_only_when_it_is_news(self):
        night = in_thread(services.demo_night_create)
        in_thread(lambda: services.round_start(night=night))
        token = in_thread(lambda: TableLink.objects.get(night=night, number=1).token)
        page = self.browser.new_context(**PHONE).new_page()
        sent = []
        page.on("websocket", lambda ws: ws.on(
            "framesent", lambda payload: sent.append(json.loads(payload))
            if isinstance(payload, str) and payload.startswith("{") else None))
        page.goto(f"{self.live_server_url}/t/{token}/")
        page.wait_for_function("window.bunco && window.bunco.open")
        pump_until(page, lambda: any(m["type"] == "ping" for m in sent), "the probe")
        pings = [m for m in sent if m["type"] == "ping"]
        assert len(pings) == 1 and "net" in pings[0]  # the probe after connecting
        assert any(m["type"] == "sync" and "net" in m for m in sent)

        page.locator(".pad .quick button", has_text="Miss").first.click()
        page.wait_for_function("!document.body.classList.contains('pending')")
        caught_up(page)  # the tap's answer in: what it had the page say is sent by now
        assert net_pings(sent) == pings  # a fast tap is no news

        page.evaluate("bunco.roundTrip(1500)")  # a tap's answer took 1.5 s
        page.evaluate("bunco.roundTrip(1700)")  # and the next: told already
        page.evaluate("bunco.roundTrip(40)")  # fast again: news
        page.evaluate("bunco.roundTrip(30)")
        caught_up(page)  # what those had the page say is sent by now
        told = [m["net"]["rtt"] for m in net_pings(sent)][1:]
        assert told == [1500, 40]
        page.context.close()
