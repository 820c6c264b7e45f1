"""The check-in desk and the guests' cards, as the host's browser sees them."""

import html
import re

import pytest
from django.utils import timezone

from bunco.host.auth import host_secret
from bunco.laptop.lan import public_url
from bunco.models import Night, Player, ScoreEvent
from bunco.night import services
from bunco.night.cache import live_state


@pytest.fixture
def host_client(client, db):
    client.get(f"/host/{host_secret()}/")
    return client


def gala(expected=20):
    night = services.night_create(name="Spring Gala", rules_id="babz")
    services.players_add(night=night, names=[f"Guest {i:04d}" for i in range(expected)],
                         expected=True)
    return night


def text(response) -> str:
    """The page's words as a person reads them."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", response.content.decode())).split())


def desk(night):
    return f"/host/nights/{night.pk}/desk/"


def test_the_desk_and_the_cards_are_for_the_host_only(client, db):
    night = gala(3)
    player = night.players.first()
    for url in (desk(night), f"/host/nights/{night.pk}/cards/"):
        assert client.get(url).status_code == 403
    for url, data in ((desk(night) + "find/", {"q": f"/p/{player.token}/"}),
                      (desk(night) + f"check-in/{player.pk}/", {}),
                      (desk(night) + "walk-in/", {"q": "Zed"}),
                      (desk(night) + "close/", {"now": "1"})):
        assert client.post(url, data).status_code == 403
    assert night.players.here().count() == 0 and night.players.count() == 3
    assert Night.objects.get(pk=night.pk).check_in_closes_at is None


def test_the_paste_form_adds_expected_guests_and_the_list_says_who_is_here(host_client):
    night = services.night_create(name="Gala", rules_id="babz")
    host_client.post(f"/host/nights/{night.pk}/players/", {"players": "Ann\nBo"})
    response = host_client.post(f"/host/nights/{night.pk}/players/",
                                {"players": "Cy\nDi\nEd", "expected": "1"}, follow=True)
    page = text(response)
    assert "3 guests expected" in page
    assert "(2 of 5 here)" in page
    assert response.content.decode().count('data-testid="not-here">not here yet') == 3
    assert "The 3 not here yet are left out" in page
    assert set(night.players.not_here().values_list("name", flat=True)) == {"Cy", "Di", "Ed"}
    assert "Check-in desk" in page and "Guest cards to print" in page


def test_a_name_typed_at_the_desk_gives_big_buttons_and_checks_in(host_client):
    night = gala(30)
    response = host_client.post(desk(night) + "find/", {"q": "guest 001"}, follow=True)
    page = response.content.decode()
    # "guest 001" matches Guest 0010..0019 and Guest 0001: a page of buttons, not all.
    assert page.count('class="desk-name"') == 8
    assert "type more of the name" in text(response)
    target = night.players.get(name="Guest 0012")
    response = host_client.post(desk(night) + f"check-in/{target.pk}/", follow=True)
    page = text(response)
    assert "Guest 0012 is checked in: table" in page
    table = Player.objects.get(pk=target.pk).drawn_table
    assert re.search(rf"Table {table}\b", page)
    assert "1 of 30 here" in page


def test_a_scanned_card_link_checks_the_guest_in_and_twice_is_harmless(host_client):
    night = gala(10)
    guest = night.players.get(name="Guest 0004")
    scanned = public_url(f"/p/{guest.token}/")
    first = text(host_client.post(desk(night) + "find/", {"q": scanned}, follow=True))
    assert "Guest 0004 is checked in: table" in first
    events = ScoreEvent.objects.count()
    again = text(host_client.post(desk(night) + "find/", {"q": scanned}, follow=True))
    guest.refresh_from_db()
    at = timezone.localtime(guest.arrived_at).strftime("%H:%M")
    assert f"Guest 0004 is already checked in at {at}, table {guest.drawn_table}." in again
    assert ScoreEvent.objects.count() == events


@pytest.mark.parametrize("typed, message", [
    ("http://192.168.1.23:8000/p/not-a-real-token-xx/", "That card's link is not a guest's"),
    ("http://192.168.1.23:8000/t/sometable/", "That link is not a guest's card"),
    ("x" * 400, "too long for a name"),
    ("", "type a guest's name, or scan their card"),
])
def test_bad_input_at_the_desk_is_explained_and_changes_nothing(host_client, typed, message):
    night = gala(5)
    events = ScoreEvent.objects.count()
    response = host_client.post(desk(night) + "find/", {"q": typed}, follow=True)
    assert message in text(response)
    assert ScoreEvent.objects.count() == events and night.players.here().count() == 0


@pytest.mark.parametrize("guest", ["9" * 4301, "\u00b2"])
def test_the_desk_with_a_guest_number_no_number_reads_is_the_desk(host_client, guest):
    night = gala(3)
    response = host_client.get(desk(night), {"guest": guest})
    assert response.status_code == 200 and "0 of 3 here" in text(response)


def test_another_nights_card_is_refused(host_client):
    night, other = gala(3), gala(3)
    card = other.players.first()
    response = host_client.post(desk(night) + "find/", {"q": public_url(f"/p/{card.token}/")},
                                follow=True)
    assert "That card is for another night" in text(response)
    assert not Player.objects.filter(arrived_at__isnull=False).exists()


def test_a_walk_in_is_offered_and_added(host_client):
    night = gala(5)
    page = text(host_client.get(desk(night) + "?q=Zelda"))
    assert "Nobody on the list has “Zelda”" in page
    assert "Add “Zelda” as a walk-in" in page
    response = host_client.post(desk(night) + "walk-in/", {"q": "Zelda"}, follow=True)
    assert "Zelda is checked in: table" in text(response)
    assert night.players.get(name="Zelda").arrived_at is not None
    # A name on the list is not offered as a walk-in; forced, it is refused, nothing added.
    assert "as a walk-in" not in text(host_client.get(desk(night) + "?q=guest 0001"))
    response = host_client.post(desk(night) + "walk-in/", {"q": "guest 0001"}, follow=True)
    assert "looks just like “Guest 0001”" in text(response)
    assert night.players.count() == 6


def test_the_closing_time_refuses_check_ins_and_says_how_to_reopen(host_client):
    night = gala(5)
    host_client.post(desk(night) + "close/", {"now": "1"})
    guest = night.players.first()
    response = host_client.post(desk(night) + f"check-in/{guest.pk}/", follow=True)
    page = text(response)
    assert re.search(r"Check-in closed at \d\d:\d\d: nobody more is checked in", page)
    assert "Reopen check-in" in page
    assert night.players.here().count() == 0
    host_client.post(desk(night) + "close/", {"reopen": "1"})
    response = host_client.post(desk(night) + f"check-in/{guest.pk}/", follow=True)
    assert "is checked in" in text(response)


def test_a_bad_closing_time_is_explained(host_client):
    night = gala(2)
    response = host_client.post(desk(night) + "close/", {"closes": "late"}, follow=True)
    assert "type the closing time as 20:30" in text(response)
    assert Night.objects.get(pk=night.pk).check_in_closes_at is None
    host_client.post(desk(night) + "close/", {"closes": "21:15"})
    assert "Check-in closes at 21:15" in text(host_client.get(desk(night)))


def test_a_latecomer_with_no_chair_is_told_so_on_the_desk(host_client):
    night = gala(9)
    for p in list(night.players.all())[:8]:
        services.player_check_in(night=night, player=p)
    services.night_seat(night=night)
    late = night.players.get(name="Guest 0008")
    page = text(host_client.post(desk(night) + f"check-in/{late.pk}/", follow=True))
    assert "no ghost's chair is free" in page and "Waiting for a chair" in page
    assert live_state(night).waiting == ["Guest 0008"]


def test_a_two_thousand_guest_desk_page_stays_small(host_client):
    night = gala(2000)
    services.player_check_in(night=night, player=night.players.get(name="Guest 1234"))
    for url in (desk(night), desk(night) + "?q=guest", desk(night) + "?q=1",
                desk(night) + f"?guest={night.players.get(name='Guest 1234').pk}"):
        response = host_client.get(url)
        assert response.status_code == 200
        assert len(response.content) < 300_000, url
        assert response.content.decode().count('class="desk-name"') <= 8
    page = text(host_client.get(desk(night)))
    assert "1 of 2000 here" in page


def test_the_cards_page_has_a_qr_code_of_each_guests_own_page(host_client):
    night = gala(12)
    response = host_client.get(f"/host/nights/{night.pk}/cards/")
    page = response.content.decode()
    assert page.count('data-testid="guest-card"') == 12
    for p in night.players.all():
        assert f'src="/qr.svg?u=/p/{p.token}/"' in page
        assert public_url(f"/p/{p.token}/") in page
    assert "Show this at the desk" in page and "Spring Gala" in page


def test_a_big_nights_cards_come_a_hundred_a_page_or_all_to_print(host_client):
    night = gala(250)
    page = host_client.get(f"/host/nights/{night.pk}/cards/").content.decode()
    assert page.count('data-testid="guest-card"') == 100 and "Cards 1–100 of 250" in page
    everyone = host_client.get(f"/host/nights/{night.pk}/cards/?all=1").content.decode()
    assert everyone.count('data-testid="guest-card"') == 250
