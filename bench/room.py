"""The load test's room: the scenarios, the server's or the floor's target, every screen of a
night spread over client processes (``bench/loadclient.py``), and driving them for one run.
Linux only: the server's CPU and memory are read from /proc."""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import re
import secrets
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import httpx
from django.conf import settings
from django.core.management.base import CommandError

from bench.loadclient import DRAIN_AT_MOST, Plan, ScreenSpec
from bench.loadclient import main as client_main
from bench.server import HOST, PHONES_PER_TABLE, Server, free_port, run_checked
from bunco import limits

# The keys of a night's log, asked of the server's own database (the command's settings name
# another one): whether a tap counts is what the log holds, not what its answer said.
LOG_SCRIPT = """
import json, sys
import django
django.setup()
from bunco.models import ScoreEvent

# The rolls the load test tapped: the head table's one (the warm-up) is not of them.
rows = ScoreEvent.objects.filter(night_id=int(sys.argv[1]),
                                 kind=ScoreEvent.Kind.ROLL).exclude(table=1)
keys = ScoreEvent.objects.filter(night_id=int(sys.argv[1])).values_list("key", flat=True)
mix = {}
for actor, data in rows.values_list("actor", "data"):
    what = ((data or {}).get("quick") or "dice",
            "table's phone" if actor.startswith("table ") else "players' phones")
    mix[" from ".join(what)] = mix.get(" from ".join(what), 0) + 1
print(json.dumps({"keys": [str(k) for k in keys], "mix": mix}))
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
            sync=not opts.get("no_sync"), sync_every=every,
            tap_over=opts.get("tap_over") or "socket",
            phone_every=opts.get("phone_every", 4)))
    return out


def drive(target: Target, nights: list[dict], scenario: Scenario, opts: dict) -> dict:
    """Open each night's room over its client processes, tap and ring, and bring back what
    they saw."""
    ctx = multiprocessing.get_context("fork")
    work = [p for i, night in enumerate(nights) for p in plans(target, night, scenario, opts, i)]
    rss_before = sum(proc_rss_kib(pid) for pid in target.pids)
    pipes, procs = _start_clients(ctx, work)
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
        _close_clients(pipes, procs)
    return {"results": results, "start": start, "connected": connected, "wall": wall,
            "snapshot_bytes": snapshot_bytes, "tv_snapshot": tv_snapshot,
            "rss_before": rss_before,
            "rss_after": rss_after, "cpu": cpu, "idle_after_s": idle.get("after"),
            "sync_every": work[0].sync_every if work and work[0].sync else None}


def _start_clients(ctx, work: list[Plan]) -> tuple[list, list]:
    """A client process for each plan, and the pipe to each."""
    pipes, procs = [], []
    for plan in work:
        ours, theirs = ctx.Pipe()
        proc = ctx.Process(target=client_main, args=(theirs, plan), daemon=True)
        proc.start()
        theirs.close()
        pipes.append(ours)
        procs.append(proc)
    return pipes, procs


def _close_clients(pipes: list, procs: list) -> None:
    """The screens close only now, once the server's CPU is read; every client process ends."""
    for pipe in pipes:
        with contextlib.suppress(OSError, ValueError):
            pipe.send(("close", None))
    for proc in procs:
        proc.join(timeout=30)
        if proc.is_alive():
            proc.kill()


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

def logged(env: dict, night: int) -> tuple[set[str], dict[str, int]]:
    """The keys in a night's log, and its rolls by what was tapped and from which phone."""
    got = json.loads(run_checked([sys.executable, "-c", LOG_SCRIPT, str(night)], env,
                                 "reading the log").strip().splitlines()[-1])
    return set(got["keys"]), got["mix"]


