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

from bunco import views
from bunco.asgi import application
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
    assert first < settings.PUSH_WAIT + 0.5  # the one push waited for, at most PUSH_WAIT
    assert all(took < 0.5 for took in later), later  # not waited for while it is out
    # /healthz says the layer failed: waited for as a push is, then at once while still out
    assert [(s, said) for s, said, _ in health] == [(503, "failed: TimeoutError")] * 2
    assert health[0][2] < settings.PUSH_WAIT + 0.5 and health[1][2] < 0.5, health
    assert ScoreEvent.objects.filter(night=seated_night, kind="roll").count() == 4
