"""A practice round before round 1: played like round 1 where everyone sits, counted for
nothing. The fold on its own, then through the services and the host's page."""

import uuid

import pytest

from bunco.host.auth import host_secret
from bunco.models import ScoreEvent
from bunco.night import services
from bunco.night.cache import live_state
from bunco.night.events import payload
from bunco.night.fold import PRACTICE_SET, Event, Kind, LiveNight, tables_to_data
from bunco.night.services import Claim, CommandRefused, claim_for
from scoring import PRESETS, IllegalMove, Seat, TableSpec
from tests.playing import play_round, roll

RULES = PRESETS["fuzzy-die"]
TABLES = [
    TableSpec(1, (Seat("Fay"), Seat("Ann"), Seat("Bea"), Seat("Cy"))),
    TableSpec(2, (Seat("Dee"), Seat("Eli"), Seat("Gus"), Seat("Hal"))),
]
BUNCO, MISS = [1, 1, 1], [2, 3, 4]


class Log:
    def __init__(self):
        self.state = LiveNight(RULES)
        self.seq = 0

    def add(self, kind, data=None, **fields):
        self.seq += 1
        self.state = self.state.apply(Event(seq=self.seq, kind=kind, data=payload(kind, data),
                                            **fields))

    def roll(self, table, dice, set_number):
        chair = self.state.room.tables[table - 1]
        self.add(Kind.ROLL, table=table, set_number=set_number, round_number=1,
                 player=chair.spec.seats[chair.current].name,
                 position=self.state.position(table), data={"dice": dice})


def practice_played():
    log = Log()
    log.add(Kind.SEATED, data={"tables": tables_to_data(TABLES)})
    log.add(Kind.ROUND_STARTED, set_number=PRACTICE_SET, round_number=1,
            data={"practice": True})
    assert log.state.practice and log.state.phase == "playing"
    log.roll(1, BUNCO, PRACTICE_SET)  # a bunco at the head table: the round ends (bell)
    finish(log, PRACTICE_SET)
    return log


def finish(log, set_number):
    """Roll until every table has a result: a hit breaks a tie, a miss ends a turn."""
    while log.state.room is not None:
        table = next(t for t in log.state.room.tables if not t.done)
        tied = len(set(table.team_scores)) == 1
        log.roll(table.spec.number, [1, 2, 3] if tied else MISS, set_number)


def test_a_practice_round_counts_for_nothing_and_nobody_moves():
    log = practice_played()
    state = log.state
    assert state.phase == "ready" and state.practices == 1 and not state.started
    assert state.night.history == []
    assert all(s.wins == s.losses == s.buncos == s.points == 0
               for s in state.night.stats.values())
    assert [[s.name for s in t.seats] for t in state.tables] == \
        [[s.name for s in t.seats] for t in TABLES]
    # The fuzzy die went to Fay with her practice bunco, and is back at the head table.
    assert state.fuzzy_die_holder is None and state.fuzzy_die_table() == 1
    assert state.rolls == [] and state.closed_by is None


def test_round_1_after_a_practice_starts_from_zero():
    log = practice_played()
    log.add(Kind.ROUND_STARTED, set_number=1, round_number=1)
    assert not log.state.practice and log.state.room_set == 1
    assert [t.team_scores for t in log.state.room.tables] == [[0, 0], [0, 0]]
    log.roll(2, BUNCO, 1)
    assert log.state.night.stats["Dee"].points == 0  # credited when the round closes
    assert log.state.room.tables[1].seat_buncos[0] == 1


def test_no_practice_once_a_round_has_counted_and_a_closed_practice_cannot_be_reopened():
    log = practice_played()
    with pytest.raises(IllegalMove, match="only the round in play"):
        log.state.plan_void(4)
    log.add(Kind.ROUND_STARTED, set_number=1, round_number=1)
    log.roll(1, BUNCO, 1)
    finish(log, 1)
    with pytest.raises(IllegalMove, match="practice round comes before the first round"):
        log.add(Kind.ROUND_STARTED, set_number=PRACTICE_SET, round_number=2,
                data={"practice": True})


def test_a_roll_taken_back_during_practice_is_replayed_as_practice():
    log = Log()
    log.add(Kind.SEATED, data={"tables": tables_to_data(TABLES)})
    log.add(Kind.ROUND_STARTED, set_number=PRACTICE_SET, round_number=1,
            data={"practice": True})
    log.roll(2, [1, 1, 2], PRACTICE_SET)
    log.add(Kind.VOID, table=2, set_number=PRACTICE_SET, round_number=1, data={"seq": 3})
    assert log.state.practice and log.state.room.tables[1].team_scores == [0, 0]


# -- through the services and the pages ----------------------------------------------------------

@pytest.fixture
def night(db):
    night = services.night_create(name="Practice", rules_id="babz", player_names=[
        "Ann", "Bea", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal"])
    services.night_seat(night=night)
    return night


def test_the_host_plays_a_practice_round_then_round_1_counts(night, client):
    client.get(f"/host/{host_secret()}/")
    seats_before = [[s.name for s in t.seats] for t in live_state(night).tables]
    page = client.get(f"/host/nights/{night.pk}/")
    assert "Play a practice round first" in page.content.decode()
    client.post(f"/host/nights/{night.pk}/start/", {"practice": "1"})
    state = live_state(night)
    assert state.practice
    assert "Practice round" in client.get(f"/host/nights/{night.pk}/").content.decode()
    play_round(night, start=False)
    state = live_state(night)
    assert state.phase == "ready" and state.practices == 1
    assert [[s.name for s in t.seats] for t in state.tables] == seats_before
    assert "Practice over: nothing counted" in client.get(
        f"/host/nights/{night.pk}/").content.decode()
    history = client.get(f"/host/nights/{night.pk}/log/").content.decode()
    assert "Practice round (not counted)" in history

    play_round(night)  # round 1, for real
    state = live_state(night)
    assert len(state.night.history) == 1
    assert sum(s.wins for s in state.night.stats.values()) > 0
    history = client.get(f"/host/nights/{night.pk}/log/").content.decode()
    assert "Set 1, round 1" in history and "Practice round (not counted)" in history


def test_a_late_practice_tap_never_lands_in_round_1(night):
    services.round_start(night=night, practice=True)
    late = claim_for(live_state(night), 2)
    assert late.set_number == PRACTICE_SET
    with pytest.raises(CommandRefused, match="practice round is still being played"):
        services.round_start(night=night, set_number=1, round_number=1)
    play_round(night, start=False)
    services.round_start(night=night)
    rows = ScoreEvent.objects.filter(night=night, kind="roll").count()
    with pytest.raises(CommandRefused, match="the practice round, which is over"):
        roll(night, 2, quick="hit2", claim=late)
    assert ScoreEvent.objects.filter(night=night, kind="roll").count() == rows
    assert live_state(night).room.tables[1].team_scores == [0, 0]


def test_practice_is_refused_after_round_1_and_a_second_press_is_answered(night):
    first = services.round_start(night=night, practice=True)
    again = services.round_start(night=night, practice=True)
    assert first.applied and not again.applied and "already started" in again.message
    play_round(night, start=False)
    play_round(night)
    with pytest.raises(CommandRefused, match="comes before round 1"):
        services.round_start(night=night, practice=True)


def test_a_tap_claiming_set_0_while_round_1_plays_is_refused(night):
    services.round_start(night=night)
    claim = Claim(PRACTICE_SET, 1, 1, 0)
    with pytest.raises(CommandRefused, match="practice round"):
        services.roll_record(night=night, claim=claim, key=uuid.uuid4(), actor="t",
                             quick="hit1")
