"""The health check a proxy or a supervisor asks: cheap, no sign-in, never cached, and a 503
naming the part that failed (the database, or the channel layer that carries every push)."""

import pytest
from django.db import connection

from bunco import views


@pytest.mark.django_db
def test_a_healthy_worker_says_so_without_a_sign_in_or_a_cookie(client):
    answer = client.get("/healthz")
    assert answer.status_code == 200
    body = answer.json()
    assert body["ok"] is True
    assert body["database"].startswith("ok") and body["channel_layer"].startswith("ok")
    assert "no-store" in answer["Cache-Control"]
    assert not answer.cookies  # no session, no CSRF cookie: nothing kept per probe


@pytest.mark.django_db
def test_a_worker_whose_database_is_gone_answers_503(client, monkeypatch):
    def broken():
        raise connection.Database.OperationalError("connection refused")

    monkeypatch.setattr(views, "_database", broken)
    answer = client.get("/healthz")
    assert answer.status_code == 503
    assert answer.json()["database"] == "failed: OperationalError"
    assert answer.json()["channel_layer"].startswith("ok")


@pytest.mark.django_db
def test_a_worker_whose_channel_layer_is_gone_answers_503(client, monkeypatch):
    async def broken():
        raise ConnectionError("redis went away")

    monkeypatch.setattr(views, "_layer_round_trip", broken)
    answer = client.get("/healthz")
    assert answer.status_code == 503
    body = answer.json()
    body.pop("data_folder", None)  # SQLite's: its own test
    assert body == {"ok": False, "database": body["database"],
                    "channel_layer": "failed: ConnectionError"}


@pytest.mark.django_db
def test_behind_a_tls_proxy_the_health_check_answers_plain_http(client, settings):
    """Pages are redirected to HTTPS, but a probe on the worker's own port is answered."""
    settings.SECURE_SSL_REDIRECT = True
    assert client.get("/").status_code == 301
    assert client.get("/healthz").status_code == 200
    assert client.post("/healthz").status_code == 405
