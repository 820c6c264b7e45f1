"""A table drawn at the door, and the room seated from the draws of the guests who came."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import PRESETS, Night, seat_night
from scoring.seating import (
    CHAIRS,
    draw_table,
    draws_tables,
    planned_tables,
    seat_drawn,
)
from scoring.simulate import play_round


def draw_all(names, expected, rng):
    drawn = {}
    for name in names:
        drawn[name] = draw_table(list(drawn.values()), expected, rng)
    return drawn


def assert_valid_seating(rules, came, tables):
    """The seating ``seat_night`` would give this count, in shape: the same tables and
    chairs, as many ghosts, each where seat_night's rules allow; everyone who came is seated
    once; and a round plays on it."""
    reference = seat_night(rules, came, random.Random(0))
    assert [(len(t.seats), t.individuals) for t in tables] == [
        (len(t.seats), t.individuals) for t in reference]
    assert [t.number for t in tables] == list(range(1, len(tables) + 1))
    people = [s.name for t in tables for s in t.seats if not s.ghost]
    assert sorted(people) == sorted(came)
    ghosts = [s for t in tables for s in t.seats if s.ghost]
    assert len(ghosts) == sum(s.ghost for t in reference for s in t.seats)
    for t in tables:
        assert not t.seats[0].ghost, "a ghost in the scorekeeper's chair"
        if len(t.seats) == 4 and not t.individuals:
            assert not any(t.seats[i].ghost and t.seats[i + 2].ghost for i in range(2)), (
                "two ghosts partners")
    night = Night.from_tables(rules, tables)
    room = night.start_round()
    play_round(room, random.Random(1), seconds_per_roll=6)
    night.finish_round(room)
    assert night.round_number == 2


def test_the_draw_fills_only_free_chairs_of_the_planned_tables():
    rng = random.Random(5)
    drawn = draw_all([f"G{i}" for i in range(40)], 40, rng)
    counts = [list(drawn.values()).count(n) for n in range(1, 11)]
    assert counts == [CHAIRS] * 10  # 40 expected: ten tables, every chair drawn once
    assert set(drawn.values()) == set(range(1, 11))


def test_a_guest_beyond_the_list_opens_the_next_table():
    drawn = [n for n in range(1, 6) for _ in range(CHAIRS)]  # 20 expected, all drawn
    assert draw_table(drawn, 20, random.Random(1)) == 6
    assert draw_table([*drawn, 6, 6, 6, 6], 20, random.Random(1)) == 7


def test_the_draw_is_random_over_the_tables():
    """Two guests in a row do not always draw the same table, and every table gets drawn."""
    firsts = {draw_table([], 480, random.Random(seed)) for seed in range(200)}
    assert len(firsts) > 60 and firsts <= set(range(1, planned_tables(480) + 1))


def test_when_everyone_came_everyone_sits_at_the_table_they_drew():
    rules = PRESETS["babz"]
    names = [f"G{i}" for i in range(48)]
    drawn = draw_all(names, 48, random.Random(2))
    tables = seat_drawn(rules, names, drawn, random.Random(3))
    assert_valid_seating(rules, names, tables)
    assert all(drawn[s.name] == t.number for t in tables for s in t.seats)


def test_no_shows_close_the_emptiest_tables_and_the_fullest_stay_together():
    rules = PRESETS["babz"]
    drawn = {"A1": 1, "A2": 1, "A3": 1, "A4": 1,  # table 1 full
             "B1": 2,  # table 2: one came
             "C1": 3, "C2": 3, "C3": 3,  # table 3: three
             "D1": 4, "D2": 4}  # table 4: two
    came = list(drawn)  # ten came: three tables, two ghosts
    tables = seat_drawn(rules, came, drawn, random.Random(1))
    assert_valid_seating(rules, came, tables)
    at = {s.name: t.number for t in tables for s in t.seats}
    assert {at[n] for n in ("A1", "A2", "A3", "A4")} == {1}
    assert {at[n] for n in ("C1", "C2", "C3")} == {3}
    # Table 4 and table 2 were the emptiest: table 4's pair moves together to table 2's
    # number (it is in use again), and table 2's lone guest fills a free chair.
    assert at["D1"] == at["D2"] == 2
    assert at["B1"] in (2, 3)


def test_a_kept_table_beyond_the_new_count_takes_a_free_number():
    rules = PRESETS["babz"]
    drawn = {f"X{i}": 9 for i in range(4)} | {f"Y{i}": 2 for i in range(4)}
    tables = seat_drawn(rules, list(drawn), drawn, random.Random(1))
    assert_valid_seating(rules, list(drawn), tables)
    at = {s.name: t.number for t in tables for s in t.seats}
    assert {at[f"Y{i}"] for i in range(4)} == {2}
    assert {at[f"X{i}"] for i in range(4)} == {1}


def test_guests_without_a_draw_fill_the_free_chairs():
    rules = PRESETS["clockwise"]
    drawn = {"Ann": 3, "Bo": 3}
    came = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"]
    tables = seat_drawn(rules, came, drawn, random.Random(4))
    assert_valid_seating(rules, came, tables)


@pytest.mark.parametrize("rules_id, count", [("ladder", 30), ("winning-moves", 9),
                                             ("winning-moves-solo", 3)])
def test_special_layouts_ignore_the_draw_and_seat_as_always(rules_id, count):
    rules = PRESETS[rules_id]
    names = [f"G{i}" for i in range(count)]
    assert not draws_tables(rules, count)
    drawn = {n: 1 for n in names}
    assert seat_drawn(rules, names, drawn, random.Random(7)) == seat_night(
        rules, names, random.Random(7))


def test_winning_moves_draws_for_a_room_of_tables_of_four():
    assert draws_tables(PRESETS["winning-moves"], 12)
    assert draws_tables(PRESETS["babz"], 5)


@settings(max_examples=150, deadline=None)
@given(expected=st.integers(4, 300), share=st.floats(0.0, 1.2), walk_ins=st.integers(0, 6),
       seed=st.integers(0, 10_000), rules_id=st.sampled_from(["babz", "clockwise",
                                                                "head-table", "fuzzy-die"]))
def test_any_turnout_gives_a_valid_seating_keeping_the_fullest_tables(
        expected, share, walk_ins, seed, rules_id):
    """Whatever share of the list comes (and a few walk-ins), the seating is one the rest of
    the app accepts, and every guest at a kept table is still there with the guests they drew
    it with."""
    rules = PRESETS[rules_id]
    rng = random.Random(seed)
    listed = [f"G{i}" for i in range(expected)]
    came = [n for n in listed if rng.random() < share] + [f"W{i}" for i in range(walk_ins)]
    for name in listed:  # at least as many as the rules seat
        if len(came) >= rules.player_limits[0]:
            break
        if name not in came:
            came.append(name)
    drawn = draw_all(came, expected, rng)
    tables = seat_drawn(rules, came, drawn, rng)
    assert_valid_seating(rules, came, tables)
    # The fullest drawn tables stay together: at each table, count the guests who drew the
    # same table (its biggest such group). No seating of k tables can keep more than the k
    # biggest drawn groups; this one keeps them, less the few chairs ghosts take.
    sizes: dict[int, int] = {}
    for n in came:
        sizes[drawn[n]] = sizes.get(drawn[n], 0) + 1
    best = sum(sorted(sizes.values(), reverse=True)[:len(tables)])
    kept = 0
    for t in tables:
        draws = [drawn[s.name] for s in t.seats if not s.ghost]
        kept += max((draws.count(d) for d in draws), default=0)
    ghosts = sum(s.ghost for t in tables for s in t.seats)
    assert best - ghosts <= kept <= best
