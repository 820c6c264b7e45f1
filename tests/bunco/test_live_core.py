"""The live core as a party sees it: double taps, two phones, late taps from an outbox, a
player who moved tables, take-backs of older rolls and of the bell, and a log that replays."""

import uuid

import pytest

from bunco.models import Night, ScoreEvent, TableLink
from bunco.night import services
from bunco.night.cache import cold_fold, folds, live_state
from bunco.night.fold import Kind
from bunco.night.services import Claim, CommandRefused, claim_for
from tests.playing import play_round, roll


def tap(client, url, **fields):
    fields.setdefault("key", str(uuid.uuid4()))
    return client.post(url, fields)


def table_url(night, number, action="roll"):
    return f"/t/{TableLink.objects.get(night=night, number=number).token}/{action}/"


def shown(night, number):
    """What a screen showing table ``number`` sends with its taps."""
    c = claim_for(live_state(night), number)
    return {"set": c.set_number, "round": c.round_number, "table": number, "pos": c.position}


def rolls(night):
    return ScoreEvent.objects.filter(night=night, kind=Kind.ROLL).count()


def player_at(night, table, seat):
    """The player sitting in ``seat`` at ``table`` in the round in play."""
    name = live_state(night).room.tables[table - 1].spec.seats[seat].name
    return night.players.get(name=name)


def test_a_resent_tap_is_answered_already_recorded_and_counts_once(client, seated_night):
    services.round_start(night=seated_night)
    screen = shown(seated_night, 1)
    key = str(uuid.uuid4())
    first = tap(client, table_url(seated_night, 1), quick="hit1", key=key, **screen)
    again = tap(client, table_url(seated_night, 1), quick="hit1", key=key, **screen)
    assert first.json()["ok"] and first.json()["recorded"]
    assert again.status_code == 200 and again.json()["recorded"] == first.json()["recorded"]
    assert again.json()["message"] == "Already recorded"
    assert 'data-pos="1"' in again.json()["html"]  # the table as it now stands
    assert rolls(seated_night) == 1
    assert live_state(seated_night).room.tables[0].team_scores == [1, 0]


def test_a_new_tap_for_a_position_already_taken_is_refused_by_name_never_merged(
        client, seated_night):
    """Two taps with their own keys naming one position: the second is not "already
    recorded" (it was not): it is refused, saying the table moved on, and changes nothing."""
    services.round_start(night=seated_night)
    screen = shown(seated_night, 1)
    assert tap(client, table_url(seated_night, 1), quick="hit1", **screen).json()["recorded"]
    second = tap(client, table_url(seated_night, 1), quick="hit2", **screen)
    assert second.status_code == 409
    body = second.json()
    assert body["refused"] and not body["ok"] and "recorded" not in body
    assert "another entry" in body["error"] and "same" not in body  # maybe another roll
    assert body["at"] == {**screen, "pos": 1}  # where the table is now
    assert rolls(seated_night) == 1


def test_the_table_device_and_a_players_phone_tapping_the_same_roll_the_second_is_refused(
        client, seated_night):
    services.round_start(night=seated_night)
    phone = player_at(seated_night, 1, 2)
    screen = shown(seated_night, 1)
    assert tap(client, table_url(seated_night, 1), quick="hit2", **screen).json()["recorded"]
    answer = tap(client, f"/p/{phone.token}/roll/", quick="hit2", **screen)
    assert answer.status_code == 409 and answer.json()["refused"]
    assert rolls(seated_night) == 1
    # The very roll the table entered: the phone is told it counted once, nothing to enter
    # again (the same three dice tapped, too).
    assert answer.json().get("same") is True, answer.json()
    assert "entered that roll at table 1 first: it counts once" in answer.json()["error"]
    screen = shown(seated_night, 1)
    assert tap(client, table_url(seated_night, 1), dice="1,1,4", **screen).json()["recorded"]
    answer = tap(client, f"/p/{phone.token}/roll/", dice="4,1,1", **screen)  # in any order
    assert answer.json()["same"] is True and rolls(seated_night) == 2


def test_only_the_tables_latest_standing_roll_is_the_same_roll(client, seated_night):
    """A screen further behind, or one whose twin was taken back, may mean a new roll: it is
    refused as before, with Enter again, never told it counted."""
    services.round_start(night=seated_night)
    old = shown(seated_night, 1)
    assert tap(client, table_url(seated_night, 1), quick="miss", **old).json()["recorded"]
    assert tap(client, table_url(seated_night, 1), quick="hit1",
               **shown(seated_night, 1)).json()["recorded"]
    behind = tap(client, table_url(seated_night, 1), quick="miss", **old).json()
    assert behind["refused"] and "same" not in behind and "moved on" in behind["error"]
    latest = shown(seated_night, 1)
    assert tap(client, table_url(seated_night, 1), quick="hit2", **latest).json()["recorded"]
    assert tap(client, table_url(seated_night, 1, "undo"),
               **shown(seated_night, 1)).json()["recorded"]  # taken back
    again = tap(client, table_url(seated_night, 1), quick="hit2", **latest).json()
    assert again["refused"] and "same" not in again


def test_chained_taps_naming_the_positions_their_predecessors_produce_all_count(
        client, seated_night):
    services.round_start(night=seated_night)
    screen = shown(seated_night, 1)
    for pos, quick in enumerate(["miss", "hit1", "miss", "hit2"]):
        answer = tap(client, table_url(seated_night, 1), quick=quick, **{**screen, "pos": pos})
        assert answer.json()["recorded"], answer.json()
    assert rolls(seated_night) == 4


def test_a_counted_roll_resent_after_the_night_ended_is_still_already_recorded(
        client, seated_night):
    services.round_start(night=seated_night)
    phone = player_at(seated_night, 1, 0)
    screen = shown(seated_night, 1)
    key = str(uuid.uuid4())
    first = tap(client, f"/p/{phone.token}/roll/", quick="hit1", key=key, **screen)
    assert first.json()["recorded"]
    services.night_end(night=seated_night)
    again = tap(client, f"/p/{phone.token}/roll/", quick="hit1", key=key, **screen)
    assert again.status_code == 200 and again.json()["message"] == "Already recorded"
    new = tap(client, f"/p/{phone.token}/roll/", quick="hit1", **screen)
    assert new.status_code == 409 and "night has ended" in new.json()["error"]


def test_a_late_tap_from_round_1_is_refused_in_round_2_and_changes_nothing(
        client, seated_night):
    services.round_start(night=seated_night)
    old = shown(seated_night, 1)
    play_round(seated_night, start=False)
    services.round_start(night=seated_night)
    roll(seated_night, 1, quick="hit1")
    before = list(ScoreEvent.objects.filter(night=seated_night).values_list("seq", flat=True))
    for action, fields in (("roll", {"quick": "hit2"}), ("undo", {}), ("finish", {})):
        answer = tap(client, table_url(seated_night, 1, action), **old, **fields)
        assert answer.status_code == 409
        assert answer.json()["error"] == "that " + {
            "roll": "roll", "undo": "undo", "finish": "tap"}[action] + \
            " was for round 1 of set 1, which is over"
    after = list(ScoreEvent.objects.filter(night=seated_night).values_list("seq", flat=True))
    assert after == before


def test_a_tap_for_a_round_that_has_not_started_and_after_the_end_are_refused(seated_night):
    with pytest.raises(CommandRefused, match="has not started yet: wait for the bell"):
        roll(seated_night, 1, quick="hit1", claim=Claim(1, 1, 1, 0))
    services.round_start(night=seated_night)
    claim = claim_for(live_state(seated_night), 1)
    services.night_end(night=seated_night)
    with pytest.raises(CommandRefused, match="the night has ended; that roll was not counted"):
        roll(seated_night, 1, quick="hit1", claim=claim)


def test_a_players_phone_cannot_undo_at_the_table_they_moved_to(client, seated_night):
    services.round_start(night=seated_night)
    phone = player_at(seated_night, 2, 0)
    name = phone.name
    roll(seated_night, 2, quick="hit1")
    old = shown(seated_night, 2)
    play_round(seated_night, start=False)
    services.round_start(night=seated_night)
    now = live_state(seated_night).seat_of(name)[0]
    roll(seated_night, now, quick="hit2")
    moved = {**shown(seated_night, now), "table": old["table"]} if now != 2 else old
    answer = tap(client, f"/p/{phone.token}/undo/", **moved)
    assert answer.status_code == 409
    if now != 2:
        assert answer.json()["error"] == (
            f"you have moved to table {now}; that tap was for table 2")
    assert live_state(seated_night).latest((Kind.ROLL,), table=now) is not None


def test_a_retry_of_an_applied_tap_gets_its_first_answer_after_the_round_closed(
        client, seated_night):
    services.round_start(night=seated_night)
    fields = {"quick": "hit1", "key": str(uuid.uuid4()), **shown(seated_night, 1)}
    first = client.post(table_url(seated_night, 1), fields).json()
    play_round(seated_night, start=False)
    assert live_state(seated_night).phase == "between_rounds"
    again = client.post(table_url(seated_night, 1), fields)
    assert again.status_code == 200 and again.json()["ok"]
    assert again.json()["recorded"] == first["recorded"]
    assert rolls(seated_night) == ScoreEvent.objects.filter(
        night=seated_night, kind="roll").count()


def test_taking_back_an_older_roll_moves_nobody_elses_points(seated_night):
    """Fay +1, Fay miss, Ann +1, Ann miss, Bea +2, Bea miss; the host takes back Fay's miss."""
    services.round_start(night=seated_night)
    seats = [s.name for s in live_state(seated_night).room.tables[1].spec.seats]
    entries = [roll(seated_night, 2, quick=q).row for q in
               ("hit1", "miss", "hit1", "miss", "hit2", "miss")]
    assert [e.player for e in entries] == [seats[0]] * 2 + [seats[1]] * 2 + [seats[2]] * 2
    services.event_void(night=seated_night, seq=entries[1].seq)
    table = live_state(seated_night).room.tables[1]
    assert table.seat_points == [1, 1, 2, 0]
    assert {r.seq: r.roller for r in live_state(seated_night).table_rolls(2)} == {
        entries[0].seq: seats[0], entries[2].seq: seats[1], entries[3].seq: seats[1],
        entries[4].seq: seats[2], entries[5].seq: seats[2]}
    assert table.spec.seats[table.current].name == seats[3]


def test_a_mistaken_bell_and_a_tables_done_are_taken_back_together(finishing_night):
    services.round_start(night=finishing_night)
    bunco = roll(finishing_night, 1, quick="bunco").row  # babz: a head-table bunco rings the bell
    services.table_finish(night=finishing_night, claim=claim_for(live_state(finishing_night), 2),
                          key=uuid.uuid4(), actor="table 2")
    with pytest.raises(CommandRefused, match="ask the host"):
        services.roll_undo(night=finishing_night, claim=claim_for(live_state(finishing_night), 1),
                           key=uuid.uuid4(), actor="table 1")
    preview = services.take_back_preview(night=finishing_night, what="bell")
    assert preview.target.seq == bunco.seq and len(preview.seqs) == 2
    services.event_void(night=finishing_night, seq="bell")
    state = live_state(finishing_night)
    assert not state.room.bell_rung and state.room.tables[1].phase.value == "playing"
    assert state.room.tables[0].team_scores == [0, 0]


def test_the_hosts_bell_is_taken_back_and_the_round_resumes(seated_night):
    services.round_start(night=seated_night)
    roll(seated_night, 3, quick="hit2")
    services.bell_ring(night=seated_night)
    with pytest.raises(CommandRefused, match="already rung"):
        services.bell_ring(night=seated_night)
    services.event_void(night=seated_night, seq="bell")
    state = live_state(seated_night)
    assert not state.room.bell_rung and state.room.tables[2].team_scores == [2, 0]
    roll(seated_night, 3, quick="hit1")  # play goes on where it was: the roller rolls on
    assert live_state(seated_night).room.tables[2].team_scores == [3, 0]


def test_a_rounds_close_is_taken_back_until_the_next_round_starts(seated_night):
    play_round(seated_night)
    state = live_state(seated_night)
    preview = services.take_back_preview(night=seated_night, what="close")
    assert preview.after.room is not None
    services.event_void(night=seated_night, seq="close")
    state = live_state(seated_night)
    assert state.phase == "playing" and not state.night.history
    play_round(seated_night, start=False)
    services.round_start(night=seated_night)
    with pytest.raises(CommandRefused, match="no round has closed"):
        services.event_void(night=seated_night, seq="close")


def test_a_second_press_of_the_start_bell_does_not_ring_twice(seated_night):
    first = services.round_start(night=seated_night, round_number=1, set_number=1)
    again = services.round_start(night=seated_night, round_number=1, set_number=1)
    assert first.applied and again.duplicate and "already started" in again.message
    assert ScoreEvent.objects.filter(night=seated_night, kind="round_started").count() == 1


def test_everything_that_changes_the_night_is_logged_and_the_log_replays_it(seated_night):
    night = seated_night
    services.awards_update(night=night, awards=[{"category": "most_buncos",
                                                 "share_percent": "100", "prize": ""}],
                           award_ties="roll_off", one_prize_per_person=True, pot_cents=4000)
    services.round_start(night=night)
    services.game_pause(night=night)
    services.game_resume(night=night)
    roll(night, 1, quick="bunco")
    roll(night, 2, quick="bunco")
    play_round(night, start=False)
    services.player_leave(night=night, player=night.players.get(name="Ava"))
    services.player_rename(night=night, player=night.players.get(name="Ben"), name="Benny")
    services.night_end(night=night)
    services.prize_reveal(night=night)
    kinds = set(ScoreEvent.objects.filter(night=night).values_list("kind", flat=True))
    assert {"created", "added", "seated", "prizes", "paused", "resumed", "left", "renamed",
            "night_ended", "revealed"} <= kinds
    row = Night.objects.get(pk=night.pk)
    assert (row.status, row.pot_cents, row.revealed) == ("finished", 4000, 1)
    live = live_state(row)
    folds.drop(night.pk)
    cold = cold_fold(row)
    assert cold.night.stats == live.night.stats and cold.night.history == live.night.history
    assert (cold.revealed, cold.pot_cents, cold.roster, cold.left) == (
        live.revealed, live.pot_cents, live.roster, live.left)
    assert cold.roster == list(row.players.values_list("name", flat=True))


def test_a_roll_off_is_logged(seated_night):
    services.night_end(night=seated_night)
    winner = services.prize_roll_off(night=seated_night, category="most_buncos",
                                     contenders=["Ava", "Ben"], winner="Ben")
    assert winner == "Ben"
    event = ScoreEvent.objects.get(night=seated_night, kind="roll_off")
    assert event.data == {"category": "most_buncos", "winner": "Ben"}
    assert Night.objects.get(pk=seated_night.pk).roll_offs == {"most_buncos": "Ben"}
    with pytest.raises(CommandRefused, match="not tied"):
        services.prize_roll_off(night=seated_night, category="most_buncos",
                                contenders=["Ava", "Ben"], winner="Cleo")
