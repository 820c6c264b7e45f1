"""A disk that cannot save is said in words, never as an error, and a tap it could not save is
kept by the phone (the answer is no decision of the game). tests/e2e/test_full_disk.py fills a
real disk under a real server; here the database's own error is raised where it would be."""

import errno
import json
import sqlite3
import uuid

import pytest
from channels.db import database_sync_to_async
from django.db import OperationalError, ProgrammingError
from django.test import Client

from bunco.host.auth import host_secret
from bunco.laptop import backup, disk
from bunco.models import ScoreEvent, TableLink
from bunco.night import services
from tests.tables.test_consumers import connect, make_night

TAP = {"quick": "hit1", "set": 1, "round": 1, "table": 1, "pos": 0}
FULL = "database or disk is full"


@pytest.fixture(autouse=True)
def nothing_noted():
    disk.data_saved()
    disk.copy_saved()
    yield
    disk.data_saved()
    disk.copy_saved()


@pytest.fixture
def host(db):
    client = Client(raise_request_exception=False)
    client.get(f"/host/{host_secret()}/")
    return client


def wrapped(error: Exception) -> Exception:
    """``error`` as Django raises it: its own class, the driver's error as the cause."""
    try:
        try:
            raise error
        except sqlite3.Error as exc:
            raise OperationalError(*exc.args) from exc
    except OperationalError as exc:
        return exc


def test_what_counts_as_the_disk_failing():
    assert disk.is_disk_error(wrapped(sqlite3.OperationalError(FULL)))
    assert disk.is_disk_error(wrapped(sqlite3.OperationalError("disk I/O error")))
    assert disk.is_disk_error(OSError(errno.ENOSPC, "No space left on device"))
    assert disk.is_disk_error(OSError(errno.EROFS, "Read-only file system"))
    assert not disk.is_disk_error(OperationalError("no such table: bunco_night"))
    assert not disk.is_disk_error(ProgrammingError("syntax error"))
    assert not disk.is_disk_error(OSError(errno.ECONNREFUSED, "refused"))


def full_disk_error() -> Exception:
    return wrapped(sqlite3.OperationalError(FULL))


def full_disk(*args, **kwargs):
    raise full_disk_error()


@pytest.mark.django_db(transaction=True)  # a write that works is known after its commit
def test_a_tap_the_laptop_cannot_save_is_kept_and_the_host_told_until_a_write_works(
        host, seated_night, monkeypatch):
    services.round_start(night=seated_night)
    logged = ScoreEvent.objects.count()
    link = TableLink.objects.get(night=seated_night, number=1)
    phone = Client()
    key = str(uuid.uuid4())
    monkeypatch.setattr(services, "run", full_disk)
    answer = phone.post(f"/t/{link.token}/roll/", {**TAP, "key": key})
    assert answer.status_code == 503
    body = answer.json()
    assert body == {"ok": False, "retry": True, "disk": True,
                    "error": "The laptop cannot save right now: your rolls are kept"}
    assert ScoreEvent.objects.count() == logged
    page = host.get(f"/host/nights/{seated_night.pk}/").content.decode()
    assert "Bunco cannot save on this laptop" in page and "Save the night file" in page
    assert "BUNCO_DATA_DIR" not in page  # a host's words: no setting to type

    monkeypatch.undo()  # the disk has room again: the phone's resend is recorded
    answer = phone.post(f"/t/{link.token}/roll/", {**TAP, "key": key})
    assert answer.status_code == 200 and answer.json()["recorded"] == logged + 1
    page = host.get(f"/host/nights/{seated_night.pk}/").content.decode()
    assert "Bunco cannot save on this laptop" not in page


@pytest.mark.sqlite_only("the night lives in the laptop's data folder only on SQLite; "
                         "PostgreSQL's own disk says other things")
def test_a_host_command_the_laptop_cannot_save_shows_what_to_do_not_an_error(
        host, seated_night, monkeypatch):
    monkeypatch.setattr(services.runner, "_write", full_disk)
    answer = host.post(f"/host/nights/{seated_night.pk}/pause/")
    page = answer.content.decode()
    assert "Bunco cannot save on this laptop" in page and "Free some space" in page
    assert "Traceback" not in page and "OperationalError" not in page
    health = Client().get("/healthz")  # until a write works again, or the disk settles
    assert health.status_code == 503
    assert "Bunco cannot save on this laptop" in health.json()["problem"]
    assert str(disk.data_folder()) not in health.text  # anyone may ask: no folder's path


def test_a_link_the_server_does_not_know_is_not_a_decision(db):
    """A laptop that does not have the night (yet): the phone keeps its taps."""
    answer = Client().post("/t/not-opened-here-yet/roll/", {**TAP, "key": str(uuid.uuid4())})
    assert answer.status_code == 404
    assert answer.json() == {"ok": False, "retry": True, "unknown": True,
                             "error": "The laptop does not know this night yet: your rolls "
                                      "are kept"}


def test_a_copy_read_back_leaves_out_a_line_cut_short_and_what_follows_a_gap(seated_night):
    whole = backup.night_file(seated_night)
    logged = len(whole["events"])
    entry = {**whole["events"][-1], "kind": "roll"}
    lines = [json.dumps(whole),
             json.dumps({"events": [{**entry, "seq": logged + 1}]}),
             json.dumps({"events": [{**entry, "seq": logged + 3}]}),  # before the one it follows
             json.dumps({"events": [{**entry, "seq": logged + 2}],
                         "players": whole["players"][:1]}),
             json.dumps({"events": [{**entry, "seq": logged + 5}]}),  # after a gap: left out
             '{"events": [{"seq": ']  # the laptop died while writing
    data = backup.read_night_file("\n".join(lines))
    assert [e["seq"] for e in data["events"]] == list(range(1, logged + 4))
    assert data["players"] == whole["players"][:1]  # the latest word on the roster
    assert backup.read_night_file(json.dumps(whole)) == whole


@pytest.mark.django_db(transaction=True)
async def test_a_tap_and_a_call_over_the_websocket_the_laptop_cannot_save_are_said(
        monkeypatch):
    _, links, _ = await database_sync_to_async(make_night)()  # a round in play
    phone = await connect(f"/ws/table/{links[1]}/")
    await phone.receive_from()  # its snapshot
    monkeypatch.setattr(services, "run", full_disk)
    monkeypatch.setattr(services, "host_call", full_disk)
    key = str(uuid.uuid4())
    await phone.send_json_to({"type": "tap", "action": "roll",
                              "fields": {**{k: str(v) for k, v in TAP.items()}, "key": key}})
    ack = await phone.receive_json_from()
    assert ack == {"type": "ack", "key": key, "status": 503, "ok": False, "retry": True,
                   "disk": True, "error": "The laptop cannot save right now: your rolls are kept"}
    await phone.send_json_to({"type": "call"})
    button = await phone.receive_from()
    assert 'id="call-host"' in button and "The laptop cannot save right now" in button
    await phone.disconnect()


def test_the_hosts_page_still_loads_and_says_so_while_the_laptop_cannot_save(
        host, seated_night, monkeypatch):
    from django.contrib.sessions.backends.db import SessionStore

    from bunco.host import auth

    session = host.session
    session[auth.SEEN_KEY] -= auth.TOUCH_SECONDS + 1  # its idle clock is due to start again
    session.save()
    disk.data_failed(full_disk_error(), seated_night.pk)  # a phone's tap could not be saved
    monkeypatch.setattr(SessionStore, "save", full_disk)
    page = host.get(f"/host/nights/{seated_night.pk}/")
    assert page.status_code == 200
    assert "Bunco cannot save on this laptop" in page.content.decode()


def failing_disk(*args, **kwargs):
    """The disk reporting errors (a bad sector, a dying stick): not full."""
    raise wrapped(sqlite3.OperationalError("disk I/O error"))


@pytest.mark.parametrize("where", ["table", "player"])
def test_a_failing_disk_answers_a_tap_in_json_with_the_full_disks_sentence(
        seated_night, monkeypatch, where):
    """Wherever the error comes from (here: reading the link before the tap is run), the
    phone reads the same answer as for a full disk: kept, sent again; no page, no folder."""
    import tables.posts

    services.round_start(night=seated_night)
    token = (TableLink.objects.get(night=seated_night, number=1).token if where == "table"
             else seated_night.players.first().token)
    monkeypatch.setattr(tables.posts, f"{where}_by_token" if where == "player"
                        else "table_link_by_token", failing_disk)
    prefix = "t" if where == "table" else "p"
    answer = Client(raise_request_exception=False).post(
        f"/{prefix}/{token}/roll/", {**TAP, "key": str(uuid.uuid4())})
    assert answer.status_code == 503
    assert answer.json() == {"ok": False, "retry": True, "disk": True,
                             "error": "The laptop cannot save right now: your rolls are kept"}


def test_a_guest_is_never_shown_the_laptops_folders(seated_night, monkeypatch, settings):
    import tables.views

    monkeypatch.setattr(tables.views, "player_by_token", failing_disk)
    page = Client(raise_request_exception=False).get(
        f"/p/{seated_night.players.first().token}/")
    text = page.content.decode()
    assert page.status_code == 503 and "The laptop cannot save right now" in text
    assert str(settings.DATA_DIR) not in text and "BUNCO_DATA_DIR" not in text


def test_the_host_is_told_plainly_that_the_disk_is_failing_not_full(host, seated_night):
    disk.data_failed(wrapped(sqlite3.OperationalError("disk I/O error")), seated_night.pk)
    page = host.get(f"/host/nights/{seated_night.pk}/").content.decode()
    assert "Bunco cannot save on this laptop" in page
    assert "reports errors" in page and "Freeing space will not help" in page
    assert "Free some space" not in page
    disk.data_failed(full_disk_error())  # then full: the advice follows the latest
    page = host.get(f"/host/nights/{seated_night.pk}/").content.decode()
    assert "Free some space" in page and "reports errors" not in page
