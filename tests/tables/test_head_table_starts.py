"""Every seed has a player at the head table ring the bell that starts each round: its phone
can, where the house rules have it; no other table can, and a press for a round that started
(or was played) starts nothing."""

import json
import random

import pytest

from bunco.models import TableLink
from bunco.night import services
from bunco.night.cache import live_state
from scoring import PRESETS, sample_names
from tests.playing import play_round


def press(client, url, set_number, round_number, as_json=True):
    headers = {"HTTP_ACCEPT": "application/json"} if as_json else {}
    return client.post(url, {"set": set_number, "round": round_number}, **headers)


@pytest.fixture
def night(db):
    night = services.night_create(name="Seeds", rules_id="babz", player_names=sample_names(12))
    services.night_seat(night=night, rng=random.Random(4))
    return night


def test_the_head_tables_phone_starts_the_round_once(client, night):
    head = TableLink.objects.get(night=night, number=1).token
    page = client.get(f"/t/{head}/").content.decode()
    assert 'data-testid="head-start"' in page
    answer = press(client, f"/t/{head}/start/", 1, 1)
    assert answer.status_code == 200 and json.loads(answer.content)["ok"]
    state = live_state(night)
    assert state.phase == "playing" and state.room.round_number == 1
    seq = state.seq
    again = press(client, f"/t/{head}/start/", 1, 1)  # pressed twice, or by two phones
    assert json.loads(again.content)["error"] == "Round 1 of set 1 has already started"
    assert live_state(night).seq == seq


def test_no_other_table_and_no_stale_press_starts_a_round(client, night):
    other = TableLink.objects.get(night=night, number=2).token
    assert 'data-testid="head-start"' not in client.get(f"/t/{other}/").content.decode()
    refused = press(client, f"/t/{other}/start/", 1, 1)
    assert refused.status_code == 409
    assert "Only the head table" in json.loads(refused.content)["error"]
    assert live_state(night).phase == "ready"
    play_round(night)  # round 1 played: a press sent late for it starts nothing
    head = TableLink.objects.get(night=night, number=1).token
    late = press(client, f"/t/{head}/start/", 1, 1)
    assert late.status_code == 409 and "has been played" in json.loads(late.content)["error"]
    assert live_state(night).phase == "between_rounds"


def test_a_guest_at_the_head_table_rings_it_from_their_own_phone(client, night):
    state = live_state(night)
    at_head = night.players.get(name=state.tables[0].seats[0].name)
    elsewhere = night.players.get(name=state.tables[1].seats[0].name)
    no = press(client, f"/p/{elsewhere.token}/start/", 1, 1)
    assert no.status_code == 409
    assert press(client, f"/p/{at_head.token}/start/", 1, 1).status_code == 200
    assert live_state(night).phase == "playing"


def test_where_the_house_rules_say_the_host_starts_rounds_no_phone_can(client, db):
    night = services.night_create(name="Host rings", rules_id="babz",
                                  rules=PRESETS["babz"].replace(head_table_starts=False),
                                  player_names=sample_names(12))
    services.night_seat(night=night, rng=random.Random(4))
    head = TableLink.objects.get(night=night, number=1).token
    assert 'data-testid="head-start"' not in client.get(f"/t/{head}/").content.decode()
    refused = press(client, f"/t/{head}/start/", 1, 1)
    assert "the host rings the bell" in json.loads(refused.content)["error"]
    assert live_state(night).phase == "ready"


def test_without_a_script_the_press_comes_back_to_the_page(client, night):
    head = TableLink.objects.get(night=night, number=1).token
    answer = press(client, f"/t/{head}/start/", 1, 1, as_json=False)
    assert answer.status_code == 302 and answer.url == f"/t/{head}/"
    assert live_state(night).phase == "playing"
