"""The join link uses the laptop's Wi-Fi address, read from its interfaces on Windows, macOS and
Linux; VPN, container and virtual-machine adapters are never where phones are sent. And the
port is tried before anything is printed."""

import errno
import socket

import pytest

from bunco.laptop import lan
from bunco.laptop.lan import Interface, kind, lan_addresses, local_addresses, port_problem

# As ifaddr reads them on each platform (Windows: an id, then the connection's name and the
# device's).
LINUX = [
    Interface("lo", "127.0.0.1"),
    Interface("docker0", "172.17.0.1"),
    Interface("br-5f2c9a", "172.18.0.1"),
    Interface("veth1a2b", "172.18.0.5"),
    Interface("virbr0", "192.168.122.1"),
    Interface("vboxnet0", "192.168.56.1"),
    Interface("vmnet8", "172.16.75.1"),
    Interface("tun0", "10.8.0.6"),
    Interface("tap0", "10.9.0.2"),
    Interface("wg0", "10.66.66.2"),
    Interface("tailscale0", "100.101.102.103"),
    Interface("ztks5abcde", "10.147.17.4"),
    Interface("enp3s0", "192.168.1.40"),
    Interface("wlp2s0", "192.168.1.23"),
    Interface("link", "169.254.3.4"),
    Interface("wan0", "8.8.4.4"),
]
MACOS = [
    Interface("lo0", "127.0.0.1"),
    Interface("utun3", "10.20.0.7"),
    Interface("bridge100", "192.168.64.1"),
    Interface("awdl0", "169.254.10.1"),
    Interface("en0", "192.168.0.12"),
]
WINDOWS = [
    Interface("{8F3B...}", "172.24.32.1", ("vEthernet (WSL)", "Hyper-V Virtual Ethernet Adapter")),
    Interface("{1C2D...}", "192.168.56.1",
              ("Ethernet 2", "VirtualBox Host-Only Ethernet Adapter")),
    Interface("{77A0...}", "192.168.233.1",
              ("VMware Network Adapter VMnet8", "VMware Virtual Ethernet Adapter for VMnet8")),
    Interface("{5E6F...}", "10.147.20.9", ("ZeroTier One [8056c2e21c000001]",
                                            "ZeroTier Virtual Port")),
    Interface("{3A4B...}", "100.88.1.2", ("Tailscale", "Tailscale Tunnel")),
    Interface("{9D8E...}", "10.2.0.2", ("OpenVPN", "TAP-Windows Adapter V9")),
    Interface("{2B3C...}", "10.14.0.3", ("WireGuard", "WireGuard Tunnel")),
    Interface("{C0FF...}", "192.168.137.1",
              ("Local Area Connection* 10", "Microsoft Wi-Fi Direct Virtual Adapter #2")),
    Interface("{AA11...}", "10.0.0.31", ("Ethernet", "Realtek PCIe GbE Family Controller")),
    Interface("{BB22...}", "10.0.0.32", ("Wi-Fi", "Intel(R) Wi-Fi 6 AX201 160MHz")),
]


def test_linux_the_wifi_first_then_wired_and_no_virtual_adapter_for_phones():
    assert lan_addresses(LINUX) == ["192.168.1.23", "192.168.1.40"]


def test_macos_en0_before_any_vpn_or_sharing_bridge():
    assert lan_addresses(MACOS) == ["192.168.0.12"]


def test_windows_wifi_by_its_connection_name_never_wsl_hyperv_or_a_vpn():
    assert lan_addresses(WINDOWS) == ["10.0.0.32", "10.0.0.31"]


@pytest.mark.parametrize("interface", [
    *[i for i in LINUX if i.name not in ("lo", "enp3s0", "wlp2s0", "link", "wan0")],
    *[i for i in MACOS if i.name in ("utun3", "bridge100", "awdl0")],
    *WINDOWS[:8],
], ids=lambda i: i.labels[0] if i.labels else i.name)
def test_vpn_container_and_virtual_machine_adapters_are_virtual(interface):
    assert kind(interface) == lan.VIRTUAL


def test_tailscale_100_64_is_virtual_whatever_the_adapter_is_called():
    assert kind(Interface("utun4", "100.100.1.1")) == lan.VIRTUAL
    assert kind(Interface("eth1", "100.127.255.1")) == lan.VIRTUAL
    assert lan_addresses([Interface("eth1", "100.64.0.9")]) == []


def test_every_reachable_address_is_allowed_the_phones_choice_first():
    """ALLOWED_HOSTS takes every private address (a VPN's too): a phone that comes by
    another way is not refused. Loopback, link-local and public addresses are left out."""
    allowed = local_addresses(LINUX)
    assert allowed[:2] == ["192.168.1.23", "192.168.1.40"]
    assert {"172.17.0.1", "10.8.0.6", "100.101.102.103"} <= set(allowed)
    assert not {"127.0.0.1", "169.254.3.4", "8.8.4.4"} & set(allowed)


def test_an_unknown_adapter_comes_after_wifi_and_wired_but_before_virtual_ones():
    found = [Interface("docker0", "172.17.0.1"), Interface("usb0", "192.168.42.7"),
             Interface("eth0", "192.168.1.5"), Interface("wlan0", "192.168.1.6")]
    assert lan_addresses(found) == ["192.168.1.6", "192.168.1.5", "192.168.42.7"]
    assert local_addresses(found)[-1] == "172.17.0.1"


def test_one_address_on_two_adapters_is_listed_once():
    found = [Interface("wlan0", "192.168.1.6"), Interface("wlan0:1", "192.168.1.6")]
    assert local_addresses(found) == ["192.168.1.6"]


def test_only_virtual_adapters_means_no_lan_for_phones():
    """Not on the Wi-Fi yet, Docker running: there is no address to send phones to."""
    assert lan_addresses([Interface("docker0", "172.17.0.1"), Interface("lo", "127.0.0.1")]) == []


def test_without_interfaces_the_route_and_the_resolver_answer(monkeypatch):
    monkeypatch.setattr(lan, "_from_ifaddr", lambda: [])
    monkeypatch.setattr(lan, "_from_route", lambda: ["192.168.1.50"])
    monkeypatch.setattr(lan, "_from_resolver", lambda: ["192.168.1.50", "10.0.0.2"])
    assert lan_addresses(lan.read_interfaces()) == ["192.168.1.50", "10.0.0.2"]


def test_a_fallback_address_that_is_a_vpns_stays_the_vpns(monkeypatch):
    """Only a VPN is up and the default route goes through it: still no LAN."""
    monkeypatch.setattr(lan, "_from_ifaddr", lambda: [Interface("utun3", "10.20.0.7")])
    monkeypatch.setattr(lan, "_from_route", lambda: ["10.20.0.7"])
    monkeypatch.setattr(lan, "_from_resolver", lambda: [])
    assert lan_addresses(lan.read_interfaces()) == []


def test_the_fallbacks_are_not_asked_when_the_interfaces_answer(monkeypatch):
    monkeypatch.setattr(lan, "_from_ifaddr", lambda: [Interface("wlan0", "192.168.1.6")])
    monkeypatch.setattr(lan, "_from_route", lambda: pytest.fail("asked the route"))
    assert lan.best_address() == "192.168.1.6"


def test_this_machines_interfaces_can_be_read():
    """ifaddr itself, on the machine the tests run on (loopback at least)."""
    names = {i.address for i in lan._from_ifaddr()}
    assert "127.0.0.1" in names


# -- the port ------------------------------------------------------------------------------------

def test_a_free_port_has_no_problem():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    assert port_problem("127.0.0.1", port) is None


@pytest.mark.parametrize("bind", ["127.0.0.1", "0.0.0.0"])
def test_a_busy_port_is_one_sentence_without_a_link(bind):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        problem = port_problem(bind, port)
    assert problem.startswith(f"Bunco cannot start: port {port} is already in use")
    assert "http" not in problem and problem.count(". ") == 0 and problem.endswith(".")


class RefusingSocket:
    """A socket whose bind fails as the system would."""

    def __init__(self, error):
        self.error = error

    def __call__(self, *args, **kwargs):
        return self

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def setsockopt(self, *args):
        pass

    def bind(self, address):
        raise self.error


@pytest.mark.parametrize("error, port, says", [
    (PermissionError(errno.EACCES, "Permission denied"), 80,
     "only an administrator may use port 80 (ports below 1024); choose another port with "
     "--port 8000."),
    (OSError(errno.EADDRINUSE, "Address already in use"), 8000,
     "port 8000 is already in use"),
    (OSError(errno.EADDRNOTAVAIL, "Cannot assign requested address"), 8000,
     "10.9.9.9 is not an address of this computer"),
    (OSError(10048, "Only one usage of each socket address"), 8000,
     "port 8000 is already in use"),  # Windows' WSAEADDRINUSE
    (OSError(10013, "An attempt was made to access a socket in a way forbidden"), 8000,
     "does not let it use port 8000"),  # Windows' WSAEACCES: a port the system reserved
])
def test_a_port_that_cannot_be_had_says_why(monkeypatch, error, port, says):
    if error.errno in (10048, 10013):
        monkeypatch.setattr(errno, "WSAEADDRINUSE", 10048, raising=False)
        monkeypatch.setattr(errno, "WSAEACCES", 10013, raising=False)
        monkeypatch.setattr(lan.sys, "platform", "win32")
    monkeypatch.setattr(lan.socket, "socket", RefusingSocket(error))
    problem = port_problem("10.9.9.9", port)
    assert problem.startswith("Bunco cannot start: ") and says in problem
    assert "http" not in problem and problem.isascii()  # any console prints it


def test_a_port_number_out_of_range_is_refused():
    assert "is not a port number" in port_problem("0.0.0.0", 70000)
