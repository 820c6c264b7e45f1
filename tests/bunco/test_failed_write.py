"""A write that fails leaves the night as its log says: the runner applies an event to the
night's fold only once its row is in, and a write that fails after that drops the fold, to be
read from the log again. The fold is never stepped back by hand."""

import pytest
from django.db import OperationalError

from bunco.night import services
from bunco.night.cache import cold_fold, folds, live_state
from bunco.night.services import runner
from tests.playing import roll

FULL = "database or disk is full"


def fails(*args, **kwargs):
    raise OperationalError(FULL)


def scores(state):
    return [list(table.team_scores) for table in state.room.tables]


@pytest.fixture
def playing(seated_night):
    services.round_start(night=seated_night)
    roll(seated_night, 1, quick="hit1")
    return seated_night


def test_a_tap_whose_write_fails_is_not_counted_and_the_next_one_is(playing, monkeypatch):
    before = live_state(playing)
    seq, position, score = before.seq, before.position(1), scores(before)
    with monkeypatch.context() as m:
        m.setattr(runner, "_moved_on", fails)  # the row is in, the fold moved: then it fails
        with pytest.raises(OperationalError):
            roll(playing, 1, quick="hit2")
    # Dropped, not rewound: the next read folds the log, which has no trace of the tap.
    assert folds.get(playing.pk) is None
    again = live_state(playing)
    assert (again.seq, again.position(1), scores(again)) == (seq, position, score)
    roll(playing, 1, quick="hit2")
    after = live_state(playing)
    assert after.seq == seq + 1 and after.position(1) == position + 1
    whole = cold_fold(playing)
    assert (whole.seq, whole.position(1), scores(whole)) == (after.seq, after.position(1),
                                                             scores(after))


def test_a_tap_whose_row_cannot_be_written_leaves_the_fold_untouched(playing, monkeypatch):
    before = live_state(playing)
    seq, score = before.seq, scores(before)
    monkeypatch.setattr(runner, "_append", fails)  # the disk full at the row itself
    with pytest.raises(OperationalError):
        roll(playing, 1, quick="hit2")
    assert folds.get(playing.pk) is before  # never touched, so kept
    assert (before.seq, scores(before)) == (seq, score)


def test_a_take_back_whose_write_fails_leaves_the_night_as_it_was(playing, monkeypatch):
    row = roll(playing, 2, quick="bunco").row
    before = live_state(playing)
    seq, score = before.seq, scores(before)
    with monkeypatch.context() as m:
        m.setattr(runner, "_moved_on", fails)
        with pytest.raises(OperationalError):
            services.event_void(night=playing, seq=row.seq)
    # A take-back makes a new night from the round's checkpoint: the one kept is as it was.
    assert folds.get(playing.pk) is before
    assert (before.seq, scores(before)) == (seq, score)
    services.event_void(night=playing, seq=row.seq)
    assert live_state(playing).seq == seq + 1
    assert scores(live_state(playing)) != score
