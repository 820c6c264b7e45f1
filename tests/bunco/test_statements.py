"""The log's two writes compiled once (bunco/runtime/statements.py) write what the ORM's own
``save()`` and ``update()`` write: the same rows, the same fold, the same answers, the same
races refused. A start without what they lean on keeps the ORM's way, with one warning."""

import logging
import random
import uuid

import pytest
from django.db.models import F, Field, signals

from bunco.models import Night, ScoreEvent
from bunco.night import services
from bunco.night.cache import cold_fold, folds, live_state
from bunco.night.services import runner
from bunco.runtime import statements
from scoring import sample_names
from tests.playing import play_round, roll

WAYS = ("compiled", "stock")


@pytest.fixture
def writing(monkeypatch):
    """``writing(way)``: the runner writes by the compiled statements or the ORM's own."""

    def use(way):
        compiled = statements.Statements(ScoreEvent, Night)
        monkeypatch.setattr(runner, "_append", compiled.append if way == "compiled"
                            else runner._saved)
        monkeypatch.setattr(runner, "_moved_on", compiled.moved_on if way == "compiled"
                            else runner._updated)
        monkeypatch.setattr(runner, "_locked", compiled.locked if way == "compiled"
                            else runner._selected)

    return use


def the_night(name):
    night = services.night_create(name=name, rules_id="babz", entry_fee_cents=1000,
                                  player_names=sample_names(12))
    services.night_seat(night=night, rng=random.Random(1))
    return night


def played(way, writing):
    """A night played to its end one way: its log, its night row, its fold, its answers."""
    writing(way)
    night = the_night("Game night")
    services.night_update_rules(night=night, rules=night.rules.replace(sets=1))
    services.round_start(night=night)
    key = uuid.uuid4()
    first, again = (roll(night, 1, quick="hit1", key=key), roll(night, 1, quick="hit1", key=key))
    answers = [(a.applied, a.duplicate, a.message, a.row.seq, a.row.pk is not None)
               for a in (first, again)]
    rng = random.Random(9)
    play_round(night, start=False, rng=rng)
    while live_state(night).phase != "over":
        play_round(night, rng=rng)
    services.night_end(night=night)
    state = live_state(night)
    rows = list(ScoreEvent.objects.filter(night=night).order_by("seq").values(
        "seq", "kind", "table", "set_number", "round_number", "player", "ghost", "position",
        "data", "actor"))
    assert all(r.created_at and r.key for r in ScoreEvent.objects.filter(night=night))
    row = Night.objects.filter(pk=night.pk).values(
        "last_seq", "status", "pot_cents", "rules_json", "roll_offs", "revealed").get()
    cold = cold_fold(night)
    fold = [(s.seq, s.phase, s.pot_cents, s.ended, sorted(s.all_rolls),
             [list(t.team_scores) for t in s.last_room.tables]) for s in (state, cold)]
    assert fold[0] == fold[1]  # the cached fold is the log's
    return rows, row, fold[0], answers, first.row.key == key == again.row.key


@pytest.mark.django_db
def test_both_ways_write_the_same_night(writing):
    compiled, stock = (played(way, writing) for way in WAYS)
    assert compiled == stock
    rows, row, _, answers, keyed = compiled
    assert len(rows) > 100 and row["last_seq"] == rows[-1]["seq"] and row["status"] == "finished"
    assert answers[0][0] and not answers[1][0] and keyed  # the resend answered, not written


@pytest.mark.django_db
@pytest.mark.parametrize("way", WAYS)
def test_a_night_moved_on_by_another_writer_is_refused_both_ways(way, writing, seated_night):
    writing(way)
    services.round_start(night=seated_night)
    seq = Night.objects.get(pk=seated_night.pk).last_seq
    for columns in ({"last_seq": seq + 2}, {"last_seq": seq + 2, "status": "finished"}):
        assert not runner._moved_on(seated_night.pk, seq + 2, columns)
    assert Night.objects.filter(pk=seated_night.pk).values("last_seq", "status").get() == {
        "last_seq": seq, "status": "playing"}


@pytest.mark.django_db
@pytest.mark.parametrize("way", WAYS)
def test_a_tap_raced_by_another_writer_is_written_once_after_it(way, writing, seated_night,
                                                                monkeypatch):
    """Another program moves the night on inside the tap's transaction: the tap's write is
    refused and rolled back, and the runner writes it once on the log as it then is."""
    writing(way)
    services.round_start(night=seated_night)
    before = live_state(seated_night).seq
    append, tries = runner._append, []

    def raced(row):
        tries.append(row.seq)
        if len(tries) == 1:
            Night.objects.filter(pk=seated_night.pk).update(last_seq=F("last_seq") + 1)
        return append(row)

    monkeypatch.setattr(runner, "_append", raced)
    key = uuid.uuid4()
    ack = roll(seated_night, 1, quick="hit1", key=key)
    assert ack.applied and tries == [before + 1, before + 1]
    assert list(ScoreEvent.objects.filter(night=seated_night, key=key).values_list("seq")) == [
        (before + 1,)]
    assert Night.objects.get(pk=seated_night.pk).last_seq == before + 1
    assert folds.get(seated_night.pk).seq == before + 1 == cold_fold(seated_night).seq


def test_the_app_writes_compiled_unless_left_stock():
    from bunco import runtime

    compiled = getattr(runner._append, "__self__", None)
    assert isinstance(compiled, statements.Statements) != runtime.stock("statements")


def test_left_stock_it_is_not_installed_and_says_nothing(monkeypatch, caplog):
    monkeypatch.setenv("BUNCO_STOCK", "statements")
    with caplog.at_level(logging.WARNING, logger=statements.__name__):
        assert statements.install(ScoreEvent, Night) is None
    assert not caplog.records


def test_a_django_without_what_it_leans_on_keeps_the_orms_way_with_one_warning(
        monkeypatch, caplog):
    monkeypatch.delenv("BUNCO_STOCK", raising=False)
    assert isinstance(statements.install(ScoreEvent, Night), statements.Statements)
    monkeypatch.delattr(Field, "get_db_prep_save")
    with caplog.at_level(logging.WARNING, logger=statements.__name__):
        assert statements.install(ScoreEvent, Night) is None
    assert len(caplog.records) == 1 and "Field.get_db_prep_save" in caplog.text


def test_a_receiver_of_the_logs_saves_keeps_the_orms_way(monkeypatch, caplog):
    """The compiled insert sends no signal: a receiver would miss every tap."""
    monkeypatch.delenv("BUNCO_STOCK", raising=False)

    def heard(**kwargs):
        pass

    signals.post_save.connect(heard, sender=ScoreEvent)
    try:
        with caplog.at_level(logging.WARNING, logger=statements.__name__):
            assert statements.install(ScoreEvent, Night) is None
    finally:
        signals.post_save.disconnect(heard, sender=ScoreEvent)
    assert len(caplog.records) == 1 and "post_save receiver for ScoreEvent" in caplog.text
