"""``TableRound.roll_many(rolls)`` leaves a table exactly as ``roll`` with each roll in turn
(for as long as the table is in normal play): same state, same bunco log. The simulator rolls
a table's round this way."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import PRESETS, HouseRules, Phase, Seat, TableRound, TableSpec
from scoring.roll import ALL_DICE
from scoring.rules import (
    AfterBell,
    AfterMini,
    AtLeastOnce,
    BuncoEffect,
    HeadTableWinner,
    PointsPerHit,
    RollOffOrder,
    RoundEnd,
    TargetScope,
    TieBreak,
    Triples,
)

TRIPLES = [i for i, (a, b, c) in enumerate(ALL_DICE) if a == b == c]


def table_state(table: TableRound) -> dict:
    """Everything a table knows, but its fixed setup."""
    return {k: v for k, v in vars(table).items()
            if k not in ("rules", "spec", "bunco_log", "_scores")}


# -- 1. roll_many is roll, many times -----------------------------------------------------------

any_rules = st.builds(
    lambda tri, mini, bell, tie, order, end, effect, wipe, one_each, once, scope, winner, per_hit,
    target: HouseRules(
        triples=tri, after_mini_bunco=mini, after_bell=bell, tie_break=tie,
        roll_off_order=order, round_end=end, bunco_effect=effect, wipeout=wipe,
        at_least_one_roll_each=one_each, at_least_once=once, target_reached_by=scope,
        head_table_winner=winner, points_per_hit=per_hit, team_target=target,
        individual_target=target, sets=1,
    ),
    st.sampled_from(Triples), st.sampled_from(AfterMini), st.sampled_from(AfterBell),
    st.sampled_from(TieBreak), st.sampled_from(RollOffOrder), st.sampled_from(RoundEnd),
    st.sampled_from(BuncoEffect), st.booleans(), st.booleans(), st.sampled_from(AtLeastOnce),
    st.sampled_from(TargetScope), st.sampled_from(HeadTableWinner),
    st.sampled_from(PointsPerHit), st.integers(3, 30),
)

table_specs = st.one_of(
    # a team table of four, perhaps with a ghost (never two partners)
    st.tuples(st.sampled_from([(), (0,), (1,), (0, 1), (2, 3)])).map(
        lambda g: TableSpec(1, tuple(Seat(n, ghost=i in g[0]) for i, n in enumerate("ABCD")))),
    # players on their own, two to four
    st.integers(2, 4).map(
        lambda n: TableSpec(1, tuple(Seat(c) for c in "ABCD"[:n]), individuals=True)),
)
dice_index = st.one_of(st.integers(0, 215), st.sampled_from(TRIPLES))


@settings(max_examples=300, deadline=None)
@given(any_rules, table_specs, st.integers(1, 6), st.booleans(), st.integers(0, 3),
       st.lists(dice_index, max_size=80), st.integers(0, 80))
def test_roll_many_leaves_a_table_as_rolling_each_roll_in_turn(rules, spec, round_number,
                                                                head, first, rolls, cut):
    first %= len(spec.seats)
    one = TableRound(rules, round_number, spec, is_head=head, first_seat=first)
    many = TableRound(rules, round_number, spec, is_head=head, first_seat=first)
    dice = [ALL_DICE[i] for i in rolls]
    rolled = 0
    for faces in dice:
        if one.phase is not Phase.PLAYING:
            break
        one.roll(faces)
        rolled += 1
    # In two calls, split anywhere: a run can be handed over in parts.
    cut = min(cut, len(dice))
    assert many.roll_many(dice[:cut]) + many.roll_many(iter(dice[cut:])) == rolled
    assert table_state(many) == table_state(one)
    assert many.bunco_log == one.bunco_log


def test_roll_many_stops_at_the_roll_that_ends_normal_play_and_leaves_the_rest():
    t = TableRound(PRESETS["clockwise"], 1, TableSpec(1, tuple(Seat(c) for c in "ABCD")),
                   is_head=True)
    rolls = iter([(1, 1, 1), (2, 3, 5), (2, 3, 5)])  # A's bunco: 21, the head table rings
    assert t.roll_many(rolls) == 1
    assert list(rolls) == [(2, 3, 5), (2, 3, 5)]
    assert t.phase is Phase.FINISHING and t.rolls == 1
    assert t.roll_many([(2, 3, 5)]) == 0  # after the bell every roll is owed: one at a time


def test_roll_many_refuses_what_is_not_dice_like_roll_and_keeps_what_was_rolled():
    t = TableRound(PRESETS["clockwise"], 1, TableSpec(1, tuple(Seat(c) for c in "ABCD")),
                   is_head=False)
    with pytest.raises(ValueError, match="7 is not a die face"):
        t.roll_many([(2, 3, 5), (1, 2, 3), (7, 1, 1)])  # a miss (A), a hit (B), not dice
    assert (t.rolls, t.current, t.team_scores) == (2, 1, [0, 1])
