"""Migrations carry data forward: a database from before people were kept (0004) keeps every
player in the season after migrating."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scoring import PRESETS

OLD = [("bunco", "0004_reveal"), ("tables", "0002_roster")]


@pytest.fixture
def old_database(transactional_db):
    executor = MigrationExecutor(connection)
    executor.migrate(OLD)
    yield executor.loader.project_state(OLD).apps
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def test_players_from_before_people_were_kept_are_in_the_season(old_database, client):
    Night = old_database.get_model("bunco", "Night")
    Player = old_database.get_model("bunco", "Player")
    rules = PRESETS["babz"].to_dict()
    march = Night.objects.create(name="March", rules_id="babz", rules_json=rules)
    april = Night.objects.create(name="April", rules_id="babz", rules_json=rules)
    for position, name in enumerate(["Ann", "Bo", "Cy"]):
        Player.objects.create(night=march, name=name, position=position, token=f"m{name}")
    for position, name in enumerate(["ann", "Bo", "Di"]):
        Player.objects.create(night=april, name=name, position=position, token=f"a{name}")

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    from bunco.host.auth import host_secret
    from bunco.models import Person
    from bunco.models import Player as LivePlayer

    assert not LivePlayer.objects.filter(person__isnull=True).exists()
    people = {p.name: {pl.name for pl in p.players.all()} for p in Person.objects.all()}
    assert people == {"Ann": {"Ann", "ann"}, "Bo": {"Bo"}, "Cy": {"Cy"}, "Di": {"Di"}}
    client.get(f"/host/{host_secret()}/")
    season = client.get("/host/season/").content.decode()
    for name in ("Ann", "Bo", "Cy", "Di"):
        assert name in season


BEFORE_JOIN_CODES = [("bunco", "0011_desk")]


@pytest.fixture
def database_before_join_codes(transactional_db):
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE_JOIN_CODES)
    yield executor.loader.project_state(BEFORE_JOIN_CODES).apps
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def test_nights_from_before_join_codes_each_get_their_own(database_before_join_codes,
                                                          client):
    Night = database_before_join_codes.get_model("bunco", "Night")
    rules = PRESETS["babz"].to_dict()
    for i, name in enumerate(["March", "April", "May"]):
        Night.objects.create(name=name, rules_id="babz", rules_json=rules, tv_token=f"tv{i}",
                             join_token=f"join{i}", tv_code=f"{i}{i}{i}{i}")

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    from bunco.models import Night as LiveNight

    codes = dict(LiveNight.objects.values_list("name", "join_code"))
    assert len(set(codes.values())) == 3
    assert all(code.isdigit() and len(code) == 5 for code in codes.values())
    assert client.get("/", {"code": codes["April"]}).url == "/j/join1/"
