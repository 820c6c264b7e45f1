"""This machine's addresses on the local network, for the join link and ALLOWED_HOSTS.

Nothing is sent on the network: the addresses are read from the interfaces (``ip addr``),
falling back to what the resolver says of this host. Debian maps the host name to 127.0.1.1,
so the resolver alone would miss the Wi-Fi address.
"""

import ipaddress
import re
import shutil
import socket
import subprocess

_INET = re.compile(r"\binet (\d+\.\d+\.\d+\.\d+)/")


def parse_ip_addr(output: str) -> list[str]:
    """Private IPv4 addresses in the output of ``ip -4 -o addr show``."""
    found: list[str] = []
    for address in _INET.findall(output):
        if _usable(address) and address not in found:
            found.append(address)
    return found


def _usable(address: str) -> bool:
    ip = ipaddress.ip_address(address)
    return ip.is_private and not ip.is_loopback and not ip.is_link_local


def _from_interfaces() -> list[str]:
    ip = shutil.which("ip")
    if not ip:
        return []
    try:
        result = subprocess.run(
            [ip, "-4", "-o", "addr", "show", "scope", "global"],
            capture_output=True, text=True, timeout=2, check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return []
    return parse_ip_addr(result.stdout)


def _from_resolver() -> list[str]:
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return []
    return [a for a in dict.fromkeys(info[4][0] for info in infos) if _usable(a)]


def local_addresses() -> list[str]:
    return list(dict.fromkeys(_from_interfaces() + _from_resolver()))


def best_address() -> str:
    addresses = local_addresses()
    return addresses[0] if addresses else "127.0.0.1"


def public_origin(port: int | str | None = None, request=None) -> str:
    """Where phones reach this app: ``BUNCO_PUBLIC_URL`` when set (a server behind a proxy),
    otherwise this laptop's LAN address and the port the app listens on. Never the address
    the host's own browser happened to use (``localhost`` reaches nobody else's phone)."""
    from django.conf import settings

    if settings.PUBLIC_URL:
        return settings.PUBLIC_URL.rstrip("/")
    if port is None and request is not None:
        port = request.get_port()
    port = str(port or 80)
    return f"http://{settings.LAN_ADDRESS}" + ("" if port == "80" else f":{port}")


def public_url(path: str, *, port: int | str | None = None, request=None) -> str:
    """An absolute link into this app as a phone on the Wi-Fi reaches it."""
    return public_origin(port, request) + path
