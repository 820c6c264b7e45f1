"""A charity night's roster in one paste: checked whole, written in short transactions."""

import pytest

from bunco.models import Night, Person, Player, ScoreEvent
from bunco.night import services
from bunco.night.services import MAX_PASTE, PASTE_CHUNK, CommandRefused


def added_events(night):
    return [e.data["names"] for e in ScoreEvent.objects.filter(night=night, kind="added")]


def test_two_thousand_names_are_written_a_few_hundred_at_a_time(db):
    night = services.night_create(name="Gala", rules_id="ladder")
    names = [f"Guest {i:04d}" for i in range(MAX_PASTE)]
    services.players_add(night=night, names=names)
    batches = added_events(night)
    assert len(batches) == MAX_PASTE // PASTE_CHUNK
    assert all(len(b) <= PASTE_CHUNK for b in batches)
    assert [p.name for p in night.players.order_by("position")] == names
    assert Person.objects.count() == MAX_PASTE


def test_a_paste_over_the_limit_is_refused_whole(db):
    night = services.night_create(name="Gala", rules_id="ladder")
    with pytest.raises(CommandRefused, match="paste at most 2,000 at a time"):
        services.players_add(night=night, names=[f"G{i}" for i in range(MAX_PASTE + 1)])
    assert not Player.objects.exists() and not Person.objects.exists()


def test_more_players_than_the_rules_seat_are_refused_before_anything_is_kept(db):
    night = services.night_create(name="Solo", rules_id="winning-moves-solo",
                                  player_names=["Ann", "Bo", "Cy"])
    with pytest.raises(CommandRefused, match="seat at most 4 players: 3 are checked in"):
        services.players_add(night=night, names=["Di", "Ed"])
    assert night.players.count() == 3
    assert not Player.objects.filter(name__in=["Di", "Ed"]).exists()


def test_one_bad_name_in_a_long_paste_keeps_none_of_it(db):
    night = services.night_create(name="Gala", rules_id="ladder")
    names = [f"Guest {i}" for i in range(1000)] + ["Ghost 4"]
    with pytest.raises(CommandRefused, match="what the app calls an empty chair"):
        services.players_add(night=night, names=names)
    assert not Player.objects.exists()


def test_a_returning_player_keeps_their_season_record(db):
    first = services.night_create(name="March", rules_id="babz", player_names=["Ann", "Bo"])
    ann = first.players.get(name="Ann").person
    second = services.night_create(name="April", rules_id="babz", player_names=["ann", "Cy"])
    assert second.players.get(name="ann").person == ann
    assert second.players.get(name="Cy").person != ann


def test_the_host_page_explains_a_paste_that_is_too_long(client, db):
    from bunco.host.auth import host_secret

    client.get(f"/host/{host_secret()}/")
    night = services.night_create(name="Club", rules_id="ladder")
    response = client.post(f"/host/nights/{night.pk}/players/",
                           {"players": "\n".join(f"Guest {i}" for i in range(20000))},
                           follow=True)
    assert "paste at most 2,000 names at a time" in response.content.decode()
    assert not Night.objects.get(pk=night.pk).players.exists()
