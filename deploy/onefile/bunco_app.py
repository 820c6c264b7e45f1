"""What the single-file app runs: ``bunco``, as the installed command is, with no arguments
when it is double-clicked (it then starts the night: migrate, collect the static files, serve
on the LAN, print the links and the QR code, open the host page)."""

import sys

from bunco.cli import main

if __name__ == "__main__":
    sys.exit(main())
