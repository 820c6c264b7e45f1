"""Scoring one roll: the worked examples of every seed, and the public contract."""

import pytest

from scoring import PRESETS, HouseRules, IllegalMove, score_roll

STANDARD = PRESETS["clockwise"]


def test_seed_001_three_ones_is_a_bunco_in_round_1_and_one_point_in_round_2():
    """Seed 001's example (read as a true bunco in round 1): 1-1-1 scores one point in round 2
    and nothing in rounds 3-6 (it is a mini bunco there, worth 5, not a hit)."""
    rules = PRESETS["head-table"]
    assert score_roll(rules, 1, (1, 1, 1)).kind == "bunco"
    assert score_roll(rules, 2, (1, 1, 2)).points == 1
    for rnd in range(3, 7):
        assert score_roll(rules, rnd, (1, 1, 2)).points == 0


def test_seed_003_two_ones_score_two_in_round_1_one_in_round_2_none_later():
    """Seed 003: rolling 1, 1, 2 earns 2 points in round 1, one point in round 2, none after."""
    assert score_roll(STANDARD, 1, (1, 1, 2)).points == 2
    assert score_roll(STANDARD, 2, (1, 1, 2)).points == 1
    for rnd in range(3, 7):
        roll = score_roll(STANDARD, rnd, (1, 1, 2))
        assert (roll.points, roll.kind, roll.keeps_turn) == (0, "miss", False)


def test_seed_001_triple_of_another_number_is_five_points():
    """Seed 001: rolling 2 2 2 in round 3 earns 5 points."""
    roll = score_roll(PRESETS["head-table"], 3, (2, 2, 2))
    assert (roll.points, roll.kind, roll.keeps_turn) == (5, "mini_bunco", True)


def test_bunco_is_21_and_the_turn_continues_in_seeds_002_003_004():
    for rules_id in ("ladder", "clockwise", "babz"):
        roll = score_roll(PRESETS[rules_id], 3, (3, 3, 3))
        assert (roll.points, roll.kind, roll.keeps_turn) == (21, "bunco", True)


def test_seed_002_hits_score_the_round_number_each():
    """Seed 002: in round 4 each 4 is worth 4 points: two 4s make 8; a bunco is still 21."""
    rules = PRESETS["ladder"]
    assert score_roll(rules, 4, (4, 4, 1)).points == 8
    assert score_roll(rules, 6, (6, 6, 6)).points == 21
    assert score_roll(rules, 6, (6, 2, 3)).points == 6
    assert score_roll(rules, 1, (1, 1, 5)).points == 2


def test_seed_004_baby_bunco_is_five_and_ends_the_turn():
    """Seed 004: three 2s in round 5 is a baby bunco worth 5, and the turn is over."""
    roll = score_roll(PRESETS["babz"], 5, (2, 2, 2))
    assert (roll.points, roll.kind, roll.keeps_turn) == (5, "mini_bunco", False)


def test_winning_moves_low_and_high_buncos():
    """Winning Moves: in round 4, three 2s are a low bunco (7) and three 5s a high bunco (5);
    the player rolls again. A true bunco (21) ends the round, so the turn is over."""
    rules = PRESETS["winning-moves"]
    low = score_roll(rules, 4, (2, 2, 2))
    high = score_roll(rules, 4, (5, 5, 5))
    assert (low.points, low.kind, low.keeps_turn) == (7, "low_bunco", True)
    assert (high.points, high.kind, high.keeps_turn) == (5, "high_bunco", True)
    true = score_roll(rules, 1, (1, 1, 1))
    assert (true.points, true.kind, true.keeps_turn) == (21, "bunco", False)


def test_winning_moves_example_one_one_point_then_roll_again():
    """Winning Moves: two 4s and a 1 in round one score 1 point and the player rolls again."""
    roll = score_roll(PRESETS["winning-moves-solo"], 1, (4, 4, 1))
    assert (roll.points, roll.keeps_turn) == (1, True)


def test_group_funko_ends_the_turn_because_it_holds_no_target_die():
    """Seed 000's group: play continues only while the player rolls the target; a funko
    (another number three times) scores 5 and passes the dice."""
    roll = score_roll(PRESETS["fuzzy-die"], 1, (3, 3, 3))
    assert (roll.points, roll.kind, roll.keeps_turn) == (5, "mini_bunco", False)


def test_wipeout_when_enabled_replaces_the_mini_bunco_of_ones():
    rules = HouseRules(wipeout=True)
    roll = score_roll(rules, 4, (1, 1, 1))
    assert (roll.kind, roll.points, roll.keeps_turn) == ("wipeout", 0, False)
    assert score_roll(rules, 1, (1, 1, 1)).kind == "bunco"
    assert score_roll(HouseRules(), 4, (1, 1, 1)).kind == "mini_bunco"


def test_no_triples_rule_scores_other_triples_as_a_miss():
    roll = score_roll(HouseRules(triples="none"), 2, (5, 5, 5))
    assert (roll.kind, roll.points) == ("miss", 0)


def test_dice_order_does_not_matter_and_lists_are_accepted():
    assert score_roll(STANDARD, 2, [2, 5, 2]) == score_roll(STANDARD, 2, (2, 2, 5))


@pytest.mark.parametrize(
    "dice, message",
    [
        ((1, 2), "3 dice"),
        ((1, 2, 3, 4), "3 dice"),
        ((0, 2, 3), "1-6"),
        ((1, 2, 7), "1-6"),
        ((1, 2, "3"), "1-6"),
        ((1, True, 3), "1-6"),
        ("123", "sequence"),
        (None, "sequence"),
    ],
)
def test_invalid_dice_raise_a_clear_value_error(dice, message):
    """An IllegalMove, the game's refusal of a roll (a ValueError, as the contract says)."""
    with pytest.raises(IllegalMove, match=message):
        score_roll(STANDARD, 1, dice)


@pytest.mark.parametrize("round_number", [0, 7, -1, 1.0, "1", True])
def test_invalid_round_numbers_raise_a_clear_value_error(round_number):
    with pytest.raises(ValueError, match="round number"):
        score_roll(STANDARD, round_number, (1, 1, 1))


@pytest.mark.parametrize("rules_id", sorted(PRESETS))
@pytest.mark.parametrize("round_number", range(1, 7))
def test_quick_buttons_stand_for_dice_that_score_as_labelled(rules_id, round_number):
    from scoring.roll import dice_for

    rules = PRESETS[rules_id]
    expect = {"miss": "miss", "hit1": "hits", "hit2": "hits", "bunco": "bunco"}
    for quick, kind in expect.items():
        assert score_roll(rules, round_number, dice_for(rules, round_number, quick)).kind == kind
    assert score_roll(rules, round_number, dice_for(rules, round_number, "hit2")).hits == 2
    if rules.triples.value == "mini":
        assert score_roll(rules, round_number,
                          dice_for(rules, round_number, "mini")).kind == "mini_bunco"
    if rules.triples.value == "low_high" and round_number > 1:
        assert score_roll(rules, round_number,
                          dice_for(rules, round_number, "low")).kind == "low_bunco"
    if rules.triples.value == "low_high" and round_number < 6:
        assert score_roll(rules, round_number,
                          dice_for(rules, round_number, "high")).kind == "high_bunco"


def test_quick_buttons_that_do_not_exist_are_refused():
    """As the game's own error (a tap it refuses), which the web layer shows as it is."""
    from scoring.roll import dice_for

    with pytest.raises(IllegalMove, match="no low bunco in round 1"):
        dice_for(PRESETS["winning-moves"], 1, "low")
    with pytest.raises(IllegalMove, match="no high bunco"):
        dice_for(PRESETS["babz"], 3, "high")
    with pytest.raises(IllegalMove, match="no mini bunco"):
        dice_for(PRESETS["winning-moves"], 3, "mini")
    with pytest.raises(IllegalMove, match="no wipeout"):
        dice_for(PRESETS["babz"], 3, "wipeout")
    with pytest.raises(IllegalMove, match="unknown quick button"):
        dice_for(PRESETS["babz"], 3, "jackpot")
    assert dice_for(PRESETS["babz"].replace(wipeout=True), 3, "wipeout") == (1, 1, 1)
    assert dice_for(PRESETS["babz"].replace(wipeout=True), 3, "mini") != (1, 1, 1)
