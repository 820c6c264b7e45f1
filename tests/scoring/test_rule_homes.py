"""The rules the web layers ask scoring for, each with one home: ghosts never partners, the
fuzzy die's holder, six rounds a set, the one-die buttons, a scorecard's totals, and which
entries a roll accepts (the roll for who starts a roll-off takes the dice faces only)."""

import pytest

from scoring import PRESETS, ROUNDS_PER_SET, IllegalMove, Seat, TableSpec
from scoring.night import fuzzy_die_holder, round_of, totals
from scoring.roll import DIE_BUTTONS, FACES_ONLY, tapped_dice
from scoring.seating import ghosts_partnered

from .helpers import room


def table(ghosts, individuals=False):
    return TableSpec(1, tuple(Seat(n, ghost=n in ghosts) for n in "ABCD"), individuals)


def test_two_ghosts_across_a_table_are_partners_and_side_by_side_are_not():
    assert ghosts_partnered(table("AC")) and ghosts_partnered(table("BD"))
    assert not ghosts_partnered(table("AB")) and not ghosts_partnered(table("A"))
    assert not ghosts_partnered(table(""))


def test_the_fuzzy_die_goes_to_the_last_bunco_roller_and_starts_at_the_head_table():
    assert fuzzy_die_holder([]) is None  # the head table holds it
    assert fuzzy_die_holder(["Ann", "Bea"]) == "Bea"


def test_a_set_has_six_rounds():
    assert ROUNDS_PER_SET == 6
    assert round_of(6) == (1, 6) and round_of(7) == (2, 1)


def test_a_scorecard_counts_its_wins_and_losses_and_adds_up_the_rest():
    rows = [{"result": "W", "points": 21, "buncos": 1, "mini_buncos": 0},
            {"result": "L", "points": 4, "buncos": 0, "mini_buncos": 1},
            {"result": "W", "points": 9, "buncos": 0, "mini_buncos": 0}]
    assert totals(rows) == {"wins": 2, "losses": 1, "points": 34, "buncos": 1,
                            "mini_buncos": 1}
    assert totals([]) == {"wins": 0, "losses": 0, "points": 0, "buncos": 0, "mini_buncos": 0}


def test_a_one_die_button_is_that_face_and_a_quick_button_is_made_up_dice():
    rules = PRESETS["ladder"]
    assert list(DIE_BUTTONS) == [f"die{n}" for n in range(1, 7)]
    assert tapped_dice(rules, 2, quick="die5", count=1) == (5,)
    assert tapped_dice(rules, 2, quick="bunco") == (2, 2, 2)
    assert tapped_dice(rules, 2, dice=[6, 2, 1]) == (6, 2, 1)
    with pytest.raises(IllegalMove, match="a roll has 3 dice, not 1"):
        tapped_dice(rules, 2, quick="die5")
    with pytest.raises(IllegalMove, match="tap three dice or a button"):
        tapped_dice(rules, 2)


def test_the_roll_for_who_starts_a_roll_off_takes_the_dice_faces_only():
    """Winning Moves: "each player rolls all three dice. High total will roll first": a quick
    button's made-up dice would decide who starts, so only the faces are taken."""
    r = room(PRESETS["winning-moves"], 3, "ABCD", "EFGH")
    r.roll(1, (3, 3, 3))  # a bunco at table 2 ends the head table at 0-0: a roll-off
    head = r.tables[0]
    assert head.choosing_first and not head.quick_allowed
    with pytest.raises(IllegalMove, match="tap the three dice as they fell"):
        head.tapped(quick="miss")
    assert head.tapped(dice=[6, 6, 4]) == (6, 6, 4)
    head.roll(head.tapped(dice=[6, 6, 4]))
    head.roll((3, 3, 6))
    head.roll((5, 5, 6))
    head.roll((1, 2, 3))
    head.roll((1, 1, 2))
    head.roll((2, 2, 1))  # D starts the roll-off itself: quick buttons again
    assert not head.choosing_first and head.quick_allowed
    assert head.tapped(quick="hit1") == (3, 1, 2)
    assert FACES_ONLY.startswith("this roll decides who starts the roll-off")


def test_each_tie_break_has_one_name_for_the_rules_form_and_a_tied_table():
    from scoring.explain import TIE_BREAKS, tie_break_name
    from scoring.rules import TieBreak

    assert set(TIE_BREAKS) == set(TieBreak)
    assert tie_break_name(PRESETS["ladder"]) == "One die each, highest wins"
    assert tie_break_name(PRESETS["winning-moves"]) == "Roll off to 5 points"
