"""Scoring at a table: rolls, quick buttons, undo, the bell and rotation, rejected taps."""

import uuid

import pytest

from bunco.models import ScoreEvent
from bunco.night import services
from bunco.night.cache import live_state
from bunco.night.services import CommandRefused, claim_for, roll_undo, table_finish
from tables.tap import tap
from tests.playing import roll


def undo(night, table):
    return roll_undo(night=night, claim=claim_for(live_state(night), table), key=uuid.uuid4(),
                     actor=f"table {table}")


def finish(night, table):
    return table_finish(night=night, claim=claim_for(live_state(night), table),
                        key=uuid.uuid4(), actor=f"table {table}")


def test_a_roll_before_the_bell_is_refused(seated_night):
    count = ScoreEvent.objects.filter(night=seated_night).count()
    with pytest.raises(CommandRefused, match="wait for the bell"):
        roll(seated_night, 1, quick="hit1",
             claim=services.Claim(1, 1, 1, 0))
    assert ScoreEvent.objects.filter(night=seated_night).count() == count


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"number": 4, "quick": "hit1"}, "no table 4"),
        ({"number": 1, "dice": [1, 2, 9]}, "1-6"),
        ({"number": 1, "dice": [1, 2]}, "3 dice"),
        ({"number": 1, "quick": "low"}, "unknown quick button|no low bunco"),
        ({"number": 1, "quick": "wipeout"}, "no wipeout"),
    ],
)
def test_bad_taps_are_refused_with_a_clear_message_and_change_nothing(seated_night, kwargs,
                                                                      message):
    services.round_start(night=seated_night)
    count = ScoreEvent.objects.count()
    with pytest.raises(CommandRefused, match=message):
        roll(seated_night, **kwargs)
    assert ScoreEvent.objects.count() == count


def test_a_resent_key_is_scored_once(seated_night):
    services.round_start(night=seated_night)
    key = uuid.uuid4()
    claim = claim_for(live_state(seated_night), 1)
    first = roll(seated_night, 1, quick="hit2", key=key, claim=claim)
    again = roll(seated_night, 1, quick="hit2", key=key, claim=claim)
    assert first.applied and not again.applied and again.row.seq == first.row.seq
    assert live_state(seated_night).room.tables[0].team_scores == [2, 0]


def test_undo_takes_back_only_this_tables_last_roll(seated_night):
    services.round_start(night=seated_night)
    roll(seated_night, 1, quick="hit1")
    roll(seated_night, 2, quick="hit2")
    roll(seated_night, 1, quick="hit2")
    undo(seated_night, 1)
    room = live_state(seated_night).room
    assert room.tables[0].team_scores == [1, 0] and room.tables[1].team_scores == [2, 0]
    undo(seated_night, 1)
    with pytest.raises(CommandRefused, match="nothing to undo"):
        undo(seated_night, 1)


def test_head_table_reaching_21_rings_the_bell_and_the_round_closes_with_rotation(seated_night):
    services.round_start(night=seated_night)
    before = live_state(seated_night).tables
    roll(seated_night, 2, quick="hit1")
    roll(seated_night, 1, quick="bunco")  # babz: a head-table bunco ends the round
    state = live_state(seated_night)
    assert state.room.bell_rung  # the gong stops play at once: 21-0, 1-0 and 0-0
    assert [t.phase.value for t in state.room.tables] == ["done", "done", "tie_break"]
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
    with pytest.raises(CommandRefused, match="has not started yet"):
        roll(seated_night, 1, quick="hit1")


def test_finishing_after_the_bell_when_nobody_was_rolling(finishing_night):
    services.round_start(night=finishing_night)
    roll(finishing_night, 1, quick="bunco")
    finish(finishing_night, 2)
    assert live_state(finishing_night).room.tables[1].phase.value == "tie_break"
    with pytest.raises(CommandRefused, match="only a table finishing"):
        finish(finishing_night, 2)


def test_the_roll_for_who_starts_a_roll_off_refuses_a_quick_button(client, db):
    """Winning Moves: the high total of three dice starts a roll-off, so the table's phone
    offers no quick buttons there and a quick tap is refused, nothing recorded."""
    import random

    from bunco.models import TableLink
    from scoring import sample_names

    night = services.night_create(name="Roll-off", rules_id="winning-moves",
                                  player_names=sample_names(8))
    services.night_seat(night=night, rng=random.Random(1))
    services.round_start(night=night)
    roll(night, 2, dice=[1, 1, 1])  # a bunco at table 2 ends the head table at 0-0
    state = live_state(night)
    assert state.room.tables[0].choosing_first
    count = ScoreEvent.objects.filter(night=night).count()
    with pytest.raises(CommandRefused, match="tap the three dice as they fell"):
        roll(night, 1, quick="hit1")
    assert ScoreEvent.objects.filter(night=night).count() == count
    link = TableLink.objects.get(night=night, number=1)
    claim = claim_for(state, 1)
    answer = client.post(f"/t/{link.token}/roll/", {
        "quick": "miss", "set": claim.set_number, "round": claim.round_number, "table": 1,
        "pos": claim.position})
    assert answer.status_code == 409
    assert "not a quick button" in answer.json()["error"]
    assert ScoreEvent.objects.filter(night=night).count() == count
    page = client.get(f"/t/{link.token}/").content.decode()
    assert 'data-quick=""' in page  # no quick button offered
    assert 'value="die6"' in page  # the one-die buttons, from scoring's DIE_BUTTONS
    roll(night, 1, dice=[6, 6, 4])  # the faces are taken
    assert ScoreEvent.objects.filter(night=night).count() == count + 1


@pytest.mark.parametrize("fields, message", [
    ({"round": "two"}, "that tap's round is not a number from 1 to 6"),
    ({"pos": "-1"}, "that tap's pos is not a number from 0"),
    ({"table": ""}, "this screen is out of date"),
    ({"quick": "x" * 500}, "unknown quick button"),
    ({"quick": None, "dice": None}, "tap three dice or a button"),
    ({"quick": "hit9"}, "unknown quick button 'hit9'"),
])
@pytest.mark.django_db
def test_a_tap_that_is_not_what_a_page_sends_is_refused_in_words_and_changes_nothing(
        fields, message):
    night = services.demo_night_create()
    services.round_start(night=night)
    before = ScoreEvent.objects.filter(night=night).count()
    sent = {"key": str(uuid.uuid4()), "set": 1, "round": 1, "table": 1, "pos": 0,
            "quick": "miss", **fields}
    answer = tap(night, 1, "roll", "table 1", {k: v for k, v in sent.items() if v is not None})
    assert answer.status == 409 and message in answer.body["error"], answer.body
    assert ScoreEvent.objects.filter(night=night).count() == before
