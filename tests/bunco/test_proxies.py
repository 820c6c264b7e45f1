"""Who a request comes from: a forwarded address is believed from a trusted proxy only
(``BUNCO_TRUSTED_PROXIES``), so a script cannot pass for a new guest at each guess by
sending a new ``X-Forwarded-For``."""

from pathlib import Path

import pytest
from asgiref.testing import ApplicationCommunicator

from bunco import asgi
from bunco.proxies import client_address, forwarded

LAN_PHONE, PROXY = "192.168.1.50", "127.0.0.1"


@pytest.mark.parametrize("peer, header, address", [
    (LAN_PHONE, "203.0.113.9", LAN_PHONE),  # a phone's own header: ignored
    (LAN_PHONE, None, LAN_PHONE),
    (PROXY, None, PROXY),  # the host's own browser on the laptop
    (PROXY, "203.0.113.9", "203.0.113.9"),  # the bundled nginx's word
    ("::1", "2001:db8::7", "2001:db8::7"),
    (PROXY, "6.6.6.6, 203.0.113.9", "203.0.113.9"),  # a client's forgery, the proxy's last
    (PROXY, "203.0.113.9, 127.0.0.1", "203.0.113.9"),  # a second proxy hop on this machine
    (PROXY, "not an address", PROXY),
    (PROXY, "", PROXY),
])
def test_the_client_is_the_peer_unless_a_trusted_proxy_says_otherwise(peer, header, address):
    assert client_address(peer, header) == address


def test_with_no_trusted_proxy_every_header_is_ignored(settings):
    settings.BUNCO_TRUSTED_PROXIES = []
    assert client_address(PROXY, "203.0.113.9") == PROXY


def test_a_proxy_on_another_machine_is_trusted_when_listed(settings):
    settings.BUNCO_TRUSTED_PROXIES = ["10.0.0.0/8"]
    assert client_address("10.1.2.3", "203.0.113.9") == "203.0.113.9"
    assert client_address(PROXY, "203.0.113.9") == PROXY


def test_a_trusted_proxy_tells_the_scheme_a_websocket_page_was_served_over():
    scope = {"type": "websocket", "scheme": "ws", "client": (PROXY, 5000), "headers": [
        (b"x-forwarded-for", b"203.0.113.9"), (b"x-forwarded-proto", b"https")]}
    assert forwarded(scope)["client"][0] == "203.0.113.9"
    assert forwarded(scope)["scheme"] == "wss"
    scope["client"] = (LAN_PHONE, 5000)
    assert forwarded(scope) is scope


async def guess(peer: str, forged: str) -> int:
    scope = {"type": "http", "method": "GET", "path": "/tv/", "raw_path": b"/tv/",
             "query_string": b"code=0000", "http_version": "1.1", "scheme": "http",
             "headers": [(b"host", b"127.0.0.1"), (b"x-forwarded-for", forged.encode())],
             "server": ("127.0.0.1", 80), "client": (peer, 5000)}
    talk = ApplicationCommunicator(asgi.application, scope)
    await talk.send_input({"type": "http.request", "body": b"", "more_body": False})
    start = await talk.receive_output(10)
    await talk.receive_output(10)
    await talk.wait(10)
    return start["status"]


@pytest.mark.django_db(transaction=True)
async def test_tv_code_guesses_with_a_forged_changing_header_are_limited_as_one_client():
    statuses = [await guess(LAN_PHONE, f"10.9.{i}.{i}") for i in range(30)]
    assert statuses[:10] == [404] * 10  # ten tries at once (a TV's person mistyping)...
    assert statuses.count(429) >= 10  # ...then one every 2 s, whatever the header says
    # Through the trusted proxy, each address it names is a guest of its own.
    assert [await guess(PROXY, f"203.0.113.{i}") for i in range(12)] == [404] * 12


def test_the_proxies_set_the_clients_address_themselves():
    """nginx (the server's and make scale's) overwrites X-Forwarded-For with the address it
    saw; passing the client's own on ($proxy_add_x_forwarded_for) let forged ones through."""
    deploy = Path(__file__).resolve().parents[2] / "deploy"
    for conf in ("nginx.conf", "proxy.py"):
        text = (deploy / conf).read_text()
        assert "proxy_set_header X-Forwarded-For $remote_addr;" in text
        assert "$proxy_add_x_forwarded_for" not in text
    assert "--proxy-headers" not in (deploy / "systemd" / "bunco@.service").read_text()
