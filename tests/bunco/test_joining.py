"""Joining from any phone on the Wi-Fi: every link and QR code is on the LAN address, the
start QR code leads to tonight's "find your seat", the TV opens with a short code."""

import io

import pytest
import segno
from django.test import override_settings

from bunco.host.auth import host_secret
from bunco.night import services

LAN = "192.168.1.23"

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("lan")]


@pytest.fixture
def lan():
    with override_settings(LAN_ADDRESS=LAN, PUBLIC_URL=""):
        yield


@pytest.fixture
def host_client(client):
    client.get(f"/host/{host_secret()}/")
    return client


def qr_svg(url: str) -> bytes:
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=4, border=2, dark="#1d1533",
                                    light="#ffffff", xmldecl=False)
    return out.getvalue()


def test_a_qr_code_encodes_the_lan_address_whatever_address_the_page_was_opened_at(client):
    """The host opened the app at localhost: the QR code still leads phones to the laptop's
    Wi-Fi address (and the port the app answers on)."""
    svg = client.get("/qr.svg", {"u": "/j/abc/"}, HTTP_HOST="localhost:8000",
                     SERVER_PORT="8000")
    assert svg.content == qr_svg(f"http://{LAN}:8000/j/abc/")


def test_a_public_url_behind_a_proxy_wins(client):
    with override_settings(PUBLIC_URL="https://bunco.example.org/"):
        svg = client.get("/qr.svg", {"u": "/j/abc/"})
    assert svg.content == qr_svg("https://bunco.example.org/j/abc/")


def test_every_link_on_the_hosts_page_is_on_the_lan_address(host_client, seated_night):
    page = host_client.get(f"/host/nights/{seated_night.pk}/", HTTP_HOST="localhost:8000",
                           SERVER_PORT="8000").content.decode()
    base = f"http://{LAN}:8000"
    assert f'href="{base}/j/{seated_night.join_token}/"' in page
    assert f'href="{base}/tv/{seated_night.tv_token}/"' in page
    link = seated_night.table_links.get(number=2)
    assert f'href="{base}/t/{link.token}/"' in page
    assert "localhost" not in page
    # The TV's short code and the simple address to type it at.
    assert f"{base}/tv/" in page and f">{seated_night.tv_code}<" in page


def test_the_start_qr_code_leads_a_guest_to_tonights_find_your_seat(client, seated_night):
    older = services.night_create(name="Last month", rules_id="babz")
    services.night_end(night=older)
    response = client.get("/")
    assert response.status_code == 302 and response.url == f"/j/{seated_night.join_token}/"
    assert "Tap your name" in client.get("/", follow=True).content.decode()


def test_before_the_host_starts_a_night_a_guest_is_told_to_wait(client):
    page = client.get("/").content.decode()
    assert "hasn't started tonight's game yet" in page
    assert "simulate" not in page and "babz" not in page  # no developer talk for guests
    assert 'http-equiv="refresh"' in page  # it moves on by itself once the night starts


def test_the_tv_opens_with_the_short_code_from_the_hosts_page(client, seated_night):
    form = client.get("/tv/").content.decode()
    assert 'name="code"' in form and 'inputmode="numeric"' in form
    code = seated_night.tv_code
    assert code.isdigit() and len(code) <= 6
    spaced = f"{code[:2]} {code[2:]}"  # typed with a space, as people do
    response = client.get("/tv/", {"code": spaced})
    assert response.status_code == 302 and response.url == f"/tv/{seated_night.tv_token}/"


@pytest.mark.parametrize("code, status, message", [
    ("0000000", 404, "No night has the TV code 0000000"),
    ("12;DROP", 400, "a few digits"),
    ("", 400, "type the TV code"),
])
def test_a_wrong_tv_code_is_explained(client, seated_night, code, status, message):
    response = client.get("/tv/", {"code": code})
    assert response.status_code == status
    assert message in response.content.decode()


def test_every_night_gets_its_own_tv_code(db):
    codes = {services.night_create(name=f"N{i}", rules_id="babz").tv_code for i in range(30)}
    assert len(codes) == 30


def test_the_tv_shows_the_guests_join_qr_code(client, seated_night):
    page = client.get(f"/tv/{seated_night.tv_token}/").content.decode()
    assert f"/qr.svg?u=/j/{seated_night.join_token}/" in page.replace("%2F", "/")
    assert f"http://{LAN}/j/{seated_night.join_token}/" in page


def test_guessing_tv_codes_is_slowed_down_and_a_person_mistyping_is_not(client, seated_night):
    """A TV's person may mistype a few times; a script trying codes gets one try every 2 s,
    so the night's 4-digit code takes hours to guess, not seconds."""
    wrong = "0000" if seated_night.tv_code != "0000" else "1111"
    answers = [client.get("/tv/", {"code": wrong}).status_code for _ in range(10)]
    assert answers == [404] * 10  # ten honest mistakes, each explained
    slowed = client.get("/tv/", {"code": seated_night.tv_code})
    assert slowed.status_code == 429 and "Too many tries" in slowed.content.decode()
    elsewhere = client.get("/tv/", {"code": seated_night.tv_code}, REMOTE_ADDR="10.0.0.7")
    assert elsewhere.status_code == 302  # another screen is not held up
