"""Every preset plays a whole set for every player count its rules allow (2-4 for the solo
game, 4-400 for the rest)."""

import random

import pytest

from scoring import PRESETS, sample_names, simulate_night

CHUNK = 50


def cases():
    for rules_id, rules in PRESETS.items():
        low, high = rules.player_limits
        for start in range(low, high + 1, CHUNK):
            yield pytest.param(rules_id, start, min(start + CHUNK - 1, high),
                               id=f"{rules_id}-{start}")


@pytest.mark.parametrize("rules_id, first, last", list(cases()))
def test_every_allowed_player_count_plays_a_set(rules_id, first, last):
    rules = PRESETS[rules_id]
    for count in range(first, last + 1):
        sim = simulate_night(rules, sample_names(count), random.Random(count), sets=1)
        assert len(sim.rounds) == 6
        seated = sum(1 for t in sim.rounds[-1].tables for n in t.seats
                     if not sim.night.stats[n].ghost)
        assert seated == count
        real = [s for s in sim.night.stats.values() if not s.ghost]
        # Every real player has a W or an L for every round.
        assert all(s.wins + s.losses == 6 for s in real), (rules_id, count)
