"""python manage.py livebench: what one tap costs the real server, end to end.

For each size it starts daphne the way a party does (its own fresh data folder, DEBUG off, the
in-memory channel layer), seats a night of that many tables, opens every screen a room would
have open (each table's device, three phones per table, the TV and the host) and taps "miss"
at a fixed rate, open loop. It reads the server's CPU time from /proc and counts the bytes that
reached the screens. The baseline, measured against the same server with the same screens
open, is a bare websocket ping round trip at the same rate: the ratio is what a tap costs over
the cheapest message the server can answer.

Linux only (/proc). Every connection goes to 127.0.0.1. The client that opens the screens and
taps is ``bench/livedrive.py``; this is the command and its report.
"""

from __future__ import annotations

import asyncio
import json
import math
import shutil
import sys
import tempfile
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from bench.analysis import percentile
from bench.livedrive import Result, drive
from bench.server import (  # noqa: F401 - the tests' and the other benchmarks' way in
    HOST,
    PHONES_PER_TABLE,
    SETUP_SCRIPT,
    Server,
    bench_env,
    free_port,
    machine,
    prepared_env,
    run_checked,
)


class Command(BaseCommand):
    help = ("Start the real server and measure its CPU milliseconds and the websocket bytes "
            "pushed per tap at several room sizes, next to a websocket ping baseline.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tables", type=int, nargs="+", default=[3, 25, 100],
                            help="room sizes to measure, in tables (default: 3 25 100)")
        parser.add_argument("--taps", type=int, default=200, help="taps per size (and pings)")
        parser.add_argument("--rate", type=float, default=5.0, help="taps per second")
        parser.add_argument("--idle", type=float, default=3.0,
                            help="seconds of quiet measured before tapping")
        parser.add_argument("--via", choices=["ws", "http"], default="ws",
                            help="send taps over the table device's websocket, as the pages "
                                 "do while it is open (default), or as form posts")
        parser.add_argument("--log-dir", type=Path, default=None,
                            help="keep each size's server output in this folder")

    def handle(self, *args, **options) -> None:
        sizes, taps, rate = options["tables"], options["taps"], options["rate"]
        if not Path("/proc/self/stat").exists():
            raise CommandError("livebench reads server CPU time from /proc: Linux only")
        if any(n < 1 or n > 100 for n in sizes):
            raise CommandError("--tables takes sizes from 1 to 100 (400 players at most)")
        if taps < 1 or rate <= 0:
            raise CommandError("--taps and --rate must be positive")
        self.via = options["via"]
        self.stdout.write(f"livebench: {taps} taps per size at {rate:g}/s over "
                          f"{'websockets' if self.via == 'ws' else 'HTTP posts'}, miss only; "
                          f"{machine()}")
        results = []
        with tempfile.TemporaryDirectory(prefix="livebench-") as tmp:
            env = prepared_env(Path(tmp))
            self.stdout.write(_header())
            for tables in sizes:
                result = self.measure(tables, taps, rate, options["idle"], env, Path(tmp),
                                      options["log_dir"])
                results.append(result)
                self.stdout.write(_row(result))
                self.stdout.flush()
        self.stdout.write("")
        for r in results:
            self.stdout.write(_baseline(r, rate))
        for r in results:
            for line in _details(r):
                self.stdout.write(line)

    def measure(self, tables: int, taps: int, rate: float, idle: float, env: dict,
                tmp: Path, log_dir: Path | None) -> Result:
        night = json.loads(run_checked([sys.executable, "-c", SETUP_SCRIPT, str(tables)], env,
                                       "night setup").strip().splitlines()[-1])
        server = Server(tmp / f"server-{tables}", env)
        try:
            server.start()
            result = asyncio.run(drive(server, night, tables, taps, rate, idle, self.via))
        finally:
            server.stop()
            if log_dir is not None:
                log_dir.mkdir(parents=True, exist_ok=True)
                for path in server.logs:
                    shutil.copy(path, log_dir / path.name)
        result.log_problems = server.problems()
        return result


# -- the report ----------------------------------------------------------------------------------

COLUMNS = [("tables", 6), ("sockets", 8), ("taps", 6), ("failed", 7), ("cpu_ms/tap", 11),
           ("bytes/tap", 10), ("msgs/tap", 9), ("bytes/msg", 10), ("p50_ms", 8), ("p99_ms", 8),
           ("ping_cpu_ms", 12), ("tap/ping", 9), ("idle_ms/s", 10)]


def _header() -> str:
    return "  ".join(f"{name:>{width}}" for name, width in COLUMNS)


def _row(r: Result) -> str:
    per_message = r.bytes_per_tap / r.messages_per_tap if r.messages_per_tap else 0.0
    ratio = r.cpu_ms_per_tap / r.cpu_ms_per_ping if r.cpu_ms_per_ping else math.nan
    values = [r.tables, r.sockets, r.taps, r.failed, f"{r.cpu_ms_per_tap:.2f}",
              f"{r.bytes_per_tap:.0f}", f"{r.messages_per_tap:.2f}", f"{per_message:.0f}",
              f"{percentile(r.latencies, 50) * 1000:.1f}",
              f"{percentile(r.latencies, 99) * 1000:.1f}", f"{r.cpu_ms_per_ping:.2f}",
              f"{ratio:.1f}", f"{r.idle_ms_per_s:.1f}"]
    return "  ".join(f"{v:>{width}}" for v, (_, width) in zip(values, COLUMNS, strict=True))


def _baseline(r: Result, rate: float) -> str:
    rtt = percentile(r.ping_rtts, 50) * 1000
    return (f"baseline @{r.tables} tables: {r.pings} websocket pings at {rate:g}/s, "
            f"{r.ping_failed} failed: {r.cpu_ms_per_ping:.2f} cpu ms/ping, p50 round trip "
            f"{rtt:.1f} ms; a tap costs {r.cpu_ms_per_tap:.2f} cpu ms "
            f"({r.cpu_ms_per_tap / r.cpu_ms_per_ping if r.cpu_ms_per_ping else math.nan:.1f}x)")


def _details(r: Result) -> list[str]:
    lines = [f"@{r.tables} tables: {r.sockets}/{r.wanted_sockets} screens connected, "
             f"snapshots {r.snapshot_bytes} bytes, taps took {r.tap_seconds:.1f} s "
             f"({r.late} sent late), {r.missing_pushes} accepted taps never reached their "
             f"table's device, {r.closed} screens closed by the server"]
    lines += [f"  failed x{n}: {why}" for why, n in r.failures.most_common(5)]
    if r.log_problems:
        lines.append(f"  server stderr: {len(r.log_problems)} problem lines, first ones:")
        lines += [f"    {line[:160]}" for line in r.log_problems[:5]]
    else:
        lines.append("  server stderr: clean")
    return lines
