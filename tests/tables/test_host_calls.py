"""A table calls the host over: one call per table waiting, shown to the host at once until
answered, and kept through a reload or a restart (it is a row of its own, not a log event)."""

import re
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from bunco.live import screens
from bunco.models import HostCall, ScoreEvent
from bunco.night import services
from bunco.night.cache import live_state
from bunco.night.services import CommandRefused
from tests.tables.test_consumers import connect, make_night, shows


@pytest.mark.django_db
def test_pressing_twice_is_one_call_and_the_log_is_untouched(seated_night):
    events = ScoreEvent.objects.filter(night=seated_night).count()
    first, new = services.host_call(night=seated_night, table=2, by="table 2's phone")
    again, new_again = services.host_call(night=seated_night, table=2, by="Ava's phone")
    assert new and not new_again and again.pk == first.pk
    assert HostCall.objects.count() == 1
    assert ScoreEvent.objects.filter(night=seated_night).count() == events  # not a game event
    html = screens.host_calls_html(seated_night.pk)
    assert "Table 2" in html and "table 2&#x27;s phone" in html and " hidden" not in html


@pytest.mark.django_db
def test_answered_calls_leave_the_hosts_list_and_the_table_is_told(seated_night):
    call, _ = services.host_call(night=seated_night, table=3, by="table 3's phone")
    assert "waiting for them" in screens.call_host_html(seated_night.pk, 3)
    services.host_call_answer(night=seated_night, call_id=call.pk, answer="coming")
    assert 'data-testid="host-call"' not in screens.host_calls_html(seated_night.pk)
    assert "The host is on the way" in screens.call_host_html(seated_night.pk, 3)
    # answering twice (two host tabs) changes nothing
    assert services.host_call_answer(night=seated_night, call_id=call.pk,
                                     answer="dismissed").answer == "coming"


@pytest.mark.django_db
def test_a_new_call_right_after_an_answer_is_refused_then_allowed(seated_night):
    call, _ = services.host_call(night=seated_night, table=1, by="x")
    services.host_call_answer(night=seated_night, call_id=call.pk, answer="dismissed")
    with pytest.raises(CommandRefused, match="a moment ago"):
        services.host_call(night=seated_night, table=1, by="x")
    later = timezone.now() + timedelta(seconds=11)
    second, new = services.host_call(night=seated_night, table=1, by="x", now=later)
    assert new and second.pk != call.pk


@pytest.mark.django_db
@pytest.mark.parametrize(("table", "answer", "message"), [
    (0, None, "no table 0"), (99, None, "no table 99"), (1, "maybe", "On my way")])
def test_bad_calls_and_answers_are_refused_and_change_nothing(seated_night, table, answer,
                                                              message):
    with pytest.raises(CommandRefused, match=message):
        if answer is None:
            services.host_call(night=seated_night, table=table, by="x")
        else:
            call, _ = services.host_call(night=seated_night, table=table, by="x")
            services.host_call_answer(night=seated_night, call_id=call.pk, answer=answer)
    assert not HostCall.objects.filter(answered_at__isnull=False).exists()
    assert HostCall.objects.count() == (1 if answer else 0)


pytestmark_ws = pytest.mark.django_db(transaction=True)


@pytestmark_ws
async def test_a_call_reaches_the_host_and_every_phone_of_the_table_at_once():
    night, links, session_key = await database_sync_to_async(make_night)()
    table2 = await connect(f"/ws/table/{links[2]}/")
    table1 = await connect(f"/ws/table/{links[1]}/")
    host_ws = await connect(f"/ws/host/{night.pk}/", cookie=session_key)
    for ws in (table2, table1, host_ws):
        snapshot = await ws.receive_from()
        assert 'id="call-host"' in snapshot or 'id="host-calls"' in snapshot
    await table2.send_json_to({"type": "call"})
    await table2.send_json_to({"type": "call"})  # pressed twice
    host_push = await host_ws.receive_from()
    assert "Table 2" in host_push and "table 2&#x27;s phone" in host_push
    replies = [await table2.receive_from() for _ in range(3)]  # the push, two answers
    assert all("waiting for them" in r for r in replies)
    assert await table1.told_nothing()
    assert await host_ws.told_nothing()  # the second press is the same call
    call = await database_sync_to_async(HostCall.objects.get)()

    # a host page that missed the push is sent it at its next sync
    await host_ws.send_json_to({"type": "sync", "shows": {"host-calls": 0}})
    assert 'data-testid="host-call"' in await host_ws.receive_from()
    await host_ws.send_json_to({"type": "sync", "shows": shows(host_push)})
    assert await host_ws.told_nothing()

    await host_ws.send_json_to({"type": "answer", "call": str(call.pk), "answer": "coming"})
    assert 'data-testid="host-call"' not in await host_ws.receive_from()
    assert "The host is on the way" in await table2.receive_from()
    await host_ws.send_json_to({"type": "answer", "call": "x", "answer": "coming"})
    assert "did not make sense" in await host_ws.receive_from()
    for ws in (table2, table1, host_ws):
        await ws.disconnect()


@pytestmark_ws
@pytest.mark.parametrize("call", ["9" * 4301, "\u00b2"])
async def test_an_answer_to_a_call_no_number_reads_is_explained(call):
    night, _, session_key = await database_sync_to_async(make_night)()
    host_ws = await connect(f"/ws/host/{night.pk}/", cookie=session_key)
    await host_ws.receive_from()  # the snapshot
    await host_ws.send_json_to({"type": "answer", "call": call, "answer": "coming"})
    assert "did not make sense" in await host_ws.receive_from()
    await host_ws.disconnect()


@pytestmark_ws
async def test_a_reconnecting_screen_gets_the_waiting_call_in_its_snapshot():
    night, links, session_key = await database_sync_to_async(make_night)()
    await database_sync_to_async(services.host_call)(night=night, table=3, by="Ava's phone")
    host_ws = await connect(f"/ws/host/{night.pk}/", cookie=session_key)
    snapshot = await host_ws.receive_from()
    assert re.search(r'data-testid="host-call" data-table="3"', snapshot)
    phone = await connect(f"/ws/table/{links[3]}/")
    assert "waiting for them" in await phone.receive_from()
    for ws in (host_ws, phone):
        await ws.disconnect()


@pytestmark_ws
async def test_a_guests_phone_calls_for_its_table_and_catches_up_with_another_tables_call():
    night, links, _ = await database_sync_to_async(make_night)()

    def ava():
        return night.players.get(name="Ava"), live_state(night).seat_of("Ava")[0]

    player, table = await database_sync_to_async(ava)()
    phone = await connect(f"/ws/player/{player.token}/")
    assert 'id="call-host"' in await phone.receive_from()
    await phone.send_json_to({"type": "call"})
    answered = await phone.receive_from()  # the push to the table, or the answer: either
    assert "waiting for them" in answered
    call = await database_sync_to_async(HostCall.objects.get)()
    assert call.table == table and call.by == "Ava's phone"
    await phone.receive_from()
    # A phone showing another table's call (its owner just moved) is sent a snapshot.
    await phone.send_json_to({"type": "sync", "shows": {"call-host": 1}})
    assert "waiting for them" in await phone.receive_from()
    await phone.disconnect()
