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
