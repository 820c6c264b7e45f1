"""Awards and the pot: each seed's prize scheme, cents never lost, ties, ghosts."""

import random
from decimal import Decimal

import pytest

from scoring import PRESETS, IllegalMove, PlayerStats, decide_awards, split_evenly, split_pot


def stats(*rows):
    """rows of (name, wins, losses, buncos, mini_buncos, points[, ghost])"""
    out = {}
    for name, w, lo, b, m, p, *ghost in rows:
        out[name] = PlayerStats(name, bool(ghost), w, lo, b, m, 0, p)
    return out


NIGHT = stats(
    ("Ann", 8, 4, 2, 3, 140),
    ("Bea", 8, 4, 2, 1, 120),
    ("Cat", 5, 7, 1, 5, 150),
    ("Dee", 3, 9, 0, 0, 60),
    ("Eve", 6, 6, 0, 2, 95),
    ("Ghost 1", 0, 0, 0, 0, 0, True),
)


def by_category(results):
    return {str(r.category): r for r in results}


def test_babz_pot_40_20_15_15_10_with_a_tie_split_to_the_cent():
    """Seed 004: $100 pot (10 players x $10). Ann and Bea tie for most buncos (and most wins)
    and, asked, choose to split: "they can decide how they would like to divvy up the prize
    money"."""
    results = by_category(decide_awards(PRESETS["babz"], NIGHT, pot_cents=10_000,
                                        splits=["most_buncos", "most_wins"]))
    assert results["most_buncos"].winners == ("Ann", "Bea")
    assert results["most_buncos"].payouts == (("Ann", 2000), ("Bea", 2000))
    assert results["highest_points"].payouts == (("Cat", 2000),)
    assert results["most_wins"].payouts == (("Ann", 750), ("Bea", 750))
    assert results["most_mini_buncos"].payouts == (("Cat", 1500),)
    assert results["most_losses"].payouts == (("Dee", 1000),)
    assert results["lowest_points"].winners == ("Dee",)
    assert "doormat" in results["lowest_points"].prize
    paid = sum(c for r in results.values() for _, c in r.payouts)
    assert paid == 10_000


def test_odd_pots_lose_and_invent_no_cent():
    """$101.01 shared 40/20/15/15/10 and then split three ways still adds up exactly."""
    shares = [Decimal(x) for x in ("40", "20", "15", "15", "10")]
    cents = split_pot(10_101, shares)
    assert sum(cents) == 10_101
    # Rounded down: 4040.40, 2020.20, 1515.15, 1515.15, 1010.10 leave one cent, which goes
    # to the largest fraction (the 40% share).
    assert cents == [4041, 2020, 1515, 1515, 1010]
    thirds = split_evenly(1001, ["Cy", "ann", "Bo"])
    assert thirds == [("ann", 334), ("Bo", 334), ("Cy", 333)]


@pytest.mark.parametrize("pot", [0, 1, 7, 99, 12_345, 99_999])
def test_pot_split_always_adds_up(pot):
    shares = [Decimal("33.33"), Decimal("33.33"), Decimal("33.34")]
    assert sum(split_pot(pot, shares)) == pot


def test_fuzzy_die_group_prizes_most_buncos_wins_losses():
    """Seed 000's group: grand prize most buncos, second most wins, third most losses."""
    results = decide_awards(PRESETS["fuzzy-die"], NIGHT)
    # Named prizes go to one person each: the tied pairs roll off.
    assert [(str(r.category), r.winners, r.roll_off, r.prize) for r in results] == [
        ("most_buncos", (), ("Ann", "Bea"), "Grand prize"),
        ("most_wins", (), ("Ann", "Bea"), "Second prize"),
        ("most_losses", ("Dee",), (), "Third prize"),
    ]


def test_clockwise_medals_for_wins_buncos_and_mini_buncos():
    """Seed 003: medals for most wins, most buncos, most mini buncos."""
    results = by_category(decide_awards(PRESETS["clockwise"], NIGHT))
    assert results["most_mini_buncos"].winners == ("Cat",)
    assert results["most_mini_buncos"].value == 5
    assert all(r.prize == "Medal" for r in results.values())


def test_one_prize_per_person_skips_earlier_winners_in_list_order():
    rules = PRESETS["babz"].replace(one_prize_per_person=True, award_ties="split")
    results = by_category(decide_awards(rules, NIGHT, pot_cents=10_000))
    assert results["most_buncos"].winners == ("Ann", "Bea")
    assert results["highest_points"].winners == ("Cat",)
    assert results["most_wins"].winners == ("Eve",)  # Ann and Bea already won
    assert results["most_mini_buncos"].winners == ()  # only Dee is left, with none
    assert results["most_losses"].winners == ("Dee",)
    assert results["lowest_points"].winners == ()  # everyone has a prize already
    assert sum(c for r in results.values() for _, c in r.payouts) == 10_000


def test_ghosts_never_win_even_the_lowest_score():
    results = by_category(decide_awards(PRESETS["babz"], NIGHT))
    assert all("Ghost 1" not in r.winners for r in results.values())
    assert results["lowest_points"].winners == ("Dee",)


def test_roll_off_ties_are_played_with_dice_or_entered_by_the_host():
    rules = PRESETS["babz"].replace(award_ties="roll_off")
    pending = by_category(decide_awards(rules, NIGHT))
    assert pending["most_buncos"].winners == () and pending["most_buncos"].roll_off == (
        "Ann", "Bea")
    entered = by_category(decide_awards(rules, NIGHT, roll_offs={"most_buncos": "Bea"}))
    assert entered["most_buncos"].winners == ("Bea",)
    played = by_category(decide_awards(rules, NIGHT, rng=random.Random(5)))
    assert played["most_buncos"].winners in (("Ann",), ("Bea",))
    with pytest.raises(IllegalMove, match="not tied"):
        decide_awards(rules, NIGHT, roll_offs={"most_buncos": "Dee"})


def test_winning_moves_set_winner_most_wins_then_most_buncos():
    rules = PRESETS["winning-moves"]
    tied = stats(("Ann", 4, 2, 1, 0, 50), ("Bea", 4, 2, 2, 0, 40), ("Cat", 1, 5, 0, 0, 20))
    (result,) = decide_awards(rules, tied, awards=rules.set_awards)
    assert result.winners == ("Bea",)


def test_a_category_nobody_qualifies_for_passes_its_money_on():
    quiet = stats(("Ann", 4, 2, 0, 1, 50), ("Bea", 2, 4, 0, 0, 40))
    results = by_category(decide_awards(PRESETS["babz"], quiet, pot_cents=2000))
    assert results["most_buncos"].winners == () and results["most_buncos"].amount_cents == 0
    total = sum(c for r in results.values() for _, c in r.payouts)
    assert total == 2000
    assert results["highest_points"].amount_cents == 400 + 800  # its 20% plus the 40%
    # and each side of the move says so, for the screens to tell where every dollar went
    assert results["most_buncos"].share_cents == 800
    assert results["most_buncos"].passed_to == "highest_points"
    assert results["highest_points"].share_cents == 400
    assert results["highest_points"].passed_from == ("most_buncos",)
    assert results["most_wins"].passed_from == () and results["most_wins"].passed_to is None


def test_first_and_last_bunco_and_the_fuzzy_die_follow_the_order_rolled():
    rules = PRESETS["clockwise"].replace(awards=[
        {"category": "first_bunco", "prize": "Early bird"},
        {"category": "last_bunco", "prize": "Closer"},
        {"category": "fuzzy_die", "prize": "Fuzzy die"},
    ])
    results = decide_awards(rules, NIGHT, bunco_order=["Bea", "Ann", "Cat"])
    assert [r.winners for r in results] == [("Bea",), ("Cat",), ("Cat",)]


def test_tied_players_may_divvy_up_the_money_as_they_agree():
    """Seed 004: "they can decide how they would like to divvy up the prize money"."""
    from scoring.awards import check_agreed

    rules = PRESETS["babz"]
    tied = stats(("Ann", 4, 2, 2, 0, 50), ("Bea", 2, 4, 2, 0, 40), ("Cat", 3, 3, 1, 0, 45))
    paid = by_category(decide_awards(rules, tied, pot_cents=10_001, splits=["most_buncos"],
                                     shares={"most_buncos": {"Ann": 70, "Bea": 30}}))
    most = paid["most_buncos"]
    ann, bea = dict(most.payouts)["Ann"], dict(most.payouts)["Bea"]
    assert ann + bea == most.amount_cents and abs(ann - most.amount_cents * 0.7) < 1
    assert sum(c for a in paid.values() for _, c in a.payouts) == 10_001  # no cent lost
    even = by_category(decide_awards(rules, tied, pot_cents=10_001, splits=["most_buncos"]))
    halves = dict(even["most_buncos"].payouts)
    assert abs(halves["Ann"] - halves["Bea"]) <= 1
    for wrong, why in (({"Ann": 70}, "each tied player"), ({"Ann": 70, "Bea": 20}, "90%"),
                       ({"Ann": 101, "Bea": -1}, "whole percent")):
        with pytest.raises(IllegalMove, match=why):
            check_agreed(wrong, ["Ann", "Bea"])
