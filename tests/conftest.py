import random

import pytest


@pytest.fixture
def seated_night(db):
    """Twelve players under babz rules, seated with a fixed shuffle, no round started yet."""
    from bunco import services
    from scoring import sample_names

    night = services.night_create(name="Test night", rules_id="babz", entry_fee_cents=1000,
                                  player_names=sample_names(12))
    services.night_seat(night=night, rng=random.Random(1))
    return night


@pytest.fixture
def finishing_night(db):
    """``seated_night`` with one change to babz: after the bell each roller finishes the turn
    (seeds 002 and 003), for the tests of finishing, "done" and their take-backs."""
    from bunco import services
    from scoring import PRESETS, sample_names

    night = services.night_create(name="Test night", rules_id="babz", entry_fee_cents=1000,
                                  rules=PRESETS["babz"].replace(after_bell="finish_turn"),
                                  player_names=sample_names(12))
    services.night_seat(night=night, rng=random.Random(1))
    return night
