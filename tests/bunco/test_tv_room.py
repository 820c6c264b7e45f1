"""The TV for a room of any size: every player in the standings, prize races that read well
before anybody has scored, and a bunco celebrated only while its round is played."""

import random

from bunco.live import room_frames, screens
from bunco.night import services
from bunco.night.cache import live_state
from scoring import sample_names
from tests.playing import play_round, roll


def test_the_tv_lists_every_player_in_its_standings(client, db):
    night = services.night_create(name="Big", rules_id="babz",
                                  player_names=sample_names(60))
    services.night_seat(night=night, rng=random.Random(2))
    html = client.get(f"/tv/{night.tv_token}/").content.decode()
    for name in sample_names(60):
        assert f"<bdi>{name}</bdi>" in html
    assert 'data-pages="tv-standings-rows"' in html  # the TV pages through them


def test_prize_races_say_nobody_has_scored_yet_instead_of_a_tie_of_everyone(seated_night):
    services.round_start(night=seated_night)
    races = {r["label"]: r for r in screens.prize_races(live_state(seated_night))}
    assert races["Most buncos"]["none_yet"] == "No buncos yet"
    assert races["Highest score"]["none_yet"] == "Nobody has scored yet"
    assert races["Lowest score"]["none_yet"] == "Nobody has scored yet"
    play_round(seated_night, start=False)  # the round's buncos and points are counted
    races = {r["label"]: r for r in screens.prize_races(live_state(seated_night))}
    assert races["Most buncos"]["none_yet"] == "" and races["Most buncos"]["names"]
    assert races["Lowest score"]["none_yet"] == ""  # a race now: somebody has points


def test_a_bunco_is_celebrated_until_its_round_ends(seated_night):
    services.round_start(night=seated_night)
    roll(seated_night, 2, quick="bunco")
    state = live_state(seated_night)
    assert screens.tv_bunco(state)["bunco"]["table"] == 2
    assert "BUNCO!" in room_frames.tv_bunco_html(state)
    state = play_round(seated_night, start=False)  # the round ends
    assert screens.tv_bunco(state)["bunco"] is None
    assert "BUNCO!" not in room_frames.tv_bunco_html(state)
    services.round_start(night=seated_night)  # and the next bell starts clean
    assert screens.tv_bunco(live_state(seated_night))["bunco"] is None


def test_every_live_page_says_how_often_it_syncs(client, db, settings):
    """One process (the party's own layer loses nothing pushed): never on a timer, the server
    asks; a layer shared by several workers may drop a push: every 10 s; BUNCO_SYNC_EVERY says
    otherwise. Every page also says after how long a silent socket is taken for dead."""
    import re

    from bunco import limits, runtime

    night = services.night_create(name="Sync", rules_id="babz", player_names=sample_names(4))
    services.night_seat(night=night, rng=random.Random(2))
    pages = [f"/tv/{night.tv_token}/", f"/t/{night.table_links.first().token}/"]

    def said() -> set[str]:
        return {re.search(r'data-sync-every="(\d+)"', client.get(page).content.decode())
                .group(1) for page in pages}

    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "bunco.runtime.layer.PartyChannelLayer"}}
    # (with the server's looks left stock, as several workers' pages: bunco/runtime/watch.py)
    assert said() == {str(limits.SYNC_EVERY)} == {"10" if runtime.stock("watch") else "0"}
    silent = {re.search(r'data-silent-after="(\d+)"', client.get(page).content.decode()).group(1)
              for page in pages}
    assert silent == {str(2 * limits.HEARD_EVERY + limits.HEARD_GRACE)} == {"60"}
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.core.RedisChannelLayer"}}
    assert said() == {"10"}
    settings.BUNCO_SYNC_EVERY = 4
    assert said() == {"4"}
