"""This machine's addresses on the local network, for the join link and ALLOWED_HOSTS, and
whether the port the app is to listen on can be had.

Nothing is sent on the network. The addresses are read from the interfaces on Windows, macOS
and Linux alike (``ifaddr``: ``getifaddrs`` on macOS and Linux, ``GetAdaptersAddresses`` on
Windows) and ranked: Wi-Fi first (the guests' phones are on it), then wired, then any other;
VPN, container and virtual-machine adapters (docker0, br-*, veth*, vboxnet*, vmnet*, utun*,
tun*, tap*, wg*, "vEthernet (WSL)", Hyper-V, ZeroTier, Tailscale and its 100.64/10) last, and
never the address phones are sent to: no phone is there. When the interfaces give nothing
else, the address a UDP socket would send from (its ``connect`` sends nothing) and what the
resolver says of this host are used.
"""

from __future__ import annotations

import errno
import ipaddress
import re
import socket
import sys
from dataclasses import dataclass

WIFI, WIRED, OTHER, VIRTUAL = range(4)

# Interface names (Linux, macOS, BSD) of adapters no phone is on.
_VIRTUAL_NAME = re.compile(
    r"^(docker|br-|veth|virbr|vboxnet|vmnet|vmenet|utun|tun|tap|wg|zt|tailscale|lxcbr|lxdbr"
    r"|cni|flannel|cali|weave|podman|awdl|llw|bridge|anpi|gif|stf|ppp|ipsec|nordlynx|vnic)",
    re.IGNORECASE)
# Words in an adapter's or a connection's name (Windows names them in words).
_VIRTUAL_WORDS = re.compile(
    r"vethernet|hyper-v|virtual|vmware|virtualbox|zerotier|tailscale|wireguard|wintun"
    r"|tap-windows|openvpn|\bvpn\b|anyconnect|globalprotect|fortinet|npcap|loopback|docker"
    r"|\bwsl\b|bluetooth|tunnel",
    re.IGNORECASE)
_WIFI_NAME = re.compile(r"^wl", re.IGNORECASE)  # wlan0, wlp2s0, wlo1
_WIFI_WORDS = re.compile(r"wi-?fi|wireless|\bwlan\b|802\.11", re.IGNORECASE)
_WIRED_NAME = re.compile(r"^(en|eth|em\d)", re.IGNORECASE)  # eth0, enp3s0, eno1; macOS en0
_WIRED_WORDS = re.compile(r"ethernet|gbe\b|gigabit", re.IGNORECASE)
# Carrier-grade NAT space: Tailscale gives every device an address here.
_SHARED = ipaddress.ip_network("100.64.0.0/10")


@dataclass(frozen=True)
class Interface:
    """One IPv4 address of one network adapter."""

    name: str  # eth0, wlp2s0, en0, utun3; on Windows an id like {4D36E972-...}
    address: str
    # What else the system calls it: on Windows the connection ("Wi-Fi", "vEthernet (WSL)")
    # and the device ("Intel(R) Wi-Fi 6 AX201 160MHz", "Hyper-V Virtual Ethernet Adapter").
    labels: tuple[str, ...] = ()


def usable(address: str) -> bool:
    """A private IPv4 address another device could reach (not loopback, not link-local)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return (ip.version == 4 and (ip.is_private or ip in _SHARED)
            and not ip.is_loopback and not ip.is_link_local and not ip.is_unspecified)


def kind(interface: Interface) -> int:
    """``WIFI``, ``WIRED``, ``OTHER`` or ``VIRTUAL`` (a VPN, container or virtual machine)."""
    words = " ".join((interface.name, *interface.labels))
    if (_VIRTUAL_NAME.match(interface.name) or _VIRTUAL_WORDS.search(words)
            or (usable(interface.address) and ipaddress.ip_address(interface.address) in _SHARED)):
        return VIRTUAL
    if _WIFI_NAME.match(interface.name) or _WIFI_WORDS.search(words):
        return WIFI
    if _WIRED_NAME.match(interface.name) or _WIRED_WORDS.search(words):
        return WIRED
    return OTHER


def ranked(interfaces: list[Interface]) -> list[Interface]:
    """The usable ones, best first (the system's order kept within a kind), each address
    once."""
    seen: set[str] = set()
    out = []
    for interface in sorted(interfaces, key=kind):
        if usable(interface.address) and interface.address not in seen:
            seen.add(interface.address)
            out.append(interface)
    return out


def local_addresses(interfaces: list[Interface] | None = None) -> list[str]:
    """Every address this machine may be reached by, best first (ALLOWED_HOSTS)."""
    found = read_interfaces() if interfaces is None else interfaces
    return [i.address for i in ranked(found)]


def lan_addresses(interfaces: list[Interface] | None = None) -> list[str]:
    """The addresses phones on the Wi-Fi may be sent to, best first: no virtual adapter's."""
    found = read_interfaces() if interfaces is None else interfaces
    return [i.address for i in ranked(found) if kind(i) != VIRTUAL]


def best_address() -> str:
    addresses = lan_addresses()
    return addresses[0] if addresses else "127.0.0.1"


def read_interfaces() -> list[Interface]:
    found = _from_ifaddr()
    if not lan_addresses(found):
        listed = {i.address for i in found}
        found += [Interface("", address, ("default route",)) for address in _from_route()
                  if address not in listed]
        listed = {i.address for i in found}
        found += [Interface("", address, ("host name",)) for address in _from_resolver()
                  if address not in listed]
    return found


def _from_ifaddr() -> list[Interface]:
    try:
        import ifaddr

        adapters = ifaddr.get_adapters()
    except Exception:  # an interface the library cannot read: the fallbacks answer
        return []
    found = []
    for adapter in adapters:
        for ip in adapter.ips:
            if ip.is_IPv4:
                labels = tuple(dict.fromkeys(
                    label for label in (ip.nice_name, adapter.nice_name)
                    if label and label != adapter.name))
                found.append(Interface(adapter.name, ip.ip, labels))
    return found


def _from_route() -> list[str]:
    """The address this machine would send from to a private address: a UDP socket's
    ``connect`` picks the route and sends nothing."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.255.255.255", 1))
            address = probe.getsockname()[0]
    except OSError:
        return []
    return [address] if usable(address) else []


def _from_resolver() -> list[str]:
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return []
    return [a for a in dict.fromkeys(info[4][0] for info in infos) if usable(a)]


# -- the port ------------------------------------------------------------------------------------

def port_problem(bind: str, port: int) -> str | None:
    """Why this app could not listen on ``bind``:``port``, in one sentence, or None.

    Asked before anything is printed: a second start on a busy port must not print links
    that lead to the first. The test binds the port as the server will (Twisted sets
    SO_REUSEADDR on macOS and Linux, not on Windows, where it would let two programs share a
    port) and, for every interface or loopback, asks whether something already answers there
    (macOS lets a wildcard bind share a port another program holds on one address)."""
    if not 0 < port < 65536:
        return f"Bunco cannot start: {port} is not a port number (choose one from 1024 to 65535)."
    try:
        family = socket.AF_INET6 if ":" in bind else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            if sys.platform != "win32":
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((bind, port))
    except OSError as exc:
        return _bind_problem(exc, bind, port)
    if _answers(bind, port):
        return _busy(port)
    return None


def _answers(bind: str, port: int) -> bool:
    local = {"0.0.0.0": "127.0.0.1", "": "127.0.0.1", "::": "::1"}.get(bind, bind)
    try:
        if not ipaddress.ip_address(local).is_loopback:
            return False  # asking only this machine's loopback
    except ValueError:
        return False
    family = socket.AF_INET6 if ":" in local else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.settimeout(0.5)
        return probe.connect_ex((local, port)) == 0


def _busy(port: int) -> str:
    return (f"Bunco cannot start: port {port} is already in use on this computer (is Bunco "
            f"already running in another window?); stop that, or choose another port with "
            f"--port {port + 1 if port < 65535 else 8000}.")


def _bind_problem(exc: OSError, bind: str, port: int) -> str:
    code = exc.errno
    if code in (errno.EADDRINUSE, getattr(errno, "WSAEADDRINUSE", -1)):
        return _busy(port)
    if code in (errno.EACCES, errno.EPERM, getattr(errno, "WSAEACCES", -1)):
        if port < 1024 and sys.platform != "win32":
            return (f"Bunco cannot start: on this computer only an administrator may use port "
                    f"{port} (ports below 1024); choose another port with --port 8000.")
        return (f"Bunco cannot start: this computer does not let it use port {port} (another "
                f"program or the system keeps it); choose another port with --port 8000.")
    if code in (errno.EADDRNOTAVAIL, getattr(errno, "WSAEADDRNOTAVAIL", -1)) \
            or isinstance(exc, socket.gaierror):
        return (f"Bunco cannot start: {bind} is not an address of this computer; leave out "
                f"--bind to listen on every network.")
    reason = exc.strerror or str(exc)
    return f"Bunco cannot start: port {port} on {bind} cannot be opened ({reason})."


def read_text(path) -> str:
    """A small file's text, or "" when it cannot be read."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read(200)
    except OSError:
        return ""


def public_origin(port: int | str | None = None, request=None) -> str:
    """Where phones reach this app: ``BUNCO_PUBLIC_URL`` when set (a server behind a proxy),
    otherwise this laptop's LAN address (the host's pick: ``address``) and the port the app
    listens on. Never the address the host's own browser happened to use (``localhost``
    reaches nobody else's phone)."""
    from django.conf import settings

    from bunco.laptop import address

    if settings.PUBLIC_URL:
        return settings.PUBLIC_URL.rstrip("/")
    if port is None and request is not None:
        port = request.get_port()
    port = str(port or 80)
    return f"http://{address.current()}" + ("" if port == "80" else f":{port}")


def public_url(path: str, *, port: int | str | None = None, request=None) -> str:
    """An absolute link into this app as a phone on the Wi-Fi reaches it."""
    return public_origin(port, request) + path
