"""What deploy/scale.py's stack is made of on this machine: where it keeps its files, its child
processes (each in its own session, its output in var/scale/logs) and the ports it takes.
Standard library only."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUN = ROOT / "var" / "scale"
LOGS = RUN / "logs"
PG_HOST, PG_PORT = "127.0.0.1", 5432
PG_USER = "bunco"


class Trouble(Exception):
    """Something this machine lacks, said so the person running it knows what to do."""


def say(text: str) -> None:
    print(text, flush=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def listening(host: str, port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex((host, port)) == 0


def plain_port(wanted: int) -> int:
    """nginx's plain HTTP port: ``wanted`` if nothing holds it, else a free one (0: none)."""
    if not wanted:
        return 0
    with socket.socket() as s:
        try:
            s.bind(("", wanted))
        except OSError:
            port = free_port()
            say(f"Port {wanted} is busy: plain HTTP redirects to HTTPS from port {port} instead.")
            return port
    return wanted


def is_root() -> bool:
    return os.geteuid() == 0


class Child:
    """A process of the stack, in its own session (Ctrl+C reaches this script only, which
    then stops each child in order), its output in var/scale/logs/<name>.log."""

    def __init__(self, name: str, command: list[str], env: dict | None = None,
                 stop_signal: int = signal.SIGTERM) -> None:
        LOGS.mkdir(parents=True, exist_ok=True)
        self.name, self.stop_signal = name, stop_signal
        self.log = LOGS / f"{name}.log"
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out,
                                         stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                         start_new_session=True)

    def alive(self) -> bool:
        return self.proc.poll() is None

    def tail(self, lines: int = 20) -> str:
        with contextlib.suppress(OSError):
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        return ""

    def stop(self, timeout: float = 10) -> None:
        if not self.alive():
            return
        self.proc.send_signal(self.stop_signal)
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
