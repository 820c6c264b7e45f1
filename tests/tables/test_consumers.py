"""Websockets of a live night: who receives what, snapshots, resync, and refusals."""

import re
import uuid

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.sessions.backends.db import SessionStore

from bunco import host, services
from bunco.asgi import application
from bunco.selectors import live_state
from tables.models import TableLink
from tables.services import roll_record

ORIGIN = (b"origin", b"http://localhost")
pytestmark = pytest.mark.django_db(transaction=True)


def make_night():
    night = services.demo_night_create()
    services.round_start(night=night)
    links = {link.number: link.token for link in TableLink.objects.filter(night=night)}
    session = SessionStore()
    session[host.SESSION_KEY] = True
    session.save()
    return night, links, session.session_key


async def connect(path, cookie=None):
    headers = [ORIGIN] + ([(b"cookie", f"sessionid={cookie}".encode())] if cookie else [])
    ws = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await ws.connect()
    assert connected, path
    return ws


def score_of(html, table):
    section = re.search(rf'<section id="table-{table}".*?</section>', html, re.S).group(0)
    return [int(s) for s in re.findall(r'data-testid="score">(\d+)<', section)]


async def test_a_tap_at_table_2_reaches_its_phones_the_host_and_the_tv_only():
    night, links, session_key = await database_sync_to_async(make_night)()
    table1 = await connect(f"/ws/table/{links[1]}/")
    table2 = await connect(f"/ws/table/{links[2]}/")
    tv = await connect(f"/ws/tv/{night.tv_token}/")
    host_ws = await connect(f"/ws/host/{night.pk}/", cookie=session_key)
    for ws in (table1, table2, tv, host_ws):  # every screen starts with a snapshot
        assert 'id="sync"' in await ws.receive_from()

    await database_sync_to_async(roll_record)(night=night, table=2, key=uuid.uuid4(),
                                              actor="table 2", quick="hit2")
    pushed = await table2.receive_from()
    assert score_of(pushed, 2) == [2, 0]
    assert 'id="tv"' in await tv.receive_from()
    assert 'id="host-board"' in await host_ws.receive_from()
    assert await table1.receive_nothing()
    for ws in (table1, table2, tv, host_ws):
        await ws.disconnect()


async def test_every_push_carries_the_nights_sequence_number_and_resync_sends_a_snapshot():
    night, links, _ = await database_sync_to_async(make_night)()
    ws = await connect(f"/ws/table/{links[1]}/")
    first = await ws.receive_from()
    seq = int(re.search(r'data-seq="(\d+)"', first).group(1))
    await database_sync_to_async(roll_record)(night=night, table=1, key=uuid.uuid4(),
                                              actor="t1", quick="hit1")
    pushed = await ws.receive_from()
    assert int(re.search(r'data-seq="(\d+)"', pushed).group(1)) == seq + 1
    await ws.send_json_to({"type": "sync", "seq": seq + 1})
    assert await ws.receive_nothing()  # up to date: nothing to send
    await ws.send_json_to({"type": "sync", "seq": seq})
    again = await ws.receive_from()  # behind: a fresh snapshot
    assert score_of(again, 1) == [1, 0]
    await ws.disconnect()


async def test_a_player_phone_follows_its_owner_to_the_next_table():
    night, links, _ = await database_sync_to_async(make_night)()

    def player_and_table():
        p = night.players.get(name="Ava")
        return p, live_state(night).seat_of("Ava")[0]

    player, table = await database_sync_to_async(player_and_table)()
    ws = await connect(f"/ws/player/{player.token}/")
    assert "Ava" in await ws.receive_from()
    await database_sync_to_async(roll_record)(night=night, table=table, key=uuid.uuid4(),
                                              actor="t", quick="hit1")
    assert f'id="table-{table}"' in await ws.receive_from()  # her table's tally

    def finish_round():
        services.bell_ring(night=night)
        state = live_state(night)
        while state.room is not None:
            for t in state.room.tables:
                if not t.done:
                    number = t.spec.number
                    if t.phase.value == "finishing":
                        from tables.services import table_finish
                        table_finish(night=night, table=number, key=uuid.uuid4(), actor="t")
                    else:  # a tie-break: one hit breaks the tie, then misses end the lap
                        tied = len(set(t.team_scores)) == 1
                        roll_record(night=night, table=number, key=uuid.uuid4(), actor="t",
                                    quick="hit1" if tied else "miss")
                    break
            state = live_state(night)
        return state.seat_of("Ava")[0]

    new_table = await database_sync_to_async(finish_round)()
    seen = []
    while not await ws.receive_nothing(timeout=0.2):
        seen.append(await ws.receive_from())
    assert any("Round over" in m and 'data-testid="where"' in m for m in seen)

    # From now on she hears her new table, not her old one.
    def other_table():
        return next(n for n in (1, 2, 3) if n != new_table)

    old = await database_sync_to_async(other_table)()
    await database_sync_to_async(services.round_start)(night=night)
    while not await ws.receive_nothing(timeout=0.2):
        await ws.receive_from()
    await database_sync_to_async(roll_record)(night=night, table=old, key=uuid.uuid4(),
                                              actor="t", quick="hit1")
    assert await ws.receive_nothing()
    await database_sync_to_async(roll_record)(night=night, table=new_table, key=uuid.uuid4(),
                                              actor="t", quick="hit1")
    assert f'id="table-{new_table}"' in await ws.receive_from()
    await ws.disconnect()


@pytest.mark.parametrize("path", ["/ws/table/nope/", "/ws/tv/nope/", "/ws/player/nope/"])
async def test_unknown_links_are_refused(path):
    ws = WebsocketCommunicator(application, path, headers=[ORIGIN])
    connected, _ = await ws.connect()
    assert not connected
    await ws.disconnect()


async def test_the_host_screen_needs_the_host_session():
    night, _, _ = await database_sync_to_async(make_night)()
    ws = WebsocketCommunicator(application, f"/ws/host/{night.pk}/", headers=[ORIGIN])
    connected, _ = await ws.connect()
    assert not connected
    await ws.disconnect()
