"""A scorekeeper taps "Bunco, not called" where the house rules want a bunco called out: the
phone shows the button, the roll counts for nothing, and the tally history names it."""

import random
import uuid

from bunco.host.auth import host_secret
from bunco.models import TableLink
from bunco.night import services
from bunco.night.cache import live_state
from scoring import sample_names


def tap(client, token, night, quick):
    where = services.claim_for(live_state(night), 1)
    return client.post(f"/t/{token}/roll/", {
        "key": str(uuid.uuid4()), "set": where.set_number, "round": where.round_number,
        "table": 1, "pos": where.position, "quick": quick}).json()


def test_an_uncalled_bunco_is_tapped_counts_nothing_and_is_named(client, db):
    night = services.night_create(name="Seed 001", rules_id="head-table",
                                  player_names=sample_names(8))
    services.night_seat(night=night, rng=random.Random(1))
    services.round_start(night=night)
    token = TableLink.objects.get(night=night, number=1).token
    page = client.get(f"/t/{token}/").content.decode()
    assert "Bunco, not called" in page and "uncalled" in page.split('data-quick="')[1]
    assert tap(client, token, night, "uncalled")["ok"]
    table = live_state(night).room.tables[0]
    assert table.team_scores == [0, 0] and table.seat_buncos == [0, 0, 0, 0]
    assert not table.bell_rung and table.current == 0
    client.get(f"/host/{host_secret()}/")
    log = client.get(f"/host/nights/{night.pk}/log/").content.decode()
    assert "Bunco, not called <small>(button)</small>" in log


def test_where_a_bunco_counts_called_or_not_the_button_is_refused(client, seated_night):
    services.round_start(night=seated_night)
    token = TableLink.objects.get(night=seated_night, number=1).token
    answer = tap(client, token, seated_night, "uncalled")
    assert not answer["ok"] and "whether or not it is called" in answer["error"]
    assert live_state(seated_night).room.tables[0].rolls == 0
