"""The copy folder is the whole recovery kit: with the night's file, Bunco itself (the single
file the host runs, or its wheels made again from the install) and HOW-TO-START.txt, put
there once, off the taps' path; a stick with no room for it is said and never stops play; the
host's page offers the same file to another laptop (the host only)."""

import base64
import hashlib
import zipfile
from importlib import metadata
from pathlib import Path

import pytest
from django.test import Client

from bunco.host.auth import host_secret
from bunco.laptop import appfile, backup, disk, kit
from bunco.night import services
from tests.playing import roll


@pytest.fixture
def app_file(tmp_path, monkeypatch):
    """This copy of Bunco as the single-file app (sys.frozen), in a folder of its own, with a
    fresh kit and no copy-folder trouble left from another test."""
    exe = tmp_path / "app" / "bunco-0.1.0-linux-x86_64"
    exe.parent.mkdir()
    exe.write_bytes(b"\x7fELF" + bytes(range(256)) * 400)
    exe.chmod(0o755)
    monkeypatch.setattr(appfile, "this_app", lambda: appfile.App("onefile", exe))
    monkeypatch.setattr(kit, "_putter", kit._Putter())
    monkeypatch.setattr(kit, "_made", {})
    yield exe
    kit.wait()
    disk._copy.clear()


def copied(stick: Path) -> None:
    backup.copy_wait()
    kit.wait()


@pytest.mark.sqlite_only("the copy's thread reads the night on a connection of its own")
@pytest.mark.django_db(transaction=True)
def test_the_app_itself_and_how_to_start_it_go_to_the_stick_once(settings, tmp_path, app_file):
    stick = tmp_path / "stick"
    settings.BUNCO_COPY_TO = str(stick)
    night = services.demo_night_create()
    services.round_start(night=night)
    copied(stick)
    on_stick = stick / app_file.name
    assert on_stick.read_bytes() == app_file.read_bytes()
    assert on_stick.stat().st_mode & 0o111  # it runs from there
    how_to = (stick / appfile.HOW_TO).read_text()
    assert f"chmod +x ./{app_file.name} then ./{app_file.name}" in how_to
    assert "\"Open a saved night\"" in how_to
    assert f"terminal: ./{app_file.name} restore-night <the night's file>" in how_to
    assert not list(stick.glob(".*.copying"))

    # Taps after it, and another start of Bunco with the same app: never written again.
    written = on_stick.stat().st_mtime_ns
    roll(night, 1, quick="hit1")
    copied(stick)
    kit._putter = kit._Putter()  # as a new process
    kit.put_soon(stick)
    kit.wait()
    assert on_stick.stat().st_mtime_ns == written
    (kept,) = stick.glob("*-night.json")
    assert len(backup.read_night_file(kept.read_text())["events"]) == night.events.count()

    # A newer app (a new version run from the same stick folder): put there again.
    app_file.write_bytes(app_file.read_bytes() + b"newer")
    kit._made.clear()
    kit._putter = kit._Putter()
    kit.put_soon(stick)
    kit.wait()
    assert on_stick.read_bytes() == app_file.read_bytes()


@pytest.mark.sqlite_only("the copy's thread reads the night on a connection of its own")
@pytest.mark.django_db(transaction=True)
def test_a_stick_with_no_room_for_the_app_is_said_and_play_goes_on(
        settings, tmp_path, app_file, monkeypatch):
    stick = tmp_path / "stick"
    settings.BUNCO_COPY_TO = str(stick)
    monkeypatch.setattr(kit, "RETRY_EVERY", 0.05)
    real = kit.shutil.disk_usage
    room = {"free": 1000}
    monkeypatch.setattr(kit.shutil, "disk_usage",
                        lambda path: real(path)._replace(free=room["free"]))
    night = services.demo_night_create()
    services.round_start(night=night)
    backup.copy_wait()
    for _ in range(200):
        if disk.copy_trouble() is not None:
            break
        kit._putter.thread.join(0.05)
    trouble = disk.copy_trouble()
    assert trouble is not None and "no room for Bunco itself" in trouble.what
    assert not (stick / app_file.name).exists()
    roll(night, 1, quick="hit1")  # the night's file is kept all the same, the note stays
    backup.copy_wait()
    (kept,) = stick.glob("*-night.json")
    assert len(backup.read_night_file(kept.read_text())["events"]) == night.events.count()
    assert disk.copy_trouble() is not None

    room["free"] = 10**12  # space freed: the app goes there and the note goes
    kit.wait()
    assert (stick / app_file.name).read_bytes() == app_file.read_bytes()
    assert disk.copy_trouble() is None


@pytest.mark.django_db
def test_the_host_page_offers_the_app_to_another_laptop_and_a_guest_is_refused(app_file):
    host = Client()
    host.get(f"/host/{host_secret()}/")
    page = host.get("/host/").content.decode()
    assert f'href="/host/app/" download data-testid="app-file">{app_file.name}<' in page
    got = host.get("/host/app/")
    assert got.status_code == 200
    assert got["Content-Disposition"] == f'attachment; filename="{app_file.name}"'
    assert b"".join(got.streaming_content) == app_file.read_bytes()
    guest = Client().get("/host/app/")
    assert guest.status_code == 403 and app_file.read_bytes()[:64] not in guest.content


@pytest.mark.django_db
def test_a_checkout_with_no_wheel_offers_none_and_says_where_to_get_bunco(monkeypatch):
    monkeypatch.setattr(appfile, "this_app", lambda: appfile.App("checkout", None))
    monkeypatch.setattr(kit, "_made", {})
    host = Client()
    host.get(f"/host/{host_secret()}/")
    assert 'data-testid="app-file"' not in host.get("/host/").content.decode()
    got = host.get("/host/app/")
    assert got.status_code == 404 and got["Content-Type"].startswith("text/plain")
    assert appfile.RELEASES in got.content.decode()
    assert appfile.RELEASES in (kit.kit().files[0][1]).read_text()


def test_an_installed_package_is_made_a_wheel_again_from_its_files(tmp_path):
    """The wheel made from what pip installed holds every file of it (the compiled caches
    and what the installer added aside), with a RECORD whose hashes match."""
    dist = metadata.distribution("segno")
    wheel = appfile.make_wheel(dist, tmp_path)
    assert wheel.name == f"segno-{dist.version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as made:
        names = made.namelist()
        record = made.read(next(n for n in names if n.endswith(".dist-info/RECORD")))
        for line in record.decode().splitlines():
            name, digest, size = line.rsplit(",", 2)
            if digest:
                data = made.read(name)
                expected = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
                assert digest == f"sha256={expected.decode()}" and int(size) == len(data)
    installed = {str(f) for f in dist.files if not str(f).startswith("..")
                 and "__pycache__" not in str(f) and not str(f).endswith(
                     ("INSTALLER", "REQUESTED", "direct_url.json"))}
    assert set(names) == installed
    assert names[-1].endswith(".dist-info/RECORD")


def test_the_how_to_for_wheels_gives_the_offline_command():
    text = appfile.how_to_start(appfile.App("wheel", Path("/site")), "bunco-0.1.0-py3-none-any.whl")
    assert ('pipx install ./wheels/bunco-0.1.0-py3-none-any.whl '
            '--pip-args="--no-index --find-links=./wheels"') in text
    assert f"Python {appfile.python()}" in text
