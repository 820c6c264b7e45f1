"""Rotation for every method, the Winning Moves layouts, partners and ghosts."""

import random

import pytest

from scoring import PRESETS, HouseRules, TableOutcome, rotate, seat_night
from scoring.rotation import first_seats

from .helpers import spec

TEAM0_WINS = TableOutcome(winners=(0, 2), losers=(1, 3))
TEAM1_WINS = TableOutcome(winners=(1, 3), losers=(0, 2))


def names_at(tables):
    return [{s.name for s in t.seats} for t in tables]


def partners(tables):
    out = {}
    for t in tables:
        if t.individuals:
            continue
        for i, seat in enumerate(t.seats):
            out[seat.name] = t.seats[(i + 2) % 4].name
    return out


THREE = [spec("ABCD", 1), spec("EFGH", 2), spec("IJKL", 3)]
# Team 0 (seats 0 and 2) wins everywhere: winners A C, E G, I K; losers B D, F H, J L.
ALL_TEAM0 = [TEAM0_WINS] * 3


def test_circular_losers_walk_1_to_2_to_3_to_1():
    """Seeds 000, 001, 003: winners stay, losers go to the next table, the last to the head."""
    nxt = rotate(PRESETS["clockwise"], THREE, ALL_TEAM0)
    assert names_at(nxt) == [set("ACJL"), set("EGBD"), set("IKFH")]


def test_ladder_losers_drop_one_and_winners_move_up():
    """Seed 002: head winners stay, head losers to the middle; middle winners up, losers down;
    last table's winners up, its losers stay."""
    nxt = rotate(PRESETS["ladder"], THREE, ALL_TEAM0)
    assert names_at(nxt) == [set("ACEG"), set("BDIK"), set("FHJL")]


def test_ladder_head_losers_to_the_bottom():
    """Seed 004's example: table 1 winners stay, losers go to table 3; tables 2 and 3:
    losers stay, winners go up one."""
    nxt = rotate(PRESETS["babz"], THREE, ALL_TEAM0)
    assert names_at(nxt) == [set("ACEG"), set("FHIK"), set("JLBD")]


@pytest.mark.parametrize("rules_id", ["clockwise", "ladder", "babz"])
def test_nobody_keeps_last_rounds_partner(rules_id):
    before = partners(THREE)
    nxt = rotate(PRESETS[rules_id], THREE, [TEAM1_WINS, TEAM0_WINS, TEAM1_WINS])
    after = partners(nxt)
    assert all(after[name] != before[name] for name in before)
    assert all(not t.individuals and len(t.seats) == 4 for t in nxt)


def test_winners_stay_in_place_and_one_of_them_shifts_one_seat():
    nxt = rotate(PRESETS["clockwise"], THREE, ALL_TEAM0)
    head = [s.name for s in nxt[0].seats]
    assert head[0] == "A" and head[1] == "C"  # A keeps the chair, C moves over one


def test_fixed_partners_stay_together():
    rules = PRESETS["clockwise"].replace(partners="fixed")
    nxt = rotate(rules, THREE, ALL_TEAM0)
    after = partners(nxt)
    assert after["A"] == "C" and after["J"] == "L" and after["B"] == "D"


def test_ghosts_move_with_their_team_and_never_partner_a_ghost():
    tables = [spec("ABCX", 1, ghosts="X"), spec("EFGY", 2, ghosts="Y")]
    # X (seat 3) and B lose at table 1; Y and F lose at table 2.
    nxt = rotate(PRESETS["clockwise"], tables, [TEAM0_WINS, TEAM0_WINS])
    assert names_at(nxt) == [set("ACFY"), set("EGBX")]
    after = partners(nxt)
    assert after["X"] not in {"X", "Y"} and after["Y"] not in {"X", "Y"}


WM_CASES = {
    # count: (tables before, outcomes, expected tables after)
    5: (["ABC", "DE"], [(0,), (3,)], [set("ADE"), set("BC")]),
    6: (["ABCD", "EF"], [(0, 2), (4,)], [set("ACEF"), set("BD")]),
    7: (["ABCD", "EFG"], [(0, 2), (4,)], [set("ACFG"), set("EBD")]),
    8: (["ABCD", "EFGH"], [(0, 2), (4, 6)], [set("ACFH"), set("EGBD")]),
    9: (["ABCD", "EFG", "HI"], [(0, 2), (4,), (7,)], [set("ACHI"), set("EBD"), set("FG")]),
    10: (["ABCD", "EFGH", "IJ"], [(0, 2), (4, 6), (8,)], [set("ACIJ"), set("EGBD"), set("FH")]),
    11: (["ABCD", "EFGH", "IJK"], [(0, 2), (4, 6), (8,)],
         [set("ACJK"), set("EGBD"), set("IFH")]),
}


@pytest.mark.parametrize("count", sorted(WM_CASES))
def test_winning_moves_layouts_move_exactly_as_the_seed_writes(count):
    layout, winner_names, expected = WM_CASES[count]
    letters = "ABCDEFGHIJK"
    tables, start = [], 0
    for number, seats in enumerate(layout, 1):
        tables.append(spec(seats, number, individuals=len(seats) < 4))
        start += len(seats)
    outcomes = []
    offset = 0
    for t, winners in zip(tables, winner_names, strict=True):
        local = tuple(w - offset for w in winners)
        outcomes.append(TableOutcome(local, tuple(i for i in range(len(t.seats))
                                                  if i not in local)))
        offset += len(t.seats)
    assert sum(len(t) for t in layout) == count and letters[:count]
    nxt = rotate(PRESETS["winning-moves"], tables, outcomes)
    assert names_at(nxt) == expected
    assert [len(t.seats) for t in nxt] == [len(t) for t in layout]
    assert [t.individuals for t in nxt] == [len(t) < 4 for t in layout]


def test_solo_nobody_moves_and_the_next_round_starts_left_of_the_winner():
    rules = PRESETS["winning-moves-solo"]
    tables = [spec("ABCD", individuals=True)]
    nxt = rotate(rules, tables, [TableOutcome((2,), (0, 1, 3))])
    assert [s.name for s in nxt[0].seats] == list("ABCD")
    assert first_seats(rules, nxt, ["C"]) == [3]
    assert first_seats(PRESETS["babz"], nxt, ["C"]) == [0]


def test_a_single_table_of_four_changes_partners_every_round():
    rules = PRESETS["babz"]
    tables = [spec("ABCD")]
    nxt = rotate(rules, tables, [TEAM1_WINS])
    after = partners(nxt)
    assert after["A"] != "C" and after["B"] != "D"


@pytest.mark.parametrize("count, tables, ghosts", [(4, 1, 0), (5, 2, 3), (6, 2, 2), (7, 2, 1),
                                                  (12, 3, 0), (13, 4, 3), (401 - 1, 100, 0)])
def test_seating_fills_tables_of_four_with_ghosts(count, tables, ghosts):
    seated = seat_night(PRESETS["babz"], [f"P{i}" for i in range(count)], random.Random(3))
    assert len(seated) == tables
    assert sum(s.ghost for t in seated for s in t.seats) == ghosts
    for t in seated:
        assert not t.seats[0].ghost  # the scorekeeper's chair is a real player's
        for a in range(2):
            assert not (t.seats[a].ghost and t.seats[a + 2].ghost)


def test_starred_sheets_put_a_random_four_at_the_head_table():
    rules = PRESETS["ladder"]
    names = [f"P{i}" for i in range(12)]
    heads = {frozenset(s.name for s in seat_night(rules, names, random.Random(k))[0].seats)
             for k in range(20)}
    assert len(heads) > 10


def test_seating_refuses_bad_names():
    with pytest.raises(ValueError, match="listed twice"):
        seat_night(HouseRules(), ["Ann", "ann", "Bo", "Cy"], random.Random(1))
    with pytest.raises(ValueError, match="empty"):
        seat_night(HouseRules(), ["Ann", " ", "Bo", "Cy"], random.Random(1))
    with pytest.raises(ValueError, match="4 to 2000 players, not 3"):
        seat_night(HouseRules(), ["Ann", "Bo", "Cy"], random.Random(1))
