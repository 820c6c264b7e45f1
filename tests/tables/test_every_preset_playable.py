"""Every preset plays a whole set through the services the phones and the host use: setup,
seating, the bell, every roll and tie-break, rotation, to the end of the set."""

import random
from unittest import mock

import pytest

from bunco.night import services
from bunco.night.cache import live_state
from scoring import PRESETS, sample_names
from tests.playing import roll

CASES = [
    ("fuzzy-die", 12), ("winning-moves", 7), ("winning-moves", 9), ("winning-moves", 12),
    ("winning-moves-solo", 3), ("head-table", 12), ("ladder", 12), ("clockwise", 8),
    ("babz", 13), ("babz", 5),
]


@pytest.mark.django_db
@pytest.mark.parametrize("rules_id, players", CASES)
def test_a_whole_set_is_playable_through_the_services(rules_id, players):
    rng = random.Random(players)
    night = services.night_create(name="Play", rules_id=rules_id,
                                  player_names=sample_names(players))
    services.night_update_rules(night=night, rules=PRESETS[rules_id].replace(sets=1))
    with mock.patch("bunco.runtime.pushes.push"):  # pushes are covered by the consumer tests
        services.night_seat(night=night, rng=rng)
        rounds = 0
        for _ in range(20_000):
            state = live_state(night)
            if state.phase == "over":
                break
            if state.room is None:
                services.round_start(night=night)
                rounds += 1
                continue
            for table in state.room.tables:
                if not table.done:
                    dice = [rng.randint(1, 6) for _ in range(table.dice_expected)]
                    roll(night, table.spec.number, dice=dice)
        state = live_state(night)
    assert state.phase == "over" and rounds == 6
    history = state.night.history
    assert len(history) == 6
    real = [s for s in state.night.stats.values() if not s.ghost]
    assert len(real) == players
    assert all(s.wins + s.losses == 6 for s in real)
