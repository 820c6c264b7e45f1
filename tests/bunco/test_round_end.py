"""Every round ends clearly: the bell tells each table what to do under the house rules, each
phone shows the round's final tally and its owner's result before where to sit next, nobody
is told to move after the night's last round, and the bell button names the set and round."""

import html
import re

import pytest

from bunco.host.auth import host_secret
from bunco.live import room_frames, screens
from bunco.night import services
from bunco.night.cache import live_state
from tests.playing import finish_night, play_round, roll


def text(markup: str) -> str:
    """What a person reads: tags dropped, spaces squeezed."""
    plain = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", markup)).replace(" ,", ",")
    return html.unescape(plain).replace(" .", ".").strip()


@pytest.fixture
def host_client(client, db):
    client.get(f"/host/{host_secret()}/")
    return client


def test_after_the_bell_each_table_is_told_who_finishes_their_turn(finishing_night):
    night = finishing_night
    services.round_start(night=night)
    roll(night, 2, quick="miss")  # table 2's first roller missed: the second one rolls
    services.bell_ring(night=night)
    state = live_state(night)
    table = state.room.tables[1]
    roller = table.spec.seats[table.current].name
    shown = text(screens.render_table(state, 2))
    assert f"Bell! {roller} finishes this turn, then stop." in shown
    banner = text(room_frames.banner_html(state))
    assert "Whoever is rolling finishes the turn, then stop" in banner
    assert "Finish as the rules say" not in banner


def test_a_bell_that_stops_play_says_stop_now(seated_night):
    night = seated_night  # babz: play stops at the bell
    services.round_start(night=night)
    roll(night, 2, quick="hit1")  # table 2 is not tied, so it is done at once
    services.bell_ring(night=night)
    state = live_state(night)
    assert "Bell! Stop now." in text(screens.render_table(state, 2))
    assert "Bell! Stop rolling now" in text(room_frames.banner_html(state))


def result_of(state, name):
    play = next(p for p in state.night.history[-1].tables if name in p.seats)
    mine = next(t for t, team in enumerate(play.teams) if name in team)
    partner = next(n for n in play.teams[mine] if n != name)
    other = play.scores[1 - mine]
    return play, partner, play.scores[mine], other, name in play.winners


def test_a_phone_shows_the_rounds_result_then_where_to_sit_next(seated_night):
    night = seated_night
    state = play_round(night)  # every table's first roll is a bunco
    for name in list(night.players.values_list("name", flat=True))[:4]:
        play, partner, mine, other, won = result_of(state, name)
        shown = text(room_frames.me_html(state, name, False))
        verdict = "won" if won else "lost at"
        assert (f"You and {partner} {verdict} table {play.number}, {mine}–{other}"
                in shown), shown
        assert "Set 1, round 1: final tally" in shown
        # Then, separately, the next seat and partner.
        where = state.seat_of(name)
        assert re.search(rf"Next round: .*table {where[0]}, seat {where[1] + 1}\.", shown)
        assert shown.index("final tally") < shown.index("Next round:")
        # The final tally is shown, not the next round's teams at 0-0.
        assert 'id="table-' not in room_frames.me_html(state, name, False)


def test_a_bunco_is_celebrated_on_the_phone_of_who_rolled_it(seated_night):
    night = seated_night
    state = play_round(night)
    rolled = {name for _, name in state.night.history[-1].buncos}
    assert rolled
    for player in night.players.all():
        shown = text(room_frames.me_html(state, player.name, False))
        assert ("You rolled a BUNCO this round!" in shown) == (player.name in rolled)


def test_between_rounds_a_table_shows_its_final_tally_and_who_plays_there_next(seated_night):
    night = seated_night
    state = play_round(night)
    last = state.last_room.tables[1]
    shown = text(screens.render_table(state, 2))
    assert "Round 1 final tally" in shown
    assert re.search(rf"{last.team_scores[0]} .* {last.team_scores[1]}", shown)
    nxt = state.tables[1]
    assert f"Next round here: {nxt.seats[0].name} & {nxt.seats[2].name}" in shown


def test_after_the_last_round_nobody_is_told_to_move(seated_night):
    night = seated_night
    state = finish_night(night, sets=1, end=False)
    assert state.phase == "over"
    assert screens.movement(state) == []
    tv = text(room_frames.tv_room_html(night, state))
    assert "Next seats" not in tv and "→ table" not in tv
    for player in night.players.all():
        shown = text(room_frames.me_html(state, player.name, False))
        assert "Move" not in shown and "Next round" not in shown
        assert "final tally" in shown  # the last round's result still shows
    banner = text(room_frames.banner_html(state))
    assert "move" not in banner.lower() and "That was the last round" in banner
    for n in range(1, len(state.tables) + 1):
        assert "Next round here" not in text(screens.render_table(state, n))


def test_the_bell_button_names_the_set_and_round_it_starts(seated_night, host_client):
    night = seated_night  # babz: two sets
    services.night_update_rules(night=night, rules=night.rules.replace(sets=2))
    for _ in range(6):
        play_round(night)
    html = host_client.get(f"/host/nights/{night.pk}/").content.decode()
    assert re.search(r'Ring the bell: start <span data-fill="next-round"[^>]*>set 2, round 1<',
                     html)
    banner = text(room_frames.banner_html(live_state(night)))
    assert "Next: set 2, round 1" in banner



def test_a_bell_that_closes_the_round_at_once_is_taken_back_as_the_bell(seated_night, host_client):
    night = seated_night  # babz: play stops at the bell
    services.round_start(night=night)
    for number in (1, 2, 3):
        roll(night, number, quick="hit1")  # no table is tied: the bell closes the round at once
    services.bell_ring(night=night)
    state = live_state(night)
    assert state.room is None
    banner = screens.round_banner(state)
    # The host's page offers "Take back the bell", as the README says, not "Reopen the round".
    assert (banner.can_take_back_bell, banner.can_reopen) == (True, False)
    page = host_client.get(f"/host/nights/{night.pk}/").content.decode()
    assert 'data-takeback="bell" data-when="can-unbell"' in page
    preview = host_client.get(f"/host/nights/{night.pk}/takeback/?what=bell").content.decode()
    assert "The round reopens" in text(preview)
    services.event_void(night=night, seq=state.bell_by, actor="host")
    state = live_state(night)
    assert state.room is not None and not state.room.bell_rung


def test_a_round_closed_by_a_later_roll_is_reopened_as_the_round(seated_night):
    night = seated_night
    services.round_start(night=night)
    roll(night, 1, quick="hit1")
    roll(night, 2, quick="hit1")
    services.bell_ring(night=night)  # table 3 is tied 0-0: it plays its tie-break
    banner = screens.round_banner(live_state(night))
    assert (banner.can_take_back_bell, banner.can_reopen) == (True, False)
    state = play_round(night, start=False)
    assert state.closed_by != state.bell_by
    banner = screens.round_banner(state)
    assert (banner.can_take_back_bell, banner.can_reopen) == (False, True)
