"""The night's commands: setup, seating, the bell, corrections, the end."""

import random
import uuid

import pytest

from bunco.models import Night, ScoreEvent, TableLink
from bunco.night import services
from bunco.night.cache import live_state
from bunco.night.services import CommandRefused
from scoring import PRESETS, IllegalMove, RulesError, sample_names
from scoring.roll import dice_for
from tests.playing import play_round, roll


@pytest.mark.django_db
def test_creating_a_night_checks_in_a_pasted_list_of_players():
    night = services.night_create(name="  March   Bunco ", rules_id="clockwise",
                                  player_names=["Ann", "", "  Bo  ", "Cy", "Di"])
    assert night.name == "March Bunco"
    assert list(night.players.values_list("name", flat=True)) == ["Ann", "Bo", "Cy", "Di"]
    assert night.rules == PRESETS["clockwise"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"name": " ", "rules_id": "babz"}, "give the night a name"),
        ({"name": "X", "rules_id": "poker"}, "unknown house rules"),
        ({"name": "X", "rules_id": "babz", "entry_fee_cents": -5}, "cannot be negative"),
        ({"name": "X", "rules_id": "babz", "player_names": ["Ann", "ann"]}, "looks just like"),
    ],
)
def test_bad_setup_is_refused_and_changes_nothing(kwargs, message):
    with pytest.raises(CommandRefused, match=message):
        services.night_create(**kwargs)
    assert Night.objects.count() == 0


@pytest.mark.django_db
def test_adding_a_player_twice_is_refused():
    night = services.night_create(name="X", rules_id="babz", player_names=["Ann", "Bo"])
    with pytest.raises(CommandRefused, match="looks just like"):
        services.players_add(night=night, names=["Cy", "BO"])
    assert night.players.count() == 2


@pytest.mark.django_db
@pytest.mark.parametrize("error, refused", [
    (ValueError("invalid literal for int() with base 10: 'Cy'"), False),  # a bug
    (IllegalMove("that does not fit tonight"), True),  # the game's own errors
    (RulesError("players", "that is not a name"), True),
])
def test_only_the_games_own_errors_become_a_refusal_a_guest_reads(monkeypatch, error, refused):
    """A refusal's message is shown to a guest as it is. A bug's is not: any other error, a
    plain ValueError included, stays an error (logged, answered as one)."""
    from bunco.night.services import roster

    night = services.night_create(name="X", rules_id="babz", player_names=["Ann", "Bo"])

    def broken(names):
        raise error

    monkeypatch.setattr(roster, "known_people", broken)  # inside players_add, before the log
    with pytest.raises(CommandRefused if refused else type(error)) as raised:
        services.players_add(night=night, names=["Cy"])
    assert str(error) in str(raised.value)
    assert night.players.count() == 2


def test_a_quick_button_or_dice_the_rules_do_not_have_are_refused_by_name(seated_night):
    """The engine raises the game's own error for a tap it cannot score, so the tapper still
    reads why without any ValueError being taken for a refusal."""
    services.round_start(night=seated_night)
    with pytest.raises(IllegalMove, match="no wipeout"):
        dice_for(seated_night.rules, 1, "wipeout")
    with pytest.raises(CommandRefused, match="^there is no wipeout under these rules"):
        roll(seated_night, 1, quick="wipeout")
    with pytest.raises(CommandRefused, match="^a roll has 3 dice, not 2$"):
        roll(seated_night, 1, dice=[1, 2])
    assert live_state(seated_night).room.tables[0].rolls == 0


def test_a_roll_entered_with_a_button_is_shown_by_its_name_and_tapped_dice_by_their_faces(
        seated_night):
    """A button's dice only stand for it (two hits in round 1 are 1-1-2): the table's list
    names the button, so nobody reads them as the dice rolled; tapped dice show their faces."""
    from bunco.live.screens import render_table

    services.round_start(night=seated_night)
    roll(seated_night, 1, quick="hit2")
    roll(seated_night, 1, dice=[1, 5, 6])
    html = render_table(live_state(seated_night), 1)
    button, tapped = html.split('<li data-seq="')[1:3][::-1]  # the newest first
    assert 'class="quick-roll"' in button and "2 hits" in button and 'class="dice"' not in button
    assert "+2" in button
    assert 'class="dice"' in tapped and "quick-roll" not in tapped and "+1" in tapped
    saved = ScoreEvent.objects.filter(night=seated_night, kind="roll").order_by("seq")
    assert [e.data.get("quick") for e in saved] == ["hit2", None]


def test_seating_logs_the_tables_and_makes_a_join_link_per_table(seated_night):
    state = live_state(seated_night)
    assert state.phase == "ready" and len(state.tables) == 3
    assert TableLink.objects.filter(night=seated_night).count() == 3
    kinds = list(ScoreEvent.objects.filter(night=seated_night).values_list("kind", flat=True))
    assert kinds == ["created", "added", "seated"]


@pytest.mark.django_db
def test_seating_too_few_players_is_refused():
    night = services.night_create(name="X", rules_id="babz", player_names=["Ann", "Bo"])
    with pytest.raises(CommandRefused, match="4 to 2000 players, not 2"):
        services.night_seat(night=night)
    assert not ScoreEvent.objects.filter(kind="seated").exists()


def test_swapping_two_seats_before_the_start(seated_night):
    state = live_state(seated_night)
    a = state.tables[0].seats[0].name
    b = state.tables[2].seats[1].name
    services.seats_swap(night=seated_night, first=a, second=b)
    state = live_state(seated_night)
    assert state.tables[0].seats[0].name == b and state.tables[2].seats[1].name == a


def test_the_bell_starts_a_round_and_a_second_bell_is_refused(seated_night):
    services.round_start(night=seated_night)
    assert live_state(seated_night).phase == "playing"
    seated_night.refresh_from_db()
    assert seated_night.status == "playing"
    with pytest.raises(CommandRefused, match="already being played"):
        services.round_start(night=seated_night)
    with pytest.raises(CommandRefused, match="only change before the first round"):
        services.seats_swap(night=seated_night, first="Ava", second="Ben")


def test_a_repeated_key_is_acknowledged_not_applied_twice(seated_night):
    key = uuid.uuid4()
    first = services.round_start(night=seated_night, key=key)
    again = services.round_start(night=seated_night, key=key)
    assert first.row.pk == again.row.pk and not again.applied
    assert ScoreEvent.objects.filter(night=seated_night, kind="round_started").count() == 1


def test_a_correction_voids_a_roll_and_the_tally_is_refolded(seated_night):
    services.round_start(night=seated_night)
    row = roll(seated_night, 2, quick="hit2").row
    assert live_state(seated_night).room.tables[1].team_scores == [2, 0]
    services.event_void(night=seated_night, seq=row.seq, actor="host")
    assert live_state(seated_night).room.tables[1].team_scores == [0, 0]
    with pytest.raises(CommandRefused, match="already taken back"):
        services.event_void(night=seated_night, seq=row.seq)
    with pytest.raises(CommandRefused, match="not in the round in play"):
        services.event_void(night=seated_night, seq=1)


def test_taking_back_the_bell_takes_back_a_tie_breaks_die_with_it(db):
    """After the bell a tied table rolls one die each (ladder); taking the bell back puts the
    table in normal play again, where a single die is not a roll: the die goes with the bell,
    as any later roll that no longer fits does, and the preview says so."""
    night = services.night_create(name="X", rules_id="ladder", player_names=sample_names(8))
    services.night_seat(night=night, rng=random.Random(1))
    services.round_start(night=night)
    roll(night, 2, quick="miss")
    bell = services.bell_ring(night=night).row
    while live_state(night).room.tables[1].dice_expected != 1:
        roll(night, 2, quick="miss")  # the turn is finished: 0-0, a tie
    die = roll(night, 2, quick="die4").row
    preview = services.take_back_preview(night=night, what="bell")
    assert preview.seqs == [bell.seq, die.seq]
    services.event_void(night=night, seq="bell")
    state = live_state(night)
    assert not state.room.bell_rung and state.room.tables[1].phase.value == "playing"
    assert die.seq in state.voided


def test_the_log_refolds_to_the_same_state_after_a_restart(seated_night):
    """A server restart loses the in-memory fold; the log alone rebuilds the same night."""
    from bunco.night.cache import folds

    services.round_start(night=seated_night)
    for _ in range(5):
        roll(seated_night, 1, quick="hit1")
    before = live_state(seated_night).room.tables[0].team_scores
    folds.drop(seated_night.pk)
    assert live_state(seated_night).room.tables[0].team_scores == before == [5, 0]


def test_ending_the_night(seated_night):
    services.night_end(night=seated_night)
    seated_night.refresh_from_db()
    assert seated_night.status == "finished" and live_state(seated_night).phase == "ended"
    with pytest.raises(CommandRefused, match="has ended"):
        services.round_start(night=seated_night)


@pytest.mark.django_db
def test_demo_night_is_twelve_players_seated_and_ready():
    night = services.demo_night_create()
    state = live_state(night)
    assert night.players.count() == 12 and state.phase == "ready"


@pytest.mark.django_db
def test_a_late_arrival_takes_the_ghosts_chair():
    night = services.night_create(name="X", rules_id="babz", player_names=[
        "Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gil"])
    services.night_seat(night=night)
    services.player_arrive(night=night, name="Hal")
    tables = live_state(night).tables
    names = [s.name for t in tables for s in t.seats]
    assert "Hal" in names and not any(s.ghost for t in tables for s in t.seats)
    with pytest.raises(CommandRefused, match="no ghost's chair"):
        services.player_arrive(night=night, name="Ivy")


def test_a_player_who_leaves_becomes_a_ghost_from_the_next_round(seated_night):
    ava = seated_night.players.get(name="Ava")
    services.round_start(night=seated_night)
    with pytest.raises(CommandRefused, match="wait for this round to end"):
        services.player_leave(night=seated_night, player=ava)
    play_round(seated_night, start=False)
    services.player_leave(night=seated_night, player=ava)
    state = live_state(seated_night)
    assert state.seat_of("Ava") is None and state.next_ghost() is not None
    assert state.night.stats["Ava"].wins + state.night.stats["Ava"].losses == 1
    with pytest.raises(CommandRefused, match="already left"):
        services.player_leave(night=seated_night, player=ava)


def test_a_typo_can_be_fixed_in_the_middle_of_the_night(seated_night):
    ava = seated_night.players.get(name="Ava")
    services.round_start(night=seated_night)
    services.player_rename(night=seated_night, player=ava, name="Eva")
    state = live_state(seated_night)
    assert state.seat_of("Eva") and state.seat_of("Ava") is None
    from bunco.night.cache import folds
    folds.drop(seated_night.pk)  # the log alone rebuilds the same names
    assert live_state(seated_night).seat_of("Eva")
    with pytest.raises(CommandRefused, match="looks just like"):
        services.player_rename(night=seated_night, player=ava, name="ben")


def test_pausing_stops_the_taps_until_the_host_resumes(seated_night):
    from tests.playing import roll

    services.round_start(night=seated_night)
    services.game_pause(night=seated_night)
    with pytest.raises(CommandRefused, match="paused"):
        roll(seated_night, 1, quick="hit1")
    services.game_resume(night=seated_night)
    roll(seated_night, 1, quick="hit1")
    assert live_state(seated_night).room.tables[0].team_scores == [1, 0]
