"""Nothing entered is lost: a night downloaded and opened on a fresh install is the identical
night; the database is snapshotted after every round and a command puts a snapshot back."""

import json
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from bunco.host.auth import host_secret
from bunco.laptop import backup
from bunco.live import sheets
from bunco.models import Night, Person, Player, ScoreEvent
from bunco.night import services
from bunco.night.cache import folds, live_state
from tests.playing import play_round, roll

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def host(client, db):
    client.get(f"/host/{host_secret()}/")
    return client


def played_night():
    """A night with everything a log can hold: a late arrival, a leaver, a take-back, prizes
    and a roll-off, played to the end with random dice."""
    night = services.night_create(name="Café night ☕", rules_id="babz", entry_fee_cents=500,
                                  player_names=[f"P{i}" for i in range(10)])
    services.night_update_rules(night=night, rules=night.rules.replace(sets=1))
    services.night_seat(night=night, rng=random.Random(3))
    rng = random.Random(4)
    services.round_start(night=night)
    row = roll(night, 1, quick="hit1").row
    services.event_void(night=night, seq=row.seq)
    play_round(night, start=False, rng=rng)
    services.player_arrive(night=night, name="Late Lou")
    services.player_leave(night=night, player=night.players.get(name="P3"))
    while live_state(night).phase != "over":
        play_round(night, rng=rng)
    services.night_end(night=night)
    night.players.filter(name="P5").update(device="f" * 64)  # claimed by a phone
    return Night.objects.get(pk=night.pk)


def what_the_host_sees(night):
    state = live_state(night)
    history = sheets.tally_history(night, state)
    for r in history:
        for _table, entries in r["tables"]:
            for e in entries:
                e["voided_by"] = e["voided_by"].seq if e["voided_by"] else None
    return {"sheet": sheets.master_sheet(night, state), "history": history,
            "csv": sheets.master_sheet_csv(night, state), "phase": state.phase,
            "created": night.created_at}


def test_a_night_file_opens_on_a_fresh_install_as_the_identical_night(host):
    night = played_night()
    before = what_the_host_sees(night)
    download = host.get(f"/host/nights/{night.pk}/night.json")
    assert download["Content-Disposition"] == 'attachment; filename="Caf-night-night.json"'
    data = download.content

    Night.objects.all().delete()  # a fresh install: nothing of tonight is left
    Person.objects.all().delete()
    folds.drop(night.pk)

    response = host.post("/host/restore/", {"file": SimpleUploadedFile("n.json", data)},
                         follow=True)
    assert "is back, exactly as it was" in response.content.decode()
    (restored,) = Night.objects.all()
    assert restored.name == "Café night ☕" and restored.status == Night.Status.FINISHED
    assert what_the_host_sees(restored) == before
    assert restored.tv_token == json.loads(data)["links"]["tv"]  # a fresh install: same links
    assert restored.table_links.count() == len(live_state(restored).tables)
    claimed = {p.name: p.device for p in restored.players.all() if p.device}
    assert claimed == {"P5": "f" * 64}  # the phone that claimed a player keeps it


@pytest.mark.parametrize("content, message", [
    (b"\xff\xfe not text", "that is not a night file"),
    (b"[1, 2", "that is not a night file"),
    (b'{"format": "something else"}', "this is not a night downloaded from Bunco"),
    (b'{"format": "bunco-night", "version": 99}', "from a newer version"),
    (b'{"format": "bunco-night", "version": 1, "night": {}, "players": [], "events": []}',
     "the night has no valid 'rules'"),
])
def test_a_file_that_is_not_a_night_is_explained_and_nothing_is_made(host, content, message):
    response = host.post("/host/restore/", {"file": SimpleUploadedFile("x.json", content)},
                         follow=True)
    assert message in response.content.decode().replace("&#x27;", "'")
    assert not Night.objects.exists()


def test_a_damaged_log_is_refused_whole(host, seated_night):
    services.round_start(night=seated_night)
    roll(seated_night, 1, quick="hit1")
    data = backup.night_file(seated_night)
    Night.objects.all().delete()
    broken = json.loads(json.dumps(data))
    broken["events"][-1]["table"] = 9  # a roll at a table that does not exist
    response = host.post("/host/restore/", {"file": SimpleUploadedFile(
        "x.json", json.dumps(broken).encode())}, follow=True)
    assert "does not replay" in response.content.decode()
    skipped = json.loads(json.dumps(data))
    del skipped["events"][2]
    response = host.post("/host/restore/", {"file": SimpleUploadedFile(
        "x.json", json.dumps(skipped).encode())}, follow=True)
    assert "entry 3 of the log is damaged" in response.content.decode()
    assert not Night.objects.exists() and not Player.objects.exists()


@pytest.mark.sqlite_only("snapshots are SQLite online backups; PostgreSQL keeps its own")
@pytest.mark.django_db(transaction=True)
def test_the_database_is_snapshotted_after_every_round(settings, tmp_path):
    settings.BUNCO_BACKUP_DIR = tmp_path
    night = services.demo_night_create()
    play_round(night)
    backup.wait()
    (first,) = backup.snapshots()
    play_round(night)
    backup.wait()
    newest = backup.snapshots()[0]
    assert newest != first
    with sqlite3.connect(newest) as db:
        logged = db.execute("select count(*) from tables_scoreevent where night_id = ?",
                            [night.pk]).fetchone()[0]
    assert logged == ScoreEvent.objects.filter(night=night).count()


@pytest.mark.postgresql_only("on SQLite a snapshot is taken: the test above")
@pytest.mark.django_db(transaction=True)
def test_on_postgresql_no_snapshot_is_taken_and_restore_says_to_use_pg_dump(settings, tmp_path):
    from django.core.management import CommandError, call_command

    settings.BUNCO_BACKUP_DIR = tmp_path
    play_round(services.demo_night_create())
    backup.wait()
    assert backup.snapshots() == [] and not list(tmp_path.iterdir())
    with pytest.raises(CommandError, match="pg_dump"):
        call_command("restore", "latest")


def manage(data_dir, *args, code=None):
    """manage.py on a laptop of its own: the SQLite database in ``data_dir``, whatever
    database the test run itself uses."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env["BUNCO_DATA_DIR"] = str(data_dir)
    command = [sys.executable, "manage.py", *args] + (["--no-imports", "-c", code] if code else [])
    result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_the_restore_command_puts_the_last_round_back(tmp_path):
    manage(tmp_path, "migrate", "-v0")
    manage(tmp_path, "shell", code=(
        "from bunco.laptop import backup; from bunco.night import services; "
        "from tests.playing import play_round\n"
        "night = services.demo_night_create(); play_round(night); backup.wait()\n"))
    counted = "from bunco.models import ScoreEvent; print(ScoreEvent.objects.count())"
    logged = manage(tmp_path, "shell", code=counted).strip()
    manage(tmp_path, "shell", code="from bunco.models import Night; Night.objects.all().delete()")
    assert manage(tmp_path, "shell", code=counted).strip() == "0"  # the night is gone

    assert "Restored" in manage(tmp_path, "restore", "latest")
    assert manage(tmp_path, "shell", code=counted).strip() == logged
    assert "before-restore" in manage(tmp_path, "restore", "--list")


def test_the_restore_command_opens_a_night_file(tmp_path, seated_night):
    path = tmp_path / "night.json"
    path.write_text(json.dumps(backup.night_file(seated_night)))
    data_dir = tmp_path / "other-laptop"
    manage(data_dir, "migrate", "-v0")
    assert "Opened 'Test night'" in manage(data_dir, "restore", str(path))


def test_snapshot_names_sort_by_time_even_across_a_second(settings, tmp_path, monkeypatch):
    # The clock reads 10:00:00.999999999, then 10:00:01.000000001: the second snapshot's name
    # must sort after the first's, or "restore latest" would pick the older one.
    settings.BUNCO_BACKUP_DIR = tmp_path
    source = tmp_path / "bunco.sqlite3"
    sqlite3.connect(source).close()
    base = 1_800_000_000 * 1_000_000_000
    for ns in (base + 999_999_999, base + 1_000_000_001):
        monkeypatch.setattr(backup.time, "time_ns", lambda ns=ns: ns)
        backup.snapshot(f"at{ns % 10}", source)
    assert [p.name.rsplit("-", 1)[-1] for p in backup.snapshots("bunco")] == [
        "at1.sqlite3", "at9.sqlite3"]


def stale(path: Path) -> Path:
    """A file left by a snapshot or copy the laptop died in the middle of (an hour ago)."""
    path.write_bytes(b"half a database")
    hour_ago = path.stat().st_mtime - 3600
    os.utime(path, (hour_ago, hour_ago))
    return path


def test_a_snapshot_interrupted_leaves_nothing_and_old_partial_files_are_cleaned(
        settings, tmp_path, monkeypatch):
    settings.BUNCO_BACKUP_DIR = tmp_path / "backups"
    source = tmp_path / "bunco.sqlite3"
    sqlite3.connect(source).close()
    left = stale(backup.folder() / "bunco-20261101-200000-000000000-round.partial")
    writing = backup.folder() / "bunco-20261129-200000-000000000-round.partial"
    writing.write_bytes(b"")  # another snapshot's, being written now: left alone
    backup.snapshot("round", source)
    assert not left.exists() and writing.exists()
    assert len(backup.snapshots("bunco")) == 1

    def full(*args, **kwargs):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(backup, "_copy_database", full)
    with pytest.raises(sqlite3.OperationalError):
        backup.snapshot("round", source)
    assert sorted(p.name for p in backup.folder().iterdir() if p.suffix == ".partial") == [
        writing.name]


def test_a_copy_interrupted_long_ago_is_cleaned_from_the_copy_folder(tmp_path, seated_night):
    left = stale(tmp_path / f".{backup.copy_name(seated_night)}.4242.partial")
    backup.write_copy(seated_night, tmp_path)
    assert not left.exists()
    assert [p.name for p in tmp_path.iterdir()] == [backup.copy_name(seated_night)]
