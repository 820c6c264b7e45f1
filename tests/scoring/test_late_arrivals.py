"""Late arrivals and prizes: a guest who missed rounds wins a prize only when the house rule
says so (``late_arrivals_win_awards``), as ``left_early_win_awards`` does for leavers."""

import random
from dataclasses import replace

import pytest

from scoring import PRESETS, HouseRules, Night, Seat, award, decide_awards, sample_names
from scoring.simulate import play_round

DOORMAT = award("lowest_points", prize="Doormat")


def play(night, rounds, seed=2):
    for i in range(rounds):
        room = night.start_round()
        play_round(room, random.Random(seed + i), seconds_per_roll=6)
        night.finish_round(room)


def night_with_a_late_arrival(rules, played_before=4, played_after=2):
    """Eleven at the start (one ghost); Mo takes the ghost's chair after ``played_before``
    rounds."""
    night = Night.seat(rules, sample_names(11), random.Random(1))
    play(night, played_before)
    ghost = next(s.name for t in night.tables for s in t.seats if s.ghost)
    night.substitute(ghost, Seat("Mo"))
    play(night, played_after, seed=20)
    return night


def with_mo_lowest(night):
    """Two rounds of points are usually the night's lowest score: make sure they are."""
    return {**night.stats, "Mo": replace(night.stats["Mo"], points=1)}


def test_a_guest_who_played_two_of_six_rounds_does_not_get_the_doormat_by_default():
    rules = PRESETS["babz"].replace(awards=[DOORMAT])
    assert rules.late_arrivals_win_awards is False
    night = night_with_a_late_arrival(rules)
    mo = night.stats["Mo"]
    assert mo.late and mo.joined_after == 4 and mo.wins + mo.losses == 2
    (doormat,) = decide_awards(rules, with_mo_lowest(night), rng=random.Random(0))
    assert doormat.winners and "Mo" not in doormat.winners
    assert doormat.value > 1


def test_with_the_house_rule_on_a_late_arrival_can_win():
    rules = PRESETS["babz"].replace(awards=[DOORMAT], late_arrivals_win_awards=True)
    night = night_with_a_late_arrival(rules)
    (doormat,) = decide_awards(rules, with_mo_lowest(night), rng=random.Random(0))
    assert doormat.winners == ("Mo",)


def test_taking_a_ghosts_chair_before_the_first_round_is_not_arriving_late():
    rules = PRESETS["babz"].replace(awards=[DOORMAT])
    night = night_with_a_late_arrival(rules, played_before=0, played_after=6)
    assert not night.stats["Mo"].late
    assert all(not s.late for s in night.stats.values())


def test_leavers_and_late_arrivals_are_separate_rules():
    rules = PRESETS["babz"].replace(awards=[DOORMAT], left_early_win_awards=True,
                                    late_arrivals_win_awards=False)
    night = night_with_a_late_arrival(rules)
    ava = next(n for n, s in night.stats.items() if not s.ghost and n != "Mo")
    night.substitute(ava, Seat("Ghost 9", ghost=True))  # went home after round 6
    assert night.stats[ava].left and not night.stats[ava].late
    eligible = {n for n, s in night.stats.items() if not s.ghost} - {"Mo"}
    stats = with_mo_lowest(night)
    stats[ava] = replace(stats[ava], points=0)
    (doormat,) = decide_awards(rules, stats, rng=random.Random(0))
    assert doormat.winners == (ava,) and ava in eligible


def test_a_set_award_counts_lateness_within_that_set_only():
    """Mo came in set 1's fifth round: late for set 1, there from the start of set 2."""
    rules = PRESETS["babz"].replace(sets=2, set_awards=[award("lowest_points", prize="Spoon")])
    night = night_with_a_late_arrival(rules, played_before=4, played_after=8)
    assert night.set_stats(1)["Mo"].late
    assert not night.set_stats(2)["Mo"].late


def test_rules_saved_before_the_setting_existed_keep_late_arrivals_eligible():
    """A finished night replays to the same prizes: its stored rules lack the field."""
    old = PRESETS["babz"].to_dict()
    old.pop("late_arrivals_win_awards")
    assert HouseRules.from_dict(old).late_arrivals_win_awards is True
    assert HouseRules().late_arrivals_win_awards is False
    assert all(not r.late_arrivals_win_awards for r in PRESETS.values())
    assert HouseRules.from_json(HouseRules().to_json()).late_arrivals_win_awards is False


def test_a_bad_value_is_refused_by_name():
    with pytest.raises(ValueError, match="late_arrivals_win_awards"):
        HouseRules().replace(late_arrivals_win_awards="no")
