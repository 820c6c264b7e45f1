"""The check-in desk: pre-registered guests arrive, draw a table, are seated from their draws;
latecomers take a ghost's chair; the desk closes at the host's time."""

import datetime as dt
import random

import pytest
from django.utils import timezone

from bunco.laptop import backup
from bunco.live import groups
from bunco.live.screens import night_pot
from bunco.models import Player, ScoreEvent
from bunco.night import services
from bunco.night.cache import folds, live_state
from bunco.night.services import CommandRefused
from bunco.runtime import pushes
from scoring.seating import CHAIRS
from tests.playing import play_round

NOW = timezone.make_aware(dt.datetime(2026, 3, 14, 19, 42))


def gala(expected=20, arrived=(), rules_id="babz"):
    night = services.night_create(name="Gala", rules_id=rules_id)
    if arrived:
        services.players_add(night=night, names=list(arrived))
    services.players_add(night=night, names=[f"Guest {i:03d}" for i in range(expected)],
                         expected=True)
    return night


def guest(night, name):
    return night.players.get(name=name)


def test_pasted_guests_are_expected_and_ordinary_pastes_are_here(db):
    night = gala(expected=5, arrived=["Host Ann"])
    assert night.players.here().count() == 1 and night.players.not_here().count() == 5
    assert set(live_state(night).expected) == {f"Guest {i:03d}" for i in range(5)}
    assert guest(night, "Guest 001").expected and not guest(night, "Host Ann").expected


def test_checking_in_draws_a_table_with_a_free_chair(db):
    night = gala(expected=20)
    answer = services.player_check_in(night=night, player=guest(night, "Guest 003"), now=NOW,
                                      rng=random.Random(1))
    player = guest(night, "Guest 003")
    assert not answer.already and 1 <= answer.table <= 5 and player.drawn_table == answer.table
    assert player.arrived_at == NOW
    assert "Guest 003" not in live_state(night).expected


def test_every_guest_draws_and_no_table_gets_more_than_four(db):
    night = gala(expected=20)
    rng = random.Random(2)
    for p in night.players.all():
        services.player_check_in(night=night, player=p, now=NOW, rng=rng)
    tables = list(night.players.values_list("drawn_table", flat=True))
    assert sorted(tables) == sorted(n for n in range(1, 6) for _ in range(CHAIRS))


def test_checking_in_twice_is_harmless_and_says_when(db):
    night = gala(expected=8)
    first = services.player_check_in(night=night, player=guest(night, "Guest 000"), now=NOW)
    events = ScoreEvent.objects.count()
    again = services.player_check_in(night=night, player=guest(night, "Guest 000"),
                                     now=NOW + dt.timedelta(minutes=30))
    assert again.already and again.table == first.table
    assert again.player.arrived_at == NOW  # the first time stands
    assert ScoreEvent.objects.count() == events


def test_after_the_closing_time_nobody_is_checked_in(db):
    night = gala(expected=8)
    services.check_in_close(night=night, closes_at=NOW)
    night.refresh_from_db()
    assert night.check_in_closes_at == NOW
    with pytest.raises(CommandRefused, match=r"Check-in closed at \d\d:\d\d.*Reopen check-in"):
        services.player_check_in(night=night, player=guest(night, "Guest 001"),
                                 now=NOW + dt.timedelta(minutes=1))
    with pytest.raises(CommandRefused, match="Check-in closed"):
        services.walk_in_check_in(night=night, name="Zed", now=NOW + dt.timedelta(minutes=1))
    assert night.players.here().count() == 0 and not night.players.filter(name="Zed").exists()
    # Just before the time it was still open; reopened, it is open again.
    services.player_check_in(night=night, player=guest(night, "Guest 001"),
                             now=NOW - dt.timedelta(seconds=1))
    services.check_in_close(night=night, closes_at=None)
    services.player_check_in(night=night, player=guest(night, "Guest 002"),
                             now=NOW + dt.timedelta(hours=1))
    assert night.players.here().count() == 2


def test_a_walk_in_is_added_and_checked_in_at_once(db):
    night = gala(expected=8)
    answer = services.walk_in_check_in(night=night, name="  Walk  In ", now=NOW)
    assert answer.player.name == "Walk In" and answer.player.arrived_at == NOW
    assert answer.table is not None and not answer.player.expected
    assert "Walk In" in live_state(night).here()


def test_a_walk_in_with_a_listed_name_is_refused_and_nothing_changes(db):
    night = gala(expected=3)
    events = ScoreEvent.objects.count()
    with pytest.raises(CommandRefused, match="^“guest 001” looks just like “Guest 001”"):
        services.walk_in_check_in(night=night, name="guest 001", now=NOW)
    assert night.players.count() == 3 and ScoreEvent.objects.count() == events


def test_seating_leaves_out_who_did_not_come_and_keeps_the_draws(db):
    night = gala(expected=40)
    rng = random.Random(3)
    came = list(night.players.all())[:32]  # eight tables' worth of 40 expected
    for p in came:
        services.player_check_in(night=night, player=p, now=NOW, rng=rng)
    services.night_seat(night=night, rng=random.Random(4))
    state = live_state(night)
    seated = {s.name for t in state.tables for s in t.seats if not s.ghost}
    assert seated == {p.name for p in came}
    assert len(state.tables) == 8
    drawn = dict(night.players.here().values_list("name", "drawn_table"))
    kept = sum(1 for t in state.tables for s in t.seats if drawn[s.name] == t.number)
    assert kept >= 16  # at least the fullest drawn tables stayed where they were
    assert set(state.expected) == {f"Guest {i:03d}" for i in range(32, 40)}
    # The seating is one the night plays on: the first round starts.
    services.round_start(night=night)
    assert live_state(night).phase == "playing"


def test_a_latecomer_takes_a_ghosts_chair(db):
    night = gala(expected=12)
    for p in list(night.players.all())[:11]:
        services.player_check_in(night=night, player=p, now=NOW)
    services.night_seat(night=night, rng=random.Random(1))
    assert live_state(night).next_ghost() is not None
    answer = services.player_check_in(night=night, player=guest(night, "Guest 011"), now=NOW)
    assert answer.table is not None and answer.seat is not None and not answer.waiting
    state = live_state(night)
    assert state.seat_of("Guest 011")[0] == answer.table and state.next_ghost() is None


def test_a_latecomer_in_a_ghosts_chair_is_shown_on_every_screen_at_once(
        db, monkeypatch, django_capture_on_commit_callbacks):
    """The TV, the host and the table's phones are sent the new name in the ghost's place."""
    monkeypatch.setattr(groups, "watching", lambda group: True)
    sent: list[tuple[str, str]] = []
    monkeypatch.setattr(pushes, "_send_now", lambda messages: sent.extend(
        (group, message["html"]) for group, message in messages))
    night = gala(expected=12)
    for p in list(night.players.all())[:11]:
        services.player_check_in(night=night, player=p, now=NOW)
    services.night_seat(night=night, rng=random.Random(1))
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        answer = services.player_check_in(night=night, player=guest(night, "Guest 011"),
                                          now=NOW)
    shown = {group for group, html in sent if "Guest 011" in html}
    assert {groups.tv(night.pk), groups.host(night.pk),
            groups.table(night.pk, answer.table)} <= shown


def test_with_no_ghosts_chair_free_a_latecomer_waits_checked_in(db):
    night = gala(expected=9)
    for p in list(night.players.all())[:8]:
        services.player_check_in(night=night, player=p, now=NOW)
    services.night_seat(night=night, rng=random.Random(1))
    answer = services.player_check_in(night=night, player=guest(night, "Guest 008"), now=NOW)
    assert answer.waiting and answer.table is None
    assert guest(night, "Guest 008").arrived_at == NOW
    assert live_state(night).waiting == ["Guest 008"]
    with pytest.raises(CommandRefused, match="no ghost's chair is free"):
        services.waiting_seat(night=night)
    # A player goes home: the waiting guest takes the chair between rounds.
    services.player_leave(night=night, player=guest(night, "Guest 000"))
    assert services.waiting_seat(night=night) == ["Guest 008"]
    state = live_state(night)
    assert state.seat_of("Guest 008") is not None and not state.waiting


def test_a_latecomer_during_a_round_waits_for_it_to_end(db):
    night = gala(expected=12)
    for p in list(night.players.all())[:11]:
        services.player_check_in(night=night, player=p, now=NOW)
    services.night_seat(night=night, rng=random.Random(1))
    services.round_start(night=night)
    answer = services.player_check_in(night=night, player=guest(night, "Guest 011"), now=NOW)
    assert answer.waiting and answer.round_in_play
    with pytest.raises(CommandRefused, match="wait for this round to end"):
        services.waiting_seat(night=night)
    play_round(night, start=False, rng=random.Random(5))
    assert live_state(night).room is None
    assert services.waiting_seat(night=night) == ["Guest 011"]


def test_the_host_typing_an_expected_name_as_a_late_arrival_checks_them_in(db):
    night = gala(expected=12)
    for p in list(night.players.all())[:11]:
        services.player_check_in(night=night, player=p, now=NOW)
    services.night_seat(night=night, rng=random.Random(1))
    services.player_arrive(night=night, name="guest 011")
    assert live_state(night).seat_of("Guest 011") is not None
    assert night.players.filter(name__iexact="guest 011").count() == 1


def test_the_fold_rebuilt_from_the_log_knows_the_desk(db):
    night = gala(expected=8)
    services.player_check_in(night=night, player=guest(night, "Guest 002"), now=NOW)
    services.check_in_close(night=night, closes_at=NOW)
    before = live_state(night)
    folds.drop(night.pk)
    after = live_state(night)
    assert after.expected == before.expected and after.drawn == before.drawn
    assert after.check_in_closes == before.check_in_closes


def test_a_night_file_keeps_who_came_and_their_draws(db):
    night = gala(expected=6)
    services.player_check_in(night=night, player=guest(night, "Guest 004"), now=NOW)
    again = services.night_restore(data=backup.night_file(night))
    assert again.players.here().count() == 1
    back = again.players.get(name="Guest 004")
    assert back.drawn_table == guest(night, "Guest 004").drawn_table and back.expected
    assert live_state(again).expected == live_state(night).expected


def test_the_pot_counts_the_guests_who_came(db):
    night = services.night_create(name="Gala", rules_id="babz", entry_fee_cents=1000)
    services.players_add(night=night, names=["A", "B", "C", "D"], expected=True)
    services.player_check_in(night=night, player=guest(night, "A"), now=NOW)
    assert night_pot(live_state(night)) == 1000


def test_expected_guests_are_not_on_the_player_list_of_scores(db):
    """A no-show is not in the seating and never gets a W or an L."""
    night = gala(expected=6)
    for p in list(night.players.all())[:4]:
        services.player_check_in(night=night, player=p, now=NOW)
    services.night_seat(night=night, rng=random.Random(1))
    assert "Guest 005" not in live_state(night).night.stats
    assert Player.objects.get(night=night, name="Guest 005").arrived_at is None
