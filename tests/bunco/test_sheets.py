"""Scorecards, the master score sheet (screen, print, CSV) and the tally history."""

import csv
import io
from pathlib import Path

import pytest

from bunco.host.auth import host_secret
from bunco.models import TableLink
from bunco.night import services
from bunco.night.cache import live_state
from tests.playing import play_round, roll


@pytest.fixture
def host_client(client, db):
    client.get(f"/host/{host_secret()}/")
    return client


def test_the_csv_has_a_row_per_player_per_round_that_adds_up(host_client, seated_night):
    play_round(seated_night)
    play_round(seated_night)
    response = host_client.get(f"/host/nights/{seated_night.pk}/sheet.csv")
    assert response["Content-Type"].startswith("text/csv")
    assert "Test-night-score-sheet.csv" in response["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert len(rows) == 12 * 2
    assert set(rows[0]) == {"player", "set", "round", "table", "partner", "result", "points",
                            "buncos", "mini_buncos"}
    state = live_state(seated_night)
    for name, stats in state.night.stats.items():
        mine = [r for r in rows if r["player"] == name]
        if stats.ghost:
            assert not mine
            continue
        assert sum(r["result"] == "W" for r in mine) == stats.wins
        assert sum(int(r["points"]) for r in mine) == stats.points
        assert sum(int(r["buncos"]) for r in mine) == stats.buncos


def test_the_master_sheet_prints_one_page_per_set(host_client, seated_night):
    play_round(seated_night)
    html = host_client.get(f"/host/nights/{seated_night.pk}/sheet/").content.decode()
    assert html.count('<section class="sheet">') == 1  # set 1 is under way; set 2 is not yet
    assert "master score sheet, set 1" in html and "Round 6" in html
    css = Path("static/bunco/bunco.css").read_text()
    print_rules = css[css.index("@media print"):]
    assert "break-after: page" in print_rules and "size:" not in print_rules.split("}")[0]
    for name in ("Ava", "Lena"):
        assert f'<td class="name">{name}</td>' in html


def test_the_tally_history_keeps_corrections_and_who_made_them(host_client, seated_night):
    services.round_start(night=seated_night)
    row = roll(seated_night, 2, quick="hit2").row
    services.event_void(night=seated_night, seq=row.seq, actor="host")
    html = host_client.get(f"/host/nights/{seated_night.pk}/log/").content.decode()
    assert f"#{row.seq}" in html and "by table 2" in html
    assert f"took back #{row.seq}" in html and "taken back by host" in html
    assert 'class="roll voided"' in html


def test_a_players_phone_shows_their_scorecard(client, seated_night):
    play_round(seated_night)
    ava = seated_night.players.get(name="Ava")
    html = client.get(f"/p/{ava.token}/").content.decode()
    assert 'data-testid="scorecard"' in html and "My scorecard" in html
    card = live_state(seated_night).night.scorecard("Ava")
    assert f'<td class="name"><bdi>{card[0]["partner"]}</bdi></td>' in html


def test_sheets_are_for_the_host_only(client, seated_night):
    for path in ("sheet/", "sheet.csv", "log/"):
        assert client.get(f"/host/nights/{seated_night.pk}/{path}").status_code == 403
    assert TableLink.objects.exists()


def test_the_tally_history_lists_the_hosts_own_corrections(host_client, seated_night):
    services.round_start(night=seated_night)
    services.bell_ring(night=seated_night)
    services.event_void(night=seated_night, seq="bell")
    response = host_client.get(f"/host/nights/{seated_night.pk}/log/")
    assert response.status_code == 200
    assert "The host's corrections" in response.content.decode()


def test_a_night_ended_before_any_round_still_opens_with_an_empty_tally_history(
        host_client, seated_night):
    services.night_end(night=seated_night)
    for page in ("log/", "", "sheet/"):
        response = host_client.get(f"/host/nights/{seated_night.pk}/{page}")
        assert response.status_code == 200, page


def test_a_night_ended_after_set_1_prints_and_exports_only_set_1(host_client, seated_night):
    night = seated_night  # babz: two sets
    while live_state(night).night.set_number == 1:
        play_round(night)
    html = host_client.get(f"/host/nights/{night.pk}/sheet/").content.decode()
    # Set 2 is next: its sheet is there to fill in until the night ends.
    assert "master score sheet, set 2" in html
    services.night_end(night=night)
    html = host_client.get(f"/host/nights/{night.pk}/sheet/").content.decode()
    assert html.count('<section class="sheet">') == 1
    assert "master score sheet, set 1" in html and "set 2" not in html
    rows = list(csv.DictReader(io.StringIO(
        host_client.get(f"/host/nights/{night.pk}/sheet.csv").content.decode())))
    assert rows and {r["set"] for r in rows} == {"1"}
