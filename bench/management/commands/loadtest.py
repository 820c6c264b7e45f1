"""python manage.py loadtest: a whole room against the real server, next to the floor.

For each scenario it starts the server as a user does (daphne, DEBUG off, a fresh SQLite data
folder, the in-memory channel layer), seats a night through the services, and opens every
screen the way the pages do (per table its device and three player phones, the TVs, the host;
the page's Origin), spread over several client processes (``bench/loadclient.py``:
each its own asyncio loop; one clock, ``time.time()``). The tables tap "miss" as HTTP form
posts (the phones' path while their socket is closed; CSRF included), open loop at a fixed
rate; the host rings the bell under load (its own HTTP post, with a host session) and takes it
back two seconds later so the round goes on. Then the same clients do the same against the
floor (``bench/floor.py``): a minimal ``websockets`` relay that broadcasts frames of
the same size to the same screens. Last, one JSON line per scenario.

What is measured (docs/performance.md defines each): tap -> the last of its table's four
screens and every TV; bell -> the last of all screens; frames lost per screen; taps refused,
answered "busy" or failed; whether every tap counts exactly once (each tap's key looked up in
the night's log after the run: recorded, merged into another tap, lost); server CPU ms per tap
and KiB of RSS per socket (/proc of the server process); bytes per frame. Which of the targets
a scenario missed (``missed_targets``). Linux only (/proc). Every connection goes to 127.0.0.1.
"""

from __future__ import annotations

import bisect
import contextlib
import json
import math
import multiprocessing
import os
import platform
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import httpx
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from bench.loadclient import DRAIN_AT_MOST, Plan, ScreenSpec
from bench.loadclient import main as client_main
from bench.management.commands.livebench import (
    HOST,
    PHONES_PER_TABLE,
    SETUP_SCRIPT,
    Server,
    free_port,
    machine,
    prepared_env,
    run_checked,
)
from bunco import limits
from bunco.runtime import PIECES

# The keys of a night's log, asked of the server's own database (the command's settings name
# another one): whether a tap counts is what the log holds, not what its answer said.
LOG_SCRIPT = """
import json, sys
import django
django.setup()
from bunco.models import ScoreEvent

keys = ScoreEvent.objects.filter(night_id=int(sys.argv[1])).values_list("key", flat=True)
print(json.dumps([str(k) for k in keys]))
"""


@dataclass(frozen=True)
class Scenario:
    name: str
    tables: int
    tvs: int
    host: bool  # the host's page open too
    rate: float  # taps per second, the whole room

    @property
    def sockets(self) -> int:
        return self.tables * (1 + PHONES_PER_TABLE) + self.tvs + int(self.host)


SCENARIOS = {s.name: s for s in [
    Scenario("13", 3, 1, False, 5),
    Scenario("101", 25, 1, False, 17),
    Scenario("405@17", 100, 4, True, 17),
    Scenario("405@50", 100, 4, True, 50),
    Scenario("2005@100", 500, 4, True, 100),
    Scenario("405@150", 100, 4, True, 150),  # above capacity: one core cannot keep up
]}

SEVERAL = ("several workers share the night through PostgreSQL and Redis: give "
           "--database-url and --redis-url too")


class FreshDatabase:
    """A database of its own for one scenario, on the PostgreSQL server ``url`` names (its role
    may create databases), dropped afterwards: the database the URL names is never touched."""

    def __init__(self, url: str):
        import psycopg

        parts = urlsplit(url)
        if parts.scheme not in ("postgres", "postgresql"):
            raise CommandError(f"--database-url must be postgres://user:password@host/db, "
                               f"not {parts.scheme or url!r}")
        self.server = url
        self.name = f"bunco_load_{secrets.token_hex(4)}"
        try:
            with psycopg.connect(url, autocommit=True) as conn:
                conn.execute(f'CREATE DATABASE "{self.name}"')
        except psycopg.Error as exc:
            raise CommandError(f"could not make a database on {parts.hostname}: {exc}") from exc
        self.url = urlunsplit(parts._replace(path=f"/{self.name}"))

    def drop(self) -> None:
        import psycopg

        with psycopg.connect(self.server, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


def proc_cpu_seconds(pid: int) -> float:
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def proc_rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)] if ordered else math.nan


def ms(values: list[float], p: float) -> float | None:
    """A percentile in milliseconds, or None when there is nothing to measure."""
    return round(percentile(values, p) * 1000, 1) if values else None


class Floor:
    """The floor relay in its own process."""

    def __init__(self, folder: Path, night: dict, sizes: dict):
        self.folder, self.night, self.sizes = folder, night, sizes
        self.proc: subprocess.Popen | None = None
        self.ws_port = self.http_port = 0

    def start(self) -> None:
        self.ws_port, self.http_port = free_port(), free_port()
        config = self.folder / "floor.json"
        config.write_text(json.dumps({
            "host": HOST, "ws_port": self.ws_port, "http_port": self.http_port,
            "origin": f"http://{HOST}:{self.http_port}", "room": self.night,
            "sizes": self.sizes, "heard_every": limits.HEARD_EVERY}))
        self.proc = subprocess.Popen([sys.executable, "-m", "bench.floor",
                                      str(config)], cwd=settings.BASE_DIR,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     stdin=subprocess.DEVNULL, text=True)
        if self.proc.stdout.readline().strip() != "ready":
            raise CommandError("the floor relay did not start")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)


@dataclass
class Target:
    """Where the clients go: the app or the floor."""

    pids: list[int]  # the server processes (several workers) or the floor
    ws_bases: list[str]
    http_bases: list[str]
    night: int
    csrf: str = "floor"
    host_cookies: dict | None = None


def app_target(servers: list[Server], nights: list[dict]) -> Target:
    server = servers[0]
    with httpx.Client(base_url=server.base, trust_env=False, timeout=30) as host:
        host.get(f"/host/{server.secret}/")
        for night in nights:
            host.get(f"/host/nights/{night['night']}/")
        cookies = {k: host.cookies.get(k) for k in ("sessionid", "csrftoken")}
    if not all(cookies.values()):
        raise CommandError("the host link did not give a session and a CSRF cookie")
    with httpx.Client(base_url=server.base, trust_env=False, timeout=30) as http:
        for night in nights:
            table = night["tables"]["1"]
            http.get(f"/t/{table}/")
            csrf = http.cookies.get("csrftoken")
            # The first tap pays for imports and template compiling, once a night: not
            # counted. It is the head table's (position 0); the head table is never tapped
            # afterwards.
            answer = http.post(f"/t/{table}/roll/", headers={"X-CSRFToken": csrf}, data={
                "key": str(uuid.uuid4()), "set": "1", "round": "1", "table": "1", "pos": "0",
                "quick": "miss"})
            if answer.status_code != 200:
                raise CommandError(f"the warm-up tap was refused: {answer.text[:300]}")
    for other in servers[1:]:  # every worker's first request pays for its imports, uncounted
        with httpx.Client(base_url=other.base, trust_env=False, timeout=30) as http:
            http.get(f"/t/{nights[0]['tables']['1']}/")
    return Target([s.proc.pid for s in servers], [f"ws://{HOST}:{s.port}" for s in servers],
                  [s.base for s in servers], nights[0]["night"], csrf, cookies)


def room_screens(night: dict, scenario: Scenario, host_cookie: str, workers: int = 1,
                 pin: int | None = None) -> list[ScreenSpec]:
    """Every screen of the room, each on a worker in turn (as a load balancer spreads them;
    a table's device and phones on different workers, so a tap crosses between them), or
    every one on worker ``pin`` (sticky by night)."""
    out = [ScreenSpec(f"/ws/tv/{night['tv']}/", "tv") for _ in range(scenario.tvs)]
    if scenario.host:
        out.append(ScreenSpec(f"/ws/host/{night['night']}/", "host", cookie=host_cookie))
    for number in range(1, scenario.tables + 1):
        out.append(ScreenSpec(f"/ws/table/{night['tables'][str(number)]}/", "device", number))
        seated = [p for p in night["players"] if p["table"] == number]
        out += [ScreenSpec(f"/ws/player/{p['token']}/", "phone", number)
                for p in seated[:PHONES_PER_TABLE]]
    for i, screen in enumerate(out):
        screen.worker = i % workers if pin is None else pin
    return out


def page_sync_every(target: Target, night: dict) -> float:
    """How often the pages sync on this server: what its TV page says (data-sync-every)."""
    with httpx.Client(base_url=target.http_bases[0], trust_env=False, timeout=30) as client:
        page = client.get(f"/tv/{night['tv']}/")
    found = re.search(r'data-sync-every="(\d+)"', page.text)
    if found is None:
        raise CommandError(f"the TV page ({page.status_code}) does not say how often it syncs "
                           f"(data-sync-every): {page.text[:300]!r}")
    return float(found.group(1))


def plans(target: Target, night: dict, scenario: Scenario, opts: dict,
          index: int = 0) -> list[Plan]:
    """Night number ``index``'s client processes: spread, its screens and tables over the
    workers in turn; sticky, all of them on worker ``index % N``."""
    clients, workers = opts["clients"], len(target.http_bases)
    pin = index % workers if opts.get("route") == "sticky" else None
    cookie = "; ".join(f"{k}={v}" for k, v in (target.host_cookies or {}).items())
    screens = room_screens(night, scenario, cookie, workers, pin)
    tappable = list(range(2, scenario.tables + 1))  # the head table keeps the round open
    count = round(scenario.rate * opts["seconds"])
    slots = [(i / scenario.rate, tappable[i % len(tappable)]) for i in range(count)]
    bells = [(k + 0.5) * opts["seconds"] / opts["bells"] for k in range(opts["bells"])]
    every = opts.get("sync_every")
    if every is None:  # as the server's pages; the floor's screens as the server's just were
        if target.csrf != "floor":
            opts["_page_sync_every"] = page_sync_every(target, night)
        every = opts["_page_sync_every"]
    out = []
    for w in range(clients):
        mine = {n for n in tappable if (n - 1) % clients == w}
        out.append(Plan(
            ws_bases=target.ws_bases, http_bases=target.http_bases,
            screens=[s for i, s in enumerate(screens)
                     if (s.table is not None and (s.table - 1) % clients == w)
                     or (s.table is None and i % clients == w)],
            tables={n: night["tables"][str(n)] for n in mine},
            slots=[(t, n) for t, n in slots if n in mine], csrf=target.csrf,
            night=night["night"], bells=bells if w == 0 else [], bell_hold=opts["bell_hold"],
            host_cookies=target.host_cookies or {},
            tap_workers={n: n % workers if pin is None else pin for n in mine},
            sync=not opts.get("no_sync"), sync_every=every))
    return out


def drive(target: Target, nights: list[dict], scenario: Scenario, opts: dict) -> dict:
    """Open each night's room over its client processes, tap and ring, and bring back what
    they saw."""
    ctx = multiprocessing.get_context("fork")
    work = [p for i, night in enumerate(nights) for p in plans(target, night, scenario, opts, i)]
    rss_before = sum(proc_rss_kib(pid) for pid in target.pids)
    pipes, procs = [], []
    for plan in work:
        ours, theirs = ctx.Pipe()
        proc = ctx.Process(target=client_main, args=(theirs, plan), daemon=True)
        proc.start()
        theirs.close()
        pipes.append(ours)
        procs.append(proc)
    try:
        connected = snapshot_bytes = 0
        tv_snapshot = (0, 0)
        for pipe in pipes:
            what = _receive(pipe, 600, "connecting the screens")
            connected += what[1]
            snapshot_bytes += what[2]
            tv_snapshot = max(tv_snapshot, tuple(what[3]))
        time.sleep(1.0)  # the server settles after the snapshots
        rss_after = sum(proc_rss_kib(pid) for pid in target.pids)
        cpu = sum(proc_cpu_seconds(pid) for pid in target.pids)
        start = time.time() + 1.0
        for pipe in pipes:
            pipe.send(("go", start))
        for pipe in pipes:  # each process's taps answered...
            _receive(pipe, opts["seconds"] + 300, "the taps")
        idle = {}
        watcher = threading.Thread(target=until_idle, args=(target.pids, idle), daemon=True)
        watcher.start()
        for pipe in pipes:  # ... then every screen waits for the pushes still on their way
            pipe.send(("drain", None))
        results = [_receive(pipe, DRAIN_AT_MOST + 60, "the last pushes")[1] for pipe in pipes]
        cpu = sum(proc_cpu_seconds(pid) for pid in target.pids) - cpu
        wall = time.time() - start
        watcher.join(timeout=IDLE_AT_MOST + 5)
    finally:
        for pipe in pipes:  # the screens close only now, once the server's CPU is read
            with contextlib.suppress(OSError, ValueError):
                pipe.send(("close", None))
        for proc in procs:
            proc.join(timeout=30)
            if proc.is_alive():
                proc.kill()
    return {"results": results, "start": start, "connected": connected, "wall": wall,
            "snapshot_bytes": snapshot_bytes, "tv_snapshot": tv_snapshot,
            "rss_before": rss_before,
            "rss_after": rss_after, "cpu": cpu, "idle_after_s": idle.get("after"),
            "sync_every": work[0].sync_every if work and work[0].sync else None}


#: The server is idle once a second of it uses under a tenth of a core (the screens' syncs
#: go on); looked for this long after the room's last tap was answered.
IDLE_CPU, IDLE_AT_MOST = 0.1, 60.0


def until_idle(pids: list[int], out: dict) -> None:
    """How long after now the server processes first spend a whole second under IDLE_CPU of
    a core (``out["after"]``, seconds; None if not within IDLE_AT_MOST)."""
    began = time.time()
    samples = [(began, sum(proc_cpu_seconds(pid) for pid in pids))]
    while time.time() - began < IDLE_AT_MOST:
        time.sleep(0.25)
        samples.append((time.time(), sum(proc_cpu_seconds(pid) for pid in pids)))
        window = [x for x in samples if x[0] >= samples[-1][0] - 1.1]
        if samples[-1][0] - window[0][0] >= 0.9 and \
                (samples[-1][1] - window[0][1]) / (samples[-1][0] - window[0][0]) < IDLE_CPU:
            out["after"] = round(window[0][0] - began, 2)
            return


def _receive(pipe, timeout: float, what: str):
    if not pipe.poll(timeout):
        raise CommandError(f"a client process did not finish {what} within {timeout:.0f} s")
    message = pipe.recv()
    if message[0] == "error":
        raise CommandError(f"a client process failed during {what}: {message[1]}")
    return message


class Shown:
    """When one screen first showed each fragment at a given seq *or a later one*: fragments
    are whole (a table's tally, the banner), so a screen that got table 5 at #120 has shown
    #118 too; a TV that falls behind is sent each table's latest tally only."""

    def __init__(self, got: dict[str, list[tuple[int, float]]]):
        self.seqs: dict[str, list[int]] = {}
        self.first: dict[str, list[float]] = {}  # earliest arrival at that seq or later
        for ident, frames in got.items():
            frames.sort()
            seqs, times, earliest = [], [], math.inf
            for seq, t in reversed(frames):
                earliest = min(earliest, t)
                seqs.append(seq)
                times.append(earliest)
            self.seqs[ident], self.first[ident] = seqs[::-1], times[::-1]

    def at(self, ident: str, seq: int) -> float | None:
        seqs = self.seqs.get(ident)
        if not seqs:
            return None
        i = bisect.bisect_left(seqs, seq)
        return self.first[ident][i] if i < len(seqs) else None


def logged_keys(env: dict, night: int) -> set[str]:
    return set(json.loads(run_checked([sys.executable, "-c", LOG_SCRIPT, str(night)], env,
                                      "reading the log").strip().splitlines()[-1]))


def counted(intents: list, logged: set[str] | None) -> dict:
    """Whether every tap counted exactly once. ``intents``: (table, key, position, how it
    ended, words) from the clients; ``logged``: the keys in the night's log (None for the
    floor, which keeps none: what it answered recorded is what it holds)."""
    if logged is None:
        logged = {key for _, key, _, how, _ in intents if how in ("recorded", "already")}
    refused = [i for i in intents if i[3] == "refused"]
    merged = [i for i in intents if i[3] in ("already", "duplicate") and i[1] not in logged]
    lost = [i for i in intents if i[1] not in logged and i[3] != "refused"]
    return {
        "intents": len(intents),
        "recorded": sum(1 for i in intents if i[1] in logged),
        "already_answers": sum(1 for i in intents if i[3] in ("already", "duplicate")),
        "merged_taps": len(merged),
        "refused_taps": len(refused),
        "refused_by_race": sum(1 for i in refused if "crossed" in i[4]),
        "lost_taps": len(lost),
        # which, to find out why: the table, the position the tap named, how it ended
        "lost_taps_first": [f"table {t} pos {pos}: {how}" + (f" ({why[:60]})" if why else "")
                            for t, _, pos, how, why in lost[:12]],
    }


def missed_targets(line: dict) -> list[str]:
    """The targets (docs/performance.md) a scenario's line misses; empty when it meets all
    that apply to it."""
    missed = []
    if line["frames_lost"] or line["failed_taps"]:
        missed.append("nothing lost or failed")
    if line["merged_taps"] or line["refused_by_race"] or line["lost_taps"]:
        missed.append("every tap counted exactly once")
    if line["kib_per_socket"] > 64:
        missed.append("at most 64 KiB a socket")
    if line["wanted_sockets"] == 405 and line["taps_per_s"] in (17, 50):
        if not (line["tap_p99_ms"] or math.inf) <= 100:
            missed.append("tap p99 at most 100 ms")
        if line.get("bell_p99_ms_x_floor") is not None and line["bell_p99_ms_x_floor"] > 3:
            missed.append("bell p99 at most 3x the floor's")
    if line["wanted_sockets"] >= 2005:  # 2,000 players: the bell and its tables everywhere
        for key in ("bell_p99_ms_x_floor", "bell_all_p99_ms_x_floor"):
            if line.get(key) is not None and line[key] > 3:
                missed.append(f"{key.removesuffix('_x_floor')} at most 3x the floor's")
        if line.get("tv_snapshot_wire_kb", 0) > 150:
            missed.append("a TV's snapshot at most 150 KB on the wire")
    if line.get("idle_after_s") is None or line["idle_after_s"] > 5:
        missed.append("server idle within 5 s of the last answer")
    return missed


def merged_tally(results: list[dict]) -> dict:
    tally: dict = {}
    for r in results:
        for key, value in r["tally"].items():
            if isinstance(value, dict):
                tally.setdefault(key, Counter()).update(value)
            elif isinstance(value, list):
                tally.setdefault(key, []).extend(value)
            else:
                tally[key] = tally.get(key, 0) + value
    return tally


def seen(results: list[dict], start: float) -> dict:
    """What one night's screens saw of its taps and bells (a seq is a night's own)."""
    screens = [s for r in results for s in r["screens"] if s["connected"]]
    bells = [b for r in results for b in r["bells"]]
    accepted = merged_tally(results).get("accepted", [])
    arrivals = []
    room: dict[int, bool] = {}
    finished: dict[int, float] = {}  # a seq -> when the last screen got its last frame of it
    frames = size = 0
    for screen in screens:
        got: dict[str, list[tuple[int, float]]] = {}
        for t, ident, seq, rung, nbytes in screen["frames"]:
            if t < start:
                continue
            frames += 1
            size += nbytes
            got.setdefault(ident, []).append((seq, t))
            finished[seq] = max(t, finished.get(seq, t))
            if ident == "banner":
                room[seq] = room.get(seq, False) or rung
        for t, ident, seq in screen.get("inner", ()):  # tables drawn in a room-wide part
            if t >= start:
                got.setdefault(ident, []).append((seq, t))
        arrivals.append(Shown(got))
    lost, missed = Counter(), []
    for screen, shown in zip(screens, arrivals, strict=True):
        expected = {("banner", seq) for seq in room}
        expected |= {(f"table-{table}", seq) for table, seq, _, _ in accepted
                     if screen["kind"] in ("tv", "host") or screen["table"] == table}
        gone = sorted(pair for pair in expected if shown.at(*pair) is None)
        lost[screen["kind"]] += len(gone)
        missed.extend(f"{screen['kind']} {screen['table'] or ''}: {ident} #{seq} (got up to "
                      f"#{(shown.seqs.get(ident) or [0])[-1]})" for ident, seq in gone)
    taps = []
    for table, seq, slot, _answered in accepted:
        times = [shown.at(f"table-{table}", seq) for screen, shown in
                 zip(screens, arrivals, strict=True)
                 if screen["kind"] == "tv" or screen["table"] == table]
        if times and None not in times:
            taps.append(max(times) - slot)
    rung = sorted(seq for seq, bell in room.items() if bell)
    bell_times, bell_all = [], []
    for bell, seq in zip(sorted(bells, key=lambda b: b["sent"]), rung, strict=False):
        times = [shown.at("banner", seq) for shown in arrivals]
        if None not in times:
            bell_times.append(max(times) - bell["sent"])
            bell_all.append(finished[seq] - bell["sent"])
    # The bytes each kind of screen got for a bell, for the floor's frames of the same size:
    # the frame that brought the banner, and what followed it for the same bell (the tables).
    kinds: dict[str, list[float]] = {}
    for kind in ("device", "phone", "tv", "host"):
        for part, first in ((kind, True), (f"{kind}_rest", False)):
            kinds[part] = [sum(n for t, ident, seq, _, n in s["frames"]
                               if (ident == "banner") == first and seq in rung and t >= start)
                           / max(1, len(rung)) for s in screens if s["kind"] == kind]
    tap_sizes = [n for s in screens if s["kind"] == "device"
                 for t, ident, _, _, n in s["frames"] if t >= start and ident != "banner"]
    return {"taps": taps, "bells": len(bells), "rung": len(rung), "bell_times": bell_times,
            "bell_all": bell_all, "lost": lost, "missed": missed, "frames": frames,
            "size": size, "kinds": kinds, "tap_sizes": tap_sizes}


def analyse(run: dict, scenario: Scenario, opts: dict, logged: set[str] | None = None) -> dict:
    """Latencies, lost frames and sizes from what every screen saw, on the one clock; each
    tap's key against ``logged``, the keys in the night's log (None: the floor's answers).
    Several nights: each night's screens against its own taps and bells, the figures over
    all of them."""
    tally = merged_tally(run["results"])
    nights: dict = {}
    for r in run["results"]:
        nights.setdefault(r.get("night"), []).append(r)
    each = [seen(results, run["start"]) for results in nights.values()]

    def every(key: str) -> list:
        return [x for night in each for x in night[key]]

    taps, bell_times, bell_all, tap_sizes = (every(k) for k in (
        "taps", "bell_times", "bell_all", "tap_sizes"))
    lost = sum((night["lost"] for night in each), Counter())
    frames, size = sum(n["frames"] for n in each), sum(n["size"] for n in each)
    kinds = {k: [x for n in each for x in n["kinds"][k]] for k in each[0]["kinds"]}
    scheduled = round(scenario.rate * opts["seconds"]) * len(nights)
    return {
        "sockets": run["connected"],
        **counted(tally.get("intents", []), logged),
        "recorded_by_night": [counted(merged_tally(r).get("intents", []), logged)["recorded"]
                              for r in nights.values()],
        "refusals": dict(tally.get("refused", {})),
        "resent_5xx": tally.get("resent_5xx", 0),
        "failed_taps": sum(tally.get("failed", {}).values()),
        "failures": dict(tally.get("failed", {})),
        "busy_answers": len(tally.get("busy_answers", [])),
        "busy_answer_p99_ms": ms(tally.get("busy_answers", []), 99),
        "network_errors": sum(tally.get("errors", {}).values()),
        "answer_p99_ms": ms(tally.get("answers", []), 99),
        "tap_p50_ms": ms(taps, 50), "tap_p90_ms": ms(taps, 90), "tap_p99_ms": ms(taps, 99),
        "tap_max_ms": ms(taps, 100), "taps_measured": len(taps),
        "bells": sum(n["bells"] for n in each), "bells_rung": sum(n["rung"] for n in each),
        "bell_p50_ms": ms(bell_times, 50), "bell_p90_ms": ms(bell_times, 90),
        "bell_p99_ms": ms(bell_times, 99), "bell_max_ms": ms(bell_times, 100),
        "bell_all_p99_ms": ms(bell_all, 99),
        "frames_lost": sum(lost.values()), "frames_lost_by_kind": dict(lost),
        "frames_lost_first": every("missed")[:12],  # which, to find out why
        "frames": frames, "bytes_per_frame": round(size / frames) if frames else 0,
        "closed_by_server": sum(r["closed"] for r in run["results"]),
        # from the room's last answer until a second of the server under a tenth of a core
        "idle_after_s": run.get("idle_after_s"),
        "syncs": sum(r.get("syncs", 0) for r in run["results"]),
        "sync_every_s": run.get("sync_every"),
        # how long after the room's last answer a client still heard pushes (until 2 s quiet)
        "drain_s": round(max([0.0, *(r["last_frame"] - r["ended"] for r in run["results"]
                                     if r["ended"])]), 2),
        "kib_per_socket": round((run["rss_after"] - run["rss_before"])
                                / max(1, run["connected"]), 1),
        "rss_mib": round(run["rss_after"] / 1024, 1),
        # a TV's snapshot (the whole room): KB of HTML, and KB on the wire (deflated)
        "tv_snapshot_kb": round(run.get("tv_snapshot", (0, 0))[0] / 1000, 1),
        "tv_snapshot_wire_kb": round(run.get("tv_snapshot", (0, 0))[1] / 1000, 1),
        "cpu_ms_per_tap": round(run["cpu"] * 1000 / scheduled, 2),
        "server_cpu_pct": round(run["cpu"] * 100 / run["wall"], 1),
        "client_late_slots": tally.get("late", 0),
        "_sizes": {"tap": round(sum(tap_sizes) / len(tap_sizes)) if tap_sizes else 1500,
                   "answer": round(sum(tap_sizes) / len(tap_sizes)) if tap_sizes else 1500,
                   **{k: round(sum(v) / len(v)) if v else 0 for k, v in kinds.items()}},
    }


def ratio(a, b) -> float | None:
    return round(a / b, 2) if a is not None and b else None


class Command(BaseCommand):
    help = ("Start the real server, open a whole room's screens over several client "
            "processes, tap over HTTP at a fixed rate and ring the bell; the same against a "
            "minimal websockets relay (the floor); one JSON line per scenario.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--scenario", nargs="+", choices=list(SCENARIOS),
                            default=list(SCENARIOS), help="which scenarios (default: all)")
        parser.add_argument("--seconds", type=float, default=20.0,
                            help="seconds of tapping per scenario (default 20)")
        parser.add_argument("--bells", type=int, default=3,
                            help="bells rung (and taken back) per scenario (default 3)")
        parser.add_argument("--bell-hold", type=float, default=2.0,
                            help="seconds between a bell and its take-back (default 2)")
        parser.add_argument("--clients", type=int, default=3,
                            help="client processes (default 3)")
        parser.add_argument("--rate", type=float, default=None,
                            help="taps per second, instead of each scenario's own")
        parser.add_argument("--no-floor", action="store_true", help="skip the floor relay")
        parser.add_argument("--stock", nargs="+", default=None, metavar="PIECES", help=(
            "run each scenario once per value, the server with these pieces of its tuning "
            "left stock (bunco/runtime: " + ", ".join(PIECES) + "; "
            "'none' for all of it, 'all' for none): e.g. --stock none write layer"))
        parser.add_argument("--no-sync", action="store_true", help=(
            "screens never sync (the pages sync as the server says, and so do the load "
            "test's)"))
        parser.add_argument("--sync-every", type=float, default=None, help=(
            "seconds between a screen's syncs (default: what the server's pages say, "
            "data-sync-every): more often, to see what a sync costs"))
        parser.add_argument("--out", type=Path, default=None,
                            help="also append each JSON line to this file")
        parser.add_argument("--plot", type=Path, default=None,
                            help="draw p99 latency against sockets to this PNG")
        parser.add_argument("--from", dest="source", type=Path, default=None,
                            help="with --plot: draw from these JSON lines, measure nothing")
        parser.add_argument("--log-dir", type=Path, default=None,
                            help="keep each scenario's server output in this folder")
        parser.add_argument("--database-url", default=None, help=(
            "PostgreSQL server (postgres://user:password@host/db, a role that may create "
            "databases): each scenario runs on a fresh database made there and dropped after"))
        parser.add_argument("--redis-url", default=None,
                            help="Redis for the channel layer (redis://host:port/db)")
        parser.add_argument("--workers", type=int, default=1, help=(
            "daphne processes, the screens and tables spread over them in turn (as a load "
            "balancer would); more than one needs --database-url and --redis-url"))
        parser.add_argument("--nights", type=int, default=1, help=(
            "nights at once, each its own room, tap rate, bells and client processes "
            "(default 1; more than one needs --no-floor)"))
        parser.add_argument("--route", choices=("spread", "sticky"), default="spread", help=(
            "spread: each night's screens and tables over the workers in turn; sticky: "
            "every screen and tap of night i on worker i %% N (default spread)"))

    def handle(self, *args, **opts) -> None:
        if opts["workers"] < 1 or opts["nights"] < 1:
            raise CommandError("--workers and --nights must be 1 or more")
        if opts["nights"] > 1 and not opts["no_floor"]:
            raise CommandError("the floor relays one night: give --no-floor with --nights")
        if opts["workers"] > 1 and not (opts["database_url"] and opts["redis_url"]):
            raise CommandError(SEVERAL)
        if opts["source"] is not None:
            if opts["plot"] is None:
                raise CommandError("--from only draws: give --plot too")
            lines = [json.loads(x) for x in opts["source"].read_text().splitlines() if x]
            plot(lines, opts["plot"])
            self.stdout.write(f"drew {opts['plot']}")
            return
        if not Path("/proc/self/stat").exists():
            raise CommandError("loadtest reads the server's CPU and memory from /proc: Linux")
        if opts["seconds"] <= 0 or opts["bells"] < 0 or opts["clients"] < 1:
            raise CommandError("--seconds, --bells and --clients must be positive")
        if opts["bells"] and opts["seconds"] / opts["bells"] < opts["bell_hold"] + 1:
            raise CommandError("bells too close together for --bell-hold")
        self.stdout.write(
            f"loadtest: {opts['seconds']:g} s of taps per scenario, {opts['bells']} bells, "
            f"{opts['clients']} client processes; {machine()}; Python "
            f"{platform.python_version()}")
        lines = []
        with tempfile.TemporaryDirectory(prefix="loadtest-") as tmp:
            env = prepared_env(Path(tmp))
            for name in opts["scenario"]:
                scenario = SCENARIOS[name]
                if opts["rate"]:
                    scenario = Scenario(f"{scenario.sockets}@{opts['rate']:g}",
                                        scenario.tables, scenario.tvs, scenario.host,
                                        opts["rate"])
                for i, stock in enumerate(opts["stock"] or ["none"]):
                    # The floor once per scenario; each stock piece against the same.
                    line = self.scenario(scenario, {**opts, "no_floor": opts["no_floor"] or i},
                                         {**env, "BUNCO_STOCK": stock}, Path(tmp))
                    line["stock"] = stock
                    lines.append(line)
                    self.stdout.write(json.dumps(line))
                    self.stdout.flush()
                    if opts["out"] is not None:
                        with opts["out"].open("a") as f:
                            f.write(json.dumps(line) + "\n")
        if opts["plot"] is not None:
            plot(lines, opts["plot"])

    def scenario(self, scenario: Scenario, opts: dict, env: dict, tmp: Path) -> dict:
        load = os.getloadavg()[0]
        self.stderr.write(f"{scenario.name}: {scenario.tables} tables, {scenario.sockets} "
                          f"sockets, {scenario.rate:g} taps/s (load average {load:.2f})")
        env, database = dict(env), None
        if opts["redis_url"]:  # keys of this run's own, apart from anything else there
            env.update(REDIS_URL=opts["redis_url"],
                       BUNCO_REDIS_PREFIX=f"bunco_load_{secrets.token_hex(4)}")
        servers: list[Server] = []
        try:
            if opts["database_url"]:
                database = FreshDatabase(opts["database_url"])
                env.update(DATABASE_URL=database.url,
                           BUNCO_SECRET_KEY=secrets.token_urlsafe(50))
                run_checked([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
                            env, "migrate")
            nights = [json.loads(run_checked([sys.executable, "-c", SETUP_SCRIPT,
                                              str(scenario.tables)], env, "night setup")
                                 .strip().splitlines()[-1]) for _ in range(opts["nights"])]
            for night in nights:
                night["players"] = [p for p in night["players"] if p["table"] is not None]
            name = f"server-{scenario.tables}-{scenario.rate:g}"
            servers = [Server(tmp / (name if opts["workers"] == 1 else f"{name}-w{i + 1}"),
                              env) for i in range(opts["workers"])]
            for server in servers:
                server.start()
            run = drive(app_target(servers, nights), nights, scenario, opts)
            app = analyse(run, scenario, opts,
                          set().union(*(logged_keys(env, n["night"]) for n in nights)))
            for server in servers:
                if not server.alive():
                    raise CommandError(f"a server died under load:\n{server.tail()}")
        finally:
            for server in servers:
                server.stop()
                if opts["log_dir"] is not None:
                    opts["log_dir"].mkdir(parents=True, exist_ok=True)
                    for path in server.logs:
                        shutil.copy(path, opts["log_dir"] / path.name)
            if database is not None:
                database.drop()
        problems = [p for server in servers for p in server.problems()]
        sizes = app.pop("_sizes")
        line = {"scenario": scenario.name, "tables": scenario.tables, "tvs": scenario.tvs,
                "host_screen": scenario.host, "wanted_sockets": scenario.sockets,
                "taps_per_s": scenario.rate,
                "taps": round(scenario.rate * opts["seconds"]) * opts["nights"],
                "workers": opts["workers"], "nights": opts["nights"], "route": opts["route"],
                "database": "postgresql" if database else "sqlite",
                "channel_layer": "redis" if opts["redis_url"] else "in-memory",
                **app, "server_errors": len(problems), "load_avg_1m": round(load, 2)}
        if problems:
            self.stderr.write("server stderr:\n  " + "\n  ".join(p[:160] for p in problems[:5]))
        if not opts["no_floor"]:
            night = nights[0]
            floor = Floor(tmp, night, sizes)
            try:
                floor.start()
                target = Target([floor.proc.pid], [f"ws://{HOST}:{floor.ws_port}"],
                                [f"http://{HOST}:{floor.http_port}"], night["night"])
                got = analyse(drive(target, [night], scenario, opts), scenario, opts)
            finally:
                floor.stop()
            got.pop("_sizes")
            for key in ("tap_p50_ms", "tap_p99_ms", "tap_max_ms", "bell_p50_ms", "bell_p99_ms",
                        "bell_max_ms", "bell_all_p99_ms", "frames_lost", "failed_taps",
                        "kib_per_socket",
                        "cpu_ms_per_tap", "bytes_per_frame", "sockets"):
                line[f"floor_{key}"] = got[key]
            for key in ("tap_p99_ms", "bell_p99_ms", "bell_all_p99_ms", "kib_per_socket",
                        "cpu_ms_per_tap"):
                line[f"{key}_x_floor"] = ratio(line[key], got[key])
        line["targets_missed"] = missed_targets(line)
        self.stderr.write(f"{scenario.name}: targets "
                          + (f"missed: {', '.join(line['targets_missed'])}"
                             if line["targets_missed"] else "met"))
        return line


# -- the plot ------------------------------------------------------------------------------------

def plot(lines: list[dict], path: Path) -> None:
    """p99 of tap and bell, app and floor, against sockets (log-log), drawn with Pillow."""
    from PIL import Image, ImageDraw

    width, height, left, right, top, bottom = 960, 600, 80, 200, 40, 60
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    points = [x for x in lines if x.get("tap_p99_ms") and x.get("bell_p99_ms")]
    if not points:
        raise CommandError("nothing to draw")
    series = [("tap_p99_ms", "app: tap p99", (31, 90, 200), 0),
              ("bell_p99_ms", "app: bell p99", (200, 40, 40), 0),
              ("floor_tap_p99_ms", "floor: tap p99", (31, 90, 200), 1),
              ("floor_bell_p99_ms", "floor: bell p99", (200, 40, 40), 1)]
    xs = [x["sockets"] for x in points]
    ys = [x[k] for x in points for k, *_ in series if x.get(k)]
    x0, x1 = math.log10(min(xs) / 1.5), math.log10(max(xs) * 1.5)
    y0, y1 = math.log10(max(0.5, min(ys) / 2)), math.log10(max(ys) * 2)

    def at(sockets, value):
        return (left + (math.log10(sockets) - x0) / (x1 - x0) * (width - left - right),
                height - bottom - (math.log10(value) - y0) / (y1 - y0) * (height - top - bottom))

    draw.rectangle([left, top, width - right, height - bottom], outline="black")
    for exp in range(math.floor(y0), math.ceil(y1) + 1):
        for m in (1, 2, 5):
            v = m * 10 ** exp
            if y0 <= math.log10(v) <= y1:
                _, y = at(10 ** x0, v)
                draw.line([left, y, width - right, y], fill=(225, 225, 225))
                draw.text((left - 50, y - 6), f"{v:g} ms", fill="black")
    for sockets in sorted(set(xs)):
        x, _ = at(sockets, 10 ** y0)
        draw.line([x, top, x, height - bottom], fill=(225, 225, 225))
        draw.text((x - 12, height - bottom + 6), str(sockets), fill="black")
    draw.text((left, 12), "p99 latency against open sockets (one daphne, 2 cores; labels: "
              "taps/s)", fill="black")
    draw.text(((width - right) / 2, height - 24), "sockets", fill="black")
    for n, (key, label, colour, dashed) in enumerate(series):
        pts = sorted((x["sockets"], x[key], x["taps_per_s"]) for x in points if x.get(key))
        coords = [at(s, v) for s, v, _ in pts]
        # The line joins each room size's slowest rate; faster rates at the same size (405 at
        # 50 and at 150 taps/s, above capacity) are points of their own above it.
        slowest = {}
        for (sockets, _, rate), xy in zip(pts, coords, strict=True):
            if sockets not in slowest or rate < slowest[sockets][0]:
                slowest[sockets] = (rate, xy)
        line = [slowest[sockets][1] for sockets in sorted(slowest)]
        for a, b in zip(line, line[1:], strict=False):
            if dashed:
                steps = max(1, int(math.dist(a, b) // 8))
                for i in range(0, steps, 2):
                    p = [a[j] + (b[j] - a[j]) * i / steps for j in (0, 1)]
                    q = [a[j] + (b[j] - a[j]) * (i + 1) / steps for j in (0, 1)]
                    draw.line([*p, *q], fill=colour, width=2)
            else:
                draw.line([*a, *b], fill=colour, width=3)
        for (x, y), (_, _, rate) in zip(coords, pts, strict=True):
            r = 4
            shape = draw.ellipse if not dashed else draw.rectangle
            shape([x - r, y - r, x + r, y + r], outline=colour, fill="white" if dashed else colour)
            if not dashed and key == "tap_p99_ms":
                draw.text((x + 6, y + 4), f"{rate:g}/s", fill=(90, 90, 90))
        ly = top + 10 + n * 22
        lx = width - right + 14
        if dashed:
            draw.line([lx, ly + 6, lx + 10, ly + 6], fill=colour, width=2)
            draw.line([lx + 16, ly + 6, lx + 26, ly + 6], fill=colour, width=2)
        else:
            draw.line([lx, ly + 6, lx + 26, ly + 6], fill=colour, width=3)
        draw.text((lx + 32, ly), label, fill="black")
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path)
