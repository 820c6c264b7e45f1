"""A shared channel layer that stops answering (Redis frozen, not down: its socket open, no
reply) holds no tap's answer and no other request: the push after a save waits
``settings.PUSH_WAIT`` at most, once, and later taps' pushes are not waited for while it is
still out; ``/healthz`` says the layer failed, as soon. Through the server's
own ASGI application (tests/scale/test_faults.py freezes a real Redis under two workers)."""

import asyncio
import json
import time
from urllib.parse import urlencode

import pytest
from asgiref.sync import async_to_sync
from django.conf import settings
from django.test import override_settings

from bunco import shared_counts, views
from bunco.asgi import application
from bunco.live import groups
from bunco.models import ScoreEvent, TableLink
from bunco.night import services
from bunco.runtime import pushes
from tests.asgi_http import asgi_request

pytestmark = pytest.mark.django_db(transaction=True)
CSRF = "k" * 32


class FrozenLayer:
    """A channel layer whose server takes every command and never answers."""

    async def _never(self, *args, **kwargs):
        await asyncio.sleep(3600)

    group_send = send = receive = new_channel = group_add = group_discard = _never


@pytest.fixture
def frozen(monkeypatch):
    layer = FrozenLayer()
    monkeypatch.setattr(pushes, "get_channel_layer", lambda: layer)
    monkeypatch.setattr(views, "get_channel_layer", lambda: layer)
    # Several workers share the layer: every screen's group may be watched on another.
    monkeypatch.setattr(groups, "watching", lambda group: True)
    yield layer
    pushes._stalled.clear()


def tap(token: str, pos: int) -> tuple[str, bytes, list]:
    body = urlencode({"set": 1, "round": 1, "table": 1, "pos": pos, "quick": "miss"}).encode()
    headers = [(b"host", b"127.0.0.1"), (b"content-type", b"application/x-www-form-urlencoded"),
               (b"cookie", f"csrftoken={CSRF}".encode()), (b"x-csrftoken", CSRF.encode()),
               (b"content-length", str(len(body)).encode())]
    return f"/t/{token}/roll/", body, headers


def test_a_frozen_layer_holds_no_taps_answer_and_healthz_answers(seated_night, frozen):
    services.round_start(night=seated_night)
    token = TableLink.objects.get(night=seated_night, number=1).token

    async def play():
        answers = []
        for pos in range(4):
            path, body, headers = tap(token, pos)
            start = time.monotonic()
            status, answer = await asgi_request(application, "POST", path, body,
                                                headers=headers, timeout=30)
            answers.append((status, json.loads(answer), time.monotonic() - start))
        health = []
        for _ in range(2):
            start = time.monotonic()
            status, answer = await asgi_request(application, "GET", "/healthz", timeout=30)
            health.append((status, json.loads(answer)["channel_layer"],
                           time.monotonic() - start))
        return answers, health

    answers, health = async_to_sync(play)()
    assert [(s, a["ok"]) for s, a, _ in answers] == [(200, True)] * 4
    first, *later = [took for _, _, took in answers]
    # the one push waited for, at most PUSH_WAIT (the first request also warms the process up)
    assert settings.PUSH_WAIT <= first < settings.PUSH_WAIT + 1
    assert all(took < 0.5 for took in later), later  # not waited for while it is out
    # /healthz says the layer failed: waited for as a push is, then at once while still out
    assert [(s, said) for s, said, _ in health] == [(503, "failed: TimeoutError")] * 2
    assert health[0][2] < settings.PUSH_WAIT + 0.5 and health[1][2] < 0.5, health
    assert ScoreEvent.objects.filter(night=seated_night, kind="roll").count() == 4


class FrozenLimits:
    """The shared limits' Redis client when Redis is frozen: every call ends in the client's
    timeout (raised at once here)."""

    def __init__(self) -> None:
        self.asked = 0

    def pipeline(self, transaction=False):
        self.asked += 1
        raise TimeoutError("Timeout reading from socket")


def test_a_tap_waits_on_a_frozen_redis_once_not_for_the_limits_and_the_push(
        seated_night, frozen, monkeypatch):
    """The shared limits found Redis frozen: the tap's push is not waited for too (a PUSH_WAIT
    of 30 s would show), and while that push is out the limits do not ask Redis again, even
    once their rest is over."""
    shared = shared_counts.Shared()
    shared._client, shared._made = FrozenLimits(), True
    monkeypatch.setattr(shared_counts, "SHARED", shared)
    services.round_start(night=seated_night)
    token = TableLink.objects.get(night=seated_night, number=1).token

    async def send(pos: int) -> float:
        path, body, headers = tap(token, pos)
        start = time.monotonic()
        status, answer = await asgi_request(application, "POST", path, body,
                                            headers=headers, timeout=60)
        assert (status, json.loads(answer)["ok"]) == (200, True)
        return time.monotonic() - start

    async def play():
        first = await send(0)
        seen = (shared._client.asked, pushes.stalled())
        shared._down_until = 0.0  # the limits' rest over: the push is still out
        return first, seen, await send(1)

    # A Redis to share counts in (frozen), and a push waited for would show.
    with override_settings(PUSH_WAIT=30, REDIS_URL="redis://frozen.invalid"):
        first, seen, later = async_to_sync(play)()
    assert first < 10 and seen == (1, True)
    assert later < 10 and shared._client.asked == 1
    assert ScoreEvent.objects.filter(night=seated_night, kind="roll").count() == 2
