"""A break between rounds: the host starts it with a length, it is an entry in the night's
log, every screen shows it counting down with what comes next, and the next bell ends it."""

import time

import pytest

from bunco.host.auth import host_secret
from bunco.live import broadcast, room_frames, screens
from bunco.models import ScoreEvent, TableLink
from bunco.night import services
from bunco.night.cache import live_state
from bunco.night.fold import Kind
from bunco.night.services import CommandRefused
from tests.playing import play_round


@pytest.fixture
def host_client(client, db):
    client.get(f"/host/{host_secret()}/")
    return client


def test_a_break_between_sets_is_counted_down_with_what_comes_next(seated_night):
    services.night_update_rules(night=seated_night,
                                rules=seated_night.rules.replace(sets=2))
    for _ in range(6):
        play_round(seated_night)  # the first set
    services.break_start(night=seated_night, minutes=10, now=1_000)
    row = ScoreEvent.objects.filter(night=seated_night).order_by("seq").last()
    assert row.kind == Kind.BREAK and row.data == {"minutes": 10, "ends_at": 1_600_000}
    state = live_state(seated_night)
    banner = screens.round_banner(state)
    assert banner.headline == "Break" and banner.break_ends == 1_600_000
    assert banner.detail == ("Up next: set 2 begins with round 1, when the break is over and "
                             "the head table rings the bell.")
    html = room_frames.tv_room_html(seated_night, state)
    assert 'data-testid="tv-break"' in html and 'data-ends="1600000"' in html
    assert "Standings" in html  # the standings stay beside it
    tables = room_frames.tv_tables_html(state, room_frames.all_tables(state))
    assert 'class="table-live' not in tables
    services.round_start(night=seated_night)  # the bell ends the break
    state = live_state(seated_night)
    assert state.break_ends is None and screens.round_banner(state).headline == "Round 1"


def test_the_host_ends_a_break_early(seated_night):
    play_round(seated_night)
    services.break_start(night=seated_night, minutes=5)
    services.break_end(night=seated_night)
    state = live_state(seated_night)
    assert state.break_ends is None
    assert screens.round_banner(state).headline.startswith("Round 1 over")
    with pytest.raises(CommandRefused, match="no break to end"):
        services.break_end(night=seated_night)


def test_no_break_while_a_round_is_played_or_of_an_odd_length(seated_night):
    services.round_start(night=seated_night)
    with pytest.raises(CommandRefused, match="wait for this round to end"):
        services.break_start(night=seated_night, minutes=10)
    play_round(seated_night, start=False)
    with pytest.raises(CommandRefused, match="1 to 60 minutes"):
        services.break_start(night=seated_night, minutes=0)


def test_reopening_the_round_takes_its_break_back_too(seated_night):
    play_round(seated_night)
    services.break_start(night=seated_night, minutes=10)
    services.event_void(night=seated_night, seq="close")
    state = live_state(seated_night)
    assert state.room is not None and state.break_ends is None


def test_the_hosts_page_starts_a_break_and_phones_show_it(host_client, seated_night):
    play_round(seated_night)
    page = host_client.get(f"/host/nights/{seated_night.pk}/").content.decode()
    assert "Start a break" in page and "End the break" in page
    host_client.post(f"/host/nights/{seated_night.pk}/break/", {"minutes": "15"})
    state = live_state(seated_night)
    assert state.break_minutes == 15 and state.break_ends is not None
    player = seated_night.players.first()
    assert "Break" in broadcast.player_snapshot(state, player.name)
    answer = host_client.post(f"/host/nights/{seated_night.pk}/break/", {"minutes": "500"},
                              follow=True)
    assert "1 to 60 minutes" in answer.content.decode()
    host_client.post(f"/host/nights/{seated_night.pk}/break/", {"end": "1"})
    assert live_state(seated_night).break_ends is None


def press_head_start(client, night):
    """The head table's phone presses Ring the bell for the round its banner shows."""
    state = live_state(night)
    token = TableLink.objects.get(night=night, number=1).token
    return client.post(f"/t/{token}/start/", {"set": state.set_number,
                                              "round": state.round_number},
                       HTTP_ACCEPT="application/json")


def test_the_break_is_the_hosts_no_phone_starts_a_round_during_it(client, seated_night):
    play_round(seated_night)
    services.break_start(night=seated_night, minutes=10)
    seq = live_state(seated_night).seq
    refused = press_head_start(client, seated_night)
    assert refused.status_code == 409
    assert refused.json()["error"] == ("The host has called a break: ring the bell when the "
                                       "break is over.")
    state = live_state(seated_night)
    assert state.seq == seq and state.break_ends is not None and state.phase == "between_rounds"
    services.break_end(night=seated_night)  # the host ends it: the head table rings again
    assert press_head_start(client, seated_night).json() == {"ok": True, "error": ""}
    assert live_state(seated_night).room.round_number == 2


def test_a_break_whose_time_is_up_is_over_for_the_head_table(client, seated_night):
    play_round(seated_night)
    services.break_start(night=seated_night, minutes=5, now=time.time() - 5 * 60)
    assert press_head_start(client, seated_night).json()["ok"]
    state = live_state(seated_night)
    assert state.break_ends is None and state.room.round_number == 2
