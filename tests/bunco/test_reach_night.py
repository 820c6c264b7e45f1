"""Every guest can always reach their night: a name taken back on a new phone after the end
(the host releases it, or the guest types the night's code, as the host chose), and a guest
who waited all night without a chair is told what became of their fee."""

import datetime as dt
import random

import pytest
from django.test import Client
from django.utils import timezone

from bunco.host.auth import host_secret
from bunco.night import services
from tests.playing import finish_night

NOW = timezone.make_aware(dt.datetime(2026, 3, 14, 19, 42))


@pytest.fixture
def host(client, db, settings, tmp_path, monkeypatch):
    settings.DATA_DIR = tmp_path  # the host's choice lives here (and this test's host link)
    monkeypatch.delenv("BUNCO_HOST_SECRET", raising=False)
    client.get(f"/host/{host_secret()}/")
    return client


@pytest.fixture
def ended(host):
    """A night of eight, Ann's phone picked her name; the night played out and ended."""
    night = services.night_create(name="Spring night", rules_id="babz",
                                  player_names=["Ann", "Bea", "Cal", "Dee",
                                                "Eve", "Fay", "Gus", "Hal"])
    services.night_seat(night=night, rng=random.Random(1))
    old_phone = Client()
    ann = night.players.get(name="Ann")
    assert old_phone.post(f"/j/{night.join_token}/", {"player": ann.pk}).status_code == 302
    finish_night(night)
    night.refresh_from_db()
    return night, old_phone


def pick(phone, night, name, **more):
    player = night.players.get(name=name)
    return phone.post(f"/j/{night.join_token}/", {"player": player.pk, **more})


def test_after_the_end_the_host_releases_a_name_and_the_new_phone_takes_it(ended, host):
    night, old_phone = ended
    new_phone = Client()
    page = new_phone.get(f"/j/{night.join_token}/").content.decode()
    assert "ask the host to release it" in page
    refused = pick(new_phone, night, "Ann")
    assert refused.status_code == 409
    assert "Ann is on another phone. If that phone is gone, ask the host to release your " \
           "name" in refused.content.decode()
    # the host's ended page lists the names on a phone, with a way to release each
    host_page = host.get(f"/host/nights/{night.pk}/").content.decode()
    assert 'data-testid="after-end"' in host_page and "Release phone: Ann" in host_page
    ann = night.players.get(name="Ann")
    assert host.post(f"/host/nights/{night.pk}/players/{ann.pk}/release/").status_code == 302
    taken = pick(new_phone, night, "Ann")
    assert taken.status_code == 302 and taken["Location"] == f"/p/{ann.token}/"
    mine = new_phone.get(taken["Location"]).content.decode()
    assert 'data-testid="my-night"' in mine and "Your night" in mine
    assert old_phone.get(f"/p/{ann.token}/").status_code == 403  # the old phone gave it up


def test_with_the_hosts_choice_a_guest_takes_their_name_back_with_the_nights_code(ended, host):
    night, old_phone = ended
    assert host.post("/host/reclaim/", {"mode": "code"}).status_code == 302
    host_page = host.get(f"/host/nights/{night.pk}/").content.decode()
    assert 'value="code" checked' in host_page and night.join_code in host_page
    new_phone = Client()
    page = new_phone.get(f"/j/{night.join_token}/").content.decode()
    assert 'data-testid="night-code"' in page and "Ann" in page  # every name, with the code
    before = night.players.get(name="Ann").device
    wrong = pick(new_phone, night, "Ann", code="00000" if night.join_code != "00000" else "1")
    assert wrong.status_code == 409 and "That is not tonight&#x27;s code" in wrong.content.decode()
    assert night.players.get(name="Ann").device == before  # nothing changed
    taken = pick(new_phone, night, "Ann", code=f" {night.join_code[:2]} {night.join_code[2:]}")
    ann = night.players.get(name="Ann")
    assert taken.status_code == 302 and taken["Location"] == f"/p/{ann.token}/"
    assert "Your night" in new_phone.get(taken["Location"]).content.decode()
    assert old_phone.get(f"/p/{ann.token}/").status_code == 403


def test_only_the_host_chooses_and_a_bad_choice_changes_nothing(ended, host, tmp_path):
    stranger = Client()
    assert stranger.post("/host/reclaim/", {"mode": "code"}).status_code in (302, 403)
    assert not (tmp_path / "reclaim").exists()
    host.post("/host/reclaim/", {"mode": "anyone"})
    assert not (tmp_path / "reclaim").exists()
    night, _ = ended
    assert 'value="host" checked' in host.get(f"/host/nights/{night.pk}/").content.decode()


def test_a_guest_who_waited_all_night_for_a_chair_sees_what_became_of_their_fee(host):
    night = services.night_create(name="Gala", rules_id="babz", entry_fee_cents=1000)
    services.players_add(night=night, names=[f"Guest {i:03d}" for i in range(9)], expected=True)
    for p in list(night.players.all())[:8]:
        services.player_check_in(night=night, player=p, now=NOW)
    services.night_seat(night=night, rng=random.Random(1))
    late = night.players.get(name="Guest 008")
    assert services.player_check_in(night=night, player=late, now=NOW).waiting
    phone = Client()
    assert pick(phone, night, "Guest 008").status_code == 302
    finish_night(night)
    page = phone.get(f"/p/{late.token}/").content.decode()
    assert 'data-testid="my-night"' in page
    assert "You checked in, but no chair came free all night: you played no round." in page
    assert "Your $10.00 entry went into the $90.00 pot with everyone else" in page
    assert 'data-testid="night-winners"' in page  # where the pot went
    from tables.views import results_key

    kept = phone.get(f"/r/{results_key(late)}/")
    assert kept.status_code == 200 and "no chair came free" in kept.content.decode()


# -- a deleted night's phones ---------------------------------------------------------------------

def tap_fields(key="6b1d7f0e-8a8e-4f5e-9a51-1f2e3d4c5b6a"):
    return {"quick": "hit1", "set": "1", "round": "1", "table": "1", "pos": "0", "key": key}


def test_a_deleted_nights_phones_are_told_it_is_gone_and_an_unknown_ones_keep_their_taps(
        host, client):
    from bunco.models import TableLink

    night = services.demo_night_create()
    services.round_start(night=night)
    table = TableLink.objects.get(night=night, number=1).token
    phone = Client()
    player = night.players.first()
    services.night_delete(night=night, live_confirmed=True)
    for url in (f"/t/{table}/roll/", f"/p/{player.token}/roll/"):
        answer = phone.post(url, tap_fields())
        assert answer.status_code == 410, url
        body = answer.json()
        assert body["gone"] and not body.get("retry")
        assert body["error"].startswith("The host deleted this night on the laptop")
    # a link this laptop never knew: maybe a night not opened here yet, its taps kept
    unknown = phone.post("/t/NeverSeenHere123/roll/", tap_fields()).json()
    assert unknown["retry"] and unknown["unknown"] and not unknown.get("gone")
