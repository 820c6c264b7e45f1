"""Websockets of a live night: who receives what, snapshots, resync, and refusals."""

import json
import re
import time
import uuid

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.contrib.sessions.backends.db import SessionStore

from bunco import clock
from bunco.asgi import application
from bunco.host import auth as host
from bunco.live import groups, sync
from bunco.models import ScoreEvent, TableLink
from bunco.night import services
from bunco.night.cache import live_state
from tests.playing import roll, started_night
from tests.screens import Screen

ORIGIN = (b"origin", b"http://localhost")
HOST = (b"host", b"localhost")
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def held():
    """The server's clock, held: a push counts as on its way until the test moves it on."""
    with clock.use(clock.HeldClock()) as held:
        yield held


def settle(held) -> None:
    """Move the server's clock past the pushes' settling time: a push not arrived is lost."""
    held.advance(sync.POLICY.settle_seconds)


def make_night():
    night = services.demo_night_create()
    services.round_start(night=night)
    links = {link.number: link.token for link in TableLink.objects.filter(night=night)}
    session = SessionStore()
    session[host.SESSION_KEY] = host._link_id()
    session[host.SEEN_KEY] = int(time.time())
    session.save()
    return night, links, session.session_key


async def connect(path, cookie=None):
    headers = [ORIGIN, HOST] + ([(b"cookie", f"sessionid={cookie}".encode())] if cookie else [])
    ws = Screen(application, path, headers=headers)
    connected, _ = await ws.connect()
    assert connected, path
    return ws


def score_of(html, table):
    section = re.search(rf'<section id="table-{table}".*?</section>', html, re.S).group(0)
    return [int(s) for s in re.findall(r'data-testid="score">(\d+)<', section)]


def roll_record(*, night, table, quick, **_):
    return roll(night, table, quick=quick)


async def test_a_tap_is_rendered_once_and_reaches_its_tables_phones_the_host_and_the_tv():
    night, links, session_key = await database_sync_to_async(make_night)()
    table1 = await connect(f"/ws/table/{links[1]}/")
    table2 = await connect(f"/ws/table/{links[2]}/")
    tv = await connect(f"/ws/tv/{night.tv_token}/")
    host_ws = await connect(f"/ws/host/{night.pk}/", cookie=session_key)
    for ws in (table1, table2, tv, host_ws):  # every screen starts with a snapshot
        assert 'id="banner"' in await ws.receive_from()

    await database_sync_to_async(roll_record)(night=night, table=2, quick="hit2")
    pushed = await table2.receive_from()
    assert score_of(pushed, 2) == [2, 0]
    assert pushed.startswith('<section id="table-2"') and "<form" not in pushed
    assert await tv.receive_from() == pushed
    assert await host_ws.receive_from() == pushed
    assert await table1.told_nothing()
    for ws in (table1, table2, tv, host_ws):
        await ws.disconnect()


def shows(html):
    return {i: int(s) for i, s in re.findall(r'id="([\w-]+)"[^>]*?data-seq="(\d+)"', html)}


async def lost(group, work):
    """``work`` done while the pushes to ``group`` are dropped on the way (a shared layer
    restarting): never forwarded to its screens."""
    layer = get_channel_layer()
    send = layer.group_send

    async def dropping(to, message):
        if to != group:
            await send(to, message)

    layer.group_send = dropping
    try:
        await database_sync_to_async(work)()
    finally:
        del layer.group_send


async def test_resync_compares_what_the_screen_shows_so_a_quiet_table_is_not_resent(held):
    night, links, _ = await database_sync_to_async(make_night)()
    ws = await connect(f"/ws/table/{links[1]}/")
    first = shows(await ws.receive_from())
    assert set(first) == {"banner", "table-1", "call-host"}
    await database_sync_to_async(roll_record)(night=night, table=2, quick="hit1")
    await ws.send_json_to({"type": "sync", "shows": first})
    assert await ws.told_nothing()  # another table tapped: this one is still current
    await database_sync_to_async(roll_record)(night=night, table=1, quick="hit1")
    pushed = await ws.receive_from()
    assert shows(pushed)["table-1"] > first["table-1"]
    await lost(groups.table(night.pk, 1),
               lambda: roll_record(night=night, table=1, quick="hit1"))
    settle(held)  # a push lost, not on its way
    await ws.send_json_to({"type": "sync", "shows": {**first, **shows(pushed)}})
    again = await ws.receive_from()  # behind: a fresh snapshot
    assert score_of(again, 1) == [2, 0]
    await ws.disconnect()


async def test_a_screen_just_woken_asks_whether_its_socket_still_reaches_the_app():
    """A phone waking from sleep cannot tell a dead socket from a quiet one: it asks, and
    the answer is a pong (a sync that finds the screen current says nothing)."""
    night, links, _ = await database_sync_to_async(make_night)()
    ws = await connect(f"/ws/table/{links[1]}/")
    await ws.receive_from()
    await ws.send_json_to({"type": "ping"})
    assert await ws.receive_json_from() == {"type": "pong"}
    await ws.disconnect()


def compact(shown: dict) -> dict:
    """The page's sync (live.js): tables in compact form, everything else by id."""
    tables = {int(i[6:]): seq for i, seq in shown.items() if re.fullmatch(r"table-\d+", i)}
    listed = [tables.get(n, 0) for n in range(1, max(tables) + 1)]
    return {"type": "sync", "tables": listed,
            "shows": {i: seq for i, seq in shown.items() if not i.startswith("table-")}}


async def test_a_tv_of_100_tables_that_is_up_to_date_gets_nothing_from_a_sync(held):
    """The TV lists 100 tables: an up-to-date one costs a lookup a table, not a snapshot;
    one that missed a table's push gets the room again."""

    night = await database_sync_to_async(started_night)("Gala", 400, seed=2)
    tv = await connect(f"/ws/tv/{night.tv_token}/")
    first = shows(await tv.receive_from())
    assert len([i for i in first if i.startswith("table-")]) == 100
    sync = compact(first)
    assert len(first) > 64 and len(sync["tables"]) == 100  # more ids than a map may list
    await tv.send_json_to(sync)
    assert await tv.told_nothing()  # up to date: nothing sent
    await lost(groups.tv(night.pk),
               lambda: roll_record(night=night, table=77, quick="hit1"))
    settle(held)  # a push lost, not on its way
    await tv.send_json_to(sync)  # that push never reached it
    again = shows(await tv.receive_from())  # behind: the room afresh
    assert again["table-77"] > first["table-77"]
    await tv.disconnect()


async def test_a_sync_is_answered_from_this_processs_fold_and_a_push_on_its_way_is_no_miss(
        monkeypatch, held):
    """With several workers, an up-to-date screen's sync costs no trip to the database
    (2,000 screens sync every 10 s); a screen behind only by what was already written to it,
    or by a push still on its way (a bell's frames to every screen), is not sent the room
    again; one that a push never reached is, once the push had time to arrive."""
    from bunco.live import groups
    from bunco.live.consumers import ScreenConsumer

    monkeypatch.setattr(groups, "shared_layer", lambda: True)  # several workers' fast path
    asked = []
    database = ScreenConsumer.verdict_from_log
    monkeypatch.setattr(ScreenConsumer, "verdict_from_log",
                        lambda self, *a: asked.append(1) or database(self, *a))
    night, links, _ = await database_sync_to_async(make_night)()
    ws = await connect(f"/ws/table/{links[1]}/")
    first = shows(await ws.receive_from())
    await ws.send_json_to({"type": "sync", "shows": first})
    assert await ws.told_nothing() and asked == []  # current: from the fold, no database
    await database_sync_to_async(roll_record)(night=night, table=1, quick="hit1")
    await ws.send_json_to({"type": "sync", "shows": first})  # its push not read yet
    assert "table-1" in await ws.receive_from()  # the push ...
    assert await ws.told_nothing()  # ... and nothing more: it was written already
    await lost(groups.table(night.pk, 1),
               lambda: roll_record(night=night, table=1, quick="hit2"))
    await ws.send_json_to({"type": "sync", "shows": first})
    assert await ws.told_nothing()  # a push just made may still be on its way
    settle(held)  # ... and now it has had its time
    await ws.send_json_to({"type": "sync", "shows": first})
    assert score_of(await ws.receive_from(), 1) == [3, 0]
    assert asked == []
    await ws.disconnect()


async def test_one_process_answers_an_up_to_date_sync_from_its_fold_all_night(monkeypatch):
    """One process (the party's own layer): a screen's syncs are answered on the spot from the
    fold (``verdict_here``), and only every ``rejoin_every``-th asks the database, however
    many the screen sends."""
    from bunco.live.consumers import ScreenConsumer

    asked = []
    database = ScreenConsumer.verdict_from_log
    monkeypatch.setattr(ScreenConsumer, "verdict_from_log",
                        lambda self, *a: asked.append(1) or database(self, *a))
    night, links, _ = await database_sync_to_async(make_night)()
    ws = await connect(f"/ws/table/{links[1]}/")
    first = shows(await ws.receive_from())
    for _ in range(4):
        for _ in range(sync.POLICY.rejoin_every):
            await ws.send_json_to({"type": "sync", "shows": first})
        assert await ws.told_nothing()
    assert len(asked) == 4  # the 6th, 12th, 18th and 24th
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
                        services.table_finish(
                            night=night, claim=services.claim_for(state, number),
                            key=uuid.uuid4(), actor="t")
                    else:  # a tie-break: one hit breaks the tie, then misses end the lap
                        tied = len(set(t.team_scores)) == 1
                        roll(night, number, quick="hit1" if tied else "miss")
                    break
            state = live_state(night)
        return state.seat_of("Ava")[0]

    new_table = await database_sync_to_async(finish_round)()
    # what the bell and the last table's finish pushed: the round's end, and where she goes
    await ws.said_until(lambda m: "Round 1 over" in m and 'data-testid="where"' in m)

    # From now on she hears her new table, not her old one.
    def other_table():
        return next(n for n in (1, 2, 3) if n != new_table)

    old = await database_sync_to_async(other_table)()
    await database_sync_to_async(services.round_start)(night=night)
    await database_sync_to_async(roll_record)(night=night, table=old, key=uuid.uuid4(),
                                              actor="t", quick="hit1")
    await database_sync_to_async(roll_record)(night=night, table=new_table, key=uuid.uuid4(),
                                              actor="t", quick="hit1")
    # Everything up to her new table's roll: the new round's frames, and nothing of the old
    # table's roll, made first (its push would have come first: told by what came, not by
    # a pause, so the stock dispatch's order of pushes and answers does not matter).
    got = await ws.said_until(lambda m: f'id="table-{new_table}"' in m and 'data-pos="1"' in m)
    assert not any(f'id="table-{old}"' in m for m in got)
    await ws.disconnect()


@pytest.mark.parametrize("path", ["/ws/table/nope/", "/ws/tv/nope/", "/ws/player/nope/"])
async def test_unknown_links_are_refused(path):
    ws = Screen(application, path, headers=[ORIGIN, HOST])
    connected, _ = await ws.connect()
    assert not connected
    await ws.disconnect()


async def test_the_host_screen_needs_the_host_session():
    night, _, _ = await database_sync_to_async(make_night)()
    ws = Screen(application, f"/ws/host/{night.pk}/", headers=[ORIGIN, HOST])
    connected, _ = await ws.connect()
    assert not connected
    await ws.disconnect()


async def test_a_tap_over_the_devices_websocket_is_answered_and_counts_once():
    night, links, _ = await database_sync_to_async(make_night)()
    ws = await connect(f"/ws/table/{links[1]}/")
    await ws.receive_from()  # the snapshot
    state = await database_sync_to_async(live_state)(night)
    fields = {"key": str(uuid.uuid4()), "set": "1", "round": "1", "table": "1",
              "pos": str(state.position(1)), "quick": "hit2"}
    await ws.send_json_to({"type": "tap", "action": "roll", "fields": fields})
    # The answer and the table's push (as every screen of the table gets it) come in either
    # order: the push goes out as soon as the tap is written.
    got = [await ws.receive_from(), await ws.receive_from()]
    ack = json.loads(next(text for text in got if text.startswith("{")))
    assert ack["type"] == "ack" and ack["key"] == fields["key"] and ack["recorded"]
    pushed = next(text for text in got if not text.startswith("{"))
    assert score_of(pushed, 1) == [2, 0]
    await ws.send_json_to({"type": "tap", "action": "roll", "fields": fields})  # a resend
    answer = await ws.receive_json_from()
    assert answer["ok"] and answer["message"] == "Already recorded"
    assert answer["recorded"] == ack["recorded"]
    # The answer is the decision only (no table drawn for nothing): where the next tap goes.
    assert "html" not in answer and answer["at"] == {"set": 1, "round": 1, "table": 1,
                                                     "pos": int(fields["pos"]) + 1}
    # Another tap naming the same position is not that roll: refused, saying why.
    await ws.send_json_to({"type": "tap", "action": "roll",
                           "fields": {**fields, "key": str(uuid.uuid4()), "quick": "miss"}})
    answer = await ws.receive_json_from()
    assert answer["status"] == 409 and answer["refused"] and "moved on" in answer["error"]
    assert "html" not in answer and answer["seq"] == ack["recorded"] and "same" not in answer
    # The same roll tapped again (another phone's, a new key): counted once, said so.
    await ws.send_json_to({"type": "tap", "action": "roll",
                           "fields": {**fields, "key": str(uuid.uuid4())}})
    answer = await ws.receive_json_from()
    assert answer["status"] == 409 and answer["same"] and "counts once" in answer["error"]
    await ws.send_json_to({"type": "tap", "action": "roll", "fields": ["junk"]})
    assert (await ws.receive_json_from())["ok"] is False
    assert await ws.told_nothing()
    await ws.disconnect()


async def test_a_tap_on_a_night_deleted_since_the_phone_connected_is_refused_in_words():
    night, links, _ = await database_sync_to_async(make_night)()
    ws = await connect(f"/ws/table/{links[1]}/")
    await ws.receive_from()  # the snapshot
    fields = {"key": str(uuid.uuid4()), "set": "1", "round": "1", "table": "1", "pos": "0",
              "quick": "hit2"}
    await database_sync_to_async(services.night_delete)(night=night, live_confirmed=True)
    await ws.send_json_to({"type": "tap", "action": "roll", "fields": fields})
    answer = await ws.receive_json_from()
    assert answer["ok"] is False and "no longer exists" in answer["error"], answer
    assert not await database_sync_to_async(ScoreEvent.objects.filter(key=fields["key"]).exists)()
    await ws.disconnect()


async def test_a_tap_the_server_fails_on_is_answered_and_the_socket_stays_open(monkeypatch):
    """A server error is not a decision of the game: the answer says the tap is kept (the
    phone sends it again with the same key) and the socket stays open."""
    night, links, _ = await database_sync_to_async(make_night)()
    ws = await connect(f"/ws/table/{links[1]}/")
    await ws.receive_from()  # the snapshot

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(services, "run", broken)
    fields = {"key": str(uuid.uuid4()), "set": "1", "round": "1", "table": "1", "pos": "0",
              "quick": "hit2"}
    await ws.send_json_to({"type": "tap", "action": "roll", "fields": fields})
    ack = await ws.receive_json_from()
    assert ack["key"] == fields["key"] and ack["status"] == 500 and ack["ok"] is False
    assert "kept" in ack["error"] and not ack.get("refused")
    await ws.send_json_to({"type": "sync", "shows": {}})  # still open, still answering
    assert await ws.told_nothing()
    await ws.disconnect()
