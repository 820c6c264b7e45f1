"""The room check: which phones reached the laptop, the host's own check with her phone, the
advice when none gets through (from Windows', macOS' and Linux's own tools' outputs, faked as
they print), the terminal's word, and a struggling table's push (test_roomcheck_night.py)."""

import re
import sys
import threading
import time

import pytest
from channels.db import database_sync_to_async

from bunco.asgi import application
from bunco.host.auth import host_secret
from bunco.laptop import roomcheck
from bunco.laptop.lan import Interface
from bunco.laptop.roomcheck import advice as readings
from tests.screens import Screen
from tests.tables.test_consumers import connect, make_night

PHONE, LAPTOP = "192.168.1.57", "192.168.1.20"
WIFI = [Interface("lo", "127.0.0.1"), Interface("wlp2s0", LAPTOP)]
PYTHON = r"C:\Users\ann\AppData\Local\Programs\Python\Python312\python.exe"


@pytest.fixture(autouse=True)
def fresh_room(monkeypatch):
    """Nobody has reached this laptop yet; its own addresses are the faked Wi-Fi's."""
    monkeypatch.setattr(roomcheck.arrivals, "_own", (time.monotonic(), frozenset({LAPTOP})))
    roomcheck.reset()
    yield
    roomcheck.reset()


def text(advice):
    return " ".join(f"{a.cause} {a.fix}" for a in advice)


# -- Windows, as its tools print -----------------------------------------------------------------

PROFILES_PUBLIC = """

Name            : Hartley's Wi-Fi
InterfaceAlias  : Wi-Fi
NetworkCategory : Public

Name            : Unidentified network
InterfaceAlias  : vEthernet (WSL)
NetworkCategory : Public

"""
PROFILES_PRIVATE = PROFILES_PUBLIC.replace(": Public\n\nName", ": Private\n\nName", 1)

CURRENT_PUBLIC = """
Public Profile Settings:
----------------------------------------------------------------------
State                                 ON
Firewall Policy                       BlockInbound,AllowOutbound
LocalFirewallRules                    N/A (GPO-store only)
InboundUserNotification               Enable
Ok.

"""
CURRENT_PRIVATE_BLOCK_ALL = CURRENT_PUBLIC.replace("Public Profile", "Private Profile").replace(
    "BlockInbound,", "BlockInboundAlways,")


def rule(name, action, profiles="Public", program=PYTHON, enabled="Yes"):
    return f"""
Rule Name:                            {name}
----------------------------------------------------------------------
Enabled:                              {enabled}
Direction:                            In
Profiles:                             {profiles}
Grouping:
LocalIP:                              Any
RemoteIP:                             Any
Protocol:                             TCP
LocalPort:                            Any
RemotePort:                           Any
Edge traversal:                       No
Program:                              {program}
InterfaceTypes:                       Any
Security:                             NotRequired
Rule source:                          Local Setting
Action:                               {action}
"""


OTHER_RULE = rule("Spotify", "Allow", "Private,Public", r"C:\Program Files\Spotify\Spotify.exe")


def windows(profiles=PROFILES_PRIVATE, current=CURRENT_PUBLIC, rules=OTHER_RULE, interfaces=WIFI):
    return readings.advise("win32", {"profiles": profiles, "current": current,
                                      "rules": rules + "\nOk.\n"},
                            interfaces, LAPTOP, 8000, PYTHON)


def test_windows_a_public_wifi_is_named_and_made_private():
    advice = windows(profiles=PROFILES_PUBLIC)
    first = advice[0]
    assert first.found
    assert "\"Hartley's Wi-Fi\" as a Public network" in first.cause
    assert "Private network" in first.fix
    assert "WSL" not in first.cause  # a virtual adapter's profile is no phone's


def test_windows_a_rule_that_blocks_python_is_found():
    advice = windows(rules=OTHER_RULE + rule("python.exe", "Block", "Public")
                     + rule("python.exe", "Allow", "Private"))
    assert "a rule that blocks Python on Public networks" in text(advice)
    assert "Allow an app through firewall" in text(advice)


def test_windows_no_rule_for_python_on_a_firewalled_network():
    assert "no rule lets Python accept connections on Public networks" in text(windows())
    # a rule that allows it on this profile: nothing to say about the firewall
    allowed = windows(rules=rule("Python", "Allow", "Private,Public"))
    assert "Python" not in " ".join(a.cause for a in allowed)


def test_windows_this_pythons_own_rule_counts_before_another_pythons():
    advice = windows(rules=rule("python.exe", "Block", "Public", r"C:\Python39\python.exe")
                     + rule("python.exe", "Allow", "Public"))
    assert "Python" not in " ".join(a.cause for a in advice)


def test_windows_block_all_incoming_is_found():
    advice = windows(current=CURRENT_PRIVATE_BLOCK_ALL, rules=rule("Python", "Allow", "Private"))
    assert "blocks every incoming connection on Private networks" in text(advice)


def test_windows_readings_that_could_not_be_taken_give_the_common_causes_only():
    advice = readings.advise("win32", {"profiles": None, "current": None, "rules": None},
                              WIFI, LAPTOP, 8000, PYTHON)
    assert not any(a.found for a in advice)
    assert "guest Wi-Fi" in text(advice) and "mobile data" in text(advice)


# -- macOS ---------------------------------------------------------------------------------------

@pytest.mark.parametrize(("global_", "blockall", "app", "says"), [
    ("Firewall is enabled. (State = 1)", "Firewall has block all state set to enabled.",
     "The application is permitted", "blocks all incoming connections"),
    ("Firewall is enabled. (State = 1)\n", "Block all DISABLED! \n",
     "The application /usr/local/bin/python3 is blocked from receiving incoming connections.",
     "blocks Python"),
    ("Firewall is enabled. (State = 1)", "Firewall has block all state set to disabled.",
     "The application /usr/local/bin/python3 is permitted to receive incoming connections.",
     "asks once whether \"Python\" may accept"),
])
def test_macos_the_application_firewall_as_it_stands(global_, blockall, app, says):
    advice = readings.advise("darwin", {"global": global_, "blockall": blockall, "app": app},
                              [Interface("en0", LAPTOP)], LAPTOP, 8000, "/usr/local/bin/python3")
    assert advice[0].found and says in advice[0].cause
    assert "System Settings > Network > Firewall" in advice[0].fix


def test_macos_with_its_firewall_off_says_nothing_of_it():
    advice = readings.advise("darwin", {"global": "Firewall is disabled. (State = 0)",
                                         "blockall": "Block all DISABLED!", "app": ""},
                              [Interface("en0", LAPTOP)], LAPTOP, 8000, "python3")
    assert "firewall" not in text(advice).lower()


# -- Linux ---------------------------------------------------------------------------------------

NFT = """table inet bunco_test {
	chain input {
		type filter hook input priority filter; policy accept;
		tcp dport 8123 drop
	}
}
table ip nat {
	chain postrouting {
		type nat hook postrouting priority srcnat; policy accept;
		oifname "eth0" drop
	}
}
"""


def test_linux_an_nftables_rule_dropping_the_port_is_named():
    advice = readings.advise("linux", {"nft": NFT, "ufw": None, "firewalld": None}, WIFI,
                              LAPTOP, 8123, sys.executable)
    assert "drops connections to port 8123" in advice[0].cause
    other_port = readings.advise("linux", {"nft": NFT}, WIFI, LAPTOP, 8000, sys.executable)
    assert "drops some incoming connections" in other_port[0].cause
    assert readings.linux_nft(NFT.replace("drop\n\t}\n}\ntable", "accept\n\t}\n}\ntable", 1),
                               8123) is None  # a drop outside the incoming chain is no matter


def test_linux_ufw_on_is_found():
    advice = readings.advise("linux", {"ufw": "Status: active\n\nTo  Action  From\n"}, WIFI,
                              LAPTOP, 8000, sys.executable)
    assert "ufw" in advice[0].cause and "sudo ufw allow 8000/tcp" in advice[0].fix
    # not root: ufw will not say, its settings file does
    for status, conf, on in [("ERROR: You need to be root to run this script", "ENABLED=yes\n",
                              True),
                             (None, "# comment\nENABLED=no\n", False),
                             ("Status: inactive", "ENABLED=yes\n", False)]:
        advice = readings.advise("linux", {"ufw": status, "ufw_conf": conf}, WIFI, LAPTOP,
                                 8000, sys.executable)
        assert ("(ufw) is on" in text(advice)) is on, (status, conf)


def test_linux_the_running_firewall_is_named_without_root_in_a_hosts_words():
    """Without root neither nft nor ufw will say; systemctl says which firewall runs."""
    not_root = {"nft": "Error: Could not process rule: Operation not permitted\n",
                "ufw": "ERROR: You need to be root to run this script", "firewalld": None}

    def linux(units=None):
        return readings.advise("linux", {**not_root, "units": units}, WIFI, LAPTOP, 8000, "py")

    fedora = linux("inactive\nactive\ninactive\n")
    assert "(firewalld) is on" in fedora[0].cause and fedora[0].found
    assert fedora[0].fix.startswith("Open a Terminal and type: sudo firewall-cmd "
                                    "--add-port=8000/tcp (it asks for your password)")
    nft_only = linux("active\ninactive\nactive\n")  # the ufw service runs even when ufw is off
    assert "(nftables) is on" in nft_only[0].cause
    assert "sudo nft insert rule inet filter input tcp dport 8000 accept" in nft_only[0].fix
    assert "firewall" not in text(linux("inactive\ninactive\ninactive"))
    unknown = linux()
    assert "ufw on Ubuntu and Mint, firewalld on Fedora, nftables" in unknown[0].cause
    assert not unknown[0].found and "sudo ufw allow 8000/tcp" in unknown[0].fix
    assert readings.commands("linux", "py")["units"][:2] == ["systemctl", "is-active"]


# -- any system: the network ---------------------------------------------------------------------

def test_a_vpn_the_wrong_adapter_and_no_network():
    vpn = readings.advise("linux", {}, [*WIFI, Interface("wg0", "10.66.66.2")], LAPTOP, 8000,
                           "python")
    assert "A VPN is on (wg0)" in text(vpn)
    docker = readings.advise("linux", {}, [*WIFI, Interface("docker0", "172.17.0.1")], LAPTOP,
                              8000, "python")
    assert "VPN" not in text(docker) and "more than one network" not in text(docker)
    two = readings.advise("linux", {}, [*WIFI, Interface("enp3s0", "10.0.0.8")], LAPTOP, 8000,
                           "python")
    assert "also on 10.0.0.8" in text(two)
    gone = readings.advise("linux", {}, [Interface("lo", "127.0.0.1")], "127.0.0.1", 8000,
                            "python")
    assert "on no network" in text(gone)
    moved = readings.advise("linux", {}, WIFI, "10.1.1.1", 8000, "python")
    assert "not an address of this laptop now" in text(moved)


# -- the readings are taken where the tool exists, briefly, never raising -------------------------

def test_the_readings_never_raise_and_skip_missing_tools():
    def failing(args):
        raise RuntimeError("no")

    assert set(readings.read_system("win32", run=failing).values()) == {None}
    assert readings.run_command(["no-such-tool-anywhere", "--x"]) is None
    started = time.monotonic()
    # a tool that hangs (the input, not a wait of the test's): given up on at the timeout
    assert readings.run_command([sys.executable, "-c", "import time; time.sleep(10)"],
                                 timeout=0.3) is None
    assert time.monotonic() - started < 5
    assert "hello" in readings.run_command([sys.executable, "-c", "print('hello')"])
    seen = []
    readings.read_system("darwin", run=lambda args: seen.append(args) or "")
    assert seen[0] == [readings.SOCKETFILTERFW, "--getglobalstate"]


# -- who reached the laptop ----------------------------------------------------------------------

def test_only_other_devices_count_as_reaching_the_laptop():
    assert not roomcheck.note("127.0.0.1", "127.0.0.1")
    assert not roomcheck.note(LAPTOP, LAPTOP)  # the laptop's own browser on the LAN address
    assert not roomcheck.note(LAPTOP, "10.0.0.1")  # ... or on another of its addresses
    assert roomcheck.reached() == (0, None)
    assert roomcheck.note(PHONE, LAPTOP, now=1000.0)
    assert not roomcheck.note(PHONE, LAPTOP, now=1010.0)  # the same phone again: no push
    assert roomcheck.note("::ffff:192.168.1.58", LAPTOP, now=1020.0)
    assert roomcheck.reached() == (2, 1020.0)


def test_the_terminal_says_the_advice_once_only_when_no_phone_came(monkeypatch):
    monkeypatch.setattr(roomcheck, "read_system", lambda: {"nft": NFT})
    written, done = [], threading.Event()

    def write(line):
        written.append(line)
        done.set()

    roomcheck.watch_terminal(write, 1.0).join(5)
    assert len(written) == 1
    assert written[0].startswith("No phone has reached this laptop in 1 second. What may be")
    assert "guest Wi-Fi" in written[0] and "Fix: " in written[0]
    assert written[0].isascii()

    roomcheck.reset()
    roomcheck.note(PHONE, LAPTOP)
    quiet = []
    roomcheck.watch_terminal(quiet.append, 0.1).join(5)
    assert quiet == []


def test_the_delay_is_read_from_the_environment_when_asked(monkeypatch):
    monkeypatch.setenv("BUNCO_ROOMCHECK_AFTER", "2.5")
    assert roomcheck.after_seconds() == 2.5
    monkeypatch.setenv("BUNCO_ROOMCHECK_AFTER", "soon")
    assert roomcheck.after_seconds() == roomcheck.AFTER_SECONDS
    monkeypatch.delenv("BUNCO_ROOMCHECK_AFTER")
    assert roomcheck.after_seconds() == 180
    assert roomcheck.waited_text(180) == "3 minutes"


# -- the host's pages ----------------------------------------------------------------------------

@pytest.fixture
def host_client(client, db, settings):
    settings.LAN_ADDRESS = LAPTOP
    client.get(f"/host/{host_secret()}/")
    return client


def check_link(html):
    return re.search(r"\?u=(/check/[^\"]+)\"", html).group(1)


def test_the_host_checks_with_her_phone_and_sees_the_round_trip(host_client, client):
    page = host_client.get("/host/").content.decode()
    assert "No phone has reached this laptop yet." in page
    link = check_link(page)
    assert link.startswith("/check/")
    opened = client.get(link, REMOTE_ADDR=PHONE).content.decode()
    assert "It worked: this phone reached the laptop." in opened
    page = host_client.get("/host/").content.decode()
    assert "1 phone reached this laptop" in page and "measuring the round trip" in page
    assert client.post(link, {"rtt": "oops"}, REMOTE_ADDR=PHONE).status_code == 400
    assert client.post(link, {"rtt": "42"}, REMOTE_ADDR="192.168.1.99").status_code == 409
    assert client.post(link, {"rtt": "42", "live": "on"}, REMOTE_ADDR=PHONE).json()["ok"]
    page = host_client.get("/host/").content.decode()
    assert "Your phone reached this laptop, round trip 42 ms." in page
    assert "did not open" not in page
    # checking again: a new link; the old one is told apart
    host_client.post("/host/roomcheck/", {"action": "again"})
    page = host_client.get("/host/").content.decode()
    assert check_link(page) != link and "round trip 42 ms" not in page
    assert "an old one" in client.get(link, REMOTE_ADDR=PHONE).content.decode()


def test_the_check_opened_on_the_laptop_itself_proves_nothing(host_client):
    link = check_link(host_client.get("/host/").content.decode())
    assert "on the laptop itself" in host_client.get(link).content.decode()
    assert "Your phone reached" not in host_client.get("/host/").content.decode()


def test_no_phone_after_the_delay_shows_the_advice(host_client, monkeypatch):
    monkeypatch.setattr(roomcheck, "read_system", lambda: {"ufw": "Status: active"})
    monkeypatch.setattr(roomcheck.sys, "platform", "linux")
    page = host_client.get("/host/").content.decode()
    assert 'data-testid="roomcheck-advice"' not in page
    roomcheck.room.started -= roomcheck.after_seconds() + 1
    roomcheck.system_readings()
    page = host_client.get("/host/").content.decode()
    assert "No phone has reached this laptop in 3 minutes." in page
    assert "sudo ufw allow" in page and "guest Wi-Fi" in page
    roomcheck.note(PHONE, LAPTOP)
    assert 'data-testid="roomcheck-advice"' not in host_client.get("/host/").content.decode()


def test_my_phone_cannot_open_it_shows_the_advice_at_once(host_client):
    assert host_client.post("/host/roomcheck/", {"action": "cannot"}).status_code == 302
    page = host_client.get("/host/").content.decode()
    assert "Your phone could not reach this laptop." in page
    assert host_client.post("/host/roomcheck/", {"action": "shrug"}).status_code == 400


def test_only_the_host_presses_the_checks_buttons(client, db):
    assert client.post("/host/roomcheck/", {"action": "again"}).status_code == 403


# -- pushed to the host's pages, and the tables whose phones struggle ----------------------------

pytestmark_ws = pytest.mark.django_db(transaction=True)


async def phone_socket(path, address):
    ws = Screen(application, path, headers=[(b"origin", b"http://localhost"),
                                                          (b"host", b"localhost")])
    ws.scope["client"], ws.scope["server"] = [address, 50123], [LAPTOP, 8000]
    connected, _ = await ws.connect()
    assert connected
    return ws


async def until(ws, needle, tries=10):
    for _ in range(tries):
        message = await ws.receive_from(timeout=3)
        if needle in message:
            return message
    raise AssertionError(f"never pushed: {needle}")


@pytestmark_ws
async def test_the_dashboard_hears_at_once_when_a_phone_arrives():
    _, _, session_key = await database_sync_to_async(make_night)()
    dashboard = await connect("/ws/host/0/", cookie=session_key)
    assert "No phone has reached this laptop yet." in await dashboard.receive_from()
    phone = await phone_socket("/ws/ping/", PHONE)
    assert "1 phone reached this laptop" in await until(dashboard, "reached this laptop</b>")
    await phone.disconnect()
    await dashboard.disconnect()


@pytestmark_ws
async def test_a_struggling_tables_phones_show_on_the_hosts_page():
    night, links, session_key = await database_sync_to_async(make_night)()
    host_ws = await connect(f"/ws/host/{night.pk}/", cookie=session_key)
    assert 'id="weak-tables"' in await host_ws.receive_from()
    table = await connect(f"/ws/table/{links[2]}/")
    await table.receive_from()  # its snapshot
    for count in (0, 1, 2):  # the page loaded (its first word: from where it counts), ...
        await table.send_json_to({"type": "ping", "net": {"re": count, "rtt": 40}})
        assert await table.receive_json_from() == {"type": "pong"}
    assert await table.told_nothing()  # its pings' notes are done: anything for the host is out
    assert await host_ws.told_nothing()  # two reconnects, quick: nothing to say
    await table.send_json_to({"type": "ping", "net": {"re": 4, "rtt": 1460}})
    await table.receive_json_from()
    pushed = await until(host_ws, "weak-table")
    assert re.search(r"<b>Table 2</b>: its phones lost their connection 4 times in the last "
                     r"10 minutes, and a round trip took 1.5 s", pushed)
    # junk in the report is ignored, the socket stays open
    await table.send_json_to({"type": "ping", "net": {"re": "lots", "rtt": -5}})
    assert await table.receive_json_from() == {"type": "pong"}
    for ws in (table, host_ws):
        await ws.disconnect()


def test_behind_a_proxy_the_room_check_is_off(host_client, settings):
    """Every page comes from the proxy's address there: no room check, no false alarm."""
    settings.PUBLIC_URL = "https://bunco.example.org"
    roomcheck.room.started -= roomcheck.after_seconds() + 1
    page = host_client.get("/host/").content.decode()
    assert '<section id="roomcheck" hidden></section>' in page
    assert "No phone has reached" not in page
    said = []
    roomcheck.watch_terminal(said.append, 0).join(5)
    assert said == []


def test_once_phones_come_the_check_folds_out_of_the_nights_way(host_client):
    assert '<details class="roomcheck-check" open>' in host_client.get("/host/").content.decode()
    roomcheck.note(PHONE, LAPTOP)
    page = host_client.get("/host/").content.decode()
    assert '<details class="roomcheck-check">' in page and "1 phone reached" in page
    host_client.post("/host/roomcheck/", {"action": "again"})  # asked for: shown at once
    assert '<details class="roomcheck-check" open>' in host_client.get("/host/").content.decode()
