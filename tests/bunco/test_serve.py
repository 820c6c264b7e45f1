"""The start command prints the host link (with its secret), the LAN address and a QR code."""

from io import StringIO
from unittest import mock

import segno
from django.core.management import call_command
from django.test import override_settings

from bunco.host.auth import host_secret


@override_settings(LAN_ADDRESS="192.168.1.23", PUBLIC_URL="")
def test_serve_prints_the_host_link_and_the_join_address_then_runs_daphne():
    """Both links are on the LAN address (a host who opens theirs shows QR codes that work
    from a guest's phone); the QR code is the guests' address, which leads to tonight's
    "find your seat"."""
    out = StringIO()
    with (mock.patch("bunco.management.commands.serve.CommandLineInterface") as cli,
          mock.patch("bunco.management.commands.serve.call_command") as collect):
        call_command("serve", "--port", "8123", stdout=out)
    text = out.getvalue()
    assert f"Host (keep this link to yourself): http://192.168.1.23:8123/host/{host_secret()}/" \
        in text
    assert "localhost" not in text
    assert "Phones on the Wi-Fi: http://192.168.1.23:8123/\n" in text
    qr = StringIO()
    segno.make("http://192.168.1.23:8123/", error="m").terminal(out=qr, compact=True, border=2)
    assert qr.getvalue() in text  # the QR code of the guests' address
    assert collect.call_args.args == ("collectstatic",)
    args = cli.return_value.run.call_args.args[0]
    assert args[:4] == ["--bind", "0.0.0.0", "--port", "8123"]
