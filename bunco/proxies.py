"""Who a request comes from, behind a proxy the deployment trusts and only then.

A client may send any ``X-Forwarded-For`` it likes: read from anyone, it would let a script
guessing TV codes look like a new guest at every guess. The header is read only when the
connection itself comes from a proxy listed in ``BUNCO_TRUSTED_PROXIES`` (default: this
machine, where the bundled nginx runs; a laptop's phones connect from the Wi-Fi and are never
in it). The address taken is the last one in the header that is not itself a trusted proxy:
the one the proxy saw (``deploy/nginx.conf`` sets the header to ``$remote_addr``, overwriting
whatever the client sent). ``X-Forwarded-Proto`` from the same proxy says whether the page was
https (a websocket's origin check compares it).
"""

from __future__ import annotations

import functools
import ipaddress

from django.conf import settings


def trusted(address: str) -> bool:
    """Whether ``address`` is one of the proxies the deployment trusts."""
    return _trusted(address, tuple(settings.BUNCO_TRUSTED_PROXIES))


@functools.lru_cache(maxsize=4096)
def _trusted(address: str, listed: tuple[str, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in ipaddress.ip_network(n, strict=False) for n in listed)


def client_address(peer: str, forwarded: str | None) -> str:
    """The client's address: ``peer`` (the connection's own), unless ``peer`` is a trusted
    proxy that said whom it forwarded (``forwarded``, an ``X-Forwarded-For`` value)."""
    if not forwarded or not trusted(peer):
        return peer
    chain = []
    for part in forwarded.split(",")[-20:]:
        try:
            chain.append(str(ipaddress.ip_address(part.strip())))
        except ValueError:
            return peer  # a header the proxy did not write: nobody's address
    for address in reversed(chain):
        if not trusted(address):
            return address
    return chain[0] if chain else peer


def _header(scope, name: bytes) -> str | None:
    found = None
    for key, value in scope.get("headers") or ():
        if key.lower() == name:
            found = value.decode("latin-1")  # the last one: the proxy's own
    return found


def forwarded(scope: dict) -> dict:
    """The scope as the client made it: its address (``scope["client"]``) and, for a page
    served over https by the proxy, its scheme; the scope itself when no trusted proxy
    forwarded it."""
    client = scope.get("client")
    if not client or not trusted(str(client[0])):
        return scope
    address = client_address(str(client[0]), _header(scope, b"x-forwarded-for"))
    proto = (_header(scope, b"x-forwarded-proto") or "").strip().lower()
    scheme = scope.get("scheme")
    if proto == "https":
        scheme = "wss" if scope["type"] == "websocket" else "https"
    if address == client[0] and scheme == scope.get("scheme"):
        return scope
    return {**scope, "client": (address, client[1] if address == client[0] else 0),
            "scheme": scheme}
