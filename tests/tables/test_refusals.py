"""Every refused tap says what happened, in the words of the person holding the phone."""

import pytest

from bunco.models import TableLink
from bunco.night import services
from bunco.night.cache import live_state
from tests.playing import play_round


@pytest.fixture
def one_set(seated_night):
    services.night_update_rules(night=seated_night,
                                rules=seated_night.rules.replace(sets=1))
    return seated_night


def post(client, url, **claim):
    return client.post(url, {"quick": "hit1", **claim})


def test_a_player_who_went_home_is_told_so(client, one_set):
    leaver = one_set.players.order_by("position").first()
    services.player_leave(night=one_set, player=leaver)
    play_round(one_set)
    answer = post(client, f"/p/{leaver.token}/roll/", set=1, round=2, table=1, pos=0)
    assert answer.status_code == 409
    assert answer.json()["error"] == "you have left the game: a ghost plays your chair"


def test_a_tap_for_a_round_that_is_over_says_so(client, one_set):
    play_round(one_set)
    link = TableLink.objects.get(night=one_set, number=1)
    answer = post(client, f"/t/{link.token}/roll/", set=1, round=1, table=1, pos=0)
    assert answer.json()["error"] == "that roll was for round 1, which is over"


def test_a_table_screen_sent_another_tables_tap_says_which_screen_it_is(client, one_set):
    services.round_start(night=one_set)
    link = TableLink.objects.get(night=one_set, number=1)
    answer = post(client, f"/t/{link.token}/roll/", set=1, round=1, table=2, pos=0)
    assert answer.json()["error"] == "this is table 1's screen; that tap was for table 2"


def test_a_player_who_moved_is_told_where_they_are_now(client, one_set):
    play_round(one_set)
    services.round_start(night=one_set)
    state = live_state(one_set)
    player = one_set.players.order_by("position").first()
    now = state.seat_of(player.name)[0]
    before = 2 if now == 1 else 1
    answer = post(client, f"/p/{player.token}/roll/", set=1, round=2, table=before, pos=0)
    assert answer.json()["error"] == (
        f"you have moved to table {now}; that tap was for table {before}")


@pytest.mark.parametrize("who", ["player", "table", "leaver"])
def test_after_the_night_ends_every_tap_says_the_night_has_ended(client, one_set, who):
    leaver = one_set.players.order_by("position").first()
    services.player_leave(night=one_set, player=leaver)
    while live_state(one_set).phase != "over":
        play_round(one_set)
    services.night_end(night=one_set)
    url = {"player": f"/p/{one_set.players.order_by('position')[3].token}/roll/",
           "table": f"/t/{TableLink.objects.get(night=one_set, number=1).token}/roll/",
           "leaver": f"/p/{leaver.token}/roll/"}[who]
    for claim in ({"set": 1, "round": 6, "table": 1, "pos": 0},
                  {"set": 2, "round": 1, "table": 1, "pos": 0}):
        answer = post(client, url, **claim)
        assert answer.status_code == 409
        assert answer.json()["error"].startswith("the night has ended; that ")
