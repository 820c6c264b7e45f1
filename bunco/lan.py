"""This machine's addresses on the local network, for the join link and ALLOWED_HOSTS."""

import ipaddress
import socket


def local_addresses() -> list[str]:
    """IPv4 addresses of this machine's own interfaces (as the resolver knows them),
    private ranges only, without sending anything on the network."""
    found: list[str] = []
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return found
    for info in infos:
        address = info[4][0]
        ip = ipaddress.ip_address(address)
        if ip.is_private and not ip.is_loopback and address not in found:
            found.append(address)
    return found


def best_address() -> str:
    addresses = local_addresses()
    return addresses[0] if addresses else "127.0.0.1"
