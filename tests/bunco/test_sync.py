"""A screen's sync, decided without a socket, a database or a clock (``bunco/live/sync.py``):
what a screen showing these fragments is sent, when a push counts as on its way, when a
screen joins its groups again and asks the database, and when the log is read again."""

from dataclasses import dataclass, field

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bunco.live import sync
from bunco.live.sync import Verdict
from bunco.night.versions import Versions

POLICY = sync.Policy(look_every=0.5, rejoin_every=6, settle_seconds=2.0)


@dataclass
class Event:
    seq: int


@dataclass
class Fold:
    """What the sync reads of a night's fold."""

    seq: int
    versions: Versions
    voids: list[Event] = field(default_factory=list)
    last_bunco: Event | None = None
    room: object = None
    rolls: list = field(default_factory=list)

    def latest(self, kinds):
        return self.voids[-1] if self.voids else None


def fold(seq=10, tables=None, room=4, seats=3) -> Fold:
    return Fold(seq, Versions(tables or {1: 8, 2: 10}, room, seats))


# -- what the screen shows, against the fold ------------------------------------------------

def test_every_fragment_is_compared_with_the_change_it_last_showed():
    state = fold()
    assert sync.expected_seq(state, "table-1") == 8
    assert sync.expected_seq(state, "table-3") == 4  # no tap of its own: the room's
    assert sync.expected_seq(state, "banner") == 4
    for seats_part in ("me", "tv-room", "tv-standings", "host-room"):
        assert sync.expected_seq(state, seats_part) == 3
    assert sync.expected_seq(state, "table-x") == 4  # not a table's number: the room's


def test_the_tvs_bunco_changes_with_a_take_back_and_with_the_bunco_it_celebrates():
    state = fold()
    assert sync.expected_seq(state, "tv-bunco") == 4
    state.voids = [Event(6)]
    assert sync.expected_seq(state, "tv-bunco") == 6
    state.last_bunco, state.room = Event(9), object()
    assert sync.expected_seq(state, "tv-bunco") == 6  # a bunco no longer among the rolls
    state.rolls = [state.last_bunco]
    assert sync.expected_seq(state, "tv-bunco") == 9
    state.room = None  # the round is over: the TV celebrates it no more
    assert sync.expected_seq(state, "tv-bunco") == 6


def test_a_screen_up_to_date_is_current_and_one_behind_gets_a_snapshot():
    state = fold()
    current = {"banner": 4, "table-1": 8, "table-2": 10}
    assert sync.verdict(state, 10, current, [], calls_late=False, settled=None, sent=0) \
        is Verdict.CURRENT
    assert sync.verdict(state, 10, {**current, "table-2": 9}, [], calls_late=False,
                        settled=None, sent=0) is Verdict.SNAPSHOT


def test_tables_in_compact_form_count_as_fragments_and_a_table_not_shown_is_skipped():
    state = fold()
    assert not sync.stale(state, {}, [8, 10])
    assert not sync.stale(state, {}, [0, 10])  # table 1 not shown: nothing to compare
    assert sync.stale(state, {}, [8, 9])
    assert sync.stale(state, {}, [8, "10"])  # not a seq: drawn afresh


def test_a_fragment_that_says_no_seq_is_drawn_afresh():
    assert sync.stale(fold(), {"banner": None})
    assert sync.stale(fold(), {"banner": "4"})


def test_what_was_already_written_to_the_screen_is_not_missed():
    state = fold()
    behind = {"table-2": 9}
    assert sync.stale(state, behind, sent=9)
    assert not sync.stale(state, behind, sent=10)  # written to it: on its way


@given(shown=st.integers(0, 20), wanted=st.integers(0, 20), settled=st.none() | st.integers(0, 20),
       sent=st.integers(0, 20))
def test_a_fragment_is_stale_exactly_when_older_settled_and_not_written(shown, wanted, settled,
                                                                         sent):
    state = fold(seq=20, tables={1: wanted}, room=0)
    limit = 20 if settled is None else settled
    expected = shown < wanted <= limit and wanted > sent
    assert sync.stale(state, {"table-1": shown}, settled=settled, sent=sent) is expected
    assert sync.stale(state, {}, [shown], settled=settled, sent=sent) is (expected and shown > 0)


# -- ahead of the log: reload ----------------------------------------------------------------

def test_a_screen_that_shows_more_than_the_log_holds_is_reloaded():
    state = fold()
    for shows, tables in (({"table-1": 11}, []), ({}, [8, 12])):
        assert sync.ahead(10, shows, tables)
        assert sync.verdict(state, 10, shows, tables, calls_late=False, settled=None,
                            sent=0) is Verdict.RELOAD
    assert not sync.ahead(10, {"banner": "99"})  # not a seq: not ahead, stale


def test_another_workers_fold_that_may_be_behind_asks_the_database_instead_of_reloading():
    assert sync.verdict(fold(), 10, {"table-1": 11}, [], calls_late=False, settled=None,
                        sent=0, if_ahead=Verdict.ASK) is Verdict.ASK


# -- the calls for the host: not the log's ---------------------------------------------------

def test_the_calls_are_compared_apart_and_first():
    calls, rest = sync.split_calls({"call-host": 3, "host-calls": 2, "banner": 4})
    assert calls == {"call-host": 3, "host-calls": 2} and rest == {"banner": 4}
    state = fold()
    assert sync.verdict(state, 10, {"table-1": 99}, [], calls_late=True, settled=None,
                        sent=0) is Verdict.SNAPSHOT  # the calls first, before ahead
    assert sync.verdict(state, 10, {}, [], calls_late=None, settled=None,
                        sent=0) is Verdict.ASK  # this process has not read them


# -- an older page: only the last seq it saw -------------------------------------------------

def test_an_older_pages_sync_by_its_last_seq():
    assert sync.parts({"type": "sync", "seq": 3}) is None
    assert sync.by_seq(3, 5) is Verdict.SNAPSHOT
    assert sync.by_seq(5, 5) is Verdict.CURRENT
    assert sync.by_seq(None, 5) is Verdict.SNAPSHOT  # no seq: drawn afresh
    assert sync.by_seq(3, None) is Verdict.CURRENT  # the night is gone


def test_a_sync_too_big_to_look_at_piece_by_piece_is_taken_as_an_older_pages():
    assert sync.parts({"shows": {"banner": 1}, "tables": [1, 2]}) == ({"banner": 1}, [1, 2])
    assert sync.parts({"shows": {"banner": 1}}) == ({"banner": 1}, [])
    assert sync.parts({"shows": {f"p{i}": 1 for i in range(sync.MAX_SHOWN + 1)}}) is None
    assert sync.parts({"shows": {}, "tables": [1] * (sync.MAX_TABLES + 1)}) is None
    assert sync.parts({"shows": [], "tables": []}) is None
    assert sync.parts({"shows": {}, "tables": "1,2"}) is None


# -- a push on its way: the settling boundary ------------------------------------------------

def test_a_push_is_on_its_way_until_it_has_had_its_settling_time():
    timeline = sync.Pushes()
    assert timeline.settled(1, 100.0, POLICY) is None  # nothing pushed: all settled
    timeline[1].append((100.0, 7))
    timeline[1].append((101.0, 8))
    assert timeline.settled(1, 101.9, POLICY) == 0  # none settled yet
    assert timeline.settled(1, 102.0, POLICY) == 7  # exactly its settling time: settled
    assert timeline.settled(1, 102.5, POLICY) == 7
    assert timeline.settled(1, 103.0, POLICY) is None  # all out: everything counts
    assert timeline.settled(2, 103.0, POLICY) is None  # another night's pushes are its own


def test_a_fragment_changed_by_a_push_on_its_way_is_not_sent_again_until_it_settled():
    timeline, state = sync.Pushes(), fold()
    timeline[1].append((100.0, 10))  # table 2's change, pushed at 100
    shows = {"table-2": 9}
    assert sync.verdict(state, 10, shows, [], calls_late=False,
                        settled=timeline.settled(1, 101.0, POLICY), sent=0) is Verdict.CURRENT
    assert sync.verdict(state, 10, shows, [], calls_late=False,
                        settled=timeline.settled(1, 102.0, POLICY), sent=0) is Verdict.SNAPSHOT


# -- looking again: joining the groups, asking the database ---------------------------------

def test_a_screen_on_a_shared_layer_joins_its_groups_again_every_sixth_sync():
    screen = sync.Counters(joined_at=0)
    due = [sync.rejoin_due(screen, True, 0, POLICY) for _ in range(12)]
    assert [i + 1 for i, d in enumerate(due) if d] == [6, 12]


def test_the_partys_own_layer_loses_nothing_and_is_never_joined_again():
    screen = sync.Counters(joined_at=-1)
    assert not any(sync.rejoin_due(screen, False, 3, POLICY) for _ in range(12))
    assert screen.syncs == 0


def test_after_the_layer_failed_the_next_sync_joins_again_and_asks_the_database():
    screen = sync.Counters(joined_at=0, checked_at=0)
    assert not sync.rejoin_due(screen, True, 0, POLICY)
    assert not sync.ask_due(screen, 0, POLICY)
    failures = 1  # the layer failed in this process meanwhile
    assert sync.rejoin_due(screen, True, failures, POLICY)
    assert sync.ask_due(screen, failures, POLICY)
    screen.joined_at = screen.checked_at = failures  # joined, asked
    assert not sync.rejoin_due(screen, True, failures, POLICY)
    assert not sync.ask_due(screen, failures, POLICY)


def test_a_join_that_failed_is_tried_at_every_sync_until_it_holds():
    screen = sync.Counters(joined_at=-1)
    assert all(sync.rejoin_due(screen, True, 0, POLICY) for _ in range(3))


@pytest.mark.parametrize("every", [1, 3, 6])
def test_the_database_is_asked_every_nth_sync(every):
    screen, policy = sync.Counters(), sync.Policy(rejoin_every=every)
    asked = [sync.ask_due(screen, 0, policy) for _ in range(12)]
    assert sum(asked) == 12 // every and asked[every - 1]


# -- one process on SQLite: the log read again at most every half second ------------------

def test_the_logs_last_seq_is_read_once_for_the_syncs_of_a_moment():
    looks, reads = sync.Looks(), []

    def read():
        reads.append(1)
        return 10

    assert looks.fold_is_current(1, 10, 100.0, read, POLICY)
    assert looks.fold_is_current(1, 10, 100.5, read, POLICY)  # within look_every: shared
    assert len(reads) == 1
    assert looks.fold_is_current(1, 10, 100.6, read, POLICY)  # older: read again
    assert len(reads) == 2
    assert looks.fold_is_current(2, 10, 100.6, read, POLICY)  # another night: its own read
    assert len(reads) == 3


def test_a_fold_that_moved_on_reads_the_log_again_and_one_behind_it_is_not_current():
    looks, logged = sync.Looks(), [10]
    assert looks.fold_is_current(1, 10, 100.0, lambda: logged[0], POLICY)
    logged[0] = 12  # another process wrote two entries
    assert looks.fold_is_current(1, 10, 100.1, lambda: logged[0], POLICY)  # not seen yet
    assert not looks.fold_is_current(1, 10, 100.7, lambda: logged[0], POLICY)
    assert looks.fold_is_current(1, 12, 100.7, lambda: logged[0], POLICY)  # caught up


def test_a_log_that_cannot_be_read_here_is_not_current():
    assert not sync.Looks().fold_is_current(1, 10, 100.0, lambda: None, POLICY)
