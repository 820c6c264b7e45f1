"""The clock of a big event: a round plays for so long, a horn ends it at every table, and
the next round starts by itself after the move time. The fold on its own, the services with
a chosen "now", and a screen's websocket asking at zero."""

import time

import pytest
from channels.db import database_sync_to_async

from bunco.asgi import application
from bunco.live.screens import round_banner
from bunco.models import ScoreEvent
from bunco.night import services
from bunco.night.cache import live_state
from bunco.night.events import payload
from bunco.night.fold import Event, Kind, LiveNight
from bunco.night.payloads import Bell, RoundStarted, Seated
from bunco.night.services import CommandRefused
from bunco.night.versions import advance
from scoring import PRESETS, Seat, TableSpec, sample_names
from scoring.explain import how_we_play
from tests.playing import play_round
from tests.screens import Screen

CLOCK = PRESETS["clockwise"].replace(round_end="timer", after_bell="stop", play_seconds=180,
                                     move_seconds=120)
T0 = 1_800_000_000.0  # a fixed "now" (seconds)


def test_the_fold_keeps_the_clock_from_the_rounds_start_and_a_pause_stops_it():
    state = LiveNight(CLOCK)
    tables = [TableSpec(1, (Seat("Ann"), Seat("Bo"), Seat("Cy"), Seat("Di")))]
    events = [
        Event(1, Kind.SEATED, data=Seated(tuple(tables))),
        Event(2, Kind.ROUND_STARTED, set_number=1, round_number=1,
              data=RoundStarted(play_ends=180_000, next_at=300_000)),
        Event(3, Kind.PAUSED, set_number=1, round_number=1, data=payload(Kind.PAUSED,
                                                                         {"at": 60_000})),
        Event(4, Kind.RESUMED, set_number=1, round_number=1, data=payload(Kind.RESUMED,
                                                                          {"at": 90_000})),
        Event(5, Kind.BELL, set_number=1, round_number=1, data=Bell(horn=True)),
    ]
    for event in events[:2]:
        state = advance(state, event)
    assert (state.play_ends, state.next_at) == (180_000, 300_000)
    assert round_banner(state).clock_what == "horn"
    state = advance(state, events[2])
    assert round_banner(state).clock_ends == 0  # paused: no countdown runs
    state = advance(state, events[3])
    assert (state.play_ends, state.next_at) == (210_000, 330_000)  # 30 s paused
    state = advance(state, events[4])
    assert state.horn and state.room.bell_rung
    assert "Time's up!" in round_banner(state).detail


@pytest.fixture
def night(db):
    night = services.night_create(name="Gala", rules_id="clockwise", rules=CLOCK,
                                  player_names=sample_names(8))
    services.night_seat(night=night)
    return night


def bell_rows(night):
    return ScoreEvent.objects.filter(night=night, kind=Kind.BELL).count()


def test_the_horn_rings_once_at_the_end_of_play_and_not_before(night):
    services.round_start(night=night, now=T0)
    state = live_state(night)
    assert state.play_ends == T0 * 1000 + 180_000
    assert state.next_at == state.play_ends + 120_000
    with pytest.raises(CommandRefused, match="not run out yet"):
        services.clock_due(night=night, what="horn", set_number=1, round_number=1,
                           now=T0 + 170)
    assert bell_rows(night) == 0
    first = services.clock_due(night=night, what="horn", set_number=1, round_number=1,
                               now=T0 + 180)
    assert first.applied and live_state(night).room.bell_rung
    for _ in range(3):  # every other screen asking too: answered, nothing written
        again = services.clock_due(night=night, what="horn", set_number=1, round_number=1,
                                   now=T0 + 181)
        assert not again.applied
    assert bell_rows(night) == 1
    # A horn asked for round 1 once round 2 plays changes nothing either.
    play_round(night, start=False)
    services.round_start(night=night, now=T0 + 200)
    late = services.clock_due(night=night, what="horn", set_number=1, round_number=1,
                              now=T0 + 500)
    assert not late.applied and not live_state(night).room.bell_rung


def test_the_next_round_starts_by_itself_after_the_move_time(night):
    services.round_start(night=night, now=T0)
    services.clock_due(night=night, what="horn", set_number=1, round_number=1, now=T0 + 180)
    play_round(night, start=False)
    state = live_state(night)
    assert state.phase == "between_rounds"
    banner = round_banner(state)
    assert (banner.clock_what, banner.clock_ends) == ("next", T0 * 1000 + 300_000)
    # Beside "Next round in", the banner says the clock starts it, not the host's bell.
    assert banner.detail == "Next: round 2 starts by itself when the clock runs out."
    with pytest.raises(CommandRefused, match="move time is not over"):
        services.clock_due(night=night, what="next", set_number=1, round_number=2,
                           now=T0 + 250)
    started = services.clock_due(night=night, what="next", set_number=1, round_number=2,
                                 now=T0 + 300)
    state = live_state(night)
    assert started.applied and state.phase == "playing" and state.round_number == 2
    assert state.play_ends == (T0 + 300) * 1000 + 180_000  # round 2 has its own clock
    again = services.clock_due(night=night, what="next", set_number=1, round_number=2,
                               now=T0 + 301)
    assert not again.applied and live_state(night).round_number == 2


def test_no_round_starts_by_itself_while_a_table_still_plays_or_during_a_break(night):
    services.round_start(night=night, now=T0)
    services.clock_due(night=night, what="horn", set_number=1, round_number=1, now=T0 + 180)
    # The tables have not finished entering the round: the move time ran out, nothing starts.
    stays = services.clock_due(night=night, what="next", set_number=1, round_number=1,
                               now=T0 + 400)
    assert not stays.applied and live_state(night).round_number == 1
    play_round(night, start=False)
    services.break_start(night=night, minutes=10, now=T0 + 290)
    held = services.clock_due(night=night, what="next", set_number=1, round_number=2,
                              now=T0 + 400)
    assert not held.applied and live_state(night).phase == "between_rounds"
    services.round_start(night=night, now=T0 + 900)  # the host's bell ends the break
    assert live_state(night).round_number == 2


def test_the_how_we_play_card_tells_guests_about_the_clock():
    text = dict(how_we_play(CLOCK))["What ends the round"]
    assert "after 3 minutes of play a horn ends play at every table" in text
    assert "2 minutes after the horn the next round starts by itself" in text


def test_a_clock_of_nonsense_length_is_refused_by_the_rules():
    from scoring import RulesError

    with pytest.raises(RulesError, match="play_seconds"):
        CLOCK.replace(play_seconds=-5)
    with pytest.raises(RulesError, match="move_seconds"):
        CLOCK.replace(move_seconds=99_999)


@pytest.mark.django_db(transaction=True)
async def test_a_tv_whose_countdown_reached_zero_sounds_the_horn_over_its_websocket():
    def setup():
        night = services.night_create(name="Gala", rules_id="clockwise",
                                      rules=CLOCK.replace(play_seconds=1),
                                      player_names=sample_names(8))
        services.night_seat(night=night)
        services.round_start(night=night, now=time.time() - 5)  # play ran out 4 s ago
        return night
    night = await database_sync_to_async(setup)()
    tv = Screen(application, f"/ws/tv/{night.tv_token}/",
                               headers=[(b"origin", b"http://localhost"), (b"host", b"localhost")])
    assert (await tv.connect())[0]
    assert 'id="banner"' in await tv.receive_from()
    await tv.send_json_to({"type": "clock", "what": "horn", "set": 1, "round": 1})
    # The horn's banner, then the tables (each in its own frame), and the answer.
    frames = [await tv.receive_from() for _ in range(3)]
    assert any('id="banner"' in f and "Time&#x27;s up!" in f for f in frames)
    assert any('id="tv-tables"' in f for f in frames)
    assert any('"type": "clock"' in f and '"ok": true' in f for f in frames)
    await tv.send_json_to({"type": "clock", "what": "teleport", "set": 1, "round": 1})
    assert '"ok": false' in await tv.receive_from()
    state = await database_sync_to_async(live_state)(night)
    assert state.room.bell_rung and state.horn
    await tv.disconnect()
