"""History across nights: the same person next month, merging and splitting, the season."""

import pytest

from bunco.host.auth import host_secret
from bunco.live.season import season
from bunco.models import Person
from bunco.night import services
from tests.playing import finish_night


@pytest.fixture
def host_client(client, db):
    client.get(f"/host/{host_secret()}/")
    return client


def two_nights():
    from scoring import PRESETS, sample_names

    # Ties split at once (not left for the tied players to choose), so every prize is paid.
    first = services.night_create(name="March", rules_id="babz", entry_fee_cents=500,
                                  rules=PRESETS["babz"].replace(award_ties="split"),
                                  player_names=sample_names(12))
    services.night_seat(night=first)
    finish_night(first)
    second = services.night_again(night=first)
    services.night_seat(night=second)
    finish_night(second)
    return first, second


@pytest.mark.django_db
def test_a_player_who_comes_back_is_the_same_person_and_the_season_adds_up():
    first, second = two_nights()
    ava_march = first.players.get(name="Ava")
    ava_april = second.players.get(name="Ava")
    assert ava_march.person_id == ava_april.person_id
    rows = {r["person"].name: r for r in season()}
    assert rows["Ava"]["nights"] == 2
    from bunco.night.cache import live_state

    wins = sum(live_state(n).night.stats["Ava"].wins for n in (first, second))
    assert rows["Ava"]["wins"] == wins
    assert rows["Ava"]["best"]["night"] in (first, second)
    paid = sum(1 for r in rows.values() for _ in r["prizes"])
    assert paid >= 10  # at least the five money prizes of each night found their winners


@pytest.mark.django_db
def test_names_match_regardless_of_case_and_the_host_can_merge_and_split():
    a = services.night_create(name="A", rules_id="babz", player_names=["Kathy", "Bo"])
    b = services.night_create(name="B", rules_id="babz", player_names=["kathy", "Katherine"])
    kathy_a, kathy_b = a.players.get(name="Kathy"), b.players.get(name="kathy")
    assert kathy_a.person_id == kathy_b.person_id
    katherine = b.players.get(name="Katherine")
    services.people_merge(keep=katherine.person, other=kathy_a.person)
    kathy_b.refresh_from_db()
    assert kathy_b.person_id == katherine.person_id
    assert not Person.objects.filter(name="Kathy").exists()
    services.player_split(player=kathy_b)
    kathy_b.refresh_from_db()
    assert kathy_b.person_id != katherine.person_id


def test_the_season_page(host_client, db):
    two_nights()
    html = host_client.get("/host/season/").content.decode()
    assert 'data-testid="season"' in html and "Ava" in html and "March" in html
    response = host_client.post("/host/season/merge/", {"keep": "0", "other": "0"}, follow=True)
    assert "pick the two people" in response.content.decode()


def test_a_merge_with_junk_ids_is_explained_and_changes_nothing(host_client, db):
    from bunco.models import Person

    Person.objects.create(name="Kathy")
    before = Person.objects.count()
    response = host_client.post("/host/season/merge/", {"keep": "x", "other": "1"}, follow=True)
    assert response.status_code == 200 and "pick the two people to merge" in \
        response.content.decode()
    assert Person.objects.count() == before
