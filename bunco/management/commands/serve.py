"""python manage.py serve: run the app for the room and show how to join it.

The port is tried before anything is printed: a start that cannot listen says why in one
sentence and prints no link. A laptop on no network yet is served on localhost for the host,
and told how phones will reach it once it is. Everything printed is plain ASCII but the QR
code, which falls back to segno's ASCII-only drawing when the console cannot print its block
characters (a Windows console writing to a cp1252 file or pipe).
"""

import socket
import sys
import threading
import time

import segno
from daphne.cli import CommandLineInterface
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser

from bunco import backup, laptop, limits
from bunco.host.auth import host_secret
from bunco.lan import port_problem, public_url

QR_BLOCKS = "\u2580\u2584\u2588"  # what segno's compact terminal drawing is made of


def daphne_options() -> list[str]:
    """What the server is started with besides its address (the load test's server too): a
    socket that has said nothing for ``limits.PING_EVERY`` seconds is pinged, and closed
    ``limits.PONG_WAIT`` seconds after without an answer."""
    return ["--ping-interval", str(limits.PING_EVERY), "--ping-timeout", str(limits.PONG_WAIT)]


class Command(BaseCommand):
    help = "Serve Bunco on the local network (all interfaces) and print the join link and QR code."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--bind", default="0.0.0.0")
        parser.add_argument("--no-qr", action="store_true", help="skip the terminal QR code")
        parser.add_argument("--browser", action="store_true",
                            help="open the host page in this computer's browser once serving")
        parser.add_argument("--copy-to", metavar="FOLDER", default=None,
                            help="also keep each live night's latest file in this folder (a "
                                 "USB stick, a synced folder); default: $BUNCO_COPY_TO")

    def handle(self, *args, **options) -> None:
        port, bind = options["port"], options["bind"]
        if problem := port_problem(bind, port):
            self.stderr.write(problem)
            raise SystemExit(1)
        # Static files are served compressed and with long-lived hashed names: collect them
        # (quick, and a no-op when nothing changed) so `manage.py serve` alone is enough.
        call_command("collectstatic", interactive=False, verbosity=0)
        if options.get("copy_to"):
            settings.BUNCO_COPY_TO = options["copy_to"]
        copy_to = backup.copy_folder()
        if copy_to is not None and (problem := backup.check_copy_folder(copy_to)):
            self.stderr.write(problem)
            raise SystemExit(1)
        secret = host_secret()
        if settings.LAN_FOUND or settings.PUBLIC_URL:
            # Every link is the LAN address, even the host's: a QR code the host's page shows
            # must work from a guest's phone, whichever address the host's browser used.
            host = public_url(f"/host/{secret}/", port=port)
            guests = public_url("/", port=port)
            self.stdout.write(self.style.SUCCESS("Bunco is running."))
            self.stdout.write(f"  Host (keep this link to yourself): {host}")
            self.stdout.write(f"  Phones on the Wi-Fi: {guests}")
            if not options["no_qr"]:
                self.stdout.write("  Scan to find your seat:")
                self.print_qr(guests)
        else:
            host = f"http://localhost:{port}/host/{secret}/"
            self.stdout.write(self.style.SUCCESS(
                "Bunco is running, for this laptop only: it is not on a network yet."))
            self.stdout.write(f"  Host, on this laptop (keep this link to yourself): {host}")
            self.stdout.write(
                "  Phones: connect this laptop to the party's Wi-Fi, then stop Bunco (Ctrl+C) "
                "and start it again; it will print the address and QR code phones open.")
        if copy_to is not None:
            self.stdout.write(f"  Each night's latest file is also kept in: {copy_to}")
        self.stdout.write("Press Ctrl+C to stop.")
        self.stdout.flush()
        if options["browser"]:
            self.open_when_serving(host, bind, port)
        CommandLineInterface().run(
            ["--bind", bind, "--port", str(port), *daphne_options(), "bunco.asgi:application"]
        )

    def print_qr(self, url: str) -> None:
        out = self.stdout._out
        code = segno.make(url, error="m")
        if can_print(out, QR_BLOCKS):
            code.terminal(out=out, compact=True, border=2)
        elif sys.platform == "win32" and out is sys.stdout:  # pragma: no cover - Windows
            out.flush()
            code.terminal(border=2)  # segno colours the Windows console through its API
        else:
            code.terminal(out=out, border=2)  # ANSI colours and spaces: ASCII only

    def open_when_serving(self, url: str, bind: str, port: int) -> None:
        """Open the host page in the default browser once the server answers (not before:
        the browser would show an error page)."""
        address = {"0.0.0.0": "127.0.0.1", "": "127.0.0.1", "::": "::1"}.get(bind, bind)

        def wait_then_open():
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                try:
                    socket.create_connection((address, port), timeout=1).close()
                    break
                except OSError:
                    time.sleep(0.2)
            else:
                return
            if laptop.open_in_browser(url):
                self.stdout.write("The host page is open in your browser.")
                self.stdout.flush()

        threading.Thread(target=wait_then_open, name="open-browser", daemon=True).start()


def can_print(stream, text: str) -> bool:
    """Whether ``stream`` can write ``text`` (a Windows console writing to a file or a pipe
    uses cp1252, which has no block characters)."""
    encoding = getattr(stream, "encoding", None)
    if not encoding:
        return True  # a text buffer (StringIO) takes any character
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True
