"""The room check during the night: a table's phones' reports (bounded, pushed at most every
few seconds, not blamed after a laptop swap), the check folding away once play starts, and the
phones' address the host picks on a laptop on two networks."""

import io
import re
import time

import pytest

from bunco.host.auth import host_secret
from bunco.laptop import roomcheck
from bunco.laptop.lan import Interface
from bunco.night import services

LAPTOP = "192.168.1.20"


@pytest.fixture(autouse=True)
def fresh_room(monkeypatch):
    monkeypatch.setattr(roomcheck.arrivals, "_own", (time.monotonic(), frozenset({LAPTOP})))
    roomcheck.reset()
    yield
    roomcheck.reset()


@pytest.fixture
def host_client(client, db, settings):
    settings.LAN_ADDRESS = LAPTOP
    client.get(f"/host/{host_secret()}/")
    return client


def test_a_tables_figures_age_out_of_the_window():
    for device in ("/ws/table/a/", "/ws/table/b/"):  # each page's first word: where it counts from
        assert not roomcheck.net_report(1, 3, device, {"re": 0}, now=999.0)
    assert not roomcheck.net_report(1, 3, "/ws/table/a/", {"re": 2}, now=1000.0)
    assert roomcheck.net_report(1, 3, "/ws/table/b/", {"re": 1}, now=1001.0)  # 3 in all
    assert [w.table for w in roomcheck.weak_tables(1, now=1002.0)] == [3]
    assert roomcheck.weak_tables(2, now=1002.0) == []  # another night's
    assert roomcheck.weak_tables(1, now=1001.0 + roomcheck.WINDOW + 1) == []
    # a page reloaded counts from zero again: its new reconnects still count
    roomcheck.net_report(1, 4, "/ws/table/c/", {"re": 0}, now=4999.0)
    roomcheck.net_report(1, 4, "/ws/table/c/", {"re": 2}, now=5000.0)
    roomcheck.net_report(1, 4, "/ws/table/c/", {"re": 1}, now=5001.0)
    assert roomcheck.weak_tables(1, now=5002.0) == [roomcheck.WeakTable(4, 3, None)]


def test_a_night_opened_from_its_file_gives_its_phones_the_swaps_grace(db):
    from bunco.laptop import backup

    night = services.demo_night_create()
    again = services.night_restore(data=backup.night_file(night))
    device = "/ws/table/a/"
    roomcheck.net_report(again.pk, 1, device, {"re": 0})
    for n in (1, 2, 3, 4):  # the phones come back from the other laptop, all at once
        roomcheck.net_report(again.pk, 1, device, {"re": n})
    assert roomcheck.weak_tables(again.pk) == []
    roomcheck.net_report(night.pk, 1, device, {"re": 0})  # the night not opened from a file
    for n in (1, 2, 3):
        roomcheck.net_report(night.pk, 1, device, {"re": n})
    assert [w.table for w in roomcheck.weak_tables(night.pk)] == [1]


def test_a_phones_made_up_reconnects_are_bounded():
    """A guest's phone cannot say its table lost its connection 100,039 times."""
    device = "/ws/table/a/"
    roomcheck.net_report(1, 2, device, {"re": 0}, now=1000.0)
    assert not roomcheck.net_report(1, 2, device, {"re": 100_039}, now=1001.0)  # not believed
    assert not roomcheck.net_report(1, 2, device, {"re": 999}, now=1002.0)  # one report: 2 at most
    assert roomcheck.weak_tables(1, now=1003.0) == []
    for n in range(1000):  # a flood of reports: what a phone keeps is bounded
        roomcheck.net_report(1, 2, device, {"re": n % 900}, now=1004.0 + n / 1000)
    [weak] = roomcheck.weak_tables(1, now=1006.0)
    assert weak.reconnects <= roomcheck.tables.KEPT * roomcheck.tables.STEP


def test_a_nights_struggling_tables_redraw_the_host_page_at_most_every_few_seconds():
    held = []
    later = lambda night, seconds: held.append((night, round(seconds, 1)))  # noqa: E731
    for device in ("/ws/table/a/", "/ws/table/b/"):
        roomcheck.net_report(1, 2, device, {"re": 0}, now=1000.0)
    assert roomcheck.net_report(1, 2, "/ws/table/a/", {"re": 0, "rtt": 2000}, now=1001.0,
                                later=later)  # table 2 is slow: pushed at once
    for n in range(10):  # its phone flips fast/slow five times a second
        assert not roomcheck.net_report(1, 2, "/ws/table/a/", {"rtt": 40 if n % 2 == 0 else 2000},
                                        now=1001.2 + n / 5, later=later)
    assert held == [(1, 4.8)]  # one push held for the rest of the 5 seconds, not ten
    assert not roomcheck.tables.flush(1, now=1006.0)  # it ended as it was shown: nothing to push
    assert roomcheck.net_report(1, 2, "/ws/table/a/", {"rtt": 40}, now=1006.1, later=later)
    assert not roomcheck.net_report(1, 2, "/ws/table/a/", {"rtt": 2000}, now=1007.1, later=later)
    assert held == [(1, 4.8), (1, 4.0)]
    assert roomcheck.tables.flush(1, now=1011.1)  # slow again: the host's page hears it then
    assert [w.rtt_ms for w in roomcheck.weak_tables(1, now=1011.1)] == [2000]


def test_a_table_coming_back_after_a_laptop_swap_is_not_blamed():
    """The night was opened on this laptop from its file; every phone comes back at once,
    each page telling the reconnects it made on the way (to the old laptop, then this one)."""
    roomcheck.tables.night_opened(1, now=1000.0)
    for table in range(1, 9):
        for device in ("/ws/table/a/", "/ws/table/b/"):
            roomcheck.net_report(1, table, f"{device}{table}", {"re": 6}, now=1001.0)
            roomcheck.net_report(1, table, f"{device}{table}", {"re": 8}, now=1030.0)
    assert roomcheck.weak_tables(1, now=1031.0) == []
    # after the grace, a table that keeps dropping is named again
    for n in (9, 10, 11):
        roomcheck.net_report(1, 3, "/ws/table/a/3", {"re": n}, now=1200.0 + n)
    assert [w.table for w in roomcheck.weak_tables(1, now=1220.0)] == [3]


# -- a laptop on two networks: the host picks the phones' address ------------------------------

CABLE = "10.0.0.8"


@pytest.fixture
def two_networks(client, db, settings, tmp_path, monkeypatch):
    """The laptop is on the Wi-Fi and on a cable; the phones were sent to the cable's."""
    from bunco.laptop import address, lan

    settings.DATA_DIR = tmp_path  # the host's pick goes here (the host link too)
    monkeypatch.delenv("BUNCO_HOST_SECRET", raising=False)
    client.get(f"/host/{host_secret()}/")
    settings.LAN_ADDRESS = CABLE
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, LAPTOP, CABLE]
    monkeypatch.delenv("BUNCO_LAN_ADDRESS", raising=False)
    monkeypatch.setattr(lan, "read_interfaces", lambda: [
        Interface("lo", "127.0.0.1"), Interface("enp3s0", CABLE), Interface("wlp2s0", LAPTOP)])
    monkeypatch.setattr(address, "_cache", (None, ""))
    return client


def test_on_two_networks_the_host_picks_the_phones_address_and_every_link_follows(
        two_networks, client, tmp_path, monkeypatch):
    import segno

    from bunco.laptop import address

    page = two_networks.get("/host/").content.decode()
    form = re.search(r'<form[^>]*data-testid="roomcheck-address".*?</form>', page, re.S).group(0)
    assert f'<option value="{CABLE}" selected>{CABLE}, cable (enp3s0)</option>' in form
    assert f'<option value="{LAPTOP}">{LAPTOP}, Wi-Fi (wlp2s0)</option>' in form
    assert f"http://{CABLE}/check/" in page  # the check's link, as the phones are sent now
    # a wrong address is refused in words and changes nothing
    wrong = two_networks.post("/host/roomcheck/", {"action": "address", "address": "8.8.8.8"})
    assert wrong.status_code == 400 and "8.8.8.8 is not an address of this laptop" in \
        wrong.content.decode()
    assert not (tmp_path / "phones_address").exists()
    assert two_networks.post("/host/roomcheck/", {"action": "address",
                                                  "address": LAPTOP}).status_code == 302
    page = two_networks.get("/host/").content.decode()
    assert f'<option value="{LAPTOP}" selected>' in page
    assert f"http://{LAPTOP}/check/" in page and f"http://{CABLE}" not in page
    night = services.demo_night_create()
    night_page = two_networks.get(f"/host/nights/{night.pk}/").content.decode()
    assert re.search(rf'href="http://{re.escape(LAPTOP)}(:\d+)?/t', night_page)
    assert f"http://{CABLE}" not in night_page
    qr = two_networks.get("/qr.svg", {"u": "/"})
    expected = io.BytesIO()
    segno.make(f"http://{LAPTOP}/", error="m").save(
        expected, kind="svg", scale=4, border=2, dark="#1d1533", light="#ffffff", xmldecl=False)
    assert qr.content == expected.getvalue()  # the QR code is the Wi-Fi's link
    # a restart keeps the pick: it lives in the data folder
    monkeypatch.setattr(address, "_cache", (None, ""))
    assert (tmp_path / "phones_address").read_text().strip() == LAPTOP
    assert address.current() == LAPTOP


def test_only_the_host_picks_the_phones_address(two_networks, client, tmp_path):
    client.logout()
    client.cookies.clear()
    refused = client.post("/host/roomcheck/", {"action": "address", "address": LAPTOP})
    assert refused.status_code in (302, 403)
    assert not (tmp_path / "phones_address").exists()


def test_an_address_named_by_bunco_lan_address_is_not_offered(two_networks, monkeypatch):
    monkeypatch.setenv("BUNCO_LAN_ADDRESS", CABLE)
    assert 'data-testid="roomcheck-address"' not in two_networks.get("/host/").content.decode()


def test_the_room_check_folds_away_once_the_night_plays(host_client):
    night = services.demo_night_create()
    fold = re.compile(r'<details class="roomcheck-fold"[^>]*>')
    ready = host_client.get(f"/host/nights/{night.pk}/").content.decode()
    assert fold.search(ready).group(0).endswith(" open>")  # seated, not started: still open
    services.round_start(night=night)
    playing = host_client.get(f"/host/nights/{night.pk}/").content.decode()
    assert not fold.search(playing).group(0).endswith(" open>")
    # the struggling tables stay out of the fold, where the host sees them
    assert playing.index('id="weak-tables"') > playing.index("</details>",
                                                              fold.search(playing).end())
