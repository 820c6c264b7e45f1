"""The fold over a whole night, for every preset: the desk (pre-registered guests checked in,
walk-ins, the closing time), seat swaps, phones claiming and releasing names, the prize list
changed, rounds with rolls, undos, take-backs, bells, pauses, breaks and the clock, guests
leaving and coming late, the end of the night, its tied prizes settled and revealed.

After every command the fold that advanced event by event equals a cold fold of the log, and
a fold left behind at a random point (another process's, or one opened from an older copy)
caught up with the entries logged since equals it too."""

import random
import uuid
from contextlib import suppress
from datetime import timedelta

import pytest
from django.utils import timezone

from bunco.models import Player
from bunco.night import services
from bunco.night.cache import cold_fold, live_state, log_events
from bunco.night.services import CommandRefused, claim_for
from bunco.night.versions import advance
from scoring import PRESETS, sample_names

COMMANDS_A_NIGHT = 220
#: The presets, and one of them with the clock of a big event (a horn, the next round by itself)
NIGHTS = [*sorted(PRESETS), "clockwise+clock"]


def summary(state) -> dict:
    """Everything a screen, a prize or a later command reads of the fold."""
    room = state.room or state.last_room
    night = state.night
    return {
        "seq": state.seq, "phase": state.phase, "paused": state.paused, "ended": state.ended,
        "rules": state.rules.to_dict(), "pot": state.pot_cents, "name": state.name,
        "roster": state.roster, "left": sorted(state.left),
        "desk": (sorted(state.expected), state.drawn, state.waiting, state.check_in_closes),
        "prizes": (state.roll_offs, sorted(state.splits), state.revealed),
        "clock": (state.play_ends, state.next_at, state.paused_at, state.horn),
        "break": (state.break_ends, state.break_minutes), "practices": state.practices,
        "marks": (state.positions, state.versions),
        "voided": sorted(state.voided),
        "tables": [(t.spec, t.team_scores, t.seat_points, t.current, t.phase, t.winner_team,
                    t.rolls, t.bell_rung) for t in room.tables] if room else None,
        "rolls": [(r.seq, r.roller, r.rolled_by, r.points, r.quick) for r in state.rolls],
        "stats": {n: vars(s) for n, s in night.stats.items()} if night else None,
        "history": night.history if night else None,
        "next": night.tables if night else None,
        "fuzzy": state.fuzzy_die_holder if night else None,
    }


def caught_up_from(stale, night):
    for event in log_events(night, after=stale.seq):
        stale = advance(stale, event)
    return stale


def before_play(night, state, rng) -> None:
    players = list(night.players.all())
    pick = rng.random()
    expected = [p for p in players if p.name in state.expected]
    if pick < 0.2 and expected:
        services.player_check_in(night=night, player=rng.choice(expected), rng=rng)
    elif pick < 0.3:
        services.walk_in_check_in(night=night, name=f"Walk-in {rng.randint(1, 10**6)}", rng=rng)
    elif pick < 0.35:
        services.check_in_close(night=night, closes_at=timezone.now() + timedelta(
            minutes=rng.choice([-5, 30])))
    elif pick < 0.4:
        services.check_in_close(night=night, closes_at=None)
    elif pick < 0.5 and state.seated and len(state.here()) > 1:
        first, second = rng.sample(state.here(), 2)
        services.seats_swap(night=night, first=first, second=second)
    elif pick < 0.55 and state.seated:
        services.waiting_seat(night=night)
    elif pick < 0.7 and not state.seated:
        services.night_seat(night=night, rng=rng)
    else:
        services.round_start(night=night, practice=rng.random() < 0.1 and not state.practice)


def between_rounds(night, state, rng) -> None:
    players = list(night.players.filter(left_early=False))
    pick = rng.random()
    if pick < 0.15 and state.next_ghost():
        services.player_arrive(night=night, name=f"Late {rng.randint(1, 10**6)}")
    elif pick < 0.18 and len(players) > 9:
        services.player_leave(night=night, player=rng.choice(players))
    elif pick < 0.24:
        services.player_rename(night=night, player=rng.choice(players),
                               name=f"Name {rng.randint(1, 10**6)}")
    elif pick < 0.3 and state.closed_by:
        services.event_void(night=night, seq="close")
    elif pick < 0.4:
        services.break_start(night=night, minutes=rng.randint(1, 10))
    elif pick < 0.45:
        services.break_end(night=night)
    elif pick < 0.5 and state.next_at:
        services.clock_due(night=night, what="next", set_number=state.set_number,
                           round_number=state.round_number, now=state.next_at / 1000 + 1)
    elif pick < 0.52 and len(state.night.history) > 4:
        services.night_end(night=night)
    else:
        services.round_start(night=night)


def in_play(night, state, rng) -> None:
    open_tables = [t for t in state.room.tables if not t.done]
    pick = rng.random()
    key = uuid.uuid4()
    if state.paused and pick < 0.5:
        services.game_resume(night=night)
    elif pick < 0.03:
        services.game_pause(night=night)
    elif (pick < 0.06 or len(state.rolls) > 20) and not state.room.bell_rung:
        services.bell_ring(night=night)
    elif pick < 0.08 and state.play_ends:
        services.clock_due(night=night, what="horn", set_number=state.set_number,
                           round_number=state.round_number, now=state.play_ends / 1000 + 1)
    elif pick < 0.11 and state.bell_by:
        services.event_void(night=night, seq="bell")
    elif pick < 0.16 and state.rolls:
        services.event_void(night=night, seq=rng.choice(state.rolls).seq)
    elif pick < 0.21:
        number = rng.randint(1, len(state.room.tables))
        services.roll_undo(night=night, claim=claim_for(state, number), key=key, actor="t")
    elif open_tables:
        table = rng.choice(open_tables)
        number = table.spec.number
        if table.phase.value == "finishing" and rng.random() < 0.5:
            services.table_finish(night=night, claim=claim_for(state, number), key=key,
                                  actor="t")
        else:
            dice = [rng.randint(1, 6) for _ in range(table.dice_expected)]
            if rng.random() < 0.08:  # a bunco: the fuzzy die passes, a pod's head table rings
                dice = [state.round_number] * table.dice_expected
            services.roll_record(night=night, claim=claim_for(state, number), key=key,
                                 actor="t", dice=dice)


def anytime(night, state, rng) -> bool:
    """The commands that may come at any moment: a phone picks a name or the host frees one,
    the prize list changes. False when none was picked."""
    pick = rng.random()
    players = list(night.players.all())
    if pick < 0.04:
        services.player_claim(night=night, player=rng.choice(players),
                              device=f"phone-{rng.randint(1, 6)}")
    elif pick < 0.06:
        services.player_release(night=night, player=rng.choice(players))
    elif pick < 0.1 and not state.ended:  # a guest at the desk while the night goes on
        expected = [p for p in players if p.name in state.expected]
        if expected and rng.random() < 0.5:
            services.player_check_in(night=night, player=rng.choice(expected), rng=rng)
        else:
            services.walk_in_check_in(night=night, name=f"Walk-in {rng.randint(1, 10**6)}",
                                      rng=rng)
    elif pick < 0.12 and not state.ended:
        awards = state.rules.to_dict()["awards"]
        services.awards_update(night=night, awards=awards[:rng.randint(0, len(awards))],
                               award_ties=rng.choice(["split", "roll_off"]),
                               one_prize_per_person=rng.random() < 0.5,
                               pot_cents=rng.choice([None, 10000]))
    else:
        return False
    return True


def after_the_end(night, rng) -> None:
    """The tied prizes settled (a roll-off or a split), then every prize revealed."""
    from bunco.live import screens

    state = live_state(night)
    for category, tie in screens.pending_ties(night, state).items():
        if tie["can_split"] and rng.random() < 0.5:
            services.prize_split(night=night, category=category, can_split=True)
        else:
            services.prize_roll_off(night=night, category=category,
                                    contenders=tie["contenders"], winner=None, rng=rng)
    for _ in range(len(state.rules.awards) + 1):
        services.prize_reveal(night=night)


@pytest.mark.django_db
@pytest.mark.parametrize("which", NIGHTS)
def test_a_fold_behind_or_advanced_by_every_command_equals_the_log_replayed(
        which, django_capture_on_commit_callbacks):
    rng = random.Random(which)
    rules_id = which.removesuffix("+clock")
    rules = PRESETS[rules_id]
    if which.endswith("+clock"):
        rules = rules.replace(play_seconds=300, move_seconds=60)
    solo = rules_id == "winning-moves-solo"  # One Table Bunco: two to four players
    with django_capture_on_commit_callbacks(execute=True):
        night = services.night_create(name="Whole night", rules_id=rules_id, rules=rules,
                                      player_names=sample_names(2 if solo else 11))
        booked = services.players_add(
            night=night, names=[f"Booked {n}" for n in range(1 if solo else 4)], expected=True)
        services.player_check_in(night=night, player=booked[0], rng=rng)
    behind = []  # folds left at a random point, caught up later
    for _ in range(COMMANDS_A_NIGHT):
        state = live_state(night)
        if state.ended:
            break
        with django_capture_on_commit_callbacks(execute=True), suppress(CommandRefused):
            if not anytime(night, state, rng):
                if state.room is not None:
                    in_play(night, state, rng)
                elif state.started:
                    between_rounds(night, state, rng)
                else:
                    before_play(night, state, rng)
        night.refresh_from_db()
        fresh = summary(cold_fold(night))
        assert summary(live_state(night)) == fresh
        if rng.random() < 0.1:
            behind.append(cold_fold(night))
        if behind and rng.random() < 0.1:
            assert summary(caught_up_from(behind.pop(0), night)) == fresh
    with django_capture_on_commit_callbacks(execute=True):
        with suppress(CommandRefused):
            services.night_end(night=night)
        after_the_end(night, rng)
    night.refresh_from_db()
    fresh = summary(cold_fold(night))
    assert summary(live_state(night)) == fresh
    for stale in behind:
        assert summary(caught_up_from(stale, night)) == fresh
    kinds = {e.kind for e in log_events(night)}
    # The night really went through its parts, not stuck refusing everything.
    assert {"checked_in", "seated", "round_started", "roll", "night_ended"} <= kinds, kinds
    assert Player.objects.filter(night=night).count() >= (3 if solo else 15)
