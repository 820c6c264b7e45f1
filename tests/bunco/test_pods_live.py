"""Pods on a live night: a pod's head table rings its own pod's bell, the phones of that pod
(and only those) are told, the host's horn rings the rest, a take-back of the bell is seen
everywhere, and nobody ever leaves their pod."""


import pytest
from channels.db import database_sync_to_async

from bunco.asgi import application
from bunco.live.screens import render_table
from bunco.models import TableLink
from bunco.night import services
from bunco.night.cache import live_state
from scoring import PRESETS, sample_names
from tests.playing import play_round, roll
from tests.screens import Screen

PODS = PRESETS["clockwise"].replace(pod_tables=3, sets=1)
HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


def make_night(players=24):
    night = services.night_create(name="Gala", rules_id="clockwise", rules=PODS,
                                  player_names=sample_names(players))
    services.night_seat(night=night)
    return night


def reach_21(night, number):
    """Table ``number``'s first team scores twos (a miss passes the dice) until the table's
    bell rings or the team has 21."""
    while True:
        table = live_state(night).room.tables[number - 1]
        if table.bell_rung or table.team_scores[0] >= 21:
            return
        roll(night, number, quick="hit2" if table.current in table.spec.teams[0] else "miss")


@pytest.mark.django_db
def test_a_pods_head_table_rings_for_its_pod_and_the_host_rings_the_rest():
    night = make_night()
    services.round_start(night=night)
    state = live_state(night)
    assert [state.room.tables[i].is_head for i in range(6)] == [True, False, False] * 2
    assert "pod 2 · head table" in render_table(state, 4)
    assert "pod 1" in render_table(state, 2) and "head table" not in render_table(state, 2)

    reach_21(night, 4)
    state = live_state(night)
    assert [t.bell_rung for t in state.room.tables] == [False] * 3 + [True] * 3
    assert 'data-testid="bell-duty"' in render_table(state, 5)
    assert 'data-testid="bell-duty"' not in render_table(state, 2)
    assert not state.room.bell_rung  # the room's banner still says play on

    services.bell_ring(night=night)  # the host's horn: pod 1 too
    assert all(t.bell_rung for t in live_state(night).room.tables)


@pytest.mark.django_db
def test_over_a_whole_night_nobody_leaves_their_pod():
    night = make_night(40)  # 10 tables: pods of 3, 3 and 4
    pods = [range(1, 4), range(4, 7), range(7, 11)]

    def pod_of_everyone():
        return {seat.name: next(p for p, pod in enumerate(pods) if spec.number in pod)
                for spec in live_state(night).tables for seat in spec.seats}

    start = pod_of_everyone()
    moved = False
    while live_state(night).phase != "over":
        before = {s.name: spec.number for spec in live_state(night).tables for s in spec.seats}
        play_round(night)
        assert pod_of_everyone() == start
        moved |= any(before[s.name] != spec.number
                     for spec in live_state(night).tables for s in spec.seats)
    assert moved


@pytest.mark.django_db(transaction=True)
async def test_only_the_pods_phones_hear_its_bell_and_a_take_back_reaches_them_too():
    night = await database_sync_to_async(make_night)()
    await database_sync_to_async(services.round_start)(night=night)
    links = {link.number: link.token async for link in TableLink.objects.filter(night=night)}
    screens = {}
    for number in (2, 5):
        screens[number] = Screen(application, f"/ws/table/{links[number]}/",
                                                headers=HEADERS)
        assert (await screens[number].connect())[0]
        await screens[number].receive_from()  # the snapshot
    await database_sync_to_async(reach_21)(night, 4)

    async def frames(number):  # every push sent so far (a command's are out at its commit)
        return await screens[number].said_so_far()

    five, two = await frames(5), await frames(2)
    assert any('data-testid="bell-duty"' in f and 'id="table-5"' in f for f in five)
    assert not any("bell-duty" in f for f in two)  # pod 1 plays on, told nothing

    state = await database_sync_to_async(live_state)(night)
    ringing = state.rolls[-1]  # the roll that reached 21 at table 4, taken back
    assert ringing.table == 4
    await database_sync_to_async(services.event_void)(night=night, seq=ringing.seq)
    five = await frames(5)
    assert five and "bell-duty" not in five[-1]  # the bell taken back: table 5 plays on
    for screen in screens.values():
        await screen.disconnect()
