"""Pods: a big room split into pods of a few tables, each with its own head table and bell;
players move only within their pod; prizes over the whole room."""

import random

import pytest

from scoring import PRESETS, HouseRules, Night, RulesError, sample_names
from scoring.round import RoomRound
from scoring.seating import pods_of
from scoring.simulate import play_round, simulate_night

CLOCKWISE = PRESETS["clockwise"]  # the head table's team reaching 21 rings the bell


def sizes(pods):
    return [len(p) for p in pods]


def test_a_room_splits_into_pods_of_the_chosen_size_and_a_lone_table_joins_the_last():
    assert sizes(pods_of(3, 9)) == [3, 3, 3]
    assert sizes(pods_of(3, 11)) == [3, 3, 3, 2]
    assert sizes(pods_of(3, 10)) == [3, 3, 4]  # no pod of one
    assert sizes(pods_of(3, 3)) == [3]
    assert sizes(pods_of(0, 500)) == [500]
    assert [p.start for p in pods_of(3, 500)][:4] == [0, 3, 6, 9]
    assert sum(sizes(pods_of(3, 500))) == 500


def test_a_pod_of_one_table_is_refused_with_the_reason():
    with pytest.raises(RulesError, match="at least 2 tables"):
        CLOCKWISE.replace(pod_tables=1)
    assert HouseRules.from_json(CLOCKWISE.replace(pod_tables=3).to_json()).pod_tables == 3


def room(rules, tables=6, seed=1):
    return Night.seat(rules, sample_names(tables * 4), random.Random(seed)).start_round()


def reach_21(room, index):
    """The table at ``index`` rolls 1-1-2 for its first team until it reaches 21."""
    table = room.tables[index]
    while not table.bell_rung and table.team_scores[0] < 21:
        seat = table.current
        room.roll(index, (1, 1, 2) if seat in table.spec.teams[0] else (4, 5, 6))


def test_a_pods_head_table_rings_for_its_own_pod_only():
    r = room(CLOCKWISE.replace(pod_tables=3))
    assert [t.is_head for t in r.tables] == [True, False, False, True, False, False]
    reach_21(r, 3)  # table 4 heads the second pod
    assert [t.bell_rung for t in r.tables] == [False, False, False, True, True, True]
    assert r.pod_rung == [False, True] and not r.bell_rung
    reach_21(r, 1)  # table 2 is no head table: its 21 rings nothing
    assert not r.tables[0].bell_rung
    reach_21(r, 0)
    assert r.bell_rung and all(t.bell_rung for t in r.tables)


def test_without_pods_the_head_table_rings_for_the_whole_room():
    r = room(CLOCKWISE)
    reach_21(r, 3)
    assert not any(t.bell_rung for i, t in enumerate(r.tables) if i != 3)
    reach_21(r, 0)
    assert all(t.bell_rung for t in r.tables)


def test_the_hosts_horn_rings_every_pod():
    r = room(CLOCKWISE.replace(pod_tables=2))
    reach_21(r, 2)
    r.ring_bell()
    assert r.pod_rung == [True, True, True] and r.bell_rung


@pytest.mark.parametrize("preset", ["clockwise", "ladder", "babz", "head-table"])
def test_players_only_ever_move_within_their_pod_and_prizes_go_over_the_whole_room(preset):
    rules = PRESETS[preset].replace(pod_tables=3)
    night = Night.seat(rules, sample_names(40), random.Random(5))  # 10 tables: pods 3, 3, 4
    pod_of = {s.name: p for p, pod in enumerate(pods_of(3, 10))
              for i in pod for s in night.tables[i].seats}
    rng = random.Random(9)
    moved = 0
    while not night.finished:
        before = {s.name: spec.number for spec in night.tables for s in spec.seats}
        r = night.start_round()
        play_round(r, rng, seconds_per_roll=6)
        night.finish_round(r)
        for p, pod in enumerate(pods_of(3, 10)):
            for i in pod:
                spec = night.tables[i]
                assert spec.number == i + 1
                assert {pod_of[s.name] for s in spec.seats} == {p}
        moved += sum(before[s.name] != spec.number for spec in night.tables for s in spec.seats)
    assert moved  # people did move, inside their pods
    # Prizes are decided over the whole room: a "most" prize goes to the room's best.
    result = simulate_night(rules, sample_names(40), random.Random(2), rules_id=preset)
    stats = result.night.stats
    for prize in result.awards:
        if prize.category.value == "most_wins" and prize.winners:
            assert prize.value == max(s.wins for s in stats.values() if not s.ghost)


def test_each_pods_bell_ends_its_own_round_in_the_simulator():
    rules = CLOCKWISE.replace(pod_tables=3)
    r = room(rules, tables=9, seed=3)
    play_round(r, random.Random(4), seconds_per_roll=6)
    assert r.done and r.pod_rung == [True, True, True]
    # every pod's head table rang its own bell: each ended at 21 or more for one team
    for pod in r.pods:
        head = r.tables[pod.start]
        assert head.is_head and max(head.team_scores) >= rules.team_target


def test_one_room_plays_the_same_with_the_pod_size_at_or_above_the_table_count():
    plain, big = room(CLOCKWISE, 3, 8), room(CLOCKWISE.replace(pod_tables=5), 3, 8)
    play_round(plain, random.Random(1), seconds_per_roll=6)
    play_round(big, random.Random(1), seconds_per_roll=6)
    assert [t.team_scores for t in plain.tables] == [t.team_scores for t in big.tables]
    assert isinstance(big, RoomRound) and len(big.pods) == 1
