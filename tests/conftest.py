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


@pytest.fixture(autouse=True)
def fresh_limits():
    """Each test starts with every link's fair share of taps unused."""
    from bunco import limits

    limits.TAPS.clear()
    limits._penalties.clear()
    yield
    limits.TAPS.clear()
    limits._penalties.clear()
