"""python manage.py floodbench: what a client posting taps flat out costs the real server.

The real server (as livebench starts it) with a night of five tables. Four tables tap "miss"
over HTTP every 250 ms, as a table's phone does when the scorekeeper is quick, and their
answers are timed: first alone, then while another process posts taps on table 5's link as
fast as its connections are answered (``--connections`` of them, keep-alive, each post sent
the moment the last was answered). It prints one JSON line: the four tables' p50/p95 alone
and under the flood, the flood's posts a second and what they were answered, and the server's
CPU (in cores) in each phase, so the flood's cost is the difference.
"""

from __future__ import annotations

import json
import multiprocessing
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from pathlib import Path

import httpx
from django.core.management.base import BaseCommand, CommandParser

from bench.flooders import flood, reconnect_flood
from bench.server import SETUP_SCRIPT, Server, prepared_env, run_checked

NORMAL_EVERY = 0.25
POSITIONS: dict[int, int] = {}  # each table's position after the last phase
REFUSED: Counter = Counter()  # the honest tables' taps not answered 200, by status


def table_taps(base: str, token: str, number: int, seconds: float, out: list) -> None:
    """One table's phone: a miss every 250 ms, each answer timed (ms)."""
    with httpx.Client(base_url=base, trust_env=False, timeout=30) as http:
        http.get(f"/t/{token}/")
        csrf = http.cookies.get("csrftoken") or ""
        pos = POSITIONS.get(number, 0)
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            start = time.monotonic()
            answer = http.post(f"/t/{token}/roll/", headers={"X-CSRFToken": csrf}, data={
                "key": str(uuid.uuid4()), "set": 1, "round": 1, "table": number, "pos": pos,
                "quick": "miss"})
            took = (time.monotonic() - start) * 1000
            if answer.status_code != 200:  # told "busy" or "slow down": the phone sends again
                REFUSED[answer.status_code] += 1
                time.sleep(NORMAL_EVERY)
                continue
            pos += 1
            out.append(took)
            time.sleep(max(0.0, NORMAL_EVERY - took / 1000))
        POSITIONS[number] = pos


def phase(base: str, tables: dict, seconds: float) -> list[float]:
    """The four tables tapping at once for ``seconds``; every answer's time."""
    results: dict[int, list] = {n: [] for n in tables}
    threads = [threading.Thread(target=table_taps, args=(base, t, n, seconds, results[n]))
               for n, t in tables.items()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return [x for xs in results.values() for x in xs]


def p(xs: list[float], q: float) -> float:
    return round(sorted(xs)[int(q * (len(xs) - 1))], 1) if xs else 0.0


def under_flood(server: Server, tables: dict, flood_table: str, opts: dict):
    """The four tables tapping while another process floods (table 5's token): their answers'
    times, the server's cores meanwhile, and what the flood got back (answer -> count) over
    how many seconds."""
    ctx = multiprocessing.get_context("spawn")
    stop, counts = ctx.Event(), ctx.Manager().dict()
    counts["seconds"] = 0
    flooder = ctx.Process(target=reconnect_flood if opts["websocket"] else flood,
                          args=(server.base, flood_table, opts["connections"], stop, counts))
    flooder.start()
    time.sleep(1.0)
    cpu, wall = server.cpu_seconds(), time.monotonic()
    during = phase(server.base, tables, opts["seconds"])
    elapsed = time.monotonic() - wall
    cores_flood = (server.cpu_seconds() - cpu) / elapsed
    stop.set()
    flooder.join(timeout=60)
    answered = dict(counts)
    flood_seconds = answered.pop("seconds") or 1.0
    if flooder.exitcode or not answered:
        raise SystemExit(f"the flood ran nothing (exit {flooder.exitcode})")
    return during, cores_flood, answered, flood_seconds


class Command(BaseCommand):
    help = "What a client posting taps flat out costs the server and four tables beside it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--seconds", type=float, default=15.0)
        parser.add_argument("--connections", type=int, default=8)
        parser.add_argument("--websocket", action="store_true",
                            help="the flood reconnects a refused websocket, not posts taps")

    def handle(self, *args, **opts) -> None:
        seconds = opts["seconds"]
        with tempfile.TemporaryDirectory(prefix="bunco-flood-") as tmp:
            env = prepared_env(Path(tmp) / "data")
            night = json.loads(run_checked([sys.executable, "-c", SETUP_SCRIPT, "5"], env,
                                           "night setup").strip().splitlines()[-1])
            server = Server(Path(tmp) / "server", env)
            server.start()
            try:
                tables = {n: night["tables"][str(n)] for n in (2, 3, 4, 1)}
                phase(server.base, tables, 2.0)  # warm up
                cpu, wall = server.cpu_seconds(), time.monotonic()
                alone = phase(server.base, tables, seconds)
                refused_alone = dict(REFUSED)
                REFUSED.clear()
                cores_alone = (server.cpu_seconds() - cpu) / (time.monotonic() - wall)
                during, cores_flood, answered, flood_seconds = under_flood(
                    server, tables, night["tables"]["5"], opts)
            finally:
                server.stop()
        line = {
            "flood": "websocket reconnects" if opts["websocket"] else "tap posts",
            "connections": opts["connections"], "seconds": seconds,
            "taps_alone": len(alone), "p50_alone_ms": round(statistics.median(alone), 1),
            "p95_alone_ms": p(alone, 0.95),
            "taps_flood": len(during),
            "p50_flood_ms": round(statistics.median(during), 1) if during else None,
            "p95_flood_ms": p(during, 0.95),
            "p95_ratio": round(p(during, 0.95) / max(0.1, p(alone, 0.95)), 2),
            "honest_refused_alone": refused_alone, "honest_refused_flood": dict(REFUSED),
            "flood_requests_per_s": round(sum(answered.values()) / flood_seconds, 1),
            "flood_answers": answered,
            "server_cores_alone": round(cores_alone, 3),
            "server_cores_flood": round(cores_flood, 3),
            "flood_cost_cores": round(cores_flood - cores_alone, 3),
        }
        self.stdout.write(json.dumps(line))
