"""A host command sent by htmx (the night page's forms are) is answered with the parts of the
page it changed, swapped in where they are, so the host keeps her place; the same post
without htmx still reloads the page, as it does with JavaScript off."""

import re

import pytest

from bunco.host.auth import host_secret
from bunco.models import Night
from bunco.night import services
from bunco.night.cache import live_state
from scoring import sample_names

HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_CURRENT_URL": "http://testserver/host/nights/1/"}


@pytest.fixture
def host_client(client, db):
    client.get(f"/host/{host_secret()}/")
    return client


@pytest.fixture
def night(db):
    return services.night_create(name="Friday", rules_id="babz", player_names=sample_names(8))


def oob(html: str, element_id: str) -> str | None:
    """The element the answer swaps in out of band, or None."""
    found = re.search(rf'<(\w+)[^>]* id="{element_id}"[^>]*hx-swap-oob="true"[^>]*>', html)
    return html[found.start():] if found else None


def test_players_added_come_back_as_the_players_list_not_a_reload(host_client, night):
    answer = host_client.post(f"/host/nights/{night.pk}/players/", {"players": "Zelda\nYuri"},
                              **HTMX)
    assert answer.status_code == 200
    body = answer.content.decode()
    players = oob(body, "players")
    assert players is not None and "Zelda" in players and "Yuri" in players
    assert oob(body, "host-messages") is not None
    assert "<html" not in body and "Ring the bell" not in body  # only the changed parts
    assert night.players.count() == 10


def test_a_refusal_comes_back_in_words_and_changes_nothing(host_client, night):
    answer = host_client.post(f"/host/nights/{night.pk}/players/",
                              {"players": sample_names(8)[0]}, **HTMX)
    messages = oob(answer.content.decode(), "host-messages")
    assert answer.status_code == 200 and messages is not None
    assert "already" in messages
    assert night.players.count() == 8


def test_the_same_post_without_htmx_reloads_the_page(host_client, night):
    answer = host_client.post(f"/host/nights/{night.pk}/players/", {"players": "Zelda"})
    assert answer.status_code == 302 and answer.url == f"/host/nights/{night.pk}/"
    assert "Zelda" in host_client.get(answer.url).content.decode()


def test_a_command_that_changes_the_pages_layout_asks_for_the_whole_page(host_client, night):
    answer = host_client.post(f"/host/nights/{night.pk}/seat/", **HTMX)
    assert answer.status_code == 200 and answer.headers["HX-Refresh"] == "true"
    assert live_state(Night.objects.get(pk=night.pk)).seated


def test_a_player_list_page_and_search_are_kept(host_client, night):
    """The answer's players list is the one the page showed: its search kept."""
    names = sample_names(8)
    headers = {**HTMX, "HTTP_HX_CURRENT_URL": f"http://testserver/host/nights/{night.pk}/"
                                              f"?q={names[1]}"}
    answer = host_client.post(f"/host/nights/{night.pk}/players/", {"players": "Zelda"},
                              **headers)
    players = oob(answer.content.decode(), "players")
    assert names[1] in players and names[2] not in players


def test_starting_the_round_hides_the_seat_swap_in_place(host_client, night):
    services.night_seat(night=night)
    page = host_client.get(f"/host/nights/{night.pk}/").content.decode()
    assert "Swap two seats" in page
    answer = host_client.post(f"/host/nights/{night.pk}/start/", {"set": "", "round": ""},
                              **HTMX)
    swap = oob(answer.content.decode(), "swap")
    assert swap is not None and "Swap two seats" not in swap
    assert live_state(Night.objects.get(pk=night.pk)).room is not None
