"""Two real Daphne workers on one PostgreSQL database and one Redis: a screen may be connected
to either, and every tap, wherever it lands, reaches every screen."""

from __future__ import annotations

import asyncio
import time
import uuid

import httpx
from websockets.asyncio.client import connect

from bunco.models import TableLink
from bunco.night import services
from bunco.night.cache import live_state
from tests.scale.conftest import start_both

# channels_redis waits for a screen's messages with blocking reads of 5 s: a TV idle for
# longer must stay connected (a client timeout as short as the read closed it with 1011).
IDLE_SECONDS = 7


def test_a_tap_on_one_worker_reaches_a_tv_on_the_other(tmp_path, shared_stack):
    night = services.demo_night_create()
    services.round_start(night=night)
    claim = services.claim_for(live_state(night), 1)
    table = TableLink.objects.get(night=night, number=1).token
    a, b = start_both(tmp_path, shared_stack)
    try:
        async def scenario():
            host = b.base.split("//")[1]
            async with connect(f"ws://{host}/ws/tv/{night.tv_token}/", origin=b.base,
                               compression=None, proxy=None) as tv:
                first = await asyncio.wait_for(tv.recv(), 10)
                assert 'id="banner"' in first or 'id="table-1"' in first
                await asyncio.sleep(IDLE_SECONDS)  # quiet, as between two rolls
                # The tap: the table's page and its form post, on the other worker.
                async with httpx.AsyncClient(base_url=a.base, trust_env=False,
                                             timeout=10) as phone:
                    assert (await phone.get(f"/t/{table}/")).status_code == 200
                    sent = time.monotonic()
                    answer = await phone.post(
                        f"/t/{table}/roll/",
                        data={"key": str(uuid.uuid4()), "set": claim.set_number,
                              "round": claim.round_number, "table": 1,
                              "pos": claim.position, "quick": "hit1"},
                        headers={"X-CSRFToken": phone.cookies["csrftoken"]})
                assert answer.status_code == 200, answer.text
                seq = answer.json()["recorded"]
                while True:
                    message = await asyncio.wait_for(tv.recv(), 10)
                    if 'id="table-1"' in message and f'<li data-seq="{seq}"' in message:
                        return time.monotonic() - sent

        took = asyncio.run(scenario())
        print(f"\ntap posted to worker A shown on worker B's TV {took * 1000:.0f} ms after "
              f"it was sent (the TV idle for {IDLE_SECONDS} s before)")
    finally:
        a.stop()
        b.stop()
    for server in (a, b):
        assert not [p for p in server.problems() if "Traceback" in p], server.problems()


def test_a_host_signed_in_on_one_worker_is_the_host_on_the_other(tmp_path, shared_stack):
    a, b = start_both(tmp_path, shared_stack)
    try:
        with httpx.Client(trust_env=False, timeout=10) as browser:
            signed_in = browser.get(f"{a.base}/host/{shared_stack['BUNCO_HOST_SECRET']}/",
                                    follow_redirects=True)
            assert signed_in.status_code == 200
            dashboard = browser.get(f"{b.base}/host/")
            assert dashboard.status_code == 200
            assert "Try a demo night" in dashboard.text
            assert browser.get(f"{b.base}/healthz").json()["ok"] is True
    finally:
        a.stop()
        b.stop()
