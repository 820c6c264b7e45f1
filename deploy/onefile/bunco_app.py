"""What the single-file app runs: ``bunco``, as the installed command is, with no arguments
when it is double-clicked (it then starts the night: migrate, collect the static files, serve
on the LAN, print the links and the QR code, open the host page)."""

import contextlib
import subprocess
import sys

from bunco.laptop.cli import main


def keep_the_window_open(code: int) -> None:
    """A double-clicked program's console window closes the moment it ends, before a host
    can read why Bunco did not start (the port is taken, say): on Windows, in a window made
    for it, it waits for Enter first. macOS Terminal keeps its window open by itself, and on
    Linux it runs in a terminal the host opened."""
    if code and sys.platform == "win32" and window_made_for_this_app():  # pragma: no cover
        with contextlib.suppress(EOFError, KeyboardInterrupt, OSError):
            input("Press Enter to close this window.")


def window_made_for_this_app() -> bool:  # pragma: no cover - Windows
    """Whether the console holds this app's two processes only (PyInstaller's unpacker and
    Bunco), not also the Command Prompt or PowerShell that started it."""
    import ctypes

    processes = (ctypes.c_uint32 * 8)()
    try:
        return ctypes.WinDLL("kernel32").GetConsoleProcessList(processes, 8) <= 2
    except OSError:
        return False


def in_a_terminal_window_on_macos() -> bool:  # pragma: no cover - macOS
    """Bunco.app double-clicked in the Finder runs with no window: it opens itself in Terminal
    instead, where the host reads the links and the QR code and Ctrl+C or closing the window
    stops it cleanly. Started from a terminal, or with options, it runs where it is."""
    if sys.platform != "darwin" or len(sys.argv) > 1 or sys.stdin.isatty() \
            or ".app/Contents/MacOS/" not in sys.executable:
        return False
    return subprocess.run(["open", "-a", "Terminal", sys.executable]).returncode == 0


if __name__ == "__main__":
    if in_a_terminal_window_on_macos():
        sys.exit(0)
    code = main()
    keep_the_window_open(code)
    sys.exit(code)
