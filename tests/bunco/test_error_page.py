"""A page that fails shows the error page in words, never a traceback; and when the error page's
own parts fail too (its static files missing), a plain one still says what to do."""

import sqlite3

import pytest
from django.templatetags.static import StaticNode
from django.test import Client

from bunco.host.auth import host_secret
from bunco.laptop import disk
from bunco.live import screens
from bunco.night import services
from scoring import sample_names


@pytest.fixture
def host(db):
    client = Client(raise_request_exception=False)
    client.get(f"/host/{host_secret()}/")
    night = services.night_create(name="Oops", rules_id="babz", player_names=sample_names(8))
    return client, night


def broken(*args, **kwargs):
    raise RuntimeError("a bug")


def test_a_failing_page_says_so_in_words(host, monkeypatch):
    client, night = host
    monkeypatch.setattr(screens, "host_board", broken)
    page = client.get(f"/host/nights/{night.pk}/")
    assert page.status_code == 500
    text = page.content.decode()
    assert "Something went wrong" in text and "Traceback" not in text and "a bug" not in text


def test_the_error_page_stands_even_when_its_own_files_are_missing(host, monkeypatch):
    client, night = host
    monkeypatch.setattr(screens, "host_board", broken)
    monkeypatch.setattr(StaticNode, "handle_simple", classmethod(broken))
    page = client.get(f"/host/nights/{night.pk}/")
    assert page.status_code == 500
    assert "Something went wrong" in page.content.decode()


def test_a_full_disk_is_said_and_answered_503(host, monkeypatch):
    client, night = host

    def full(*args, **kwargs):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(screens, "host_board", full)
    try:
        page = client.get(f"/host/nights/{night.pk}/")
        assert page.status_code == 503
        assert "Traceback" not in page.content.decode()
        assert disk.data_trouble() is not None
    finally:
        disk.data_saved()
