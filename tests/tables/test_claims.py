"""A phone claims its player: picking a name binds that player to the phone; other phones
cannot open that player's page, tap for them or watch their websocket; the host (or the phone
itself) releases the name; a table's own device link is untouched."""

import json
import re
import uuid

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from bunco.asgi import application
from bunco.host.auth import host_secret
from bunco.models import Player, ScoreEvent, TableLink
from bunco.night import devices, services
from bunco.night.cache import live_state
from tests.screens import Screen

AT_START = {"set": 1, "round": 1, "pos": 0}


def text(response) -> str:
    return re.sub(r"<[^>]+>", "", response.content.decode())


def phone() -> Client:
    return Client()


def pick(client, night, name):
    ava = night.players.get(name=name)
    return client.post(f"/j/{night.join_token}/", {"player": ava.pk})


def names_offered(client, night) -> list[str]:
    html = client.get(f"/j/{night.join_token}/").content.decode()
    offered = html.split('class="names-form"', 1)[1]
    return [p.name for p in night.players.all() if f'<bdi class="name">{p.name}</bdi>' in offered]


@pytest.mark.django_db
def test_picking_a_name_binds_that_player_to_this_phone(seated_night):
    mine = phone()
    response = pick(mine, seated_night, "Ava")
    ava = seated_night.players.get(name="Ava")
    assert response.status_code == 302 and response.url == f"/p/{ava.token}/"
    secret = mine.cookies[devices.COOKIE].value
    assert ava.device == devices.fingerprint(secret) and secret not in ava.device
    event = ScoreEvent.objects.filter(night=seated_night).last()
    assert event.kind == "claimed" and event.data == {"name": "Ava", "device": ava.device}
    assert secret not in json.dumps(event.data)  # the log keeps a hash, never the secret
    assert mine.get(f"/p/{ava.token}/").status_code == 200
    # Coming back to "find your seat" on the same phone: Ava is first, as this phone's.
    page = mine.get(f"/j/{seated_night.join_token}/").content.decode()
    assert "On this phone" in page and f"/p/{ava.token}/" in page


@pytest.mark.django_db
def test_the_join_page_offers_only_names_no_phone_has_picked(seated_night):
    pick(phone(), seated_night, "Ava")
    pick(phone(), seated_night, "Ben")
    offered = names_offered(phone(), seated_night)
    assert "Ava" not in offered and "Ben" not in offered and len(offered) == 10
    page = phone().get(f"/j/{seated_night.join_token}/").content.decode()
    assert "2 names already picked on other phones" in page
    assert "/p/" not in page  # no player's link is handed to a guest who has not picked


@pytest.mark.django_db
def test_another_phone_cannot_pick_open_or_tap_for_a_claimed_player(seated_night):
    pick(phone(), seated_night, "Ava")
    ava = seated_night.players.get(name="Ava")
    other = phone()
    before = ScoreEvent.objects.count()
    refused = pick(other, seated_night, "Ava")
    assert refused.status_code == 409
    assert "Ava is already on another phone" in refused.content.decode()
    page = other.get(f"/p/{ava.token}/")
    assert page.status_code == 403 and "Ava is on another phone" in text(page)
    services.round_start(night=seated_night)
    table, _ = live_state(seated_night).seat_of("Ava")
    tap = other.post(f"/p/{ava.token}/roll/", {"quick": "hit1", "key": str(uuid.uuid4()),
                                               "table": table, **AT_START})
    assert tap.status_code == 403 and "not counted" in tap.json()["error"]
    assert ScoreEvent.objects.filter(kind="roll").count() == 0
    assert ScoreEvent.objects.count() == before + 1  # only the round's start was recorded
    # Junk instead of a name changes nothing either.
    assert other.post(f"/j/{seated_night.join_token}/", {"player": "x"}).status_code == 400
    assert other.post(f"/j/{seated_night.join_token}/", {"player": "999999"}).status_code == 400
    assert ScoreEvent.objects.count() == before + 1


@pytest.mark.django_db
def test_the_phone_that_claimed_a_player_taps_for_them(seated_night):
    mine = phone()
    pick(mine, seated_night, "Ava")
    ava = seated_night.players.get(name="Ava")
    services.round_start(night=seated_night)
    table, _ = live_state(seated_night).seat_of("Ava")
    tap = mine.post(f"/p/{ava.token}/roll/", {"quick": "hit1", "key": str(uuid.uuid4()),
                                              "table": table, **AT_START})
    assert tap.status_code == 200 and tap.json()["recorded"]


@pytest.mark.django_db
def test_the_host_releases_a_claim_and_the_name_is_free_for_a_new_phone(seated_night):
    dead = phone()
    pick(dead, seated_night, "Ava")
    ava = seated_night.players.get(name="Ava")
    host = phone()
    host.get(f"/host/{host_secret()}/")
    page = host.get(f"/host/nights/{seated_night.pk}/").content.decode()
    assert "Release phone: Ava" in page and page.count('data-testid="claim"') == 1
    response = host.post(f"/host/nights/{seated_night.pk}/players/{ava.pk}/release/",
                         follow=True)
    assert "Ava can pick their name again on any phone" in response.content.decode()
    assert Player.objects.get(pk=ava.pk).device == ""
    assert ScoreEvent.objects.filter(night=seated_night).last().kind == "released"
    new = phone()
    assert "Ava" in names_offered(new, seated_night)
    assert pick(new, seated_night, "Ava").status_code == 302
    assert dead.get(f"/p/{ava.token}/").status_code == 403  # the old phone is out now
    # Releasing a name that is on no phone is explained and changes nothing.
    services.player_release(night=seated_night, player=Player.objects.get(pk=ava.pk))
    count = ScoreEvent.objects.count()
    response = host.post(f"/host/nights/{seated_night.pk}/players/{ava.pk}/release/",
                         follow=True)
    assert "Ava is not on any phone" in response.content.decode()
    assert ScoreEvent.objects.count() == count


@pytest.mark.django_db
def test_a_phone_that_picked_the_wrong_name_gives_it_back(seated_night):
    mine = phone()
    pick(mine, seated_night, "Ava")
    ava = seated_night.players.get(name="Ava")
    assert "Not Ava? Pick another name" in text(mine.get(f"/p/{ava.token}/"))
    assert phone().post(f"/p/{ava.token}/release/").status_code == 403  # not another phone
    response = mine.post(f"/p/{ava.token}/release/")
    assert response.status_code == 302 and response.url == f"/j/{seated_night.join_token}/"
    assert "Ava" in names_offered(phone(), seated_night)


@pytest.mark.django_db
def test_a_claim_pushes_nothing_and_changes_no_screen(seated_night):
    before = live_state(seated_night)
    room_seq, tables = before.versions.room, dict(before.versions.tables)
    pick(phone(), seated_night, "Ava")
    after = live_state(seated_night)
    assert after.versions.room == room_seq and after.versions.tables == tables


@pytest.mark.django_db
def test_a_table_device_link_works_for_any_phone(seated_night):
    pick(phone(), seated_night, "Ava")
    link = TableLink.objects.get(night=seated_night, number=1)
    services.round_start(night=seated_night)
    answer = phone().post(f"/t/{link.token}/roll/", {"quick": "hit1", "table": 1,
                                                      "key": str(uuid.uuid4()), **AT_START})
    assert answer.status_code == 200 and answer.json()["recorded"]


def claimed_night():
    night = services.demo_night_create()
    services.round_start(night=night)
    secret = devices.new_secret()
    ava = night.players.get(name="Ava")
    services.player_claim(night=night, player=ava, device=devices.fingerprint(secret))
    return night, ava, secret


async def ws(path, secret=None):
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    if secret:
        headers.append((b"cookie", f"{devices.COOKIE}={secret}".encode()))
    return Screen(application, path, headers=headers)


@pytest.mark.django_db(transaction=True)
async def test_only_the_claiming_phone_gets_the_players_websocket_and_taps_over_it():
    night, ava, secret = await database_sync_to_async(claimed_night)()
    stranger = await ws(f"/ws/player/{ava.token}/", devices.new_secret())
    connected, code = await stranger.connect()
    assert not connected or code == 4404
    await stranger.disconnect()

    mine = await ws(f"/ws/player/{ava.token}/", secret)
    connected, _ = await mine.connect()
    assert connected
    assert 'id="me"' in await mine.receive_from()
    # The host releases Ava and another phone picks her: this phone's taps are refused.
    other = devices.new_secret()

    def take_over():
        services.player_release(night=night, player=ava)
        services.player_claim(night=night, player=ava, device=devices.fingerprint(other))
        state = live_state(night)
        return state.seat_of("Ava")[0], state.position(state.seat_of("Ava")[0])

    table, pos = await database_sync_to_async(take_over)()
    await mine.send_json_to({"type": "tap", "action": "roll", "fields": {
        "key": str(uuid.uuid4()), "set": "1", "round": "1", "table": str(table),
        "pos": str(pos), "quick": "hit1"}})
    ack = await mine.receive_json_from()
    assert ack["type"] == "ack" and ack["status"] == 403 and "another phone" in ack["error"]
    await mine.disconnect()
