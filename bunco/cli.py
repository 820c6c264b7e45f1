"""The ``bunco`` command an installed package gives (``pipx install bunco-….whl``).

    bunco                      migrate, collect the static files, serve on the LAN, print the
                               host link, the phones' address and a QR code, and open the host
                               page in this computer's browser (what ``make run`` does)
    bunco --port 9000 --bind 127.0.0.1 --no-qr --no-browser
    bunco --copy-to E:\\bunco    also keep each live night's latest file in that folder (a USB
                               stick, a synced folder): on another laptop it is the night again
    bunco backup | restore … | restore-night FILE | simulate …   the management commands of
                               the same names

It runs on Windows, macOS and Linux; the data goes in the user's data folder
(``bunco/laptop.py``) unless ``BUNCO_DATA_DIR`` says otherwise.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys

#: ``bunco NAME …`` is ``manage.py NAME …`` for these.
COMMANDS = {
    "backup": "take a snapshot of the database now (safe while Bunco is running)",
    "restore": "put back a snapshot ('latest', --list) or open a night's file",
    "restore-night": "open a night's file (the laptop that ran it died): same links",
    "simulate": "play nights with virtual dice: how long will our night take?",
}


def parser() -> argparse.ArgumentParser:
    commands = "\n".join(f"  bunco {name:<9} {what}" for name, what in COMMANDS.items())
    found = argparse.ArgumentParser(
        prog="bunco", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Run a Bunco night from this computer: guests score on their phones over "
                    "the room's Wi-Fi.",
        epilog=f"More commands (each has --help):\n{commands}")
    found.add_argument("--port", type=int, default=8000, help="the port to serve on (8000)")
    found.add_argument("--bind", default="0.0.0.0",
                       help="the address to listen on (default: every network)")
    found.add_argument("--no-qr", action="store_true", help="do not print the QR code")
    found.add_argument("--no-browser", action="store_true",
                       help="do not open the host page in this computer's browser")
    found.add_argument("--copy-to", metavar="FOLDER", default=None,
                       help="also keep each live night's latest file in this folder (a USB "
                            "stick, a synced folder); default: $BUNCO_COPY_TO")
    return found


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    _printable_streams()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bunco.settings")
    try:
        if argv and argv[0] in COMMANDS:
            from django.core.management import execute_from_command_line

            execute_from_command_line(["bunco", argv[0].replace("-", "_"), *argv[1:]])
            return 0
        return run(parser().parse_args(argv))
    except KeyboardInterrupt:  # Ctrl+C before the server was up (it handles its own)
        print("Stopped.", file=sys.stderr)
        return 130


def run(args: argparse.Namespace) -> int:
    from bunco.lan import port_problem

    # Before anything else, and before anything is printed: a busy port or a port this
    # user may not open is one sentence, with no link that would lead to another program.
    if problem := port_problem(args.bind, args.port):
        print(problem, file=sys.stderr)
        return 1

    import django
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import CommandError, call_command

    try:
        django.setup()
        call_command("migrate", interactive=False, verbosity=0)
        call_command("serve", port=args.port, bind=args.bind, no_qr=args.no_qr,
                     browser=not args.no_browser, copy_to=args.copy_to)
    except (CommandError, ImproperlyConfigured) as exc:
        print(f"Bunco cannot start: {exc}", file=sys.stderr)
        return 1
    return 0


def _printable_streams() -> None:
    """A character the console cannot print (a name, a folder with an accent, written to a
    Windows cp1252 pipe) is shown escaped rather than stopping the command."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            with contextlib.suppress(ValueError, OSError):
                stream.reconfigure(errors="backslashreplace")


if __name__ == "__main__":
    sys.exit(main())
