"""The start command's options, one list for ``bunco`` and ``manage.py serve`` alike (no
Django imported here: ``bunco`` reads them before the app starts)."""

from __future__ import annotations


def serve_options(parser) -> None:
    """Where to serve, and what to print and keep while serving."""
    parser.add_argument("--port", type=int, default=8000, help="the port to serve on (8000)")
    parser.add_argument("--bind", default="0.0.0.0",
                        help="the address to listen on (default: every network)")
    parser.add_argument("--no-qr", action="store_true", help="do not print the QR code")
    parser.add_argument("--copy-to", metavar="FOLDER", default=None,
                        help="also keep each live night's latest file in this folder (a USB "
                             "stick, a synced folder); default: $BUNCO_COPY_TO")
