"""A late arrival's entry fee counts in the pot (entry fee x players), and the prizes page says
whose fees the pot holds."""

import random

import pytest

from bunco.host.auth import host_secret
from bunco.live import screens
from bunco.night import services
from bunco.night.cache import live_state
from scoring import sample_names
from tests.playing import play_round


@pytest.fixture
def host_client(client, db):
    client.get(f"/host/{host_secret()}/")
    return client


@pytest.fixture
def night_with_a_ghost(db):
    """Eleven players at $10 (one ghost's chair), the first round played."""
    night = services.night_create(name="March", rules_id="babz", entry_fee_cents=1000,
                                  player_names=sample_names(11))
    services.night_seat(night=night, rng=random.Random(1))
    play_round(night)
    return night


def test_the_hosts_late_arrival_pays_into_the_pot(night_with_a_ghost, host_client):
    night = night_with_a_ghost
    assert screens.night_pot(live_state(night)) == 11_000
    services.player_arrive(night=night, name="Mo")
    assert night.players.get(name="Mo").arrived_at is not None
    assert screens.night_pot(live_state(night)) == 12_000
    state = live_state(night)
    assert screens.night_pot(state) == 12_000
    assert screens.fees_note(state) == "12 fees: 11 at the start, 1 late arrival"
    page = host_client.get(f"/host/nights/{night.pk}/awards/").content.decode()
    assert "$120.00" in page and "12 fees: 11 at the start, 1 late arrival" in page
    night_page = host_client.get(f"/host/nights/{night.pk}/").content.decode()
    assert "not here yet" not in night_page


def test_a_walk_in_at_the_desk_after_the_first_round_counts_too(night_with_a_ghost):
    night = night_with_a_ghost
    services.walk_in_check_in(night=night, name="Zed")
    state = live_state(night)
    assert screens.night_pot(live_state(night)) == 12_000
    assert screens.fees_note(state) == "12 fees: 11 at the start, 1 late arrival"


def test_without_late_arrivals_the_note_is_just_the_count(seated_night):
    assert screens.fees_note(live_state(seated_night)) == "12 fees"
