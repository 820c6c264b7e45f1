"""Properties that must hold for any dice, any preset, any allowed player count."""

import json
import random
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import (
    PRESETS,
    HouseRules,
    night_to_json,
    sample_names,
    score_roll,
    simulate_night,
    split_pot,
)
from scoring.rules import AfterBell, Rotation, RoundEnd, TieBreak, Triples

preset_ids = st.sampled_from(sorted(PRESETS))
dice = st.tuples(*[st.integers(1, 6)] * 3)
rounds = st.integers(1, 6)


@given(preset_ids, rounds, dice, st.booleans())
def test_a_roll_never_scores_negative_and_a_miss_never_keeps_the_turn(rules_id, rnd, roll, wipe):
    rules = PRESETS[rules_id].replace(wipeout=wipe)
    score = score_roll(rules, rnd, roll)
    assert score.points >= 0
    assert (score.kind == "bunco") == (roll == (rnd, rnd, rnd))
    if score.kind in ("miss", "wipeout"):
        assert not score.keeps_turn and score.points == 0
    if score.kind == "hits":
        assert score.keeps_turn and 1 <= score.hits <= 2


@st.composite
def night_setups(draw):
    rules_id = draw(preset_ids)
    rules = PRESETS[rules_id]
    low, high = rules.player_limits
    count = draw(st.integers(low, min(high, 41)))
    return rules_id, rules, count, draw(st.integers(0, 10**6))


@settings(max_examples=60, deadline=None)
@given(night_setups())
def test_every_real_player_is_seated_exactly_once_every_round(setup):
    rules_id, rules, count, seed = setup
    sim = simulate_night(rules, sample_names(count), random.Random(seed), sets=1)
    names = set(sample_names(count))
    for record in sim.rounds:
        seated = [n for t in record.tables for n in t.seats]
        real = [n for n in seated if n in names]
        assert sorted(real) == sorted(names)
        assert len(seated) == len(set(seated))


@settings(max_examples=60, deadline=None)
@given(night_setups())
def test_each_table_has_one_winning_side_and_team_tables_split_two_and_two(setup):
    _, rules, count, seed = setup
    sim = simulate_night(rules, sample_names(count), random.Random(seed), sets=1)
    for record in sim.rounds:
        for t in record.tables:
            assert set(t.winners) | set(t.losers) == set(t.seats)
            assert not set(t.winners) & set(t.losers)
            if len(t.seats) == 4 and len(t.teams) == 2:
                assert len(t.winners) == 2 and len(t.losers) == 2
                assert tuple(t.winners) in t.teams
            else:
                assert len(t.winners) == 1


@settings(max_examples=60, deadline=None)
@given(night_setups())
def test_nobody_keeps_last_rounds_partner(setup):
    _, rules, count, seed = setup
    sim = simulate_night(rules, sample_names(count), random.Random(seed), sets=1)
    previous: dict[str, str] = {}
    for record in sim.rounds:
        current = {a: b for t in record.tables for team in t.teams if len(team) == 2
                   for a, b in (team, team[::-1])}
        for name, partner in current.items():
            assert previous.get(name) != partner
        previous = current


@settings(max_examples=60, deadline=None)
@given(night_setups())
def test_ghosts_are_never_credited_and_never_win_an_award(setup):
    _, rules, count, seed = setup
    sim = simulate_night(rules, sample_names(count), random.Random(seed), sets=1)
    ghosts = {s.name for s in sim.night.stats.values() if s.ghost}
    for s in sim.night.stats.values():
        if s.ghost:
            assert (s.wins, s.losses, s.buncos, s.mini_buncos, s.points) == (0, 0, 0, 0, 0)
    assert not ghosts & {w for a in sim.awards for w in a.winners}
    real = [s for s in sim.night.stats.values() if not s.ghost]
    assert sum(s.wins + s.losses for s in real) <= len(sim.rounds) * count


@settings(max_examples=40, deadline=None)
@given(night_setups())
def test_the_same_seed_plays_the_same_night(setup):
    rules_id, rules, count, seed = setup
    a = simulate_night(rules, sample_names(count), random.Random(seed), rules_id=rules_id, sets=1)
    b = simulate_night(rules, sample_names(count), random.Random(seed), rules_id=rules_id, sets=1)
    assert json.dumps(night_to_json(a)) == json.dumps(night_to_json(b))


custom_rules = st.builds(
    lambda tri, bell, tie, rot, end, wipe, one_each, target: HouseRules(
        triples=tri, after_bell=bell, tie_break=tie, rotation=rot, round_end=end,
        wipeout=wipe, at_least_one_roll_each=one_each, team_target=target, sets=1,
    ),
    st.sampled_from(Triples), st.sampled_from(AfterBell), st.sampled_from(TieBreak),
    st.sampled_from(Rotation), st.sampled_from(list(RoundEnd)), st.booleans(), st.booleans(),
    st.integers(5, 30),
)


@settings(max_examples=60, deadline=None)
@given(custom_rules, st.integers(4, 17), st.integers(0, 10**6))
def test_any_custom_rules_play_a_whole_set_with_team_totals_matching_the_tally(rules, count, seed):
    """Any mix of dimensions plays to the end; team scores are the sum of their seats' points
    (wipeouts included) and JSON round-trips the rules unchanged."""
    assert HouseRules.from_json(rules.to_json()) == rules
    night_rng = random.Random(seed)
    from scoring import Night
    from scoring.simulate import play_round

    night = Night.seat(rules, sample_names(count), night_rng)
    while not night.finished:
        assert night.rounds_left == 6 * rules.sets - len(night.history)
        room = night.start_round()
        play_round(room, night_rng, seconds_per_roll=6)
        for table in room.tables:
            for team, seats in enumerate(table.spec.teams):
                assert table.team_scores[team] == sum(table.seat_points[s] for s in seats)
        night.finish_round(room)
    assert len(night.history) == 6 * rules.sets and night.rounds_left == 0


@given(st.integers(0, 10**7), st.lists(st.integers(1, 9000), min_size=1, max_size=8))
def test_the_pot_split_never_loses_or_invents_a_cent(pot, weights):
    # Shares in hundredths of a percent that add up to exactly 100%.
    total = sum(weights)
    basis = [w * 10000 // total for w in weights]
    basis[0] += 10000 - sum(basis)
    shares = [Decimal(b) / 100 for b in basis if b] or [Decimal(100)]
    assert sum(shares) == 100
    cents = split_pot(pot, shares)
    assert sum(cents) == pot and min(cents) >= 0
