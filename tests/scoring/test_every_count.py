"""Every preset plays a whole set for every player count its rules allow: each count up to 64
(every layout, every number of ghosts, up to 16 tables), then every count around the sizes
hosts run (charity nights of 400, 500, 748, 1,000 and the 2,000-player cap); beyond a few
tables only the number of tables and of ghosts (the count mod 4) changes the seating."""

import random

import pytest

from scoring import PRESETS, sample_names, simulate_night

CHUNK = 16
LARGE = (397, 398, 399, 400, 401, 500, 745, 746, 747, 748, 1000, 1997, 1998, 1999, 2000)


def cases():
    for rules_id, rules in PRESETS.items():
        low, high = rules.player_limits
        small = list(range(low, min(high, 64) + 1))
        for start in range(0, len(small), CHUNK):
            chunk = small[start:start + CHUNK]
            yield pytest.param(rules_id, chunk, id=f"{rules_id}-{chunk[0]}")
        large = [n for n in LARGE if low <= n <= high]
        if large:
            yield pytest.param(rules_id, large, id=f"{rules_id}-large")


@pytest.mark.parametrize("rules_id, counts", list(cases()))
def test_every_allowed_player_count_plays_a_set(rules_id, counts):
    rules = PRESETS[rules_id]
    for count in counts:
        sim = simulate_night(rules, sample_names(count), random.Random(count), sets=1)
        assert len(sim.rounds) == 6
        seated = sum(1 for t in sim.rounds[-1].tables for n in t.seats
                     if not sim.night.stats[n].ghost)
        assert seated == count
        real = [s for s in sim.night.stats.values() if not s.ghost]
        # Every real player has a W or an L for every round.
        assert all(s.wins + s.losses == 6 for s in real), (rules_id, count)
