"""How long a Bunco command takes from launch until it answers: the seconds from starting the
process to the first 200 from ``/healthz``, for each command given, first with an empty data
folder (the first start of a night: migrate, collect the static files) and then again on that
folder, ``--runs`` times (a later start).

    python deploy/onefile/start_time.py dist/onefile/bunco ~/.local/bin/bunco --runs 5

Each start serves on 127.0.0.1 on a free port, with its own data folder (BUNCO_DATA_DIR), no
browser and no QR code, and is stopped with Ctrl+C (SIGINT; Ctrl+Break on Windows) once it
answered.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def one_start(command: str, data: Path) -> float:
    port = free_port()
    env = dict(os.environ, BUNCO_DATA_DIR=str(data), BUNCO_LAN_ADDRESS="127.0.0.1")
    windows = sys.platform == "win32"
    launched = time.monotonic()
    server = subprocess.Popen(
        [command, "--no-browser", "--no-qr", "--bind", "127.0.0.1", "--port", str(port)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        creationflags=subprocess.CREATE_NEW_PROCESS_GROUP if windows else 0,
        start_new_session=not windows)
    try:
        while True:
            if server.poll() is not None:
                raise SystemExit(f"{command} stopped ({server.returncode}) before answering")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                    return time.monotonic() - launched
            except OSError:
                time.sleep(0.02)
    finally:
        if windows:
            server.send_signal(signal.CTRL_BREAK_EVENT)
        else:
            os.killpg(server.pid, signal.SIGINT)
        server.wait(timeout=60)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("commands", nargs="+", help="the bunco commands to time")
    parser.add_argument("--runs", type=int, default=5, help="later starts to time (5)")
    args = parser.parse_args(argv)
    for command in args.commands:
        with tempfile.TemporaryDirectory() as data:
            first = one_start(command, Path(data))
            later = [one_start(command, Path(data)) for _ in range(args.runs)]
        print(f"{command}: first start {first:.2f} s; later starts median "
              f"{statistics.median(later):.2f} s (min {min(later):.2f}, max {max(later):.2f}, "
              f"{len(later)} runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
