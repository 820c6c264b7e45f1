"""The short join code: a guest whose camera will not scan the QR code types it on the home
page and lands on the night's "find your seat"; a wrong, ended or guessed code changes
nothing and says why."""

import pytest
from django.test import override_settings

from bunco.host.auth import host_secret
from bunco.models import Night
from bunco.night import services

LAN = "192.168.1.23"

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("lan")]


@pytest.fixture
def lan():
    with override_settings(LAN_ADDRESS=LAN, PUBLIC_URL=""):
        yield


@pytest.fixture
def two_nights(seated_night):
    """Tonight's night and a demo the host tried earlier, both open: the home page cannot
    tell which one a guest means, so it asks for the code."""
    demo = services.night_create(name="Demo", rules_id="babz")
    return seated_night, demo


def test_every_night_gets_its_own_five_digit_code(db):
    codes = [services.night_create(name=f"N{i}", rules_id="babz").join_code for i in range(30)]
    assert len(set(codes)) == 30
    assert all(code.isdigit() and len(code) == 5 for code in codes)


def test_with_several_nights_open_the_home_page_asks_for_the_code(client, two_nights):
    page = client.get("/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'name="code"' in html and 'inputmode="numeric"' in html
    assert 'http-equiv="refresh"' not in html  # a code half typed is never reloaded away


@pytest.mark.parametrize("typed", ["{code}", "{a} {b}", " {a}-{b} ", "{oh}"])
def test_the_code_as_people_type_it_opens_find_your_seat(client, two_nights, typed):
    tonight, _ = two_nights
    code = tonight.join_code
    typed = typed.format(code=code, a=code[:2], b=code[2:],
                         oh=code.replace("0", "O").replace("1", "l"))
    response = client.get("/", {"code": typed})
    assert response.status_code == 302 and response.url == f"/j/{tonight.join_token}/"
    assert "Tap your name" in client.get(response.url).content.decode()


def test_the_code_leads_to_its_own_night_not_the_latest(client, two_nights):
    tonight, demo = two_nights
    assert client.get("/", {"code": demo.join_code}).url == f"/j/{demo.join_token}/"
    assert client.get("/", {"code": tonight.join_code}).url == f"/j/{tonight.join_token}/"


@pytest.mark.parametrize("code, status, message", [
    ("0000000", 404, "No night has the code 0000000. Check the code on the TV"),
    ("12;DROP", 400, "the code is five digits"),
    ("", 400, "type the code the TV shows"),
])
def test_a_wrong_code_is_explained_and_changes_nothing(client, two_nights, code, status,
                                                       message):
    before = list(Night.objects.values_list("pk", "status", "join_code"))
    response = client.get("/", {"code": code})
    assert response.status_code == status
    html = response.content.decode()
    assert message in html and 'role="alert"' in html
    assert f'value="{code}"' in html  # what the guest typed is still there to correct
    assert list(Night.objects.values_list("pk", "status", "join_code")) == before


def test_the_code_of_an_ended_night_says_it_has_ended(client, seated_night):
    services.night_end(night=seated_night)
    response = client.get("/", {"code": seated_night.join_code})
    assert response.status_code == 410
    html = response.content.decode()
    assert "Test night, which has ended" in html
    assert f'href="/j/{seated_night.join_token}/"' in html


def test_guessing_codes_is_slowed_down_and_a_person_mistyping_is_not(client, two_nights):
    """A guest may mistype a few times; a script trying codes gets one try every 2 s, so a
    night's 5-digit code takes days to guess, not minutes."""
    tonight, _ = two_nights
    wrong = "00000" if tonight.join_code != "00000" else "11111"
    answers = [client.get("/", {"code": wrong}).status_code for _ in range(10)]
    assert answers == [404] * 10  # ten honest mistakes, each explained
    slowed = client.get("/", {"code": tonight.join_code})
    assert slowed.status_code == 429 and "Too many tries" in slowed.content.decode()
    elsewhere = client.get("/", {"code": tonight.join_code}, REMOTE_ADDR="10.0.0.7")
    assert elsewhere.status_code == 302  # another guest's phone is not held up


def test_the_code_is_shown_beside_the_join_qr_code(client, seated_night):
    """On the TV and on the host's page, with the short address to type it at."""
    tv = client.get(f"/tv/{seated_night.tv_token}/").content.decode()
    assert f">{seated_night.join_code}<" in tv and f"http://{LAN}/" in tv
    client.get(f"/host/{host_secret()}/")
    host = client.get(f"/host/nights/{seated_night.pk}/").content.decode()
    assert f">{seated_night.join_code}<" in host


def test_with_one_night_open_the_home_page_still_goes_straight_to_it(client, seated_night):
    response = client.get("/")
    assert response.status_code == 302 and response.url == f"/j/{seated_night.join_token}/"


def test_after_the_night_ends_find_your_seat_says_so_and_leads_to_the_results(client,
                                                                              seated_night):
    ann, bo = seated_night.players.all()[:2]
    picked = client.post(f"/j/{seated_night.join_token}/", {"player": ann.pk})
    assert picked.status_code == 302
    services.night_end(night=seated_night)

    page = client.get(f"/j/{seated_night.join_token}/").content.decode()
    assert "This night has ended" in page and "Tap your name" not in page
    assert f'href="/p/{ann.token}/"' in page and "Results for <bdi" in page
    assert "Thanks for playing." in client.get(f"/p/{ann.token}/").content.decode()

    # "Not Ann?" is gone, and a page that still had it keeps Ann on this phone.
    assert "Pick another name" not in client.get(f"/p/{ann.token}/").content.decode()
    assert client.post(f"/p/{ann.token}/release/").url == f"/j/{seated_night.join_token}/"
    ann.refresh_from_db()
    assert ann.device

    # a name no phone holds is still there to take: its guest reaches their night too
    stranger = client.__class__()
    page = stranger.get(f"/j/{seated_night.join_token}/").content.decode()
    assert "This night has ended" in page and f'value="{ann.pk}"' not in page
    assert f'value="{bo.pk}"' in page
    late = stranger.post(f"/j/{seated_night.join_token}/", {"player": bo.pk})
    assert late.status_code == 302 and late.url == f"/p/{bo.token}/"
