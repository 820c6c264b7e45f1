"""The fold of the log, on its own: pure events in, the night out (no database)."""

import pytest

from bunco.night.events import payload
from bunco.night.fold import Event, Kind, LiveNight, tables_to_data
from bunco.night.versions import advance, fold
from scoring import PRESETS, IllegalMove, Seat, TableSpec

# Seed 004's rules, except that after the bell the roller finishes the turn (seeds 002 and
# 003), so the take-backs of rolls made while finishing are exercised too.
RULES = PRESETS["babz"].replace(after_bell="finish_turn")
TABLES = [
    TableSpec(1, (Seat("Fay"), Seat("Ann"), Seat("Bea"), Seat("Cy"))),
    TableSpec(2, (Seat("Dee"), Seat("Eli"), Seat("Gus"), Seat("Hal"))),
]
MISS, HIT1, HIT2 = [2, 3, 4], [1, 2, 3], [1, 1, 2]


class Log:
    """Builds a log the way the services do: each event with the next sequence number."""

    def __init__(self):
        self.events = []
        self.state = LiveNight(RULES)

    def add(self, kind, data=None, **fields):
        """``data`` as the log's row holds it (JSON), read as the fold reads a row."""
        event = Event(seq=len(self.events) + 1, kind=kind, data=payload(kind, data), **fields)
        self.state = advance(self.state, event)
        self.events.append(event)
        return event

    def roll(self, table, player, dice):
        return self.add(Kind.ROLL, table=table, player=player, set_number=1, round_number=1,
                        position=self.state.position(table), data={"dice": dice})


@pytest.fixture
def log():
    log = Log()
    log.add(Kind.SEATED, data={"tables": tables_to_data(TABLES)})
    log.add(Kind.ROUND_STARTED, set_number=1, round_number=1)
    return log


def scores(state, table=1):
    return state.room.tables[table - 1].team_scores


def test_every_event_kind_is_one_enum_and_an_unknown_kind_is_refused():
    assert {k.value for k in Kind} >= {"roll", "void", "bell", "finish", "roll_off", "revealed",
                                       "rules", "prizes", "added", "night_ended"}
    with pytest.raises(IllegalMove, match="unknown event"):
        LiveNight(RULES).apply(Event(seq=1, kind="teleport"))


def test_a_roll_is_credited_to_the_chair_the_log_names(log):
    log.roll(1, "Fay", HIT2)
    assert scores(log.state) == [2, 0]
    assert log.state.rolls[-1].roller == "Fay" and log.state.position(1) == 1


def test_taking_back_an_older_roll_changes_nobody_elses_rolls(log):
    """Fay +1, Fay miss, Ann +1, Ann miss, Bea +2, Bea miss; take back Fay's miss."""
    log.roll(1, "Fay", HIT1)
    fay_miss = log.roll(1, "Fay", MISS)
    log.roll(1, "Ann", HIT1)
    log.roll(1, "Ann", MISS)
    log.roll(1, "Bea", HIT2)
    log.roll(1, "Bea", MISS)
    before = {r.seq: (r.roller, r.points) for r in log.state.rolls}
    log.add(Kind.VOID, data={"seqs": [fay_miss.seq]})
    after = {r.seq: (r.roller, r.points) for r in log.state.rolls}
    del before[fay_miss.seq]
    assert after == before
    table = log.state.room.tables[0]
    assert table.seat_points == [1, 1, 2, 0] and scores(log.state) == [3, 1]
    assert table.spec.seats[table.current].name == "Cy"  # the turn moves on from Bea


def test_a_correction_replays_from_the_rounds_checkpoint_into_a_new_state(log):
    log.roll(1, "Fay", HIT1)
    old = log.state
    log.add(Kind.VOID, data={"seqs": [3]})
    assert log.state is not old and scores(old) == [1, 0]  # the old state is left whole
    assert scores(log.state) == [0, 0]


def test_taking_back_the_roll_that_rang_the_bell_takes_back_what_depended_on_it(log):
    bunco = log.roll(1, "Fay", [1, 1, 1])  # babz: a head-table bunco rings the bell
    assert log.state.room.bell_rung
    done = log.add(Kind.FINISH, table=2, set_number=1, round_number=1, position=0)
    seqs, after = log.state.plan_void(bunco.seq)
    assert seqs == [bunco.seq, done.seq]
    assert not after.room.bell_rung and after.room.tables[1].phase.value == "playing"
    log.add(Kind.VOID, data={"seqs": seqs})
    assert log.state.bell_by is None and log.state.phase == "playing"


def test_the_hosts_bell_can_be_taken_back_and_the_round_resumes_where_it_was(log):
    log.roll(1, "Fay", HIT2)
    bell = log.add(Kind.BELL, set_number=1, round_number=1)
    assert log.state.room.tables[1].phase.value == "finishing"
    seqs, _ = log.state.plan_void(bell.seq)
    log.add(Kind.VOID, data={"seqs": seqs})
    assert not log.state.room.bell_rung and scores(log.state) == [2, 0]
    assert log.state.room.tables[0].phase.value == "playing"


def test_a_closed_round_reopens_until_the_next_round_starts(log):
    close_round(log)
    closed = log.state.closed_by
    assert log.state.phase == "between_rounds" and log.state.night.history
    seqs, after = log.state.plan_void(closed)
    assert after.room is not None and not after.night.history
    log.add(Kind.ROUND_STARTED, set_number=1, round_number=2)
    with pytest.raises(IllegalMove, match="only the round in play"):
        log.state.plan_void(closed)


def test_a_void_that_a_later_roster_change_depends_on_is_refused(log):
    log.add(Kind.BELL, set_number=1, round_number=1)
    for number in (1, 2):
        log.add(Kind.FINISH, table=number, set_number=1, round_number=1,
                position=log.state.position(number))
    while log.state.room is not None:
        table = next(t for t in log.state.room.tables if not t.done)
        seat = table.spec.seats[table.current].name
        log.roll(table.spec.number, seat, HIT1 if len(set(table.team_scores)) == 1 else MISS)
    log.add(Kind.RENAMED, data={"old": "Fay", "new": "Faye"})
    log.add(Kind.LEFT, data={"name": "Ann", "ghost": "Ghost 1"})
    with pytest.raises(IllegalMove, match="no longer be reopened"):
        log.state.plan_void(log.state.closed_by)


def test_a_cold_fold_of_the_log_equals_the_fold_that_advanced_event_by_event(log):
    log.roll(1, "Fay", HIT1)
    log.roll(2, "Dee", HIT2)
    log.add(Kind.VOID, data={"seqs": [3]})
    log.roll(1, "Fay", MISS)
    cold = fold(RULES, log.events)
    assert scores(cold) == scores(log.state) and scores(cold, 2) == scores(log.state, 2)
    assert cold.positions == log.state.positions and cold.versions == log.state.versions
    assert cold.voided == log.state.voided


def test_the_prizes_roll_offs_and_reveals_are_events_too():
    log = Log()
    log.add(Kind.CREATED, data={"name": "N", "rules_id": "babz", "rules": RULES.to_dict(),
                                "entry_fee_cents": 500})
    log.add(Kind.ADDED, data={"names": ["Ann", "Bo"]})
    log.add(Kind.PRIZES, data={"awards": [{"category": "most_buncos", "share_percent": "100",
                                           "prize": ""}], "award_ties": "roll_off",
                               "one_prize_per_person": True, "pot_cents": 2000})
    with pytest.raises(IllegalMove, match="after the night has ended"):
        log.state.apply(Event(seq=4, kind=Kind.ROLL_OFF, data=payload(
            Kind.ROLL_OFF, {"category": "most_buncos", "winner": "Ann"})))
    log.add(Kind.NIGHT_ENDED)
    log.add(Kind.ROLL_OFF, data={"category": "most_buncos", "winner": "Ann"})
    log.add(Kind.REVEALED, data={"count": 1})
    cold = fold(PRESETS["clockwise"], log.events)
    assert (cold.name, cold.entry_fee_cents, cold.pot_cents) == ("N", 500, 2000)
    assert cold.roster == ["Ann", "Bo"] and cold.roll_offs == {"most_buncos": "Ann"}
    assert cold.revealed == 1 and cold.rules.award_ties.value == "roll_off"


def test_taking_back_a_bell_that_a_later_roll_would_have_rung_changes_every_screen(log):
    bell = log.add(Kind.BELL, set_number=1, round_number=1)
    log.roll(1, "Fay", [1, 1, 1])  # a head-table bunco: the bell had already rung
    log.add(Kind.VOID, data={"seqs": [bell.seq]})
    state = log.state
    assert state.room.bell_rung and state.bell_by == bell.seq + 1  # now the bunco rang it
    assert state.versions.room == state.seq  # so every screen is sent the new state


def test_a_break_between_rounds_carries_its_end_and_the_next_bell_ends_it(log):
    with pytest.raises(IllegalMove, match="wait for this round to end"):
        log.add(Kind.BREAK, data={"minutes": 10, "ends_at": 600_000})
    close_round(log)
    event = log.add(Kind.BREAK, data={"minutes": 10, "ends_at": 600_000})
    assert log.state.break_ends == 600_000 and log.state.break_minutes == 10
    assert log.state.versions.room == event.seq  # every screen shows it
    log.add(Kind.BREAK, data={"minutes": 0})
    assert log.state.break_ends is None
    with pytest.raises(IllegalMove, match="no break to end"):
        log.add(Kind.BREAK, data={"minutes": 0})
    log.add(Kind.BREAK, data={"minutes": 5, "ends_at": 300_000})
    log.add(Kind.ROUND_STARTED, set_number=1, round_number=2)
    assert log.state.break_ends is None


def close_round(log):
    """The bell, table 1 done at 0-0, then every table played to a result."""
    log.add(Kind.BELL, set_number=1, round_number=1)
    log.add(Kind.FINISH, table=1, set_number=1, round_number=1, position=0)  # 0-0: tie-break
    while log.state.room is not None:
        table = next(t for t in log.state.room.tables if not t.done)
        seat = table.spec.seats[table.current].name
        log.roll(table.spec.number, seat, HIT1 if len(set(table.team_scores)) == 1 else MISS)


def test_reopening_a_round_takes_the_break_after_it_back_too(log):
    close_round(log)
    closed = log.state.closed_by
    taken = log.add(Kind.BREAK, data={"minutes": 10, "ends_at": 600_000})
    seqs, after = log.state.plan_void(closed)
    assert taken.seq in seqs and after.room is not None and after.break_ends is None


def test_each_tables_rolls_and_last_entry_stay_right_through_take_backs_and_rounds(log):
    """A table's last rolls and its "undo last" come from a per-table index kept as the round
    grows; after every event they must equal a pass over the whole round."""

    def check(state):
        for number in (1, 2):
            assert state.table_rolls(number) == [r for r in state.rolls if r.table == number]
            naive = next((e for e in reversed(state.round_events)
                          if e.kind in (Kind.ROLL, Kind.FINISH) and e.table == number
                          and e.seq not in state.voided), None)
            assert state.latest((Kind.ROLL, Kind.FINISH), table=number) == naive

    check(log.state)
    first = log.roll(1, "Fay", HIT1)
    log.roll(2, "Dee", HIT2)
    check(log.state)
    log.roll(1, "Fay", MISS)
    check(log.state)
    log.add(Kind.VOID, data={"seqs": [first.seq]})  # a new state, replayed
    check(log.state)
    for _ in range(3):
        log.roll(1, log.state.room.tables[0].spec.seats[log.state.room.tables[0].current].name,
                 MISS)
        check(log.state)
    last = log.state.round_events[-1]
    log.add(Kind.VOID, data={"seqs": [last.seq]})  # the latest entry taken back
    check(log.state)
    assert log.state.latest((Kind.ROLL, Kind.FINISH), table=1).seq != last.seq
    log.add(Kind.BELL, set_number=1, round_number=1)
    check(log.state)


def test_a_take_back_after_its_preview_is_the_same_as_one_without(log):
    """The preview's replay is reused by the take-back that follows it, and only if nothing
    moved the night on in between."""
    log.roll(1, "Fay", HIT1)
    bell = log.add(Kind.BELL, set_number=1, round_number=1)
    log.roll(2, "Dee", HIT2)
    seqs, preview = log.state.plan_void(bell.seq)
    unplanned = advance(fold(RULES, log.events), Event(seq=len(log.events) + 1, kind=Kind.VOID,
                                                       data=payload(Kind.VOID, {"seqs": seqs})))
    log.add(Kind.VOID, data={"seqs": seqs})
    assert log.state is preview  # the preview's replay, taken once
    for state in (log.state, unplanned):
        assert not state.room.bell_rung and scores(state) == [1, 0] and scores(state, 2) == [2, 0]
    assert log.state.versions == unplanned.versions
    # A plan the night moved on from (a roll in between) is not used: the take-back replays.
    fay = log.roll(1, "Ann", HIT2)
    seqs, preview = log.state.plan_void(fay.seq)
    log.roll(2, "Eli", HIT1)
    log.add(Kind.VOID, data={"seqs": seqs})
    assert log.state is not preview
    assert scores(log.state) == [1, 0] and scores(log.state, 2) == [2, 1]
