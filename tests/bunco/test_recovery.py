"""The laptop dies mid-night: the night's file carries its links, so on a fresh install it
opens with the same links and claims (the phones carry on); opened a second time on one
install it gets new links and says so; a copy folder keeps each live night's latest file off
the laptop as the night goes; the host's page asks for the file cheaply."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from bunco import clock
from bunco.host.auth import host_secret
from bunco.laptop import backup, disk
from bunco.live import sheets
from bunco.models import Night, Person, ScoreEvent
from bunco.night import devices, services
from bunco.night.cache import folds, live_state
from tests.bunco.test_backup import manage
from tests.playing import play_round, roll


@pytest.fixture
def host(client, db):
    client.get(f"/host/{host_secret()}/")
    return client


def upload(host, data: dict):
    return host.post("/host/restore/", {"file": SimpleUploadedFile(
        "night.json", json.dumps(data).encode())}, follow=True).content.decode()


def laptop_dies(night):
    Night.objects.all().delete()
    Person.objects.all().delete()
    folds.drop(night.pk)


def mid_round(night):
    """A round under way, table 1 rolled once, and Ann's phone holding Ann."""
    services.round_start(night=night)
    claim = services.claim_for(live_state(night), 1)
    tapped = roll(night, 1, quick="hit1", claim=claim)
    secret = devices.new_secret()
    ann = night.players.order_by("position").first()
    services.player_claim(night=night, player=ann, device=devices.fingerprint(secret))
    return (tapped.row.key, claim), ann, secret


def test_on_a_fresh_install_the_night_keeps_its_links_and_claims_and_play_goes_on(host):
    night = services.demo_night_create()
    tapped, ann, secret = mid_round(night)
    table = night.table_links.get(number=1)
    night.refresh_from_db()
    data = json.loads(json.dumps(backup.night_file(night)))
    links = (night.tv_token, night.join_token, night.tv_code)
    laptop_dies(night)

    page = upload(host, data)
    assert "Same links as before" in page
    restored = Night.objects.get()
    assert (restored.tv_token, restored.join_token, restored.tv_code) == links
    assert restored.table_links.get(number=1).token == table.token
    # The table's phone and Ann's phone open their pages at the links they had.
    assert host.get(f"/t/{table.token}/").status_code == 200
    anns_phone = Client()
    anns_phone.cookies[devices.COOKIE] = secret
    assert anns_phone.get(f"/p/{ann.token}/").status_code == 200
    assert Client().get(f"/p/{ann.token}/").status_code == 403  # still only Ann's phone
    assert Client().get(f"/tv/{links[0]}/").status_code == 200
    # A tap the phone had sent before the laptop died, sent again: recorded once, not twice.
    entries = ScoreEvent.objects.count()
    key, claim = tapped
    again = roll(restored, 1, quick="hit1", key=key, claim=claim)
    assert ScoreEvent.objects.count() == entries and not again.applied
    # Play goes on from the last roll recorded.
    roll(restored, 1, quick="miss")
    assert ScoreEvent.objects.count() == entries + 1
    assert services.claim_for(live_state(restored), 1).position == claim.position + 2


def test_the_same_night_opened_twice_on_one_install_gets_new_links_and_says_so(host):
    night = services.demo_night_create()
    mid_round(night)
    data = json.loads(json.dumps(backup.night_file(night)))

    page = upload(host, data)
    assert "already open on this laptop" in page and "new links" in page
    first, second = Night.objects.order_by("pk")
    assert first.tv_token == data["links"]["tv"]  # the night in play keeps its own
    assert second.tv_token != first.tv_token and second.tv_code != first.tv_code
    assert not set(second.players.values_list("token", flat=True)) & set(
        first.players.values_list("token", flat=True))
    assert (sheets.master_sheet(second, live_state(second))
            == sheets.master_sheet(first, live_state(first)))


@pytest.mark.parametrize("change", ["version 1", "damaged links"])
def test_a_file_without_usable_links_opens_with_new_ones(host, change):
    night = services.demo_night_create()
    mid_round(night)
    data = json.loads(json.dumps(backup.night_file(night)))
    if change == "version 1":
        data["version"] = 1
        del data["links"]
    else:
        data["links"]["tables"]["1"] = "not a token!"
    laptop_dies(night)

    page = upload(host, data)
    assert "is back, exactly as it was" in page and "links are new" in page
    restored = Night.objects.get()
    assert restored.tv_token != night.tv_token
    assert ScoreEvent.objects.count() == len(data["events"])


def test_the_host_page_asks_for_the_file_again_cheaply(host):
    night = services.demo_night_create()
    url = f"/host/nights/{night.pk}/night.json"
    first = host.get(url)
    assert first.status_code == 200 and first["ETag"]
    same = host.get(url, headers={"If-None-Match": first["ETag"]})
    assert same.status_code == 304 and same.content == b""
    services.round_start(night=night)
    moved = host.get(url, headers={"If-None-Match": first["ETag"]})
    assert moved.status_code == 200 and moved["ETag"] != first["ETag"]
    assert len(json.loads(moved.content)["events"]) == len(json.loads(first.content)["events"]) + 1
    assert Client().get(url).status_code != 200  # only the host gets it: it holds every link


@pytest.mark.sqlite_only("the copy's thread reads the night on a connection of its own")
@pytest.mark.django_db(transaction=True)
def test_the_copy_folder_keeps_the_latest_night_file_and_it_opens_elsewhere(settings, tmp_path):
    stick = tmp_path / "stick"
    settings.BUNCO_COPY_TO = str(stick)
    night = services.demo_night_create()
    play_round(night)  # a round's end: written at once
    backup.copy_wait()
    (kept,) = stick.glob("*.json")
    assert kept.name.startswith("Demo") and kept.name.endswith("-night.json")
    assert not list(stick.glob(".*partial"))  # written aside, then renamed: never half a file
    night.refresh_from_db()
    saved = backup.read_night_file(kept.read_text())
    assert len(saved["events"]) == night.last_seq and saved["links"]["tv"] == night.tv_token

    other = tmp_path / "new-laptop"
    out = manage(other, "restore_night", str(kept))
    assert "Opened" in out and "Same links as before" in out


@pytest.mark.sqlite_only("the copy's thread reads the night on a connection of its own")
@pytest.mark.django_db(transaction=True)
def test_the_copy_folder_follows_every_command_and_reads_back_as_the_nights_file(
        settings, tmp_path):
    """Between a round's end (the whole file) and the next, each command is a line: a leaver
    and a claim (their player's line, not the roster), a late guest (the roster again),
    taps."""
    stick = tmp_path / "stick"
    settings.BUNCO_COPY_TO = str(stick)
    night = services.demo_night_create()
    play_round(night)
    backup.copy_wait()
    leaver = night.players.order_by("position").last()
    services.player_leave(night=night, player=leaver)  # a ghost's chair for a late guest
    services.player_arrive(night=night, name="Late Lou")
    backup.copy_wait()  # the roster's line written before the claim's (a busy machine's copier
    # would otherwise take them as one line, the whole roster in it)
    mid_round(night)  # a tap and a claim
    backup.copy_wait()  # written: a busy machine would not run the tap's line into theirs
    roll(night, 1, quick="miss")
    backup.copy_wait()
    (kept,) = stick.glob("*-night.json")
    lines = kept.read_text().splitlines()
    assert len(lines) > 1 and len(lines[-1]) < 2000  # a tap's line: the tap
    assert any('"players_changed"' in line for line in lines)
    copy = backup.read_night_file(kept.read_text())
    now = backup.night_file(Night.objects.get(pk=night.pk))
    assert {**copy, "saved_at": ""} == {**now, "saved_at": ""}
    assert any(p["device"] for p in copy["players"]) and copy["players"][-1]["name"] == "Late Lou"


def test_a_copy_folder_that_cannot_be_written_says_so(tmp_path):
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("")
    assert "Bunco cannot keep copies in" in backup.check_copy_folder(not_a_folder / "bunco")
    assert backup.check_copy_folder(tmp_path / "new" / "bunco") == ""


def test_at_another_address_every_claim_is_freed_and_a_guest_picks_their_name_again(
        host, settings):
    settings.LAN_ADDRESS, settings.LAN_FOUND = "192.168.1.20", True
    night = services.demo_night_create()
    _, ann, _ = mid_round(night)
    data = json.loads(json.dumps(backup.night_file(night)))
    assert data["address"] == "192.168.1.20"
    laptop_dies(night)
    settings.LAN_ADDRESS = "192.168.1.57"  # the new laptop: the phones' cookies are not its

    page = upload(host, data)
    assert "taps their name again" in page
    restored = Night.objects.get()
    assert not restored.players.exclude(device="").exists()
    released = ScoreEvent.objects.filter(night=restored, kind="released")
    assert [e.data["name"] for e in released] == [ann.name]
    assert restored.last_seq == len(data["events"]) + 1
    # Ann's phone, at the new address without its old cookie, picks her name.
    phone = Client()
    picked = phone.post(f"/j/{restored.join_token}/", {"player": restored.players.get(
        name=ann.name).pk})
    assert picked.status_code == 302 and picked["Location"] == f"/p/{ann.token}/"


@pytest.mark.django_db(transaction=True)
async def test_a_screen_that_saw_more_than_an_older_copy_holds_is_told_to_reload():
    from channels.db import database_sync_to_async

    from tests.bunco.test_consumers import table_screen

    night, ws = await table_screen()
    last = night.last_seq
    await ws.send_json_to({"type": "sync", "shows": {"table-1": last, "banner": last}})
    assert await ws.told_nothing()  # in step: nothing to say
    # The night as an older copy had it: the screen shows two entries the log has not.
    await ws.send_json_to({"type": "sync", "shows": {"table-1": last + 2, "banner": last}})
    assert json.loads(await ws.receive_from()) == {"type": "reload"}
    rolls = await database_sync_to_async(lambda: night.events.filter(kind="roll").count())()
    assert rolls == 0
    await ws.disconnect()


def test_a_tv_code_another_night_has_here_is_made_anew_and_the_links_are_kept(host):
    night = services.demo_night_create()
    mid_round(night)
    data = json.loads(json.dumps(backup.night_file(night)))
    laptop_dies(night)
    other = services.demo_night_create()
    Night.objects.filter(pk=other.pk).update(tv_code=data["links"]["tv_code"])

    assert "Same links as before" in upload(host, data)
    restored = Night.objects.exclude(pk=other.pk).get()
    assert restored.tv_token == data["links"]["tv"]
    assert restored.tv_code != data["links"]["tv_code"]  # the other night keeps its code


def test_a_swap_keeps_the_nights_join_code_and_tv_code_and_both_still_work(host):
    night = services.demo_night_create()
    mid_round(night)
    data = json.loads(json.dumps(backup.night_file(night)))
    codes = (night.join_code, night.tv_code)
    laptop_dies(night)

    assert "Same links as before" in upload(host, data)
    restored = Night.objects.get()
    assert (restored.join_code, restored.tv_code) == codes
    # A guest types the code the TV still shows; a TV's browser types the TV's.
    assert Client().get("/", {"code": codes[0]}).url == f"/j/{restored.join_token}/"
    assert Client().get("/tv/", {"code": codes[1]}).url == f"/tv/{restored.tv_token}/"


def test_an_older_night_file_without_its_join_code_opens_with_a_new_one(host):
    night = services.demo_night_create()
    mid_round(night)
    data = json.loads(json.dumps(backup.night_file(night)))
    del data["links"]["join_code"]
    laptop_dies(night)

    assert "Same links as before" in upload(host, data)
    restored = Night.objects.get()
    assert restored.join_token == data["links"]["join"] and restored.join_code.isdigit()
    assert Client().get("/", {"code": restored.join_code}).url == f"/j/{restored.join_token}/"


def tv_snapshot_after_a_swap_onto_a_laptop_using_its_join_code(host):
    night = services.demo_night_create()
    mid_round(night)
    data = json.loads(json.dumps(backup.night_file(night)))
    laptop_dies(night)
    other = services.demo_night_create()  # this laptop's own night has the code already
    Night.objects.filter(pk=other.pk).update(join_code=data["links"]["join_code"])
    assert "Same links as before" in upload(host, data)
    return data, Night.objects.exclude(pk=other.pk).get()


@pytest.mark.django_db(transaction=True)
async def test_a_join_code_another_night_has_here_is_made_anew_and_the_tv_is_told_it():
    from channels.db import database_sync_to_async
    from channels.testing import WebsocketCommunicator

    from bunco.asgi import application

    host = Client()
    await database_sync_to_async(host.get)(f"/host/{host_secret()}/")
    data, restored = await database_sync_to_async(
        tv_snapshot_after_a_swap_onto_a_laptop_using_its_join_code)(host)
    old = data["links"]["join_code"]
    assert restored.tv_token == data["links"]["tv"] and restored.join_code != old
    # The TV reconnects by itself at its old link: it is shown the night's new join code.
    tv = WebsocketCommunicator(application, f"/ws/tv/{restored.tv_token}/", headers=[
        (b"origin", b"http://localhost"), (b"host", b"localhost")])
    assert (await tv.connect())[0]
    snapshot = await tv.receive_from()
    assert f'id="tv-join-code" data-testid="tv-join-code">{restored.join_code}</b>' in snapshot
    await tv.disconnect()
    page = await database_sync_to_async(Client().get)("/", {"code": restored.join_code})
    assert page.url == f"/j/{restored.join_token}/"


def copier_idle() -> None:
    """Until the copier's thread has nothing to do right now (its retries wait for their
    time)."""
    copier = backup._copier
    with copier.cond:
        assert copier.cond.wait_for(lambda: not copier.busy and not copier.fresh, timeout=30)


@pytest.mark.sqlite_only("the copy's thread reads the night on a connection of its own")
@pytest.mark.django_db(transaction=True)
def test_a_copy_folder_that_comes_back_is_written_when_the_retry_is_due_by_the_clock(
        settings, tmp_path):
    """A stick that cannot be written is tried again RETRY_EVERY seconds later by the server's
    clock: not before, however long the machine takes, and at once when that time comes."""
    blocked = tmp_path / "stick"
    blocked.write_text("")  # a file where the folder should be: every write fails
    settings.BUNCO_COPY_TO = str(blocked / "bunco")
    with clock.use(clock.HeldClock()) as held:
        night = services.demo_night_create()
        play_round(night)
        copier_idle()
        assert disk.copy_trouble() is not None
        assert backup._copier.due == {night.pk: held.monotonic() + backup.RETRY_EVERY}
        blocked.unlink()  # the stick is back
        copier_idle()
        assert not (blocked / "bunco").exists()  # the clock has not moved: no retry yet
        held.advance(backup.RETRY_EVERY)
        with backup._copier.cond:
            backup._copier.cond.wait_for(lambda: not backup._copier.due, timeout=30)
        copier_idle()
    (kept,) = (blocked / "bunco").glob("*-night.json")
    assert len(backup.read_night_file(kept.read_text())["events"]) == night.last_seq
    disk.copy_saved()
