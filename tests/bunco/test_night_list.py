"""The host's list of nights: demo nights out of the season, archiving, deleting (its file saved
first)."""

import json
import random

import pytest

from bunco.host.auth import host_secret
from bunco.live.season import season
from bunco.models import Night, Person, Player, ScoreEvent
from bunco.night import services
from bunco.night.selectors import open_nights
from bunco.night.services import CommandRefused
from scoring import sample_names
from tests.playing import finish_night, play_round


@pytest.fixture
def host_client(client, db):
    client.get(f"/host/{host_secret()}/")
    return client


@pytest.fixture
def backups(settings, tmp_path):
    settings.BUNCO_BACKUP_DIR = tmp_path
    return tmp_path


def real_night(name="March", names=None):
    night = services.night_create(name=name, rules_id="babz", entry_fee_cents=500,
                                  player_names=names or sample_names(12))
    services.night_seat(night=night, rng=random.Random(1))
    return night


# -- demo nights --------------------------------------------------------------------------------

@pytest.mark.django_db
def test_a_demo_night_is_not_in_the_season_nor_its_sample_players_people(host_client):
    march = real_night(names=["Ava", "Zoe", "Yul", "Xan", "Wes", "Val", "Uma", "Tom"])
    finish_night(march)
    demo = services.demo_night_create()
    assert demo.demo
    finish_night(demo)
    assert not demo.players.exclude(person=None).exists()
    assert Person.objects.count() == 8  # the demo's twelve added nobody
    ava = {r["person"].name: r for r in season()}["Ava"]
    assert ava["nights"] == 1  # the demo's Ava is not the real Ava
    page = host_client.get("/host/season/").content.decode()
    assert "Demo night" not in page and "Kofi" not in page
    assert host_client.post("/host/demo/").status_code == 302
    late = Night.objects.filter(demo=True).first()
    services.night_again(night=late)
    assert Night.objects.filter(demo=True).count() == 3  # a demo's next night is a demo too


@pytest.mark.django_db
def test_a_demo_night_opened_from_its_file_stays_a_demo_out_of_the_season():
    from bunco.laptop import backup

    demo = services.demo_night_create()
    finish_night(demo)
    file = backup.night_file(demo)
    demo.delete()
    again = services.night_restore(data=file)
    assert again.demo and not again.players.exclude(person=None).exists()
    assert not Person.objects.exists() and not season()


@pytest.mark.django_db
def test_a_late_arrival_on_a_demo_night_is_nobody_and_cannot_be_split_off():
    demo = services.demo_night_create()
    services.walk_in_check_in(night=demo, name="Quin")
    quin = demo.players.get(name="Quin")
    assert quin.person is None
    with pytest.raises(CommandRefused, match="demo"):
        services.player_split(player=quin)


# -- archiving ----------------------------------------------------------------------------------

@pytest.mark.django_db
def test_an_archived_night_leaves_the_list_still_counts_and_comes_back(host_client):
    march = real_night()
    finish_night(march)
    april = real_night("April")
    response = host_client.post(f"/host/nights/{march.pk}/archive/", follow=True)
    page = response.content.decode()
    assert "is archived" in page and "Archived nights (1)" in page
    listed = page.split('data-testid="nights"')[1].split("</ul>")[0]
    assert "April" in listed and "March" not in listed
    archived = host_client.get("/host/archived/").content.decode()
    assert "March" in archived
    assert {r["person"].name: r["nights"] for r in season()}["Ava"] == 2  # still counted
    host_client.post(f"/host/nights/{march.pk}/archive/", {"restore": "1"})
    march.refresh_from_db()
    assert march.archived_at is None
    assert "March" in host_client.get("/host/").content.decode()
    services.night_archive(night=april)
    assert april not in open_nights()  # guests scanning the start code are not sent there


# -- deleting -----------------------------------------------------------------------------------

@pytest.mark.django_db
def test_deleting_a_night_saves_its_file_first_and_takes_everything(backups, host_client):
    march = real_night()
    finish_night(march)
    april = real_night("April")
    finish_night(april)
    page = host_client.get(f"/host/nights/{march.pk}/delete/").content.decode()
    assert "Delete “March”?" in page and "live-warning" not in page
    response = host_client.post(f"/host/nights/{march.pk}/delete/", follow=True)
    assert "“March” is deleted" in response.content.decode()
    assert not Night.objects.filter(pk=march.pk).exists()
    assert not ScoreEvent.objects.filter(night_id=march.pk).exists()
    assert not Player.objects.filter(night_id=march.pk).exists()
    (saved,) = backups.glob("deleted-night-*-march-*.json")
    document = json.loads(saved.read_text())
    assert document["night"]["name"] == "March" and len(document["events"]) > 40
    assert {r["person"].name: r["nights"] for r in season()}["Ava"] == 1
    # the file brings it back, every roll of it
    again = services.night_restore(data=document)
    assert again.events.count() == len(document["events"])


@pytest.mark.django_db
def test_a_night_in_play_is_deleted_only_with_the_extra_tick(backups, host_client):
    night = real_night()
    play_round(night)
    page = host_client.get(f"/host/nights/{night.pk}/delete/").content.decode()
    assert "live-warning" in page
    response = host_client.post(f"/host/nights/{night.pk}/delete/", follow=True)
    assert "is being played now" in response.content.decode()
    assert Night.objects.filter(pk=night.pk).exists()
    assert list(backups.iterdir()) == []  # nothing happened
    host_client.post(f"/host/nights/{night.pk}/delete/", {"live": "yes"})
    assert not Night.objects.filter(pk=night.pk).exists()
    assert len(list(backups.glob("deleted-night-*.json"))) == 1


@pytest.mark.django_db
def test_a_person_who_played_only_the_deleted_night_goes_with_it(backups):
    march = real_night(names=["Ann", "Bo", "Cy", "Di"])
    april = real_night("April", names=["Ann", "Bo", "Cy", "Ed"])
    services.night_delete(night=march)
    assert sorted(Person.objects.values_list("name", flat=True)) == ["Ann", "Bo", "Cy", "Ed"]
    assert april.players.get(name="Ann").person is not None


def test_demo_nights_made_before_the_flag_leave_the_season_when_migrated(transactional_db):
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    from scoring import PRESETS

    before = [("bunco", "0013_late_arrivals_are_here")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    apps = executor.loader.project_state(before).apps
    OldNight, OldPlayer, OldPerson = (apps.get_model("bunco", m)
                                      for m in ("Night", "Player", "Person"))
    rules = PRESETS["babz"].to_dict()
    ava = OldPerson.objects.create(name="Ava")
    real = OldNight.objects.create(name="March", rules_id="babz", rules_json=rules,
                                   tv_code="1111")
    OldPlayer.objects.create(night=real, name="Ava", person=ava, token="r-ava")
    demo = OldNight.objects.create(name="Demo night", rules_id="babz", rules_json=rules,
                                   tv_code="2222")
    for i, name in enumerate(sample_names(12)):
        person = ava if name == "Ava" else OldPerson.objects.create(name=name)
        OldPlayer.objects.create(night=demo, name=name, position=i, person=person,
                                 token=f"d-{name}")
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    assert Night.objects.get(pk=demo.pk).demo and not Night.objects.get(pk=real.pk).demo
    assert list(Person.objects.values_list("name", flat=True)) == ["Ava"]
    assert list(Person.objects.get().players.values_list("night__name", flat=True)) == ["March"]
