"""python manage.py serve: run the app for the room and show how to join it."""

import segno
from daphne.cli import CommandLineInterface
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser

from bunco.host.auth import host_secret
from bunco.lan import public_url


class Command(BaseCommand):
    help = "Serve Bunco on the local network (all interfaces) and print the join link and QR code."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--bind", default="0.0.0.0")
        parser.add_argument("--no-qr", action="store_true", help="skip the terminal QR code")

    def handle(self, *args, **options) -> None:
        port = options["port"]
        # Static files are served compressed and with long-lived hashed names: collect them
        # (quick, and a no-op when nothing changed) so `manage.py serve` alone is enough.
        call_command("collectstatic", interactive=False, verbosity=0)
        # Every link is the LAN address, even the host's: a QR code the host's page shows
        # must work from a guest's phone, whichever address the host's browser used.
        guests = public_url("/", port=port)
        self.stdout.write(self.style.SUCCESS("Bunco is running."))
        self.stdout.write(f"  Host (keep this link to yourself): "
                          f"{public_url(f'/host/{host_secret()}/', port=port)}")
        self.stdout.write(f"  Phones on the Wi-Fi: {guests}")
        if not options["no_qr"]:
            self.stdout.write("  Scan to find your seat:")
            segno.make(guests, error="m").terminal(out=self.stdout._out, compact=True, border=2)
        self.stdout.write("Press Ctrl+C to stop.")
        self.stdout.flush()
        CommandLineInterface().run(
            ["--bind", options["bind"], "--port", str(port), "bunco.asgi:application"]
        )
