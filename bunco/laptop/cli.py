"""The ``bunco`` command an installed package gives (``pipx install ./bunco-….whl``).

    bunco                      migrate, collect the static files, serve on the LAN, print the
                               host link, the phones' address and a QR code, and open the host
                               page in this computer's browser (what ``make run`` does)
    bunco --port 9000 --bind 127.0.0.1 --no-qr --no-browser
    bunco --copy-to E:\\bunco    also keep each live night's latest file in that folder (a USB
                               stick, a synced folder): on another laptop it is the night again
    bunco backup | restore … | restore-night FILE | simulate …   the management commands of
                               the same names

It runs on Windows, macOS and Linux; the data goes in the user's data folder
(``bunco/laptop/__init__.py``) unless ``BUNCO_DATA_DIR`` says otherwise.
"""

from __future__ import annotations

import _thread
import argparse
import contextlib
import os
import signal
import sys
import threading

from bunco.laptop.options import serve_options
from bunco.version import version

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
    serve_options(found)
    found.add_argument("--version", action="version", version=f"bunco {version()}")
    found.add_argument("--no-browser", action="store_true",
                       help="do not open the host page in this computer's browser")
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
    from bunco.laptop.lan import port_problem

    # Before anything else, and before anything is printed: a busy port or a port this
    # user may not open is one sentence, with no link that would lead to another program.
    if problem := port_problem(args.bind, args.port):
        print(problem, file=sys.stderr)
        return 1

    import django
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import CommandError, call_command

    try:
        with closing_the_window_stops_it():
            django.setup()
            call_command("migrate", interactive=False, verbosity=0)
            call_command("serve", port=args.port, bind=args.bind, no_qr=args.no_qr,
                         browser=not args.no_browser, copy_to=args.copy_to)
    except (CommandError, ImproperlyConfigured) as exc:
        print(f"Bunco cannot start: {exc}", file=sys.stderr)
        return 1
    return 0


@contextlib.contextmanager
def closing_the_window_stops_it():
    """Closing the window Bunco runs in, or being asked to stop (a shutdown, ``kill``), is
    Ctrl+C: Daphne closes its connections and returns, and the database is left whole
    (``serve``). Without this a closed terminal's SIGHUP, or a closed Windows console, ends
    the process wherever it is.

    - POSIX: SIGHUP (the terminal closed) and SIGTERM. Daphne's reactor takes SIGTERM over
      while it runs, and stops on it too.
    - Windows: Ctrl+Break (SIGBREAK), and closing the console window, logging off or shutting
      down (console events that Windows follows by ending the process as soon as the handler
      returns: the handler waits for the server to stop first, at most the 5 seconds Windows
      gives).
    """
    stopped = threading.Event()
    previous = {}
    # Only the main thread may set signal handlers (the command runs there).
    main = threading.current_thread() is threading.main_thread()
    for name in ("SIGHUP", "SIGTERM", "SIGBREAK"):
        if main and hasattr(signal, name):
            number = getattr(signal, name)
            previous[number] = signal.signal(number, _as_ctrl_c)
    console = _on_console_close(stopped) if main and sys.platform == "win32" else None
    try:
        yield
    finally:
        stopped.set()
        for number, handler in previous.items():
            signal.signal(number, handler)
        if console is not None:
            console()


def _as_ctrl_c(signum, frame) -> None:
    if signum == getattr(signal, "SIGHUP", None):
        _away_from_a_closed_terminal()
    # What Ctrl+C does at this moment: Daphne's reactor stops on it, and before the server is
    # up it is Python's KeyboardInterrupt (main() says "Stopped.").
    ctrl_c = signal.getsignal(signal.SIGINT)
    if callable(ctrl_c):
        ctrl_c(signal.SIGINT, frame)
        return
    # Started with Ctrl+C ignored (in the background): the reactor then leaves SIGINT alone
    # and stops on its own SIGTERM handler; before it runs, stop here.
    stop = signal.getsignal(signal.SIGTERM)
    if callable(stop) and stop is not _as_ctrl_c:
        stop(signal.SIGTERM, frame)
        return
    raise KeyboardInterrupt


def _away_from_a_closed_terminal() -> None:
    """Once the terminal is gone, writing to it fails (EIO): what is still printed while the
    server stops goes nowhere instead of stopping the stop."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    for fd in (1, 2):
        with contextlib.suppress(OSError):
            if os.isatty(fd):
                os.dup2(devnull, fd)
    os.close(devnull)


def _on_console_close(stopped: threading.Event):
    """Windows' console events: closing the window, logging off, shutting down. Returns what
    takes the handler away again."""
    import ctypes
    from ctypes import wintypes

    closing = {2, 5, 6}  # CTRL_CLOSE_EVENT, CTRL_LOGOFF_EVENT, CTRL_SHUTDOWN_EVENT

    def on_event(event: int) -> bool:
        if event not in closing:
            return False  # Ctrl+C and Ctrl+Break: Python's own handlers
        _thread.interrupt_main(signal.SIGINT)
        stopped.wait(4.5)
        return True

    handler = ctypes.WINFUNCTYPE(wintypes.BOOL, wintypes.DWORD)(on_event)
    kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
    if not kernel32.SetConsoleCtrlHandler(handler, True):
        return None
    return lambda: kernel32.SetConsoleCtrlHandler(handler, False)


def _printable_streams() -> None:
    """A character the console cannot print (a name, a folder with an accent, written to a
    Windows cp1252 pipe) is shown escaped rather than stopping the command."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            with contextlib.suppress(ValueError, OSError):
                stream.reconfigure(errors="backslashreplace")


if __name__ == "__main__":
    sys.exit(main())
