"""The start command prints the host link (with its secret), the LAN address and a QR code."""

from io import StringIO
from unittest import mock

from django.core.management import call_command

from bunco.host.auth import host_secret


def test_serve_prints_the_host_link_and_the_join_address_then_runs_daphne():
    out = StringIO()
    with mock.patch("bunco.management.commands.serve.CommandLineInterface") as cli:
        call_command("serve", "--port", "8123", stdout=out)
    text = out.getvalue()
    assert f"http://localhost:8123/host/{host_secret()}/" in text
    assert "Phones on the Wi-Fi: http://" in text and ":8123/" in text
    assert "█" in text  # the QR code
    args = cli.return_value.run.call_args.args[0]
    assert args[:4] == ["--bind", "0.0.0.0", "--port", "8123"]
