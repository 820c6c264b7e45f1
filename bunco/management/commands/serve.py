"""python manage.py serve: run the app for the room and show how to join it.

The port is tried before anything is printed: a start that cannot listen says why in one
sentence and prints no link. A laptop on no network yet is served on localhost for the host,
and told how phones will reach it once it is. Everything printed is plain ASCII but the QR
code, which falls back to an ASCII-only drawing (coloured spaces) when the console cannot print
its block characters (a Windows console writing to a cp1252 file or pipe).

The QR code sets both of its colours, black modules on a white ground with a white quiet zone
around them, whatever the terminal's own colours: drawn in the terminal's colours it reads on a
dark terminal only, and a light one (macOS Terminal's default) shows it inverted, which phone
cameras do not scan. When the server stops, the database's write-ahead log is folded into its
file, so the night's file is whole on its own (copied, or opened by another laptop).
"""

import contextlib
import socket
import sys
import threading
import time

import segno
from daphne.cli import CommandLineInterface
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser

from bunco import laptop, limits
from bunco.host.auth import host_secret
from bunco.laptop import backup, kit, roomcheck
from bunco.laptop.lan import port_problem, public_url
from bunco.laptop.options import serve_options
from bunco.version import version

QR_BLOCKS = "\u2580\u2584\u2588"  # what the compact drawing is made of (upper, lower, full)
#: Modules of white around the code: the 4 the QR standard asks for (a dark terminal's
#: background is no quiet zone).
QUIET_ZONE = 4
#: ANSI colours: the compact drawing's ink (black) on its paper (bright white), and the ASCII
#: drawing's two backgrounds.
INK_ON_PAPER, DARK_GROUND, LIGHT_GROUND = "\x1b[30;107m", "\x1b[40m", "\x1b[107m"
RESET = "\x1b[0m"


def daphne_options() -> list[str]:
    """What the server is started with besides its address (the load test's server too): a
    socket that has said nothing for ``limits.PING_EVERY`` seconds is pinged, and closed
    ``limits.PONG_WAIT`` seconds after without an answer."""
    return ["--ping-interval", str(limits.PING_EVERY), "--ping-timeout", str(limits.PONG_WAIT)]


class Command(BaseCommand):
    help = "Serve Bunco on the local network (all interfaces) and print the join link and QR code."

    def add_arguments(self, parser: CommandParser) -> None:
        serve_options(parser)
        parser.add_argument("--browser", action="store_true",
                            help="open the host page in this computer's browser once serving")

    def handle(self, *args, **options) -> None:
        port, bind = options["port"], options["bind"]
        if problem := port_problem(bind, port):
            self.stderr.write(problem)
            raise SystemExit(1)
        # Static files are served compressed and with long-lived hashed names: collect them
        # (quick, and a no-op when nothing changed) so `manage.py serve` alone is enough.
        call_command("collectstatic", interactive=False, verbosity=0)
        copy_to = self.copy_folder(options.get("copy_to"))
        host = self.say_links(port, options)
        if copy_to is not None:
            self.stdout.write(f"  Each night's latest file is also kept in: {copy_to}")
            self.stdout.write("  with Bunco itself, to start on another laptop "
                              "(HOW-TO-START.txt there says how)")
        self.stdout.write("Press Ctrl+C to stop.")
        self.stdout.flush()
        # No phone in a few minutes: what on this laptop is likely in the way (the room check).
        roomcheck.watch_terminal(self.stdout.write, port=port)
        if options["browser"]:
            self.open_when_serving(host, bind, port)
        CommandLineInterface().run(
            ["--bind", bind, "--port", str(port), *daphne_options(), "bunco.asgi:application"]
        )
        leave_the_database_whole()

    def copy_folder(self, asked: str | None):
        """The copy folder (``--copy-to`` or the setting), checked, with Bunco itself put
        there once (in a thread); None without one. One that cannot be written stops the
        start with its sentence."""
        if asked:
            settings.BUNCO_COPY_TO = asked
        copy_to = backup.copy_folder()
        if copy_to is not None and (problem := backup.check_copy_folder(copy_to)):
            self.stderr.write(problem)
            raise SystemExit(1)
        if copy_to is not None:
            kit.put_soon(copy_to, copy_to.stat().st_dev)
        return copy_to

    def say_links(self, port: int, options: dict) -> str:
        """Print that Bunco runs, its version, the host's link and the phones' (with their QR
        code); the host's link is returned."""
        secret = host_secret()
        if settings.LAN_FOUND or settings.PUBLIC_URL:
            # Every link is the LAN address, even the host's: a QR code the host's page shows
            # must work from a guest's phone, whichever address the host's browser used.
            host = public_url(f"/host/{secret}/", port=port)
            guests = public_url("/", port=port)
            self.stdout.write(self.style.SUCCESS(f"Bunco {version()} is running."))
            self.stdout.write(f"  Host (keep this link to yourself): {host}")
            self.stdout.write(f"  Phones on the Wi-Fi: {guests}")
            if not options["no_qr"]:
                self.stdout.write("  Scan to find your seat:")
                self.print_qr(guests, options.get("stdout"))
            return host
        self.stdout.write(self.style.SUCCESS(
            f"Bunco {version()} is running, for this laptop only: it is not on a network yet."))
        host = f"http://localhost:{port}/host/{secret}/"
        self.stdout.write(f"  Host, on this laptop (keep this link to yourself): {host}")
        self.stdout.write(
            "  Phones: connect this laptop to the party's Wi-Fi, then stop Bunco (Ctrl+C) "
            "and start it again; it will print the address and QR code phones open.")
        return host

    def print_qr(self, url: str, stream=None) -> None:
        """``stream``: what this command writes to (``call_command(stdout=...)``, else the
        process's standard output), asked whether it can print block characters."""
        stream = stream or sys.stdout
        modules = qr_modules(url)
        if sys.platform == "win32" and stream is sys.stdout \
                and not windows_console_reads_ansi():  # pragma: no cover - Windows
            self.stdout.flush()
            draw_qr_with_console_colours(modules)
            return
        self.stdout.write(draw_qr(modules, blocks=can_print(stream, QR_BLOCKS)), ending="")

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


def qr_modules(url: str) -> list[list[bool]]:
    """The QR code of ``url`` as rows of modules (True: dark), its quiet zone included, in an
    even number of rows (the compact drawing prints two a line; one more row of quiet zone
    at the bottom rounds it up)."""
    code = segno.make(url, error="m")
    rows = [[bool(bit) for bit in row] for row in code.matrix_iter(scale=1, border=QUIET_ZONE)]
    if len(rows) % 2:
        rows.append([False] * len(rows[0]))
    return rows


def draw_qr(modules: list[list[bool]], blocks: bool = True) -> str:
    """The QR code as terminal text, in its own colours whatever the terminal's.

    ``blocks``: two rows of modules a line in half blocks, black ink on white paper (one
    character a module: small enough for any window). Otherwise ASCII only, for a console
    that has no block characters: each module two spaces on a black or white background."""
    lines = []
    if blocks:
        glyph = {(True, True): "\u2588", (True, False): "\u2580", (False, True): "\u2584",
                 (False, False): " "}
        for top, bottom in zip(modules[::2], modules[1::2], strict=True):
            cells = "".join(glyph[pair] for pair in zip(top, bottom, strict=True))
            lines.append(f"{INK_ON_PAPER}{cells}{RESET}")
    else:
        for row in modules:
            line, start = [], 0
            for end in range(1, len(row) + 1):
                if end == len(row) or row[end] != row[start]:
                    ground = DARK_GROUND if row[start] else LIGHT_GROUND
                    line.append(ground + "  " * (end - start))
                    start = end
            lines.append("".join(line) + RESET)
    return "\n".join(lines) + "\n"


def windows_console_reads_ansi() -> bool:  # pragma: no cover - Windows
    """Whether the Windows console draws ANSI colours: Windows 10 and later do once asked
    (Windows Terminal always does). A file or a pipe keeps the codes as they are."""
    import ctypes
    import msvcrt

    try:
        handle = msvcrt.get_osfhandle(sys.stdout.fileno())
        kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
        mode = ctypes.c_uint32()
        if not kernel32.GetConsoleMode(handle, ctypes.byref(mode)):
            return True  # not a console
        enable_virtual_terminal_processing = 0x0004
        return bool(mode.value & enable_virtual_terminal_processing
                    or kernel32.SetConsoleMode(handle, mode.value
                                               | enable_virtual_terminal_processing))
    except (OSError, ValueError, AttributeError):
        return False


def draw_qr_with_console_colours(modules: list[list[bool]]) -> None:  # pragma: no cover
    """The ASCII drawing on a console older than Windows 10, coloured through the console's
    own calls: black and bright white backgrounds, as the ANSI drawing."""
    import ctypes

    kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
    console = kernel32.GetStdHandle(-11)  # STD_OUTPUT_HANDLE
    black, white, default = 0x00, 0xF0, 0x07
    for row in modules:
        for dark in row:
            sys.stdout.flush()
            kernel32.SetConsoleTextAttribute(console, black if dark else white)
            sys.stdout.write("  ")
        sys.stdout.flush()
        kernel32.SetConsoleTextAttribute(console, default)
        sys.stdout.write("\n")
    sys.stdout.flush()


def leave_the_database_whole() -> None:
    """SQLite keeps recent writes in a side file (``-wal``) until they are folded into the
    database file: fold them all in once the server has stopped, so the night's file alone
    is the whole night (copied to a stick, or read by another laptop)."""
    from django.db import DatabaseError, connection

    if connection.vendor != "sqlite":
        return
    # A fold that cannot be done now (a request still finishing in another thread holds the
    # file) is not worth a traceback at the end of the night: SQLite folds the log in itself
    # when the file is next opened.
    with contextlib.suppress(DatabaseError):
        try:
            with connection.cursor() as cursor:
                cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            connection.close()
