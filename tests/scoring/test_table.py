"""A table's round as a state machine: turns, the bell, finishing, tie-breaks, ghosts."""

import pytest

from scoring import PRESETS, HouseRules, IllegalMove, Phase, TableRound

from .helpers import MISS, hits, room, spec

BUNCO1 = (1, 1, 1)


def table(rules, names="ABCD", *, head=True, round_number=1, **kw):
    return TableRound(rules, round_number, spec(names, **kw), is_head=head)


def test_turn_passes_left_on_a_miss_and_stays_while_scoring():
    t = table(PRESETS["clockwise"])
    assert t.current == 0
    t.roll(hits(2))
    assert t.current == 0 and t.team_scores == [2, 0]
    t.roll(MISS)
    assert t.current == 1
    t.roll(hits(1))
    assert t.team_scores == [2, 1] and t.seat_points == [2, 1, 0, 0]


def test_head_table_reaching_21_ends_its_round_and_rings_for_the_room():
    r = room(PRESETS["head-table"], 1, "ABCD", "EFGH")
    r.roll(0, BUNCO1)  # A: 21, the head table rings
    assert r.bell_rung
    head = r.tables[0]
    # head-table rules: everyone gets at least one roll, so B, C and D still roll once each.
    assert head.phase is Phase.EXTRA_ROLLS and head.current == 1
    for _ in range(3):
        r.roll(0, MISS)
    assert head.done and head.winners == (0, 2) and head.losers == (1, 3)


def test_after_the_bell_stop_means_no_more_rolls():
    r = room(PRESETS["fuzzy-die"], 1, "ABCD", "EFGH")
    r.roll(1, hits(2))
    r.roll(0, BUNCO1)
    other = r.tables[1]
    assert other.done and other.winner_team == 0
    with pytest.raises(IllegalMove, match="finished"):
        r.roll(1, hits(1))


def test_after_the_bell_finish_the_roll_allows_exactly_one_roll():
    r = room(PRESETS["head-table"], 1, "ABCD", "EFGH")
    r.roll(1, hits(1))  # E: 1
    r.roll(0, BUNCO1)
    other = r.tables[1]
    assert other.phase is Phase.FINISHING
    r.roll(1, hits(2))  # E was mid-roll: it counts, and that is all
    assert other.team_scores == [3, 0]
    assert other.phase is not Phase.FINISHING


def test_after_the_bell_finish_the_turn_keeps_rolling_until_a_miss():
    rules = PRESETS["clockwise"]
    r = room(rules, 1, "ABCD", "EFGH")
    r.roll(1, hits(1))
    r.roll(0, BUNCO1)
    other = r.tables[1]
    r.roll(1, hits(1))
    r.roll(1, hits(2))
    assert other.phase is Phase.FINISHING
    r.roll(1, MISS)
    assert other.done and other.team_scores == [4, 0] and other.winners == (0, 2)


def test_the_head_table_roller_also_finishes_the_turn_and_keeps_scoring():
    """Seed 002: all players taking turns, including the one who rang the bell, finish."""
    r = room(PRESETS["ladder"], 1, "ABCD")
    head = r.tables[0]
    r.roll(0, BUNCO1)
    assert head.phase is Phase.FINISHING
    r.roll(0, hits(2))
    r.roll(0, MISS)
    assert head.done and head.team_scores == [23, 0]


def test_finishing_can_be_closed_when_nobody_was_rolling():
    r = room(PRESETS["clockwise"], 1, "ABCD", "EFGH")
    r.roll(1, hits(1))
    r.roll(0, BUNCO1)
    r.tables[1].finish()
    assert r.tables[1].done
    r.roll(0, MISS)  # the head table's roller finishes the turn
    with pytest.raises(IllegalMove, match="only a table finishing"):
        r.tables[0].finish()


def test_other_tables_may_pass_21_before_the_head_table_rings():
    r = room(PRESETS["clockwise"], 1, "ABCD", "EFGH")
    r.roll(1, BUNCO1)
    r.roll(1, hits(2))
    assert r.tables[1].team_scores == [23, 0] and not r.tables[1].done and not r.bell_rung


def test_babz_head_table_bunco_ends_the_round_but_elsewhere_play_goes_on():
    rules = PRESETS["babz"].replace(team_target=30)
    r = room(rules, 1, "ABCD", "EFGH")
    r.roll(1, BUNCO1)
    assert not r.bell_rung
    r.roll(0, hits(2))
    r.roll(0, MISS)
    r.roll(0, BUNCO1)  # B's bunco at the head table: the gong
    assert r.bell_rung


def test_babz_baby_bunco_passes_the_dice():
    t = table(PRESETS["babz"])
    t.roll((4, 4, 4))
    assert t.current == 1 and t.seat_minis[0] == 1


def test_winning_moves_each_table_plays_to_its_own_21():
    rules = PRESETS["winning-moves"]
    r = room(rules, 2, "ABCD", "EFGH")
    for _ in range(11):
        r.roll(1, (2, 2, 5))
    assert r.tables[1].done and r.tables[1].winners == (0, 2)
    assert not r.bell_rung and not r.tables[0].done


def test_winning_moves_true_bunco_ends_the_round_at_every_table():
    rules = PRESETS["winning-moves"]
    r = room(rules, 3, "ABCD", "EFGH", "IJKL")
    r.roll(0, hits(1, 3))
    r.roll(0, (2, 4, 5))  # a miss in round 3: B to roll at the head table
    r.roll(2, (3, 3, 3))  # I: a true bunco at table 3
    assert r.bell_rung and r.tables[0].done and r.tables[2].done
    assert r.tables[2].winners == (0, 2)
    assert r.tables[0].winners == (0, 2)  # 1-0 at the head table when the round ended
    assert r.tables[1].phase is Phase.TIE_BREAK  # 0-0: they roll off to 5 points


def test_winning_moves_roll_off_to_five_counts_only_target_dice():
    """Seed 000: "In a roll off, the first player to reach 5 points wins the roll off (points
    are scored for rolling the number of the round just completed, as well as for Buncos.) To
    determine who goes first in a roll-off, each player rolls all three dice. High total will
    roll first (but does not score for this roll)." """
    rules = PRESETS["winning-moves"]
    r = room(rules, 3, "ABCD", "EFGH")
    r.roll(1, (3, 3, 3))  # a bunco at table 2 ends table 1 at 0-0
    head = r.tables[0]
    assert head.phase is Phase.TIE_BREAK and head.choosing_first
    assert head.current == 1  # B, C, D, A roll three dice each for who goes first
    assert head.roll((6, 6, 4)) is None  # B: 16, not scored
    head.roll((3, 3, 6))  # C: 12
    head.roll((5, 5, 6))  # D: 16, equal high total with B: B and D roll again
    head.roll((1, 2, 3))  # A: 6
    assert head.choosing_first and head.current == 1
    head.roll((1, 1, 2))  # B: 4
    head.roll((2, 2, 1))  # D: 5, high total: D rolls first
    assert not head.choosing_first and head.current == 3
    assert head.team_scores == [0, 0]
    head.roll((2, 2, 2))  # a low bunco scores nothing in a roll-off and passes the dice
    assert head.current == 0
    head.roll((3, 3, 1))
    head.roll((3, 3, 1))
    assert head.phase is Phase.TIE_BREAK
    head.roll((3, 2, 1))  # A: 5 points
    assert head.done and head.winner_team == 0
    assert head.team_scores == [0, 0]  # roll-off points are not round points


def test_one_die_tie_break_highest_die_wins_and_equal_dice_roll_again():
    rules = PRESETS["ladder"]
    r = room(rules, 1, "ABCD", "EFGH")
    r.roll(0, BUNCO1)
    r.roll(0, MISS)
    other = r.tables[1]
    other.roll(MISS)  # E finishes the turn with nothing: 0-0
    assert other.phase is Phase.TIE_BREAK and other.dice_expected == 1
    other.roll((4,))
    other.roll((4,))
    assert other.phase is Phase.TIE_BREAK
    first = other.current
    other.roll((2,))
    other.roll((5,))
    assert other.done and other.winner_team != other.spec.team_of(first)
    with pytest.raises(IllegalMove, match="a roll has 3 dice, not 1"):
        room(rules, 1, "ABCD").tables[0].roll((1,))


def test_first_to_hit_tie_break_the_first_target_die_wins():
    rules = PRESETS["clockwise"]
    r = room(rules, 2, "ABCD", "EFGH")
    r.roll(0, (2, 2, 2))
    r.roll(0, (3, 4, 5))
    other = r.tables[1]
    other.roll((3, 4, 5))
    assert other.phase is Phase.TIE_BREAK
    first = other.current
    other.roll((5, 5, 5))  # a mini bunco is not the target: next player
    assert other.current != first
    second = other.current
    other.roll((2, 3, 4))
    assert other.done and other.winner_team == other.spec.team_of(second)


def test_extra_turn_each_tie_break_plays_a_lap_and_counts_the_points():
    rules = PRESETS["babz"]
    r = room(rules, 1, "ABCD", "EFGH")
    r.roll(0, BUNCO1)  # the gong: table 2 stops at once, 0-0
    other = r.tables[1]
    assert other.phase is Phase.TIE_BREAK
    other.roll(hits(1))  # F
    other.roll(MISS)
    other.roll(MISS)  # G
    other.roll(MISS)  # H
    assert not other.done
    other.roll(MISS)  # E: the lap is over, F's team leads 1-0
    assert other.done and other.winners == (1, 3) and other.seat_points[1] == 1


def test_ghost_rolls_score_for_the_team_only():
    """Seed 004: the partner rolls for the ghost; points count for the team, no bunco or baby
    bunco is credited to anyone."""
    t = table(PRESETS["babz"], "ABCG", ghosts="G", head=False)
    t.roll(MISS)
    t.roll(MISS)
    t.roll(MISS)
    assert t.current == 3  # the ghost's turn: B rolls for it
    t.roll(BUNCO1)
    assert t.team_scores == [0, 21]
    assert t.seat_buncos == [0, 0, 0, 0]
    t.roll((3, 3, 3))
    assert t.seat_minis == [0, 0, 0, 0] and t.team_scores == [0, 26]


def test_wipeout_zeroes_the_team_round_points():
    rules = PRESETS["clockwise"].replace(wipeout=True)
    t = table(rules, head=False, round_number=3)
    t.roll((3, 3, 2))
    t.roll((2, 4, 5))
    t.roll((3, 2, 5))
    t.roll((2, 4, 5))
    t.roll((1, 1, 1))  # C wipes out A and C's 6
    assert t.team_scores == [0, 1] and t.seat_wipeouts[2] == 1 and t.seat_points[0] == 0


def test_rolls_after_the_round_or_with_bad_dice_change_nothing():
    t = table(PRESETS["clockwise"])
    with pytest.raises(ValueError):
        t.roll((1, 2, 9))
    assert t.rolls == 0 and t.team_scores == [0, 0]


def test_solo_individuals_first_to_21_and_a_bunco_wins_at_once():
    rules = PRESETS["winning-moves-solo"]
    t = TableRound(rules, 2, spec("ABC", individuals=True), is_head=True)
    t.roll((2, 2, 5))
    t.roll((3, 4, 5))
    t.roll((2, 2, 2))
    assert t.done and t.winners == (1,) and t.losers == (0, 2)


def test_timer_rules_only_the_host_ends_the_round():
    rules = HouseRules(round_end="timer")
    r = room(rules, 1, "ABCD", "EFGH")
    for _ in range(30):
        r.roll(0, hits(2))
    assert not r.bell_rung and not r.done
    r.ring_bell()
    r.roll(0, MISS)
    r.tables[1].finish()
    assert r.tables[0].done and r.tables[0].winners == (0, 2)
    assert r.tables[1].phase is Phase.TIE_BREAK  # 0-0 when the horn sounded


def test_the_bell_says_who_finishes_what_or_to_stop_as_the_house_rules_have_it():
    """What each table does after the bell comes from the engine: the chair whose roll or
    turn is finished, or stop now; nothing before the bell."""
    from scoring import BellDuty
    from scoring.rules import AfterBell

    for preset, then in (("ladder", AfterBell.FINISH_TURN),
                         ("head-table", AfterBell.FINISH_ROLL)):
        r = room(PRESETS[preset], 1, "ABCD", "EFGH")
        r.tables[1].roll(MISS)  # E missed: F is rolling when the bell rings
        assert r.tables[1].bell_duty() is None
        r.ring_bell()
        assert r.tables[1].bell_duty() == BellDuty(then, 1)
    r = room(PRESETS["fuzzy-die"], 1, "ABCD", "EFGH")
    r.ring_bell()
    assert r.tables[1].bell_duty() == BellDuty(AfterBell.STOP)


def test_the_rolls_that_keep_the_turn_are_the_engines():
    """A phone moves the turn on by itself from this list while its taps wait to be sent."""
    from scoring import score_roll, turn_keeping_rolls

    for preset in PRESETS.values():
        keeps = turn_keeping_rolls(preset, 4)
        for dice in ((4, 2, 3), (4, 4, 1), (2, 2, 2), (1, 1, 1), (4, 4, 4), (2, 3, 5)):
            key = "".join(map(str, sorted(dice)))
            assert (key in keeps) == score_roll(preset, 4, dice).keeps_turn


def test_the_turn_order_starts_with_the_roller():
    t = table(PRESETS["clockwise"])
    t.roll(MISS)
    assert t.turn_order() == (1, 2, 3, 0)


def test_babz_a_players_own_21_wins_the_head_table_for_the_lower_team_and_says_whose():
    """Seed 004: "until someone ... reaches 21 points". Each player's tally is kept; a player
    close to 21 is marked; the lower team wins the head table by its player's 21."""
    t = table(PRESETS["babz"])  # A & C against B & D
    assert t.tallies_by_player
    t.roll(MISS)  # A
    for _ in range(10):
        t.roll(hits(2))  # B: 20, one short
    t.roll(MISS)
    t.roll(MISS)  # C
    for _ in range(8):
        t.roll(hits(2))  # D: 16
    t.roll(MISS)
    assert [t.close_to_target(s) for s in range(4)] == [False, True, False, False]
    assert not t.done and t.won_by_trigger() is None
    for _ in range(11):
        t.roll(hits(2))  # A: 22, past 21 on their own
    assert t.done and t.team_scores == [22, 36] and t.winners == (0, 2)
    assert t.won_by_trigger() == (0, False)  # A's own 21, not the team's points
    assert t.seat_points == [22, 20, 0, 16]


def test_only_a_players_own_target_marks_players_close_or_explains_a_win():
    t = table(PRESETS["head-table"])
    assert not t.tallies_by_player
    for _ in range(10):
        t.roll(hits(2))
    assert not t.close_to_target(0)
    t.roll(hits(2))  # A & C reach 21 as a team, the most points: nothing to explain
    for _ in range(3):
        t.roll(MISS)
    assert t.done and t.won_by_trigger() is None
