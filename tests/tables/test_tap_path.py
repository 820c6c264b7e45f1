"""The road a tap travels, file by file: one tap over a table's websocket and one as a form
post, run under a profiler, from the face's consumer or view to the last frame written to the
table's screens and the TV. The files it runs through are listed here, so the road cannot grow
quietly: a new stop on it is a change to this list, made on purpose (docs/architecture.md)."""

import sys
import uuid
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from channels.testing import HttpCommunicator

from bunco.asgi import application
from bunco.live import groups
from bunco.night.cache import live_state
from bunco.night.services import claim_for
from tests.tables.test_consumers import HOST, ORIGIN, connect, make_night

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db(transaction=True)

#: Above the consumer and the view: the ASGI application and handler, the origin check and
#: Django's middleware, which run for every message and request whatever it is; and the
#: server's own timers (the collector's and the watch's), which tick whatever happens.
PLUMBING = {"bunco/asgi.py", "bunco/runtime/handler.py", "bunco/origin.py",
            "bunco/middleware.py", "bunco/inputs.py", "bunco/proxies.py", "bunco/stick.py",
            "bunco/laptop/roomcheck/__init__.py",
            "bunco/runtime/collector.py", "bunco/runtime/watch.py"}

#: Every stop of a tap's road, both ways in.
ROAD = {
    # the face: its consumer or view, the tap and its fields
    "tables/consumers.py", "tables/views.py", "tables/tap.py",
    # the core: the link's share, one command through the one runner, the log folded
    "bunco/limits.py", "bunco/night/services/table.py", "bunco/night/cache.py",
    "bunco/night/services/runner.py", "bunco/night/selectors.py", "bunco/night/fold.py",
    "bunco/night/events.py", "bunco/night/payloads.py", "bunco/night/versions.py",
    # what was written, handed to the layers above and beside (drawn and pushed, then copied)
    "bunco/night/hooks.py", "bunco/laptop/keeping.py",
    # the rules
    "scoring/round.py", "scoring/table.py", "scoring/table_spec.py", "scoring/roll.py",
    # what the table's screens show, drawn once, and whom it goes to
    "bunco/live/broadcast.py", "bunco/live/screens/table.py", "bunco/runtime/jinja.py",
    "bunco/live/groups.py",
    # how a push leaves: the push, the layer, the screens' consumers
    "bunco/runtime/pushes.py", "bunco/runtime/layer.py",
    "bunco/runtime/consumer.py", "bunco/live/consumers.py",
}


class Road:
    """The project's Python files run while it is open, in every thread it is opened in."""

    def __init__(self):
        self.files: set[str] = set()

    def profile(self, frame, event, arg):
        if event == "call":
            name = frame.f_code.co_filename
            if name.startswith(str(ROOT)) and name.endswith(".py"):
                relative = name[len(str(ROOT)) + 1:]
                if not relative.startswith((".venv/", "tests/")):
                    self.files.add(relative)

    async def __aenter__(self):
        await database_sync_to_async(sys.setprofile)(self.profile)  # the one sync thread
        sys.setprofile(self.profile)
        return self

    async def __aexit__(self, *exc):
        sys.setprofile(None)
        await database_sync_to_async(sys.setprofile)(None)

    @property
    def stops(self) -> set[str]:
        return self.files - PLUMBING


def tap_fields(night, table: int) -> dict:
    claim = claim_for(live_state(night), table)
    return {"key": str(uuid.uuid4()), "set": str(claim.set_number),
            "round": str(claim.round_number), "table": str(table),
            "pos": str(claim.position), "quick": "miss"}


async def tap_over_the_socket(table_ws, tv, night):
    fields = await database_sync_to_async(tap_fields)(night, 1)
    await table_ws.send_json_to({"type": "tap", "action": "roll", "fields": fields})
    got = [await table_ws.receive_from(), await table_ws.receive_from()]  # the answer, the push
    await tv.receive_from()  # the last frame: the TV's
    assert any('"recorded"' in text for text in got)


async def tap_as_a_form_post(token, table_ws, tv, night):
    fields = await database_sync_to_async(tap_fields)(night, 1)
    body = "&".join(f"{k}={v}" for k, v in fields.items()).encode()
    post = HttpCommunicator(application, "POST", f"/t/{token}/roll/", body=body, headers=[
        ORIGIN, HOST, (b"content-type", b"application/x-www-form-urlencoded"),
        (b"cookie", b"csrftoken=" + b"x" * 32), (b"x-csrftoken", b"x" * 32)])
    answer = await post.get_response()
    assert answer["status"] == 200, answer["body"][:300]
    await table_ws.receive_from()  # the table's push
    await tv.receive_from()


@pytest.mark.tuned("dispatch")  # stock, the consumer's own dispatch is off the road
async def test_a_taps_road_runs_through_the_files_listed_and_no_others():
    night, links, _ = await database_sync_to_async(make_night)()
    table_ws = await connect(f"/ws/table/{links[1]}/")
    tv = await connect(f"/ws/tv/{night.tv_token}/")
    await table_ws.receive_from()
    await tv.receive_from()
    await tap_over_the_socket(table_ws, tv, night)  # the first of each pays for its imports
    await tap_as_a_form_post(links[1], table_ws, tv, night)
    async with Road() as socket_road:
        await tap_over_the_socket(table_ws, tv, night)
    async with Road() as post_road:
        await tap_as_a_form_post(links[1], table_ws, tv, night)
    roads = {"socket": socket_road.stops, "form post": post_road.stops}
    print({way: len(stops) for way, stops in roads.items()})
    # With several workers the channel layer is Redis's (channels_redis), not the party's.
    road = ROAD - {"bunco/runtime/layer.py"} if groups.shared_layer() else ROAD
    for way, stops in roads.items():
        assert stops <= road, f"a tap by {way} runs through files off its road: {stops - road}"
    assert socket_road.stops | post_road.stops == road, road - socket_road.stops - post_road.stops
    for ws in (table_ws, tv):
        await ws.disconnect()
