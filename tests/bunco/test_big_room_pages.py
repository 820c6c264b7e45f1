"""The host's pages at a 2,000-player charity night (500 tables): each page a page at a time,
none over ~300 KB, and a small night's pages unchanged (everything on one page)."""

import random
import re

import pytest

from bunco.host.auth import host_secret
from bunco.night import services
from bunco.night.cache import live_state
from scoring import sample_names
from tests.playing import play_round

LIMIT = 300 * 1024


@pytest.fixture
def big_night(db):
    night = services.night_create(name="Gala", rules_id="clockwise",
                                  player_names=sample_names(2000))
    services.night_seat(night=night, rng=random.Random(1))
    return night


@pytest.fixture
def host(client, db):
    client.get(f"/host/{host_secret()}/")
    return client


def page(client, path):
    response = client.get(path)
    assert response.status_code == 200, path
    assert len(response.content) <= LIMIT, (path, len(response.content))
    return response.content.decode()


def test_a_500_table_night_comes_a_page_at_a_time(host, big_night):
    pk = big_night.pk
    first = page(host, f"/host/nights/{pk}/")
    assert "Tables 1–12 of 500" in first
    assert 'id="table-12"' in first and 'id="table-13"' not in first
    assert "Players 1–48 of 2000" in first and 'value="Player 48"' in first
    assert 'value="Player 49"' not in first
    assert 'name="first" placeholder="First player' in first  # names typed, not 2,000 options
    assert first.count("<option") < 50

    later = page(host, f"/host/nights/{pk}/?tables=42#tables")
    assert "Tables 493–500 of 500" in later and 'id="table-500"' in later
    found = page(host, f"/host/nights/{pk}/?q=player%201999")
    assert 'value="Player 1999"' in found and "Players" in found
    assert 'value="Player 1998"' not in found
    nobody = page(host, f"/host/nights/{pk}/?q=Zelda")
    assert "Nobody checked in tonight has “Zelda” in their name" in nobody
    junk = page(host, f"/host/nights/{pk}/?tables=banana&players=-3")  # page 1, no error
    assert "Tables 1–12 of 500" in junk

    # Swapping two seats by typing their names, in any case.
    state = live_state(big_night)
    a, b = state.tables[0].seats[0].name, state.tables[499].seats[3].name
    host.post(f"/host/nights/{pk}/swap/", {"first": a.upper(), "second": f"  {b.lower()} "})
    state = live_state(big_night)
    assert (state.tables[0].seats[0].name, state.tables[499].seats[3].name) == (b, a)
    refused = host.post(f"/host/nights/{pk}/swap/", {"first": "Nobody", "second": a},
                        follow=True).content.decode()
    assert "nobody called “Nobody” is seated tonight" in refused

    play_round(big_night)
    between = page(host, f"/host/nights/{pk}/")
    assert "The top 20 of 2000" in between and "The first 48 of 2000" in between
    assert len(re.findall(r"<tr><td class=\"name\">", between)) == 20


def test_the_tally_history_and_sheet_of_a_500_table_night_are_paged(host, big_night):
    pk = big_night.pk
    play_round(big_night)
    play_round(big_night)
    latest = page(host, f"/host/nights/{pk}/log/")
    assert "Rounds 2 of 2" in latest and "Set 1, round 2" in latest
    assert "Set 1, round 1<" not in latest
    assert "Tables 1–50 of 500" in latest
    first = page(host, f"/host/nights/{pk}/log/?round=1&tables=10")
    assert "Set 1, round 1" in first and "Tables 451–500 of 500" in first
    assert ">Table 500<" in first and ">Table 1<" not in first

    sheet = page(host, f"/host/nights/{pk}/sheet/")
    assert "Players 1–200 of 2000" in sheet and "Everyone on one page, to print" in sheet
    assert ">Player 200<" in sheet and ">Player 201<" not in sheet
    everyone = host.get(f"/host/nights/{pk}/sheet/?all=1").content.decode()
    assert ">Player 2000<" in everyone


def test_a_small_nights_pages_show_everything_at_once(host, seated_night):
    pk = seated_night.pk
    for _ in range(3):
        play_round(seated_night)
    board = page(host, f"/host/nights/{pk}/")
    assert "Tables 1–" not in board and "Find a player" not in board
    log = page(host, f"/host/nights/{pk}/log/")
    assert log.count("Set 1, round") == 3 and "Rounds" not in log


def test_the_admin_lists_2000_players_a_page_at_a_time_without_a_list_to_pick_from(
        client, big_night):
    from django.contrib.auth.models import User

    User.objects.create_superuser("admin", "a@example.org", "pw")
    client.login(username="admin", password="pw")
    night_page = page(client, f"/admin/bunco/night/{big_night.pk}/change/")
    assert "2000 players" in night_page and "<option" not in night_page
    listed = page(client, f"/admin/bunco/player/?night__id__exact={big_night.pk}")
    assert listed.count('<th class="field-name">') == 100
    assert listed.count("<option") < 10
    found = page(client, "/admin/bunco/player/?q=Player+1999")
    assert "Player 1999" in found and "Player 1998" not in found
    assert client.post(f"/admin/bunco/player/{big_night.players.first().pk}/change/",
                       {"name": "Mallory"}).status_code in (302, 403)
    assert not big_night.players.filter(name="Mallory").exists()


def test_a_guest_of_a_2000_player_night_finds_their_name_by_typing_it(client, big_night):
    path = f"/j/{big_night.join_token}/"
    first = page(client, path)
    assert "Type part of your name" in first and 'name="player"' not in first
    assert len(first) < 20 * 1024
    found = page(client, path + "?q=player+1999")
    assert ">Player 1999<" in found and found.count('name="player"') == 1
    many = page(client, path + "?q=player+1")
    assert many.count('name="player"') == 60 and "More names match" in many
    none = page(client, path + "?q=Zelda")
    assert "No free name has “Zelda” in it" in none
    player = big_night.players.get(name="Player 1999")
    client.post(path, {"player": player.pk})
    after = page(client, path + "?q=player+1999")
    assert "On this phone" in after and 'name="player"' not in after  # picked: not offered


def test_a_small_nights_guests_still_see_every_name(client, seated_night):
    names = page(client, f"/j/{seated_night.join_token}/")
    assert names.count('name="player"') == 12 and "Type part of your name" not in names
