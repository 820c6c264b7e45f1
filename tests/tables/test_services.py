"""Scoring at a table: rolls, quick buttons, undo, the bell and rotation, rejected taps."""

import uuid

import pytest

from bunco import services
from bunco.selectors import live_state
from bunco.services import CommandRefused
from tables.models import ScoreEvent
from tables.services import roll_record, roll_undo, table_finish


def roll(night, table, quick=None, dice=None, **kw):
    return roll_record(night=night, table=table, key=uuid.uuid4(), actor=f"table {table}",
                       quick=quick, dice=dice, **kw)


def test_a_roll_before_the_bell_is_refused(seated_night):
    with pytest.raises(CommandRefused, match="wait for the bell"):
        roll(seated_night, 1, quick="hit1")
    assert ScoreEvent.objects.filter(night=seated_night).count() == 1


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"table": 4, "quick": "hit1"}, "no table 4"),
        ({"table": 1, "dice": [1, 2, 9]}, "1-6"),
        ({"table": 1, "dice": [1, 2]}, "3 dice"),
        ({"table": 1, "quick": "low"}, "unknown quick button|no low bunco"),
        ({"table": 1, "quick": "wipeout"}, "no wipeout"),
    ],
)
def test_bad_taps_are_refused_with_a_clear_message_and_change_nothing(seated_night, kwargs,
                                                                      message):
    services.round_start(night=seated_night)
    count = ScoreEvent.objects.count()
    with pytest.raises(CommandRefused, match=message):
        roll(seated_night, **kwargs)
    assert ScoreEvent.objects.count() == count


def test_a_double_tap_is_scored_once(seated_night):
    services.round_start(night=seated_night)
    key = uuid.uuid4()
    for _ in range(2):
        roll_record(night=seated_night, table=1, key=key, actor="t1", quick="hit2")
    assert live_state(seated_night).room.tables[0].team_scores == [2, 0]


def test_a_tap_for_a_player_whose_turn_has_passed_is_refused(seated_night):
    services.round_start(night=seated_night)
    state = live_state(seated_night)
    first = state.room.tables[0].spec.seats[0].name
    roll(seated_night, 1, quick="miss", expect_turn=first)
    with pytest.raises(CommandRefused, match="turn now"):
        roll(seated_night, 1, quick="hit1", expect_turn=first)


def test_undo_takes_back_only_this_tables_last_roll(seated_night):
    services.round_start(night=seated_night)
    roll(seated_night, 1, quick="hit1")
    roll(seated_night, 2, quick="hit2")
    roll(seated_night, 1, quick="hit2")
    roll_undo(night=seated_night, table=1, key=uuid.uuid4(), actor="t1")
    room = live_state(seated_night).room
    assert room.tables[0].team_scores == [1, 0] and room.tables[1].team_scores == [2, 0]
    roll_undo(night=seated_night, table=1, key=uuid.uuid4(), actor="t1")
    with pytest.raises(CommandRefused, match="nothing to undo"):
        roll_undo(night=seated_night, table=1, key=uuid.uuid4(), actor="t1")


def test_head_table_reaching_21_rings_the_bell_and_the_round_closes_with_rotation(seated_night):
    services.round_start(night=seated_night)
    before = live_state(seated_night).tables
    roll(seated_night, 2, quick="hit1")
    roll(seated_night, 1, quick="bunco")  # babz: a head-table bunco ends the round
    state = live_state(seated_night)
    assert state.room.bell_rung
    roll(seated_night, 1, quick="miss")  # the roller finishes the turn
    roll(seated_night, 2, quick="miss")  # table 2's roller too: 1-0
    roll(seated_night, 3, quick="miss")  # table 3's roller finishes: 0-0
    state = live_state(seated_night)
    assert state.room.tables[2].phase.value == "tie_break"  # one more lap
    roll(seated_night, 3, quick="hit1")
    while live_state(seated_night).room is not None:
        roll(seated_night, 3, quick="miss")
    state = live_state(seated_night)
    assert state.phase == "between_rounds"
    record = state.night.history[0]
    assert [len(t.winners) for t in record.tables] == [2, 2, 2]
    after = state.tables
    head_before = {s.name for s in before[0].seats}
    head_after = {s.name for s in after[0].seats}
    assert set(record.tables[0].winners) <= head_after and head_before != head_after
    with pytest.raises(CommandRefused, match="round is over"):
        roll(seated_night, 1, quick="hit1")


def test_finishing_after_the_bell_when_nobody_was_rolling(seated_night):
    services.round_start(night=seated_night)
    roll(seated_night, 1, quick="bunco")
    table_finish(night=seated_night, table=2, key=uuid.uuid4(), actor="t2")
    assert live_state(seated_night).room.tables[1].phase.value == "tie_break"
    with pytest.raises(CommandRefused, match="only a table finishing"):
        table_finish(night=seated_night, table=2, key=uuid.uuid4(), actor="t2")
