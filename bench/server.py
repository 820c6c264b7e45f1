"""The real server in a child process, as a party starts it, for the benchmarks and the tests
that need a whole server: a fresh data folder with its own environment (never the user's own
data), a night seated through the services in a child process, and daphne started as
``manage.py serve`` runs it, its output kept in files. Linux only (/proc)."""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
from django.conf import settings
from django.core.management.base import CommandError

from bunco.management.commands.serve import daphne_options

HOST = "127.0.0.1"
PHONES_PER_TABLE = 3

# Run in a child process with the benchmark's environment: this process's settings point at
# the user's own data folder, which the benchmark must never touch.
SETUP_SCRIPT = """
import json, sys
import django
django.setup()
from bunco.night import services
from bunco.models import TableLink
from bunco.night.cache import live_state
from bunco.live.screens.table import table_context
from scoring import sample_names

tables = int(sys.argv[1])
night = services.night_create(name="Bench", rules_id="clockwise",
                              player_names=sample_names(tables * 4))
services.night_seat(night=night)
services.round_start(night=night)
state = live_state(night)
first = table_context(state, 1)  # the buttons a table's pad shows this round (the floor's)
print(json.dumps({
    "night": night.pk,
    "tv": night.tv_token,
    "tables": {link.number: link.token for link in TableLink.objects.filter(night=night)},
    "players": [{"token": p.token, "table": (state.seat_of(p.name) or [None])[0]}
                for p in night.players.all()],
    "pad": {"quick": first["quick"], "keeps": (first["turns"] or {}).get("keeps", "")},
}))
"""



def bench_env(data_dir: Path) -> dict[str, str]:
    # A DATABASE_URL or REDIS_URL from the caller's shell would point the benchmark at a real
    # night's data; it measures the default single-process set-up instead.
    drop = {"BUNCO_DEBUG", "DATABASE_URL", "REDIS_URL", "BUNCO_SECRET_KEY"}
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(BUNCO_DATA_DIR=str(data_dir), BUNCO_HOST_SECRET=secrets.token_urlsafe(16),
               BUNCO_ALLOWED_HOSTS=HOST, DJANGO_SETTINGS_MODULE="bunco.settings",
               PYTHONUNBUFFERED="1")
    return env


def machine() -> str:
    """The cores the run shares with its clients, and how busy the machine already is."""
    return (f"{os.cpu_count()} cores, load average "
            f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def prepared_env(data_dir: Path) -> dict[str, str]:
    """``bench_env`` for a data folder made ready as the start command makes it: the database
    migrated, the static files collected."""
    env = bench_env(data_dir)
    for step in ("migrate", "collectstatic"):
        run_checked([sys.executable, "manage.py", step, "--noinput", "-v", "0"], env, step)
    return env


def run_checked(command: list[str], env: dict, what: str) -> str:
    try:
        done = subprocess.run(command, cwd=settings.BASE_DIR, env=env, capture_output=True,
                              text=True, timeout=300, check=False)
    except subprocess.TimeoutExpired as exc:
        raise CommandError(f"{what} took over 5 minutes") from exc
    if done.returncode != 0:
        raise CommandError(f"{what} failed:\n{done.stderr[-3000:]}")
    return done.stdout


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


class Server:
    """daphne in a child process, as ``manage.py serve`` runs it, its output kept in files."""

    def __init__(self, folder: Path, env: dict) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.env = env
        self.secret = env["BUNCO_HOST_SECRET"]
        self.out_path = folder.parent / f"{folder.name}.stdout.log"
        self.err_path = folder.parent / f"{folder.name}.stderr.log"
        self.logs = [self.out_path, self.err_path]
        self.proc: subprocess.Popen | None = None
        self.port = 0

    @property
    def base(self) -> str:
        return f"http://{HOST}:{self.port}"

    def start(self, port: int | None = None) -> None:
        """Start daphne, on ``port`` if given (a restart keeps the address screens know)."""
        self.port = port or free_port()
        with open(self.out_path, "wb") as out, open(self.err_path, "wb") as err:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "daphne", "-b", HOST, "-p", str(self.port),
                 *daphne_options(), "bunco.asgi:application"],
                cwd=settings.BASE_DIR, env=self.env, stdout=out, stderr=err,
                stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        with httpx.Client(trust_env=False, timeout=2) as client:
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    raise CommandError(f"the server exited at start:\n{self.tail()}")
                with contextlib.suppress(httpx.HTTPError):
                    if client.get(f"{self.base}/").status_code < 500:
                        return
                time.sleep(0.2)
        raise CommandError(f"the server did not answer within 30 s:\n{self.tail()}")

    def cpu_seconds(self) -> float:
        # Fields 14 and 15 (utime, stime) count every thread of the process; the command
        # name in field 2 may hold spaces, so split after its closing parenthesis.
        stat = Path(f"/proc/{self.proc.pid}/stat").read_text()
        fields = stat[stat.rindex(")") + 2:].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def tail(self) -> str:
        return self.err_path.read_text(errors="replace")[-3000:] if self.err_path.exists() else ""

    def problems(self) -> list[str]:
        if not self.err_path.exists():
            return []
        words = ("Traceback", "Error", "ERROR", "Exception", "WARNING")
        return [line for line in self.err_path.read_text(errors="replace").splitlines()
                if any(w in line for w in words)]
