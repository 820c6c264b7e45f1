"""Who may do what: the host link and its sessions, tokens, allowed hosts, the admin."""

import os
import subprocess
import sys
import time

import pytest
from django.contrib.auth.models import User

from bunco.host import auth
from bunco.models import Night, ScoreEvent, new_token
from bunco.night import services


@pytest.fixture
def host_client(client, db, settings, tmp_path, monkeypatch):
    settings.DATA_DIR = tmp_path  # this test's own host link: other tests keep theirs
    monkeypatch.delenv("BUNCO_HOST_SECRET", raising=False)
    client.get(f"/host/{auth.host_secret()}/")
    return client


def test_the_host_signs_out_and_the_browser_is_no_longer_the_host(host_client):
    assert host_client.get("/host/").status_code == 200
    response = host_client.post("/host/logout/")
    assert "Signed out" in response.content.decode()
    assert host_client.get("/host/").status_code == 403
    assert host_client.post("/host/demo/").status_code == 403
    assert not Night.objects.exists()


def test_a_new_host_link_shuts_out_the_old_link_and_its_browsers(host_client, client_factory):
    old = auth.host_secret()
    other = client_factory()
    other.get(f"/host/{old}/")  # a second browser signed in with the old link
    assert other.get("/host/").status_code == 200

    response = host_client.post("/host/new-link/", follow=True)
    new = auth.host_secret()
    assert new != old and len(new) >= 32
    assert f"/host/{new}/" in response.content.decode()  # shown to the host once
    assert host_client.get("/host/").status_code == 200  # this browser stays the host
    assert other.get("/host/").status_code == 403  # the other is shut out
    assert client_factory().get(f"/host/{old}/").status_code == 403  # the old link is dead
    assert client_factory().get(f"/host/{new}/", follow=True).status_code == 200


def test_a_host_away_for_half_a_day_signs_in_again(host_client, monkeypatch):
    assert host_client.get("/host/").status_code == 200
    later = time.time() + auth.HOST_IDLE_SECONDS + 1
    monkeypatch.setattr(auth.time, "time", lambda: later)
    assert host_client.get("/host/").status_code == 403


def test_a_busy_host_stays_signed_in(host_client, monkeypatch):
    start = time.time()
    for hours in range(0, 30, 6):  # a click every six hours keeps the host in
        monkeypatch.setattr(auth.time, "time", lambda h=hours: start + h * 3600)
        assert host_client.get("/host/").status_code == 200


@pytest.fixture
def client_factory():
    from django.test import Client

    return Client


def test_links_carry_at_least_128_random_bits():
    assert len(new_token()) >= 22  # 16 bytes, URL-safe base64
    assert len({new_token() for _ in range(1000)}) == 1000


def test_a_wildcard_in_allowed_hosts_is_refused_with_a_message():
    env = {**os.environ, "BUNCO_ALLOWED_HOSTS": "*"}
    result = subprocess.run([sys.executable, "manage.py", "check"], env=env,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode != 0
    assert "BUNCO_ALLOWED_HOSTS cannot contain '*'" in result.stderr


def test_the_admin_shows_a_live_night_but_cannot_change_it(client, seated_night):
    services.round_start(night=seated_night)
    User.objects.create_superuser("admin", "a@example.org", "pw")
    client.login(username="admin", password="pw")
    page = client.get(f"/admin/bunco/night/{seated_night.pk}/change/")
    assert page.status_code == 200 and seated_night.name in page.content.decode()
    seq = Night.objects.get(pk=seated_night.pk).last_seq
    client.post(f"/admin/bunco/night/{seated_night.pk}/change/",
                {"name": "Renamed", "last_seq": 0, "status": "setup"})
    night = Night.objects.get(pk=seated_night.pk)
    assert (night.name, night.last_seq) == ("Test night", seq)
    event = ScoreEvent.objects.filter(night=night).last()
    assert client.get(f"/admin/bunco/scoreevent/{event.pk}/change/").status_code == 200
    client.post(f"/admin/bunco/scoreevent/{event.pk}/delete/", {"post": "yes"})
    assert ScoreEvent.objects.filter(pk=event.pk).exists()
    assert client.get("/admin/bunco/scoreevent/add/").status_code == 403
