"""A tap posted to the server (the page's way while its socket is closed) runs a tap's share of
the middleware (``settings.MIDDLEWARE_NOT_FOR_TAPS`` skipped, bunco/runtime/handler.py): its
answer carries every header a page's does, and the CSRF check still refuses a post without
its token, nothing written. Everything else runs all of it in the same one trip, a static
file read whole there."""

import json
import uuid
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from channels.testing import HttpCommunicator
from django.conf import settings

from bunco.asgi import application
from bunco.models import ScoreEvent
from bunco.night.cache import live_state
from bunco.night.services import claim_for
from tests.asgi_http import asgi_request
from tests.tables.test_consumers import HOST, ORIGIN, make_night

pytestmark = pytest.mark.django_db(transaction=True)
CSRF = "x" * 32


def tap_fields(night) -> dict:
    claim = claim_for(live_state(night), 1)
    return {"key": str(uuid.uuid4()), "set": str(claim.set_number),
            "round": str(claim.round_number), "table": "1", "pos": str(claim.position),
            "quick": "miss"}


async def post(token: str, fields: dict, csrf: bool = True) -> dict:
    body = "&".join(f"{k}={v}" for k, v in fields.items()).encode()
    headers = [ORIGIN, HOST, (b"content-type", b"application/x-www-form-urlencoded"),
               (b"cookie", f"csrftoken={CSRF}".encode())]
    if csrf:
        headers.append((b"x-csrftoken", CSRF.encode()))
    return await HttpCommunicator(application, "POST", f"/t/{token}/roll/", body=body,
                                  headers=headers).get_response()


def names(headers) -> set[str]:
    return {name.decode().lower() for name, _ in headers}


def rows(night) -> int:
    return ScoreEvent.objects.filter(night=night).count()


async def test_a_posted_tap_is_recorded_once_with_every_header_a_page_gets(client):
    night, links, _ = await database_sync_to_async(make_night)()
    fields = await database_sync_to_async(tap_fields)(night)
    before = await database_sync_to_async(rows)(night)
    answer = await post(links[1], fields)
    assert answer["status"] == 200, answer["body"][:300]
    assert json.loads(answer["body"])["recorded"]
    assert await database_sync_to_async(rows)(night) == before + 1
    # The same tap again, through all of the middleware (Django's test client): already
    # recorded, nothing written, and not one header more than the server's own answer had.
    again = await database_sync_to_async(client.post)(
        f"/t/{links[1]}/roll/", fields, HTTP_X_CSRFTOKEN=CSRF, HTTP_ORIGIN="http://localhost",
        HTTP_HOST="localhost")
    assert again.status_code == 200
    assert await database_sync_to_async(rows)(night) == before + 1
    full = {name.lower() for name in again.headers}
    assert names(answer["headers"]) == full
    assert {"content-security-policy", "x-frame-options", "x-content-type-options",
            "referrer-policy"} <= full
    assert set(settings.MIDDLEWARE_NOT_FOR_TAPS) < set(settings.MIDDLEWARE)


async def test_a_posted_tap_without_its_csrf_token_is_refused_and_changes_nothing():
    night, links, _ = await database_sync_to_async(make_night)()
    fields = await database_sync_to_async(tap_fields)(night)
    before = await database_sync_to_async(rows)(night)
    answer = await post(links[1], fields, csrf=False)
    assert answer["status"] == 403
    assert await database_sync_to_async(rows)(night) == before
    assert (await post(links[1], fields))["status"] == 200  # with it, the same tap counts
    assert await database_sync_to_async(rows)(night) == before + 1


async def test_a_static_file_through_the_server_comes_whole():
    status, body = await asgi_request(application, "GET", "/static/bunco/live.js")
    assert status == 200
    assert body == (Path(settings.STATIC_ROOT) / "bunco" / "live.js").read_bytes()
    assert len(body) > 1000
